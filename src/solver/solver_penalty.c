/* solver_penalty.c - the optimal mode's pair penalties (solver_penalty.h). */
#include "solver_penalty.h"

#include <stdlib.h>
#include <string.h>

enum {
    /* the searches' hash set, a power of two: twice the positions kept at most, with their
     * regions */
    PAIR_SEEN = 4 * SOLVER_PENALTY_MOST_STATES,
    TRIPLE_SEEN = 4 * SOLVER_PENALTY_TRIPLE_STATES,
    FIRST_ANSWERS = 1 << 12,
    NO_PENALTY_YET = INT32_MAX,
};
/* The stop is read each time this much more work is done (squares flooded and goals looked
 * at, well under a millisecond): on a board of a thousand boxes the root's scan makes tens
 * of thousands of searches, most too short to reach a read counted in positions, and each
 * position looks at every goal. */
#define STOP_WORK (UINT64_C(1) << 16)

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
    p->seen_size = PAIR_SEEN;
    p->seen_keys = malloc(PAIR_SEEN * sizeof *p->seen_keys);
    p->seen_stamp = calloc(PAIR_SEEN, sizeof *p->seen_stamp);
    p->queue = malloc(4 * (size_t)SOLVER_PENALTY_MOST_STATES * sizeof *p->queue);
    p->flood = calloc(size, sizeof *p->flood);
    p->flood_queue = malloc(size * sizeof *p->flood_queue);
    p->seen_pushes = malloc(PAIR_SEEN * sizeof *p->seen_pushes);
    p->heap.items = malloc((size_t)SOLVER_PENALTY_MOST_STATES * sizeof *p->heap.items);
    p->heap.capacity = SOLVER_PENALTY_MOST_STATES;
    p->start_a = malloc(6 * goals * sizeof *p->start_a);
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
    p->start_c = p->second + goals;
    p->third = p->start_c + goals;
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

/* The triples' work space past the pairs': the larger hash set, queue and heap, and the
 * estimate's three least goals per box and square. */
size_t solver_penalties_triple_bytes(const board *board)
{
    size_t size = (size_t)board->size;
    return TRIPLE_SEEN * (sizeof(uint64_t) + sizeof(uint32_t) + sizeof(int)) +
           5 * (size_t)SOLVER_PENALTY_TRIPLE_STATES * sizeof(int) +
           (size_t)SOLVER_PENALTY_TRIPLE_STATES * sizeof(uint64_t) +
           3 * size * (6 * sizeof(int) + sizeof(uint32_t));
}

bool solver_penalties_allow_triples(solver_penalties *p)
{
    size_t size = (size_t)p->board->size;
    if (p->triples) return true;
    if (size > 40000) return true; /* a triple's keys: four squares and a tag, 63 bits */
    uint64_t *keys = malloc(TRIPLE_SEEN * sizeof *keys);
    uint32_t *stamps = calloc(TRIPLE_SEEN, sizeof *stamps);
    int *pushes = malloc(TRIPLE_SEEN * sizeof *pushes);
    int *queue = malloc(5 * (size_t)SOLVER_PENALTY_TRIPLE_STATES * sizeof *queue);
    uint64_t *items = malloc((size_t)SOLVER_PENALTY_TRIPLE_STATES * sizeof *items);
    int *least = malloc(3 * 6 * size * sizeof *least);
    uint32_t *least_stamp = calloc(3 * size, sizeof *least_stamp);
    if (!keys || !stamps || !pushes || !queue || !items || !least || !least_stamp) {
        free(keys);
        free(stamps);
        free(pushes);
        free(queue);
        free(items);
        free(least);
        free(least_stamp);
        return false;
    }
    free(p->seen_keys);
    free(p->seen_stamp);
    free(p->seen_pushes);
    free(p->queue);
    free(p->heap.items);
    p->seen_keys = keys, p->seen_stamp = stamps, p->seen_pushes = pushes;
    p->seen_size = TRIPLE_SEEN;
    p->queue = queue;
    p->heap.items = items;
    p->heap.capacity = SOLVER_PENALTY_TRIPLE_STATES;
    p->least = least;
    p->least_stamp = least_stamp;
    p->triples = true;
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
    free(p->least);
    free(p->least_stamp);
    free(p->pairs);
    free(p->levels);
    free(p->level_pairs);
    solver_rows_free(&p->rows);
    *p = (solver_penalties){0};
}

/* ---- the pair search ------------------------------------------------------------------- */

