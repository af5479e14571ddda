/* optimizer_pushes.h - the pushes an optimizer's search answers (optimizer_search.h) played
 * from a start, for the tests of its searches. */
#ifndef SOKOBAN_TEST_OPTIMIZER_PUSHES_H
#define SOKOBAN_TEST_OPTIMIZER_PUSHES_H

#include <stdbool.h>

#include "solver/optimizer_search.h"
#include "solver_board.h"

/* Plays the pushes from the fixture's start, the player walking to each: true when all are
 * legal and the level ends solved. */
bool optimizer_pushes_solve(const solver_board *f, const optimizer_push *pushes, int count);

#endif
