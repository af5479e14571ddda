/* solver_options.h - what a caller asks of the solver: the mode, the limits, the techniques
 * to leave out, a progress callback.
 *
 * The bottom of the solver: solver.h (its public face) and the search's own files
 * (solver_domain.h and above) read these without including each other. */
#ifndef SOKOBAN_SOLVER_OPTIONS_H
#define SOKOBAN_SOLVER_OPTIONS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ida.h"

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
    SOLVER_NO_TUNNELS = 1,     /* tunnel macros */
    SOLVER_NO_DEADLOCKS = 2,   /* deadlock_check_push after each push, the start's freeze */
    SOLVER_NO_INERTIA = 4,     /* move ordering: the same box first, then nearer a goal */
    SOLVER_NO_TABLE = 8,       /* the transposition table (unsolvable then never ends) */
    SOLVER_NO_GOAL_ROOM = 16,  /* fast mode: goal-room macros */
    SOLVER_NO_CORRALS = 32,    /* PI-corral pruning */
    SOLVER_NO_FEATURES = 64,   /* fast mode: weighted best-first instead of feature-space search */
    SOLVER_NO_PULL_HOME = 128, /* fast mode: the packing order pulls boxes one step, not home */
    SOLVER_NO_BACKWARD = 256,  /* fast mode: the backward search that meets the forward one */
    SOLVER_NO_CORRAL_DEADLOCKS = 512, /* corral deadlocks proven by a small search */
    SOLVER_NO_PARKING = 1024,         /* fast mode: the packing order parks no box on the way */
    SOLVER_NO_PACKING_LIST = 2048,    /* fast mode: no second open list by packing order */
    SOLVER_NO_FROZEN = 4096,          /* deadlocks behind boxes frozen on goals */
    SOLVER_NO_ROWS = 8192,            /* floods over rows of bits: every flood square by square */
    SOLVER_NO_STUCK = 16384,          /* fast mode: deadlock patterns of stuck boxes, learned */
    SOLVER_NO_ORDER_SEARCH = 32768,   /* fast mode: the first packing order, not a search */
    SOLVER_NO_RESTARTS = 65536,       /* fast mode: no searches afresh from states on the way */
    /* fast mode: the packing order by the first rules, not YASS's, which park more boxes
     * (solver_packing.h) */
    SOLVER_NO_EARLY_ORDER = 131072,
    SOLVER_NO_PAIRS = 262144,   /* the table of two-box deadlocks (solver_pairs.h) */
    SOLVER_NO_TRIPLES = 524288, /* the three-box deadlocks kept (solver_pairs.h) */
    SOLVER_NO_PENALTIES =
        1048576, /* optimal mode: pair penalties on the bound (solver_penalty.h) */
    SOLVER_NO_BELOW =
        2097152, /* optimal mode: the order from the last iteration (solver_below.h) */
    SOLVER_NO_JOINER_MOVES = 4194304, /* fast mode: the joiner over whole box moves */
    SOLVER_NO_OPENER_MOVES = 8388608, /* fast mode: the opener over whole box moves */
    /* fast mode: the race's part on the packing plan by a backward search (docs/SOLVER.md,
     * section 29) */
    SOLVER_NO_PLAN_SEARCH = 16777216,
    /* fast mode: the restart from the search's start (docs/SOLVER.md, section 27) */
    SOLVER_NO_FROM_START = 33554432,
    /* fast mode: the first search's packing order by YASS's rules always, not the plan of the
     * backward search when that parks as many boxes (docs/SOLVER.md, section 21b) */
    SOLVER_NO_PLAN_PICK = 67108864,
};

/* The most boxes the solver takes (its assignment bound works on a boxes x goals matrix);
 * a level with more is refused up front, the limit named. */
enum { SOLVER_MAX_BOXES = 1000 };

