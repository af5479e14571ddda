/* game.c - a level in play: steps recorded for undo and redo. */
#include "game.h"

#include <assert.h>
#include <stdlib.h>

bool game_init(game *g, const level *lv)
{
    *g = (game){.level = lv};
    if (!board_from_level(lv, &g->board, &g->start)) return false;
    if (!position_copy(&g->position, &g->start, &g->board)) {
        game_free(g);
        return false;
    }
    return true;
}

void game_free(game *g)
{
    board_free(&g->board);
    position_free(&g->start);
    position_free(&g->position);
    free(g->history);
    g->history = NULL;
    g->length = g->capacity = 0;
}

/* Records a step at the current point of the history, dropping what could be redone. */
static bool record(game *g, direction d, bool push)
{
    if (g->moves == g->capacity) {
        int capacity = g->capacity ? g->capacity * 2 : 256;
        game_step *history = realloc(g->history, (size_t)capacity * sizeof *history);
        if (!history) return false;
        g->history = history;
        g->capacity = capacity;
    }
    g->history[g->moves] = (game_step){.direction = d, .push = push};
    g->length = g->moves + 1;
    return true;
}

step_result game_step_in(game *g, direction d)
{
    step_result result = board_try_step(&g->board, &g->position, d);
    if (result == STEP_BLOCKED || !record(g, d, result == STEP_PUSHED)) return STEP_BLOCKED;
    board_step(&g->board, &g->position, d);
    g->moves++;
    if (result == STEP_PUSHED) g->pushes++;
    return result;
}

void game_drop_redo(game *g)
{
    g->length = g->moves;
}

bool game_undo(game *g)
{
    assert(g->moves <= g->length && g->length <= g->capacity && g->pushes <= g->moves);
    if (g->moves == 0) return false;
    game_step s = g->history[--g->moves];
    board_unstep(&g->board, &g->position, s.direction, s.push ? STEP_PUSHED : STEP_MOVED);
    if (s.push) g->pushes--;
    return true;
}

bool game_redo(game *g)
{
    if (g->moves >= g->length) return false;
    game_step s = g->history[g->moves];
    step_result result = board_step(&g->board, &g->position, s.direction);
    /* The history replays as it was recorded. */
    assert(result == (s.push ? STEP_PUSHED : STEP_MOVED));
    (void)result;
    g->moves++;
    if (s.push) g->pushes++;
    return true;
}

bool game_undo_move(game *g)
{
    if (g->moves == 0) return false;
    while (game_undo(g) && g->history[g->moves].joined) {
    }
    return true;
}

bool game_redo_move(game *g)
{
    if (g->moves >= g->length) return false;
    game_redo(g);
    while (g->moves < g->length && g->history[g->moves].joined) game_redo(g);
    return true;
}

bool game_play_move(game *g, const direction *steps, int count)
{
    /* tried on a copy first, so that a blocked step leaves the redo steps too */
    position tried;
    if (!position_copy(&tried, &g->position, &g->board)) return false;
    bool allowed = true;
    for (int i = 0; i < count && allowed; i++)
        allowed = board_step(&g->board, &tried, steps[i]) != STEP_BLOCKED;
    position_free(&tried);
    int first = g->moves;
    for (int i = 0; i < count && allowed; i++) {
        allowed = game_step_in(g, steps[i]) != STEP_BLOCKED;
        if (allowed) g->history[g->moves - 1].joined = i > 0;
    }
    if (!allowed) /* out of memory for the history */
        while (g->moves > first) game_undo(g);
    return allowed;
}

void game_restart(game *g)
{
    while (game_undo(g)) {
    }
}

bool game_undo_push(game *g)
{
    if (g->moves == 0) return false;
    /* back through the last push (when one is in effect), then through the moves that led
     * to it, to where the push before it left the player */
    if (g->pushes > 0)
        while (game_undo(g) && !g->history[g->moves].push) {
        }
    while (g->moves > 0 && !g->history[g->moves - 1].push) game_undo(g);
    return true;
}

bool game_redo_push(game *g)
{
    if (g->moves >= g->length) return false;
    /* forward through the moves up to the next push and the push itself */
    while (game_redo(g) && !g->history[g->moves - 1].push) {
    }
    /* when no push is left to redo, the moves after the last one come back too */
    bool push_left = false;
    for (int i = g->moves; i < g->length && !push_left; i++) push_left = g->history[i].push;
    if (!push_left) game_redo_all(g);
    return true;
}

void game_redo_all(game *g)
{
    while (game_redo(g)) {
    }
}

bool game_is_solved(const game *g)
{
    return position_is_solved(&g->position, &g->board);
}

int game_walk_to(game *g, int target)
{
    int length = board_path(&g->board, &g->position, target, NULL, 0);
    if (length <= 0) return length;
    direction *path = malloc((size_t)length * sizeof *path);
    if (!path) return -1;
    board_path(&g->board, &g->position, target, path, length);
    for (int i = 0; i < length; i++) game_step_in(g, path[i]);
    free(path);
    return length;
}

char *game_lurd(const game *g)
{
    char *text = malloc((size_t)g->moves + 1);
    if (!text) return NULL;
    for (int i = 0; i < g->moves; i++)
        text[i] = direction_letter(g->history[i].direction, g->history[i].push);
    text[g->moves] = '\0';
    return text;
}

/* Appends the shortest walk from `player` to where `p`'s player stands (the boxes as in `p`)
 * to `out`; the new length, or -1 when there is none. */
static int append_walk(const board *b, position *p, int player, direction *walk, game_step *out,
                       int length)
{
    int target = p->player;
    p->player = player;
    int steps = board_path(b, p, target, walk, b->size);
    p->player = target;
    if (steps < 0) return -1;
    for (int k = 0; k < steps; k++) out[length++] = (game_step){.direction = walk[k]};
    return length;
}

bool game_shortest_walks(const board *b, const position *from, const game_step *steps, int count,
                         game_step **out, int *out_count)
{
    *out = NULL;
    *out_count = 0;
    position p;
    if (!position_copy(&p, from, b)) return false;
    game_step *result = malloc((size_t)(count > 0 ? count : 1) * sizeof *result);
    direction *walk = malloc((size_t)b->size * sizeof *walk);
    bool ok = result && walk;
    /* `player`: where the new steps have brought the player; the input's player is p's. */
    int player = p.player, length = 0;
    for (int i = 0; ok && i < count; i++) {
        step_result r = board_step(b, &p, steps[i].direction);
        ok = r != STEP_BLOCKED;
        if (!ok || r != STEP_PUSHED) continue;
        /* the walk to the square before the push, with the boxes as they stood */
        board_unstep(b, &p, steps[i].direction, r);
        length = append_walk(b, &p, player, walk, result, length);
        board_step(b, &p, steps[i].direction);
        ok = length >= 0;
        if (ok) result[length++] = (game_step){.direction = steps[i].direction, .push = true};
        player = p.player;
    }
    if (ok && !position_is_solved(&p, b)) {
        length = append_walk(b, &p, player, walk, result, length);
        ok = length >= 0;
    }
    /* a shortest walk is never longer than the one it replaces */
    assert(!ok || length <= count);
    position_free(&p);
    free(walk);
    if (!ok || length == 0) {
        free(result);
        result = NULL;
    }
    if (ok) {
        *out = result;
        *out_count = length;
    }
    return ok;
}
