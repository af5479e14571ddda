/* solver_corral_memory.c - the table of learned corrals (solver_corral_deadlock.h): a word
 * an entry, the key's upper bits, a count of questions and the answer below. */
#include "solver_corral_deadlock.h"

#include <stdlib.h>

enum {
    PROBES = 4, /* slots looked at for one key */
    /* An entry: the key above ENTRY_BITS, a count of questions and the answer below. */
    ENTRY_BITS = 16,
    COUNT_SHIFT = 2,
};

_Static_assert(SOLVER_CORRAL_COUNT_MAX == (1 << (ENTRY_BITS - COUNT_SHIFT)) - 1,
               "the count fills the bits between the answer and the key");

bool solver_corral_memory_init(solver_corral_memory *memory, size_t entries)
{
    size_t size = 1024;
    while (size * 2 <= entries) size *= 2;
    *memory = (solver_corral_memory){.entries = calloc(size, sizeof *memory->entries),
                                     .mask = size - 1};
    return memory->entries != NULL;
}

void solver_corral_memory_free(solver_corral_memory *memory)
{
    free(memory->entries);
    *memory = (solver_corral_memory){0};
}

/* The key part of the word kept for `key`, never 0 (an empty slot). */
static inline uint64_t entry_key(uint64_t key)
{
    key &= ~(((uint64_t)1 << ENTRY_BITS) - 1);
    return key ? key : (uint64_t)1 << ENTRY_BITS;
}

int solver_corral_memory_recall(const solver_corral_memory *m, uint64_t key, int *count)
{
    uint64_t want = entry_key(key);
    size_t at = (size_t)(key >> 17) & m->mask;
    *count = 1;
    for (int p = 0; p < PROBES; p++) {
        uint64_t e =
            atomic_load_explicit(&m->entries[(at + (size_t)p) & m->mask], memory_order_relaxed);
        if (e == 0) return 0;
        if (entry_key(e) == want) {
            *count = (int)(e >> COUNT_SHIFT & SOLVER_CORRAL_COUNT_MAX);
            return (int)(e & ((1u << COUNT_SHIFT) - 1));
        }
    }
    return 0;
}

void solver_corral_memory_learn(solver_corral_memory *m, uint64_t key, int answer, int count)
{
    uint64_t word = entry_key(key) | (uint64_t)count << COUNT_SHIFT | (uint64_t)answer;
    size_t at = (size_t)(key >> 17) & m->mask, p = 0;
    for (; p < PROBES; p++) {
        uint64_t e = atomic_load_explicit(&m->entries[(at + p) & m->mask], memory_order_relaxed);
        if (e == 0 || entry_key(e) == entry_key(key)) break;
    }
    atomic_store_explicit(&m->entries[(at + (p < PROBES ? p : 0)) & m->mask], word,
                          memory_order_relaxed);
    if (m->also) solver_corral_memory_learn(m->also, key, answer, count);
}
