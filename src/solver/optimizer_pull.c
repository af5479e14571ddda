/* optimizer_pull.c - a base solution by another route (optimizer_pull.h): a weighted A* by
 * pulls from the boxes on the goals towards the start's boxes, met at a few of its states by
 * the fast mode from the start (solver.h) on the board whose goals are that state's boxes.
 *
 * The backward search's positions are the box configuration and the player's region (named
 * by its least square); its bound is the matching of the boxes to the start's box squares
 * over the pulls a lone box needs (the pushes from the start square to it), and the open
 * list orders by pulls + WEIGHT x bound. */
#include "optimizer_pull.h"

#include <stdlib.h>
#include <string.h>

#include "ida.h"
#include "solver.h"
#include "solver_bound.h"
#include "solver_open.h"

enum {
    NONE = -1,
    WEIGHT = 3, /* the open list by pulls + WEIGHT x bound */
    /* The fast mode's runs, at most: the first once a tenth of the start's bound is behind
     * the pulls, each next one at a bound MEET_STEP lower than the last one's at least. The
     * pulls mostly go down a chain, the bound one lower a pull, so meetings at each lower
     * bound (8 from a fifth of the way, as before) were consecutive states of it, whose fast
     * routes differ by a few pushes; spread out, they meet other states (docs/SOLVER.md
     * section 32). */
    MEET_TRIES = 14,
    MEET_FIRST = 10, /* the first meeting once bound / MEET_FIRST is behind */
    MEET_STEP = 10,
    /* A meeting whose player ends in another region than the pulls' state's is joined to the
     * pulls' store by a breadth-first search by pushes of a BRIDGE_SHARE-th of a meeting's
     * nodes, BRIDGE_FEWEST to BRIDGE_MOST states (BRIDGE_MOST with no node limit) */
    BRIDGE_SHARE = 16,
    BRIDGE_FEWEST = 64,
    BRIDGE_MOST = 4096,
};

typedef struct pull_state {
    int32_t parent;
    int32_t player; /* the least square of the player's region */
    int32_t from;   /* the pull that led here: the box's square before it */
    uint8_t direction;
    uint8_t closed;
    int32_t g, h;
} pull_state;

typedef struct pull_search {
    const optimizer_pull_request *request;
    const board *b;
    int n, words, cells;
    int *cell_of, *square_of;
    uint16_t *rows; /* per square, n entries: pulls to each start square */
    pull_state *states;
    uint64_t *bits, *keys;
    size_t count, capacity;
    uint32_t *slots;
    size_t mask;
    solver_heap open; /* f << 32 | state */
    uint8_t *box_at;
    int *box_list, *queue;
    uint32_t *stamp;
    uint32_t generation;
    solver_matching matching;
    bool matching_made;
    const uint16_t **row_of;
    int *saved;
    int *targets;   /* the start's box squares */
    uint64_t *wbuf; /* three configurations of scratch */
    size_t max_states;
    int start_region; /* the least square of the player's region at the start */
    uint64_t start_key;
    /* the meeting */
    int meet_h, tried_h, tries;
    uint64_t nodes; /* both searches' */
    int limit;      /* pushes after the prefix: only a solution of fewer is offered */
    solver_stop stop;
    position from; /* the start after the request's prefix: where the pulls go back to */
    bool from_made;
} pull_search;

static uint64_t zkey(int square)
{
    uint64_t z = (uint64_t)(square + 1) * 0x9E3779B97F4A7C15u;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* Pulls a lone box needs from every square to start square `s`: the pushes from s. */
static void pull_rows(pull_search *p, const int *targets)
{
    const board *b = p->b;
    for (size_t i = 0; i < (size_t)b->size * (size_t)p->n; i++) p->rows[i] = SOLVER_NO_PATH;
    for (int k = 0; k < p->n; k++) {
        int head = 0, tail = 0;
        p->rows[(size_t)targets[k] * (size_t)p->n + (size_t)k] = 0;
        p->queue[tail++] = targets[k];
        while (head < tail) {
            int x = p->queue[head++];
            uint16_t dx = p->rows[(size_t)x * (size_t)p->n + (size_t)k];
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int to = x + b->delta[d], stand = x - b->delta[d];
                if (p->cell_of[to] == NONE || p->cell_of[stand] == NONE) continue;
                uint16_t *t = &p->rows[(size_t)to * (size_t)p->n + (size_t)k];
                if (*t != SOLVER_NO_PATH) continue;
                *t = (uint16_t)(dx + 1);
                p->queue[tail++] = to;
            }
        }
    }
}

