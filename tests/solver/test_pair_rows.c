/* test_pair_rows.c - the two-box deadlocks of one box as a row of bits (solver_pair_rows.h):
 * two boxes side by side against a wall, off their goals, are lost and a box away from the
 * other is not; on crowded levels, for every live square of a box, every square of the
 * player and random sets of other boxes, the row says lost exactly where the pair table
 * asked box by box does; a row is made once and kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "solver/solver_pair_rows.h"
#include "solver/solver_pairs.h"
#include "solver_board.h"

typedef struct fixture {
    solver_board level; /* the level, its board and push distances (tests/support) */
    solver_pairs pairs;
    solver_pair_rows rows;
    uint8_t *boxes; /* a byte per square, 1 under a box */
} fixture;

static void fixture_from_text(fixture *f, const char *text)
{
    solver_board_from_text(&f->level, text);
    assert_true(solver_pairs_init(&f->pairs, &f->level.board, &f->level.distances, 1u << 24));
    assert_true(solver_pair_rows_init(&f->rows, &f->pairs, &f->level.board));
    f->boxes = calloc((size_t)f->level.board.size, 1);
    assert_non_null(f->boxes);
}

static void fixture_free(fixture *f)
{
    free(f->boxes);
    solver_pair_rows_free(&f->rows);
    solver_pairs_free(&f->pairs);
    solver_board_free(&f->level);
}

static int square(const fixture *f, int x, int y)
{
    return solver_board_square(&f->level, x, y);
}

/* Two boxes side by side against the top wall, off their goals, can never leave it: each
 * stands where the player would push the other from. */
static const char along_the_wall[] = "#######\n"
                                     "#.   .#\n"
                                     "# $@$ #\n"
                                     "#     #\n"
                                     "#######\n";

static void test_two_boxes_along_a_wall_are_lost_and_apart_are_not(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, along_the_wall);
    int a = square(&f, 2, 1), b = square(&f, 3, 1), player = square(&f, 3, 2);
    f.boxes[a] = f.boxes[b] = 1;
    assert_true(solver_pair_rows_lost(&f.rows, f.boxes, a, player));
    assert_true(solver_pair_rows_lost(&f.rows, f.boxes, b, player));
    /* the same box with the other one away from it: no pair is lost */
    f.boxes[b] = 0;
    f.boxes[square(&f, 4, 2)] = 1;
    assert_false(solver_pair_rows_lost(&f.rows, f.boxes, a, player));
    fixture_free(&f);
}

static void test_a_row_is_made_once_and_kept(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, along_the_wall);
    int a = square(&f, 2, 1), player = square(&f, 3, 2);
    f.boxes[a] = f.boxes[square(&f, 3, 1)] = 1;
    assert_true(solver_pair_rows_lost(&f.rows, f.boxes, a, player));
    assert_int_equal(f.rows.made_count, 1);
    assert_true(solver_pair_rows_lost(&f.rows, f.boxes, a, player));
    assert_int_equal(f.rows.made_count, 1);
    fixture_free(&f);
}

/* Levels with walls, corners and corridors, where many pairs are lost. */
static const char *const levels[] = {
    "        #####\n"
    "        #   #####\n"
    "        # #$##  #\n"
    "        #     $ #\n"
    "######### ###   #\n"
    "#....  ## $  $###\n"
    "#....    $ $$ ##\n"
    "#....  ##$  $ @#\n"
    "#########  $  ##\n"
    "        # $ $  #\n"
    "        ### ## #\n"
    "          #    #\n"
    "          ######\n",
    "#######\n"
    "#.@ # #\n"
    "#$* $ #\n"
    "#   $ #\n"
    "# ..  #\n"
    "#  *  #\n"
    "#######\n",
};

static void test_the_row_says_what_the_pair_table_says_box_by_box(void **state)
{
    (void)state;
    int lost = 0, checked = 0;
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        fixture f;
        fixture_from_text(&f, levels[l]);
        const board *b = &f.level.board;
        unsigned seed = 2026u + (unsigned)l;
        for (int q = 0; q < b->size; q++) {
            if (f.pairs.live_index[q] < 0) continue;
            for (int player = 0; player < b->size; player++) {
                if (!board_is_inside(b, player) || player == q) continue;
                /* a random set of other boxes, about one square in four */
                memset(f.boxes, 0, (size_t)b->size);
                f.boxes[q] = 1;
                for (int other = 0; other < b->size; other++) {
                    seed = seed * 1103515245u + 12345u;
                    if (other != q && other != player && board_is_inside(b, other) &&
                        (seed >> 16) % 4 == 0)
                        f.boxes[other] = 1;
                }
                bool expected = false;
                for (int other = 0; other < b->size; other++)
                    if (f.boxes[other] && other != q &&
                        solver_pairs_lost(&f.pairs, q, other, player))
                        expected = true;
                assert_int_equal(solver_pair_rows_lost(&f.rows, f.boxes, q, player), expected);
                lost += expected;
                checked++;
            }
        }
        fixture_free(&f);
    }
    assert_true(lost > 100);           /* lost pairs were met */
    assert_true(checked - lost > 100); /* and positions with none */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_boxes_along_a_wall_are_lost_and_apart_are_not),
        cmocka_unit_test(test_a_row_is_made_once_and_kept),
        cmocka_unit_test(test_the_row_says_what_the_pair_table_says_box_by_box),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
