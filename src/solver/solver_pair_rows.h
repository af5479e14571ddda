/* solver_pair_rows.h - the two-box deadlocks of one box as a row of bits: for a box on a
 * square and the player on a square, every live square another box would make a lost pair
 * with (solver_pairs.h), one bit a live square.
 *
 * After each push the search asks whether the pushed box makes a lost pair with any other
 * box. Asked of the pair table one box at a time, that is a look-up a box, each somewhere
 * else in a table of (pair, player) bits; a row holds the whole answer for the pushed box and
 * the player in a few words, so only the boxes on its bits (few, mostly none) are looked at.
 * A row is made from the pair table the first time it is asked, and kept. The same answers
 * as the pair table's, to the bit. Part of the solver (solver.h); internal to it. One per
 * search: its rows are made as it goes, so it is never shared between threads. */
#ifndef SOKOBAN_SOLVER_PAIR_ROWS_H
#define SOKOBAN_SOLVER_PAIR_ROWS_H

#include <stdbool.h>
#include <stdint.h>

#include "rules/board.h"
#include "solver_pairs.h"

enum {
    /* the rows of a board take this much at most (else none are kept) */
    SOLVER_PAIR_ROWS_MOST_BYTES = 32 << 20,
};

typedef struct solver_pair_rows {
    const solver_pairs *pairs;
    int words;           /* per row: one bit a live square */
    uint64_t *rows;      /* per (live square, floor square): the row, once made */
    uint8_t *made;       /* per (live square, floor square): 1 once its row is made */
    int *live_square;    /* per live square's number: the square */
    uint64_t made_count; /* rows made (measurements) */
} solver_pair_rows;

/* Sets up the rows of `pairs` (made for `board`). False when the pair table is empty, the
 * rows would take more than SOLVER_PAIR_ROWS_MOST_BYTES, or memory runs out. */
bool solver_pair_rows_init(solver_pair_rows *rows, const solver_pairs *pairs, const board *board);
void solver_pair_rows_free(solver_pair_rows *rows);

/* True when the box on `square` makes a lost pair, the player on `player`, with a box of
 * `boxes` (a byte per square, 1 under a box) other than itself: the same answer as
 * solver_pairs_lost() asked of `square` and each other box. */
bool solver_pair_rows_lost(solver_pair_rows *rows, const uint8_t *boxes, int square, int player);

#endif
