/* solver_learned.c - the deadlocks learned on one board, kept between searches. */
#include "solver_learned.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "solver_corral_deadlock.h"
#include "solver_pairs.h"
#include "solver_stuck.h"

/* The table of learned corrals a race or a level keeps: 1 MiB. */
enum { LEARNED_CORRAL_ENTRIES = 2 * SOLVER_CORRAL_ENTRIES };

struct solver_learned {
    int width, height;
    uint8_t *flags; /* the board's squares (walls, goals, inside), to tell boards apart */
    solver_corral_memory corrals;
    solver_stuck_patterns patterns;
    /* the two-box deadlocks, made by the first search that asks (under `lock`); the
     * three-box ones kept, when asked for, by the first search that asks for them and is
     * not stopped before they are made */
    pthread_mutex_t lock;
    bool lock_made, pairs_tried, triples_made;
    solver_pairs pairs;
    solver_triples triples;
    solver_learned *pairs_from; /* a copy's: the table whose pairs and triples it hands out */
};

solver_learned *solver_learned_new(const board *board)
{
    solver_learned *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->width = board->width;
    l->height = board->height;
    l->flags = malloc((size_t)board->size);
    l->lock_made = l->flags && pthread_mutex_init(&l->lock, NULL) == 0;
    if (!l->lock_made || !solver_corral_memory_init(&l->corrals, LEARNED_CORRAL_ENTRIES) ||
        !solver_stuck_patterns_init(&l->patterns, board)) {
        solver_learned_free(l);
        return NULL;
    }
    memcpy(l->flags, board->flags, (size_t)board->size);
    return l;
}

/* A table of as many words as `from`, holding what it holds now (read atomically: it may
 * be written meanwhile), learning into it too. */
static bool corrals_copy(solver_corral_memory *memory, solver_corral_memory *from)
{
    if (!solver_corral_memory_init(memory, from->mask + 1)) return false;
    for (size_t i = 0; i <= from->mask; i++) { /* the empty ones left untouched, as made */
        uint64_t entry = atomic_load_explicit(&from->entries[i], memory_order_relaxed);
        if (entry) atomic_store_explicit(&memory->entries[i], entry, memory_order_relaxed);
    }
    memory->also = from;
    return true;
}

solver_learned *solver_learned_copy(solver_learned *shared, const board *board)
{
    if (!solver_learned_fits(shared, board)) return NULL; /* NULL too */
    solver_learned *l = solver_learned_new(board);
    if (!l) return NULL;
    solver_corral_memory_free(&l->corrals);
    solver_stuck_patterns_free(&l->patterns);
    bool corrals = corrals_copy(&l->corrals, &shared->corrals);
    if (!solver_stuck_patterns_copy(&l->patterns, &shared->patterns, board) || !corrals) {
        solver_learned_free(l);
        return NULL;
    }
    l->pairs_from = shared;
    return l;
}

void solver_learned_free(solver_learned *l)
{
    if (!l) return;
    solver_corral_memory_free(&l->corrals);
    solver_stuck_patterns_free(&l->patterns);
    solver_triples_free(&l->triples);
    solver_pairs_free(&l->pairs);
    if (l->lock_made) pthread_mutex_destroy(&l->lock);
    free(l->flags);
    free(l);
}

bool solver_learned_fits(const solver_learned *l, const board *board)
{
    return l && l->flags && l->width == board->width && l->height == board->height &&
           memcmp(l->flags, board->flags, (size_t)board->size) == 0;
}

solver_corral_memory *solver_learned_corrals(solver_learned *l)
{
    return &l->corrals;
}

solver_stuck_patterns *solver_learned_patterns(solver_learned *l)
{
    return &l->patterns;
}

const solver_pairs *solver_learned_pairs(solver_learned *l, const board *board,
                                         const solver_distances *distances, size_t most_bytes,
                                         const solver_stop *triples_stop,
                                         const solver_triples **triples)
{
    if (l->pairs_from)
        return solver_learned_pairs(l->pairs_from, board, distances, most_bytes, triples_stop,
                                    triples);
    pthread_mutex_lock(&l->lock);
    if (!l->pairs_tried) solver_pairs_init(&l->pairs, board, distances, most_bytes);
    l->pairs_tried = true;
    /* made once, and handed out only when whole: no search reads them while they are made */
    if (triples && l->pairs.alive && !l->triples_made)
        l->triples_made =
            solver_triples_init(&l->triples, &l->pairs, board, most_bytes, triples_stop) ||
            !solver_stop_now(triples_stop); /* too big, or out of memory: not again */
    if (triples) *triples = l->triples.first ? &l->triples : NULL;
    pthread_mutex_unlock(&l->lock);
    return l->pairs.alive ? &l->pairs : NULL;
}
