/* box_moves.c - moving one box where the player points: a breadth-first search over the
 * box's square and the side it was pushed from, the player walking between the pushes. */
#include "box_moves.h"

#include <stdlib.h>
#include <string.h>

enum {
    UNSEEN = -1, /* parent[] of a state not reached */
    START = -2,  /* parent[] of a state reached by the first push */
};

/* The search's memory: states are square * 4 + the direction of the push that put the box
 * there (the player stands one square behind it). */
typedef struct search {
    const board *board;
    position *position; /* the other boxes; the moving box is lifted off */
    int *parent;        /* for each state: the state it was pushed from, START or UNSEEN */
    uint8_t *covered;   /* a state whose player region a flood from an equal state took */
    int *states;        /* the queue of states */
    int *floods;        /* the flood's queue of squares */
    uint8_t *flooded;   /* the flood's squares, by stamp */
    int stamp_base;     /* flooded[s] == stamp: s is in the flood in hand */
} search;

/* Floods the player's floor from `from` with the box on `box`: marks flooded[] and returns
 * the stamp those squares hold. */
static uint8_t flood(search *s, int from, int box)
{
    const board *b = s->board;
    if (++s->stamp_base > 255) {
        memset(s->flooded, 0, (size_t)b->size);
        s->stamp_base = 1;
    }
    uint8_t stamp = (uint8_t)s->stamp_base;
    int head = 0, tail = 0;
    s->floods[tail++] = from;
    s->flooded[from] = stamp;
    while (head < tail) {
        int square = s->floods[head++];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + b->delta[d];
            if (s->flooded[next] == stamp || board_is_wall(b, next) || next == box ||
                s->position->boxes[next])
                continue;
            s->flooded[next] = stamp;
            s->floods[tail++] = next;
        }
    }
    return stamp;
}

/* True when a box may be pushed onto `square`. */
static bool free_for_box(const search *s, int square)
{
    return board_is_inside(s->board, square) && !board_is_wall(s->board, square) &&
           !s->position->boxes[square];
}

/* Queues the pushes from the box on `box` with the player's region flooded (stamp): each
 * side the player can reach whose opposite square is free. `from` is the state they are
 * pushed from. The states of `box` whose side lies in the region are covered by this one. */
static void push_all(search *s, int box, uint8_t stamp, int from, int *tail)
{
    const board *b = s->board;
    for (int d = 0; d < DIRECTION_COUNT; d++) {
        int stand = box - b->delta[d];
        if (s->flooded[stand] != stamp) continue;
        s->covered[box * DIRECTION_COUNT + d] = 1;
        int next = box + b->delta[d];
        int state = next * DIRECTION_COUNT + d;
        if (!free_for_box(s, next) || s->parent[state] != UNSEEN) continue;
        s->parent[state] = from;
        s->states[(*tail)++] = state;
    }
}

/* Runs the search from the position until a state puts the box on `target` (-1: never, to
 * reach every state). Returns that state, or -1. */
static int run(search *s, int box, int target)
{
    int head = 0, tail = 0;
    push_all(s, box, flood(s, s->position->player, box), START, &tail);
    while (head < tail) {
        int state = s->states[head++];
        int square = state / DIRECTION_COUNT;
        if (square == target) return state;
        if (s->covered[state]) continue; /* an equal state was expanded already */
        int stand = square - s->board->delta[state % DIRECTION_COUNT];
        push_all(s, square, flood(s, stand, square), state, &tail);
    }
    return -1;
}

static void search_free(search *s)
{
    free(s->parent);
    free(s->covered);
    free(s->states);
    free(s->floods);
    free(s->flooded);
    if (s->position) position_free(s->position);
}

