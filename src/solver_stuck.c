/* solver_stuck.c - deadlock patterns learned while searching: a store of box sets and
 * regions, listed under an anchor square. */
#include "solver_stuck.h"

#include <stdlib.h>
#include <string.h>

bool solver_stuck_patterns_init(solver_stuck_patterns *p, const board *board)
{
    *p = (solver_stuck_patterns){.words = ((size_t)board->size + 63) / 64};
    p->first = malloc((size_t)board->size * sizeof *p->first);
    if (!p->first) return false;
    for (int i = 0; i < board->size; i++) p->first[i] = -1;
    return true;
}

void solver_stuck_patterns_free(solver_stuck_patterns *p)
{
    free(p->first);
    free(p->next);
    free(p->start);
    free(p->size);
    free(p->squares);
    free(p->regions);
    *p = (solver_stuck_patterns){0};
}

/* Makes room for one more pattern of `count` squares. */
static bool grow(solver_stuck_patterns *p, int count)
{
    if (p->count == p->capacity) {
        int capacity = p->capacity ? 2 * p->capacity : 64;
        int *next = realloc(p->next, (size_t)capacity * sizeof *next);
        if (next) p->next = next;
        int *start = realloc(p->start, (size_t)capacity * sizeof *start);
        if (start) p->start = start;
        int *size = realloc(p->size, (size_t)capacity * sizeof *size);
        if (size) p->size = size;
        uint64_t *regions = realloc(p->regions, (size_t)capacity * p->words * sizeof *regions);
        if (regions) p->regions = regions;
        if (!next || !start || !size || !regions) return false;
        p->capacity = capacity;
    }
    if (p->squares_used + (size_t)count > p->squares_capacity) {
        size_t capacity = 2 * p->squares_capacity + (size_t)count + 256;
        int *squares = realloc(p->squares, capacity * sizeof *squares);
        if (!squares) return false;
        p->squares = squares;
        p->squares_capacity = capacity;
    }
    return true;
}

void solver_stuck_patterns_add(solver_stuck_patterns *p, const int *squares, int count,
                               const uint64_t *region)
{
    if (count <= 0 || p->count == SOLVER_STUCK_PATTERNS || !grow(p, count)) return;
    int i = p->count++;
    p->start[i] = (int)p->squares_used;
    p->size[i] = count;
    memcpy(p->squares + p->squares_used, squares, (size_t)count * sizeof *squares);
    p->squares_used += (size_t)count;
    memcpy(p->regions + (size_t)i * p->words, region, p->words * sizeof *region);
    int anchor = squares[count - 1];
    p->next[i] = p->first[anchor];
    p->first[anchor] = i;
}

bool solver_stuck_patterns_match(solver_stuck_patterns *p, const uint8_t *boxes,
                                 const int *box_square, int box_count, int player)
{
    if (p->count == 0) return false;
    for (int b = 0; b < box_count; b++) {
        for (int i = p->first[box_square[b]]; i >= 0; i = p->next[i]) {
            const uint64_t *region = p->regions + (size_t)i * p->words;
            if (!(region[player / 64] >> (player % 64) & 1)) continue;
            const int *squares = p->squares + p->start[i];
            int k = 0;
            while (k < p->size[i] && boxes[squares[k]]) k++;
            if (k == p->size[i]) {
                p->matched++;
                return true;
            }
        }
    }
    return false;
}
