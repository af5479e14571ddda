/* solver_frozen.h - deadlocks behind boxes frozen on goals.
 *
 * A box on a goal that can move on neither axis (a wall or another such box on a side, or
 * dead squares on both sides) never moves again: for the rest of the game it is a wall.
 * Behind such walls a box may no longer reach any goal left, or several boxes only the same
 * few: the boxes not frozen must still go to distinct goals not frozen, each along a path
 * of pushes that crosses no frozen box, with the box or with the player, who must also
 * walk round the box from one side to the next without crossing one (the other boxes and
 * the player's reach now left out, which only lets more through). A frozen box can close a
 * pocket the player could walk out of on the empty board: a goal filled only from inside
 * it can no longer be filled. When no such assignment exists the position is lost (YASS
 * proves the same on its board with frozen goal boxes made walls).
 *
 * A box counts only the sides the player can still push it from: when the search's reach
 * is computed and he reaches a side of the box now, the sides he can walk to round it from
 * there (the frozen boxes walls, the other boxes gone); else all four. A box on the mouth
 * of such a pocket can no longer be pushed from inside it.
 *
 * Which states reach a goal depends only on the frozen set, so those of the last frozen
 * sets met are kept (keyed by their Zobrist hash): a state costs a freeze test and a
 * bipartite matching of its boxes; a new set a pulling search per goal over (box square,
 * player side), with the player's side groups round each square it reaches worked out for
 * that set. Which boxes are frozen depends only on the boxes on goals (the freeze test looks
 * at walls, dead squares and the boxes of the set), so it is kept for the last sets of boxes
 * on goals met, and a push between two squares off goals tests nothing again. Part of the
 * solver (solver.h); internal to it. One per search: not shared
 * between threads. */
#ifndef SOKOBAN_SOLVER_FROZEN_H
#define SOKOBAN_SOLVER_FROZEN_H

#include <stdbool.h>
#include <stdint.h>

#include "solver_state.h"

enum {
    SOLVER_FROZEN_SETS = 256,      /* frozen sets whose squares are kept, at most */
    SOLVER_FROZEN_BYTES = 4 << 20, /* and the most their squares take together */
    SOLVER_FROZEN_MARKS = 64,      /* sets of boxes on goals whose frozen boxes are kept */
};

typedef struct solver_frozen {
    const board *board;
    const solver_distances *distances;
    uint8_t *frozen; /* per square: 1 under a frozen box (work space) */
    /* per kept set: its hash (0: none), goal_count rows of board size, a bit for each side
     * a box on a square can be pushed from to that goal, then its side groups (4 a square) */
    uint64_t key[SOLVER_FROZEN_SETS];
    uint8_t *reach[SOLVER_FROZEN_SETS]; /* made at their first use */
    int sets;                           /* the sets kept: fewer on a large level */
    int *queue;
    int *goal_of_box, *box_of_goal; /* the matching (work space) */
    int *boxes, *goals;             /* the boxes and goals not frozen (work space) */
    uint32_t *seen;                 /* per goal: the stamp of the augmenting search */
    uint32_t stamp;
    uint8_t *groups;      /* per square and side: the player's side groups, of the set in use */
    uint8_t *sides;       /* per box not frozen: the sides the player may push it from */
    uint32_t *group_seen; /* per square: groups worked out for the set when this stamp */
    uint32_t group_stamp;
    uint32_t *mark; /* flood marks of side_groups(), stamped */
    uint32_t mark_stamp;
    int *states;          /* the pulling search's queue of (box square, player side) */
    uint32_t *state_seen; /* its marks, stamped */
    uint32_t state_stamp;
    /* The frozen boxes of the last sets of boxes on goals met (the freeze test looks at no
     * other box): per set its key (0: none), how many and which squares, goal_count each. */
    uint64_t marks_key[SOLVER_FROZEN_MARKS];
    int marks_count[SOLVER_FROZEN_MARKS];
    int *marks_squares;
    uint64_t lost, checked, marked; /* counters, for measurements (marked: sets tested) */
} solver_frozen;

/* Sets up the check for searches on `board` with its push `distances`. False when out of
 * memory. */
bool solver_frozen_init(solver_frozen *frozen, const board *board,
                        const solver_distances *distances);
void solver_frozen_free(solver_frozen *frozen);

/* Marks in `frozen` (one byte per square) which of the `count` boxes on `squares` are frozen
 * on goals, and clears it for the others: the greatest set of boxes on goals each closed on
 * both axes (a wall or a box of the set on a side, or, with `distances` (may be NULL), dead
 * squares on both), found by taking out, until nothing changes, every box with an axis
 * open. Returns their number. Shared with the backward search (solver_backward.c). */
int solver_frozen_mark(const board *board, const solver_distances *distances, const int *squares,
                       int count, uint8_t *frozen);

/* True when one of the `count` boxes on `squares` is frozen off a goal: of the greatest set
 * of boxes each closed on both axes (as solver_frozen_mark() closes them, every box in the
 * set at first), one is off a goal, and no push can ever move it again (the freeze
 * deadlock, of any number of boxes). `frozen` is work space of one byte per square, all 0,
 * and left so. */
bool solver_frozen_off_goal(const board *board, const solver_distances *distances,
                            const int *squares, int count, uint8_t *frozen);

/* True when the search's current position is lost behind its boxes frozen on goals; the
 * player's reach, when computed (solver_search_key()), tells the sides he pushes from. */
bool solver_frozen_lost(solver_frozen *frozen, const solver_search *search);

#endif
