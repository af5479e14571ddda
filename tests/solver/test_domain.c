/* test_domain.c - Sokoban as a search domain (solver_domain.h): the start's bound is its
 * push distance, the pushes of a corridor lead to the goal, a push taken back leaves the
 * state as it was, and a level already solved is a goal. Levels drawn inline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "ida.h"
#include "solver/solver_domain.h"
#include "solver_board.h"

typedef struct fixture {
    solver_board level;
    solver_search search;
    ida_domain domain;
    ida_move *moves;
} fixture;

static void fixture_from_text(fixture *f, const char *text)
{
    solver_board_from_text(&f->level, text);
    solver_options options = {.mode = SOLVER_OPTIMAL};
    assert_true(solver_search_init(&f->search, &f->level.board, &f->level.start,
                                   &f->level.distances, NULL, NULL, NULL, &options));
    solver_search_domain(&f->search, &f->domain);
    f->moves =
        malloc((size_t)(f->domain.max_moves > 0 ? f->domain.max_moves : 1) * sizeof *f->moves);
    assert_non_null(f->moves);
}

static void fixture_free(fixture *f)
{
    free(f->moves);
    solver_search_free(&f->search);
    solver_board_free(&f->level);
}

static const char corridor[] = "#######\n"
                               "#@ $ .#\n"
                               "#######\n";

static void test_the_bound_of_the_start_is_its_push_distance(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, corridor);
    assert_int_equal(f.domain.root_bound(f.domain.context), 2);
    assert_false(solver_search_is_goal(&f.search));
    fixture_free(&f);
}

static void test_a_push_taken_back_leaves_the_state_as_it_was(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, corridor);
    f.domain.root_bound(f.domain.context);
    uint64_t before = solver_search_key(&f.search);
    int count = f.domain.expand(f.domain.context, f.moves);
    assert_int_equal(count, 1); /* the box goes right, or nowhere */
    int cost = 0;
    int h = f.domain.make(f.domain.context, f.moves[0], 0, &cost);
    assert_true(h != IDA_PRUNE);
    assert_true(cost >= 1);
    assert_int_equal(cost + h, 2); /* the bound is exact in a corridor */
    assert_true(solver_search_key(&f.search) != before);
    f.domain.unmake(f.domain.context, f.moves[0]);
    assert_true(solver_search_key(&f.search) == before);
    fixture_free(&f);
}

static void test_the_pushes_of_a_corridor_reach_the_goal(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, corridor);
    int g = 0, h = f.domain.root_bound(f.domain.context);
    for (int step = 0; step < 4 && h > 0; step++) {
        assert_true(f.domain.expand(f.domain.context, f.moves) >= 1);
        int cost = 0;
        h = f.domain.make(f.domain.context, f.moves[0], g, &cost);
        assert_true(h != IDA_PRUNE && h < IDA_INFINITY);
        g += cost;
    }
    assert_int_equal(h, 0);
    assert_int_equal(g, 2);
    assert_true(f.domain.is_goal(f.domain.context));
    fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_bound_of_the_start_is_its_push_distance),
        cmocka_unit_test(test_a_push_taken_back_leaves_the_state_as_it_was),
        cmocka_unit_test(test_the_pushes_of_a_corridor_reach_the_goal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
