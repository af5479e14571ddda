/* solver_features.h - FESS's feature space (Shoham and Schaeffer, the Festival solver).
 *
 * Every state of the fast mode falls in a cell of a two-feature space: the boxes on goals
 * counted in packing order (the packing layers of solver_macro.h, the layer to fill first
 * first, up to the layer being filled), and the number of regions the free
 * floor falls into (1 when the player can walk everywhere; regions beyond REGION_CELLS
 * share a cell). Owns the packing order of the goals, computed once per search from the
 * start, and its own flood work space. Reads the search's current state (solver_domain.h),
 * changes nothing in it. Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_FEATURES_H
#define SOKOBAN_SOLVER_FEATURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "solver_domain.h"
#include "solver_macro.h"
#include "solver_packing.h"

enum {
    /* Player regions beyond this many share a cell. */
    SOLVER_REGION_CELLS = 8,
};

typedef struct solver_features {
    /* The targets of the packing order: the goals (indices 0 .. goal_count - 1), then the
     * parking squares (goal_count + k; solver_macro.h's parking). */
    int target_count;
    int *layer;         /* per target: its packing layer (higher: to fill earlier) */
    uint8_t *on_target; /* per square: 1 on a target (a goal or a parking square) */
    solver_parking parking;
    int *floor; /* the inside squares */
    int floor_count;
    uint32_t *mark; /* flood marks: a square is marked when it holds the stamp */
    uint32_t stamp;
    int *queue;
    uint64_t *rows_left, *rows_region; /* the same over rows of bits (solver_rows.h) */
    /* parking_distance[k * board size + square]: pushes that take a lone box from square to
     * parking square k (the player's side not checked), or SOLVER_NO_PATH */
    uint16_t *parking_distance;
} solver_features;

/* Computes the packing order from the search's current state (the boxes come from where
 * they stand now, or stood in search->plan_from): YASS's rules (solver_packing.h), or with
 * search->searched_plan the plan of the backward search (solver_packing_search.h) when it
 * finds one. False when out of memory or when `stop` (may be NULL) says to give up. */
bool solver_features_init(solver_features *features, const solver_search *search,
                          const solver_stop *stop);
void solver_features_free(solver_features *features);

/* The packing feature of the current state: the boxes on targets, layer by layer in
 * packing order, up to the layer being filled (solver_features_current()). A parking
 * square counts the box on it only; a box on its goal counts for the goal. */
int solver_features_packed(const solver_features *features, const solver_search *search);
/* The same with the layer being filled given (solver_features_current() of the state). */
int solver_features_packed_in(const solver_features *features, const solver_search *search,
                              int current);

/* The pushes that take a lone box from `square` to the nearest target of the layer being
 * filled that still needs a box (0 when none does; SOLVER_NO_PATH when it reaches none):
 * the aim of YASS's packing-order search for the box just pushed. */
int solver_features_aim(const solver_features *features, const solver_search *search, int square);
/* The same with the layer being filled given (solver_features_current() of the state). */
int solver_features_aim_in(const solver_features *features, const solver_search *search, int square,
                           int current);

/* The regions of free floor (no box) in the current state; the player's reach, when it is
 * computed, counts as one region without a new flood. */
int solver_features_regions(solver_features *features, const solver_search *search);
/* The same after a push (or a tunnel or goal-room macro) that took the box pushed last
 * (search->last_box) from `from` to where it stands, when the state before had `before`
 * regions (UINT8_MAX: unknown): `before` again without a flood when the floor round
 * `from` and round the box's square shows that neither joins nor cuts a part; after a push
 * along a line, `before` less the parts `from` joins to the player's and more the pieces
 * the box's square cuts off it, those alone flooded. */
int solver_features_regions_after(solver_features *features, const solver_search *search,
                                  int before, int from);

/* The target's square. */
static inline int solver_features_square(const solver_features *f, const board *b, int target)
{
    return target < b->goal_count ? b->goals[target] : f->parking.square[target - b->goal_count];
}

/* True when target `target` needs no box now: a goal with one, a parking square with one.
 * A box on the parking square's goal does not do (YASS: a parking square is a target of its
 * phase like a goal); once the goal's layer is being filled, solver_features_needed() lets
 * the parking square go. */
static inline bool solver_features_done(const solver_features *f, const board *b,
                                        const uint8_t *boxes, int target)
{
    if (target < b->goal_count) return boxes[b->goals[target]];
    return boxes[f->parking.square[target - b->goal_count]];
}

/* True when target `target` still needs a box while layer `current` is being filled
 * (solver_features_current()): it is not done, and it is no parking square whose box has
 * left for its goal in the goal's turn (YASS lets a parked box go then without the layers
 * after the parking square's counting as undone; before, such a box in transit set the
 * packing feature back to the parking square's layer and aimed the box back at it). */
static inline bool solver_features_needed(const solver_features *f, const board *b,
                                          const uint8_t *boxes, int target, int current)
{
    if (solver_features_done(f, b, boxes, target)) return false;
    if (target < b->goal_count) return true;
    return f->layer[f->parking.goal[target - b->goal_count]] < current;
}

/* The layer being filled in a state with boxes `boxes` (one byte per square): the highest
 * layer with a target that still needs a box; -1 when none does. It depends on the boxes
 * on targets alone: a box moved between squares that are no target leaves it as it was. */
int solver_features_current(const solver_features *features, const board *board,
                            const uint8_t *boxes);

/* The number of cells for `box_count` boxes. */
static inline int solver_features_cell_count(int box_count)
{
    return (box_count + 1) * SOLVER_REGION_CELLS;
}

/* The cell of a state with those features. */
static inline int solver_features_cell(int packed, int regions)
{
    if (regions > SOLVER_REGION_CELLS) regions = SOLVER_REGION_CELLS;
    return packed * SOLVER_REGION_CELLS + regions - 1;
}

/* A fresh stamp for `marks` (`count` of them): a square is marked when it holds the stamp,
 * so nothing needs clearing until the stamp wraps round. */
static inline uint32_t solver_next_stamp(uint32_t *marks, uint32_t *stamp, size_t count)
{
    if (++*stamp == 0) {
        memset(marks, 0, count * sizeof *marks);
        *stamp = 1;
    }
    return *stamp;
}

#endif
