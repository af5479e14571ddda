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
#include "game.h"

typedef enum solver_mode {
    SOLVER_OPTIMAL, /* admissible: a solution with the fewest pushes */
    SOLVER_FAST,    /* inadmissible tricks allowed: more levels, sooner, maybe more pushes */
} solver_mode;

typedef enum solver_status {
    SOLVER_SOLVED,
    SOLVER_UNSOLVABLE, /* the search space was exhausted: no solution from this position */
    SOLVER_LIMIT,      /* the node, time or memory limit was reached first */
    SOLVER_CANCELLED,
    SOLVER_ERROR, /* out of memory, or a level the solver cannot take */
} solver_status;

typedef struct solver_progress {
    int threshold; /* the current IDA* cost threshold, in pushes */
    uint64_t nodes;
    double seconds;
    double nodes_per_second;
} solver_progress;

/* Techniques that can be turned off, to measure what each buys (docs/SOLVER.md). */
enum {
    SOLVER_NO_TUNNELS = 1,    /* tunnel macros */
    SOLVER_NO_DEADLOCKS = 2,  /* deadlock_check_push after each push */
    SOLVER_NO_INERTIA = 4,    /* move ordering: the same box first, then nearer a goal */
    SOLVER_NO_TABLE = 8,      /* the transposition table (unsolvable then never ends) */
    SOLVER_NO_GOAL_ROOM = 16, /* fast mode: goal-room macros */
    SOLVER_NO_CORRALS = 32,   /* PI-corral pruning */
    SOLVER_NO_FEATURES = 64,  /* fast mode: weighted best-first instead of feature-space search */
};

typedef struct solver_options {
    solver_mode mode;
    double max_seconds;        /* 0: no limit */
    uint64_t max_nodes;        /* 0: no limit */
    int memory_mib;            /* transposition table size; 0: 256 MiB */
    const atomic_bool *cancel; /* NULL, or set from another thread to stop */
    void (*progress)(void *argument, const solver_progress *progress); /* may be NULL */
    void *progress_argument;
    unsigned disable; /* SOLVER_NO_* flags; 0 for the full solver */
    /* Positions the caller already knows how to solve (the answer store, answers.h), by
     * their solver_position_key(); NULL: none. The fast mode stops at the first state it
     * generates that `known` accepts, as at a solved one, and returns the steps up to it
     * (result.ends_known); the optimal mode ignores it (the rest would not be optimal).
     * Called from the solving thread, often: it must be quick and thread-safe. */
    bool (*known)(void *argument, uint64_t key);
    void *known_argument;
} solver_options;

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
} solver_result;

/* Solves from `start` on `board`. Every returned solution has been replayed and checked. */
solver_status solver_solve(const board *board, const position *start, const solver_options *options,
                           solver_result *result);
void solver_result_free(solver_result *result);

/* The key the search gives a position: the boxes and the player's region (named by the least
 * square the player can walk to), so positions that differ only by where the player stands
 * in one region share it. Deterministic for a board; what options->known is asked about. */
uint64_t solver_position_key(const board *board, const position *position);

/* "solved", "unsolvable", "limit", "cancelled", "error". */
const char *solver_status_name(solver_status status);

#endif
