/* solver_bound.c - push distances (backward breadth-first search over pulls) and the
 * Hungarian algorithm that matches boxes to goals on them. */
#include "solver_bound.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ida.h"
#include "solver_options.h"

enum {
    /* The cost of giving a box a goal it cannot reach: large enough that any assignment
     * using such a pair costs more than every real one, small enough not to overflow. */
    UNREACHABLE_COST = 1 << 20,
    MAX_BOXES = SOLVER_MAX_BOXES,
};

/* ---- the player's regions round one box ------------------------------------------------ */

void solver_side_groups(const board *b, const uint8_t *walls, int s, uint8_t group[4],
                        uint32_t *seen, uint32_t *stamp, int *queue)
{
    memset(group, SOLVER_NO_SIDE, 4);
    for (int k = 0; k < DIRECTION_COUNT; k++) {
        int start = s + b->delta[k];
        if (!board_is_inside(b, start) || (walls && walls[start]) || group[k] != SOLVER_NO_SIDE)
            continue;
        group[k] = (uint8_t)k;
        int missing = 0;
        for (int k2 = k + 1; k2 < DIRECTION_COUNT; k2++) {
            int side = s + b->delta[k2];
            missing +=
                board_is_inside(b, side) && !(walls && walls[side]) && group[k2] == SOLVER_NO_SIDE;
        }
        if (!missing) continue;
        if (++*stamp == 0) {
            memset(seen, 0, (size_t)b->size * sizeof *seen);
            *stamp = 1;
        }
        seen[s] = *stamp; /* the box */
        seen[start] = *stamp;
        int head = 0, tail = 0;
        queue[tail++] = start;
        while (head < tail && missing) {
            int square = queue[head++];
            for (int dir = 0; dir < DIRECTION_COUNT; dir++) {
                int next = square + b->delta[dir];
                if (seen[next] == *stamp || !board_is_inside(b, next) || (walls && walls[next]))
                    continue;
                seen[next] = *stamp;
                queue[tail++] = next;
                for (int k2 = k + 1; k2 < DIRECTION_COUNT; k2++) {
                    if (next == s + b->delta[k2] && group[k2] == SOLVER_NO_SIDE) {
                        group[k2] = (uint8_t)k;
                        missing--;
                    }
                }
            }
        }
    }
}

/* The side groups of every inside square (solver_side_groups(), on the empty board). */
static bool compute_side_groups(solver_distances *d, const board *b)
{
    d->side_group = malloc((size_t)b->size * 4);
    int *queue = malloc((size_t)b->size * sizeof *queue);
    uint32_t *seen = calloc((size_t)b->size, sizeof *seen);
    if (!d->side_group || !queue || !seen) {
        free(queue);
        free(seen);
        return false;
    }
    memset(d->side_group, SOLVER_NO_SIDE, (size_t)b->size * 4);
    uint32_t stamp = 0;
    for (int s = 0; s < b->size; s++)
        if (board_is_inside(b, s))
            solver_side_groups(b, NULL, s, d->side_group + (size_t)s * 4, seen, &stamp, queue);
    free(queue);
    free(seen);
    return true;
}

/* ---- push distances -------------------------------------------------------------------- */

/* Marks state (square, side) and every side the player can walk to round the box at
 * distance `distance`, and queues them. */
static void reach_state(const solver_distances *d, uint16_t *distance, int *queue, int *tail,
                        int square, int side, uint16_t value)
{
    const uint8_t *group = d->side_group + (size_t)square * 4;
    for (int k = 0; k < DIRECTION_COUNT; k++) {
        int state = square * 4 + k;
        if (group[k] != group[side] || distance[state] != SOLVER_NO_PATH) continue;
        distance[state] = value;
        queue[(*tail)++] = state;
    }
}

/* Pushes from every (box square, player side) to `goal`, by a breadth-first search
 * backwards from the goal: undoing a push is a pull, the player stepping back and drawing
 * the box after him. Walking round the box is free (sides in the same group). The idea is
 * the standard "pull from the goals" of the Sokoban wiki's dead-square detection, kept
 * per player side as in Junghanns & Schaeffer 2001. */
