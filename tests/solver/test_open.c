/* test_open.c - the fast mode's open lists (solver_open.h): a cell gives its lowest
 * priority first, the cells take turns (FESS's round robin), the second list gives every
 * other state, and empty lists give -1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "solver/solver_open.h"

static void test_a_cell_gives_its_lowest_priority_first(void **state)
{
    (void)state;
    solver_open open;
    assert_true(solver_open_init(&open, 1, false));
    assert_true(solver_open_push(&open, 0, 5, 100));
    assert_true(solver_open_push(&open, 0, 1, 101));
    assert_true(solver_open_push(&open, 0, 3, 102));
    assert_int_equal(open.count, 3);
    assert_int_equal(solver_open_pop(&open), 101);
    assert_int_equal(solver_open_pop(&open), 102);
    assert_int_equal(solver_open_pop(&open), 100);
    assert_int_equal(solver_open_pop(&open), -1);
    assert_int_equal(open.count, 0);
    solver_open_free(&open);
}

static void test_the_cells_take_turns(void **state)
{
    (void)state;
    solver_open open;
    assert_true(solver_open_init(&open, 3, false));
    assert_true(solver_open_push(&open, 0, 1, 10));
    assert_true(solver_open_push(&open, 0, 2, 11));
    assert_true(solver_open_push(&open, 2, 9, 30)); /* cell 1 stays empty: skipped */
    assert_int_equal(solver_open_pop(&open), 10);
    assert_int_equal(solver_open_pop(&open), 30); /* a worse priority, but its cell's turn */
    assert_int_equal(solver_open_pop(&open), 11);
    assert_int_equal(solver_open_pop(&open), -1);
    solver_open_free(&open);
}

static void test_the_second_list_gives_every_other_state(void **state)
{
    (void)state;
    solver_open open;
    assert_true(solver_open_init(&open, 1, true));
    assert_true(solver_open_push(&open, 0, 1, 1));
    assert_true(solver_open_push(&open, 0, 2, 2));
    assert_true(solver_open_push_second(&open, 7, 20));
    assert_true(solver_open_push_second(&open, 4, 21));
    assert_int_equal(solver_open_pop(&open), 1);
    assert_int_equal(solver_open_pop(&open), 21);
    assert_int_equal(solver_open_pop(&open), 2);
    assert_int_equal(solver_open_pop(&open), 20);
    assert_int_equal(solver_open_pop(&open), -1);
    solver_open_free(&open);
}

static void test_an_empty_cell_list_falls_back_on_the_second(void **state)
{
    (void)state;
    solver_open open;
    assert_true(solver_open_init(&open, 2, true));
    assert_true(solver_open_push_second(&open, 3, 5));
    assert_true(solver_open_push_second(&open, 2, 6));
    assert_int_equal(solver_open_pop(&open), 6); /* the cells' turn, but they are empty */
    assert_int_equal(solver_open_pop(&open), 5);
    assert_int_equal(solver_open_pop(&open), -1);
    solver_open_free(&open);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_cell_gives_its_lowest_priority_first),
        cmocka_unit_test(test_the_cells_take_turns),
        cmocka_unit_test(test_the_second_list_gives_every_other_state),
        cmocka_unit_test(test_an_empty_cell_list_falls_back_on_the_second),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
