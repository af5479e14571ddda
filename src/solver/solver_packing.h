/* solver_packing.h - the packing order of the goals, and the parking squares on the way.
 * Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_PACKING_H
#define SOKOBAN_SOLVER_PACKING_H

#include <stdbool.h>
#include <stdint.h>

#include "rules/board.h"
#include "solver_bound.h"
#include "solver_pulls.h"

/* Packing order of the goals: a retrograde analysis in the manner of the Sokoban wiki's
 * "packing order" and YASS. With a box on every goal and the player in the part of the free
 * floor that holds the most `sources` (his own part when it holds as many; off the goals
 * next to `player` when he stands on one, as in the middle of a game), the boxes
 * the player can reach and pull one step off their goal leave first (layer 0), then those
 * freed by them (layer 1), and so on; goals never freed get the last layer. With `sources`
 * (per square, 1 where a box stands now off the goals, 2 where one stands on a goal, 0
 * elsewhere; may be NULL), a step takes only the boxes that can be pulled all the way back
 * to a square of 1, when there are any, so that boxes merely shuffled about inside the goal
 * area do not count as gone. Goals are best
 * filled from the highest layer down. Writes layer[goal index]; returns the number of
 * layers, or -1 when out of memory. */
int solver_packing_layers(const board *board, int player, const uint8_t *sources, int *layer);
/* Parking (YASS's packing order): the solver_parking squares (solver_pulls.h), chosen by the
 * analysis below. */
/* The same, giving up (-1) when `stop` (may be NULL) says so: with `sources` it pulls every
 * box back over the floor, seconds on a large level. With `parking` (may be NULL; only with
 * `sources`) it parks boxes as above and writes the parking squares there.
 *
 * With `search` (and parking), the order is searched for as YASS does: each box must go home
 * to a square of its own or be parked, and when no box can do either the analysis backs up
 * to its last parking step and parks another box (a bounded number of times), then starts
 * again from the other parts of the floor; it parks any number of boxes (the analysis above
 * at most half). A box on a goal now (`sources` 2 there) may stay on its goal: it is its
 * own home. A box is parked on the square farthest by pulls from its goal from where the
 * player can walk back to the goal, among the squares `parking->rest` allows, and the player
 * then stands beside it. When no whole
 * order is found, the analysis above goes on from the search that left the fewest boxes.
 *
 * With `parking->early`, the search follows YASS's rules more closely, and parks far more:
 * no box goes home before the player has walked, in the analysis, to every square a box
 * stands on now (until then every step parks one box); a box that can be pulled over less
 * than a quarter of the squares boxes can live on is parked, not sent home, until the last
 * 15 % of the boxes; a box goes home only to a square at least 3 squares from its goal (but
 * at the end) from where the player can walk back to where he stood; parked boxes go home
 * only once every goal is empty; the box parked is the one that can go farthest from its
 * goal by pushes, on that square or on the one farthest in a straight line (squares where
 * a box stands now included), and the search tries more parking steps. */
int solver_packing_layers_until(const board *board, int player, const uint8_t *sources, int *layer,
                                solver_parking *parking, bool search, const solver_stop *stop);

#endif