/* True once the searches are told to stop (read every STOP_WORK of p->work). */
static bool told_to_stop(solver_penalties *p)
{
    return solver_stop_after_work(p->stop, p->work, STOP_WORK, &p->stop_read_at, &p->stopped);
}

/* Floods the player's reach from `player` with boxes on a, b and c only (c -1: two boxes);
 * returns the least square reached (the region's name). p->flood[square] == p->flood_stamp
 * where he walks. */
static int flood(solver_penalties *p, int a, int b, int c, int player)
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
            if (p->flood[next] == stamp || !board_is_inside(board, next) || next == a ||
                next == b || next == c)
                continue;
            p->flood[next] = stamp;
            p->flood_queue[tail++] = next;
            if (next < least) least = next;
        }
    }
    p->work += (uint64_t)tail;
    return least;
}

/* A search's fresh start: a new stamp for its seen set (and the least pushes by square), the
 * set, its nodes and its heap empty. */
static void begin_search(solver_penalties *p)
{
    p->searches++;
    if (++p->stamp == 0) {
        memset(p->seen_stamp, 0, p->seen_size * sizeof *p->seen_stamp);
        if (p->least_stamp)
            memset(p->least_stamp, 0, 3 * (size_t)p->board->size * sizeof *p->least_stamp);
        p->stamp = 1;
    }
    p->seen_count = 0;
    p->node_count = 0;
    p->heap.count = 0;
    p->work += (uint64_t)p->board->goal_count; /* the start's distances, by goal */
}

/* The least pushes the search has reached `key` with (its set: keys, stamps and pushes in
 * open addressing), or INT32_MAX; *spot where it is, or would go. */
