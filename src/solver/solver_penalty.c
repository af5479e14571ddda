/* solver_penalty.c - the optimal mode's pair penalties (solver_penalty.h). */
#include "solver_penalty.h"

#include <stdlib.h>
#include <string.h>

enum {
    SEEN_SIZE = 4 * SOLVER_PENALTY_MOST_STATES, /* the pair search's hash set: a power of two */
    FIRST_ANSWERS = 1 << 12,
    NO_PENALTY_YET = INT32_MAX,
};

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

bool solver_penalties_init(solver_penalties *p, const board *board,
                           const solver_distances *distances)
{
    size_t size = (size_t)board->size;
    size_t goals = (size_t)(board->goal_count > 0 ? board->goal_count : 1);
    *p = (solver_penalties){.board = board, .distances = distances, .mask = FIRST_ANSWERS - 1};
    p->keys = calloc(FIRST_ANSWERS, sizeof *p->keys);
    p->values = malloc(FIRST_ANSWERS);
    p->seen_keys = malloc(SEEN_SIZE * sizeof *p->seen_keys);
    p->seen_stamp = calloc(SEEN_SIZE, sizeof *p->seen_stamp);
    p->queue = malloc(4 * (size_t)SOLVER_PENALTY_MOST_STATES * sizeof *p->queue);
    p->flood = calloc(size, sizeof *p->flood);
    p->flood_queue = malloc(size * sizeof *p->flood_queue);
    p->seen_pushes = malloc(SEEN_SIZE * sizeof *p->seen_pushes);
    p->heap.items = malloc((size_t)SOLVER_PENALTY_MOST_STATES * sizeof *p->heap.items);
    p->heap.capacity = SOLVER_PENALTY_MOST_STATES;
    p->start_a = malloc(4 * goals * sizeof *p->start_a);
    p->goal_of = malloc(size * sizeof *p->goal_of);
    p->taken = calloc(size, 1);
    if (!p->taken || !p->keys || !p->values || !p->seen_keys || !p->seen_stamp || !p->queue ||
        !p->flood || !p->flood_queue || !p->seen_pushes || !p->heap.items || !p->start_a ||
        !p->goal_of) {
        solver_penalties_free(p);
        return false;
    }
    p->start_b = p->start_a + goals;
    p->first = p->start_b + goals;
    p->second = p->first + goals;
    for (size_t square = 0; square < size; square++) p->goal_of[square] = -1;
    for (int g = 0; g < board->goal_count; g++) p->goal_of[board->goals[g]] = g;
    if (solver_rows_fit(board)) {
        if (!solver_rows_init(&p->rows, board)) {
            solver_penalties_free(p);
            return false;
        }
    }
    return true;
}

void solver_penalties_free(solver_penalties *p)
{
    free(p->keys);
    free(p->values);
    free(p->seen_keys);
    free(p->seen_stamp);
    free(p->queue);
    free(p->flood);
    free(p->flood_queue);
    free(p->seen_pushes);
    free(p->heap.items);
    free(p->start_a);
    free(p->goal_of);
    free(p->taken);
    free(p->pairs);
    free(p->levels);
    free(p->level_pairs);
    solver_rows_free(&p->rows);
    *p = (solver_penalties){0};
}

/* ---- the pair search ------------------------------------------------------------------- */

/* Floods the player's reach from `player` with boxes on a and b only; returns the least
 * square reached (the region's name). p->flood[square] == p->flood_stamp where he walks. */
static int flood(solver_penalties *p, int a, int b, int player)
{
    const board *board = p->board;
    if (++p->flood_stamp == 0) {
        memset(p->flood, 0, (size_t)board->size * sizeof *p->flood);
        p->flood_stamp = 1;
    }
    uint32_t stamp = p->flood_stamp;
    int head = 0, tail = 0, least = player;
    p->flood[player] = stamp;
    p->flood_queue[tail++] = player;
    while (head < tail) {
        int square = p->flood_queue[head++];
        for (int k = 0; k < DIRECTION_COUNT; k++) {
            int next = square + board->delta[k];
            if (p->flood[next] == stamp || !board_is_inside(board, next) || next == a || next == b)
                continue;
            p->flood[next] = stamp;
            p->flood_queue[tail++] = next;
            if (next < least) least = next;
        }
    }
    return least;
}

/* The least pushes the search has reached `key` with (its set: keys, stamps and pushes in
 * open addressing), or INT32_MAX; *spot where it is, or would go. */
