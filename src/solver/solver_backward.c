/* solver_backward.c - the backward search: pulls from the solved positions towards the
 * start, best first, meeting the forward search's states. */
#include "solver_backward.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "solver_domain.h"
#include "solver_frozen.h"

enum {
    /* f = g + BACKWARD_WEIGHT * h, as the forward search's weighted best-first */
    BACKWARD_WEIGHT = 5,
};

/* Breadth-first search of the squares a lone box on `from` can be pushed to (the player
 * behind it on floor, other boxes ignored): the pushes from `from` to a square are the
 * pulls from that square back to `from`. Writes them to to_start's column `column`. */
static void pull_distances(solver_backward *back, int from, int column, int *queue,
                           uint16_t *distance)
{
    const board *b = back->board;
    int n = back->box_count;
    for (int i = 0; i < b->size; i++) distance[i] = SOLVER_NO_PATH;
    int head = 0, tail = 0;
    distance[from] = 0;
    /* a fixed box's square takes no other box: only its own is there, never pulled */
    if (!back->fixed[from]) queue[tail++] = from;
    while (head < tail) {
        int square = queue[head++];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int to = square + b->delta[d], behind = square - b->delta[d];
            if (!board_is_inside(b, to) || !board_is_inside(b, behind) || back->fixed[to] ||
                back->fixed[behind] || distance[to] != SOLVER_NO_PATH)
                continue;
            distance[to] = (uint16_t)(distance[square] + 1);
            queue[tail++] = to;
        }
    }
    for (int i = 0; i < b->size; i++)
        back->to_start[(size_t)i * (size_t)n + (size_t)column] = distance[i];
}

/* Floods the player's reach from `player` over the squares not blocked into `reach`
 * (stamped `stamp`); returns the least square reached, which names the region. */
static int flood(const solver_backward *back, int player, uint32_t *reach, uint32_t stamp)
{
    const board *b = back->board;
    int *queue = back->queue;
    int head = 0, tail = 0, least = player;
    reach[player] = stamp;
    queue[tail++] = player;
    while (head < tail) {
        int square = queue[head++];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + b->delta[d];
            if (reach[next] == stamp || back->blocked[next]) continue;
            reach[next] = stamp;
            queue[tail++] = next;
            if (next < least) least = next;
        }
    }
    return least;
}

static uint32_t next_stamp(const solver_backward *back, uint32_t *reach, uint32_t stamp)
{
    if (++stamp == 0) {
        memset(reach, 0, (size_t)back->board->size * sizeof *reach);
        stamp = 1;
    }
    return stamp;
}

/* Takes box `i` off its square. */
static void lift_box(solver_backward *back, int i)
{
    int square = back->box_square[i];
    back->box_at[square] = -1;
    back->blocked[square] = 0;
    if (back->use_rows) solver_rows_set_box(&back->floor, square, false);
    back->box_key ^= back->zobrist->box[square];
}

/* Puts box `i` on `square` (free), with the matching's row of that square. */
static void put_box(solver_backward *back, int i, int square)
{
    back->box_square[i] = square;
    back->box_at[square] = i;
    back->blocked[square] = 1;
    if (back->use_rows) solver_rows_set_box(&back->floor, square, true);
    back->box_key ^= back->zobrist->box[square];
    back->rows[i] = back->to_start + (size_t)square * (size_t)back->box_count;
}

/* Puts the backward search in the state with the boxes on `squares` (box_count of them);
 * returns how many rows of the matching changed, listed in back->changed. Only the boxes
 * that stand elsewhere are moved (the states popped are a few pulls apart), all lifted
 * before any is put down, so that a box may go where another left. */
static int set_boxes(solver_backward *back, const uint16_t *squares)
{
    for (int i = 0; i < back->box_count; i++)
        if (back->box_square[i] != squares[i]) lift_box(back, i);
    int changed = 0;
    for (int i = 0; i < back->box_count; i++) {
        if (back->box_square[i] == squares[i]) continue;
        put_box(back, i, squares[i]);
        back->changed[changed++] = i;
    }
    return changed;
}

static void move_box(solver_backward *back, int box, int from, int to)
{
    assert(back->box_at[from] == box && back->box_at[to] < 0);
    back->box_at[from] = -1;
    back->blocked[from] = 0;
    back->box_at[to] = box;
    back->blocked[to] = 1;
    if (back->use_rows) {
        solver_rows_set_box(&back->floor, from, false);
        solver_rows_set_box(&back->floor, to, true);
    }
    back->box_square[box] = to;
    back->box_key ^= back->zobrist->box[from] ^ back->zobrist->box[to];
    back->rows[box] = back->to_start + (size_t)to * (size_t)back->box_count;
}

/* Opens a node: f = g + BACKWARD_WEIGHT * h, and among equal f the pull of the box pulled
 * last before a pull of another (`other_box`), as YASS tries them. Where two boxes could
 * each be drawn one step nearer home, the box already on its way goes on: on XSokoban 35
 * halfway, the lower-numbered box's pull won the tie, closed the goal room's door early and
 * left the player walled in. Then a pull that brings its box home (`not_home` false). */
