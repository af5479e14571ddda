/* solver_macro.h - macro moves of the solver: several pushes searched as one.
 *
 * Tunnel macros (Junghanns & Schaeffer 2001): a box pushed into a one-square-wide corridor,
 * with the player in the corridor behind it, can only go on or come back, and blocks the
 * corridor either way; so it is pushed on until it leaves the corridor, reaches a goal or
 * meets an obstacle, and the squares in between are never searched as states. Part of the
 * solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_MACRO_H
#define SOKOBAN_SOLVER_MACRO_H

#include <stdint.h>

#include "board.h"
#include "solver_bound.h"

/* Packing order of the goals (the fast mode's guide): a retrograde analysis in the manner of
 * the Sokoban wiki's "packing order" and YASS. With a box on every goal and the player at
 * `player`, the boxes the player can reach and pull one step off their goal leave first
 * (layer 0), then those freed by them (layer 1), and so on; goals never freed get the last
 * layer. Goals are best filled from the highest layer down. Writes layer[goal index];
 * returns the number of layers, or -1 when out of memory. */
int solver_macro_packing_layers(const board *board, int player, int *layer);

/* The number of pushes (1 or more) the push of the box on `square` in direction `d` makes
 * as a macro, given the boxes (one byte per square) before the push. */
int solver_macro_tunnel_length(const board *board, const uint8_t *boxes,
                               const solver_distances *distances, int square, direction d);

#endif