static int seen_pushes(const solver_penalties *p, uint64_t key, uint32_t *spot)
{
    uint32_t at = (uint32_t)mix(key) & (SEEN_SIZE - 1);
    while (p->seen_stamp[at] == p->stamp) {
        if (p->seen_keys[at] == key) {
            *spot = at;
            return p->seen_pushes[at];
        }
        at = (at + 1) & (SEEN_SIZE - 1);
    }
    *spot = at;
    return INT32_MAX;
}

static void seen_set(solver_penalties *p, uint32_t spot, uint64_t key, int pushes)
{
    if (p->seen_stamp[spot] != p->stamp) p->seen_count++;
    p->seen_stamp[spot] = p->stamp;
    p->seen_keys[spot] = key;
    p->seen_pushes[spot] = pushes;
}

/* flood() over rows of bits where the board fits: over the rows' own `open` (the boxes on
 * a and b only) into their `reach`, not p->flood (reached() reads either). */
static int alone_region(solver_penalties *p, int a, int b, int player)
{
    const solver_rows *r = &p->rows;
    if (!r->floor) return flood(p, a, b, player);
    memcpy(r->open, r->floor, (size_t)r->height * sizeof *r->open);
    r->open[r->row[a]] &= ~((uint64_t)1 << r->column[a]);
    r->open[r->row[b]] &= ~((uint64_t)1 << r->column[b]);
    return solver_rows_flood_within(r, r->open, player, r->reach);
}

/* True when the last alone_region() reached `square`. */
static inline bool reached(const solver_penalties *p, int square)
{
    if (p->rows.floor) return solver_rows_has(&p->rows, p->rows.reach, square);
    return p->flood[square] == p->flood_stamp;
}

/* The distances the matching would give the box on `square` with the player's reach of the
 * last alone_region(): from the first side he reaches, or from anywhere when he reaches
 * none. */
static const uint16_t *row_of(const solver_penalties *p, int square)
{
    for (int k = 0; k < DIRECTION_COUNT; k++)
        if (reached(p, square + p->board->delta[k]))
            return solver_distance_row(p->distances, square, k);
    return solver_distance_row(p->distances, square, -1);
}

/* The least of first[g] + second[h] over two different goals g and h, in one pass;
 * NO_PENALTY_YET when there are no two. */
static int least_two(const int *first, const int *second, int goals)
{
    int best_first = -1, next_first = -1, best_second = -1, next_second = -1;
    for (int g = 0; g < goals; g++) {
        if (first[g] != NO_PENALTY_YET) {
            if (best_first < 0 || first[g] < first[best_first])
                next_first = best_first, best_first = g;
            else if (next_first < 0 || first[g] < first[next_first])
                next_first = g;
        }
        if (second[g] != NO_PENALTY_YET) {
            if (best_second < 0 || second[g] < second[best_second])
                next_second = best_second, best_second = g;
            else if (next_second < 0 || second[g] < second[next_second])
                next_second = g;
        }
    }
    if (best_first < 0 || best_second < 0) return NO_PENALTY_YET;
    if (best_first != best_second) return first[best_first] + second[best_second];
    int least = NO_PENALTY_YET;
    if (next_second >= 0) least = first[best_first] + second[next_second];
    if (next_first >= 0 && first[next_first] + second[best_second] < least)
        least = first[next_first] + second[best_second];
    return least;
}

/* A lower bound, for the boxes on a and b, of D(g, h) - d(a0, g) - d(b0, h) over the goals
 * left to them (the start's distances d in p->start_a, p->start_b): the distances from a
 * and b with the player anywhere, less the start's. */
static int estimate(solver_penalties *p, int a, int b)
{
    const uint16_t *row_a = solver_distance_row(p->distances, a, -1);
    const uint16_t *row_b = solver_distance_row(p->distances, b, -1);
    int goals = p->board->goal_count;
    for (int g = 0; g < goals; g++) {
        p->first[g] = row_a[g] == SOLVER_NO_PATH || p->start_a[g] == NO_PENALTY_YET
                          ? NO_PENALTY_YET
                          : row_a[g] - p->start_a[g];
        p->second[g] = row_b[g] == SOLVER_NO_PATH || p->start_b[g] == NO_PENALTY_YET
                           ? NO_PENALTY_YET
                           : row_b[g] - p->start_b[g];
    }
    return least_two(p->first, p->second, goals);
}

