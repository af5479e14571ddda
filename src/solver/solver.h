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

#include "rules/board.h"
#include "rules/game.h"
#include "solver_learned.h"
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
    int moves;        /* of the solution with the walking filled in: the steps */
    game_step *steps; /* the solution step by step, pushes marked (malloc'd), replay-checked;
                       * NULL when none (or when the start is solved: moves 0) */
    /* The steps end at a position options->known accepted, not at a solved one: the caller
     * appends the rest it knows from there. */
    bool ends_known;
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

/* The searches solver_solve() runs at once with `options` (options->threads, or one per
 * core; one in the optimal mode), and the memory they may take in all, in bytes: --memory,
 * or by default 1 GiB for each search, at most a quarter of the machine's memory (at least
 * 64 MiB). */
int solver_searches(const solver_options *options);
size_t solver_memory_bytes(const solver_options *options);

/* The key the search gives a position: the boxes and the player's region (named by the least
 * square the player can walk to), so positions that differ only by where the player stands
 * in one region share it. Deterministic for a board; what options->known is asked about. */
uint64_t solver_position_key(const board *board, const position *position);

/* Lowers the calling thread's priority by `by` niceness steps (Linux; elsewhere nothing), for a
 * thread that runs searches beside a user interface; the searches it starts inherit it. */
void solver_lower_thread_priority(int by);

/* "solved", "unsolvable", "limit", "cancelled", "error". */
const char *solver_status_name(solver_status status);

#endif
