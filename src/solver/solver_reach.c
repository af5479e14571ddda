/* solver_reach.c - the player's reach in a search's state (solver_reach.h). */
#include "solver_reach.h"

#include <assert.h>
#include <string.h>

void solver_reach_flood(solver_search *s)
{
    s->reach_valid = true;
    if (s->use_rows) {
        s->region = solver_rows_flood(&s->rows, s->player);
        return;
    }
    /* breadth-first by squares, a stamp per square instead of clearing an array */
    const board *b = s->board;
    if (++s->stamp == 0) {
        memset(s->reach, 0, (size_t)b->size * sizeof *s->reach);
        s->stamp = 1;
    }
    uint32_t stamp = s->stamp;
    uint32_t *reach = s->reach;
    const uint8_t *blocked = s->blocked;
    int *queue = s->queue;
    int d0 = b->delta[0], d1 = b->delta[1], d2 = b->delta[2], d3 = b->delta[3];
    int least = s->player;
    int head = 0, tail = 0;
    reach[s->player] = stamp;
    queue[tail++] = s->player;
    while (head < tail) {
        int square = queue[head++];
        int next[4] = {square + d0, square + d1, square + d2, square + d3};
        for (int k = 0; k < 4; k++) {
            int n = next[k];
            if (reach[n] == stamp || blocked[n]) continue;
            reach[n] = stamp;
            queue[tail++] = n;
            if (n < least) least = n;
        }
    }
    s->region = least;
}

bool solver_reach_keep(solver_search *s)
{
    if (!s->use_rows) return false;
    if (!s->reach_valid)
        return s->pushed_from_depth == s->depth && s->pushed_from_key == s->box_key &&
               solver_rows_has(&s->rows, s->pushed_from_reach, s->player);
    memcpy(s->pushed_from_reach, s->rows.reach, (size_t)s->rows.height * sizeof *s->rows.reach);
    s->pushed_from_key = s->box_key;
    s->pushed_from_region = s->region;
    s->pushed_from_depth = s->depth;
    return true;
}

const uint64_t *solver_reach_before_push(const solver_search *s, int from, int to, int before)
{
    if (!s->use_rows || s->pushed_from_depth != s->depth - 1 ||
        s->pushed_from_key != (s->box_key ^ s->zobrist.box[from] ^ s->zobrist.box[to]) ||
        !solver_rows_has(&s->rows, s->pushed_from_reach, before))
        return NULL;
    return s->pushed_from_reach;
}

bool solver_reach_after_push(solver_search *s, int from, int to)
{
    solver_rows *r = &s->rows;
    int region = solver_rows_reach_after_move(r, s->pushed_from_reach, s->pushed_from_region,
                                              from, to, false, r->reach);
    if (region < 0) return false;
    s->region = region;
    s->reach_valid = true;
#ifdef SOKOBAN_CHECKED
    uint64_t flooded[64];
    assert(solver_rows_flood_into(r, s->player, flooded) == region &&
           memcmp(flooded, r->reach, (size_t)r->height * sizeof *flooded) == 0);
#endif
    return true;
}
