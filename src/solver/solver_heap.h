/* solver_heap.h - a binary min-heap of 64-bit entries, lowest first: a priority in the high
 * bits and an index in the low ones (priority << 32 | index, or another split where the
 * priority needs more bits and the indexes fewer), so that entries of equal priority come
 * out lowest index first and the order never depends on the heap's shape. The fast mode's
 * open lists (solver_open.h), the optimal mode's pair searches (solver_penalty.c), the
 * optimizer's pulls (optimizer_pull.c) and its search (optimizer_search.c), and the packing
 * plan's search (solver_packing_search.c). Inline: the pair searches push and pop once a
 * position. Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_HEAP_H
#define SOKOBAN_SOLVER_HEAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* Zeroed is empty (it grows by doubling); or items set up front with their capacity, which
 * it grows past only when full. free(items) when done. */
typedef struct solver_heap {
    uint64_t *items; /* priority << 32 | index */
    int count, capacity;
} solver_heap;

/* Puts `entry` on the heap. False when out of memory (the heap as it was). */
static inline bool solver_heap_push(solver_heap *h, uint64_t entry)
{
    if (h->count == h->capacity) {
        int capacity = h->capacity ? h->capacity * 2 : 64;
        uint64_t *items = realloc(h->items, (size_t)capacity * sizeof *items);
        if (!items) return false;
        h->items = items;
        h->capacity = capacity;
    }
    int i = h->count++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (h->items[parent] <= entry) break;
        h->items[i] = h->items[parent];
        i = parent;
    }
    h->items[i] = entry;
    return true;
}

/* Takes the lowest entry off a heap that is not empty. */
static inline uint64_t solver_heap_pop(solver_heap *h)
{
    uint64_t top = h->items[0], last = h->items[--h->count];
    int i = 0, n = h->count;
    for (;;) {
        int child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && h->items[child + 1] < h->items[child]) child++;
        if (last <= h->items[child]) break;
        h->items[i] = h->items[child];
        i = child;
    }
    if (n > 0) h->items[i] = last;
    return top;
}

#endif
