/* optimizer_search.h - the optimizer's search: the shortest solution whose every box
 * configuration is one of a given set (part of the optimizer module, optimizer.h; not for
 * other modules).
 *
 * A box configuration is where the boxes stand, the player left out. The set is given as
 * 64-bit Zobrist keys (XOR of one random number a box square); a key that two
 * configurations share only lets the search look at one more configuration, never at an
 * illegal move, since every push is made on the real boxes. The search is A* over the
 * positions just after a push (the configuration and the player, who stands where the box
 * stood), each push costing the shortest walk to it plus one move and one push; the cost is
 * compared moves first or pushes first, and the bound never overestimates either: the sum
 * over the boxes of the pushes each needs alone to its nearest goal or, given the solver's
 * push distances, the least total over the ways to give each box its own goal (the
 * matching of solver_bound.h). */
#ifndef SOKOBAN_OPTIMIZER_SEARCH_H
#define SOKOBAN_OPTIMIZER_SEARCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/board.h"
#include "solver_bound.h"

/* A set of configuration keys: open addressing, 0 never a key. */
typedef struct optimizer_keys {
    uint64_t *slots;
    size_t mask; /* capacity - 1, a power of two minus one */
    size_t count;
    size_t most; /* the capacity it may grow to */
} optimizer_keys;

/* An empty set that may grow to `capacity` slots (half of them used). */
bool optimizer_keys_init(optimizer_keys *keys, size_t capacity);
void optimizer_keys_free(optimizer_keys *keys);
/* Adds `key`; true when it was new. False also when the set is full (count reached half
 * the capacity): `*full` says which. */
bool optimizer_keys_add(optimizer_keys *keys, uint64_t key, bool *full);
bool optimizer_keys_has(const optimizer_keys *keys, uint64_t key);

/* The Zobrist number of a box on `square` (never 0; the same on every board). */
uint64_t optimizer_square_key(int square);
/* The key of the boxes of `p`. */
uint64_t optimizer_boxes_key(const board *board, const position *p);

/* One push: the box's square before it and the direction. */
typedef struct optimizer_push {
    int box;
    direction direction;
} optimizer_push;

/* The best solution's positions just after each push (YASS's check of the positions on the
 * best path, Brian Damgaard): a search stopped before its end may have reached one of them
 * by a shorter way, which with the rest of the best is a shorter solution. */
typedef struct optimizer_path {
    const uint64_t *keys; /* per position (0: the start, k: after push k): its boxes' key */
    const int *players;   /* the player's square there */
    const int *moves;     /* the moves the best takes to get there (its pushes: k) */
    int count;            /* positions: the best's pushes + 1 */
} optimizer_path;

typedef enum optimizer_search_status {
    OPTIMIZER_SEARCH_FOUND, /* a solution cheaper than the limit: *pushes filled */
    /* stopped as LIMIT is, but with a shorter way to a position of the request's path:
     * *pushes holds it, to the path's position *request->reached */
    OPTIMIZER_SEARCH_SHORTCUT,
    OPTIMIZER_SEARCH_NONE,  /* none cheaper than the limit in the set */
    OPTIMIZER_SEARCH_LIMIT, /* time, nodes or memory ran out first */
    OPTIMIZER_SEARCH_CANCELLED,
    OPTIMIZER_SEARCH_ERROR, /* out of memory at the start */
} optimizer_search_status;

typedef struct optimizer_search_request {
    const board *board;
    const position *start;
    const uint8_t *dead; /* per square: a box there can never reach a goal */
    const optimizer_keys *allowed;
    /* NULL, or the level's push distances (solver_bound.h): the bound is then their
     * minimum-cost matching of boxes to goals, and a configuration with no matching (a box
     * that only a goal another box needs can take) is never entered */
    const solver_distances *distances;
    bool by_pushes;  /* pushes first, then moves; else moves first, then pushes */
    int limit_moves; /* only a solution cheaper than this (moves, pushes) is wanted */
    int limit_pushes;
    double deadline;    /* on optimizer_clock(); 0: none */
    uint64_t max_nodes; /* positions expanded; 0: no limit */
    size_t max_bytes;
    const atomic_bool *cancel;
    const optimizer_path *path; /* NULL, or the best's positions, for a SHORTCUT */
    int *reached;               /* with `path`: the path's position a SHORTCUT reaches */
} optimizer_search_request;

/* Seconds on a monotonic clock. */
double optimizer_clock(void);

/* Searches; on FOUND, *pushes (malloc'd) holds *count pushes from the start to a solved
 * position, on SHORTCUT to a position of the path. *nodes counts the positions expanded. */
optimizer_search_status optimizer_search(const optimizer_search_request *request,
                                         optimizer_push **pushes, int *count, uint64_t *nodes);

#endif
