/* tiles_board.h - the boards of the sliding-tile puzzles (the 8-puzzle and the 15-puzzle):
 * reading and writing them, the goals, the blank's moves, and solvability by parity.
 *
 * A board is N x N squares (N = 3 or 4) holding the tiles 1 .. N*N-1 and one blank (0).
 * A move slides the blank up, down, left or right; a solution is written as the blank's
 * moves, one letter each: u d l r. The standard goal is 1 .. N*N-1 row by row with the
 * blank last; any other arrangement may be given as the goal.
 *
 * The bottom of the tiles: the pattern databases (tiles_pdb.h) and the search (tiles.h)
 * both stand on it. */
#ifndef SOKOBAN_TILES_BOARD_H
#define SOKOBAN_TILES_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    TILES_MIN_WIDTH = 3,
    TILES_MAX_WIDTH = 4,
    TILES_MAX_CELLS = TILES_MAX_WIDTH * TILES_MAX_WIDTH,
    TILES_BLANK = 0,
    /* No optimal solution is this long: at most 31 moves for 3x3, 80 for 4x4. */
    TILES_MAX_SOLUTION = 200,
};

typedef struct tiles_board {
    int width;                     /* 3 or 4 */
    uint8_t cell[TILES_MAX_CELLS]; /* row by row; TILES_BLANK for the blank */
} tiles_board;

typedef enum tiles_goal_kind {
    TILES_GOAL_BLANK_LAST,  /* 1 2 3 / 4 5 6 / 7 8 _  (the "Eight" problem's goal) */
    TILES_GOAL_BLANK_FIRST, /* _ 1 2 / 3 4 5 / 6 7 8  (Korf's 1985 convention) */
} tiles_goal_kind;

/* The blank's moves, in the order of their letters "udlr"; a move and its inverse differ
 * in the lowest bit. */
typedef enum tiles_move {
    TILES_UP,
    TILES_DOWN,
    TILES_LEFT,
    TILES_RIGHT,
    TILES_MOVE_COUNT
} tiles_move;

/* Reads a board: 9 or 16 whitespace-separated tiles row by row, `x`, `X` or `0` for the
 * blank. On bad input returns false and writes the reason to `error`. */
bool tiles_parse(const char *text, tiles_board *board, char *error, size_t error_size);

/* Writes the board as text in the form tiles_parse reads ("x" for the blank). */
void tiles_format(const tiles_board *board, char *text, size_t text_size);

/* The goal of the given kind for a width x width board. */
void tiles_goal(int width, tiles_goal_kind kind, tiles_board *goal);

/* True when both boards have the same width (3 or 4) and each holds every tile once. */
bool tiles_boards_match(const tiles_board *a, const tiles_board *b);

/* True when `goal` can be reached from `start` (same width, same tiles). Answered by
 * permutation parity, without search. */
bool tiles_is_solvable(const tiles_board *start, const tiles_board *goal);

/* The blank's cell, or -1 when the board has none. */
int tiles_blank_cell(const tiles_board *board);

/* The cell the blank reaches from `cell` by `move` on a width x width board, or -1 off
 * the board. */
int tiles_neighbor_cell(int width, int cell, tiles_move move);

/* Moves the blank as `moves` says ("udlr"); false (board unchanged from the failing move on)
 * when a letter is not a move or the blank would leave the board. */
bool tiles_apply(tiles_board *board, const char *moves);

#endif
