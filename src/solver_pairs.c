/* solver_pairs.c - the two-box deadlocks of a board, by a retrograde search from the goals. */
#include "solver_pairs.h"

#include <stdlib.h>
#include <string.h>

#include "solver_rows.h"

typedef struct pair_search {
    solver_pairs *pairs;
    const board *board;
    /* pairs (their two squares) with regions whose pulls are still to be made */
    int *work;
    size_t work_count;
    uint64_t *queued; /* a bit per pair: in `work` */
    int *queue;       /* a flood's squares */
    uint32_t *stamp;  /* per square: the flood that reached it */
    uint32_t flood;
    solver_rows rows; /* the floods by rows, when the board fits (use_rows) */
    bool use_rows;
} pair_search;

static bool test_bit(const uint64_t *bits, size_t bit)
{
    return bits[bit >> 6] >> (bit & 63) & 1;
}

static void set_bit(uint64_t *bits, size_t bit)
{
    bits[bit >> 6] |= UINT64_C(1) << (bit & 63);
}

/* Marks the squares of the player's region among the boxes on `a` and `b`, flooded from
 * `player`, in the bits of their pair from `base` on: square by square. */
static void mark_by_squares(pair_search *search, int a, int b, int player, size_t base)
{
    const board *board = search->board;
    solver_pairs *pairs = search->pairs;
    if (++search->flood == 0) {
        memset(search->stamp, 0, (size_t)board->size * sizeof *search->stamp);
        search->flood = 1;
    }
    uint32_t stamp = search->flood;
    int *queue = search->queue;
    int head = 0, tail = 0;
    search->stamp[player] = stamp;
    queue[tail++] = player;
    while (head < tail) {
        int square = queue[head++];
        set_bit(pairs->alive, base + (size_t)pairs->floor_index[square]);
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + board->delta[d];
            if (search->stamp[next] == stamp || !board_is_inside(board, next) || next == a ||
                next == b)
                continue;
            search->stamp[next] = stamp;
            queue[tail++] = next;
        }
    }
}

/* The same, a row of the board at a time (solver_rows.h). */
static void mark_by_rows(pair_search *search, int a, int b, int player, size_t base)
{
    solver_rows *rows = &search->rows;
    solver_pairs *pairs = search->pairs;
    solver_rows_set_box(rows, a, true);
    solver_rows_set_box(rows, b, true);
    solver_rows_flood(rows, player);
    solver_rows_set_box(rows, a, false);
    solver_rows_set_box(rows, b, false);
    for (int y = 0; y < rows->height; y++) {
        for (uint64_t word = rows->reach[y]; word; word &= word - 1) {
            int square = y * rows->width + __builtin_ctzll(word);
            set_bit(pairs->alive, base + (size_t)pairs->floor_index[square]);
        }
    }
}

/* Marks the player's region of the boxes on `a` and `b`, flooded from `player`, as a
 * position that can be solved, unless it is known, and lists the pair for its pulls. */
static void reach(pair_search *search, int a, int b, int player)
{
    solver_pairs *pairs = search->pairs;
    size_t pair = solver_pairs_number(pairs, a, b);
    size_t base = pair * (size_t)pairs->floor_count;
    if (test_bit(pairs->alive, base + (size_t)pairs->floor_index[player])) return;
    if (search->use_rows)
        mark_by_rows(search, a, b, player, base);
    else
        mark_by_squares(search, a, b, player, base);
    if (!test_bit(search->queued, pair)) {
        set_bit(search->queued, pair);
        search->work[2 * search->work_count] = a;
        search->work[2 * search->work_count + 1] = b;
        search->work_count++;
    }
}

/* Every pull the player can make from the regions of the pair marked so far: standing next
 * to a box, he steps back away from it (onto a free square) and draws it onto his square. */
static void pull_from(pair_search *search, int a, int b)
{
    const board *board = search->board;
    const solver_pairs *pairs = search->pairs;
    size_t base = solver_pairs_number(pairs, a, b) * (size_t)pairs->floor_count;
    int boxes[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        int box = boxes[k], other = boxes[1 - k];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int square = box - board->delta[d], back = square - board->delta[d];
            if (!board_is_inside(board, square) || square == other) continue;
            if (pairs->live_index[square] < 0) continue; /* a box drawn here could never leave */
            if (!board_is_inside(board, back) || back == other) continue;
            if (test_bit(pairs->alive, base + (size_t)pairs->floor_index[square]))
                reach(search, square, other, back);
        }
    }
}

bool solver_pairs_init(solver_pairs *pairs, const board *board, const solver_distances *distances,
                       size_t most_bytes)
{
    memset(pairs, 0, sizeof *pairs);
    if (board->goal_count < 2) return false;
    pairs->live_index = malloc((size_t)board->size * sizeof *pairs->live_index);
    pairs->floor_index = malloc((size_t)board->size * sizeof *pairs->floor_index);
    if (!pairs->live_index || !pairs->floor_index) {
        solver_pairs_free(pairs);
        return false;
    }
    for (int square = 0; square < board->size; square++) {
        bool inside = board_is_inside(board, square);
        pairs->floor_index[square] = inside ? pairs->floor_count++ : -1;
        bool live = inside && !solver_square_is_dead(distances, square);
        pairs->live_index[square] = live ? pairs->live_count++ : -1;
    }
    size_t n = (size_t)pairs->live_count;
    size_t pair_count = n * (n - 1) / 2;
    size_t words = pair_count * (size_t)pairs->floor_count / 64 + 1;
    /* the table, and the list of pairs to pull from while it is made */
    if (words * sizeof(uint64_t) + pair_count * 2 * sizeof(int) > most_bytes) {
        solver_pairs_free(pairs);
        return false;
    }
    pair_search search = {.pairs = pairs, .board = board};
    search.use_rows = solver_rows_fit(board) && solver_rows_init(&search.rows, board);
    pairs->alive = calloc(words, sizeof *pairs->alive);
    search.work = malloc(2 * pair_count * sizeof *search.work);
    search.queued = calloc(pair_count / 64 + 1, sizeof *search.queued);
    search.queue = malloc((size_t)board->size * sizeof *search.queue);
    search.stamp = calloc((size_t)board->size, sizeof *search.stamp);
    bool ok = pairs->alive && search.work && search.queued && search.queue && search.stamp;
    /* The solved positions: two boxes on goals, the player anywhere. */
    for (int i = 0; ok && i < board->goal_count; i++) {
        for (int j = i + 1; j < board->goal_count; j++) {
            int a = board->goals[i], b = board->goals[j];
            if (pairs->live_index[a] < 0 || pairs->live_index[b] < 0) continue;
            for (int player = 0; player < board->size; player++)
                if (board_is_inside(board, player) && player != a && player != b)
                    reach(&search, a, b, player);
            while (search.work_count > 0) {
                search.work_count--;
                int first = search.work[2 * search.work_count];
                int second = search.work[2 * search.work_count + 1];
                size_t pair = solver_pairs_number(pairs, first, second);
                search.queued[pair >> 6] &= ~(UINT64_C(1) << (pair & 63));
                pull_from(&search, first, second);
            }
        }
    }
    free(search.work);
    free(search.queued);
    free(search.queue);
    free(search.stamp);
    if (search.use_rows) solver_rows_free(&search.rows);
    if (!ok) solver_pairs_free(pairs);
    return ok;
}

void solver_pairs_free(solver_pairs *pairs)
{
    free(pairs->live_index);
    free(pairs->floor_index);
    free(pairs->alive);
    memset(pairs, 0, sizeof *pairs);
}