static bool distances_from_goal(solver_distances *d, const board *b, int goal_index,
                                uint16_t *distance, int *queue, const solver_stop *stop)
{
    int goal = b->goals[goal_index];
    for (int i = 0; i < b->size * 4; i++) distance[i] = SOLVER_NO_PATH;
    int head = 0, tail = 0;
    if (board_is_inside(b, goal)) {
        for (int k = 0; k < DIRECTION_COUNT; k++)
            if (board_is_inside(b, goal + b->delta[k]))
                reach_state(d, distance, queue, &tail, goal, k, 0);
    }
    while (head < tail) {
        int state = queue[head++];
        int square = state / 4, side = state % 4;
        /* The box came from the player's square; the player stood one further. */
        int from = square + b->delta[side];
        int player = from + b->delta[side];
        if (!board_is_inside(b, player)) continue;
        int next = from * 4 + side;
        if (distance[next] != SOLVER_NO_PATH) continue;
        reach_state(d, distance, queue, &tail, from, side, (uint16_t)(distance[state] + 1));
    }
    uint16_t *to_goal = d->to_goal;
    size_t goals = (size_t)d->goal_count;
    for (int s = 0; s < b->size; s++) {
        /* the first goal's pass touches every page of the tables: on the largest levels
         * that alone takes a tenth of a second */
        if (s % 64 == 0 && solver_stop_now(stop)) return false;
        for (int k = 0; k < DIRECTION_COUNT; k++)
            d->to_goal_side[((size_t)s * 4 + (size_t)k) * goals + (size_t)goal_index] =
                s == goal ? 0 : distance[s * 4 + k];
    }
    for (int s = 0; s < b->size; s++) {
        if (s % 64 == 0 && solver_stop_now(stop)) return false;
        uint16_t best = SOLVER_NO_PATH;
        for (int k = 0; k < DIRECTION_COUNT; k++)
            if (distance[s * 4 + k] < best) best = distance[s * 4 + k];
        if (s == goal) best = 0;
        to_goal[(size_t)s * (size_t)d->goal_count + (size_t)goal_index] = best;
        if (best < d->nearest[s]) d->nearest[s] = best;
    }
    return true;
}

bool solver_distances_init(solver_distances *d, const board *b)
{
    return solver_distances_init_until(d, b, NULL);
}

bool solver_distances_init_until(solver_distances *d, const board *b, const solver_stop *stop)
{
    *d = (solver_distances){.goal_count = b->goal_count, .size = b->size};
    size_t goals = b->goal_count > 0 ? (size_t)b->goal_count : 1;
    d->to_goal = malloc((size_t)b->size * goals * sizeof *d->to_goal);
    d->nearest = malloc((size_t)b->size * sizeof *d->nearest);
    d->to_goal_side = malloc((size_t)b->size * 4 * goals * sizeof *d->to_goal_side);
    uint16_t *distance = malloc((size_t)b->size * 4 * sizeof *distance);
    int *queue = malloc((size_t)b->size * 4 * sizeof *queue);
    bool ok = d->to_goal && d->nearest && d->to_goal_side && distance && queue &&
              compute_side_groups(d, b);
    if (ok) {
        for (int s = 0; s < b->size; s++) d->nearest[s] = SOLVER_NO_PATH;
        /* one search a goal: a second in all on the largest levels, so the stop is
         * looked at as it goes */
        for (int g = 0; g < b->goal_count && ok; g++)
            ok = distances_from_goal(d, b, g, distance, queue, stop);
    }
    free(distance);
    free(queue);
    if (!ok) solver_distances_free(d);
    return ok;
}

void solver_distances_free(solver_distances *d)
{
    free(d->to_goal);
    free(d->to_goal_side);
    free(d->nearest);
    free(d->side_group);
    *d = (solver_distances){0};
}

/* ---- the matching ---------------------------------------------------------------------- */

int solver_matching_state_size(const solver_matching *m)
{
    return 3 * (m->count + 1);
}

bool solver_matching_init(solver_matching *m, int box_count, const uint16_t *const *rows)
{
    *m = (solver_matching){.count = box_count, .rows = rows};
    if (box_count > MAX_BOXES) return false;
    size_t n = (size_t)box_count + 1;
    /* the state saved and restored, one block: u, then v, then the assignment */
    m->row_potential = calloc(3 * n, sizeof(int));
    if (m->row_potential) {
        m->column_potential = m->row_potential + n;
        m->column_row = m->row_potential + 2 * n;
    }
    m->way = calloc(n, sizeof(int));
    m->slack = calloc(n, sizeof(long long));
    m->unused = calloc(n, sizeof(int));
    m->tree = calloc(n, sizeof(int));
    m->joined = calloc(n, sizeof(long long));
    m->pending = calloc(n, sizeof(int));
    m->free_columns = calloc(n, sizeof(int));
    m->changed = calloc(n, sizeof(bool));
    if (!m->row_potential || !m->way || !m->slack || !m->unused || !m->tree || !m->joined ||
        !m->pending || !m->free_columns || !m->changed) {
        solver_matching_free(m);
        return false;
    }
    return true;
}

