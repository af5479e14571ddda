/* search_walk.h - random walks of pushes through a solver search, for the tests that ask
 * the solver's checks about many positions of real levels. */
#ifndef SOKOBAN_TESTS_SEARCH_WALK_H
#define SOKOBAN_TESTS_SEARCH_WALK_H

#include <stdbool.h>

#include "board.h"
#include "ida.h"
#include "solver_domain.h"

/* Puts the search back on the position `start` of `board`, for a walk. */
void search_walk_start(solver_search *search, const board *board, const position *start);

/* Makes a random push of the walk (`seed` its random state, `domain` the search's); false
 * when there is none or the search prunes the one drawn (the walk ends). */
bool search_walk_push(solver_search *search, const ida_domain *domain, unsigned *seed);

#endif
