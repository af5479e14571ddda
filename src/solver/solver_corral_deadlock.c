/* solver_corral_deadlock.c - corral deadlocks by a small search on the barrier boxes alone,
 * with the answers learned for the rest of the search. */
#include "solver_corral_deadlock.h"

#include "solver_frozen.h"
#include "solver_pairs.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

enum {
    /* States a small search may keep before it gives up unproven. A lost corral usually runs
     * out of pushes within a few, a live one opens within a few: on XSokoban 15, 200,000
     * nodes, 32 proves 3,374 of the 3,425 corrals 512 proves, with a thirtieth of the
     * small searches' states (53,091 against 1,588,870). 64 since the two-box deadlocks
     * prune the small searches too (docs/SOLVER.md, "Two-box deadlocks"): XSokoban at 30 s
     * a level, 82 within 10 s against 80. */
    NODE_LIMIT = 64,
    /* The most states of a search again (SOLVER_CORRAL_AGAIN_FROM). */
    AGAIN_UP_TO = 4096,
    /* The answers learned (solver_corral_memory_learn()) */
    ANSWER_LOST = 1,
    ANSWER_OPEN = 2,
    ANSWER_LIMIT = 3, /* unproven at the limit: asked `count` times */
    OPEN_BUCKETS = (SOLVER_CORRAL_BOXES + 1) * (SOLVER_CORRAL_BOXES + 1),
};

/* Mixed into the keys of stuck boxes' searches, which share the table with the corrals'
 * (the same boxes and region are another question there). */
#define STUCK_SALT 0x9e3779b97f4a7c15ull

/* True when the box pushed from state[i] to `to`, the player on `from`, and another box
 * of `state` (n squares, 0 where a box is gone), or two (the boxes placed), are a two- or
 * three-box deadlock. */
static bool pair_lost(const solver_corral_deadlocks *c, const uint16_t *state, int n, int i, int to,
                      int from)
{
    if (!c->pairs) return false;
    for (int k = 0; k < n; k++)
        if (k != i && state[k] != 0 && solver_pairs_lost(c->pairs, to, state[k], from)) return true;
    return c->triples && solver_triples_lost(c->triples, c->pairs, c->boxes, to, from);
}

/* ---- setting up ------------------------------------------------------------------------ */

bool solver_corral_deadlocks_init(solver_corral_deadlocks *c, const board *board,
                                  const solver_distances *distances,
                                  const deadlock_table *deadlocks, solver_zobrist zobrist,
                                  solver_corral_memory *memory)
{
    *c = (solver_corral_deadlocks){.board = board,
                                   .distances = distances,
                                   .deadlocks = deadlocks,
                                   .zobrist = zobrist,
                                   .memory = memory,
                                   .node_limit = NODE_LIMIT};
    size_t size = (size_t)board->size;
    size_t states = (size_t)AGAIN_UP_TO + 1;
    size_t seen = 1;
    while (seen < 4 * states) seen *= 2;
    c->seen_mask = seen - 1;
    c->boxes = calloc(size, 1);
    c->blocked = malloc(size);
    c->mark = calloc(size, sizeof *c->mark);
    c->in_corral = calloc(size, sizeof *c->in_corral);
    c->queue = malloc(size * sizeof *c->queue);
    c->corral = malloc(size * sizeof *c->corral);
    c->states = malloc(states * SOLVER_CORRAL_BOXES * sizeof *c->states);
    c->player = malloc(states * sizeof *c->player);
    c->open_next = malloc(states * sizeof *c->open_next);
    c->seen = malloc(seen * sizeof *c->seen);
    c->seen_generation = calloc(seen, sizeof *c->seen_generation);
    c->use_rows = solver_rows_fit(board);
    if (c->use_rows) {
        size_t height = (size_t)board->height;
        c->corral_rows = calloc(height, sizeof *c->corral_rows);
        c->corral_free = calloc(height, sizeof *c->corral_free);
        c->done = calloc(height, sizeof *c->done);
        c->barrier_rows = calloc(height, sizeof *c->barrier_rows);
        c->parent_reach = calloc(height, sizeof *c->parent_reach);
    }
    if (!c->boxes || !c->blocked || !c->mark || !c->in_corral || !c->queue || !c->corral ||
        !c->states || !c->player || !c->open_next || !c->seen || !c->seen_generation ||
        (c->use_rows && (!c->corral_rows || !c->corral_free || !c->done || !c->barrier_rows ||
                         !c->parent_reach ||
                         !solver_rows_init(&c->rows, board)))) {
        solver_corral_deadlocks_free(c);
        return false;
    }
    for (int i = 0; i < board->size; i++) c->blocked[i] = !board_is_inside(board, i);
    return true;
}

