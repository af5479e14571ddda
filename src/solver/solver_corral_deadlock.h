/* solver_corral_deadlock.h - corral deadlocks: a small search on the boxes round an area
 * the player is shut out of proves that they can never be cleared, and what it learns is
 * kept for the rest of the search.
 *
 * After a push, the free squares next to the pushed box that the player cannot reach form
 * a corral; its barrier is the boxes next to it. Take every other box off the board: a
 * position that can be solved stays solvable when boxes are removed (the same pushes, less
 * in the way), so if the barrier boxes alone can never all stand on goals, the position is
 * lost. A breadth-first search over the pushes of those boxes alone (dead squares and
 * frozen boxes pruned, as in the main search) that runs out of states proves it. It stops
 * early, unproven, when the player gets into the whole corral, when the boxes all stand on
 * goals, or at a node limit. This is the "corral deadlock" of YASS and of Festival's
 * deadlock detection (the Sokoban wiki, "How to detect deadlocks"); here one corral at a
 * time, never merged with its neighbours, which only loses deadlocks. Any set of the boxes
 * may be searched alone in the same way: the check of a whole position adds the boxes that
 * touch the barrier, as YASS adds the boxes connected to it, since a box wedged against
 * the barrier can freeze a barrier box pushed into the corral.
 *
 * The same small search proves *stuck boxes* lost (Festival's "xy deadlocks"): not the
 * boxes round a corral but those left when every box the player can push along both axes
 * is taken away, and the boxes frozen on goals stand as walls (solver_stuck_deadlock()).
 *
 * Every answer is kept in a table of learned deadlocks keyed by the barrier boxes and a
 * square of the player's region (the solver's own Zobrist keys), so the same corral met
 * again in any other state costs a lookup; one left unproven at the limit is searched again
 * with more states when it has been asked about often. The table is a fixed
 * array of 64-bit words written and read atomically, so several searches of one level (the
 * threads of solver_threads.h) can share it. Part of the solver (solver.h); internal to
 * it. */
#ifndef SOKOBAN_SOLVER_CORRAL_DEADLOCK_H
#define SOKOBAN_SOLVER_CORRAL_DEADLOCK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "solver_rows.h"
#include "solver_state.h"

/* The most barrier boxes a corral may have to be searched (more: left unproven). */
enum { SOLVER_CORRAL_BOXES = 16 };

/* A corral left unproven at the small search's limit is searched again, with as many
 * states as it has been asked about, each time that count is a power of two from this one
 * on (Festival's re-evaluation of the corrals met often): the searches again cost at most
 * twice as many states as the questions. */
enum { SOLVER_CORRAL_AGAIN_FROM = 128 };

/* The checks of every corral of a state read their stop (solver_corral_deadlocks.stop)
 * each time this many more corrals were looked at and pushes made, each push a flood of the
 * board: a millisecond or so on the largest boards, where the start's check makes thousands
 * (50 ms of CPU on a thousand boxes). */
enum { SOLVER_CORRAL_STOP_WORK = 64 };

/* A search's own table of learned corrals: 64 Ki entries, 512 KiB, taken out of the memory
 * limit (solver.c); the searches of a race share one of twice that. */
enum { SOLVER_CORRAL_ENTRIES = 1 << 16 };

/* The learned corrals of one level: shareable between the searches of that level (they
 * key their states alike: the same board, the same Zobrist keys). */
typedef struct solver_corral_memory {
    _Atomic uint64_t *entries; /* key with its lowest bit the answer (1: deadlock); 0: empty */
    size_t mask;               /* entries - 1, a power of two minus one */
    /* what is learned here is learned in this one too, which is never read through this
     * one (NULL: none): a race's first run keeps its own and writes the race's as well */
    struct solver_corral_memory *also;
} solver_corral_memory;

/* A table of `entries` words (rounded down to a power of two, at least 1024). */
bool solver_corral_memory_init(solver_corral_memory *memory, size_t entries);
void solver_corral_memory_free(solver_corral_memory *memory);