static bool open_node(solver_backward *back, int node, int h, bool other_box, bool not_home)
{
    uint64_t priority =
        4 * ((uint64_t)back->store.nodes[node].g + (uint64_t)BACKWARD_WEIGHT * (uint64_t)h) +
        (other_box ? 2 : 0) + (not_home ? 1 : 0);
    if (priority > UINT32_MAX) priority = UINT32_MAX;
    return solver_open_push(&back->open, 0, priority, node);
}

/* The roots: the solved position with the player in each region of the free floor. */
static bool add_roots(solver_backward *back)
{
    const board *b = back->board;
    for (int i = 0; i < back->box_count; i++) put_box(back, i, b->goals[i]);
    back->parent_stamp = next_stamp(back, back->parent_reach, back->parent_stamp);
    int h = solver_matching_solve(&back->matching);
    bool ok = true;
    for (int square = 0; ok && square < b->size; square++) {
        if (!board_is_inside(b, square) || back->blocked[square] ||
            back->parent_reach[square] == back->parent_stamp)
            continue;
        int region = flood(back, square, back->parent_reach, back->parent_stamp);
        uint64_t key = back->box_key ^ back->zobrist->player[region];
        if (h >= IDA_INFINITY || solver_store_contains(&back->store, key)) continue;
        int node =
            solver_store_add(&back->store, SOLVER_NO_NODE, 0, 0, region, key, back->box_square);
        ok = node != SOLVER_NO_NODE && open_node(back, node, h, false, false);
    }
    return ok;
}

bool solver_backward_init(solver_backward *back, const board *b, const int *start, int box_count,
                          const solver_zobrist *zobrist, size_t memory_bytes,
                          const solver_stop *stop)
{
    *back = (solver_backward){.board = b, .zobrist = zobrist, .box_count = box_count};
    assert(box_count == b->goal_count);
    size_t size = (size_t)b->size, n = (size_t)(box_count > 0 ? box_count : 1);
    back->to_start = malloc(size * n * sizeof *back->to_start);
    back->pull_dead = calloc(size, 1);
    back->fixed = calloc(size, 1);
    back->home = calloc(size, 1);
    back->rows = calloc(n, sizeof *back->rows);
    back->changed = calloc(n, sizeof *back->changed);
    back->box_square = calloc(n, sizeof *back->box_square);
    back->box_at = malloc(size * sizeof *back->box_at);
    back->blocked = malloc(size);
    back->reach = calloc(size, sizeof *back->reach);
    back->parent_reach = calloc(size, sizeof *back->parent_reach);
    back->queue = malloc(size * sizeof *back->queue);
    back->use_rows = solver_rows_fit(b);
    if (back->use_rows) {
        back->parent_rows = malloc((size_t)b->height * sizeof *back->parent_rows);
        if (!back->parent_rows || !solver_rows_init(&back->floor, b)) back->use_rows = false;
    }
    uint16_t *distance = malloc(size * sizeof *distance);
    bool ok = back->to_start && back->pull_dead && back->fixed && back->home && back->rows &&
              back->changed && back->box_square && back->box_at && back->blocked && back->reach &&
              back->parent_reach && back->queue && distance &&
              solver_matching_init(&back->matching, box_count, back->rows);
    if (ok) {
        back->matching.stop = stop; /* its solves from scratch are O(boxes^3) */
        back->saved =
            malloc((size_t)solver_matching_state_size(&back->matching) * sizeof *back->saved);
        ok = back->saved != NULL;
    }
    if (ok) {
        for (size_t i = 0; i < size; i++) {
            back->box_at[i] = -1;
            back->blocked[i] = !board_is_inside(b, (int)i);
        }
        /* The start's boxes that never move in any solution (solver_frozen_mark(), without
         * the dead-square rule): their goals are filled from the start, so the backward
         * search never pulls them, and no other box can pass them. (YASS walls such boxes
         * in; in the forward search they bought nothing, docs/SOLVER.md.) */
        solver_frozen_mark(b, NULL, start, box_count, back->fixed);
        for (int j = 0; j < box_count; j++) back->home[start[j]] = 1;
        for (int j = 0; j < box_count; j++) {
            if (j % 64 == 63 && solver_stop_now(stop)) {
                /* given up: the search is void; the columns left say "no path" */
                back->matching.stopped = true;
                for (size_t i = 0; i < size; i++)
                    for (size_t k = (size_t)j; k < n; k++)
                        back->to_start[i * n + k] = SOLVER_NO_PATH;
                break;
            }
            pull_distances(back, start[j], j, back->queue, distance);
        }
        for (size_t i = 0; i < size; i++) {
            back->pull_dead[i] = 1;
            for (size_t j = 0; j < n && box_count > 0; j++)
                if (back->to_start[i * n + j] != SOLVER_NO_PATH) back->pull_dead[i] = 0;
        }
        ok = solver_store_init(&back->store, box_count, memory_bytes, SOLVER_OPEN_ENTRY_BYTES) &&
             solver_open_init(&back->open, 1, false) && add_roots(back);
    }
    free(distance);
    if (!ok) solver_backward_free(back);
    return ok;
}