/* The open positions, least estimate first: (estimate, position) on the heap (room for
 * every position the search may keep, set up front). */
static void heap_push(solver_penalties *p, int f, int node)
{
    solver_heap_push(&p->heap, (uint64_t)(uint32_t)(f + (1 << 30)) << 32 | (uint32_t)node);
}

/* Puts the boxes on a and b, the player on `player`, reached with `pushes`, among the open
 * positions unless the search had it with as few; false when the search is out of room. */
static bool open_position(solver_penalties *p, int a, int b, int player, int pushes)
{
    uint64_t size = (uint64_t)p->board->size;
    uint64_t key = ((uint64_t)a * size + (uint64_t)b) * size + (uint64_t)player;
    uint32_t spot;
    if (seen_pushes(p, key, &spot) <= pushes) return true;
    int f = estimate(p, a, b);
    if (f == NO_PENALTY_YET) return true; /* no two goals left to them: lost */
    if (p->node_count >= SOLVER_PENALTY_MOST_STATES || p->seen_count >= SEEN_SIZE / 2) return false;
    seen_set(p, spot, key, pushes);
    int node = p->node_count++;
    int *entry = p->queue + 4 * node;
    entry[0] = a, entry[1] = b, entry[2] = player, entry[3] = pushes;
    heap_push(p, pushes + f, node);
    return true;
}

/* The penalty of a on `a`, b on `b` (solver_penalty.h), by a best-first search over their
 * pushes (each box followed) on the least pushes so far plus estimate(): it ends once no
 * open position's sum is below the least D(g, h) - d(a, g) - d(b, h) found. The estimate
 * need not grow along a push (the start's distances know the player's side, the estimate's
 * do not), so a position reached again with fewer pushes is searched again. 0 when the
 * search gives up. */
static int search_pair(solver_penalties *p, int a, int b, int player)
{
    const board *board = p->board;
    const solver_distances *d = p->distances;
    uint64_t size = (uint64_t)board->size;
    int goals = board->goal_count;
    p->searches++;
    if (++p->stamp == 0) {
        memset(p->seen_stamp, 0, SEEN_SIZE * sizeof *p->seen_stamp);
        p->stamp = 1;
    }
    p->seen_count = 0;
    p->node_count = 0;
    p->heap.count = 0;
    alone_region(p, a, b, player);
    const uint16_t *row_a = row_of(p, a), *row_b = row_of(p, b);
    for (int g = 0; g < goals; g++) {
        p->start_a[g] = row_a[g] == SOLVER_NO_PATH ? NO_PENALTY_YET : row_a[g];
        p->start_b[g] = row_b[g] == SOLVER_NO_PATH ? NO_PENALTY_YET : row_b[g];
    }
    int best = NO_PENALTY_YET;
    if (!open_position(p, a, b, player, 0)) return 0;
    for (unsigned popped = 1; p->heap.count > 0; popped++) {
        if (popped % 256 == 0 && solver_stop_now(p->stop)) {
            p->stopped = true;
            return 0;
        }
        uint64_t item = solver_heap_pop(&p->heap);
        int f = (int)(item >> 32) - (1 << 30);
        if (f >= best) break;
        const int *entry = p->queue + 4 * (int)(uint32_t)item;
        int box_a = entry[0], box_b = entry[1], pushes = entry[3];
        int goal_a = p->goal_of[box_a], goal_b = p->goal_of[box_b];
        if (goal_a >= 0 && goal_b >= 0 && p->start_a[goal_a] != NO_PENALTY_YET &&
            p->start_b[goal_b] != NO_PENALTY_YET) {
            int over = pushes - p->start_a[goal_a] - p->start_b[goal_b];
            if (over < best) best = over;
            if (best <= 0) return 0;
        }
        int region = alone_region(p, box_a, box_b, entry[2]);
        /* each region searched once with the fewest pushes: the bit above the key says so */
        uint64_t named = ((uint64_t)box_a * size + (uint64_t)box_b) * size + (uint64_t)region;
        uint32_t spot;
        if (seen_pushes(p, named | 1ULL << 63, &spot) <= pushes) continue;
        seen_set(p, spot, named | 1ULL << 63, pushes);
        for (int which = 0; which < 2; which++) {
            int box = which ? box_b : box_a, other = which ? box_a : box_b;
            for (int k = 0; k < DIRECTION_COUNT; k++) {
                int to = box + board->delta[k], from = box - board->delta[k];
                if (!reached(p, from) || !board_is_inside(board, to) || to == other ||
                    solver_square_is_dead(d, to))
                    continue;
                if (!open_position(p, which ? box_a : to, which ? to : box_b, box, pushes + 1))
                    return 0;
            }
        }
    }
    return best == NO_PENALTY_YET || best < 0 ? 0 : best;
}

