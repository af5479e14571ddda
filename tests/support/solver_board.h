/* solver_board.h - test fixture: a level (drawn inline, or read from a file) made a board,
 * its start position and the solver's push distances, for the solver's tests. Every step
 * is asserted: a fixture that cannot be made fails the test. */
#ifndef SOKOBAN_TEST_SOLVER_BOARD_H
#define SOKOBAN_TEST_SOLVER_BOARD_H

#include <stdbool.h>

#include "level/collection.h"
#include "rules/board.h"
#include "solver/solver_bound.h"

typedef struct solver_board {
    collection collection;
    board board;
    position start;
    solver_distances distances;
} solver_board;

/* Level `number` (from 1) of the collection already in f->collection. */
void solver_board_pick(solver_board *f, int number);
/* The first level of `text` (XSB). */
void solver_board_from_text(solver_board *f, const char *text);
/* The first level of the file at `path`; false (nothing to free) when it cannot be read. */
bool solver_board_load(solver_board *f, const char *path);
/* The first level of cavepacker-data's map named by `format` and `number` (as printf:
 * "microban01_%04d.sok", 12); false (nothing to free) when cavepacker-data is missing. */
bool solver_board_load_map(solver_board *f, const char *format, int number);
void solver_board_free(solver_board *f);

/* The square at column x, row y (from 0 at the map's top-left). */
int solver_board_square(const solver_board *f, int x, int y);
/* The index of the goal on `square`, -1 when there is none. */
int solver_board_goal_index(const solver_board *f, int square);

#endif
