/* reference_solution.h - the reference solutions of cavepacker-data's XSokoban levels
 * (/usr/share/games/cavepacker/maps/xsokobanNNNN.sol), played push by push, for the tests
 * that check that no position along a real solution is called lost. */
#ifndef SOKOBAN_TESTS_REFERENCE_SOLUTION_H
#define SOKOBAN_TESTS_REFERENCE_SOLUTION_H

#include <stdbool.h>

#include "rules/board.h"

/* Called after each push with the position it leaves and the push's direction. */
typedef void (*reference_solution_pushed)(void *argument, const position *position, direction d);

/* Plays the reference solution of XSokoban `number` from `start` on `board` (that level's),
 * calling `pushed` after every push. False when cavepacker-data is not installed; a step
 * that cannot be made fails the test. */
bool reference_solution_play(int number, const board *board, const position *start,
                             reference_solution_pushed pushed, void *argument);

#endif