void solver_corral_deadlocks_free(solver_corral_deadlocks *c)
{
    free(c->boxes);
    free(c->blocked);
    free(c->mark);
    free(c->in_corral);
    free(c->queue);
    free(c->corral);
    free(c->states);
    free(c->player);
    free(c->open_next);
    free(c->seen);
    free(c->seen_generation);
    solver_rows_free(&c->rows);
    free(c->corral_rows);
    free(c->corral_free);
    free(c->done);
    free(c->barrier_rows);
    free(c->parent_reach);
    free(c->frozen_marks);
    free(c->all_boxes);
    solver_corral_memory_free(&c->own);
    *c = (solver_corral_deadlocks){0};
}

void solver_corral_deadlocks_share(solver_corral_deadlocks *c, solver_corral_memory *memory)
{
    solver_corral_memory_free(&c->own);
    c->memory = memory;
}

/* ---- floods ---------------------------------------------------------------------------- */

static uint32_t next_stamp(uint32_t *stamp, uint32_t *marks, int size)
{
    if (++*stamp == 0) {
        memset(marks, 0, (size_t)size * sizeof *marks);
        *stamp = 1;
    }
    return *stamp;
}

/* Marks the squares the player walks to from `from` among the barrier boxes alone; returns
 * the least of them (his region's name). */
static int flood(solver_corral_deadlocks *c, int from)
{
    if (c->use_rows) return solver_rows_flood(&c->rows, from);
    const board *b = c->board;
    uint32_t stamp = next_stamp(&c->stamp, c->mark, b->size);
    int head = 0, tail = 0, least = from;
    c->mark[from] = stamp;
    c->queue[tail++] = from;
    while (head < tail) {
        int square = c->queue[head++];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + b->delta[d];
            if (c->mark[next] == stamp || c->blocked[next]) continue;
            c->mark[next] = stamp;
            c->queue[tail++] = next;
            if (next < least) least = next;
        }
    }
    return least;
}

/* True when the last flood reached `square`. */
static inline bool reached(const solver_corral_deadlocks *c, int square)
{
    return c->use_rows ? solver_rows_reached(&c->rows, square) : c->mark[square] == c->stamp;
}

/* True when the last flood reached every square of the corral that no box stands on. */
static bool corral_open(const solver_corral_deadlocks *c)
{
    if (c->corral_by_rows) {
        const solver_rows *r = &c->rows;
        for (int y = 1; y < r->height - 1; y++)
            if (c->corral_rows[y] & r->open[y] & ~r->reach[y]) return false;
        return true;
    }
    for (int i = 0; i < c->corral_count; i++) {
        int square = c->corral[i];
        if (!c->boxes[square] && !reached(c, square)) return false;
    }
    return true;
}

/* The player's region in a child of the small search's state last flooded (its reach kept
 * in parent_reach, its least square `least`), the box pushed from `from` to `to`, the player
 * on `from`: from the state's reach where the floor round them shows it, else a flood. */
static int child_region(solver_corral_deadlocks *c, int from, int to, int least)
{
    solver_rows *r = &c->rows;
    int region = c->use_rows ? solver_rows_reach_after_move(r, c->parent_reach, least, from, to,
                                                            false, r->reach)
                             : -1;
    return region >= 0 ? region : flood(c, from);
}

/* Puts a barrier box on `square` (on) or takes it away. */
static inline void set_box(solver_corral_deadlocks *c, int square, bool on)
{
    c->boxes[square] = c->blocked[square] = (uint8_t)on;
    if (c->use_rows) solver_rows_set_box(&c->rows, square, on);
}