void solver_matching_free(solver_matching *m)
{
    free(m->row_potential); /* with column_potential and column_row */
    free(m->way);
    free(m->slack);
    free(m->unused);
    free(m->tree);
    free(m->joined);
    free(m->pending);
    free(m->free_columns);
    free(m->changed);
    *m = (solver_matching){0};
}

/* The cost of a pair `pushes` apart (UNREACHABLE_COST when no pushes get there). */
static inline int cost_of(uint16_t pushes)
{
    return pushes == SOLVER_NO_PATH ? UNREACHABLE_COST : pushes;
}

/* The cost of giving box `row` (1-based) goal `column` (1-based). */
static inline int pair_cost(const solver_matching *m, int row, int column)
{
    return cost_of(m->rows[row - 1][column - 1]);
}

/* One phase of the Hungarian algorithm in its shortest-augmenting-path form (Kuhn-Munkres
 * with potentials, as in Jonker & Volgenant; the O(n^3) layout of the e-maxx notes): box
 * `row` is unassigned, every other box is assigned with tight, feasible potentials; grows a
 * Dijkstra tree of reduced costs from `row` to a free goal and flips the path. Returns that
 * goal's column.
 * Two savings on the textbook loop, neither changing a potential or a tie: the columns
 * not yet reached are kept in a list in their order (the scan skips the others without
 * looking), and the potentials are moved once at the end instead of after each step: a
 * slack is kept plus the distance the search had when it was set (`total`), and a column
 * reached at distance `joined` moves by the final distance less that. Column 0 stands for
 * the free box (its potential is never read). */
static int augment(solver_matching *m, int row)
{
    int n = m->count;
    int *u = m->row_potential, *v = m->column_potential, *p = m->column_row;
    int *way = m->way, *unused = m->unused, *tree = m->tree;
    long long *slack = m->slack, *joined = m->joined;
    p[0] = row;
    v[0] = 0;
    long long total = 0; /* the distance of the column last reached */
    int j0 = 0, reached = 0, left = n;
    for (int j = 1; j <= n; j++) {
        unused[j - 1] = j;
        slack[j] = LLONG_MAX;
    }
    for (;;) {
        tree[reached] = j0;
        joined[reached++] = total;
        int i0 = p[j0];
        const uint16_t *costs = m->rows[i0 - 1];
        long long base = total - u[i0], least = LLONG_MAX;
        int at = 0;
        for (int k = 0; k < left; k++) {
            int j = unused[k];
            long long reduced = cost_of(costs[j - 1]) - v[j] + base, best = slack[j];
            if (reduced < best) {
                slack[j] = best = reduced;
                way[j] = j0;
            }
            if (best < least) {
                least = best;
                at = k;
            }
        }
        j0 = unused[at];
        total = least;
        if (p[j0] == 0) break;
        memmove(unused + at, unused + at + 1, (size_t)(left - at - 1) * sizeof *unused);
        left--;
    }
    for (int k = 0; k < reached; k++) {
        int j = tree[k];
        int moved = (int)(total - joined[k]);
        u[p[j]] += moved;
        v[j] -= moved;
    }
    int free_column = j0;
    do {
        int j1 = way[j0];
        p[j0] = p[j1];
        j0 = j1;
    } while (j0);
    return free_column;
}

static int matching_total(const solver_matching *m)
{
    int total = 0;
    for (int j = 1; j <= m->count; j++) total += pair_cost(m, m->column_row[j], j);
    return total >= UNREACHABLE_COST ? IDA_INFINITY : total;
}

/* Gives free row `row` (1-based), whose potential is tight on some column, such a column
 * when one is free: a shortest augmenting path of length zero, found in O(n) instead of the
 * O(n^2) of augment(). The potentials stay feasible and every assigned pair tight, so the
 * assignment stays optimal for the rows it holds. True when it did. */
static bool assign_tight(solver_matching *m, int row)
{
    int *u = m->row_potential, *v = m->column_potential, *p = m->column_row;
    for (int j = 1; j <= m->count; j++) {
        if (p[j] == 0 && pair_cost(m, row, j) - u[row] - v[j] == 0) {
            p[j] = row;
            return true;
        }
    }
    return false;
}

