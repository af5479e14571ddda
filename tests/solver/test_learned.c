/* test_learned.c - what the searches on one board learn (solver_learned.h): made for a board
 * it fits that board and any level with the same walls and goals, not one that differs by a
 * goal or a wall; it is kept whatever the boxes and the player; NULL fits nothing and frees
 * harmlessly. Levels drawn inline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "solver/solver_learned.h"
#include "solver_board.h"

static void test_it_fits_its_board_whatever_the_boxes(void **state)
{
    (void)state;
    solver_board a, b;
    solver_board_from_text(&a, "#######\n"
                               "#@ $ .#\n"
                               "#######\n");
    solver_board_from_text(&b, "#######\n"
                               "# $ @.#\n"
                               "#######\n"); /* the same squares, the box and player moved */
    solver_learned *learned = solver_learned_new(&a.board);
    assert_non_null(learned);
    assert_true(solver_learned_fits(learned, &a.board));
    assert_true(solver_learned_fits(learned, &b.board));
    assert_non_null(solver_learned_corrals(learned));
    assert_non_null(solver_learned_patterns(learned));
    solver_learned_free(learned);
    solver_board_free(&a);
    solver_board_free(&b);
}

static void test_another_goal_or_wall_does_not_fit(void **state)
{
    (void)state;
    solver_board a, goal, wall;
    solver_board_from_text(&a, "#######\n"
                               "#     #\n"
                               "#@ $ .#\n"
                               "#######\n");
    solver_board_from_text(&goal, "#######\n"
                                  "#    .#\n"
                                  "#@ $  #\n"
                                  "#######\n");
    solver_board_from_text(&wall, "#######\n"
                                  "#  #  #\n"
                                  "#@ $ .#\n"
                                  "#######\n");
    solver_learned *learned = solver_learned_new(&a.board);
    assert_non_null(learned);
    assert_false(solver_learned_fits(learned, &goal.board));
    assert_false(solver_learned_fits(learned, &wall.board));
    solver_learned_free(learned);
    solver_board_free(&a);
    solver_board_free(&goal);
    solver_board_free(&wall);
}

static void test_none_fits_nothing(void **state)
{
    (void)state;
    solver_board a;
    solver_board_from_text(&a, "#######\n"
                               "#@ $ .#\n"
                               "#######\n");
    assert_false(solver_learned_fits(NULL, &a.board));
    solver_learned_free(NULL);
    solver_board_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_it_fits_its_board_whatever_the_boxes),
        cmocka_unit_test(test_another_goal_or_wall_does_not_fit),
        cmocka_unit_test(test_none_fits_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