/* Puts the barrier's boxes in square order: the small search and the boxes added to it
 * then do not depend on how the corral was labelled. */
static void sort_barrier(solver_corral_deadlocks *c)
{
    for (int i = 1; i < c->box_count; i++) {
        int square = c->box_square[i], j = i;
        for (; j > 0 && c->box_square[j - 1] > square; j--) c->box_square[j] = c->box_square[j - 1];
        c->box_square[j] = square;
    }
}

/* Labels the corral of the search's state that holds `start` (a free square the player
 * cannot reach) and takes its barrier boxes. False when it has too many of them, or when
 * every one of them is on a goal already (nothing to prove). */
static bool take_corral(solver_corral_deadlocks *c, const solver_search *s, int start)
{
    const board *b = c->board;
    uint32_t stamp = next_stamp(&c->corral_stamp, c->in_corral, b->size);
    int head = 0, tail = 0;
    c->in_corral[start] = stamp;
    c->queue[tail++] = start;
    while (head < tail) {
        int square = c->queue[head++];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + b->delta[d];
            if (c->in_corral[next] == stamp || s->blocked[next] || solver_search_reaches(s, next))
                continue;
            c->in_corral[next] = stamp;
            c->queue[tail++] = next;
        }
    }
    memcpy(c->corral, c->queue, (size_t)tail * sizeof *c->corral);
    c->corral_count = tail;
    /* the barrier: each box next to the corral, once (the corral's stamp marks it taken) */
    bool off_goal = false;
    c->box_count = 0;
    for (int i = 0; i < c->corral_count; i++) {
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int box = c->corral[i] + b->delta[d];
            if (!s->boxes[box] || c->in_corral[box] == stamp) continue;
            if (c->box_count == SOLVER_CORRAL_BOXES) return false;
            c->in_corral[box] = stamp;
            c->box_square[c->box_count++] = box;
            off_goal |= !board_is_goal(b, box);
        }
    }
    /* the boxes were stamped to be taken once; they are no square of the corral */
    for (int i = 0; i < c->box_count; i++) c->in_corral[c->box_square[i]] = stamp - 1;
    c->barrier_count = c->box_count;
    sort_barrier(c);
    return off_goal;
}

/* The same over rows of bits (the search's and the checks' rows both in use): the corral
 * is flooded over the free squares the player cannot reach (corral_free), into
 * corral_rows, and added to the corrals of this check (done); the barrier is the boxes
 * next to it, read off in square order. */
static bool take_corral_rows(solver_corral_deadlocks *c, const solver_search *s, int start)
{
    const board *b = c->board;
    const solver_rows *r = &s->rows;
    solver_rows_corral(r, c->corral_free, start, c->corral_rows, c->barrier_rows, c->done);
    bool off_goal = false;
    c->box_count = 0;
    for (int y = 1; y < r->height - 1; y++) {
        for (uint64_t boxes = c->barrier_rows[y]; boxes != 0; boxes &= boxes - 1) {
            if (c->box_count == SOLVER_CORRAL_BOXES) return false;
            int box = y * r->width + __builtin_ctzll(boxes);
            c->box_square[c->box_count++] = box;
            off_goal |= !board_is_goal(b, box);
        }
    }
    c->barrier_count = c->box_count;
    return off_goal;
}

/* Adds to the barrier the boxes that touch it, and those that touch them, nearest first,
 * as many as fit. Any set of the state's boxes may be searched alone (a solution of the
 * state pushes them onto goals with more in the way), and a box wedged against the
 * barrier is often what freezes a barrier box pushed into the corral: four boxes in a
 * square, three along a wall. False when no box touches the barrier. */
static bool take_neighbours(solver_corral_deadlocks *c, const solver_search *s)
{
    const board *b = c->board;
    for (int i = 0; i < c->box_count; i++) {
        if (i == c->barrier_count) /* the first ring is complete */
            c->touching_count = c->box_count - c->barrier_count;
        for (int d = 0; d < DIRECTION_COUNT && c->box_count < SOLVER_CORRAL_BOXES; d++) {
            int box = c->box_square[i] + b->delta[d];
            if (!s->boxes[box]) continue;
            bool taken = false;
            for (int j = 0; j < c->box_count && !taken; j++) taken = c->box_square[j] == box;
            if (!taken) c->box_square[c->box_count++] = box;
        }
    }
    return c->box_count > c->barrier_count;
}

