/* answers.c - the answer store: a hash table from position keys to where a stored solution
 * goes on, under one lock.
 *
 * A solution is kept whole, once; an entry names the solution, the step where the rest
 * begins (just after a push, or the start) and the square the player stands on there. The
 * solutions are never changed or freed before the store is, so a reader may copy from one
 * after letting go of the lock. Keys are computed (solver_position_key(), a flood fill)
 * outside the lock. */
#include "answers.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum { LOST = -1 };

typedef struct stored_solution {
    game_step *steps;
    int count;
} stored_solution;

typedef struct entry {
    uint64_t key;  /* 0: an empty slot */
    int solution;  /* index into solutions, or LOST */
    int step;      /* where the rest begins */
    int player;    /* the player's square there */
    int pushes;    /* left from there */
    int moves;     /* left from there */
    uint8_t mode;  /* solver_mode of the rest */
} entry;

struct answers {
    atomic_int references;
    pthread_mutex_t lock;
    board board; /* read-only after answers_create() */
    /* Guarded by `lock`. */
    stored_solution *solutions;
    int solution_count, solution_capacity;
    entry *slots;
    size_t slot_mask; /* a power of two minus one */
    size_t used;
    int solvable, lost;
};

answers *answers_create(const level *level)
{
    answers *store = calloc(1, sizeof *store);
    if (!store) return NULL;
    position start;
    if (!board_from_level(level, &store->board, &start)) {
        free(store);
        return NULL;
    }
    position_free(&start);
    store->slot_mask = 255;
    store->slots = calloc(store->slot_mask + 1, sizeof *store->slots);
    if (!store->slots) {
        board_free(&store->board);
        free(store);
        return NULL;
    }
    pthread_mutex_init(&store->lock, NULL);
    atomic_init(&store->references, 1);
    return store;
}

answers *answers_retain(answers *store)
{
    atomic_fetch_add(&store->references, 1);
    return store;
}

void answers_release(answers *store)
{
    if (!store || atomic_fetch_sub(&store->references, 1) != 1) return;
    for (int i = 0; i < store->solution_count; i++) free(store->solutions[i].steps);
    free(store->solutions);
    free(store->slots);
    board_free(&store->board);
    pthread_mutex_destroy(&store->lock);
    free(store);
}

void answer_free(answer *answer)
{
    if (!answer) return;
    free(answer->steps);
    answer->steps = NULL;
}

/* ---- the table (call with the lock held) ------------------------------------------------ */

static entry *find_slot(entry *slots, size_t mask, uint64_t key)
{
    size_t i = (size_t)(key ^ (key >> 29)) & mask;
    while (slots[i].key != 0 && slots[i].key != key) i = (i + 1) & mask;
    return &slots[i];
}

/* Doubles the table when it is half full. False when out of memory. */
static bool make_room(answers *store)
{
    if (2 * (store->used + 1) <= store->slot_mask + 1) return true;
    size_t mask = 2 * store->slot_mask + 1;
    entry *slots = calloc(mask + 1, sizeof *slots);
    if (!slots) return false;
    for (size_t i = 0; i <= store->slot_mask; i++)
        if (store->slots[i].key) *find_slot(slots, mask, store->slots[i].key) = store->slots[i];
    free(store->slots);
    store->slots = slots;
    store->slot_mask = mask;
    return true;
}

/* True when `a` is a better rest than `b`: optimal first, then fewer pushes, fewer moves. */
static bool better(const entry *a, const entry *b)
{
    if (b->solution == LOST) return a->solution != LOST;
    if (a->solution == LOST) return false;
    if (a->mode != b->mode) return a->mode == SOLVER_OPTIMAL;
    if (a->pushes != b->pushes) return a->pushes < b->pushes;
    return a->moves < b->moves;
}

/* Puts `e` in the table unless a better answer is there. False when out of memory. */
static bool put(answers *store, const entry *e)
{
    uint64_t key = e->key ? e->key : 1;
    entry *slot = find_slot(store->slots, store->slot_mask, key);
    if (slot->key == 0) {
        if (!make_room(store)) return false;
        slot = find_slot(store->slots, store->slot_mask, key);
        store->used++;
        *(e->solution == LOST ? &store->lost : &store->solvable) += 1;
    } else if (!better(e, slot)) {
        return true;
    } else if (slot->solution == LOST) {
        store->lost--;
        store->solvable++;
    }
    *slot = *e;
    slot->key = key;
    return true;
}

static const entry *get(const answers *store, uint64_t key)
{
    if (key == 0) key = 1;
    const entry *slot = find_slot(store->slots, store->slot_mask, key);
    return slot->key ? slot : NULL;
}

/* ---- storing --------------------------------------------------------------------------- */

