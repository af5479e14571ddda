/* test_rows.c - floods over rows of bits (solver_rows.h): on every XSokoban level, with
 * boxes put on and taken off at random, a flood from each of many squares reaches the same
 * squares, and names the same least square, as a flood square by square (and each floor
 * square's first side in the reach, solver_rows_first_side), and the floor falls into as
 * many regions; boards too wide or with floor on an edge row are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rules/board.h"
#include "level/collection.h"
#include "flood_squares.h"
#include "solver/solver_rows.h"

/* The regions of the floor among `boxes`, leaving out those of `seen` when `but`. */
static int regions(const board *b, const uint8_t *boxes, bool but, const uint8_t *seen,
                   uint8_t *mark, int *queue)
{
    int count = 0;
    uint8_t *taken = malloc((size_t)b->size);
    assert_non_null(taken);
    memset(taken, 0, (size_t)b->size);
    for (int s = 0; s < b->size; s++) {
        if (!board_is_inside(b, s) || boxes[s] || taken[s] || (but && seen[s])) continue;
        flood_squares(b, boxes, -1, -1, s, mark, queue);
        for (int k = 0; k < b->size; k++) taken[k] |= mark[k];
        count++;
    }
    free(taken);
    return count;
}

/* A level on rows of bits whose boxes are put on and taken off at random: its board and
 * rows, its boxes (none at first: the level's own are left out) and its floor squares. */
typedef struct random_boxes {
    board b;
    position start;
    solver_rows rows;
    uint8_t *boxes;
    int *floor, count;
} random_boxes;

static void random_boxes_init(random_boxes *r, const level *level)
{
    assert_true(board_from_level(level, &r->b, &r->start));
    assert_true(solver_rows_fit(&r->b));
    assert_true(solver_rows_init(&r->rows, &r->b));
    r->boxes = calloc((size_t)r->b.size, 1);
    r->floor = malloc((size_t)r->b.size * sizeof *r->floor);
    assert_non_null(r->boxes);
    assert_non_null(r->floor);
    r->count = 0;
    for (int s = 0; s < r->b.size; s++) {
        if (board_is_inside(&r->b, s)) r->floor[r->count++] = s;
    }
}

/* A floor square drawn at random. */
static int random_floor(const random_boxes *r, unsigned *seed)
{
    return r->floor[rand_r(seed) % (unsigned)r->count];
}

/* A box put on or taken off a floor square drawn at random. */
static void random_boxes_toggle(random_boxes *r, unsigned *seed)
{
    int square = random_floor(r, seed);
    r->boxes[square] ^= 1;
    solver_rows_set_box(&r->rows, square, r->boxes[square]);
}

static void random_boxes_free(random_boxes *r)
{
    free(r->boxes);
    free(r->floor);
    solver_rows_free(&r->rows);
    position_free(&r->start);
    board_free(&r->b);
}

static void test_agrees_with_square_floods(void **state)
{
    (void)state;
    collection c;
    level_error error;
    assert_true(collection_load(TEST_LEVELS_DIR "/xsokoban.xsb", &c, &error));
    unsigned seed = 12345;
    long floods = 0;
    for (int number = 1; number <= c.count; number++) {
        random_boxes r;
        random_boxes_init(&r, &c.levels[number - 1]);
        uint8_t *seen = malloc((size_t)r.b.size);
        uint8_t *mark = malloc((size_t)r.b.size);
        uint64_t *left = malloc((size_t)r.b.height * sizeof *left);
        uint64_t *region = malloc((size_t)r.b.height * sizeof *region);
        assert_non_null(mark);
        assert_non_null(left);
        assert_non_null(region);
        int *queue = malloc((size_t)r.b.size * sizeof *queue);
        assert_non_null(seen);
        assert_non_null(queue);
        for (int round = 0; round < 200; round++) {
            random_boxes_toggle(&r, &seed);
            int from = random_floor(&r, &seed);
            if (r.boxes[from]) continue;
            int least = flood_squares(&r.b, r.boxes, -1, -1, from, seen, queue);
            assert_int_equal(solver_rows_flood(&r.rows, from), least);
            for (int s = 0; s < r.b.size; s++)
                assert_int_equal(solver_rows_reached(&r.rows, s), seen[s]);
            /* each floor square's first side the flood reached, as the search asks it */
            for (int k = 0; k < r.count; k++) {
                int side = -1;
                for (int d = 0; d < DIRECTION_COUNT && side < 0; d++)
                    if (seen[r.floor[k] + r.b.delta[d]]) side = d;
                assert_int_equal(solver_rows_first_side(&r.rows, r.rows.reach, r.floor[k]), side);
            }
            floods++;
            if (round % 10 == 0) {
                assert_int_equal(solver_rows_regions(&r.rows, true, left, region),
                                 regions(&r.b, r.boxes, true, seen, mark, queue));
                assert_int_equal(solver_rows_regions(&r.rows, false, left, region),
                                 regions(&r.b, r.boxes, false, seen, mark, queue));
            }
        }
        free(seen);
        free(queue);
        free(mark);
        free(left);
        free(region);
        random_boxes_free(&r);
    }
    assert_true(floods > 5000);
    collection_free(&c);
}