/* ---- the small search ------------------------------------------------------------------ */

static void place(solver_corral_deadlocks *c, const uint16_t *squares, int on)
{
    for (int i = 0; i < c->box_count; i++)
        if (squares[i] != 0) set_box(c, squares[i], on);
}

/* True when `key` was not met before in this search (and now is). */
static bool first_meeting(solver_corral_deadlocks *c, uint64_t key)
{
    size_t at = (size_t)key & c->seen_mask;
    while (c->seen_generation[at] == c->generation) {
        if (c->seen[at] == key) return false;
        at = (at + 1) & c->seen_mask;
    }
    c->seen_generation[at] = c->generation;
    c->seen[at] = key;
    return true;
}

/* The stuck boxes' search is best-first (Festival's order for it): the states with the
 * fewest boxes left first, then those with the fewest off goals, the newest first among
 * equals; a bucket of states for each (boxes, boxes off goals), linked through `next`. */
static void open_clear(solver_corral_deadlocks *c)
{
    for (int i = 0; i < OPEN_BUCKETS; i++) c->open_top[i] = -1;
    c->open_least = OPEN_BUCKETS;
}

static void open_push(solver_corral_deadlocks *c, int state, int boxes, int off_goals)
{
    int bucket = boxes * (SOLVER_CORRAL_BOXES + 1) + off_goals;
    c->open_next[state] = c->open_top[bucket];
    c->open_top[bucket] = state;
    if (bucket < c->open_least) c->open_least = bucket;
}

/* The best state not expanded, or -1. */
static int open_pop(solver_corral_deadlocks *c)
{
    while (c->open_least < OPEN_BUCKETS && c->open_top[c->open_least] < 0) c->open_least++;
    if (c->open_least == OPEN_BUCKETS) return -1;
    int state = c->open_top[c->open_least];
    c->open_top[c->open_least] = c->open_next[state];
    return state;
}

/* The box of `state` (n squares, 0 where a box was taken away) that the player can push
 * along both axes after the last flood, or -1. */
static int free_box(const solver_corral_deadlocks *c, const uint16_t *state, int n)
{
    const board *b = c->board;
    for (int i = 0; i < n; i++) {
        int square = state[i];
        if (square == 0) continue;
        bool axis[2] = {false, false};
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int to = square + b->delta[d], from = square - b->delta[d];
            if (reached(c, from) && !c->blocked[to] && !solver_square_is_dead(c->distances, to))
                axis[d & 1] = true;
        }
        if (axis[0] && axis[1]) return i;
    }
    return -1;
}

/* Queues the child of `state` (c->box_count squares) with its box `i` on `square` (0: taken
 * away) and the player on `player`, unless its `key` was met before; the stuck boxes'
 * search (`stuck`) files it by its `boxes` and those `off_goals`. The search goes on (1),
 * or has reached its node limit (-1). */
static int add_state(solver_corral_deadlocks *c, int *tail, const uint16_t *state, int i,
                     int square, int player, uint64_t key, bool stuck, int boxes, int off_goals)
{
    if (!first_meeting(c, key)) return 1;
    if (*tail > c->node_limit) return -1;
    uint16_t *next = c->states + (size_t)*tail * SOLVER_CORRAL_BOXES;
    memcpy(next, state, (size_t)c->box_count * sizeof *next);
    next[i] = (uint16_t)square;
    c->player[*tail] = (uint16_t)player;
    if (stuck) open_push(c, *tail, boxes, off_goals);
    ++*tail;
    return 1;
}

/* Breadth-first search over the pushes of the boxes taken alone, from where they stand
 * with the player on `player`. Returns 1 when it runs out of states (the corral is lost),
 * 0 when the corral opens or the boxes reach goals, -1 at the node limit. `key` is the
 * root's key. With `stuck`, there is no corral: a box the player can push along both axes
 * is taken away (the only child of its state), and the search ends unproven when the boxes
 * left all stand on goals. */
