/* solver_corral.c - finding PI-corrals: label the areas the player cannot reach, then check
 * the pushes of each one's barrier boxes. */
#include "solver_corral.h"

#include <assert.h>
#include <limits.h>
#include <string.h>

static inline bool reaches(const solver_search *s, int square)
{
    return solver_search_reaches(s, square);
}

/* True when `square` lies in corral `label`: the one labelled last, over rows. */
static inline bool in_corral(const solver_search *s, int label, int square)
{
    if (s->use_rows) return solver_rows_has(&s->rows, s->corral_rows, square);
    return s->corral_mark[square] == s->corral_stamp && s->corral_id[square] == label;
}

/* Labels the free squares the player cannot reach connected to `start`; returns true when
 * one of them is a goal (a goal in a corral is always empty: corrals hold no boxes). */
static bool label_corral(solver_search *s, int start, int label)
{
    const board *b = s->board;
    uint32_t stamp = s->corral_stamp;
    int *queue = s->queue;
    int head = 0, tail = 0;
    bool goal = false;
    s->corral_mark[start] = stamp;
    s->corral_id[start] = label;
    queue[tail++] = start;
    while (head < tail) {
        int square = queue[head++];
        goal |= board_is_goal(b, square);
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + b->delta[d];
            if (s->corral_mark[next] == stamp || s->blocked[next] || reaches(s, next)) continue;
            s->corral_mark[next] = stamp;
            s->corral_id[next] = label;
            queue[tail++] = next;
        }
    }
    return goal;
}

/* The same over rows: the corral holding `start` into corral_rows, added to corral_done,
 * its barrier (the boxes next to it) into corral_barrier. */
static bool label_corral_rows(solver_search *s, int start)
{
    const solver_rows *r = &s->rows;
    solver_rows_corral(r, s->corral_free, start, s->corral_rows, s->corral_barrier, s->corral_done);
    bool goal = false;
    for (int y = 1; y < r->height - 1; y++) goal |= (s->corral_rows[y] & r->goals[y]) != 0;
    return goal;
}

/* A box of the corral's barrier: a box next to one of its squares. */
static bool is_barrier(const solver_search *s, int label, int square)
{
    if (s->use_rows) return solver_rows_has(&s->rows, s->corral_barrier, square);
    if (!s->boxes[square]) return false;
    for (int d = 0; d < DIRECTION_COUNT; d++)
        if (in_corral(s, label, square + s->board->delta[d])) return true;
    return false;
}

/* A square the player can never stand on while the barrier stays: a wall or the outside,
 * a square of the corral, or a barrier box. */
static bool never_standable(const solver_search *s, int label, int square)
{
    return !board_is_inside(s->board, square) || in_corral(s, label, square) ||
           is_barrier(s, label, square);
}

/* Checks the conditions on corral `label`. Returns the number of pushes into it (0: it can
 * never be entered, a deadlock), or -1 when it is not a PI-corral. */
static int evaluate(const solver_search *s, int label, bool goal_inside)
{
    const board *b = s->board;
    bool unfinished = goal_inside;
    int pushes = 0;
    for (int i = 0; i < s->box_count; i++) {
        int box = s->box_square[i];
        if (!is_barrier(s, label, box)) continue;
        if (!board_is_goal(b, box)) unfinished = true;
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int to = box + b->delta[d], from = box - b->delta[d];
            if (never_standable(s, label, from)) continue; /* no push this way, ever */
            if (in_corral(s, label, to)) {
                if (solver_square_is_dead(s->distances, to)) continue; /* never useful */
                if (!reaches(s, from)) return -1;                      /* not P */
                pushes++;
            } else {
                /* Out of the corral or along it: impossible only when the way stays shut. */
                bool shut = !board_is_inside(b, to) || is_barrier(s, label, to) ||
                            (!s->boxes[to] && solver_square_is_dead(s->distances, to));
                if (!shut) return -1; /* not I */
            }
        }
    }
    return unfinished ? pushes : -1;
}

int solver_corral_find(solver_search *s)
{
    const board *b = s->board;
    assert(s->reach_valid); /* corrals are what the player's reach leaves out */
    bool rows = s->use_rows;
    if (rows)
        solver_rows_corrals(&s->rows, s->corral_free, s->corral_done);
    else if (++s->corral_stamp == 0) {
        memset(s->corral_mark, 0, (size_t)b->size * sizeof *s->corral_mark);
        s->corral_stamp = 1;
    }
    int best = -1, best_pushes = INT_MAX, labels = 0;
    for (int i = 0; i < s->box_count && best_pushes > 0; i++) {
        int box = s->box_square[i];
        for (int d = 0; d < DIRECTION_COUNT && best_pushes > 0; d++) {
            int start = box + b->delta[d];
            if (s->blocked[start] || reaches(s, start)) continue;
            if (rows ? solver_rows_has(&s->rows, s->corral_done, start)
                     : s->corral_mark[start] == s->corral_stamp)
                continue;
            int label = labels++;
            bool goal = rows ? label_corral_rows(s, start) : label_corral(s, start, label);
            int pushes = evaluate(s, label, goal);
            if (pushes >= 0 && pushes < best_pushes) {
                best = label;
                best_pushes = pushes;
                if (rows) {
                    memcpy(s->corral_best, s->corral_rows,
                           (size_t)s->rows.height * sizeof *s->corral_best);
                }
            }
        }
    }
    return best;
}
