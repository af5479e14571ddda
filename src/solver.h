/* solver.h - the Sokoban solver: push-optimal (or fast) solutions by IDA* on pushes.
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
    /* With SOLVER_ERROR, why: a token for machines ("too-many-boxes", "memory",
     * "out-of-memory", "bad-position", "internal") and one line for people, naming the
     * limit when a limit is the cause. NULL and "" otherwise. */
    const char *reason;
    char message[160];
} solver_result;

/* Solves from `start` on `board`. Every returned solution has been replayed and checked.
 * A level with more than SOLVER_MAX_BOXES boxes, or a memory limit larger than the
 * machine's memory, is refused up front (SOLVER_ERROR with its reason). --time and cancel
 * hold through every phase, the set-up included; --nodes N looks at N nodes at most. */
solver_status solver_solve(const board *board, const position *start, const solver_options *options,
                           solver_result *result);
void solver_result_free(solver_result *result);

/* "solved", "unsolvable", "limit", "cancelled", "error". */
const char *solver_status_name(solver_status status);

#endif