static int search(solver_corral_deadlocks *c, int player, uint64_t key, bool stuck)
{
    const board *b = c->board;
    const solver_zobrist *z = &c->zobrist;
    int n = c->box_count;
    assert(n > 0 && n <= SOLVER_CORRAL_BOXES);
    if (++c->generation == 0) {
        memset(c->seen_generation, 0, (c->seen_mask + 1) * sizeof *c->seen_generation);
        c->generation = 1;
    }
    first_meeting(c, key);
    for (int i = 0; i < n; i++) c->states[i] = (uint16_t)c->box_square[i];
    c->player[0] = (uint16_t)player;
    int head = 0, tail = 1, result = 1;
    uint16_t *loaded = NULL;
    int moves[4 * SOLVER_CORRAL_BOXES];
    if (stuck) open_clear(c);
    for (int at = 0; at >= 0 && result == 1; at = stuck ? open_pop(c) : ++head < tail ? head : -1) {
        uint16_t *state = c->states + (size_t)at * SOLVER_CORRAL_BOXES;
        if (loaded) place(c, loaded, 0);
        place(c, state, 1);
        loaded = state;
        int least = flood(c, c->player[at]);
        if (c->use_rows)
            memcpy(c->parent_reach, c->rows.reach, (size_t)c->rows.height * sizeof *c->parent_reach);
        uint64_t box_key = 0;
        int on_goal = 0, live = 0;
        int count = 0;
        int gone = stuck ? free_box(c, state, n) : -1;
        for (int i = 0; i < n; i++) {
            int square = state[i];
            if (square == 0) continue;
            live++;
            box_key ^= z->box[square];
            on_goal += board_is_goal(b, square);
            for (int d = 0; d < DIRECTION_COUNT && gone < 0; d++) {
                int to = square + b->delta[d], from = square - b->delta[d];
                if (!reached(c, from) || c->blocked[to] || solver_square_is_dead(c->distances, to))
                    continue;
                moves[count++] = i * 4 + d;
            }
        }
        if (gone >= 0) {
            /* the free box taken away: the boxes left are lost if this state is */
            int square = state[gone];
            set_box(c, square, false);
            int region = flood(c, c->player[at]);
            set_box(c, square, true);
            uint64_t child =
                STUCK_SALT ^ c->frozen_key ^ box_key ^ z->box[square] ^ z->player[region];
            int goals = on_goal - board_is_goal(b, square);
            result = goals == live - 1 ? 0
                                       : add_state(c, &tail, state, gone, 0, c->player[at], child,
                                                   true, live - 1, live - 1 - goals);
            continue;
        }
        for (int m = 0; m < count && result == 1; m++) {
            int i = moves[m] / 4, d = moves[m] % 4;
            int from = state[i], to = from + b->delta[d];
            set_box(c, from, false);
            set_box(c, to, true);
            c->counters.nodes++;
            c->counters.stuck_nodes += stuck;
            bool frozen = (c->deadlocks && deadlock_check_push(c->deadlocks, b, c->boxes, to)) ||
                          pair_lost(c, state, n, i, to, from);
            if (!frozen) {
                int goals = on_goal + board_is_goal(b, to) - board_is_goal(b, from);
                int region = child_region(c, from, to, least);
                uint64_t child = box_key ^ z->box[from] ^ z->box[to] ^ z->player[region];
                if (stuck) child ^= STUCK_SALT ^ c->frozen_key;
                result = goals == live || (!stuck && corral_open(c))
                             ? 0
                             : add_state(c, &tail, state, i, to, from, child, stuck, live,
                                         live - goals);
            }
            set_box(c, to, false);
            set_box(c, from, true);
        }
    }
    if (loaded) place(c, loaded, 0);
    return result;
}

/* What the table or a small search (`stuck`: the search of stuck boxes) answers for the
 * boxes taken, the player in `region`: ANSWER_LOST (proven), ANSWER_OPEN, or ANSWER_LIMIT
 * (unproven at the node limit); `key` names them. */