static int seen_pushes(const solver_penalties *p, uint64_t key, uint32_t *spot)
{
    uint32_t at = (uint32_t)mix(key) & (p->seen_size - 1);
    while (p->seen_stamp[at] == p->stamp) {
        if (p->seen_keys[at] == key) {
            *spot = at;
            return p->seen_pushes[at];
        }
        at = (at + 1) & (p->seen_size - 1);
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
    if (!r->floor) return flood(p, a, b, -1, player);
    memcpy(r->open, r->floor, (size_t)r->height * sizeof *r->open);
    r->open[r->row[a]] &= ~((uint64_t)1 << r->column[a]);
    r->open[r->row[b]] &= ~((uint64_t)1 << r->column[b]);
    p->work += (uint64_t)r->height;
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
    p->work += (uint64_t)goals;
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
    if (p->node_count >= SOLVER_PENALTY_MOST_STATES || p->seen_count >= 2 * SOLVER_PENALTY_MOST_STATES)
        return false;
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
    begin_search(p);
    alone_region(p, a, b, player);
    const uint16_t *row_a = row_of(p, a), *row_b = row_of(p, b);
    for (int g = 0; g < goals; g++) {
        p->start_a[g] = row_a[g] == SOLVER_NO_PATH ? NO_PENALTY_YET : row_a[g];
        p->start_b[g] = row_b[g] == SOLVER_NO_PATH ? NO_PENALTY_YET : row_b[g];
    }
    int best = NO_PENALTY_YET;
    if (!open_position(p, a, b, player, 0)) return 0;
    while (p->heap.count > 0) {
        if (told_to_stop(p)) return 0;
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

/* ---- the triple search ----------------------------------------------------------------- */

/* alone_region() with three boxes. */
static int alone_region3(solver_penalties *p, int a, int b, int c, int player)
{
    const solver_rows *r = &p->rows;
    if (!r->floor) return flood(p, a, b, c, player);
    memcpy(r->open, r->floor, (size_t)r->height * sizeof *r->open);
    r->open[r->row[a]] &= ~((uint64_t)1 << r->column[a]);
    r->open[r->row[b]] &= ~((uint64_t)1 << r->column[b]);
    r->open[r->row[c]] &= ~((uint64_t)1 << r->column[c]);
    p->work += (uint64_t)r->height;
    return solver_rows_flood_within(r, r->open, player, r->reach);
}

/* The three least of `values` (NO_PENALTY_YET: none) into best[0..2], goals or -1. */
static void least_three(const int *values, int goals, int *best)
{
    best[0] = best[1] = best[2] = -1;
    for (int g = 0; g < goals; g++) {
        if (values[g] == NO_PENALTY_YET) continue;
        if (best[0] < 0 || values[g] < values[best[0]]) {
            best[2] = best[1], best[1] = best[0], best[0] = g;
        } else if (best[1] < 0 || values[g] < values[best[1]]) {
            best[2] = best[1], best[1] = g;
        } else if (best[2] < 0 || values[g] < values[best[2]]) {
            best[2] = g;
        }
    }
}

/* For box `which` (0 to 2) of the triple searched on `square`: the goals of its three least
 * row - start values and those values (goals -1 past the last), worked out once a search. */
static const int *least_of(solver_penalties *p, int which, int square)
{
    size_t at = (size_t)which * (size_t)p->board->size + (size_t)square;
    int *entry = p->least + 6 * at;
    if (p->least_stamp[at] == p->stamp) return entry;
    p->least_stamp[at] = p->stamp;
    const int *start = which == 0 ? p->start_a : which == 1 ? p->start_b : p->start_c;
    const uint16_t *row = solver_distance_row(p->distances, square, -1);
    int goals = p->board->goal_count;
    p->work += (uint64_t)goals;
    for (int g = 0; g < goals; g++)
        p->third[g] = row[g] == SOLVER_NO_PATH || start[g] == NO_PENALTY_YET ? NO_PENALTY_YET
                                                                             : row[g] - start[g];
    least_three(p->third, goals, entry);
    for (int k = 0; k < 3; k++) entry[3 + k] = entry[k] >= 0 ? p->third[entry[k]] : 0;
    return entry;
}

/* estimate() for three boxes: the least of the three boxes' row - start values over three
 * different goals (each box's goal is among its three least, the other two taking at most
 * two of them). */
static int estimate3(solver_penalties *p, int a, int b, int c)
{
    const int *x = least_of(p, 0, a), *y = least_of(p, 1, b), *z = least_of(p, 2, c);
    int least = NO_PENALTY_YET;
    for (int i = 0; i < 3 && x[i] >= 0; i++)
        for (int j = 0; j < 3 && y[j] >= 0; j++) {
            if (y[j] == x[i]) continue;
            for (int k = 0; k < 3 && z[k] >= 0; k++) {
                if (z[k] == x[i] || z[k] == y[j]) continue;
                int sum = x[3 + i] + y[3 + j] + z[3 + k];
                if (sum < least) least = sum;
            }
        }
    return least;
}

static uint64_t triple_key(const solver_penalties *p, int a, int b, int c, int player)
{
    uint64_t size = (uint64_t)p->board->size;
    return (((uint64_t)a * size + (uint64_t)b) * size + (uint64_t)c) * size + (uint64_t)player;
}

/* open_position() for three boxes. */
static bool open_triple(solver_penalties *p, int a, int b, int c, int player, int pushes)
{
    uint64_t key = triple_key(p, a, b, c, player);
    uint32_t spot;
    if (seen_pushes(p, key, &spot) <= pushes) return true;
    int f = estimate3(p, a, b, c);
    if (f == NO_PENALTY_YET) return true; /* no three goals left to them: lost */
    if (p->node_count >= SOLVER_PENALTY_TRIPLE_STATES ||
        p->seen_count >= 2 * SOLVER_PENALTY_TRIPLE_STATES)
        return false;
    seen_set(p, spot, key, pushes);
    int node = p->node_count++;
    int *entry = p->queue + 5 * node;
    entry[0] = a, entry[1] = b, entry[2] = c, entry[3] = player, entry[4] = pushes;
    heap_push(p, pushes + f, node);
    return true;
}

/* search_pair() for three boxes: the least D(g, h, i) - d(a, g) - d(b, h) - d(c, i) when it
 * is above `floor`, else 0 (as soon as the three reach goals at most `floor` over), and 0
 * when the search gives up. */
static int search_triple(solver_penalties *p, int a, int b, int c, int player, int floor)
{
    const board *board = p->board;
    const solver_distances *d = p->distances;
    int goals = board->goal_count;
    begin_search(p);
    alone_region3(p, a, b, c, player);
    const uint16_t *row_a = row_of(p, a), *row_b = row_of(p, b), *row_c = row_of(p, c);
    for (int g = 0; g < goals; g++) {
        p->start_a[g] = row_a[g] == SOLVER_NO_PATH ? NO_PENALTY_YET : row_a[g];
        p->start_b[g] = row_b[g] == SOLVER_NO_PATH ? NO_PENALTY_YET : row_b[g];
        p->start_c[g] = row_c[g] == SOLVER_NO_PATH ? NO_PENALTY_YET : row_c[g];
    }
    int best = NO_PENALTY_YET;
    if (!open_triple(p, a, b, c, player, 0)) return 0;
    while (p->heap.count > 0) {
        if (told_to_stop(p)) return 0;
        uint64_t item = solver_heap_pop(&p->heap);
        int f = (int)(item >> 32) - (1 << 30);
        if (f >= best) break;
        const int *entry = p->queue + 5 * (int)(uint32_t)item;
        int box[3] = {entry[0], entry[1], entry[2]}, pushes = entry[4];
        int goal[3] = {p->goal_of[box[0]], p->goal_of[box[1]], p->goal_of[box[2]]};
        if (goal[0] >= 0 && goal[1] >= 0 && goal[2] >= 0 &&
            p->start_a[goal[0]] != NO_PENALTY_YET && p->start_b[goal[1]] != NO_PENALTY_YET &&
            p->start_c[goal[2]] != NO_PENALTY_YET) {
            int over = pushes - p->start_a[goal[0]] - p->start_b[goal[1]] - p->start_c[goal[2]];
            if (over < best) best = over;
            if (best <= floor) return 0;
        }
        int region = alone_region3(p, box[0], box[1], box[2], entry[3]);
        uint64_t named = triple_key(p, box[0], box[1], box[2], region) | 1ULL << 63;
        uint32_t spot;
        if (seen_pushes(p, named, &spot) <= pushes) continue;
        seen_set(p, spot, named, pushes);
        for (int which = 0; which < 3; which++) {
            for (int k = 0; k < DIRECTION_COUNT; k++) {
                int to = box[which] + board->delta[k], from = box[which] - board->delta[k];
                if (!reached(p, from) || !board_is_inside(board, to) || to == box[0] ||
                    to == box[1] || to == box[2] || solver_square_is_dead(d, to))
                    continue;
                int next[3] = {box[0], box[1], box[2]};
                next[which] = to;
                if (!open_triple(p, next[0], next[1], next[2], box[which], pushes + 1)) return 0;
            }
        }
    }
    return best == NO_PENALTY_YET || best <= floor ? 0 : best;
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

/* Keeps a penalty just searched (capped at a byte) under the key of its boxes alone (their
 * region, at `alone_spot`) and under the player's `key`, whose spot is looked up again: the
 * first keep may have grown the table. Returns the penalty kept. */
static int keep_searched(solver_penalties *p, uint64_t key, uint64_t alone, uint32_t alone_spot,
                         int penalty)
{
    if (penalty > UINT8_MAX) penalty = UINT8_MAX;
    if (penalty > 0) p->positive++;
    keep(p, alone, alone_spot, penalty);
    uint32_t spot;
    kept(p, key, &spot);
    keep(p, key, spot, penalty);
    return penalty;
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
    if (p->stopped) return 0;
    uint64_t alone = (pair * size + (uint64_t)alone_region(p, a, b, player)) * 2 + 2;
    penalty = kept(p, alone, &alone_spot);
    if (penalty >= 0) {
        keep(p, key, spot, penalty);
        return penalty;
    }
    penalty = search_pair(p, a, b, player);
    return p->stopped ? 0 : keep_searched(p, key, alone, alone_spot, penalty);
}

/* Kept as a pair's answers are, under keys with the top bit set (the squares in order). */
int solver_penalties_triple(solver_penalties *p, int a, int b, int c, int player)
{
    if (!p->triples) return 0;
    int box[3] = {a, b, c};
    for (int i = 1; i < 3; i++)
        for (int j = i; j > 0 && box[j - 1] > box[j]; j--) {
            int swap = box[j];
            box[j] = box[j - 1];
            box[j - 1] = swap;
        }
    uint64_t key = (triple_key(p, box[0], box[1], box[2], player) * 2 + 1) | 1ULL << 63;
    uint32_t spot, alone_spot;
    int penalty = kept(p, key, &spot);
    if (penalty >= 0) return penalty;
    if (p->stopped) return 0;
    int region = alone_region3(p, box[0], box[1], box[2], player);
    uint64_t alone = (triple_key(p, box[0], box[1], box[2], region) * 2 + 2) | 1ULL << 63;
    penalty = kept(p, alone, &alone_spot);
    if (penalty >= 0) {
        keep(p, key, spot, penalty);
        return penalty;
    }
    /* only a penalty above each of its pairs' counts: the search stops at theirs */
    int floor = 0;
    for (int i = 0; i < 3 && !p->stopped; i++) {
        int pair = solver_penalties_pair(p, box[i], box[(i + 1) % 3], player);
        if (pair > floor) floor = pair;
    }
    if (p->stopped) return 0;
    penalty = search_triple(p, box[0], box[1], box[2], player, floor);
    return p->stopped ? 0 : keep_searched(p, key, alone, alone_spot, penalty);
}
