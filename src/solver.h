/* solver.h - the Sokoban solver: push-optimal solutions by IDA* on pushes (the optimal
 * mode), or solutions found sooner by a feature-space best-first search (the fast mode).
 *
 * The public face used by the command line (--solve) and the solver thread (hints and
 * replays). A call owns all of its state, so several can run at once in different threads.
 * Knows nothing of the terminal. */
#ifndef SOKOBAN_SOLVER_H
#define SOKOBAN_SOLVER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "solver_options.h"

typedef enum solver_status {
    SOLVER_SOLVED,
    SOLVER_UNSOLVABLE, /* the search space was exhausted: no solution from this position */
    SOLVER_LIMIT,      /* the node, time or memory limit was reached first */
    SOLVER_CANCELLED,
    SOLVER_ERROR, /* out of memory, or a level the solver cannot take */
} solver_status;

typedef struct solver_result {
    solver_status status;
    solver_mode mode; /* the mode that produced the answer */
    int pushes;       /* of the solution, when solved */
    int moves;        /* of the solution with the walking filled in */
    char *lurd;       /* the full solution (malloc'd), replay-checked; NULL when none */
    uint64_t nodes;
    double seconds;
} solver_result;

/* Solves from `start` on `board`. Every returned solution has been replayed and checked. */
solver_status solver_solve(const board *board, const position *start, const solver_options *options,
                           solver_result *result);
void solver_result_free(solver_result *result);

/* "solved", "unsolvable", "limit", "cancelled", "error". */
const char *solver_status_name(solver_status status);

#endif
