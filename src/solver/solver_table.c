/* solver_table.c - Zobrist keys and the bucketed transposition table. */
#include "solver_table.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "solver_pages.h"

enum {
    /* The table starts at this size and grows fourfold (twofold from TWOFOLD_BYTES on)
     * whenever half of it is in use, up to the budget: a short search stays in the cache and
     * touches few fresh pages. */
    START_BYTES = 1 << 20,
    /* From this size on the table grows twofold, not fourfold: the pages a growth takes for
     * the first time cost the most of it (the kernel's, and in a virtual machine the host's:
     * 2 to 6 ms a MiB measured, against about 0.1 ms to move the entries), and twofold takes
     * no more of them than the entries will fill up to the next growth, where fourfold took
     * three times the table's bytes (XSokoban 5 ends at 26 to 32 million entries, half of a
     * table of 1 GiB: a fourfold growth took 3 GiB more, twofold takes 1 GiB). */
    TWOFOLD_BYTES = 256 << 20,
    /* Old buckets a thread takes at a time when the threads grow the table together: 256 KiB
     * of entries. */
    GROW_CHUNK = 1 << 12,
};

static size_t buckets_for(size_t bytes)
{
    size_t bucket = SOLVER_TABLE_WAYS * sizeof(solver_entry);
    size_t buckets = 1;
    while (buckets * 2 * bucket <= bytes) buckets *= 2;
    return buckets;
}

/* The whole budget is mapped at once (solver_pages.h: zero pages that cost no memory until
 * touched), and the table grows inside it: no second block is ever held beside the first,
 * so the budget is the table's peak, not 1.25 times it. */
bool solver_table_init(solver_table *t, size_t bytes)
{
    *t = (solver_table){0};
    t->max_buckets = buckets_for(bytes);
    size_t buckets = buckets_for(bytes < START_BYTES ? bytes : START_BYTES);
    size_t size = t->max_buckets * SOLVER_TABLE_WAYS * sizeof *t->entries;
    void *entries = solver_pages_map(size);
    if (!entries) return false;
    t->entries = entries;
    t->bucket_mask = buckets - 1;
    return true;
}

void solver_table_free(solver_table *t)
{
    solver_pages_unmap(t->entries, t->max_buckets * SOLVER_TABLE_WAYS * sizeof *t->entries);
    *t = (solver_table){0};
}

/* An entry's words, read and written one at a time (solver_table.h). */
static inline uint64_t data_of(uint64_t iteration, uint64_t cost, bool busy)
{
    return iteration << 32 | cost << 1 | (uint64_t)busy;
}

static inline void entry_read(const solver_entry *e, uint64_t *key, uint64_t *data)
{
    uint64_t check = __atomic_load_n(&e->check, __ATOMIC_RELAXED);
    *data = __atomic_load_n(&e->data, __ATOMIC_RELAXED);
    *key = check ^ *data;
}

static inline void entry_write(solver_entry *e, uint64_t key, uint64_t data)
{
    __atomic_store_n(&e->data, data, __ATOMIC_RELAXED);
    __atomic_store_n(&e->check, key ^ data, __ATOMIC_RELAXED);
}

static inline uint32_t cost_of(uint64_t data)
{
    return (uint32_t)(data >> 1) & 0x7fffffffu;
}

static inline uint32_t iteration_of(uint64_t data)
{
    return (uint32_t)(data >> 32);
}

/* The least useful entry of a bucket to overwrite: an empty one, else one from the oldest
 * iteration, else the one found deepest (it saves the least search). */
static solver_entry *victim_in(solver_entry *bucket)
{
    solver_entry *victim = NULL;
    uint64_t victim_data = 0;
    for (int i = 0; i < SOLVER_TABLE_WAYS; i++) {
        solver_entry *e = bucket + i;
        uint64_t key, data;
        entry_read(e, &key, &data);
        if (!data) return e;
        if (!victim || iteration_of(data) < iteration_of(victim_data) ||
            (iteration_of(data) == iteration_of(victim_data) &&
             cost_of(data) > cost_of(victim_data))) {
            victim = e;
            victim_data = data;
        }
    }
    return victim;
}