/* The boxes of `bits` into box_at and box_list. */
static void load_bits(pull_search *p, const uint64_t *bits)
{
    for (int i = 0; i < p->n; i++) p->box_at[p->box_list[i]] = 0;
    int count = 0;
    for (int w = 0; w < p->words; w++)
        for (uint64_t word = bits[w]; word; word &= word - 1)
            p->box_list[count++] = p->square_of[w * 64 + __builtin_ctzll(word)];
    for (int i = 0; i < count; i++) p->box_at[p->box_list[i]] = 1;
}

static void load(pull_search *p, size_t state)
{
    load_bits(p, p->bits + state * (size_t)p->words);
}

/* Floods from `from` over the loaded boxes; returns the least square reached. */
static int flood(pull_search *p, int from)
{
    const board *b = p->b;
    p->generation++;
    int head = 0, tail = 0, least = from;
    p->stamp[from] = p->generation;
    p->queue[tail++] = from;
    while (head < tail) {
        int q = p->queue[head++];
        if (q < least) least = q;
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = q + b->delta[d];
            if (p->cell_of[next] == NONE || p->box_at[next] || p->stamp[next] == p->generation)
                continue;
            p->stamp[next] = p->generation;
            p->queue[tail++] = next;
        }
    }
    return least;
}

static uint64_t state_hash(uint64_t key, int player)
{
    uint64_t h = key ^ ((uint64_t)(player + 1) * 0xD6E8FEB86659FD93u);
    return h ^ (h >> 29);
}

/* The state (bits, player) in the store: its index, or -1 with *slot (when not NULL) the
 * free slot where it would go. */
static int64_t find(const pull_search *p, const uint64_t *bits, uint64_t key, int player,
                    size_t *slot)
{
    size_t i = (size_t)state_hash(key, player) & p->mask;
    for (; p->slots[i]; i = (i + 1) & p->mask) {
        size_t s = p->slots[i] - 1;
        if (p->keys[s] == key && p->states[s].player == player &&
            memcmp(p->bits + s * (size_t)p->words, bits, (size_t)p->words * 8) == 0)
            return (int64_t)s;
    }
    if (slot) *slot = i;
    return -1;
}

/* The state (bits, player) added when new; its index, or -1 when out of room; *added. */
static int64_t find_or_add(pull_search *p, const uint64_t *bits, uint64_t key, int player,
                           bool *added)
{
    *added = false;
    size_t i;
    int64_t found = find(p, bits, key, player, &i);
    if (found >= 0) return found;
    if (p->count >= p->max_states) return -1;
    if (p->count == p->capacity) {
        size_t grown = p->capacity ? 2 * p->capacity : 4096;
        pull_state *st = realloc(p->states, grown * sizeof *st);
        if (st) p->states = st;
        uint64_t *ks = st ? realloc(p->keys, grown * sizeof *ks) : NULL;
        if (ks) p->keys = ks;
        uint64_t *bs = ks ? realloc(p->bits, grown * (size_t)p->words * 8) : NULL;
        if (!bs) return -1;
        p->bits = bs;
        p->capacity = grown;
    }
    size_t s = p->count++;
    memcpy(p->bits + s * (size_t)p->words, bits, (size_t)p->words * 8);
    p->keys[s] = key;
    p->states[s] = (pull_state){.parent = NONE, .player = player};
    if (2 * p->count > p->mask + 1) {
        size_t size = 2 * (p->mask + 1);
        uint32_t *grown = calloc(size, sizeof *grown);
        if (!grown) return -1;
        for (size_t k = 0; k < p->count; k++) {
            size_t j = (size_t)state_hash(p->keys[k], p->states[k].player) & (size - 1);
            while (grown[j]) j = (j + 1) & (size - 1);
            grown[j] = (uint32_t)k + 1;
        }
        free(p->slots);
        p->slots = grown;
        p->mask = size - 1;
    } else {
        p->slots[i] = (uint32_t)s + 1;
    }
    *added = true;
    return (int64_t)s;
}

/* ---- the set-up ------------------------------------------------------------------------- */