/* ---- the answers kept ------------------------------------------------------------------ */

/* Doubles the table of answers, or empties it at its largest. False when out of memory (the
 * table is then left as it was). */
static bool grow(solver_penalties *p)
{
    uint32_t capacity = p->mask + 1;
    if (capacity >= SOLVER_PENALTY_MOST_ANSWERS) {
        memset(p->keys, 0, capacity * sizeof *p->keys);
        p->used = 0;
        return true;
    }
    uint32_t larger = capacity * 2;
    uint64_t *keys = calloc(larger, sizeof *keys);
    uint8_t *values = malloc(larger);
    if (!keys || !values) {
        free(keys);
        free(values);
        return false;
    }
    for (uint32_t i = 0; i < capacity; i++) {
        if (!p->keys[i]) continue;
        uint32_t spot = (uint32_t)mix(p->keys[i]) & (larger - 1);
        while (keys[spot]) spot = (spot + 1) & (larger - 1);
        keys[spot] = p->keys[i];
        values[spot] = p->values[i];
    }
    free(p->keys);
    free(p->values);
    p->keys = keys;
    p->values = values;
    p->mask = larger - 1;
    return true;
}

/* The answer kept under `key`, or -1; *spot where it is, or would go. */
static int kept(const solver_penalties *p, uint64_t key, uint32_t *spot)
{
    uint32_t at = (uint32_t)mix(key) & p->mask;
    while (p->keys[at]) {
        if (p->keys[at] == key) return p->values[at];
        at = (at + 1) & p->mask;
    }
    *spot = at;
    return -1;
}

static void keep(solver_penalties *p, uint64_t key, uint32_t spot, int penalty)
{
    if (p->used + 1 > (p->mask + 1) / 2) {
        if (!grow(p)) return;
        kept(p, key, &spot);
    }
    p->keys[spot] = key;
    p->values[spot] = (uint8_t)penalty;
    p->used++;
}

/* Kept under the player's square as asked (the search's region, named by its least square)
 * and under the least square of his region with the two boxes alone, which many regions of
 * the whole position share: a pair is searched once a region of its own. */
int solver_penalties_pair(solver_penalties *p, int a, int b, int player)
{
    if (a > b) {
        int swap = a;
        a = b;
        b = swap;
    }
    uint64_t size = (uint64_t)p->board->size;
    uint64_t pair = (uint64_t)a * size + (uint64_t)b;
    uint64_t key = (pair * size + (uint64_t)player) * 2 + 1;
    uint32_t spot, alone_spot;
    int penalty = kept(p, key, &spot);
    if (penalty >= 0) return penalty;
    uint64_t alone = (pair * size + (uint64_t)alone_region(p, a, b, player)) * 2 + 2;
    penalty = kept(p, alone, &alone_spot);
    if (penalty < 0) {
        if (p->stopped) return 0;
        penalty = search_pair(p, a, b, player);
        if (p->stopped) return 0;
        if (penalty > UINT8_MAX) penalty = UINT8_MAX;
        if (penalty > 0) p->positive++;
        keep(p, alone, alone_spot, penalty);
        kept(p, key, &spot); /* the table may have grown */
    }
    keep(p, key, spot, penalty);
    return penalty;
}

/* ---- a position's pairs ---------------------------------------------------------------- */

/* the scan's places after a box (scan_place) fit under 64 */
_Static_assert(SOLVER_PENALTY_REACH + SOLVER_PENALTY_REACH * SOLVER_PENALTY_REACH <= 64,
               "the scan's places fit in an order's low bits");

/* The place of a square dx, dy from a box in the scan of the squares after it within the
 * reach (row by row, dy >= 0, and dx > 0 on the box's own row), from 0. */