/* The regions of the floor off the player's reach next to a square are those a flood square
 * by square finds from its sides, each counted once, on every XSokoban level with boxes put on and
 * taken off at random; and some squares have two or more. */
static void test_regions_beside_a_square(void **state)
{
    (void)state;
    collection c;
    level_error error;
    assert_true(collection_load(TEST_LEVELS_DIR "/xsokoban.xsb", &c, &error));
    unsigned seed = 777;
    long asked = 0, several = 0;
    for (int number = 1; number <= c.count; number++) {
        random_boxes r;
        random_boxes_init(&r, &c.levels[number - 1]);
        uint8_t *reach = malloc((size_t)r.b.size);
        uint8_t *taken = calloc((size_t)r.b.size, 1);
        uint8_t *mark = malloc((size_t)r.b.size);
        int *queue = malloc((size_t)r.b.size * sizeof *queue);
        uint64_t *left = malloc((size_t)r.b.height * sizeof *left);
        uint64_t *region = malloc((size_t)r.b.height * sizeof *region);
        assert_true(reach && taken && mark && queue && left && region);
        for (int round = 0; round < 200; round++) {
            random_boxes_toggle(&r, &seed);
            int player = random_floor(&r, &seed), square = random_floor(&r, &seed);
            if (r.boxes[player]) continue;
            flood_squares(&r.b, r.boxes, -1, -1, player, reach, queue);
            solver_rows_flood(&r.rows, player);
            /* square by square: a region off the reach for each side not in one counted */
            memset(taken, 0, (size_t)r.b.size);
            int expected = 0;
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int next = square + r.b.delta[d];
                if (!board_is_inside(&r.b, next) || r.boxes[next] || next == square ||
                    reach[next] || taken[next])
                    continue;
                flood_squares(&r.b, r.boxes, -1, square, next, mark, queue);
                for (int k = 0; k < r.b.size; k++) taken[k] |= mark[k];
                expected++;
            }
            /* the square itself holds a box, as after a push there */
            bool free_square = !r.boxes[square];
            if (free_square) {
                r.boxes[square] = 1;
                solver_rows_set_box(&r.rows, square, true);
            }
            for (int y = 0; y < r.b.height; y++) left[y] = r.rows.open[y] & ~r.rows.reach[y];
            assert_int_equal(solver_rows_regions_beside(&r.rows, left, square, region), expected);
            if (free_square) {
                r.boxes[square] = 0;
                solver_rows_set_box(&r.rows, square, false);
            }
            asked++;
            several += expected >= 2;
        }
        free(reach);
        free(taken);
        free(mark);
        free(queue);
        free(left);
        free(region);
        random_boxes_free(&r);
    }
    assert_true(asked > 5000);
    assert_true(several > 0);
    collection_free(&c);
}

/* A box put on a square the rows call joined round leaves the floor in as many regions,
 * along random walks on every XSokoban level; and the test says yes often. */
static void test_joined_round_keeps_the_regions(void **state)
{
    (void)state;
    collection c;
    level_error error;
    assert_true(collection_load(TEST_LEVELS_DIR "/xsokoban.xsb", &c, &error));
    unsigned seed = 4242;
    long asked = 0, joined = 0;
    for (int number = 1; number <= c.count; number++) {
        random_boxes r;
        random_boxes_init(&r, &c.levels[number - 1]);
        uint8_t *mark = malloc((size_t)r.b.size);
        int *queue = malloc((size_t)r.b.size * sizeof *queue);
        assert_non_null(mark);
        assert_non_null(queue);
        for (int round = 0; round < 60; round++) {
            random_boxes_toggle(&r, &seed);
            int at = random_floor(&r, &seed);
            if (r.boxes[at]) continue;
            /* a square also free: one of at's sides, with a box put there */
            int side = at + r.b.delta[rand_r(&seed) % DIRECTION_COUNT];
            int also =
                board_is_inside(&r.b, side) && !r.boxes[side] && rand_r(&seed) % 2 ? side : -1;
            if (also >= 0) {
                r.boxes[also] = 1;
                solver_rows_set_box(&r.rows, also, true);
            }
            asked++;
            if (solver_rows_joined_round(&r.rows, r.rows.open, at, also)) {
                joined++;
                if (also >= 0) {
                    r.boxes[also] = 0;
                    solver_rows_set_box(&r.rows, also, false);
                }
                int before = regions(&r.b, r.boxes, false, NULL, mark, queue);
                r.boxes[at] = 1;
                int after = regions(&r.b, r.boxes, false, NULL, mark, queue);
                r.boxes[at] = 0;
                assert_int_equal(after, before);
            } else if (also >= 0) {
                r.boxes[also] = 0;
                solver_rows_set_box(&r.rows, also, false);
            }
        }
        free(mark);
        free(queue);
        random_boxes_free(&r);
    }
    assert_true(joined > asked / 4);
    collection_free(&c);
}

/* The reach after a push or a pull made from the reach before, where it is made, is the
 * flood's, with the same least square, along random walks on every XSokoban level (boxes
 * put on and taken off at random squares); and it is made for many. */