static bool pull_init(pull_search *p, const optimizer_pull_request *r)
{
    const board *b = r->board;
    size_t size = (size_t)b->size;
    *p = (pull_search){.request = r, .b = b, .n = r->start->box_count, .mask = 4095};
    p->cell_of = malloc(size * sizeof *p->cell_of);
    p->square_of = malloc(size * sizeof *p->square_of);
    p->rows = malloc(size * (size_t)p->n * sizeof *p->rows);
    p->box_at = calloc(size, 1);
    p->box_list = calloc(size, sizeof *p->box_list);
    p->queue = malloc(size * sizeof *p->queue);
    p->stamp = calloc(size, sizeof *p->stamp);
    p->row_of = calloc((size_t)p->n, sizeof *p->row_of);
    p->slots = calloc(p->mask + 1, sizeof *p->slots);
    p->targets = malloc((size_t)p->n * sizeof *p->targets);
    p->wbuf = calloc(3 * ((size + 63) / 64), 8);
    if (!p->cell_of || !p->square_of || !p->rows || !p->box_at || !p->box_list || !p->queue ||
        !p->stamp || !p->row_of || !p->slots || !p->targets || !p->wbuf)
        return false;
    if (!solver_matching_init(&p->matching, p->n, (const uint16_t *const *)p->row_of)) return false;
    p->matching_made = true;
    p->stop = (solver_stop){.deadline = r->deadline, .cancel = r->cancel};
    p->matching.stop = &p->stop;
    p->saved = malloc((size_t)solver_matching_state_size(&p->matching) * sizeof *p->saved);
    if (!p->saved) return false;
    for (int q = 0; q < b->size; q++) {
        bool floor = board_is_inside(b, q) && !board_is_wall(b, q);
        p->cell_of[q] = floor ? p->cells : NONE;
        if (floor) p->square_of[p->cells++] = q;
    }
    p->words = (p->cells + 63) / 64;
    /* a state: its own bytes, its bits, its key and two slots, its heap entries */
    size_t state_bytes = sizeof(pull_state) + (size_t)p->words * 8 + 8 + 8 + 16;
    p->max_states = r->max_bytes / state_bytes;
    if (p->max_states > UINT32_MAX / 2) p->max_states = UINT32_MAX / 2;
    return true;
}

static void pull_free(pull_search *p)
{
    free(p->cell_of);
    free(p->square_of);
    free(p->rows);
    free(p->box_at);
    free(p->box_list);
    free(p->queue);
    free(p->stamp);
    free(p->row_of);
    free(p->slots);
    free(p->targets);
    free(p->wbuf);
    free(p->states);
    free(p->bits);
    free(p->keys);
    free(p->open.items);
    free(p->saved);
    if (p->matching_made) solver_matching_free(&p->matching);
    if (p->from_made) position_free(&p->from);
}

/* The matching of the boxes loaded (load()), from scratch. */
static int loaded_bound(pull_search *p)
{
    for (int i = 0; i < p->n; i++) p->row_of[i] = p->rows + (size_t)p->box_list[i] * (size_t)p->n;
    return solver_matching_solve(&p->matching);
}

/* The start's squares and region, the pull distances, and the goal configuration with the
 * player in each of its regions on the open list; false when out of memory. */
static bool add_roots(pull_search *p)
{
    const board *b = p->b;
    const position *start = &p->from;
    uint64_t *start_bits = p->wbuf, *bits = p->wbuf + p->words;
    int k = 0;
    for (int q = 0; q < b->size; q++)
        if (start->boxes[q]) {
            p->targets[k] = q;
            p->box_list[k++] = q;
            p->box_at[q] = 1;
            p->start_key ^= zkey(q);
            start_bits[p->cell_of[q] / 64] |= 1ull << (p->cell_of[q] % 64);
        }
    pull_rows(p, p->targets);
    p->start_region = flood(p, start->player);
    for (int q = 0; q < b->size; q++) p->box_at[q] = 0;
    uint64_t goal_key = 0;
    for (int g = 0; g < p->n; g++) {
        int q = b->goals[g];
        p->box_list[g] = q;
        p->box_at[q] = 1;
        goal_key ^= zkey(q);
        bits[p->cell_of[q] / 64] |= 1ull << (p->cell_of[q] % 64);
    }
    int h = loaded_bound(p);
    if (h >= IDA_INFINITY) return true; /* no box can be pulled back to the start */
    /* meet from a tenth of the way on */
    p->meet_h = h - h / MEET_FIRST;
    p->tried_h = p->meet_h + 1;
    uint32_t seen = p->generation;
    for (int q = 0; q < b->size; q++) {
        if (p->cell_of[q] == NONE || p->box_at[q] || (p->stamp[q] > seen)) continue;
        bool added;
        int64_t s = find_or_add(p, bits, goal_key, flood(p, q), &added);
        if (s < 0) return false;
        p->states[s].h = h;
        if (added &&
            !solver_heap_push(&p->open, (uint64_t)WEIGHT * (uint64_t)h << 32 | (uint64_t)s))
            return false;
    }
    return true;
}

