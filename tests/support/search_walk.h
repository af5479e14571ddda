/* search_walk.h - random walks of pushes through a solver search, for the tests that ask
 * the solver's checks about many positions of real levels; and a path of pushes played
 * from a start, for the tests that check a search's path. */
#ifndef SOKOBAN_TESTS_SEARCH_WALK_H
#define SOKOBAN_TESTS_SEARCH_WALK_H

#include <stdbool.h>

#include "rules/board.h"
#include "ida.h"
#include "solver/solver_domain.h"

/* Puts the search on the position `p` of `board`. */
void search_walk_set(solver_search *search, const board *board, const position *p);

/* Puts the search back on the position `start` of `board`, with its bound, for a walk. */
void search_walk_start(solver_search *search, const board *board, const position *start);

/* Makes a random push of the walk (`seed` its random state, `domain` the search's); false
 * when there is none or the search prunes the one drawn (the walk ends). */
bool search_walk_push(solver_search *search, const ida_domain *domain, unsigned *seed);

/* The search's position (its boxes and its player) in `p`, made for `board`. */
void search_walk_position(const solver_search *search, const board *board, position *p);

/* Plays `length` pushes of `path` (one push each, the walking between them found here)
 * from `start`; true when every push can be made and the level ends solved. */
bool search_walk_pushes_solve(const board *board, const position *start, const ida_move *path,
                              int length);

#endif