/* Moves the entries of old buckets [first, last) of a growth (solver_table_grow_begin) to
 * their buckets in the bigger table: an entry of bucket b goes to bucket (key & new mask),
 * which is b plus a multiple of the old bucket count, so the new buckets past the old ones
 * (still zero) take only entries of b, never more than b held, and threads moving apart
 * ranges of old buckets never meet. Returns the entries kept. */
static size_t move_buckets(solver_table *t, size_t first, size_t last)
{
    size_t old_buckets = t->grow_from, mask = t->grow_to - 1, kept = 0;
    for (size_t b = first; b < last; b++) {
        /* taken out and put back in slot order, as into a fresh table */
        solver_entry *bucket = t->entries + b * SOLVER_TABLE_WAYS, held[SOLVER_TABLE_WAYS];
        memcpy(held, bucket, sizeof held);
        memset(bucket, 0, sizeof held);
        for (int i = 0; i < SOLVER_TABLE_WAYS; i++) {
            uint64_t key = held[i].check ^ held[i].data;
            if (!held[i].data) continue;
            size_t to = key & mask;
            /* torn by two writers (shared): another position's key, in no bucket: dropped */
            if (to % old_buckets != b) continue;
            *victim_in(t->entries + to * SOLVER_TABLE_WAYS) = held[i];
            kept++;
        }
    }
    return kept;
}

void solver_table_grow_begin(solver_table *t)
{
    size_t old_buckets = t->bucket_mask + 1;
    size_t bytes = old_buckets * SOLVER_TABLE_WAYS * sizeof(solver_entry);
    size_t buckets = old_buckets * (bytes >= TWOFOLD_BYTES ? 2 : 4);
    if (buckets > t->max_buckets) buckets = t->max_buckets;
    t->grow_from = buckets > old_buckets ? old_buckets : 0;
    t->grow_to = buckets;
    t->grow_next = 0;
    t->grow_kept = 0;
}

void solver_table_grow_part(solver_table *t)
{
    if (!t->grow_from) return;
    size_t kept = 0;
    for (;;) {
        size_t first = __atomic_fetch_add(&t->grow_next, GROW_CHUNK, __ATOMIC_RELAXED);
        if (first >= t->grow_from) break;
        kept += move_buckets(t, first,
                             first + GROW_CHUNK < t->grow_from ? first + GROW_CHUNK : t->grow_from);
    }
    __atomic_add_fetch(&t->grow_kept, kept, __ATOMIC_RELAXED);
}

void solver_table_grow_end(solver_table *t)
{
    if (t->grow_from) {
        t->bucket_mask = t->grow_to - 1;
        t->used = t->grow_kept;
        t->sampled = t->grow_kept / 64;
    }
    t->grow_from = 0;
    t->full = false;
}

void solver_table_grow(solver_table *t)
{
    solver_table_grow_begin(t);
    solver_table_grow_part(t);
    solver_table_grow_end(t);
}

/* The entries held (a pass over the table). */
static size_t count_used(const solver_table *t)
{
    size_t used = 0;
    for (size_t i = 0; i < (t->bucket_mask + 1) * SOLVER_TABLE_WAYS; i++)
        used += t->entries[i].data != 0;
    return used;
}

/* Looks for `key` (not 0) in `bucket`: its entry in *found (NULL when absent) and what a
 * visit at cost c in iteration it makes of it: cut by a cheaper visit or by one at the same
 * cost in this iteration (helping when that one is still searched), entered otherwise (the
 * entry then to be written over; a key absent is entered too). */
