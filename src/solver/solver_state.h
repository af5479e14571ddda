/* solver_state.h - the Sokoban search's current state: the boxes, the player and his
 * reach, the bound's rows and matching, the undo stack, the work space of the pruning.
 *
 * Only the type lives here, so that the domain (solver_domain.h, which changes the state
 * push by push) and the analyses it calls (solver_corral.h) can both read it without
 * including each other. Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_STATE_H
#define SOKOBAN_SOLVER_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "rules/board.h"
#include "rules/deadlock.h"
#include "ida.h"
#include "solver_bound.h"
#include "solver_macro.h"
#include "solver_options.h"
#include "solver_rows.h"
#include "solver_table.h"

struct solver_corral_deadlocks; /* solver_corral_deadlock.h, which reads this state */
struct solver_pairs;            /* solver_pairs.h */
struct solver_frozen;           /* solver_frozen.h */
struct solver_triples;          /* solver_pairs.h */
struct solver_pair_rows;        /* solver_pair_rows.h */
struct solver_penalties;        /* solver_penalty.h */
struct solver_below;            /* solver_below.h */

/* What make() did at one depth, to take it back. */
typedef struct solver_undo {
    int player;
    int last_box;
    int box_to;       /* where the box ended (after a macro, further than one push) */
    int entered_cost; /* the cost the table took the state at, or -1 (solver_table_leave) */
    /* the matching and the rows before it were saved (keep_matching() in solver_domain.c):
     * only a state that gets as far as its bound changes them */
    bool matching_kept;
    uint64_t entered_key;
} solver_undo;

/* What the pruning did, for measurements (read in a debugger or a profiling build). */
typedef struct solver_counters {
    uint64_t dead_square;     /* pushes not generated: the box would stand on a dead square */
    uint64_t deadlock;        /* states cut by deadlock_check_push */
    uint64_t transposition;   /* states cut by the table */
    uint64_t infinite;        /* states whose bound was infinite */
    uint64_t tunnel;          /* pushes lengthened into tunnel macros */
    uint64_t goal_room;       /* pushes onto the goal room's door taken on to a goal */
    uint64_t corral_cut;      /* pushes left out because a PI-corral came first */
    uint64_t corral_deadlock; /* states cut by a corral the small search proved lost */
    uint64_t pair;            /* states cut by a two- or three-box deadlock (solver_pairs.h) */
    uint64_t frozen; /* states lost behind boxes frozen on goals, or a start with one off a goal */
    uint64_t beyond; /* optimal mode: states shown beyond the threshold before the dearer checks */
} solver_counters;

/* What a search started afresh from a state of another found (solver_search.restart). */
typedef enum solver_restart_answer {
    SOLVER_RESTART_OPEN,   /* nothing within its budget */
    SOLVER_RESTART_SOLVED, /* the rest of a solution */
    SOLVER_RESTART_LOST,   /* a proof that the state cannot be solved */
} solver_restart_answer;

struct solver_search;
/* Searches afresh from the current state of `search`, with at most `budget` nodes, with the
 * advisors over whole box moves when `box_moves` (the fast search decides a restart's kind:
 * solver_fast.h): the rest of a solution, as single pushes (SOLVER_MOVE_SINGLE), in
 * rest->path, rest->length and rest->cost (pushes); the nodes it looked at in rest->nodes. */
typedef solver_restart_answer (*solver_restart_fn)(void *argument,
                                                   const struct solver_search *search,
                                                   uint64_t budget, bool box_moves,
                                                   ida_result *rest);

