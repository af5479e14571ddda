/* solver_packing_search.h - a packing plan found by a backward search over whole box pulls.
 *
 * The idea of Festival's packing search (Shoham and Schaeffer, FESS, 2020): start from the
 * solved position, every goal holding a box, and pull boxes out of the goal area, each pull
 * a whole box move (the box taken by the fewest pulls to a square, the other boxes standing
 * still). A box pulled onto a square where a box stands now (a *base*) is taken off the
 * board, and the base with it, when the base is one of the largest set of free bases that
 * reach each other by a lone box's pushes (Festival's rule: the open room's bases first, a
 * pocket's last); a box pulled off its goal to another square (a *parking* square, off the
 * goals, or a base outside that set) waits there and later goes to a base. The plan is found
 * once every box stands on a base. The search is
 * best-first over those moves, with every position met kept once, rather than the greedy
 * analysis with back-up of solver_packing.h: the plan it finds is one more plan for the
 * forward search, not a replacement of it.
 *
 * Played forwards, the plan's moves in reverse order are the packing order: the goal emptied
 * last is filled first, a parked box comes to its parking square in the turn it left it and
 * goes on to its goal in the goal's turn. Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_PACKING_SEARCH_H
#define SOKOBAN_SOLVER_PACKING_SEARCH_H

#include <stdint.h>

#include "rules/board.h"
#include "solver_pulls.h"

/* The search looks at no more positions than this (a few megabytes on XSokoban's boards). */
enum { SOLVER_PLAN_POSITIONS = 60000 };

/* A plan for the boxes on `sources` (per square: 1 where a box stands now off the goals, 2
 * where one stands on a goal, 0 elsewhere), its parking squares chosen among `rest` (per
 * square, 1 where a box may be left; NULL: anywhere off the goals and the bases). On success
 * writes layer[goal index] (higher: filled earlier, as solver_packing_layers()) and
 * parking->count, ->square, ->goal and ->layer (room for the number of goals each), and
 * returns the number of layers; 0 when no plan is found or `stop` (may be NULL) says to
 * stop; -1 when out of memory. The search starts with the player in every region of the
 * solved position's floor at once; when that finds no plan, from each region alone in turn
 * (square order), the first plan found taken. Each search looks at SOLVER_PLAN_POSITIONS
 * positions at most; the searches from each region alone share the first one's work
 * equally. */
int solver_packing_search(const board *board, const uint8_t *sources, const uint8_t *rest,
                          int *layer, solver_parking *parking, const solver_stop *stop);

#endif
