/* solver_store.h - the fast mode's store of the states it has seen (solver_fast.h).
 *
 * Owns the memory of the search: a pool of nodes (a state's key, its parent, the push that
 * made it, its push count and its FESS features), the box squares of each node, a hash set
 * of the keys (open addressing, a power of two of slots) so that no state is looked at
 * twice, and the pushes of the packing macros, from which a solution's path is read back.
 * Its size is fixed at the start from a memory budget: when it is full the search stops
 * (IDA_LIMIT). Its pages are taken as they are used: the pool fills from the front and the
 * hash set starts at one page and doubles (a set of its full size took a fresh page for
 * almost every state). Knows nothing of how the states are ordered (solver_open.h) or found.
 * Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_STORE_H
#define SOKOBAN_SOLVER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ida.h"

enum { SOLVER_NO_NODE = -1 };

typedef struct solver_node {
    uint64_t key;
    int32_t parent;
    ida_move move; /* the push from the parent; for a packing macro, where its pushes start */
    int32_t g;
    int32_t player;  /* the least square of the player's region */
    uint16_t macro;  /* 0, or the number of pushes of the packing macro from the parent */
    uint16_t weight; /* FESS: moves on the way here that no advisor asked for */
    uint16_t packed; /* FESS features: boxes on goals in packing order, */
    uint8_t regions; /* and the number of regions of free floor (at most 255) */
    uint8_t expanded; /* 1 once expanded: a state may be on two open lists (solver_open.h) */
} solver_node;

typedef struct solver_store {
    int box_count;
    solver_node *nodes;
    uint16_t *boxes; /* box_count squares per node */
    int count, max_nodes;
    int32_t *slots; /* hash set: node index + 1, 0 for empty; a power of two of them */
    size_t slot_mask, max_slot_mask; /* it doubles up to max_slot_mask + 1 slots */
    ida_move *macros;                /* the pushes of every packing macro kept, end to end */
    size_t macro_count, macro_capacity, max_macro; /* max_macro: its share of the memory */
} solver_store;

/* Sizes the store for states of `box_count` boxes in about `memory_bytes`: an eighth for
 * the pushes of packing macros, the rest for nodes, their boxes, the hash set and room for
 * `open_entry_bytes` more per node (the open lists' entries, the caller's own counts). False when
 * out of memory. */
bool solver_store_init(solver_store *store, int box_count, size_t memory_bytes,
                       size_t open_entry_bytes);
void solver_store_free(solver_store *store);

/* The slot of `key`: the one holding its node, or the empty one where it would go. */
static inline int32_t *solver_store_slot(const solver_store *store, uint64_t key)
{
    size_t i = (size_t)key & store->slot_mask;
    while (store->slots[i] != 0 && store->nodes[store->slots[i] - 1].key != key)
        i = (i + 1) & store->slot_mask;
    return &store->slots[i];
}

/* Starts fetching the slot of `key` into the cache, for a look-up to come. */
static inline void solver_store_prefetch(const solver_store *store, uint64_t key)
{
    __builtin_prefetch(&store->slots[(size_t)key & store->slot_mask]);
}

/* True when a state with `key` was stored. */
static inline bool solver_store_contains(const solver_store *store, uint64_t key)
{
    return *solver_store_slot(store, key) != 0;
}

/* Adds a state (its key must not be stored yet), reached from node `parent` (or
 * SOLVER_NO_NODE) by `move` in `g` pushes, the player's region named by `player`, the
 * boxes on `box_square` (box_count of them). Returns its index, or SOLVER_NO_NODE when the
 * pool is full. Its features and weight are 0 until the caller sets them. */
int solver_store_add(solver_store *store, int parent, ida_move move, int g, int player,
                     uint64_t key, const int *box_square);

/* The box squares of node `i`. */
static inline const uint16_t *solver_store_boxes(const solver_store *store, int i)
{
    return store->boxes + (size_t)i * (size_t)store->box_count;
}

/* Makes room for a packing macro of `count` pushes. Returns 1 when there is room, 0 when
 * its share of the memory is used up (the macro must be left out), -1 when out of memory. */
int solver_store_reserve_macro(solver_store *store, int count);

/* Keeps the `count` pushes of the packing macro that made node `i` (after
 * solver_store_reserve_macro() said yes, and with node `i`'s move set to
 * store->macro_count before the call). */
void solver_store_keep_macro(solver_store *store, int i, const ida_move *pushes, int count);

/* The pushes from the root to node `goal`, into result->path and result->length, its push
 * count in result->cost; a packing macro's pushes are marked SOLVER_MOVE_SINGLE. False when
 * out of memory. */
bool solver_store_path(const solver_store *store, int goal, ida_result *result);

#endif