/* ---- the meeting ------------------------------------------------------------------------ */

/* The pushes from the state `at` to the goals (its pulls read backwards) after the `first`
 * pushes of `list`, which has room for them; returns the count. */
static int pushes_back(const pull_search *p, size_t at, optimizer_push *list, int first)
{
    int i = first;
    for (int32_t s = (int32_t)at; p->states[s].parent != NONE; s = p->states[s].parent) {
        int d = p->states[s].direction;
        list[i++] =
            (optimizer_push){p->states[s].from + p->b->delta[d], direction_opposite((direction)d)};
    }
    return i;
}

/* Offers the request's prefix and then `list` as a whole solution to the caller; the limit
 * comes down to `count` when it is kept. */
static void offer(pull_search *p, const optimizer_push *list, int count)
{
    const optimizer_pull_request *r = p->request;
    if (count >= p->limit) return;
    optimizer_push *whole = malloc((size_t)(r->prefix_count + count + 1) * sizeof *whole);
    if (!whole) return;
    if (r->prefix_count > 0) memcpy(whole, r->prefix, (size_t)r->prefix_count * sizeof *whole);
    memcpy(whole + r->prefix_count, list, (size_t)count * sizeof *whole);
    if (r->offer(r->offer_argument, whole, r->prefix_count + count)) p->limit = count;
    free(whole);
}

/* The position after the request's prefix, played on a copy of the start (its pushes are
 * legal: the player stands where each box stood); false when out of memory. */
static bool from_init(pull_search *p)
{
    const optimizer_pull_request *r = p->request;
    if (!position_copy(&p->from, r->start, p->b)) return false;
    p->from_made = true;
    for (int i = 0; i < r->prefix_count; i++) {
        int box = r->prefix[i].box;
        p->from.boxes[box] = 0;
        p->from.boxes[box + p->b->delta[r->prefix[i].direction]] = 1;
        p->from.player = box;
    }
    return true;
}

/* Adds the hash `h` (not 0) to the open-addressed set `seen` of mask + 1 entries: false when
 * it was there. */
static bool seen_add(uint64_t *seen, size_t mask, uint64_t h)
{
    size_t k = (size_t)h & mask;
    while (seen[k] && seen[k] != h) k = (k + 1) & mask;
    if (seen[k]) return false;
    seen[k] = h;
    return true;
}

typedef struct bridge_node {
    int32_t parent;
    int32_t box; /* the push that led here: the box's square before it */
    int32_t player;
    int32_t depth;
    uint8_t direction;
    uint64_t key;
} bridge_node;

/* The fast mode's `n` pushes in `list` end on the boxes of the state `at` (loaded) with the
 * player on `player`, in another region than the state's, where the pulls' pushes cannot
 * follow. A breadth-first search by pushes from there, a few thousand states at most, for a
 * state of the store (the same boxes and the player's region): the fast mode's pushes, the
 * search's and the pulls from that state read backwards are offered as a solution. */
