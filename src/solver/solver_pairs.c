/* solver_pairs.c - the deadlocks of two and of three boxes of a board, by a retrograde
 * search from the goals. */
#include "solver_pairs.h"

#include <stdlib.h>
#include <string.h>

#include "solver_rows.h"

enum { MOST_BOXES = 3 };

/* A table of sets of `boxes` live squares: a bit per (set, floor square), can be solved. */
typedef struct set_table {
    int boxes;
    const solver_pairs *squares; /* the live and floor squares' numbers */
    uint64_t *alive;
} set_table;

typedef struct set_search {
    set_table *table;
    const board *board;
    /* sets (their squares, `boxes` each) with regions whose pulls are still to be made */
    int *work;
    size_t work_count;
    uint64_t *queued; /* a bit per set: in `work` */
    int *queue;       /* a flood's squares */
    uint32_t *stamp;  /* per square: the flood that reached it */
    uint32_t flood;
    solver_rows rows; /* the floods by rows, when the board fits (use_rows) */
    bool use_rows;
} set_search;

static bool test_bit(const uint64_t *bits, size_t bit)
{
    return bits[bit >> 6] >> (bit & 63) & 1;
}

static void set_bit(uint64_t *bits, size_t bit)
{
    bits[bit >> 6] |= UINT64_C(1) << (bit & 63);
}

/* The number of the triple of live squares numbered i, j and k (any order) among the live
 * squares: colexicographic, C(i,1) + C(j,2) + C(k,3) for i < j < k. */
static void order(size_t *a, size_t *b)
{
    if (*a > *b) {
        size_t t = *a;
        *a = *b;
        *b = t;
    }
}

static size_t triple_number(size_t i, size_t j, size_t k)
{
    order(&i, &j);
    order(&j, &k);
    order(&i, &j);
    return i + j * (j - 1) / 2 + k * (k - 1) * (k - 2) / 6;
}

/* The number of the set on the live squares `squares`. */
static size_t set_number(const set_table *table, const int *squares)
{
    const solver_pairs *s = table->squares;
    if (table->boxes == 2) return solver_pairs_number(s, squares[0], squares[1]);
    return triple_number((size_t)s->live_index[squares[0]], (size_t)s->live_index[squares[1]],
                         (size_t)s->live_index[squares[2]]);
}

/* The number of sets of `boxes` of `n` live squares. */
static size_t set_count(int boxes, size_t n)
{
    if (n < (size_t)boxes) return 0;
    return boxes == 2 ? n * (n - 1) / 2 : n * (n - 1) * (n - 2) / 6;
}

static bool is_box(const set_table *table, const int *squares, int square)
{
    for (int k = 0; k < table->boxes; k++)
        if (squares[k] == square) return true;
    return false;
}

/* Marks the squares of the player's region among the boxes on `squares`, flooded from
 * `player`, in the bits of their set from `base` on: square by square. */
static void mark_by_squares(set_search *search, const int *squares, int player, size_t base)
{
    const board *board = search->board;
    set_table *table = search->table;
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
        set_bit(table->alive, base + (size_t)table->squares->floor_index[square]);
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + board->delta[d];
            if (search->stamp[next] == stamp || !board_is_inside(board, next) ||
                is_box(table, squares, next))
                continue;
            search->stamp[next] = stamp;
            queue[tail++] = next;
        }
    }
}

/* The same, a row of the board at a time (solver_rows.h). */
static void mark_by_rows(set_search *search, const int *squares, int player, size_t base)
{
    solver_rows *rows = &search->rows;
    set_table *table = search->table;
    for (int k = 0; k < table->boxes; k++) solver_rows_set_box(rows, squares[k], true);
    solver_rows_flood(rows, player);
    for (int k = 0; k < table->boxes; k++) solver_rows_set_box(rows, squares[k], false);
    for (int y = 0; y < rows->height; y++) {
        for (uint64_t word = rows->reach[y]; word; word &= word - 1) {
            int square = y * rows->width + __builtin_ctzll(word);
            set_bit(table->alive, base + (size_t)table->squares->floor_index[square]);
        }
    }
}

