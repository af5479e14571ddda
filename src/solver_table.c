/* solver_table.c - Zobrist keys and the bucketed transposition table. */
#include "solver_table.h"

#include <stdlib.h>

bool solver_table_init(solver_table *t, size_t bytes)
{
    *t = (solver_table){0};
    size_t bucket = SOLVER_TABLE_WAYS * sizeof(solver_entry);
    size_t buckets = 1;
    while (buckets * 2 * bucket <= bytes) buckets *= 2;
    /* calloc: the pages of a large table are mapped only when first touched, so a small
     * level does not pay for the whole budget. */
    t->entries = calloc(buckets * SOLVER_TABLE_WAYS, sizeof *t->entries);
    if (!t->entries) return false;
    t->bucket_mask = buckets - 1;
    return true;
}

void solver_table_free(solver_table *t)
{
    free(t->entries);
    *t = (solver_table){0};
}

bool solver_table_enter(solver_table *t, uint64_t key, uint64_t bucket_key, int cost,
                        int iteration)
{
    if (key == 0) key = 1; /* 0 marks an empty entry */
    solver_entry *bucket = t->entries + (bucket_key & t->bucket_mask) * SOLVER_TABLE_WAYS;
    solver_entry *victim = bucket;
    for (int i = 0; i < SOLVER_TABLE_WAYS; i++) {
        solver_entry *e = bucket + i;
        if (e->key == key) {
            if (e->cost < (uint32_t)cost) return false;
            if (e->cost == (uint32_t)cost && e->iteration == (uint32_t)iteration) return false;
            e->cost = (uint32_t)cost;
            e->iteration = (uint32_t)iteration;
            return true;
        }
        /* The least useful entry: an empty one, else one from the oldest iteration, else
         * the one found deepest (it saves the least search). */
        if (victim->key == 0) continue;
        if (e->key == 0 || e->iteration < victim->iteration ||
            (e->iteration == victim->iteration && e->cost > victim->cost))
            victim = e;
    }
    if (victim->key) t->replacements++;
    t->stores++;
    *victim = (solver_entry){.key = key, .cost = (uint32_t)cost, .iteration = (uint32_t)iteration};
    return true;
}

/* SplitMix64 (Steele, Lea & Flood 2014): a small generator good enough for hash keys. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

bool solver_zobrist_init(solver_zobrist *z, int size)
{
    z->box = malloc((size_t)size * sizeof *z->box);
    z->player = malloc((size_t)size * sizeof *z->player);
    if (!z->box || !z->player) {
        solver_zobrist_free(z);
        return false;
    }
    uint64_t state = 0x5eed50c0ba11ULL;
    for (int i = 0; i < size; i++) {
        z->box[i] = next_random(&state);
        z->player[i] = next_random(&state);
    }
    return true;
}

void solver_zobrist_free(solver_zobrist *z)
{
    free(z->box);
    free(z->player);
    z->box = z->player = NULL;
}