typedef struct solver_search {
    const board *board;
    const solver_distances *distances;
    const deadlock_table *deadlocks;      /* may be NULL */
    const struct solver_pairs *pairs;     /* the two-box deadlocks; may be NULL */
    const struct solver_triples *triples; /* the three-box ones kept; NULL, or with pairs */
    /* the optimal mode's rows of the pairs, its own (NULL: the pairs asked one by one) */
    struct solver_pair_rows *pair_rows;
    solver_table *table; /* may be NULL */
    bool helping;        /* the state last made was entered to help another thread (ida.h) */
    /* States a search has already (the fast mode's store; may be NULL): make() drops a push
     * to one of them before the corral check and the bound, which it would only throw away. */
    bool (*seen)(const void *context, uint64_t key);
    const void *seen_context;
    solver_goal_room *room; /* goal-room macros; NULL: none (the optimal mode) */
    ida_move *macro;        /* the pushes of a goal-room macro */
    solver_zobrist zobrist;
    solver_matching matching;
    solver_mode mode;
    bool tunnels;  /* lengthen pushes through one-way tunnels into macros */
    bool ordering; /* order moves (inertia, then nearer a goal) */
    bool corrals;  /* PI-corral pruning (solver_corral.h) */
    /* a start with a box frozen off a goal is lost (solver_search_start_lost()): the start's
     * part of the deadlock check the pushes make with `deadlocks`, off with it
     * (SOLVER_NO_DEADLOCKS) */
    bool start_freeze;
    /* corral deadlocks by a small search (solver_corral_deadlock.h); NULL: off */
    struct solver_corral_deadlocks *corral_deadlocks;
    /* make() checks the corrals next to the pushed box (true unless the search checks every
     * corral of the states it expands instead, as the fast mode does) */
    bool corrals_at_push;
    /* the optimal mode: instead, every corral of a state make() leaves within the threshold
     * (the ones it expands), with the boxes touching each barrier */
    bool corrals_within;
    int threshold;     /* the IDA* iteration's (IDA_INFINITY before the first) */
    bool pull_home;    /* the packing order counts a box gone when it pulls back home */
    bool parking;      /* and parks a box on the way when none does (solver_packing.h) */
    bool order_search; /* and searches over its parking choices for a whole order */
    /* by YASS's rules, which park more (solver_packing.h); the fast mode clears it when
     * they found no whole order */
    bool park_early;
    /* the position the packing order is worked out from, NULL: this search's own start
     * (solver_options.plan_from, given only to the race's part that takes it) */
    const position *plan_from;
    /* the packing order by the backward search of solver_packing_search.h, when it finds one
     * (solver_options.searched_plan) */
    bool searched_plan;
    /* or that plan when it parks at least as many boxes as YASS's rules (not in a restart) */
    bool plan_pick;
    bool packing_list; /* a second open list by packing order (solver_fast.c) */
    bool frozen;       /* deadlocks behind boxes frozen on goals (solver_frozen.h) */
    /* the optimal mode's check of them after each push, while a box is on a goal; NULL:
     * none (the fast mode checks each state it expands instead) */
    struct solver_frozen *frozen_deadlocks;
    /* the optimal mode's pair penalties, added to the matching's bound; NULL: none */
    struct solver_penalties *penalties;
    /* the optimal mode's order from the last iteration (solver_below.h); NULL: none */
    struct solver_below *below;
    bool stuck;        /* deadlock patterns of stuck boxes, learned (solver_stuck.h) */
    bool joiner_moves; /* the joiner over whole box moves (solver_box_advisors.h) */
    bool opener_moves; /* the opener over whole box moves (solver_box_advisors.h) */
    /* where they are learned: shared with other searches of the board (solver_learned.h);
     * NULL: in a store of the fast search's own */
    struct solver_stuck_patterns *stuck_patterns;
    /* Positions known to be solvable (options->known; the fast mode only): a state it
     * accepts ends the search as a solved one does. NULL: none. */
    bool (*known)(void *argument, uint64_t key);
    void *known_argument;
    /* Searches afresh from states of this one (the fast mode's restarts, solver_fast.h):
     * the first once the search has looked at `restart_after` nodes, each with a budget
     * of `restart_budget` nodes. NULL: none. Each search numbers its own restarts from 1:
     * every `restart_box_moves_every`th (0: none) has the box moves; with
     * `restart_from_start`, the first of those goes from the search's start instead of its
     * state, with a budget of `restart_start_budget` nodes, when the start's free floor
     * falls into more regions than `restart_start_regions` (the feature-space search
     * only). */
    solver_restart_fn restart;
    void *restart_argument;
    uint64_t restart_after, restart_budget;
    int restart_box_moves_every, restart_start_regions;
    bool restart_from_start;
    uint64_t restart_start_budget;

    /* The current state. */
    int box_count;
    int *box_square;              /* box -> its square */
    const uint16_t **box_row;     /* box -> the distances its bound uses (refresh_rows) */
    int *changed;                 /* work list: boxes whose row changed */
    uint16_t *box_square_scratch; /* box_count squares, for solver_search_set() callers */
    int *box_at;                  /* square -> box, or -1 */
    uint8_t *boxes;               /* square -> 1 where a box stands: the map deadlock.h reads */
    uint8_t *blocked;             /* square -> 1 where the player cannot walk: box or outside */
    int on_goal;                  /* boxes on goals */
    int player;                   /* the player's square */
    int last_box;                 /* the box pushed last, or -1 */
    uint64_t box_key;

    /* The player's reach in the current state: in `rows` when the board fits (use_rows),
     * else reach[square] == stamp where the player can walk. Asked by
     * solver_search_reaches(). */
    solver_rows rows;
    bool use_rows;
    uint32_t *reach;
    uint32_t stamp;
    int *queue;
    int region; /* the least square of the reach: the state's player component */
    bool reach_valid;
    /* Over rows: the reach of the state a push was last made from (make()), its region, and
     * the state's depth and box key, so that its other pushes start from it too. */
    uint64_t *pushed_from_reach;
    uint64_t pushed_from_key;
    int pushed_from_region, pushed_from_depth;

    /* The undo stack, one entry per depth. */
    solver_undo *undo;
    int *matching_states;
    const uint16_t **row_states;
    int depth, capacity;

    int iteration;
    /* PI-corral work space: corral_id[square] is valid where corral_mark == corral_stamp;
     * over rows (use_rows), a word a row each: the free squares out of reach, the corrals
     * labelled, the one labelled last, its barrier, and the one solver_corral_find() picked. */
    uint32_t *corral_mark;
    uint32_t corral_stamp;
    int *corral_id;
    uint64_t *corral_free, *corral_done, *corral_rows, *corral_barrier, *corral_best;
    bool no_memory;   /* the undo stack could not grow: the search is void */
    bool skip_unmake; /* make() failed before changing anything */
    solver_counters counters;
} solver_search;

/* True when the player can walk to `square` in the current state (its reach is valid). */
static inline bool solver_search_reaches(const solver_search *s, int square)
{
    return s->use_rows ? solver_rows_reached(&s->rows, square) : s->reach[square] == s->stamp;
}

#endif
