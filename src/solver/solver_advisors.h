/* solver_advisors.h - FESS's advisors: the pushes the fast mode takes as free.
 *
 * A state's weight in its feature cell counts the pushes on the way to it that no advisor
 * asked for, a box's pushes that carry it out of the way counted as one, as Festival counts
 * a move (solver_advisors_weigh()). The advisors, after Shoham and Schaeffer's Festival:
 *   - packing: a box taken by the fewest pushes to an empty goal of the packing layer to
 *     fill next, the other boxes standing still: a macro of several pushes;
 *   - packer: of a state's single pushes, the one with the least bound that raises the
 *     packing feature;
 *   - joiner: the one with the least bound that joins regions of the floor;
 *   - opener: the push of the first box in the way of the box the packing advisor would
 *     have taken, when it could take none.
 * Owns its one-box searches and flood work space; reads the search's state, the features
 * and the store's nodes, changes only the weights it is asked to set. Part of the solver
 * (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_ADVISORS_H
#define SOKOBAN_SOLVER_ADVISORS_H

#include <stdbool.h>
#include <stdint.h>

#include "ida.h"
#include "solver_domain.h"
#include "solver_features.h"
#include "solver_macro.h"
#include "solver_store.h"

/* In FESS an open list's priority is a state's weight above its matching bound's
 * SOLVER_WEIGHT_SHIFT bits (solver_fast.c); weights stop at SOLVER_MAX_WEIGHT. */
enum {
    SOLVER_WEIGHT_SHIFT = 20,
    SOLVER_MAX_WEIGHT = (1 << (32 - SOLVER_WEIGHT_SHIFT)) - 1,
};

/* A new state met while expanding one, before it is put on an open list. */
typedef struct solver_child {
    int node; /* its index in the store */
    int h;    /* its bound */
    int aim;  /* pushes from the box pushed to its next target (solver_features_aim()) */
} solver_child;

/* A box the packing advisor may take to goal `goal`, `distance` pushes away for a lone box. */
typedef struct solver_candidate {
    int square, goal, distance;
} solver_candidate;

typedef struct solver_advisors {
    const solver_features *features; /* the packing layers; not owned */
    solver_box_search box;           /* one-box searches (box.goal_of: goal index per square) */
    ida_move *path;                  /* the packing advice's pushes, 4 * board size at most */
    int path_capacity;
    solver_candidate *candidates; /* box_count of them */
    int *wanted;                  /* the targets of the layer to fill that need a box */
    int opener;                   /* the box the opener would push first, or -1 */
    uint32_t *mark;               /* the relaxed flood of might_pack() */
    /* the packing advisor's progress in the current state: its candidates, the next one to
     * try, the full searches made and the layer to fill */
    int candidate_count, next_candidate, searches, top;
    uint32_t stamp;
    int *queue;
    /* might_pack() over rows of bits (solver_rows.h), when the board fits: the targets of
     * each layer (layer * height + row; layers 0 .. target_layers - 1), the squares a box
     * may stand on (not dead, by `live_of`'s distances; built at the first call) and the
     * flood's rows, a word a row each; NULL when the board does not fit */
    uint64_t *target_rows, *live_rows, *reach_rows;
    int target_layers;
    const solver_distances *live_of;
    /* solver_advisors_mark_arrivals()'s squares: those holding arrival_stamp */
    uint32_t *arrival;
    uint32_t arrival_stamp;
} solver_advisors;

/* Sets up the advisors for searches on `board` with `box_count` boxes. False when out of
 * memory. */
bool solver_advisors_init(solver_advisors *advisors, const board *board, int box_count,
                          const solver_features *features);
void solver_advisors_free(solver_advisors *advisors);

/* The packing advisor in the current state: tries the boxes off goals from the nearest to
 * an empty goal of the layer to fill next (for a lone box) outwards, and takes the first
 * that gets there. Returns the number of pushes (in advisors->path; 0: no advice); *from
 * and *goal are where the box starts and ends. When no box gets there, advisors->opener is
 * the first box in the way of the nearest one; else -1. */
int solver_advisors_packing(solver_advisors *advisors, const solver_search *search, int *from,
                            int *goal);
/* The advice for the next box that gets there, after solver_advisors_packing() in the same
 * state (the search back in it), within the same bound on full searches: YASS offers a path
 * for every box that can fill the next target. 0 when there is none. */
int solver_advisors_packing_next(solver_advisors *advisors, const solver_search *search, int *from,
                                 int *goal);

/* True when the box on `origin` might get to an empty goal (or parking square) of packing
 * layer `layer`: it could be pushed there if the player could stand on any free square,
 * the other boxes standing still and dead squares left out. A cheap test before the full
 * search; over rows of bits when the search has them (search->use_rows), else square by
 * square. */
bool solver_advisors_might_pack(solver_advisors *advisors, const solver_search *search, int origin,
                                int layer);
/* A cheaper test before that one, for all the boxes of a state at once. Marks the squares
 * from which a lone box could be pushed to an empty target of `layer` with the other
 * boxes in its way but the player standing on any floor, by one flood back from those
 * targets (the packing advisor marks them once a state). */
void solver_advisors_mark_arrivals(solver_advisors *advisors, const solver_search *search,
                                   int layer);
/* False when the box on `origin` has no first push onto a square marked for that layer
 * (the player's square behind it free): solver_advisors_might_pack() then says no as well,
 * since every square of its flood but the first is such a square. */
bool solver_advisors_may_arrive(const solver_advisors *advisors, const solver_search *search,
                                int origin);

/* The packer, joiner and opener among the `count` new children of node `parent`, whose
 * bound is `bound`: they cost nothing, every other single push costs 1 in the weight that
 * orders each cell, but for a push that carries on the parent's box move (the box its push
 * moved, that push weighed or itself carrying a weighed move on) without lowering the
 * bound: the rest of a move that takes a box out of the way is free. Sets the children's
 * weights in the store. (The packing macro is weighed apart.) */
void solver_advisors_weigh(const solver_advisors *advisors, solver_store *store, int parent,
                           int bound, const solver_child *children, int count);

#endif
