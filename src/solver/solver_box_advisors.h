/* solver_box_advisors.h - FESS's advisors over whole box moves: the joiner and the opener.
 *
 * Festival's moves take one box, the others standing still, to any square it can be pushed
 * to, and its advisors choose among those moves; our search pushes one square at a time,
 * so a box that shuts two regions of the floor apart, or stands near the next target, may
 * need several pushes before any of them shows as progress. These advisors look at every
 * square each box can be taken to (solver_box_search_all()) and name one move of several
 * pushes each, which the search adds as a macro child that costs no weight:
 *   - joiner: the move that leaves the fewest regions of free floor, fewer than now
 *     (Festival's connectivity advisor; ties to the fewest pushes, then the first box);
 *     only a box whose free neighbours lie in two regions or more can join any;
 *   - opener: when no box can be packed, the box nearest (by walking, walls only) to the
 *     targets of the layer being filled, taken as far from them as it can go without
 *     leaving more regions (Festival's opener, which clears the way to the next target).
 * A box on a target the packing feature counts is never moved. Owns its one-box search and
 * work space; puts boxes on and off the search's floor while it counts regions and leaves
 * it as it found it. Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_BOX_ADVISORS_H
#define SOKOBAN_SOLVER_BOX_ADVISORS_H

#include <stdbool.h>
#include <stdint.h>

#include "ida.h"
#include "solver_domain.h"
#include "solver_features.h"
#include "solver_macro.h"

/* A move one advisor names: `count` pushes (in `path`) take the box on `from` to `to`;
 * count 0: none. */
typedef struct solver_box_advice {
    int count, from, to;
    ida_move *path;
} solver_box_advice;

typedef struct solver_box_advisors {
    const solver_features *features; /* the packing layers and targets; not owned */
    solver_box_search box;
    int *target_of;  /* per square: its target index (solver_features.h), or -1 */
    uint32_t *taken; /* per square: == taken_stamp when a move there was weighed */
    uint32_t taken_stamp;
    int *walk;      /* per square: walking distance from the targets to fill (walls only) */
    int *seed;      /* the squares of those targets, the last time walk was worked out */
    int seed_count; /* their number; -1 before the first time */
    int *queue;     /* of squares */
    int *label;     /* per square: its region of free floor (its first square), or -1 */
    uint32_t *mark; /* the regions' flood by squares: == mark_stamp when flooded */
    uint32_t mark_stamp;
    uint64_t *left, *region; /* the regions' flood over rows: a word a row each */
    int path_capacity;
    solver_box_advice joiner, opener;
    struct candidate *candidates; /* the boxes the advisors may move (solver_box_advisors.c) */
} solver_box_advisors;

/* Sets up the advisors for searches on `board`. False when out of memory. */
bool solver_box_advisors_init(solver_box_advisors *advisors, const board *board,
                              const solver_features *features);
void solver_box_advisors_free(solver_box_advisors *advisors);

/* With `join` the joiner's, with `open` the opener's move in the search's current state,
 * whose free floor falls into `regions` regions: advisors->joiner and advisors->opener
 * (count 0 when an advisor has none or is not asked). */
void solver_box_advisors_advise(solver_box_advisors *advisors, solver_search *search, int regions,
                                bool join, bool open);

/* The regions of free floor in the current state with the box on `from` taken to `to`
 * (the search's floor is left as it was). */
int solver_box_advisors_regions_after(solver_box_advisors *advisors, solver_search *search,
                                      int from, int to);

/* The parts the floor of `tree` (solver_floor_tree.h) falls into round a box on `cut`: the
 * number of parts its free neighbours lie in. */
int solver_box_advisors_parts_round(const solver_floor_tree *tree, int cut);

#endif
