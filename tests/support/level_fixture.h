/* level_fixture.h - test fixture for the rules' tests: a level drawn inline (XSB text) made
 * a board and its start position, or a game. Every step is asserted: a fixture that cannot
 * be made fails the test. */
#ifndef SOKOBAN_TESTS_LEVEL_FIXTURE_H
#define SOKOBAN_TESTS_LEVEL_FIXTURE_H

#include "level/level.h"
#include "rules/board.h"
#include "rules/game.h"

/* The first level of some XSB text, with its board and start position. */
typedef struct level_fixture {
    collection levels;
    board board;
    position start;
} level_fixture;

void level_fixture_open(level_fixture *f, const char *text);
void level_fixture_close(level_fixture *f);

/* The square at column x, row y (from 0 at the map's top-left). */
int level_fixture_square(const board *b, int x, int y);

/* Fails unless the position, written as XSB rows, is `expected`. */
void level_fixture_assert_position(const board *b, const position *p, const char *expected);

/* A game on the first level of `text`; `levels` holds the collection, which must outlive the
 * game. level_fixture_close_game frees both. */
void level_fixture_open_game(game *g, collection *levels, const char *text);
void level_fixture_close_game(game *g, collection *levels);

#endif
