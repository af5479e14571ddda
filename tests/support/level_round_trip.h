/* level_round_trip.h - a test assertion shared by the level tests: a level written back as
 * text (level_to_text) reads back as the same level. */
#ifndef SOKOBAN_TESTS_LEVEL_ROUND_TRIP_H
#define SOKOBAN_TESTS_LEVEL_ROUND_TRIP_H

#include "level/level.h"

/* Fails the running cmocka test, naming `what`, unless `original` written as text parses to
 * one level with the same size, squares, title, author and comment. */
void assert_level_round_trips(const level *original, const char *what);

#endif