static void test_reach_after_a_move_is_the_flood(void **state)
{
    (void)state;
    collection c;
    level_error error;
    assert_true(collection_load(TEST_LEVELS_DIR "/xsokoban.xsb", &c, &error));
    unsigned seed = 777;
    long moves = 0, made = 0;
    for (int number = 1; number <= c.count; number++) {
        random_boxes r;
        random_boxes_init(&r, &c.levels[number - 1]);
        size_t height = (size_t)r.b.height;
        uint64_t *before = malloc(height * sizeof *before), *after = malloc(height * sizeof *after);
        assert_non_null(before);
        assert_non_null(after);
        for (int round = 0; round < 300; round++) {
            random_boxes_toggle(&r, &seed);
            /* a box on `from` goes to `to`: pushed by a player behind it, or pulled by one
             * on `to` who steps on */
            int from = random_floor(&r, &seed);
            int d = (int)(rand_r(&seed) % DIRECTION_COUNT);
            bool pulled = rand_r(&seed) % 2;
            int to = from + r.b.delta[d], player = pulled ? to : from - r.b.delta[d];
            int step = to + r.b.delta[d];
            if (!r.boxes[from] || !board_is_inside(&r.b, to) || r.boxes[to] ||
                !board_is_inside(&r.b, player) || r.boxes[player] ||
                (pulled && (!board_is_inside(&r.b, step) || r.boxes[step])))
                continue;
            int least = solver_rows_flood_into(&r.rows, player, before);
            r.boxes[from] = 0;
            r.boxes[to] = 1;
            solver_rows_set_box(&r.rows, from, false);
            solver_rows_set_box(&r.rows, to, true);
            moves++;
            int region =
                solver_rows_reach_after_move(&r.rows, before, least, from, to, pulled, after);
            if (region >= 0) {
                made++;
                assert_int_equal(solver_rows_flood(&r.rows, pulled ? step : from), region);
                assert_memory_equal(r.rows.reach, after, height * sizeof *after);
                assert_int_equal(
                    solver_rows_reach_after_move(&r.rows, before, least, from, to, pulled, NULL),
                    region);
            }
        }
        free(before);
        free(after);
        random_boxes_free(&r);
    }
    assert_true(moves > 1000 && made > moves / 4); /* 656 of 1,784 */
    collection_free(&c);
}

/* Round a pillar the floor is joined within the five by five squares; in a corridor, and
 * at a pocket's mouth, it is not. */
static void test_joined_round_a_pillar(void **state)
{
    (void)state;
    const char *text = "#######\n"
                       "#     #\n"
                       "# # # #\n"
                       "#  @  #\n"
                       "##### #\n"
                       "#.$   #\n"
                       "#######\n";
    collection c;
    level_error error;
    assert_true(collection_parse(text, strlen(text), "pillar", &c, &error));
    board b;
    position start;
    assert_true(board_from_level(&c.levels[0], &b, &start));
    solver_rows rows;
    assert_true(solver_rows_init(&rows, &b));
    int w = b.width;
    /* (column, row): (3, 2) between two pillars, its sides meeting round them (not within
     * the eight squares round it); the player's (3, 3) round either pillar */
    assert_true(solver_rows_joined_round(&rows, rows.open, 2 * w + 3, -1));
    assert_true(solver_rows_joined_round(&rows, rows.open, 3 * w + 3, -1));
    /* the corridor's (5, 4) cuts the bottom row off the rest */
    assert_false(solver_rows_joined_round(&rows, rows.open, 4 * w + 5, -1));
    /* the box on (2, 5) shuts the goal (1, 5) in */
    assert_false(solver_rows_joined_round(&rows, rows.open, 5 * w + 2, -1));
    solver_rows_free(&rows);
    position_free(&start);
    board_free(&b);
    collection_free(&c);
}

static void test_refuses_what_does_not_fit(void **state)
{
    (void)state;
    char text[512];
    /* 70 squares wide */
    int n = 0;
    for (int i = 0; i < 70; i++) text[n++] = '#';
    text[n++] = '\n';
    n += snprintf(text + n, sizeof text - (size_t)n, "#@$.");
    for (int i = 4; i < 69; i++) text[n++] = ' ';
    text[n++] = '#';
    text[n++] = '\n';
    for (int i = 0; i < 70; i++) text[n++] = '#';
    text[n++] = '\n';
    text[n] = '\0';
    collection c;
    level_error error;
    assert_true(collection_parse(text, strlen(text), "wide", &c, &error));
    board b;
    position start;
    assert_true(board_from_level(&c.levels[0], &b, &start));
    assert_false(solver_rows_fit(&b));
    position_free(&start);
    board_free(&b);
    collection_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agrees_with_square_floods),
        cmocka_unit_test(test_joined_round_keeps_the_regions),
        cmocka_unit_test(test_joined_round_a_pillar),
        cmocka_unit_test(test_regions_beside_a_square),
        cmocka_unit_test(test_reach_after_a_move_is_the_flood),
        cmocka_unit_test(test_refuses_what_does_not_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