/* Sets up the search with the box on `box` lifted off a copy of the position. */
static bool search_init(search *s, position *copy, const board *b, const position *p, int box)
{
    size_t states = (size_t)b->size * DIRECTION_COUNT;
    *s = (search){.board = b};
    if (!position_copy(copy, p, b)) return false;
    s->position = copy;
    copy->boxes[box] = 0;
    s->parent = malloc(states * sizeof *s->parent);
    s->covered = calloc(states, 1);
    s->states = malloc(states * sizeof *s->states);
    s->floods = malloc((size_t)b->size * sizeof *s->floods);
    s->flooded = calloc((size_t)b->size, 1);
    if (!s->parent || !s->covered || !s->states || !s->floods || !s->flooded) return false;
    for (size_t i = 0; i < states; i++) s->parent[i] = UNSEEN;
    return true;
}

static bool holds_box(const board *b, const position *p, int square)
{
    return square >= 0 && square < b->size && p->boxes[square];
}

int box_moves_reach(const board *b, const position *p, int box, uint8_t *reach)
{
    memset(reach, 0, (size_t)b->size);
    if (!holds_box(b, p, box)) return 0;
    search s;
    position copy;
    int count = BOX_MOVES_NO_MEMORY;
    if (search_init(&s, &copy, b, p, box)) {
        run(&s, box, -1);
        reach[box] = 1;
        count = 1;
        for (int state = 0; state < b->size * DIRECTION_COUNT; state++) {
            int square = state / DIRECTION_COUNT;
            if (s.parent[state] != UNSEEN && !reach[square]) {
                reach[square] = 1;
                count++;
            }
        }
    }
    search_free(&s);
    return count;
}

/* Appends `d` to the growing list of steps; false when out of memory. */
static bool append(direction **steps, int *count, int *capacity, direction d)
{
    if (*count == *capacity) {
        int more = *capacity ? *capacity * 2 : 64;
        direction *grown = realloc(*steps, (size_t)more * sizeof *grown);
        if (!grown) return false;
        *steps = grown;
        *capacity = more;
    }
    (*steps)[(*count)++] = d;
    return true;
}

/* Writes out the walks and pushes that lead to `state`, played on a copy of the position
 * (the box back in place). Returns their count, or BOX_MOVES_NO_MEMORY. */
static int spell_out(const search *s, const position *p, int state, direction **steps)
{
    const board *b = s->board;
    int pushes = 0;
    for (int at = state; at != START; at = s->parent[at]) pushes++;
    int *chain = malloc((size_t)pushes * sizeof *chain);
    direction *walk = malloc((size_t)b->size * sizeof *walk);
    position play;
    bool played = position_copy(&play, p, b);
    int count = 0, capacity = 0;
    bool ok = chain && walk && played;
    if (ok) {
        int i = pushes;
        for (int at = state; at != START; at = s->parent[at]) chain[--i] = at;
    }
    for (int i = 0; ok && i < pushes; i++) {
        direction d = (direction)(chain[i] % DIRECTION_COUNT);
        int stand = chain[i] / DIRECTION_COUNT - 2 * b->delta[d];
        int length = board_path(b, &play, stand, walk, b->size);
        for (int k = 0; ok && k < length; k++) {
            ok = append(steps, &count, &capacity, walk[k]);
            board_step(b, &play, walk[k]);
        }
        ok = ok && length >= 0 && append(steps, &count, &capacity, d);
        if (ok) board_step(b, &play, d);
    }
    free(chain);
    free(walk);
    if (played) position_free(&play);
    if (ok) return count;
    free(*steps);
    *steps = NULL;
    return BOX_MOVES_NO_MEMORY;
}

int box_moves_find(const board *b, const position *p, int box, int target, direction **steps)
{
    *steps = NULL;
    if (!holds_box(b, p, box) || target < 0 || target >= b->size) return BOX_MOVES_NO_WAY;
    if (target == box) return 0;
    search s;
    position copy;
    int result = BOX_MOVES_NO_MEMORY;
    if (search_init(&s, &copy, b, p, box)) {
        int found = run(&s, box, target);
        result = found < 0 ? BOX_MOVES_NO_WAY : spell_out(&s, p, found, steps);
    }
    search_free(&s);
    return result;
}
