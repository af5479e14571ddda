/* search_walk.c - random walks of pushes through a solver search. */
#include "search_walk.h"

#include <stdint.h>

void search_walk_start(solver_search *s, const board *b, const position *start)
{
    int count = 0;
    for (int q = 0; q < b->size; q++)
        if (start->boxes[q]) s->box_square_scratch[count++] = (uint16_t)q;
    solver_search_set(s, s->box_square_scratch, start->player);
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
