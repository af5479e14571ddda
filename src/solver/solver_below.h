/* solver_below.h - the optimal mode's move ordering from the last iteration: the least
 * bound the search met below each box set.
 *
 * Each iteration of IDA* searches the tree of the one before it again, one threshold
 * deeper. Below every state made, the search meets states whose bound (pushes still to
 * make, at least) is least somewhere: how near a solution the search came under it. Kept
 * per box set (the player's region left out, so that a push can look it up before it is
 * made), that least bound orders the pushes of the next iteration: the pushes under which
 * the last iteration came nearest a solution first. Only the order changes, never what is
 * searched, so the push counts stay optimal; the first iteration, with nothing kept, keeps
 * the inertia order (docs/SOLVER.md, section 8), which also breaks ties.
 *
 * Part of the solver (solver.h); internal to it. One per search. */
#ifndef SOKOBAN_SOLVER_BELOW_H
#define SOKOBAN_SOLVER_BELOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    SOLVER_BELOW_NONE = 0xffff, /* nothing kept */
};

typedef struct solver_below {
    /* a slot a box set, direct-mapped (a newer one takes the slot): the key's upper 48 bits
     * and the least bound in the lower 16, in one word so that a look-up is one cache miss
     * (0: empty) */
    uint64_t *slots;
    uint32_t mask;
    uint16_t *path; /* per depth: the least bound met below the state made at that depth */
    int depths;
} solver_below;

/* The slots of a table taken out of a search's `bytes` (the rest is the transposition
 * table's, so that --memory stays the peak): 2^20 at most (8 MiB), no more than a sixteenth
 * of them, 2^10 at least. As log2. */
int solver_below_log2_for(size_t bytes);
/* The bytes a table of 2^log2_slots slots takes. */
size_t solver_below_bytes(int log2_slots);
/* Sets up a table of 2^log2_slots slots. False when out of memory. */
bool solver_below_init(solver_below *b, int log2_slots);
void solver_below_free(solver_below *b);

/* The least bound kept below the box set `key`, or SOLVER_BELOW_NONE. */
static inline uint64_t *solver_below_slot(const solver_below *b, uint64_t key)
{
    return b->slots + ((uint32_t)(key >> 20) & b->mask);
}

static inline int solver_below_get(const solver_below *b, uint64_t key)
{
    uint64_t slot = *solver_below_slot(b, key);
    return slot && !((slot ^ key) & ~(uint64_t)0xffff) ? (int)(slot & 0xffff) : SOLVER_BELOW_NONE;
}

/* Fetches the slot of `key` into the cache ahead of a look-up or a leave. */
static inline void solver_below_prefetch(const solver_below *b, uint64_t key)
{
    __builtin_prefetch(solver_below_slot(b, key));
}

/* A state was made at `depth` (1 for the root's pushes) with bound `h` (SOLVER_BELOW_NONE
 * when pruned). False when out of memory. */
bool solver_below_enter(solver_below *b, int depth, int h);

/* The state made at `depth`, of box set `key`, is taken back: the least bound met below it
 * is kept under its key and handed to its parent. */
void solver_below_leave(solver_below *b, int depth, uint64_t key);

#endif
