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

/* The number of pushes (1 or more) the push of the box on `square` in direction `d` makes
 * as a macro, given the boxes (one byte per square) before the push. */
int solver_macro_tunnel_length(const board *board, const uint8_t *boxes,
                               const solver_distances *distances, int square, direction d);

#endif
