/* solver_oop.h - boxes out of the plan: Festival's out-of-plan feature.
 *
 * Filling the packing order's layers walls in parts of the floor: once the goals of a
 * layer hold their boxes, a box on some squares can no longer be taken to any target still
 * to fill. A box standing there must leave before that layer is filled, or it is lost. For
 * each layer the *zone* is those squares (not dead ones): the goals of that layer and of
 * the layers filled before it made walls, the squares from which no lone box is pushed, the
 * player walking round it, to a target of a later layer (a goal or a parking square). As
 * Festival does, a layer looks ahead: it takes the zone of the next layer whose zone
 * differs from its own, so that boxes are cleared from an area as soon as a later layer
 * will shut it. The feature is the number of boxes in the zone of the layer being filled
 * (solver_features_current()); the out-of-plan advisor (solver_box_advisors.h) takes such
 * a box out of it.
 *
 * Source: Y. Shoham and J. Schaeffer, "The FESS Algorithm", IEEE CoG 2020 (its
 * out-of-plan feature); the zones and their look-ahead read in Festival 3.1's `oop.cpp`.
 * Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_OOP_H
#define SOKOBAN_SOLVER_OOP_H

#include <stdbool.h>
#include <stdint.h>

#include "solver_domain.h"
#include "solver_features.h"

enum {
    /* Zones are worked out only on boards of at most this many inside squares (the work
     * grows with their square): larger boards get none, every state counting 0. */
    SOLVER_OOP_MAX_FLOOR = 1024,
};

typedef struct solver_oop {
    int layers; /* zones for layers 0 .. layers - 1 */
    int size;   /* the board's squares */
    /* zone[layer * size + square]: 1 when a box there is out of the plan while `layer` is
     * being filled */
    uint8_t *zone;
    /* distance[layer * size + square]: pushes that take a lone box from the zone to the
     * square (the goals of that layer and those before it walls, the player's side free),
     * SOLVER_NO_PATH when none */
    uint16_t *distance;
    int *squares;    /* per layer: the squares of its zone */
    uint8_t *in_any; /* per square: 1 when in the zone of some layer */
    bool any;        /* some zone holds a square */
} solver_oop;

/* Works out the zones of the packing order of `features` on `board` (`distances` says which
 * squares are dead). No zones (any false) on a board with more than SOLVER_OOP_MAX_FLOOR
 * inside squares. False when out of memory. */
bool solver_oop_init(solver_oop *oop, const board *board, const solver_features *features,
                     const solver_distances *distances);
void solver_oop_free(solver_oop *oop);

/* The zone while layer `current` is being filled, one byte a square; NULL when there is
 * none (no layer, or the layer's zone is empty). */
const uint8_t *solver_oop_zone(const solver_oop *oop, int current);

/* The boxes (on the `count` squares `box_square`) standing in the zone of layer `current`. */
int solver_oop_count(const solver_oop *oop, int current, const int *box_square, int count);

/* True when one of the `count` boxes on `box_square` stands in some layer's zone: when
 * none does, solver_oop_count() is 0 whatever the layer being filled. */
static inline bool solver_oop_may_count(const solver_oop *oop, const int *box_square, int count)
{
    for (int i = 0; oop->any && i < count; i++)
        if (oop->in_any[box_square[i]]) return true;
    return false;
}

/* The pushes from the zone of layer `current` to `square` (see solver_oop.distance). */
static inline int solver_oop_distance(const solver_oop *oop, int current, int square)
{
    return oop->distance[(size_t)current * (size_t)oop->size + (size_t)square];
}

#endif
