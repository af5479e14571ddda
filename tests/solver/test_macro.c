/* test_macro.c - the tunnel macros and the rest squares (solver_macro.h): a box pushed into
 * a one-wide corridor goes on until it leaves it, stops on a goal in it or before a box; in
 * the open it is one push; a square a box enters from a corridor and cannot leave across is
 * no rest square, nor is a dead one. Levels drawn inline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "solver/solver_macro.h"
#include "solver_board.h"

/* The macro length of pushing the box on (x, y) in direction d, with the level's boxes. */
static int tunnel(const solver_board *f, int x, int y, direction d)
{
    return solver_macro_tunnel_length(&f->board, f->start.boxes, &f->distances,
                                      solver_board_square(f, x, y), d, NULL);
}

static void test_a_box_in_a_corridor_goes_on_to_its_end(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, "###########\n"
                               "#   ###   #\n"
                               "#  @$    .#\n"
                               "#   ###   #\n"
                               "###########\n");
    /* in the corridor x=4..6, the player behind it: pushed right it goes on to x=7, out */
    assert_int_equal(tunnel(&f, 4, 2, DIR_RIGHT), 3);
    solver_board_free(&f);
}

static void test_a_goal_in_the_corridor_stops_the_box(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, "###########\n"
                               "#   ###   #\n"
                               "#  @$ .   #\n"
                               "#   ###   #\n"
                               "###########\n");
    assert_int_equal(tunnel(&f, 4, 2, DIR_RIGHT), 2); /* onto the goal at x=6 */
    solver_board_free(&f);
}

static void test_a_push_in_the_open_is_one_push(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, "#######\n"
                               "#     #\n"
                               "# @$ .#\n"
                               "#     #\n"
                               "#######\n");
    assert_int_equal(tunnel(&f, 3, 2, DIR_RIGHT), 1);
    solver_board_free(&f);
}

static void test_dead_squares_are_no_rest_squares(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, "#######\n"
                               "#     #\n"
                               "# @$ .#\n"
                               "#     #\n"
                               "#######\n");
    uint8_t *rest = malloc((size_t)f.board.size);
    assert_non_null(rest);
    solver_macro_rest_squares(&f.board, &f.distances, rest);
    assert_int_equal(rest[solver_board_square(&f, 1, 1)], 0); /* a corner: dead */
    assert_int_equal(rest[solver_board_square(&f, 0, 0)], 0); /* a wall */
    assert_int_equal(rest[solver_board_square(&f, 3, 2)], 1); /* open floor */
    assert_int_equal(rest[solver_board_square(&f, 5, 2)], 1); /* the goal */
    free(rest);
    solver_board_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_box_in_a_corridor_goes_on_to_its_end),
        cmocka_unit_test(test_a_goal_in_the_corridor_stops_the_box),
        cmocka_unit_test(test_a_push_in_the_open_is_one_push),
        cmocka_unit_test(test_dead_squares_are_no_rest_squares),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