static int answer_boxes(solver_corral_deadlocks *c, int region, uint64_t key, bool stuck)
{
    int count;
    int answer = solver_corral_memory_recall(c->memory, key, &count);
    if (answer == ANSWER_LIMIT) {
        if (count < SOLVER_CORRAL_COUNT_MAX) count++;
        bool again = count >= SOLVER_CORRAL_AGAIN_FROM && count <= AGAIN_UP_TO &&
                     (count & (count - 1)) == 0 && (!stuck || count > SOLVER_STUCK_STATES);
        if (!again) {
            /* past the last search again the count tells nothing more: no store needed */
            if (count <= AGAIN_UP_TO)
                solver_corral_memory_learn(c->memory, key, ANSWER_LIMIT, count);
            c->counters.learned++;
            return ANSWER_LIMIT;
        }
    } else if (answer != 0) {
        c->counters.learned++;
        c->counters.deadlocks += answer == ANSWER_LOST;
        return answer;
    }
    c->counters.searched++;
    int base = stuck ? SOLVER_STUCK_STATES : NODE_LIMIT;
    c->node_limit = count > base ? count : base;
    int result = search(c, region, key, stuck);
    c->node_limit = NODE_LIMIT;
    answer = result == 1 ? ANSWER_LOST : result == 0 ? ANSWER_OPEN : ANSWER_LIMIT;
    solver_corral_memory_learn(c->memory, key, answer, count);
    c->counters.deadlocks += answer == ANSWER_LOST;
    return answer;
}

/* What the table or a search answers for the boxes taken (answer_boxes()): ANSWER_LOST
 * when they are proven never to open the corral. */
static int search_boxes(solver_corral_deadlocks *c, const solver_search *s)
{
    /* The key: the boxes taken, and a square of the player's region among them alone. The
     * least square of his region among all the boxes (the search's own) is one, and costs no
     * flood: the same boxes and that square name the same small search. */
    uint64_t key = c->zobrist.player[s->region];
    for (int i = 0; i < c->box_count; i++) key ^= c->zobrist.box[c->box_square[i]];
    return answer_boxes(c, s->region, key, false);
}

/* True when the table of learned answers is there: the one shared, or one of the checks'
 * own, made when first needed. False when out of memory. */
static bool have_memory(solver_corral_deadlocks *c)
{
    if (c->memory) return true;
    if (!solver_corral_memory_init(&c->own, SOLVER_CORRAL_ENTRIES)) return false;
    c->memory = &c->own;
    return true;
}

/* True when the barrier and one of the boxes that touch it are proven lost, for one of
 * them (taken in turn; c->box_count is the barrier's again after). */
static bool one_touching_lost(solver_corral_deadlocks *c, const solver_search *s)
{
    int n = c->barrier_count, count = c->touching_count;
    int touching[SOLVER_CORRAL_BOXES];
    memcpy(touching, c->box_square + n, (size_t)count * sizeof *touching);
    bool lost = false;
    for (int k = 0; k < count && !lost; k++) {
        c->box_square[n] = touching[k];
        c->box_count = n + 1;
        lost = search_boxes(c, s) == ANSWER_LOST;
        c->counters.one_touching_lost += lost;
    }
    c->box_count = n;
    return lost;
}

/* The boxes a check searches with a corral's barrier. */
typedef enum corral_boxes {
    BARRIER,       /* the barrier alone */
    TOUCHING,      /* then, unproven, with the boxes that touch it and those that touch them */
    EACH_TOUCHING, /* then, when that search gives up at its node limit, with each box that
                    * touches the barrier, one at a time */
} corral_boxes;

/* True when the corral holding `start` is proven lost, by the table or by searches of its
 * barrier with the boxes `with` says. A corral is often wedged by a single box that
 * touches the barrier, where the search with all its neighbours gives up (pushes of the
 * boxes further off fill it); the barrier and that box are a search of a few states. (A
 * set that opens the corral opens it with fewer boxes too, so the one-box searches are
 * asked only at the limit.) */
