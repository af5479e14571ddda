/* solver_bound.h - the solver's lower bound: push distances and a minimum-cost matching.
 *
 * Per level, the number of pushes each square is from each goal for a lone box, counting
 * only pushes the player can make (he must stand behind the box and walk round it).
 * Per node, the least total of those distances over all ways to give each box its own goal
 * (the Hungarian algorithm), kept up to date push by push. Part of the solver (solver.h);
 * internal to it. */
#ifndef SOKOBAN_SOLVER_BOUND_H
#define SOKOBAN_SOLVER_BOUND_H

#include <stdbool.h>
#include <stdint.h>

#include "rules/board.h"
#include "solver_options.h"

/* A distance meaning "no goal can be reached from here". */
enum { SOLVER_NO_PATH = UINT16_MAX };

typedef struct solver_distances {
    int goal_count;
    int size;
    uint16_t *to_goal; /* to_goal[square * goal_count + g]: pushes to goal g, or NO_PATH */
    /* to_goal_side[(square * 4 + side) * goal_count + g]: the same with the player on that
     * side of the box, or anywhere he can walk to from there round the box. */
    uint16_t *to_goal_side;
    uint16_t *nearest; /* the least over all goals; NO_PATH marks a dead square */
    /* side_group[square * 4 + d]: for the player's square next to `square` on side d, the
     * lowest side in the same walkable region when a box stands on `square`; 255 when that
     * neighbour is not floor. Two sides with equal groups are connected round the box. */
    uint8_t *side_group;
} solver_distances;

/* A side group of solver_side_groups(): that neighbour is no free floor. */
enum { SOLVER_NO_SIDE = 255 };

/* Which of the four neighbours of square `s` the player walks between when a box stands on
 * s and nothing else is in the way but walls and the squares marked in `walls` (may be
 * NULL): group[d] is the lowest side in the same walkable region as side d, SOLVER_NO_SIDE
 * when that neighbour is not free floor. One flood per side, stopped as soon as the other
 * sides are found. `seen` (board size, stamped with *stamp, cleared when the stamp wraps)
 * and `queue` (board size) are work space. */
void solver_side_groups(const board *board, const uint8_t *walls, int s, uint8_t group[4],
                        uint32_t *seen, uint32_t *stamp, int *queue);

/* Computes the push distances of `board`. Returns false when out of memory. */
bool solver_distances_init(solver_distances *distances, const board *board);
/* The same, giving up (false) when `stop` says so (may be NULL). */
bool solver_distances_init_until(solver_distances *distances, const board *board,
                                 const solver_stop *stop);
void solver_distances_free(solver_distances *distances);

static inline bool solver_square_is_dead(const solver_distances *d, int square)
{
    return d->nearest[square] == SOLVER_NO_PATH;
}

/* The distances to every goal of a box on `square` with the player on side `side`, or with
 * the player anywhere when `side` is -1. */
static inline const uint16_t *solver_distance_row(const solver_distances *d, int square, int side)
{
    size_t goals = (size_t)d->goal_count;
    if (side < 0) return d->to_goal + (size_t)square * goals;
    return d->to_goal_side + ((size_t)square * 4 + (size_t)side) * goals;
}

/* The matching: a minimum-cost assignment of boxes to goals, repaired after each push.
 * The state (potentials and assignment) can be saved and restored around a push. */
typedef struct solver_matching {
    int count;                   /* boxes = goals */
    const uint16_t *const *rows; /* rows[box]: its distance to each goal; not owned */
    /* The state, one block of 3 * (count + 1) ints (saved and restored as one copy): */
    int *row_potential;    /* u, 1-based, count + 1 entries */
    int *column_potential; /* v, just after u */
    int *column_row;       /* column_row[goal + 1] = box + 1 matched, 0 none; after v */
    /* Work arrays for one augmenting search (augment() in solver_bound.c). */
    int *way;
    long long *slack;
    int *unused;       /* the columns the search has not reached, in their order */
    int *tree;         /* the columns it has, in the order reached */
    long long *joined; /* the search's distance when each of `tree` was reached */
    int *pending;      /* rows still to assign in a solve from scratch */
    int *free_columns; /* the free columns during a repair */
    bool *changed;     /* the rows a repair frees, by row */
    /* When to give up a solve from scratch (O(n^3): half a second for 700 boxes) or the
     * repairs of a node's pushes; may be NULL. Read about every millisecond of work. A solve
     * or repair given up answers 0 and sets `stopped`: the search is then void. */
    const solver_stop *stop;
    bool stopped;
    long work; /* augmenting steps since the stop was last read */
} solver_matching;

/* The size of the state solver_matching_save() writes, in ints. */
int solver_matching_state_size(const solver_matching *matching);

bool solver_matching_init(solver_matching *matching, int box_count, const uint16_t *const *rows);
void solver_matching_free(solver_matching *matching);

/* The least total push distance over all assignments of boxes to goals, by the rows as
 * they are now, computed from scratch; IDA_INFINITY when there is no assignment in which
 * every box can reach its goal. */
int solver_matching_solve(solver_matching *matching);

/* The same after only the rows of the `count` boxes in `boxes` have changed since the last
 * solve or update: repairs the assignment with one augmenting path per changed row instead
 * of starting over. */
int solver_matching_update(solver_matching *matching, const int *boxes, int count);

void solver_matching_save(const solver_matching *matching, int *state);
void solver_matching_restore(solver_matching *matching, const int *state);

#endif