/* True when the matching gives up (and is `stopped` from then on): the stop is read once
 * about every STOP_WORK steps of augment's inner loop, counted at their bound (count^2 an
 * augmenting path). One push repairs the matching with one path; on 700 boxes that is
 * half a million steps, and a node of the fast mode makes a thousand pushes: the stop is
 * read within a node, not only between nodes, and within a solve from scratch. */
static bool time_to_stop(solver_matching *m)
{
    enum { STOP_WORK = 1 << 20 };
    m->work += (long)m->count * m->count;
    if (m->work < STOP_WORK) return false;
    m->work = 0;
    if (!solver_stop_now(m->stop)) return false;
    m->stopped = true;
    return true;
}

int solver_matching_solve(solver_matching *m)
{
    if (m->stopped) return 0; /* half an assignment: nothing more is computed on it */
    int n = m->count;
    int *u = m->row_potential, *v = m->column_potential;
    /* Column reduction (Jonker & Volgenant): v[j] the least cost into column j, u = 0, is
     * feasible; each row then takes a tight free column where it has one, and only the
     * rows left over need an augmenting path. */
    for (int i = 0; i <= n; i++) {
        u[i] = 0;
        v[i] = 0;
        m->column_row[i] = 0;
    }
    for (int j = 1; j <= n; j++) {
        int least = INT_MAX;
        for (int i = 1; i <= n; i++) {
            int cost = pair_cost(m, i, j);
            if (cost < least) least = cost;
        }
        v[j] = least;
    }
    /* Row reduction on top: u[i] the least reduced cost of row i (still feasible), so
     * that a row whose best column is not a column minimum finds it tight too. */
    int left = 0;
    for (int i = 1; i <= n; i++) {
        int least = INT_MAX;
        for (int j = 1; j <= n; j++) {
            int reduced = pair_cost(m, i, j) - v[j];
            if (reduced < least) least = reduced;
        }
        u[i] = least;
        if (!assign_tight(m, i)) m->pending[left++] = i;
    }
    for (int k = 0; k < left; k++) {
        if (time_to_stop(m)) return 0; /* a lower bound still; the search ends soon after */
        augment(m, m->pending[k]);
    }
    return matching_total(m);
}

int solver_matching_update(solver_matching *m, const int *boxes, int count)
{
    if (m->stopped) return 0;
    int n = m->count;
    assert(count >= 0 && count <= n);
    int *u = m->row_potential, *v = m->column_potential, *p = m->column_row;
    /* Free the changed rows first, with potentials feasible on their new costs; the other
     * rows keep theirs, still feasible and tight. Then one augmenting path each. The free
     * columns are listed: few, they are all a row may take without a path. */
    int *free_columns = m->free_columns, free_count = 0;
    bool *changed = m->changed;
    for (int k = 0; k < count; k++) changed[boxes[k] + 1] = true;
    for (int j = 1; j <= n; j++) {
        if (p[j] == 0 || changed[p[j]]) {
            p[j] = 0;
            free_columns[free_count++] = j;
        }
    }
    for (int k = 0; k < count; k++) {
        int row = boxes[k] + 1;
        changed[row] = false;
        const uint16_t *costs = m->rows[row - 1];
        int least = INT_MAX;
        for (int j = 1; j <= n; j++) {
            int reduced = cost_of(costs[j - 1]) - v[j];
            if (reduced < least) least = reduced;
        }
        u[row] = least;
    }
    for (int k = 0; k < count; k++) {
        if (time_to_stop(m)) return 0;
        int row = boxes[k] + 1;
        /* most pushes leave a box's best goal free for it: no path to search. Else the
         * path ends at a free column. Either way the lowest-numbered, as assign_tight()
         * and augment() choose. */
        int taken = 0, at = -1;
        for (int f = 0; f < free_count; f++) {
            int j = free_columns[f];
            if ((taken == 0 || j < taken) && pair_cost(m, row, j) - u[row] - v[j] == 0) {
                taken = j;
                at = f;
            }
        }
        if (taken) {
            p[taken] = row;
        } else {
            taken = augment(m, row);
            for (at = 0; free_columns[at] != taken; at++) continue;
        }
        free_columns[at] = free_columns[--free_count];
    }
    return matching_total(m);
}

void solver_matching_save(const solver_matching *m, int *state)
{
    memcpy(state, m->row_potential, 3 * ((size_t)m->count + 1) * sizeof *state);
}

void solver_matching_restore(solver_matching *m, const int *state)
{
    memcpy(m->row_potential, state, 3 * ((size_t)m->count + 1) * sizeof *state);
}
