/* optimizer_check.c - a solution checked before the optimizer keeps it, and the steps of a
 * list of pushes (optimizer_check.h). */
#include "optimizer_check.h"

#include <stdlib.h>

/* Replays `steps` from `start`: true when every step is legal, its push marked as one, and
 * the end solved; counts its moves and pushes. */
bool optimizer_replay_solves(const board *b, const position *start, const game_step *steps,
                             int count, int *moves, int *pushes)
{
    position p;
    if (!position_copy(&p, start, b)) return false;
    bool ok = true;
    *pushes = 0;
    for (int i = 0; ok && i < count; i++) {
        step_result r = board_step(b, &p, steps[i].direction);
        ok = r != STEP_BLOCKED && (r == STEP_PUSHED) == steps[i].push;
        *pushes += r == STEP_PUSHED;
    }
    ok = ok && position_is_solved(&p, b);
    *moves = count;
    position_free(&p);
    return ok;
}

/* The steps of `pushes` from `start`, the player walking by shortest paths; NULL when one is
 * not possible (never, for what the search found) or out of memory. */
game_step *optimizer_steps_of(const board *b, const position *start, const optimizer_push *pushes,
                              int count, int *length)
{
    position p;
    if (!position_copy(&p, start, b)) return NULL;
    size_t capacity = 1024;
    game_step *steps = malloc(capacity * sizeof *steps);
    direction *walk = malloc((size_t)b->size * sizeof *walk);
    int n = 0;
    bool ok = steps && walk;
    for (int i = 0; ok && i < count; i++) {
        int stand = pushes[i].box - b->delta[pushes[i].direction];
        int w = board_path(b, &p, stand, walk, b->size);
        ok = w >= 0;
        if (ok && (size_t)(n + w + 1) > capacity) {
            while ((size_t)(n + w + 1) > capacity) capacity *= 2;
            game_step *more = realloc(steps, capacity * sizeof *more);
            ok = more != NULL;
            if (ok) steps = more;
        }
        for (int k = 0; ok && k < w; k++) {
            steps[n++] = (game_step){.direction = walk[k]};
            board_step(b, &p, walk[k]);
        }
        ok = ok && board_step(b, &p, pushes[i].direction) == STEP_PUSHED;
        if (ok) steps[n++] = (game_step){.direction = pushes[i].direction, .push = true};
    }
    free(walk);
    position_free(&p);
    if (!ok) {
        free(steps);
        return NULL;
    }
    *length = n;
    return steps;
}