static void bridge(pull_search *p, size_t at, int player, const optimizer_push *list, int n)
{
    const board *b = p->b;
    uint64_t share = p->request->meet_nodes / BRIDGE_SHARE;
    int most = BRIDGE_MOST;
    if (p->request->meet_nodes > 0 && share < BRIDGE_MOST)
        most = share > BRIDGE_FEWEST ? (int)share : BRIDGE_FEWEST;
    size_t words = (size_t)p->words, mask = 4 * BRIDGE_MOST - 1;
    bridge_node *nodes = malloc((size_t)most * sizeof *nodes);
    uint64_t *bits = malloc((size_t)most * words * 8);
    uint64_t *seen = calloc(mask + 1, sizeof *seen);
    int best = p->limit, best_node = NONE;
    int64_t best_state = NONE;
    int count = 0;
    if (nodes && bits && seen) {
        nodes[0] = (bridge_node){.parent = NONE, .player = player, .key = p->keys[at]};
        memcpy(bits, p->bits + at * words, words * 8);
        count = 1;
        int region = flood(p, player);
        seen_add(seen, mask, state_hash(nodes[0].key, region) | 1);
        int64_t root = find(p, bits, nodes[0].key, region, NULL);
        if (root >= 0 && n + p->states[root].g < best) {
            best = n + p->states[root].g;
            best_node = 0;
            best_state = root;
        }
        for (int head = 0; head < count && count < most; head++) {
            bridge_node here = nodes[head];
            if (n + here.depth + 1 >= best) break; /* no child can be shorter */
            load_bits(p, bits + (size_t)head * words);
            flood(p, here.player);
            uint32_t reach = p->generation;
            for (int i = 0; i < p->n && count < most; i++) {
                int box = p->box_list[i];
                for (int d = 0; d < DIRECTION_COUNT && count < most; d++) {
                    int to = box + b->delta[d];
                    if (p->cell_of[to] == NONE || p->box_at[to] ||
                        p->stamp[box - b->delta[d]] != reach)
                        continue;
                    uint64_t *child = bits + (size_t)count * words;
                    memcpy(child, bits + (size_t)head * words, words * 8);
                    int from = p->cell_of[box], onto = p->cell_of[to];
                    child[from / 64] &= ~(1ull << (from % 64));
                    child[onto / 64] |= 1ull << (onto % 64);
                    uint64_t key = here.key ^ zkey(box) ^ zkey(to);
                    p->box_at[box] = 0;
                    p->box_at[to] = 1;
                    int region = flood(p, box);
                    int64_t s = find(p, child, key, region, NULL);
                    p->box_at[to] = 0;
                    p->box_at[box] = 1;
                    flood(p, here.player); /* the reach of `here` again */
                    reach = p->generation;
                    if (!seen_add(seen, mask, state_hash(key, region) | 1)) continue;
                    nodes[count] = (bridge_node){.parent = head,
                                                 .box = box,
                                                 .player = box,
                                                 .depth = here.depth + 1,
                                                 .direction = (uint8_t)d,
                                                 .key = key};
                    if (s >= 0 && n + here.depth + 1 + p->states[s].g < best) {
                        best = n + here.depth + 1 + p->states[s].g;
                        best_node = count;
                        best_state = s;
                    }
                    count++;
                }
            }
        }
    }
    p->nodes += (uint64_t)count;
    optimizer_push *whole = best_node != NONE ? malloc((size_t)best * sizeof *whole) : NULL;
    if (whole) {
        memcpy(whole, list, (size_t)n * sizeof *whole);
        int depth = nodes[best_node].depth;
        for (int32_t k = best_node; nodes[k].parent != NONE; k = nodes[k].parent)
            whole[n + --depth] = (optimizer_push){nodes[k].box, (direction)nodes[k].direction};
        offer(p, whole, pushes_back(p, (size_t)best_state, whole, n + nodes[best_node].depth));
    }
    free(whole);
    free(nodes);
    free(bits);
    free(seen);
}

/* Offers the first `k` pushes of `list` followed by the pulls from the state `s` read
 * backwards. */
static void offer_joined(pull_search *p, const optimizer_push *list, int k, size_t s)
{
    optimizer_push *whole = malloc((size_t)(k + p->states[s].g + 1) * sizeof *whole);
    if (!whole) return;
    memcpy(whole, list, (size_t)k * sizeof *whole);
    offer(p, whole, pushes_back(p, s, whole, k));
    free(whole);
}

/* The fast mode's route from the start to the boxes of the state `at` (loaded), `moves`
 * steps and `pushes` pushes, joined to the pulls: at each of its positions (the start, after
 * each push) that the store holds (its boxes and the player's region), its pushes up to
 * there followed by that state's pulls read backwards make a solution, and the shortest is
 * offered; where it ends with the player in another region than the state's, a bridge of
 * pushes from its end too (bridge()). */
