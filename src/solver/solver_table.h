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

/* An entry as two words, so that searches on several threads may share the table without a
 * lock (Hyatt and Mann's lockless hashing): `data` holds the iteration (upper 32 bits), the
 * least cost (pushes) the position was entered with (bits 1 to 31) and whether a search is
 * still below it (bit 0, kept only in a shared table); `check` is the key xor `data`, so
 * that an entry torn by two writers at once reads as another position's, never as a wrong
 * cost for this one. Empty: `data` 0 (an iteration is never 0). Both words are read and
 * written with relaxed atomic accesses, which cost what plain ones do. */
typedef struct solver_entry {
    uint64_t check;
    uint64_t data;
} solver_entry;

typedef struct solver_table {
    solver_entry *entries;
    size_t bucket_mask; /* buckets of SOLVER_TABLE_WAYS entries; a power of two minus one */
    size_t max_buckets; /* what the memory budget allows */
    size_t used;        /* entries holding a key (not kept once shared) */
    uint64_t stores, replacements; /* likewise */
    bool shared;                   /* searched by several threads at once (solver_table_share) */
    /* Shared: the new entries whose key's top six bits are 0 (one in 64), counted at once by
     * every thread, and whether the table is half full by that count (solver_table_grow). */
    uint64_t sampled;
    bool full;
    /* A growth under way (solver_table_grow_begin): the buckets before (0: none) and after,
     * the next old bucket to move and the entries moved so far. */
    size_t grow_from, grow_to;
    size_t grow_next, grow_kept;
} solver_table;

enum { SOLVER_TABLE_WAYS = 4 };

/* Sets up a table that may grow to `bytes` (at least one bucket); it starts at 1 MiB and
 * grows fourfold (twofold from 256 MiB on) each time it is half full, in place inside one
 * block of `bytes` (pages are taken as they are touched), so that `bytes` is its peak.
 * False when out of memory. */
bool solver_table_init(solver_table *table, size_t bytes);
void solver_table_free(solver_table *table);

/* Records that the position with `key` is entered at `cost` in
 * `iteration` (counted from 1). Returns false when the search must not enter it: it was entered
 * before at a lower cost (in any iteration: its cheaper path is searched in this iteration too), or
 * at the same cost in this iteration. A full bucket loses its least useful entry, which only
 * weakens the pruning, never its soundness.
 *
 * Shared (solver_table_share), an entry also says whether the search that entered it is
 * still below it: a position entered at the same cost in this iteration by another thread
 * that has not left it yet is entered again (true), so that a thread helps with a subtree
 * another is in rather than wait for it; one that was left (solver_table_leave) is not. A
 * thread never meets its own unfinished entry at the same cost: the costs along its path
 * rise. */
bool solver_table_enter(solver_table *table, uint64_t key, int cost, int iteration);

/* solver_table_enter, which also says when the position was entered to help another thread
 * that is below it. */
typedef enum solver_table_answer {
    SOLVER_TABLE_CUT,
    SOLVER_TABLE_ENTERED,
    SOLVER_TABLE_HELPING,
} solver_table_answer;
solver_table_answer solver_table_visit(solver_table *table, uint64_t key, int cost, int iteration);

/* What solver_table_visit() would answer, the table left as it is: a search that may not
 * keep the position (one beyond its threshold, whose entry would only take room) looks
 * first and visits only to keep it. */
solver_table_answer solver_table_look(const solver_table *table, uint64_t key, int cost,
                                      int iteration);

/* Says, in a shared table, that the search below the position entered at `cost` in
 * `iteration` is over (every position under it searched, or left to another thread that is
 * still below it); nothing when the entry is gone or newer. */
void solver_table_leave(solver_table *table, uint64_t key, int cost, int iteration);

/* Makes the table ready for several threads at once (its counters stop; it grows when
 * solver_table_full says so, by solver_table_grow while no thread uses it). Called while no
 * search runs. */
void solver_table_share(solver_table *table);
/* In a shared table: true when it is half full and may grow. Thread-safe. */
static inline bool solver_table_full(const solver_table *table)
{
    return __atomic_load_n(&table->full, __ATOMIC_RELAXED);
}
/* Grows a table fourfold, twofold from 256 MiB on (up to its budget), while no thread
 * searches it: the entries moved, and counted as they are, in one pass over the old buckets. */
void solver_table_grow(solver_table *table);
/* The same in three steps, for several threads to share the moving: begin on one thread,
 * then part on any number of threads at once (each moves a slice of old buckets at a time
 * until none are left), then end on one thread once every part has returned. */
void solver_table_grow_begin(solver_table *table);
void solver_table_grow_part(solver_table *table);
void solver_table_grow_end(solver_table *table);

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
