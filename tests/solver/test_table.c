/* test_table.c - the transposition table and the Zobrist keys (solver_table.h): a position
 * is entered once per iteration at its least cost, a cheaper path enters again, a dearer one
 * never; a look answers as a visit would and keeps nothing; a full table still answers; the
 * keys repeat from run to run and differ between squares. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "solver/solver_table.h"

static void test_a_position_is_entered_once_per_iteration_at_its_least_cost(void **state)
{
    (void)state;
    solver_table table;
    assert_true(solver_table_init(&table, (size_t)1 << 20));
    uint64_t key = 0x123456789abcdefULL;
    assert_true(solver_table_enter(&table, key, 5, 1));     /* first seen */
    assert_false(solver_table_enter(&table, key, 5, 1));    /* again, same cost, same iteration */
    assert_false(solver_table_enter(&table, key, 6, 1));    /* dearer */
    assert_true(solver_table_enter(&table, key, 4, 1));     /* cheaper: searched again */
    assert_true(solver_table_enter(&table, key, 4, 2));     /* the next iteration */
    assert_false(solver_table_enter(&table, key, 6, 3));    /* dearer, in any iteration */
    assert_true(solver_table_enter(&table, key + 1, 9, 3)); /* another position */
    solver_table_free(&table);
}

/* A look answers what a visit would, and keeps nothing: a search that keeps only the states
 * it will expand looks first (solver_domain.c). */
static void test_a_look_answers_as_a_visit_would_and_keeps_nothing(void **state)
{
    (void)state;
    solver_table table;
    assert_true(solver_table_init(&table, (size_t)1 << 20));
    uint64_t key = 0x123456789abcdefULL;
    assert_int_equal(solver_table_look(&table, key, 5, 1), SOLVER_TABLE_ENTERED);
    assert_int_equal(solver_table_look(&table, key, 5, 1), SOLVER_TABLE_ENTERED); /* not kept */
    assert_int_equal(solver_table_visit(&table, key, 5, 1), SOLVER_TABLE_ENTERED);
    assert_int_equal(solver_table_look(&table, key, 5, 1), SOLVER_TABLE_CUT);     /* kept */
    assert_int_equal(solver_table_look(&table, key, 6, 1), SOLVER_TABLE_CUT);     /* dearer */
    assert_int_equal(solver_table_look(&table, key, 4, 1), SOLVER_TABLE_ENTERED); /* cheaper */
    assert_int_equal(solver_table_look(&table, key, 5, 2), SOLVER_TABLE_ENTERED); /* next one */
    assert_int_equal(solver_table_look(&table, key + 1, 9, 1), SOLVER_TABLE_ENTERED);
    solver_table_share(&table);
    assert_int_equal(solver_table_visit(&table, key, 5, 2), SOLVER_TABLE_ENTERED);
    /* another thread is below it: helped, as a visit says */
    assert_int_equal(solver_table_look(&table, key, 5, 2), SOLVER_TABLE_HELPING);
    solver_table_leave(&table, key, 5, 2);
    assert_int_equal(solver_table_look(&table, key, 5, 2), SOLVER_TABLE_CUT);
    solver_table_free(&table);
}

static void test_a_full_table_still_answers(void **state)
{
    (void)state;
    solver_table table;
    assert_true(solver_table_init(&table, 1)); /* the least: one bucket */
    int entered = 0;
    for (uint64_t key = 1; key <= 10000; key++)
        entered += solver_table_enter(&table, key * 0x9e3779b97f4a7c15ULL, 3, 1);
    assert_int_equal(entered, 10000); /* every new position is entered, evicting old ones */
    solver_table_free(&table);
}

static void test_zobrist_keys_repeat_and_differ(void **state)
{
    (void)state;
    solver_zobrist a, b;
    assert_true(solver_zobrist_init(&a, 64));
    assert_true(solver_zobrist_init(&b, 64));
    for (int q = 0; q < 64; q++) {
        assert_true(a.box[q] == b.box[q]);
        assert_true(a.player[q] == b.player[q]);
        assert_true(a.box[q] != a.player[q]);
        for (int r = 0; r < q; r++) assert_true(a.box[q] != a.box[r]);
    }
    solver_zobrist_free(&a);
    solver_zobrist_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_position_is_entered_once_per_iteration_at_its_least_cost),
        cmocka_unit_test(test_a_look_answers_as_a_visit_would_and_keeps_nothing),
        cmocka_unit_test(test_a_full_table_still_answers),
        cmocka_unit_test(test_zobrist_keys_repeat_and_differ),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