static uint32_t scan_place(int dx, int dy)
{
    uint32_t place = 0;
    for (int row = 0; row < dy; row++)
        place += row ? 2 * (uint32_t)(SOLVER_PENALTY_REACH - row) + 1 : SOLVER_PENALTY_REACH;
    int reach = SOLVER_PENALTY_REACH - dy;
    return place + (uint32_t)(dy ? dx + reach : dx - 1);
}

/* True when pair x goes before y: the larger penalty first, then the scan's order. */
static bool before(const solver_penalty_pair *x, const solver_penalty_pair *y)
{
    return x->penalty > y->penalty || (x->penalty == y->penalty && x->order < y->order);
}

/* Puts `pair` into the list of `found` pairs kept in that order; the list has room. */
static void insert_pair(solver_penalty_pair *pairs, int found, solver_penalty_pair pair)
{
    int at = found;
    while (at > 0 && before(&pair, &pairs[at - 1])) {
        pairs[at] = pairs[at - 1];
        at--;
    }
    pairs[at] = pair;
}

/* The sum over the pairs in order, each taken unless it shares a box with one taken: the
 * largest first, ties in the scan's order, as a repeated choice of the largest would. */
static int take_pairs(solver_penalties *p, const solver_penalty_pair *pairs, int found)
{
    int total = 0;
    for (int k = 0; k < found; k++) {
        if (p->taken[pairs[k].first] || p->taken[pairs[k].second]) continue;
        total += pairs[k].penalty;
        p->taken[pairs[k].first] = p->taken[pairs[k].second] = 1;
    }
    for (int k = 0; k < found; k++) p->taken[pairs[k].first] = p->taken[pairs[k].second] = 0;
    return total;
}

/* Room in p->pairs for `found` + 1 pairs. */
static bool pairs_room(solver_penalties *p, int found)
{
    if (found < p->pairs_room) return true;
    int room = p->pairs_room ? 2 * p->pairs_room : 64;
    solver_penalty_pair *pairs = realloc(p->pairs, (size_t)room * sizeof *pairs);
    if (!pairs) return false;
    p->pairs = pairs;
    p->pairs_room = room;
    return true;
}

/* Every pair of boxes near each other with a penalty, in order, into p->pairs; how many, or
 * -1 when out of memory. */
static int scan_pairs(solver_penalties *p, const int *box_square, const int *box_at, int count,
                      int player)
{
    const board *board = p->board;
    int found = 0;
    for (int i = 0; i < count; i++) {
        int square = box_square[i], x = board_x(board, square), y = board_y(board, square);
        /* the boxes after this one in square order, within the reach */
        for (int dy = 0; dy <= SOLVER_PENALTY_REACH; dy++) {
            int reach = SOLVER_PENALTY_REACH - dy;
            for (int dx = dy ? -reach : 1; dx <= reach; dx++) {
                int ox = x + dx, oy = y + dy;
                if (ox < 0 || ox >= board->width || oy >= board->height) continue;
                int j = box_at[oy * board->width + ox];
                if (j < 0) continue;
                int penalty = solver_penalties_pair(p, square, box_square[j], player);
                if (penalty <= 0) continue;
                if (!pairs_room(p, found)) return -1;
                solver_penalty_pair pair = {(uint32_t)i * 64 + scan_place(dx, dy), i, j, penalty};
                insert_pair(p->pairs, found++, pair);
            }
        }
    }
    return found;
}

int solver_penalties_near(solver_penalties *p, const int *box_square, const int *box_at, int count,
                          int player)
{
    int found = scan_pairs(p, box_square, box_at, count, player);
    return found < 0 ? 0 : take_pairs(p, p->pairs, found);
}

/* Room for the lists of `depth`; false when out of memory. */
static bool level_room(solver_penalties *p, int depth)
{
    if (depth < p->level_room) return true;
    int room = p->level_room ? 2 * p->level_room : 256;
    while (room <= depth) room *= 2;
    solver_penalty_level *levels = realloc(p->levels, (size_t)room * sizeof *levels);
    if (!levels) return false;
    p->levels = levels;
    for (int d = p->level_room; d < room; d++) p->levels[d] = (solver_penalty_level){.count = -1};
    solver_penalty_pair *pairs =
        realloc(p->level_pairs, (size_t)room * SOLVER_PENALTY_LEVEL_PAIRS * sizeof *pairs);
    if (!pairs) return false;
    p->level_pairs = pairs;
    p->level_room = room;
    return true;
}

/* The moved box's pairs with a penalty added to the `found` pairs in `pairs` (room for
 * SOLVER_PENALTY_LEVEL_PAIRS); the new count, or -1 when they do not fit. */