static solver_table_answer scan_bucket(solver_entry *bucket, uint64_t key, uint32_t c, uint32_t it,
                                       solver_entry **found)
{
    *found = NULL;
    for (int i = 0; i < SOLVER_TABLE_WAYS; i++) {
        uint64_t k, data;
        entry_read(bucket + i, &k, &data);
        if (k != key || !data) continue;
        *found = bucket + i;
        if (cost_of(data) < c) return SOLVER_TABLE_CUT;
        if (cost_of(data) == c && iteration_of(data) == it)
            return data & 1 ? SOLVER_TABLE_HELPING : SOLVER_TABLE_CUT;
        return SOLVER_TABLE_ENTERED;
    }
    return SOLVER_TABLE_ENTERED;
}

solver_table_answer solver_table_visit(solver_table *t, uint64_t key, int cost, int iteration)
{
    assert(cost >= 0 && iteration > 0);
    if (key == 0) key = 1; /* kept apart from an empty entry's words */
    solver_entry *bucket = t->entries + (key & t->bucket_mask) * SOLVER_TABLE_WAYS;
    uint32_t c = (uint32_t)cost, it = (uint32_t)iteration;
    solver_entry *e = NULL;
    solver_table_answer answer = scan_bucket(bucket, key, c, it, &e);
    if (e) {
        if (answer == SOLVER_TABLE_ENTERED) entry_write(e, key, data_of(it, c, t->shared));
        return answer;
    }
    solver_entry *victim = victim_in(bucket);
    bool replaced = __atomic_load_n(&victim->data, __ATOMIC_RELAXED) != 0;
    entry_write(victim, key, data_of(it, c, t->shared));
    if (t->shared) {
        if (!replaced && key >> 58 == 0 && t->bucket_mask + 1 < t->max_buckets) {
            uint64_t seen = __atomic_add_fetch(&t->sampled, 1, __ATOMIC_RELAXED);
            if (seen * 64 * 2 > (t->bucket_mask + 1) * SOLVER_TABLE_WAYS)
                __atomic_store_n(&t->full, true, __ATOMIC_RELAXED);
        }
        return SOLVER_TABLE_ENTERED;
    }
    if (replaced) {
        t->replacements++;
    } else {
        t->used++;
    }
    t->stores++;
    /* at its largest the table stays as it is (past half full from then on, it would ask to
     * grow at every store) */
    if (t->bucket_mask + 1 < t->max_buckets &&
        t->used * 2 > (t->bucket_mask + 1) * SOLVER_TABLE_WAYS) {
        solver_table_grow(t); /* the next half-full mark is the bigger table's */
    }
    return SOLVER_TABLE_ENTERED;
}

solver_table_answer solver_table_look(const solver_table *t, uint64_t key, int cost, int iteration)
{
    if (key == 0) key = 1;
    solver_entry *bucket = t->entries + (key & t->bucket_mask) * SOLVER_TABLE_WAYS;
    solver_entry *found;
    return scan_bucket(bucket, key, (uint32_t)cost, (uint32_t)iteration, &found);
}

bool solver_table_enter(solver_table *t, uint64_t key, int cost, int iteration)
{
    return solver_table_visit(t, key, cost, iteration) != SOLVER_TABLE_CUT;
}

void solver_table_leave(solver_table *t, uint64_t key, int cost, int iteration)
{
    if (!t->shared) return;
    if (key == 0) key = 1;
    solver_entry *bucket = t->entries + (key & t->bucket_mask) * SOLVER_TABLE_WAYS;
    uint64_t busy = data_of((uint32_t)iteration, (uint32_t)cost, true);
    for (int i = 0; i < SOLVER_TABLE_WAYS; i++) {
        uint64_t k, data;
        entry_read(bucket + i, &k, &data);
        if (k == key && data == busy) {
            entry_write(bucket + i, key, busy & ~(uint64_t)1);
            return;
        }
    }
}

void solver_table_share(solver_table *t)
{
    t->shared = true;
    t->sampled = count_used(t) / 64;
    t->full = false;
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