/* The most questions an answer's count keeps. */
enum { SOLVER_CORRAL_COUNT_MAX = (1 << 14) - 1 };

/* The answer learned for `key` (1 to 3, the checks' own; 0: none), and in *count how often
 * it was asked (1 when none). */
int solver_corral_memory_recall(const solver_corral_memory *memory, uint64_t key, int *count);

/* Keeps an answer and its count (at most SOLVER_CORRAL_COUNT_MAX) for `key`: in the key's
 * slot or an empty one of its probes, else over the first. Two searches writing at once may
 * overwrite each other's answer; a lost answer is only learned again, a lost count only
 * counted again. Then in memory->also. */
void solver_corral_memory_learn(solver_corral_memory *memory, uint64_t key, int answer,
                                int count);

/* What the checks found, for measurements. */
typedef struct solver_corral_counters {
    uint64_t checks;    /* corrals looked at (after the quick tests) */
    /* these four count the stuck boxes' sets too */
    uint64_t learned;   /* answered from the table */
    uint64_t searched;  /* small searches run */
    uint64_t deadlocks; /* corrals proven lost (searched or learned) */
    uint64_t one_touching_lost; /* of them, by the barrier and one box touching it */
    uint64_t nodes;     /* the small searches' pushes */
    uint64_t stuck_checks;   /* positions whose stuck boxes were looked at */
    uint64_t stuck_searched; /* sets of stuck boxes asked about (table or search) */
    uint64_t stuck_lost;     /* positions proven lost by their stuck boxes */
    uint64_t stuck_nodes;    /* the pushes of their small searches */
} solver_corral_counters;

/* The work space of one search's checks. */
typedef struct solver_corral_deadlocks {
    const board *board;
    const solver_distances *distances;
    const deadlock_table *deadlocks; /* frozen boxes; may be NULL */
    const struct solver_pairs *pairs;     /* two-box deadlocks (solver_pairs.h); may be NULL */
    const struct solver_triples *triples; /* three-box ones kept; NULL, or with pairs */
    solver_zobrist zobrist;          /* the search's keys (borrowed arrays) */
    solver_corral_memory *memory;    /* the table in use: `own`, or a shared one */
    solver_corral_memory own;        /* made when first needed, if none is shared */
    int node_limit;
    uint8_t *boxes;   /* the barrier boxes alone */
    uint8_t *blocked; /* walls, the outside and those boxes */
    uint32_t *mark, stamp;
    solver_rows rows; /* the same floor as bits, when the board fits (use_rows) */
    bool use_rows;
    bool corral_by_rows;   /* this check labels corrals over rows (the search's too) */
    uint64_t *corral_rows; /* by rows: the corral's squares */
    uint64_t *barrier_rows; /* and the boxes next to it */
    uint64_t *corral_free; /* the free squares the player cannot reach */
    uint64_t *done;        /* the corrals labelled in this check */
    uint64_t *parent_reach; /* by rows: the reach of the small search's state expanded */
    uint32_t *in_corral, corral_stamp;
    int *queue;
    int *corral; /* the corral's squares */
    int corral_count;
    uint16_t *states; /* the breadth-first queue: node_limit + 1 states of box squares */
    uint16_t *player; /* and each one's player square */
    /* the stuck boxes' search is best-first: buckets of states (solver_corral_deadlock.c) */
    int *open_next;
    int open_top[(SOLVER_CORRAL_BOXES + 1) * (SOLVER_CORRAL_BOXES + 1)];
    int open_least;
    uint64_t *seen;   /* keys of the states met, stamped by `seen_generation` */
    uint32_t *seen_generation, generation;
    size_t seen_mask;
    int box_count;                       /* the boxes taken: the barrier's, then more */
    int barrier_count;                   /* the barrier's boxes among them (the first) */
    int touching_count; /* after them, the boxes touching the barrier (take_neighbours) */
    int box_square[SOLVER_CORRAL_BOXES]; /* where they stand now */
    solver_corral_counters counters;
    /* when to give up (NULL: never; the solver sets it after init): the checks of every
     * corral of a state (solver_corral_deadlock_anywhere(),
     * solver_corral_deadlock_each_touching()) read it between two corrals
     * (SOLVER_CORRAL_STOP_WORK); once it says so, those checks prove nothing more */
    const solver_stop *stop;
    uint64_t stop_read_at; /* counters.checks + counters.nodes when it was last read */
    bool stopped;
    /* stuck boxes (made at the first check): per square, 1 under a box frozen on a goal; the
     * boxes not frozen; the key of the frozen ones, which stand as walls */
    uint8_t *frozen_marks;
    int *all_boxes;
    uint64_t frozen_key;
} solver_corral_deadlocks;

