/* solver_stuck.c - deadlock patterns learned while searching: a store of box sets and
 * regions, listed under an anchor square, shared by searches in several threads. */
#include "solver_stuck.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

bool solver_stuck_patterns_init(solver_stuck_patterns *p, const board *board)
{
    *p = (solver_stuck_patterns){.words = ((size_t)board->size + 63) / 64,
                                 .stride = board->goal_count > 0 ? board->goal_count : 1};
    atomic_init(&p->published, 0);
    atomic_init(&p->matched, 0);
    /* the whole room at once (its pages are touched only as patterns come), so that no
     * reader ever sees an array move */
    p->first = malloc((size_t)board->size * sizeof *p->first);
    p->next = malloc(SOLVER_STUCK_PATTERNS * sizeof *p->next);
    p->size = malloc(SOLVER_STUCK_PATTERNS * sizeof *p->size);
    p->squares = malloc((size_t)SOLVER_STUCK_PATTERNS * (size_t)p->stride * sizeof *p->squares);
    p->regions = malloc((size_t)SOLVER_STUCK_PATTERNS * p->words * sizeof *p->regions);
    p->lock_made = pthread_mutex_init(&p->lock, NULL) == 0;
    if (!p->first || !p->next || !p->size || !p->squares || !p->regions || !p->lock_made) {
        solver_stuck_patterns_free(p);
        return false;
    }
    for (int i = 0; i < board->size; i++) atomic_init(&p->first[i], -1);
    return true;
}

bool solver_stuck_patterns_copy(solver_stuck_patterns *p, solver_stuck_patterns *from,
                                const board *board)
{
    if (!solver_stuck_patterns_init(p, board)) return false;
    if (p->stride != from->stride || p->words != from->words) { /* not its board */
        solver_stuck_patterns_free(p);
        return false;
    }
    pthread_mutex_lock(&from->lock);
    int count = from->count;
    p->count = count;
    memcpy(p->next, from->next, (size_t)count * sizeof *p->next);
    memcpy(p->size, from->size, (size_t)count * sizeof *p->size);
    memcpy(p->squares, from->squares, (size_t)count * (size_t)p->stride * sizeof *p->squares);
    memcpy(p->regions, from->regions, (size_t)count * p->words * sizeof *p->regions);
    for (int i = 0; i < board->size; i++)
        atomic_init(&p->first[i], atomic_load_explicit(&from->first[i], memory_order_relaxed));
    atomic_init(&p->published, count);
    pthread_mutex_unlock(&from->lock);
    p->also = from;
    return true;
}

void solver_stuck_patterns_free(solver_stuck_patterns *p)
{
    if (p->lock_made) pthread_mutex_destroy(&p->lock);
    free(p->first);
    free(p->next);
    free(p->size);
    free(p->squares);
    free(p->regions);
    *p = (solver_stuck_patterns){0};
}

void solver_stuck_patterns_add(solver_stuck_patterns *p, const int *squares, int count,
                               const uint64_t *region)
{
    assert(count <= p->stride);
    if (count <= 0 || count > p->stride) return;
    pthread_mutex_lock(&p->lock);
    if (p->count < SOLVER_STUCK_PATTERNS) {
        int i = p->count++;
        p->size[i] = count;
        memcpy(p->squares + (size_t)i * (size_t)p->stride, squares,
               (size_t)count * sizeof *squares);
        memcpy(p->regions + (size_t)i * p->words, region, p->words * sizeof *region);
        int anchor = squares[count - 1];
        p->next[i] = atomic_load_explicit(&p->first[anchor], memory_order_relaxed);
        /* published: a reader that sees `i` on the list sees all of it */
        atomic_store_explicit(&p->first[anchor], i, memory_order_release);
        atomic_store_explicit(&p->published, p->count, memory_order_relaxed);
    }
    pthread_mutex_unlock(&p->lock);
    if (p->also) solver_stuck_patterns_add(p->also, squares, count, region);
}

bool solver_stuck_patterns_match(solver_stuck_patterns *p, const uint8_t *boxes,
                                 const int *box_square, int box_count, int player)
{
    if (atomic_load_explicit(&p->published, memory_order_relaxed) == 0) return false;
    for (int b = 0; b < box_count; b++) {
        for (int i = atomic_load_explicit(&p->first[box_square[b]], memory_order_acquire); i >= 0;
             i = p->next[i]) {
            const uint64_t *region = p->regions + (size_t)i * p->words;
            if (!(region[player / 64] >> (player % 64) & 1)) continue;
            const int *squares = p->squares + (size_t)i * (size_t)p->stride;
            int k = 0;
            while (k < p->size[i] && boxes[squares[k]]) k++;
            if (k == p->size[i]) {
                atomic_fetch_add_explicit(&p->matched, 1, memory_order_relaxed);
                return true;
            }
        }
    }
    return false;
}