static int moved_pairs(solver_penalties *p, solver_penalty_pair *pairs, int found, int moved,
                       const int *box_square, const int *box_at, int player)
{
    const board *board = p->board;
    int square = box_square[moved], x = board_x(board, square), y = board_y(board, square);
    for (int dy = -SOLVER_PENALTY_REACH; dy <= SOLVER_PENALTY_REACH; dy++) {
        int reach = SOLVER_PENALTY_REACH - (dy < 0 ? -dy : dy);
        for (int dx = -reach; dx <= reach; dx++) {
            int ox = x + dx, oy = y + dy;
            if ((dx == 0 && dy == 0) || ox < 0 || ox >= board->width || oy < 0 ||
                oy >= board->height)
                continue;
            int j = box_at[oy * board->width + ox];
            if (j < 0) continue;
            int penalty = solver_penalties_pair(p, square, box_square[j], player);
            if (penalty <= 0) continue;
            if (found >= SOLVER_PENALTY_LEVEL_PAIRS) return -1;
            /* the scan meets the pair at the box on the lesser square */
            bool first = dy > 0 || (dy == 0 && dx > 0);
            solver_penalty_pair pair = {first ? (uint32_t)moved * 64 + scan_place(dx, dy)
                                              : (uint32_t)j * 64 + scan_place(-dx, -dy),
                                        first ? moved : j, first ? j : moved, penalty};
            insert_pair(pairs, found++, pair);
        }
    }
    return found;
}

int solver_penalties_at(solver_penalties *p, int depth, uint64_t key, uint64_t parent_key,
                        int moved, const int *box_square, const int *box_at, int count, int player)
{
    if (depth < 0 || !level_room(p, depth))
        return solver_penalties_near(p, box_square, box_at, count, player);
    solver_penalty_level *level = p->levels + depth;
    solver_penalty_pair *pairs = p->level_pairs + (size_t)depth * SOLVER_PENALTY_LEVEL_PAIRS;
    const solver_penalty_level *parent = depth > 0 ? level - 1 : NULL;
    int found = -1;
    if (moved >= 0 && parent && parent->count >= 0 && parent->key == parent_key) {
        const solver_penalty_pair *above = pairs - SOLVER_PENALTY_LEVEL_PAIRS;
        found = 0;
        for (int k = 0; k < parent->count; k++)
            if (above[k].first != moved && above[k].second != moved) pairs[found++] = above[k];
        found = moved_pairs(p, pairs, found, moved, box_square, box_at, player);
        if (found >= 0) p->repaired++;
    }
    if (found < 0) {
        found = scan_pairs(p, box_square, box_at, count, player);
        if (found < 0) {
            *level = (solver_penalty_level){.count = -1};
            return 0;
        }
        if (found <= SOLVER_PENALTY_LEVEL_PAIRS) {
            if (found > 0) /* p->pairs is null before the first pair is found */
                memcpy(pairs, p->pairs, (size_t)found * sizeof *pairs);
        } else {
            *level = (solver_penalty_level){.count = -1};
            return take_pairs(p, p->pairs, found);
        }
    }
    *level = (solver_penalty_level){.key = key, .player = player, .count = found};
    return take_pairs(p, pairs, found);
}

int solver_penalties_kept(solver_penalties *p, int depth, uint64_t parent_key, int moved,
                          int player)
{
    if (depth < 1 || depth > p->level_room || moved < 0) return 0;
    const solver_penalty_level *parent = p->levels + depth - 1;
    if (parent->count <= 0 || parent->key != parent_key || parent->player != player) return 0;
    const solver_penalty_pair *pairs =
        p->level_pairs + (size_t)(depth - 1) * SOLVER_PENALTY_LEVEL_PAIRS;
    int total = 0;
    for (int k = 0; k < parent->count; k++) {
        const solver_penalty_pair *pair = pairs + k;
        if (p->taken[pair->first] || p->taken[pair->second]) continue;
        /* the parent's choice (take_pairs), less the moved box's pair */
        if (pair->first != moved && pair->second != moved) total += pair->penalty;
        p->taken[pair->first] = p->taken[pair->second] = 1;
    }
    for (int k = 0; k < parent->count; k++)
        p->taken[pairs[k].first] = p->taken[pairs[k].second] = 0;
    return total;
}
