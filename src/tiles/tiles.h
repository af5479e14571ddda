/* tiles.h - sliding-tile puzzles (the 8-puzzle and the 15-puzzle, boards of
 * tiles_board.h) solved optimally by IDA*.
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
#include "tiles_board.h"

typedef struct tiles_pdb tiles_pdb;

typedef struct tiles_solution {
    ida_status status; /* IDA_SOLVED, IDA_UNSOLVABLE (parity), or a limit */
    char *moves;       /* the blank's moves, "u" "d" "l" "r" (malloc'd, NUL-ended) */
    int length;
    uint64_t nodes;
    double seconds;
    const char *heuristic; /* "pattern databases" or "manhattan+linear conflicts" */
} tiles_solution;

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
