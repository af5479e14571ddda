/* solver_pulls.h - the packing order's searches over the floor (solver_packing.h is built on
 * them): how far a box on a goal can be pulled while the player walks round the other boxes,
 * where it may be parked, the squares boxes can be pushed to, YASS's gate squares, and where
 * the player stands once every box is packed. Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_PULLS_H
#define SOKOBAN_SOLVER_PULLS_H

#include <stdbool.h>
#include <stdint.h>

#include "rules/board.h"
#include "solver_bound.h"
#include "solver_options.h"

/* Parking (YASS's packing order): when, with `sources`, no box left on a goal can be
 * pulled home, one of them is pulled instead to a free square off the goals, the farthest
 * its pulls reach (its parking square), and the analysis goes on with it there. Filled
 * forwards, a box comes to the parking square in the layer that square gets (when the box
 * leaves it in the analysis), waits there, and goes on to its goal in the goal's layer. */
typedef struct solver_parking {
    /* Read: per square, 1 where a box can be left (solver_macro_rest_squares()); the
     * parking squares are chosen among those. NULL: anywhere. */
    const uint8_t *rest;
    /* Read: YASS's rules for the order search (`early`, see solver_packing_layers_until()),
     * with the push distances they choose parking squares by. Written: whether the order
     * follows them (false when they found no whole order). */
    bool early;
    const solver_distances *distances;
    int count;
    int *square; /* the parking squares (room for the number of goals) */
    int *goal;   /* the goal index whose box waits on each */
    int *layer;  /* the layer in which a box comes to wait there */
} solver_parking;

/* Work space of the packing order's pulling searches. */
typedef struct solver_pulls {
    const board *board;
    const uint8_t *box; /* the boxes still on goals */
    uint32_t *visit;    /* per (square, side) state */
    int *queue;
    uint8_t *reach;
    int *reach_queue;
    uint32_t stamp;
    const solver_stop *stop; /* may be NULL */
    uint32_t *seen;          /* per square: == stamp once a state of it is queued */
    int *firsts;             /* the states that reach a square first, in order */
    const uint8_t *rest;     /* where a box may be parked (solver_parking's); NULL: anywhere */
    uint64_t work;           /* the squares solver_pulls_reach() has flooded */
} solver_pulls;

/* How a parking square is chosen (see solver_pulls_away()). */
typedef enum solver_park_rule {
    SOLVER_PARK_LAST,      /* the square the pulls reach last, not the player's own */
    SOLVER_PARK_WALK_BACK, /* the farthest by pulls that the player can walk back to the goal from
                            */
} solver_park_rule;

/* Sets up the work space of the pulls on `b` (`stop` and `rest` may be NULL; p->box is the
 * caller's to point at the boxes still on goals). False when out of memory (free it
 * still). */
bool solver_pulls_init(solver_pulls *p, const board *b, const solver_stop *stop,
                       const uint8_t *rest);
void solver_pulls_free(solver_pulls *p);

/* The squares the player can walk to from `from` with the boxes p->box in place, one more box
 * on `extra` (-1: none) and the box on `gone` taken away (-1: none), into p->reach. */
void solver_pulls_reach(solver_pulls *p, int from, int extra, int gone);

/* True when `square` is one of `parking`'s squares already (may be NULL: no). */
bool solver_parking_has(const solver_parking *parking, int square);

/* A breadth-first search over the pulls of the box on `square`, the player from `player`:
 * with `home`, the square of `home` the box gets back to first; without, its parking square
 * by `rule` (`after`, may be NULL, gets where the player then stands). -1 when none, or when
 * p->stop says stop. */
int solver_pulls_away(solver_pulls *p, int square, int player, const uint8_t *home,
                      const uint8_t *sources, const solver_parking *parking, solver_park_rule rule,
                      int *after);

/* Every pull of the box on `square` but those into a dead end: the states in p->queue, in
 * the order reached; returns their number (-1: told to stop), *area the squares reached. */
int solver_pulls_all(solver_pulls *p, int square, int player, int *area);

/* Of the `count` states of solver_pulls_all() in p->queue, those marked 1 in p->firsts[]:
 * the best by `key` (highest first, then the lower square) from which the player can walk
 * back to `goal`, marked 0 then; -1 when none. */
int solver_pulls_best_walk_back(solver_pulls *p, int count, int goal, const int *key);

/* YASS's box-reachable squares: where boxes can be pushed from `sources`, each alone, marked
 * 1 in `reached`; returns their number, -1 when out of memory. */
int solver_pulls_box_reachable(const board *b, const solver_distances *d, const uint8_t *sources,
                               uint8_t *reached);

/* YASS's gate squares into `gate`: squares without which the empty floor falls apart. */
void solver_pulls_gate_squares(const board *b, const solver_distances *d, uint8_t *gate);

/* Where the player stands in the packed position (every goal holding a box): the part of the
 * floor holding the most `sources`, his own when it holds as many. `mark` and `queue` are
 * work space of the board's size. */
int solver_pulls_packed_player(const board *b, int player, const uint8_t *sources, uint8_t *mark,
                               int *queue);

#endif
