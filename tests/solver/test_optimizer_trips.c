/* test_optimizer_trips.c - the optimizer's goal room filled in another order (part of the
 * optimizer module): the search over box trips finds the fewest pushes where trips alone
 * solve, nothing under them, with a park of the best on the way, and a cancel stops it. (Its gain
 * on XSokoban is measured in docs/SOLVER.md, section 32.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "solver/optimizer_trips.h"
#include "optimizer_pushes.h"
#include "solver_board.h"

static optimizer_search_status trips_of(const solver_board *f, int limit, const int *parks,
                                        const int *after, int park_count, const atomic_bool *cancel,
                                        int *count)
{
    optimizer_trips_request request = {
        .board = &f->board,
        .from = &f->start,
        .distances = &f->distances,
        .limit_pushes = limit,
        .max_nodes = 100000,
        .max_bytes = (size_t)32 << 20,
        .cancel = cancel,
        .weight = 1,
        .parks = parks,
        .park_after = after,
        .park_count = park_count,
    };
    optimizer_push *pushes;
    uint64_t nodes;
    optimizer_search_status status = optimizer_trips(&request, &pushes, count, &nodes);
    if (status == OPTIMIZER_SEARCH_FOUND) assert_true(optimizer_pushes_solve(f, pushes, *count));
    free(pushes);
    return status;
}

/* The left goal is the deep one: the left box (5 pushes to it) must go first, or the right
 * box, taken to the near goal past nothing, is walled in by it; 5 + 6 = 11 pushes, the
 * other order of the trips a dead end. */
static const char deep_first[] = "###########\n"
                                 "#..   $ $ #\n"
                                 "### #     #\n"
                                 "  #    @  #\n"
                                 "  #########\n";

static void test_trips_fill_the_deep_goal_first(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, deep_first);
    int count = 0;
    assert_int_equal(trips_of(&f, 1000, NULL, NULL, 0, NULL, &count), OPTIMIZER_SEARCH_FOUND);
    assert_int_equal(count, 11);
    assert_int_equal(trips_of(&f, 11, NULL, NULL, 0, NULL, &count), OPTIMIZER_SEARCH_NONE);
    solver_board_free(&f);
}

/* The same with the right box's trip cut by the best's park: taken one square left first,
 * and the rest by trips, the fewest pushes still. */
static void test_a_park_of_the_best_is_made_on_the_way(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, deep_first);
    int parks[2] = {solver_board_square(&f, 8, 1), solver_board_square(&f, 7, 1)};
    int after[1] = {0};
    int count = 0;
    assert_int_equal(trips_of(&f, 1000, parks, after, 1, NULL, &count), OPTIMIZER_SEARCH_FOUND);
    assert_int_equal(count, 11);
    solver_board_free(&f);
}

static void test_a_cancel_stops_it(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, deep_first);
    atomic_bool cancel;
    atomic_init(&cancel, true);
    int count = 0;
    assert_int_equal(trips_of(&f, 1000, NULL, NULL, 0, &cancel, &count),
                     OPTIMIZER_SEARCH_CANCELLED);
    solver_board_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trips_fill_the_deep_goal_first),
        cmocka_unit_test(test_a_park_of_the_best_is_made_on_the_way),
        cmocka_unit_test(test_a_cancel_stops_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