bool answers_add_solution(answers *store, const position *from, const game_step *steps, int count,
                          solver_mode mode)
{
    const board *b = &store->board;
    assert(count >= 0);
    /* The entries: one at the start and one just after each push but the last. */
    entry *found = malloc((size_t)(count + 1) * sizeof *found);
    game_step *copy = malloc((size_t)(count > 0 ? count : 1) * sizeof *copy);
    position p;
    bool ok = found && copy && position_copy(&p, from, b);
    if (!ok) {
        free(found);
        free(copy);
        return false;
    }
    int entries = 0, pushes = 0;
    for (int i = 0; ok && i < count; i++) {
        if (i == 0 || steps[i - 1].push)
            found[entries++] = (entry){.key = solver_position_key(b, &p),
                                       .step = i,
                                       .player = p.player,
                                       .pushes = -pushes, /* made good below */
                                       .moves = count - i,
                                       .mode = (uint8_t)mode};
        step_result r = board_step(b, &p, steps[i].direction);
        ok = r != STEP_BLOCKED && (r == STEP_PUSHED) == steps[i].push;
        pushes += r == STEP_PUSHED;
    }
    ok = ok && position_is_solved(&p, b) && count > 0;
    position_free(&p);
    if (ok) {
        memcpy(copy, steps, (size_t)count * sizeof *copy);
        pthread_mutex_lock(&store->lock);
        if (store->solution_count == store->solution_capacity) {
            int capacity = store->solution_capacity ? 2 * store->solution_capacity : 16;
            stored_solution *grown =
                realloc(store->solutions, (size_t)capacity * sizeof *grown);
            if (grown) {
                store->solutions = grown;
                store->solution_capacity = capacity;
            }
        }
        ok = store->solution_count < store->solution_capacity;
        if (ok) {
            int index = store->solution_count++;
            store->solutions[index] = (stored_solution){.steps = copy, .count = count};
            copy = NULL;
            for (int e = 0; ok && e < entries; e++) {
                found[e].solution = index;
                found[e].pushes += pushes;
                ok = put(store, &found[e]);
            }
        }
        pthread_mutex_unlock(&store->lock);
    }
    free(copy);
    free(found);
    return ok;
}

bool answers_add_lost(answers *store, const position *position)
{
    entry e = {.key = solver_position_key(&store->board, position), .solution = LOST};
    pthread_mutex_lock(&store->lock);
    bool ok = put(store, &e);
    pthread_mutex_unlock(&store->lock);
    return ok;
}

/* ---- asking ---------------------------------------------------------------------------- */

answer_kind answers_find(answers *store, const position *position, answer *out)
{
    const board *b = &store->board;
    *out = (answer){.kind = ANSWER_UNKNOWN};
    uint64_t key = solver_position_key(b, position);
    pthread_mutex_lock(&store->lock);
    const entry *slot = get(store, key);
    entry e = slot ? *slot : (entry){.solution = LOST - 1};
    stored_solution rest = e.solution >= 0 ? store->solutions[e.solution] : (stored_solution){0};
    pthread_mutex_unlock(&store->lock);
    if (e.solution == LOST) {
        out->kind = ANSWER_LOST;
        return out->kind;
    }
    if (e.solution < 0) return out->kind;

    /* The walk to where the stored solution goes on (in the same region: the same key). */
    direction *walk = malloc((size_t)b->size * sizeof *walk);
    int length = walk ? board_path(b, position, e.player, walk, b->size) : -1;
    int count = length + e.moves;
    game_step *steps = length >= 0 ? malloc((size_t)(count > 0 ? count : 1) * sizeof *steps) : NULL;
    if (steps) {
        for (int i = 0; i < length; i++) steps[i] = (game_step){.direction = walk[i]};
        memcpy(steps + length, rest.steps + e.step, (size_t)e.moves * sizeof *steps);
        /* the walk there and the rest's first walk made one shortest walk */
        game_step *shortest;
        int shortest_count;
        if (game_shortest_walks(b, position, steps, count, &shortest, &shortest_count)) {
            free(steps);
            steps = shortest;
            count = shortest_count;
        }
        *out = (answer){.kind = ANSWER_SOLVABLE,
                        .mode = (solver_mode)e.mode,
                        .steps = steps,
                        .moves = count,
                        .pushes = e.pushes};
    }
    free(walk);
    return out->kind;
}

bool answers_known(void *argument, uint64_t key)
{
    answers *store = argument;
    pthread_mutex_lock(&store->lock);
    const entry *slot = get(store, key);
    bool known = slot && slot->solution >= 0;
    pthread_mutex_unlock(&store->lock);
    return known;
}

void answers_count(answers *store, int *solvable, int *lost)
{
    pthread_mutex_lock(&store->lock);
    if (solvable) *solvable = store->solvable;
    if (lost) *lost = store->lost;
    pthread_mutex_unlock(&store->lock);
}