static void join(pull_search *p, size_t at, const game_step *steps, int moves, int pushes)
{
    const board *b = p->b;
    size_t words = (size_t)p->words;
    optimizer_push *list = malloc((size_t)(pushes > 0 ? pushes : 1) * sizeof *list);
    uint64_t *bits = malloc(words * 8);
    position q;
    if (!list || !bits || !position_copy(&q, &p->from, b)) {
        free(list);
        free(bits);
        return;
    }
    memcpy(bits, p->wbuf, words * 8); /* the start's boxes (add_roots()) */
    uint64_t key = p->start_key;
    uint8_t *loaded = p->box_at;
    int n = 0, best = p->limit, best_k = NONE;
    int64_t best_s = NONE;
    for (int i = 0; i <= moves; i++) {
        if (i > 0) { /* step i - 1; a walk leaves the boxes as they were */
            int box = q.player + b->delta[steps[i - 1].direction];
            if (board_step(b, &q, steps[i - 1].direction) != STEP_PUSHED || n == pushes) continue;
            int to = box + b->delta[steps[i - 1].direction];
            list[n++] = (optimizer_push){box, steps[i - 1].direction};
            int from = p->cell_of[box], onto = p->cell_of[to];
            bits[from / 64] &= ~(1ull << (from % 64));
            bits[onto / 64] |= 1ull << (onto % 64);
            key ^= zkey(box) ^ zkey(to);
        }
        /* the position in the store? the player's region over the route's boxes */
        p->box_at = q.boxes;
        int64_t s = find(p, bits, key, flood(p, q.player), NULL);
        p->box_at = loaded;
        if (s >= 0 && n + p->states[s].g < best) {
            best = n + p->states[s].g;
            best_k = n;
            best_s = s;
        }
    }
    int player = q.player;
    position_free(&q);
    if (best_k != NONE) offer_joined(p, list, best_k, (size_t)best_s);
    if (flood(p, player) != p->states[at].player) bridge(p, at, player, list, n);
    free(list);
    free(bits);
}

/* The fast mode from the start to the boxes loaded (the board's goals moved onto them), its
 * route joined to the pulls (join()). */
static void meet(pull_search *p, size_t at)
{
    const optimizer_pull_request *r = p->request;
    const board *b = p->b;
    board t = *b;
    t.flags = malloc((size_t)b->size);
    t.goals = malloc((size_t)p->n * sizeof *t.goals);
    p->tries++;
    if (t.flags && t.goals) {
        int k = 0;
        for (int q = 0; q < b->size; q++) {
            t.flags[q] = (uint8_t)(b->flags[q] & ~BOARD_GOAL);
            if (p->box_at[q]) {
                t.flags[q] |= BOARD_GOAL;
                t.goals[k++] = q;
            }
        }
        /* its share of the nodes (of those left, one at least) and of the time */
        uint64_t nodes = r->meet_nodes;
        if (r->max_nodes) {
            uint64_t left = r->max_nodes - (p->nodes < r->max_nodes ? p->nodes : r->max_nodes);
            if (!nodes || nodes > left) nodes = left > 0 ? left : 1;
        }
        double deadline = r->deadline;
        if (r->meet_seconds > 0 && (deadline <= 0 || ida_clock() + r->meet_seconds < deadline))
            deadline = ida_clock() + r->meet_seconds;
        solver_options options = {.mode = SOLVER_FAST,
                                  .deadline = deadline,
                                  .max_nodes = nodes,
                                  .memory_bytes = r->max_bytes,
                                  .cancel = r->cancel,
                                  .threads = 1};
        solver_result found;
        solver_solve(&t, &p->from, &options, &found);
        p->nodes += found.nodes;
        if (found.status == SOLVER_SOLVED && found.steps)
            join(p, at, found.steps, found.moves, found.pushes);
        solver_result_free(&found);
    }
    free(t.flags);
    free(t.goals);
}

/* ---- the search ------------------------------------------------------------------------- */

