/* solver_options.h - what a caller asks of the solver: the mode, the limits, the techniques
 * to leave out, a progress callback.
 *
 * The bottom of the solver: solver.h (its public face) and the search's own files
 * (solver_domain.h and above) read these without including each other. */
#ifndef SOKOBAN_SOLVER_OPTIONS_H
#define SOKOBAN_SOLVER_OPTIONS_H

#include <stdatomic.h>
#include <stdint.h>

typedef enum solver_mode {
    /* IDA* with an admissible bound: a solution has the fewest pushes possible */
    SOLVER_OPTIMAL,
    /* a feature-space best-first search (FESS, solver_fast.h): more levels, sooner, maybe
     * more pushes. In both modes "unsolvable" is a proof. */
    SOLVER_FAST,
} solver_mode;

typedef struct solver_progress {
    int threshold; /* optimal: the current IDA* cost threshold; fast: the pushes of the
                      state expanded last */
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
} solver_options;

#endif