/* Marks the player's region of the boxes on `squares`, flooded from `player`, as a
 * position that can be solved, unless it is known, and lists the set for its pulls. */
static void reach_set(set_search *search, const int *squares, int player, size_t set)
{
    set_table *table = search->table;
    size_t base = set * (size_t)table->squares->floor_count;
    if (test_bit(table->alive, base + (size_t)table->squares->floor_index[player])) return;
    if (search->use_rows)
        mark_by_rows(search, squares, player, base);
    else
        mark_by_squares(search, squares, player, base);
    if (!test_bit(search->queued, set)) {
        set_bit(search->queued, set);
        memcpy(search->work + search->work_count * (size_t)table->boxes, squares,
               (size_t)table->boxes * sizeof *squares);
        search->work_count++;
    }
}

static void reach(set_search *search, const int *squares, int player)
{
    reach_set(search, squares, player, set_number(search->table, squares));
}

/* Every pull the player can make from the regions of the set marked so far: standing next
 * to a box, he steps back away from it (onto a free square) and draws it onto his square.
 * The sets pulled to are found first and their bits fetched ahead: each is a miss of the
 * cache in a table of megabytes, and the misses then overlap. */
static void pull_from(set_search *search, const int *squares)
{
    const board *board = search->board;
    const set_table *table = search->table;
    const solver_pairs *s = table->squares;
    size_t floor = (size_t)s->floor_count, base = set_number(table, squares) * floor;
    int moved[MOST_BOXES * DIRECTION_COUNT][MOST_BOXES], back[MOST_BOXES * DIRECTION_COUNT];
    size_t set[MOST_BOXES * DIRECTION_COUNT];
    int count = 0;
    for (int k = 0; k < table->boxes; k++) {
        int box = squares[k];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int square = box - board->delta[d], behind = square - board->delta[d];
            if (!board_is_inside(board, square) || is_box(table, squares, square)) continue;
            if (s->live_index[square] < 0) continue; /* a box drawn here could never leave */
            if (!board_is_inside(board, behind) || is_box(table, squares, behind)) continue;
            if (!test_bit(table->alive, base + (size_t)s->floor_index[square])) continue;
            memcpy(moved[count], squares, (size_t)table->boxes * sizeof *moved[count]);
            moved[count][k] = square;
            back[count] = behind;
            set[count] = set_number(table, moved[count]);
            __builtin_prefetch(
                &table->alive[(set[count] * floor + (size_t)s->floor_index[behind]) >> 6]);
            count++;
        }
    }
    for (int m = 0; m < count; m++) reach_set(search, moved[m], back[m], set[m]);
}

/* The solved position of the boxes on the goals `goals`, the player anywhere, and every
 * position pulled back from it. */
static void search_from(set_search *search, const int *goals)
{
    const board *board = search->board;
    const set_table *table = search->table;
    int boxes = table->boxes;
    for (int k = 0; k < boxes; k++)
        if (table->squares->live_index[goals[k]] < 0) return;
    for (int player = 0; player < board->size; player++)
        if (board_is_inside(board, player) && !is_box(table, goals, player))
            reach(search, goals, player);
    int squares[MOST_BOXES];
    while (search->work_count > 0) {
        search->work_count--;
        memcpy(squares, search->work + search->work_count * (size_t)boxes,
               (size_t)boxes * sizeof *squares);
        size_t set = set_number(table, squares);
        search->queued[set >> 6] &= ~(UINT64_C(1) << (set & 63));
        pull_from(search, squares);
    }
}

/* Fills `table` (its bits cleared) by the retrograde search from every set of goals.
 * False when out of memory or told to stop. */