/* Every pull from the state `at` (loaded): false when out of room. */
static bool expand(pull_search *p, size_t at)
{
    const board *b = p->b;
    pull_state here = p->states[at];
    uint64_t *child = p->wbuf + 2 * p->words;
    size_t row_bytes = (size_t)p->words * 8;
    flood(p, here.player);
    uint32_t reach = p->generation;
    if (loaded_bound(p) >= IDA_INFINITY) return true;
    solver_matching_save(&p->matching, p->saved);
    for (int i = 0; i < p->n; i++) {
        int box = p->box_list[i];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int stand = box + b->delta[d], behind = stand + b->delta[d];
            if (p->stamp[stand] != reach || p->cell_of[behind] == NONE || p->box_at[behind])
                continue;
            /* the player on `stand` pulls the box there, stepping back to `behind` */
            const uint16_t *row = p->row_of[i];
            p->row_of[i] = p->rows + (size_t)stand * (size_t)p->n;
            int h = solver_matching_update(&p->matching, &i, 1);
            solver_matching_restore(&p->matching, p->saved);
            p->row_of[i] = row;
            if (h >= IDA_INFINITY || here.g + 1 + h >= p->limit) continue;
            memcpy(child, p->bits + at * (size_t)p->words, row_bytes);
            int from = p->cell_of[box], to = p->cell_of[stand];
            child[from / 64] &= ~(1ull << (from % 64));
            child[to / 64] |= 1ull << (to % 64);
            p->box_at[box] = 0;
            p->box_at[stand] = 1;
            int region = flood(p, behind);
            p->box_at[stand] = 0;
            p->box_at[box] = 1;
            flood(p, here.player); /* the parent's reach again */
            reach = p->generation;
            bool added;
            int64_t c =
                find_or_add(p, child, p->keys[at] ^ zkey(box) ^ zkey(stand), region, &added);
            if (c < 0) return false;
            pull_state *cs = &p->states[c];
            if (!added && cs->g <= here.g + 1) continue;
            *cs = (pull_state){.parent = (int32_t)at,
                               .player = region,
                               .from = box,
                               .direction = (uint8_t)d,
                               .g = here.g + 1,
                               .h = h};
            uint64_t f = (uint64_t)cs->g + (uint64_t)WEIGHT * (uint64_t)h;
            if (!solver_heap_push(&p->open, f << 32 | (uint64_t)c)) return false;
        }
    }
    return true;
}

static bool stopped(const pull_search *p)
{
    const optimizer_pull_request *r = p->request;
    return (r->cancel && atomic_load(r->cancel)) ||
           (r->deadline > 0 && ida_clock() >= r->deadline) ||
           (r->max_nodes && p->nodes >= r->max_nodes) || p->matching.stopped;
}

/* True when the state `at` (loaded) is the start's boxes and the player's region. */
static bool at_start(const pull_search *p, size_t at)
{
    return p->keys[at] == p->start_key && p->states[at].player == p->start_region &&
           memcmp(p->bits + at * (size_t)p->words, p->wbuf, (size_t)p->words * 8) == 0;
}

optimizer_pull_status optimizer_pull_base(const optimizer_pull_request *r, uint64_t *nodes)
{
    *nodes = 0;
    if (r->start->box_count != r->board->goal_count || r->start->box_count == 0)
        return OPTIMIZER_PULL_NONE;
    pull_search p;
    bool ok = pull_init(&p, r) && from_init(&p) && add_roots(&p);
    p.limit = r->limit_pushes - r->prefix_count;
    optimizer_pull_status status = ok ? OPTIMIZER_PULL_NONE : OPTIMIZER_PULL_ERROR;
    while (ok && p.open.count > 0 && p.tries < MEET_TRIES) {
        if (stopped(&p)) {
            status = OPTIMIZER_PULL_LIMIT;
            break;
        }
        size_t at = (size_t)(solver_heap_pop(&p.open) & 0xFFFFFFFFu);
        pull_state here = p.states[at];
        if (here.closed) continue;
        p.states[at].closed = 1;
        if (here.g + here.h >= p.limit) continue; /* the limit has come down since */
        p.nodes++;
        if (at_start(&p, at)) {
            optimizer_push *list = malloc((size_t)(here.g > 0 ? here.g : 1) * sizeof *list);
            if (list) offer(&p, list, pushes_back(&p, at, list, 0));
            free(list);
            continue;
        }
        load(&p, at);
        if (here.h <= p.meet_h && here.h < p.tried_h) {
            p.tried_h = here.h - MEET_STEP + 1;
            meet(&p, at);
            load(&p, at);
        }
        if (!expand(&p, at)) {
            status = OPTIMIZER_PULL_LIMIT;
            break;
        }
    }
    if (p.limit < r->limit_pushes - r->prefix_count) status = OPTIMIZER_PULL_FOUND;
    *nodes = p.nodes;
    pull_free(&p);
    return status;
}
