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
    SOLVER_OPTIMAL, /* admissible: a solution with the fewest pushes */
    SOLVER_FAST,    /* inadmissible tricks allowed: more levels, sooner, maybe more pushes */
} solver_mode;

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
    SOLVER_NO_PULL_HOME = 128, /* fast mode: the packing order pulls boxes one step, not home */
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
    /* Searches run at once on one level (fast mode: different strategies, the first answer
     * wins, solver_threads.h); 0: one per core. The optimal mode runs one. */
    int threads;
} solver_options;

#endif
