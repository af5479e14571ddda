/* test_below.c - the optimal mode's order from the last iteration (solver_below.h): the least
 * bound met below a state is kept under its box set and handed to its parent, a pruned state
 * hands nothing up, and the order changes no push count of the optimal mode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "solver/solver.h"
#include "solver/solver_below.h"
#include "solver_board.h"

static void test_the_least_bound_below_a_state_is_kept_and_handed_up(void **state)
{
    (void)state;
    solver_below below;
    assert_true(solver_below_init(&below, 10));
    assert_int_equal(solver_below_get(&below, 0x1234500000ULL), SOLVER_BELOW_NONE);
    assert_true(solver_below_enter(&below, 0, SOLVER_BELOW_NONE)); /* the root */
    assert_true(solver_below_enter(&below, 1, 10));
    assert_true(solver_below_enter(&below, 2, 7));
    solver_below_leave(&below, 2, 0x2200000ULL);
    assert_true(solver_below_enter(&below, 2, 12)); /* a sibling farther off */
    solver_below_leave(&below, 2, 0x3300000ULL);
    solver_below_leave(&below, 1, 0x1100000ULL);
    assert_int_equal(solver_below_get(&below, 0x2200000ULL), 7);
    assert_int_equal(solver_below_get(&below, 0x3300000ULL), 12);
    assert_int_equal(solver_below_get(&below, 0x1100000ULL), 7); /* its own 10, 7 below */
    /* a pruned state keeps nothing and hands nothing up */
    assert_true(solver_below_enter(&below, 1, 9));
    assert_true(solver_below_enter(&below, 2, SOLVER_BELOW_NONE));
    solver_below_leave(&below, 2, 0x4400000ULL);
    solver_below_leave(&below, 1, 0x5500000ULL);
    assert_int_equal(solver_below_get(&below, 0x4400000ULL), SOLVER_BELOW_NONE);
    assert_int_equal(solver_below_get(&below, 0x5500000ULL), 9);
    /* the next iteration's answer replaces the last one's */
    assert_true(solver_below_enter(&below, 1, 11));
    solver_below_leave(&below, 1, 0x1100000ULL);
    assert_int_equal(solver_below_get(&below, 0x1100000ULL), 11);
    solver_below_free(&below);
}

/* The table is a share of the search's memory: 8 MiB of 1 GiB, 512 KiB of 8 MiB. */
static void test_the_table_takes_a_sixteenth_of_the_memory_at_most(void **state)
{
    (void)state;
    assert_int_equal(solver_below_log2_for((size_t)1 << 30), 20);
    assert_int_equal(solver_below_log2_for((size_t)8 << 20), 16);
    assert_true(solver_below_bytes(16) <= ((size_t)8 << 20) / 16);
    assert_int_equal(solver_below_log2_for(0), 10);
}

static void test_a_deep_search_grows_the_path(void **state)
{
    (void)state;
    solver_below below;
    assert_true(solver_below_init(&below, 4));
    assert_true(solver_below_enter(&below, 0, SOLVER_BELOW_NONE));
    for (int depth = 1; depth <= 1000; depth++)
        assert_true(solver_below_enter(&below, depth, 2000 - depth));
    for (int depth = 1000; depth >= 1; depth--)
        solver_below_leave(&below, depth, (uint64_t)depth << 20);
    assert_int_equal(solver_below_get(&below, 1ULL << 20), 1000);
    solver_below_free(&below);
}

/* The fewest pushes the optimal mode finds for `start`, with the order or without it (-1
 * when it does not answer within its nodes); its nodes in *nodes. */
static int optimum(const board *b, const position *start, unsigned disable, uint64_t *nodes)
{
    solver_options options = {
        .mode = SOLVER_OPTIMAL, .threads = 1, .max_nodes = 400000, .disable = disable};
    solver_result result;
    solver_status status = solver_solve(b, start, &options, &result);
    int pushes = status == SOLVER_SOLVED ? result.pushes : -1;
    *nodes = result.nodes;
    solver_result_free(&result);
    return pushes;
}

/* Small levels with boxes in each other's way; the last one takes the optimal mode more
 * than one iteration, and the order changes its search. */
static const char *const deepening[] = {
    "#######\n"
    "#  @  #\n"
    "#  $  #\n"
    "#  $  #\n"
    "### ###\n"
    "  #.#\n"
    "  #.#\n"
    "  ###\n",
    "#######\n"
    "#.@ # #\n"
    "#$* $ #\n"
    "#   $ #\n"
    "# ..  #\n"
    "#  *  #\n"
    "#######\n",
    "########\n"
    "#      #\n"
    "# $$$$ #\n"
    "#  @   #\n"
    "# .... #\n"
    "########\n",
    "  #####\n"
    "###   #\n"
    "#.@$  #\n"
    "### $.#\n"
    "#.##$ #\n"
    "# # . ##\n"
    "#$ *$$.#\n"
    "#   .  #\n"
    "########\n",
};

static void test_the_order_changes_no_push_count(void **state)
{
    (void)state;
    int reordered = 0; /* levels whose search the order changed: the test exercises it */
    for (size_t i = 0; i < sizeof deepening / sizeof deepening[0]; i++) {
        solver_board level;
        solver_board_from_text(&level, deepening[i]);
        uint64_t with_nodes, without_nodes;
        int with = optimum(&level.board, &level.start, 0, &with_nodes);
        int without = optimum(&level.board, &level.start, SOLVER_NO_BELOW, &without_nodes);
        assert_true(with > 0);
        assert_int_equal(with, without);
        if (with_nodes != without_nodes) reordered++;
        solver_board_free(&level);
    }
    assert_true(reordered >= 1);
}

/* Microban I 1 to 40 (cavepacker-data): the same push counts with the order and without. */
static void test_the_order_changes_no_push_count_on_microban(void **state)
{
    (void)state;
    int compared = 0;
    for (int number = 1; number <= 40; number++) {
        solver_board level;
        if (!solver_board_load_map(&level, "microban01_%04d.sok", number)) skip();
        uint64_t with_nodes, without_nodes;
        int with = optimum(&level.board, &level.start, 0, &with_nodes);
        int without = optimum(&level.board, &level.start, SOLVER_NO_BELOW, &without_nodes);
        if (with >= 0 && without >= 0) {
            assert_int_equal(with, without);
            compared++;
        }
        solver_board_free(&level);
    }
    assert_true(compared >= 35);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_least_bound_below_a_state_is_kept_and_handed_up),
        cmocka_unit_test(test_the_table_takes_a_sixteenth_of_the_memory_at_most),
        cmocka_unit_test(test_a_deep_search_grows_the_path),
        cmocka_unit_test(test_the_order_changes_no_push_count),
        cmocka_unit_test(test_the_order_changes_no_push_count_on_microban),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
