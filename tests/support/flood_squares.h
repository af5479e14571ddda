/* flood_squares.h - the player's reach square by square, the plain way: what the tests of
 * the solver's faster floods (rows of bits, the floor tree) compare with. */
#ifndef SOKOBAN_TESTS_FLOOD_SQUARES_H
#define SOKOBAN_TESTS_FLOOD_SQUARES_H

#include <stdint.h>

#include "rules/board.h"

/* Marks in `seen` (board size) the squares the player walks to from `from` among walls and
 * `boxes` (one byte per square), the box on `origin` counting as gone and a box standing on
 * `cut` (either -1: none); returns the least of them. `queue` (board size) is work space. */
int flood_squares(const board *board, const uint8_t *boxes, int origin, int cut, int from,
                  uint8_t *seen, int *queue);

#endif
