/* tiles.h - sliding-tile puzzles (the 8-puzzle and the 15-puzzle) solved optimally by IDA*.
 *
 * A board is N x N squares (N = 3 or 4) holding the tiles 1 .. N*N-1 and one blank (0).
 * A move slides the blank up, down, left or right; a solution is written as the blank's
 * moves, one letter each: u d l r. The standard goal is 1 .. N*N-1 row by row with the
 * blank last; any other arrangement may be given as the goal.
 *
 * The search is the domain-independent engine of ida.h; this module is its second domain
 * (the first is the Sokoban solver). The lower bound is Manhattan distance plus linear
 * conflicts, or, when additive pattern databases (tiles_pdb.h) are given, their sum on the
 * board or on its mirror image, whichever is larger. All are admissible, so every solution
 * found is as short as possible. */
#ifndef SOKOBAN_TILES_H
#define SOKOBAN_TILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ida.h"

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

typedef struct tiles_pdb tiles_pdb;

typedef struct tiles_solution {
    ida_status status; /* IDA_SOLVED, IDA_UNSOLVABLE (parity), or a limit */
    char *moves;       /* the blank's moves, "u" "d" "l" "r" (malloc'd, NUL-ended) */
    int length;
    uint64_t nodes;
    double seconds;
    const char *heuristic; /* "pattern databases" or "manhattan+linear conflicts" */
} tiles_solution;

/* Reads a board: 9 or 16 whitespace-separated tiles row by row, `x`, `X` or `0` for the
 * blank. On bad input returns false and writes the reason to `error`. */
bool tiles_parse(const char *text, tiles_board *board, char *error, size_t error_size);

/* Writes the board as text in the form tiles_parse reads ("x" for the blank). */
void tiles_format(const tiles_board *board, char *text, size_t text_size);

/* The goal of the given kind for a width x width board. */
void tiles_goal(int width, tiles_goal_kind kind, tiles_board *goal);

/* True when `goal` can be reached from `start` (same width, same tiles). Answered by
 * permutation parity, without search. */
bool tiles_is_solvable(const tiles_board *start, const tiles_board *goal);

/* Moves the blank as `moves` says ("udlr"); false (board unchanged from the failing move on)
 * when a letter is not a move or the blank would leave the board. */
bool tiles_apply(tiles_board *board, const char *moves);

/* Finds a shortest solution from `start` to `goal` (NULL: blank last). `pdb` may be NULL
 * (Manhattan distance + linear conflicts); pattern databases are used when their width
 * matches and the goal's blank is in a corner. `limits` may be NULL. Unsolvable
 * positions are answered by parity before any search. Fills `solution` (free it with
 * tiles_solution_free) and returns its status. */
ida_status tiles_solve(const tiles_board *start, const tiles_board *goal, const tiles_pdb *pdb,
                       const ida_limits *limits, tiles_solution *solution);
void tiles_solution_free(tiles_solution *solution);

/* The heuristic's value for `board` against `goal`, as the search computes it at the root
 * (for tests: it must never exceed the true distance). */
int tiles_lower_bound(const tiles_board *board, const tiles_board *goal, const tiles_pdb *pdb);

#endif