static bool fill(set_table *table, const board *board, const solver_stop *stop)
{
    size_t sets = set_count(table->boxes, (size_t)table->squares->live_count);
    set_search search = {.table = table, .board = board};
    search.use_rows = solver_rows_fit(board) && solver_rows_init(&search.rows, board);
    search.work = malloc((sets > 0 ? sets : 1) * (size_t)table->boxes * sizeof *search.work);
    search.queued = calloc(sets / 64 + 1, sizeof *search.queued);
    search.queue = malloc((size_t)board->size * sizeof *search.queue);
    search.stamp = calloc((size_t)board->size, sizeof *search.stamp);
    bool ok = search.work && search.queued && search.queue && search.stamp;
    int goals[MOST_BOXES], n = board->goal_count;
    for (int i = 0; ok && i < n; i++) {
        goals[0] = board->goals[i];
        for (int j = i + 1; ok && j < n; j++) {
            goals[1] = board->goals[j];
            if (table->boxes == 2) {
                search_from(&search, goals);
                continue;
            }
            for (int k = j + 1; k < n; k++) {
                goals[2] = board->goals[k];
                search_from(&search, goals);
            }
            ok = !solver_stop_now(stop);
        }
    }
    free(search.work);
    free(search.queued);
    free(search.queue);
    free(search.stamp);
    if (search.use_rows) solver_rows_free(&search.rows);
    return ok;
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
    size_t sets = set_count(2, (size_t)pairs->live_count);
    size_t words = sets * (size_t)pairs->floor_count / 64 + 1;
    /* the table, and the list of pairs to pull from while it is made */
    if (words * sizeof(uint64_t) + sets * 2 * sizeof(int) > most_bytes) {
        solver_pairs_free(pairs);
        return false;
    }
    pairs->alive = calloc(words, sizeof *pairs->alive);
    set_table table = {.boxes = 2, .squares = pairs, .alive = pairs->alive};
    if (!pairs->alive || !fill(&table, board, NULL)) {
        solver_pairs_free(pairs);
        return false;
    }
    return true;
}

/* A growing list of the triples kept: their squares, and their bits (floor_count each,
 * one after the other). */
typedef struct kept_triples {
    int (*squares)[3];
    uint64_t *alive;
    size_t count, room, bits;
} kept_triples;

/* Keeps the triple on `squares` whose bits start at `base` in `table`. False when out of
 * memory. */
static bool keep(kept_triples *kept, const set_table *table, const int *squares, size_t base)
{
    size_t floor = (size_t)table->squares->floor_count;
    if (kept->count == kept->room) {
        size_t room = kept->room ? 2 * kept->room : 64;
        int(*more_squares)[3] = realloc(kept->squares, room * sizeof *kept->squares);
        if (more_squares) kept->squares = more_squares;
        uint64_t *more_alive = realloc(kept->alive, (room * floor / 64 + 1) * sizeof *more_alive);
        if (more_alive) kept->alive = more_alive;
        if (!more_squares || !more_alive) return false;
        kept->room = room;
    }
    memcpy(kept->squares[kept->count], squares, sizeof kept->squares[kept->count]);
    for (size_t f = 0; f < floor; f++, kept->bits++) {
        uint64_t bit = UINT64_C(1) << (kept->bits & 63);
        if (test_bit(table->alive, base + f))
            kept->alive[kept->bits >> 6] |= bit;
        else
            kept->alive[kept->bits >> 6] &= ~bit;
    }
    kept->count++;
    return true;
}

/* True when the triple on `squares` (bits from `base` in `table`) is lost for a square of
 * the player where none of its pairs is. Its own squares are never marked (the player is
 * not on a box): a triple with no other square unmarked is passed over by counting. */
static bool pairs_miss(const solver_pairs *pairs, const set_table *table, const int *squares,
                       size_t base, const int *floor_square)
{
    size_t floor = (size_t)pairs->floor_count, lost = 0;
    for (size_t f = 0; f < floor; f += 64) {
        size_t bit = base + f, n = floor - f < 64 ? floor - f : 64;
        uint64_t word = table->alive[bit >> 6] >> (bit & 63);
        if ((bit & 63) != 0 && (bit & 63) + n > 64)
            word |= table->alive[(bit >> 6) + 1] << (64 - (bit & 63));
        uint64_t unmarked = ~word & (n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1);
        lost += (size_t)__builtin_popcountll(unmarked);
    }
    if (lost <= 3) return false;
    for (size_t f = 0; f < floor; f++) {
        int q = floor_square[f];
        if (test_bit(table->alive, base + f) || q == squares[0] || q == squares[1] ||
            q == squares[2])
            continue;
        if (!solver_pairs_lost(pairs, squares[0], squares[1], q) &&
            !solver_pairs_lost(pairs, squares[0], squares[2], q) &&
            !solver_pairs_lost(pairs, squares[1], squares[2], q))
            return true;
    }
    return false;
}

