/* solver_table.h - the solver's transposition table: Zobrist keys and a fixed-size hash
 * table of the least number of pushes each position was reached with.
 *
 * IDA* on its own re-searches every position once per path that leads to it and once per
 * iteration; the table cuts a position reached again at no better cost (Junghanns &
 * Schaeffer 2001; the S4 solver's "Baby" tables show the effect). Part of the solver
 * (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_TABLE_H
#define SOKOBAN_SOLVER_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct solver_entry {
    uint64_t key;       /* 0: empty */
    uint32_t cost;      /* the least cost (pushes) the position was entered with */
    uint32_t iteration; /* the last IDA* iteration that entered it at that cost */
} solver_entry;

typedef struct solver_table {
    solver_entry *entries;
    size_t bucket_mask; /* buckets of SOLVER_TABLE_WAYS entries; a power of two minus one */
    size_t max_buckets; /* what the memory budget allows */
    size_t used;        /* entries holding a key */
    uint64_t stores, replacements;
} solver_table;

enum { SOLVER_TABLE_WAYS = 4 };

/* Sets up a table that may grow to `bytes` (at least one bucket); it starts at 1 MiB and
 * grows fourfold each time it is half full, in place inside one block of `bytes` (pages
 * are taken as they are touched), so that `bytes` is its peak. False when out of memory. */
bool solver_table_init(solver_table *table, size_t bytes);
void solver_table_free(solver_table *table);

/* Records that the position with `key` is entered at `cost` in
 * `iteration` (counted from 1). Returns false when the search must not enter it: it was entered
 * before at a lower cost (in any iteration: its cheaper path is searched in this iteration too), or
 * at the same cost in this iteration. A full bucket loses its least useful entry, which only
 * weakens the pruning, never its soundness. */
bool solver_table_enter(solver_table *table, uint64_t key, int cost, int iteration);

/* The bits of a key that choose its bucket, in the largest table `table` can grow to. */
static inline uint64_t solver_table_spot_mask(const solver_table *table)
{
    return table->max_buckets - 1;
}

/* Starts fetching into the cache the bucket of the keys whose low bits (the spot mask's)
 * are those of `spot`. */
static inline void solver_table_prefetch(const solver_table *table, uint64_t spot)
{
    __builtin_prefetch(table->entries + (spot & table->bucket_mask) * SOLVER_TABLE_WAYS, 1);
}

/* Zobrist keys: random 64-bit numbers, one per square for a box and one per square for the
 * player's region, from a seeded generator so runs repeat. */
typedef struct solver_zobrist {
    uint64_t *box;
    uint64_t *player;
} solver_zobrist;

bool solver_zobrist_init(solver_zobrist *zobrist, int size);
void solver_zobrist_free(solver_zobrist *zobrist);

#endif
