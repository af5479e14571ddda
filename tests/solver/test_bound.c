/* test_bound.c - the push distances and the matching bound (solver_bound.h): a box in a
 * corridor is as many pushes from the goal as squares, with the player behind it and not in
 * front; a square a box can never leave towards a goal is dead; the matching gives each box
 * its own goal, at least the sum of the nearest distances. Levels drawn inline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "solver/solver_bound.h"
#include "solver_board.h"

static void test_a_box_in_a_corridor_is_its_squares_from_the_goal(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, "#######\n"
                               "#@ $ .#\n"
                               "#######\n");
    int box = solver_board_square(&f, 3, 1);
    assert_int_equal(f.distances.nearest[box], 2);
    assert_int_equal(solver_distance_row(&f.distances, box, -1)[0], 2);
    /* the player on its left pushes it there; on its right he can never get behind it */
    assert_int_equal(solver_distance_row(&f.distances, box, DIR_LEFT)[0], 2);
    assert_int_equal(solver_distance_row(&f.distances, box, DIR_RIGHT)[0], SOLVER_NO_PATH);
    assert_int_equal(f.distances.nearest[solver_board_square(&f, 5, 1)], 0); /* on the goal */
    solver_board_free(&f);
}

static void test_the_corridors_end_is_dead(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, "#######\n"
                               "#@ $ .#\n"
                               "#######\n");
    assert_true(solver_square_is_dead(&f.distances, solver_board_square(&f, 1, 1)));
    assert_false(solver_square_is_dead(&f.distances, solver_board_square(&f, 2, 1)));
    solver_board_free(&f);
}

static void test_a_corner_off_the_goals_is_dead_and_a_goal_in_one_is_not(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, "######\n"
                               "#.   #\n"
                               "# $@ #\n"
                               "#    #\n"
                               "######\n");
    assert_true(solver_square_is_dead(&f.distances, solver_board_square(&f, 4, 3)));
    assert_true(solver_square_is_dead(&f.distances, solver_board_square(&f, 4, 1)));
    assert_false(solver_square_is_dead(&f.distances, solver_board_square(&f, 1, 1)));
    assert_int_equal(f.distances.nearest[solver_board_square(&f, 2, 2)], 2);
    solver_board_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_box_in_a_corridor_is_its_squares_from_the_goal),
        cmocka_unit_test(test_the_corridors_end_is_dead),
        cmocka_unit_test(test_a_corner_off_the_goals_is_dead_and_a_goal_in_one_is_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
