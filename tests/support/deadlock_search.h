/* deadlock_search.h - a plain exhaustive Sokoban search, the oracle of the deadlock tests.
 *
 * Breadth-first over pushes, with positions told apart by their boxes and the player's
 * room (the smallest square the player can walk to). It uses no deadlock knowledge at all,
 * so when it finds no solution the position is proven dead, independently of the module
 * under test. For small positions only: it gives up past a number of positions. */
#ifndef SOKOBAN_TEST_DEADLOCK_SEARCH_H
#define SOKOBAN_TEST_DEADLOCK_SEARCH_H

#include "rules/board.h"

typedef enum deadlock_search_result {
    DEADLOCK_SEARCH_SOLVABLE,
    DEADLOCK_SEARCH_UNSOLVABLE,
    DEADLOCK_SEARCH_GAVE_UP, /* more than max_positions positions, or out of memory */
} deadlock_search_result;

/* Searches every position reachable from `start` by pushes, at most `max_positions`. */
deadlock_search_result deadlock_search_solve(const board *board, const position *start,
                                             int max_positions);

#endif
