/* search_walk.c - random walks of pushes through a solver search. */
#include "search_walk.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void search_walk_set(solver_search *s, const board *b, const position *p)
{
    int count = 0;
    for (int q = 0; q < b->size; q++)
        if (p->boxes[q]) s->box_square_scratch[count++] = (uint16_t)q;
    solver_search_set(s, s->box_square_scratch, p->player);
}

void search_walk_start(solver_search *s, const board *b, const position *start)
{
    search_walk_set(s, b, start);
    solver_search_bound(s);
}

bool search_walk_push(solver_search *s, const ida_domain *domain, unsigned *seed)
{
    ida_move moves[4 * 64];
    int n = domain->expand(s, moves);
    if (n == 0) return false;
    *seed = *seed * 1103515245u + 12345u;
    int cost;
    int h = domain->make(s, moves[(*seed >> 8) % (unsigned)n], 0, &cost);
    return h != IDA_PRUNE && h < IDA_INFINITY;
}

void search_walk_position(const solver_search *s, const board *b, position *p)
{
    memset(p->boxes, 0, (size_t)b->size);
    for (int i = 0; i < s->box_count; i++) p->boxes[s->box_square[i]] = 1;
    p->player = s->player;
}

bool search_walk_pushes_solve(const board *b, const position *start, const ida_move *path,
                              int length)
{
    position p;
    direction *walk = malloc((size_t)b->size * sizeof *walk);
    bool ok = walk && position_copy(&p, start, b);
    if (!ok) {
        free(walk);
        return false;
    }
    for (int i = 0; ok && i < length; i++) {
        int square = solver_move_square(path[i]);
        direction d = solver_move_direction(path[i]);
        int steps = board_path(b, &p, square - b->delta[d], walk, b->size);
        ok = steps >= 0 && p.boxes[square];
        for (int k = 0; ok && k < steps; k++) ok = board_step(b, &p, walk[k]) == STEP_MOVED;
        ok = ok && board_step(b, &p, d) == STEP_PUSHED;
    }
    ok = ok && position_is_solved(&p, b);
    free(walk);
    position_free(&p);
    return ok;
}