void solver_backward_free(solver_backward *back)
{
    free(back->to_start);
    free(back->pull_dead);
    free(back->fixed);
    free(back->home);
    free(back->rows);
    free(back->changed);
    free(back->saved);
    free(back->box_square);
    free(back->box_at);
    free(back->blocked);
    free(back->reach);
    free(back->parent_rows);
    solver_rows_free(&back->floor);
    free(back->parent_reach);
    free(back->queue);
    solver_matching_free(&back->matching);
    solver_store_free(&back->store);
    solver_open_free(&back->open);
    *back = (solver_backward){0};
}

bool solver_backward_expand(solver_backward *back, const solver_store *forward, uint64_t *nodes,
                            int *met)
{
    *met = SOLVER_NO_NODE;
    int i = back->exhausted ? SOLVER_NO_NODE : solver_open_pop(&back->open);
    if (i == SOLVER_NO_NODE) {
        back->exhausted = true;
        return true;
    }
    const board *b = back->board;
    const solver_node node = back->store.nodes[i];
    /* The matching holds an optimal assignment for the rows as they stand (each pull's
     * repair is undone below), so the state popped is repaired from the last one's rows,
     * as after a pull: cheaper than a solve from scratch however many rows changed. */
    int changed = set_boxes(back, solver_store_boxes(&back->store, i));
    int least = 0; /* the reach's least square, over rows */
    if (back->use_rows) {
        least = solver_rows_flood_into(&back->floor, node.player, back->parent_rows);
    } else {
        back->parent_stamp = next_stamp(back, back->parent_reach, back->parent_stamp);
        flood(back, node.player, back->parent_reach, back->parent_stamp);
    }
    solver_matching_update(&back->matching, back->changed, changed);
    solver_matching_save(&back->matching, back->saved);
    /* where the box pulled last stands (-1 at a root) */
    int last = node.parent == SOLVER_NO_NODE
                   ? -1
                   : solver_move_square(node.move) + b->delta[solver_move_direction(node.move)];
    for (int box = 0; box < back->box_count; box++) {
        int from = back->box_square[box];
        if (back->fixed[from]) continue;
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            /* the player on `to`, the box's neighbour, steps on to `step` and draws it */
            int to = from + b->delta[d], step = to + b->delta[d];
            bool walks = back->use_rows ? solver_rows_has(&back->floor, back->parent_rows, to)
                                        : back->parent_reach[to] == back->parent_stamp;
            if (!walks || back->blocked[step] || back->pull_dead[to]) continue;
            move_box(back, box, from, to);
            int region;
            if (back->use_rows) {
                region = solver_rows_reach_after_move(&back->floor, back->parent_rows, least,
                                                      from, to, true, NULL);
                if (region < 0) region = solver_rows_flood(&back->floor, step);
            } else {
                back->stamp = next_stamp(back, back->reach, back->stamp);
                region = flood(back, step, back->reach, back->stamp);
            }
            uint64_t key = back->box_key ^ back->zobrist->player[region];
            if (!solver_store_contains(&back->store, key)) {
                int h = solver_matching_update(&back->matching, &box, 1);
                if (h < IDA_INFINITY) {
                    (*nodes)++;
                    int child = solver_store_add(&back->store, i, solver_move(from, (direction)d),
                                                 node.g + 1, region, key, back->box_square);
                    if (child == SOLVER_NO_NODE) {
                        back->exhausted = true; /* the store is full */
                    } else {
                        if (!open_node(back, child, h, from != last, !back->home[to])) return false;
                        if (forward && solver_store_contains(forward, key)) *met = child;
                    }
                }
                solver_matching_restore(&back->matching, back->saved);
            }
            move_box(back, box, to, from);
            if (*met != SOLVER_NO_NODE || back->exhausted) return true;
        }
    }
    return true;
}

bool solver_backward_append_path(const solver_backward *back, int node, ida_result *result)
{
    const solver_node *nodes = back->store.nodes;
    int extra = nodes[node].g;
    ida_move *path = realloc(result->path, (size_t)(result->length + extra + 1) * sizeof *path);
    if (!path) return false;
    result->path = path;
    const board *b = back->board;
    for (int i = node; nodes[i].parent != SOLVER_NO_NODE; i = nodes[i].parent) {
        /* the pull drew a box from `from` one square in direction d; pushing it back from
         * there, the player on the square the pull left him on, undoes it */
        int from = solver_move_square(nodes[i].move);
        direction d = solver_move_direction(nodes[i].move);
        path[result->length++] =
            solver_move(from + b->delta[d], direction_opposite(d)) | SOLVER_MOVE_SINGLE;
    }
    result->cost += extra;
    return true;
}