static bool corral_lost(solver_corral_deadlocks *c, const solver_search *s, int start,
                        corral_boxes with)
{
    if (!(c->corral_by_rows ? take_corral_rows(c, s, start) : take_corral(c, s, start)))
        return false;
    if (!have_memory(c)) return false; /* the corral stays unproven, as one too big */
    c->counters.checks++;
    if (search_boxes(c, s) == ANSWER_LOST) return true;
    if (with == BARRIER || !take_neighbours(c, s)) return false;
    int answer = search_boxes(c, s);
    if (answer != ANSWER_LIMIT || with != EACH_TOUCHING) return answer == ANSWER_LOST;
    return one_touching_lost(c, s);
}

/* Begins a check of the search's state: no corral labelled yet. Returns the stamp from
 * which corrals are this check's (the squares' labels, when not by rows). */
static uint32_t begin_check(solver_corral_deadlocks *c, const solver_search *s)
{
    c->corral_by_rows = c->use_rows && s->use_rows;
    if (c->corral_by_rows) solver_rows_corrals(&s->rows, c->corral_free, c->done);
    return c->corral_stamp + 1;
}

/* True when the corral holding the free square `start` is proven lost. Corrals labelled
 * since the stamp `first` (in this check) are not looked at again: a box's starts often lie
 * in a corral another box's start labelled. */
static bool start_lost(solver_corral_deadlocks *c, const solver_search *s, int start,
                       uint32_t first, corral_boxes with)
{
    if (c->corral_by_rows) {
        if (solver_rows_has(&s->rows, c->done, start)) return false;
    } else {
        uint32_t label = c->in_corral[start];
        if (label != 0 && label >= first && label <= c->corral_stamp) return false; /* 0: cleared */
    }
    return corral_lost(c, s, start, with);
}

/* True when a corral next to the box on `square` (holding a free square beside it that the
 * player cannot reach) is proven lost. */
static bool box_corral_lost(solver_corral_deadlocks *c, const solver_search *s, int square,
                            uint32_t first, corral_boxes with)
{
    const board *b = s->board;
    for (int d = 0; d < DIRECTION_COUNT; d++) {
        int next = square + b->delta[d];
        if (!s->blocked[next] && !solver_search_reaches(s, next) &&
            start_lost(c, s, next, first, with))
            return true;
    }
    return false;
}

bool solver_corral_deadlock(solver_corral_deadlocks *c, const solver_search *s, int square)
{
    assert(s->reach_valid && s->boxes[square]);
    return box_corral_lost(c, s, square, begin_check(c, s), BARRIER);
}

/* True when any corral of the search's state is proven lost, its barrier searched with the
 * boxes `with` says (false once told to stop: the corrals left are not looked at). */
static bool any_corral_lost(solver_corral_deadlocks *c, const solver_search *s, corral_boxes with)
{
    assert(s->reach_valid);
    uint32_t first = begin_check(c, s); /* each corral is labelled once for all the boxes */
    for (int i = 0; i < s->box_count; i++) {
        if (solver_stop_after_work(c->stop, c->counters.checks + c->counters.nodes,
                                   SOLVER_CORRAL_STOP_WORK, &c->stop_read_at, &c->stopped))
            return false;
        if (box_corral_lost(c, s, s->box_square[i], first, with)) return true;
    }
    return false;
}

bool solver_corral_deadlock_anywhere(solver_corral_deadlocks *c, const solver_search *s)
{
    return any_corral_lost(c, s, TOUCHING);
}

bool solver_corral_deadlock_each_touching(solver_corral_deadlocks *c, const solver_search *s)
{
    return any_corral_lost(c, s, EACH_TOUCHING);
}

/* ---- stuck boxes ----------------------------------------------------------------------- */

/* The key of the boxes taken (c->box_square), the frozen boxes standing as walls, and the
 * player's region among them from `player` (returned in `region`). */
static uint64_t stuck_key(solver_corral_deadlocks *c, int player, int *region)
{
    const solver_zobrist *z = &c->zobrist;
    for (int i = 0; i < c->box_count; i++) set_box(c, c->box_square[i], true);
    *region = flood(c, player);
    uint64_t key = STUCK_SALT ^ c->frozen_key ^ z->player[*region];
    for (int i = 0; i < c->box_count; i++) {
        key ^= z->box[c->box_square[i]];
        set_box(c, c->box_square[i], false);
    }
    return key;
}