/* Lists the triples kept under each of their squares, in `triples`. False when out of
 * memory. */
static bool list_triples(solver_triples *triples, const solver_pairs *pairs, const board *board,
                         kept_triples *kept)
{
    triples->first = calloc((size_t)board->size + 1, sizeof *triples->first);
    triples->listed = malloc((3 * kept->count + 1) * sizeof *triples->listed);
    int *next = malloc((size_t)board->size * sizeof *next);
    if (!triples->first || !triples->listed || !next) {
        free(next);
        return false;
    }
    for (size_t t = 0; t < kept->count; t++)
        for (int m = 0; m < 3; m++) triples->first[kept->squares[t][m] + 1]++;
    for (int q = 0; q < board->size; q++) triples->first[q + 1] += triples->first[q];
    memcpy(next, triples->first, (size_t)board->size * sizeof *next);
    for (size_t t = 0; t < kept->count; t++) {
        for (int m = 0; m < 3; m++) {
            solver_triple *triple = &triples->listed[next[kept->squares[t][m]]++];
            triple->other[0] = kept->squares[t][(m + 1) % 3];
            triple->other[1] = kept->squares[t][(m + 2) % 3];
            triple->bits = t * (size_t)pairs->floor_count;
        }
    }
    free(next);
    triples->alive = kept->alive;
    kept->alive = NULL;
    triples->count = (int)kept->count;
    return true;
}

bool solver_triples_init(solver_triples *triples, const solver_pairs *pairs, const board *board,
                         size_t most_bytes, const solver_stop *stop)
{
    memset(triples, 0, sizeof *triples);
    if (!pairs->alive || board->goal_count < 3) return false;
    size_t n = (size_t)pairs->live_count, floor = (size_t)pairs->floor_count;
    size_t sets = set_count(3, n), words = sets * floor / 64 + 1;
    if (words * sizeof(uint64_t) + sets * 3 * sizeof(int) + sets / 8 > most_bytes) return false;
    set_table table = {.boxes = 3, .squares = pairs, .alive = calloc(words, sizeof(uint64_t))};
    int *live_square = malloc((n > 0 ? n : 1) * sizeof *live_square);
    int *floor_square = malloc((floor > 0 ? floor : 1) * sizeof *floor_square);
    kept_triples kept = {0};
    bool ok = table.alive && live_square && floor_square && fill(&table, board, stop);
    if (ok) {
        for (int q = 0; q < board->size; q++) {
            if (pairs->live_index[q] >= 0) live_square[pairs->live_index[q]] = q;
            if (pairs->floor_index[q] >= 0) floor_square[pairs->floor_index[q]] = q;
        }
        /* in the order of their numbers: i < j < k */
        size_t base = 0;
        for (size_t k = 2; ok && k < n; k++) {
            for (size_t j = 1; ok && j < k; j++) {
                for (size_t i = 0; ok && i < j; i++, base += floor) {
                    int squares[3] = {live_square[i], live_square[j], live_square[k]};
                    if (pairs_miss(pairs, &table, squares, base, floor_square))
                        ok = keep(&kept, &table, squares, base);
                }
            }
            ok = ok && !solver_stop_now(stop);
        }
    }
    ok = ok && list_triples(triples, pairs, board, &kept);
    free(kept.squares);
    free(kept.alive);
    free(table.alive);
    free(live_square);
    free(floor_square);
    if (!ok) solver_triples_free(triples);
    return ok;
}

void solver_triples_free(solver_triples *triples)
{
    free(triples->first);
    free(triples->listed);
    free(triples->alive);
    memset(triples, 0, sizeof *triples);
}

void solver_pairs_free(solver_pairs *pairs)
{
    free(pairs->live_index);
    free(pairs->floor_index);
    free(pairs->alive);
    memset(pairs, 0, sizeof *pairs);
}
