/* solver_below.c - the least bound met below each box set (solver_below.h). */
#include "solver_below.h"

#include <stdlib.h>

enum { MOST_LOG2_SLOTS = 20, LEAST_LOG2_SLOTS = 10 };

size_t solver_below_bytes(int log2_slots)
{
    return ((size_t)1 << log2_slots) * sizeof(uint64_t);
}

int solver_below_log2_for(size_t bytes)
{
    int log2 = MOST_LOG2_SLOTS;
    while (log2 > LEAST_LOG2_SLOTS && solver_below_bytes(log2) > bytes / 16) log2--;
    return log2;
}

bool solver_below_init(solver_below *b, int log2_slots)
{
    size_t slots = (size_t)1 << log2_slots;
    *b = (solver_below){.mask = (uint32_t)(slots - 1)};
    b->slots = calloc(slots, sizeof *b->slots);
    if (!b->slots) {
        solver_below_free(b);
        return false;
    }
    return true;
}

void solver_below_free(solver_below *b)
{
    free(b->slots);
    free(b->path);
    *b = (solver_below){0};
}

bool solver_below_enter(solver_below *b, int depth, int h)
{
    if (depth >= b->depths) {
        int depths = b->depths ? 2 * b->depths : 256;
        while (depths <= depth) depths *= 2;
        uint16_t *path = realloc(b->path, (size_t)depths * sizeof *path);
        if (!path) return false;
        b->path = path;
        b->depths = depths;
    }
    b->path[depth] = h < SOLVER_BELOW_NONE ? (uint16_t)h : SOLVER_BELOW_NONE;
    return true;
}

void solver_below_leave(solver_below *b, int depth, uint64_t key)
{
    if (depth >= b->depths) return;
    uint16_t least = b->path[depth];
    if (least == SOLVER_BELOW_NONE) return;
    *solver_below_slot(b, key) = (key & ~(uint64_t)0xffff) | least;
    if (depth > 0 && least < b->path[depth - 1]) b->path[depth - 1] = least;
}