/* True when the boxes taken are proven lost with the player on `player`. */
static bool stuck_lost(solver_corral_deadlocks *c, int player)
{
    int region;
    uint64_t key = stuck_key(c, player, &region);
    c->counters.stuck_searched++;
    return answer_boxes(c, region, key, true) == ANSWER_LOST;
}

int solver_stuck_deadlock(solver_corral_deadlocks *c, const uint16_t *squares, int box_count,
                          int player, int *pattern, uint64_t *region)
{
    const board *b = c->board;
    const solver_zobrist *z = &c->zobrist;
    if (!c->frozen_marks) {
        c->frozen_marks = calloc((size_t)b->size, 1);
        c->all_boxes = malloc((size_t)box_count * sizeof *c->all_boxes);
    }
    if (!c->frozen_marks || !c->all_boxes || !have_memory(c)) return 0; /* out of memory */
    c->counters.stuck_checks++;
    int frozen_count = 0;
    for (int i = 0; i < box_count; i++) c->all_boxes[i] = squares[i];
    solver_frozen_mark(b, c->distances, c->all_boxes, box_count, c->frozen_marks);
    c->frozen_key = 0;
    int count = 0;
    for (int i = 0; i < box_count; i++) {
        int square = squares[i];
        set_box(c, square, true);
        if (c->frozen_marks[square]) {
            c->frozen_key ^= z->box[square];
            if (pattern) pattern[frozen_count] = square;
            frozen_count++;
        } else {
            c->all_boxes[count++] = square;
        }
    }
    int all = count;
    /* take away every box the player can push along both axes, until none is left */
    for (bool changed = true; changed && count > 0;) {
        changed = false;
        flood(c, player);
        for (int i = 0; i < count; i++) {
            uint16_t one = (uint16_t)c->all_boxes[i];
            if (free_box(c, &one, 1) != 0) continue;
            set_box(c, c->all_boxes[i], false);
            c->all_boxes[i--] = c->all_boxes[--count];
            changed = true;
        }
    }
    int on_goal = 0;
    for (int i = 0; i < count; i++) {
        on_goal += board_is_goal(b, c->all_boxes[i]);
        set_box(c, c->all_boxes[i], false);
    }
    int found = 0;
    if (count > 0 && count <= SOLVER_STUCK_BOXES && count < all && on_goal < count) {
        c->box_count = count;
        for (int i = 0; i < count; i++) c->box_square[i] = c->all_boxes[i];
        if (stuck_lost(c, player)) {
            found = frozen_count + count;
            c->counters.stuck_lost++;
        }
        if (found && pattern) {
            /* cut the set down: a box whose removal leaves the rest lost is left out */
            for (int i = 0; i < c->box_count && c->box_count > 1;) {
                int square = c->box_square[i];
                c->box_square[i] = c->box_square[c->box_count - 1];
                c->box_count--;
                int goals = 0;
                for (int j = 0; j < c->box_count; j++) goals += board_is_goal(b, c->box_square[j]);
                if (goals < c->box_count && stuck_lost(c, player)) continue;
                c->box_square[c->box_count++] = c->box_square[i];
                c->box_square[i++] = square;
            }
            for (int i = 0; i < c->box_count; i++) {
                pattern[frozen_count + i] = c->box_square[i];
                set_box(c, c->box_square[i], true);
            }
            found = frozen_count + c->box_count;
            flood(c, player);
            size_t words = ((size_t)b->size + 63) / 64;
            memset(region, 0, words * sizeof *region);
            for (int q = 0; q < b->size; q++)
                if (reached(c, q)) region[q / 64] |= (uint64_t)1 << (q % 64);
            for (int i = 0; i < c->box_count; i++) set_box(c, c->box_square[i], false);
        }
    }
    /* the frozen boxes off the board and unmarked: solver_frozen_mark() reads only the
     * squares it is given, and a mark left over would close an axis next to it */
    for (int i = 0; i < box_count; i++) {
        if (c->frozen_marks[squares[i]]) set_box(c, squares[i], false);
        c->frozen_marks[squares[i]] = 0;
    }
    return found;
}