/* Sets up the checks of one search on `board`; the distances' dead squares, the deadlock
 * table's frozen boxes (may be NULL) and the Zobrist keys are borrowed, and so is
 * `memory`, the table of learned corrals; NULL: a table of the search's own, of
 * SOLVER_CORRAL_ENTRIES, made at the first corral. False when out of memory. */
bool solver_corral_deadlocks_init(solver_corral_deadlocks *c, const board *board,
                                  const solver_distances *distances,
                                  const deadlock_table *deadlocks, solver_zobrist zobrist,
                                  solver_corral_memory *memory);
void solver_corral_deadlocks_free(solver_corral_deadlocks *c);

/* Learns in `memory`, shared with the other searches of the level, instead of a table of
 * its own (to be called before the first check). */
void solver_corral_deadlocks_share(solver_corral_deadlocks *c, solver_corral_memory *memory);

/* True when a corral next to the box on `square` (the one pushed last) proves the search's
 * current state lost. The player's reach must be computed; nothing of the state changes. */
bool solver_corral_deadlock(solver_corral_deadlocks *c, const solver_search *search, int square);

/* True when any corral of the search's current state is proven lost: those next to every
 * box, each searched with its barrier alone and then, unproven, with the boxes that touch
 * the barrier too (a box wedged against it can freeze a barrier box pushed into the
 * corral). For each state the optimal mode makes within its threshold (a push checks only
 * the corrals next to its box). The player's reach must be computed. */
bool solver_corral_deadlock_anywhere(solver_corral_deadlocks *c, const solver_search *search);

/* The same, with one more try for each corral that the search with all the touching boxes
 * leaves unproven at its node limit: the barrier with each box that touches it, one at a
 * time (a corral is often wedged by a single box). For the position a search starts from,
 * which no push has checked (a position from the middle of a game may be lost by a corral
 * already), and for each state the fast mode expands (docs/SOLVER.md, section 11). */
bool solver_corral_deadlock_each_touching(solver_corral_deadlocks *c, const solver_search *search);

/* The most stuck boxes searched (more: not looked at), and the states of their first search
 * (Festival's 500; one asked about often is searched again with more, as a corral is). */
enum { SOLVER_STUCK_BOXES = 9, SOLVER_STUCK_STATES = 500 };

/* Stuck boxes (Festival's "xy deadlocks"): whether the position of `box_count` boxes on
 * `squares`, the player on `player`, is lost by the boxes that cannot move freely. The boxes
 * frozen on goals stand as walls; every box the player can push along both axes is taken
 * away, again until none is (the player's floor grows); the boxes left, at most
 * SOLVER_STUCK_BOXES and some off goals, are searched alone, a box taken away whenever it
 * can be pushed along both axes, and are lost when no state has them all on goals. Returns
 * 0 when not proven lost. Else, with `pattern` given (room for box_count squares) and
 * `region` (a bit per square of the board), the set is cut down, a box at a time, to the
 * fewest that stay lost, and the pattern is written: the frozen boxes, then those, and the
 * player's region among them alone (solver_stuck.h); returns the pattern's size. Answers are
 * learned in the table, as the corrals' are. `box_count` is the same at every call (the
 * work space is sized at the first). */
int solver_stuck_deadlock(solver_corral_deadlocks *c, const uint16_t *squares, int box_count,
                          int player, int *pattern, uint64_t *region);

#endif
