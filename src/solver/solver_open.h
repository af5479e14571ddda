/* solver_open.h - the fast mode's open lists: the states found but not yet expanded.
 *
 * One binary min-heap per cell of the feature space (solver_features.h), or a single one
 * when the features are off; an entry is a 32-bit priority (lower first) and a node index
 * of the store (solver_store.h). The next state comes from the next non-empty cell in turn
 * (FESS's round robin over the cells), the best of that cell. With a second list, a
 * single heap of other priorities, every other state comes from it instead (alternating
 * open lists: Roeger and Helmert 2010, "The More, the Merrier"); a state on both is taken
 * once from each, and the caller passes over the second. Part of the solver (solver.h);
 * internal to it. */
#ifndef SOKOBAN_SOLVER_OPEN_H
#define SOKOBAN_SOLVER_OPEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "solver_heap.h"

typedef struct solver_open {
    solver_heap *cells;
    int cell_count, cursor; /* cursor: the cell to look in next */
    size_t count;           /* entries on all heaps */
    solver_heap second;     /* the second list's heap */
    bool alternate;         /* there is a second list */
    bool turn;              /* true: the next state comes from the second list */
} solver_open;

/* The bytes an entry takes (for sizing the store), counting the heaps' doubling; twice that
 * for a state on two lists. */
enum { SOLVER_OPEN_ENTRY_BYTES = 2 * sizeof(uint64_t) };

/* Empty open lists of `cell_count` cells, with a second list when `alternate`. False when
 * out of memory. */
bool solver_open_init(solver_open *open, int cell_count, bool alternate);
void solver_open_free(solver_open *open);

/* Puts node `node` with `priority` (at most UINT32_MAX) in cell `cell`. False when out
 * of memory. */
bool solver_open_push(solver_open *open, int cell, uint64_t priority, int node);

/* Puts node `node` with `priority` (at most UINT32_MAX) on the second list. False when out
 * of memory. */
bool solver_open_push_second(solver_open *open, uint64_t priority, int node);

/* Takes the best node of the second list on its turn (when it holds one), else of the next
 * non-empty cell; -1 when all are empty. */
int solver_open_pop(solver_open *open);

#endif