typedef struct solver_options {
    solver_mode mode;
    double deadline;           /* the ida_clock() time to give up at (ida.h); 0: none */
    uint64_t max_nodes;        /* 0: no limit */
    size_t memory_bytes;       /* table or state store; 0: 1 GiB (less on a small machine) */
    const atomic_bool *cancel; /* NULL, or set from another thread to stop */
    void (*progress)(void *argument, const solver_progress *progress); /* may be NULL */
    void *progress_argument;
    unsigned disable; /* SOLVER_NO_* flags; 0 for the full solver */
    /* Searches run at once on one level (fast mode: different strategies, the first answer
     * wins, solver_threads.h; optimal mode: one IDA* on that many threads, solver_team.h);
     * 0: one per core. */
    int threads;
    /* Positions the caller already knows how to solve (the answer store, answers.h), by
     * their solver_position_key() (solver.h); NULL: none. The fast mode stops at the first
     * state it generates that `known` accepts, as at a solved one, and returns the steps up
     * to it (result.ends_known); the optimal mode ignores it (the rest would not be optimal).
     * Called from the solving thread, often: it must be quick and thread-safe. */
    bool (*known)(void *argument, uint64_t key);
    void *known_argument;
    /* What earlier searches on this board learned of its deadlocks, to start from and add to
     * (solver_learned.h; the game keeps one per level); NULL, or one made for another board:
     * this solve learns afresh and forgets at the end. */
    struct solver_learned *learned;
    /* An earlier position of the same game (the level's start, in the game), or NULL. The
     * fast mode's race gives a part of its time to a search from `start` whose packing order
     * is worked out from this position instead (docs/SOLVER.md, section 29): the order of a
     * level's start still fits the positions a player reaches from it, where the order worked
     * out afresh from them often does not. Ignored when its boxes are where start's are. */
    const struct position *plan_from;
    /* Inside the solver only (NULL from a caller): the optimal mode's team this search is a
     * member of (solver_team.h), its place in it, and the table the members share. */
    struct ida_team *team;
    int team_member;
    struct solver_table *shared_table;
    /* Inside the solver only (false from a caller): the fast mode's packing plan is found
     * by the backward search over whole box pulls (solver_packing_search.h), the race's part
     * that takes it (docs/SOLVER.md, section 29). */
    bool searched_plan;
} solver_options;

/* When to give up: the deadline (0: none) and the cancel flag. Every phase of a
 * solve looks at it, the set-up (the packing order, the goal room) included, so that
 * --time and a cancel are answered within milliseconds whatever the solver is doing. */
typedef struct solver_stop {
    double deadline;
    const atomic_bool *cancel;
    /* NULL, or the optimal mode's team's flag (ida_team_stopped): another member answered or
     * stopped, so this one stops too */
    const atomic_bool *team;
} solver_stop;

/* The stop of a search with these limits. */
static inline solver_stop solver_stop_from_limits(const ida_limits *limits)
{
    return (solver_stop){.deadline = limits ? limits->deadline : 0,
                         .cancel = limits ? limits->cancel : NULL};
}

/* The stop of a search with these options: in a team, also once another member has answered
 * or stopped, which a member still setting up would otherwise not see (an easy level's
 * answer then waited for every member's set-up). */
static inline solver_stop solver_stop_of(const solver_options *options)
{
    return (solver_stop){.deadline = options->deadline,
                         .cancel = options->cancel,
                         .team = options->team ? ida_team_stopped(options->team) : NULL};
}

/* True when it is time to give up (`stop` may be NULL: never). */
static inline bool solver_stop_now(const solver_stop *stop)
{
    if (!stop) return false;
    if (stop->cancel && atomic_load_explicit(stop->cancel, memory_order_relaxed)) return true;
    if (stop->team && atomic_load_explicit(stop->team, memory_order_relaxed)) return true;
    return stop->deadline > 0 && ida_clock() >= stop->deadline;
}

/* solver_stop_now() read as work is done rather than at every step, where one step's cost
 * grows with the board: `work` is the work done so far (in the caller's units), `*read_at`
 * its value at the last read, `*stopped` the answer, kept once true. True when stopped. */
static inline bool solver_stop_after_work(const solver_stop *stop, uint64_t work, uint64_t every,
                                          uint64_t *read_at, bool *stopped)
{
    if (!*stopped && work - *read_at >= every) {
        *read_at = work;
        *stopped = solver_stop_now(stop);
    }
    return *stopped;
}

/* What giving up means: IDA_CANCELLED when cancelled, else IDA_LIMIT. The team's flag is
 * not a cancel: a team stops so when its time or nodes run out as well as when a member
 * answers, and what it answers is the team's to say (ida_search), not its members'. */
static inline ida_status solver_stop_status(const solver_stop *stop)
{
    if (!stop) return IDA_LIMIT;
    bool cancelled = stop->cancel && atomic_load_explicit(stop->cancel, memory_order_relaxed);
    return cancelled ? IDA_CANCELLED : IDA_LIMIT;
}

#endif
