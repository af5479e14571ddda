/* box_moves.h - moving one box where the player points: the squares a box can be pushed
 * to, and the walks and pushes that take it to one of them.
 *
 * The search behind a mouse move ("push this box to that square"): the other boxes stay
 * where they stand and the player walks between the pushes. A state is the box's square and
 * the side the player pushed it from; a breadth-first search over the states finds the
 * fewest pushes. The player's floor is flooded once for each region of a box square, not
 * once for each of its four sides: sides the player can walk between are one state. */
#ifndef SOKOBAN_BOX_MOVES_H
#define SOKOBAN_BOX_MOVES_H

#include <stdint.h>

#include "board.h"

enum {
    BOX_MOVES_NO_WAY = -1,    /* the box cannot be pushed there */
    BOX_MOVES_NO_MEMORY = -2, /* out of memory */
};

/* Marks in `reach` (board->size bytes) every square the box on `box` can be pushed to, its
 * own square included, the other boxes fixed. Returns how many squares are marked (0 when
 * no box stands on `box`), or BOX_MOVES_NO_MEMORY. */
int box_moves_reach(const board *board, const position *position, int box, uint8_t *reach);

/* The steps (walks and pushes, in order) that take the box on `box` to `target` with the
 * fewest pushes, the other boxes fixed. Returns the number of steps, with the steps in
 * *steps (to free(); NULL when there are none: 0, the box is there already), or
 * BOX_MOVES_NO_WAY (no box on `box`, or no way to push it to `target`) or
 * BOX_MOVES_NO_MEMORY. */
int box_moves_find(const board *board, const position *position, int box, int target,
                   direction **steps);

#endif
