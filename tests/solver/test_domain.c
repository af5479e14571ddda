/* test_domain.c - Sokoban as a search domain (solver_domain.h): the start's bound is its
 * push distance, the pushes of a corridor lead to the goal, a push taken back leaves the
 * state as it was, a level already solved is a goal, the optimal mode's corral check of the
 * states within the threshold, its table keeping the states beyond it too, and a push
 * deferred in a team's shared table left to the member below it. Levels
 * drawn inline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "ida.h"
#include "rules/deadlock.h"
#include "solver/solver_domain.h"
#include "solver/solver_table.h"
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

/* The box the player pushes right wedges the square below the two boxes above it: the
 * barrier alone (the three boxes round the square) can still fill it, with the box right
 * of the square as well every push into it freezes (as in test_corral_deadlock.c). The
 * optimal mode checks every corral of a state it will expand, with the boxes touching the
 * barriers, after the bound: the push is cut while its f is within the threshold, made
 * when it is beyond (never expanded in that iteration), and made when only the pushed
 * box's corrals are checked, barrier alone. */
static void test_optimal_mode_cuts_a_wedged_corral_within_the_threshold(void **state)
{
    (void)state;
    solver_board level;
    solver_board_from_text(&level, "##########\n"
                                   "#      ..#\n"
                                   "#        #\n"
                                   "#   $$   #\n"
                                   "#@$  $  .#\n"
                                   "#####   .#\n"
                                   "##########\n");
    deadlock_table deadlocks; /* the small searches' freeze checks */
    assert_true(deadlock_table_init(&deadlocks, &level.board));
    solver_options options = {.mode = SOLVER_OPTIMAL};
    solver_search s;
    assert_true(solver_search_init(&s, &level.board, &level.start, &level.distances, &deadlocks,
                                   NULL, NULL, &options));
    assert_true(s.corrals_within && s.corral_deadlocks);
    ida_domain domain;
    solver_search_domain(&s, &domain);
    int h = domain.root_bound(&s), cost;
    assert_true(h < IDA_INFINITY);
    ida_move right = solver_move(level.start.player + 1, DIR_RIGHT);
    s.corrals_within = false; /* the pushed box's corrals, barrier alone */
    int pushed = domain.make(&s, right, 0, &cost);
    assert_true(pushed < IDA_INFINITY);
    domain.unmake(&s, right);
    s.corrals_within = true;
    domain.begin_iteration(&s, cost + pushed - 2); /* the push's f is beyond */
    assert_true(domain.make(&s, right, 0, &cost) < IDA_INFINITY);
    domain.unmake(&s, right);
    domain.begin_iteration(&s, cost + pushed); /* within */
    assert_int_equal(domain.make(&s, right, 0, &cost), IDA_PRUNE);
    domain.unmake(&s, right);
    solver_search_free(&s);
    deadlock_table_free(&deadlocks);
    solver_board_free(&level);
}

/* The optimal mode keeps in its table the states beyond the threshold too, at their least
 * cost: a push beyond is cut the second time in the same iteration; in the next it is made
 * again at the same cost and cut at a higher one. */
static void test_a_push_beyond_the_threshold_is_kept(void **state)
{
    (void)state;
    solver_board level;
    solver_board_from_text(&level, "########\n"
                                   "#@ $  .#\n"
                                   "#      #\n"
                                   "########\n");
    solver_table table;
    assert_true(solver_table_init(&table, (size_t)1 << 20));
    solver_options options = {.mode = SOLVER_OPTIMAL};
    solver_search s;
    assert_true(solver_search_init(&s, &level.board, &level.start, &level.distances, NULL, &table,
                                   NULL, &options));
    ida_domain domain;
    solver_search_domain(&s, &domain);
    int h = domain.root_bound(&s), cost;
    assert_int_equal(h, 3);
    ida_move right = solver_move(level.start.player + 2, DIR_RIGHT);
    domain.begin_iteration(&s, 1); /* the push's f, 1 + 2, is beyond */
    assert_int_equal(domain.make(&s, right, 0, &cost), 2);
    domain.unmake(&s, right);
    assert_int_equal(domain.make(&s, right, 0, &cost), IDA_PRUNE); /* kept: cut */
    domain.unmake(&s, right);
    assert_int_equal(s.counters.beyond, 1);
    assert_int_equal(s.counters.transposition, 1);
    domain.begin_iteration(&s, 3); /* within */
    assert_int_equal(domain.make(&s, right, 0, &cost), 2);
    domain.unmake(&s, right);
    assert_int_equal(domain.make(&s, right, 1, &cost), IDA_PRUNE); /* dearer: cut */
    domain.unmake(&s, right);
    assert_int_equal(s.counters.transposition, 2);
    solver_search_free(&s);
    solver_table_free(&table);
    solver_board_free(&level);
}

/* In a team's shared table, a push into a state another member is still below is deferred
 * (ida.h: the member asks shared() and takes it back unsearched): taking it back marks the
 * state left, so that the second try at the end of the list is cut and the state is left to
 * the member below it, which searches it out (XSokoban 5 on two threads in the nodes of one
 * thread; helping with it instead took 62.8 and 82.2 million nodes against 55.6). */
static void test_a_deferred_push_is_left_to_the_member_below_it(void **state)
{
    (void)state;
    solver_board level;
    solver_board_from_text(&level, "########\n"
                                   "#@ $  .#\n"
                                   "#      #\n"
                                   "########\n");
    solver_table table;
    assert_true(solver_table_init(&table, (size_t)1 << 20));
    solver_table_share(&table);
    solver_options options = {.mode = SOLVER_OPTIMAL};
    solver_search a, b;
    assert_true(solver_search_init(&a, &level.board, &level.start, &level.distances, NULL, &table,
                                   NULL, &options));
    assert_true(solver_search_init(&b, &level.board, &level.start, &level.distances, NULL, &table,
                                   NULL, &options));
    ida_domain da, db;
    solver_search_domain(&a, &da);
    solver_search_domain(&b, &db);
    assert_int_equal(da.root_bound(&a), 3);
    assert_int_equal(db.root_bound(&b), 3);
    da.begin_iteration(&a, 3);
    db.begin_iteration(&b, 3);
    ida_move right = solver_move(level.start.player + 2, DIR_RIGHT);
    int cost;
    assert_int_equal(da.make(&a, right, 0, &cost), 2); /* a is below it */
    assert_false(da.shared(&a));
    assert_int_equal(db.make(&b, right, 0, &cost), 2);
    assert_true(db.shared(&b)); /* deferred */
    db.unmake(&b, right);
    assert_int_equal(db.make(&b, right, 0, &cost), IDA_PRUNE); /* tried again: left to a */
    db.unmake(&b, right);
    da.unmake(&a, right);
    assert_int_equal(db.make(&b, right, 0, &cost), IDA_PRUNE); /* a left it: searched */
    db.unmake(&b, right);
    solver_search_free(&a);
    solver_search_free(&b);
    solver_table_free(&table);
    solver_board_free(&level);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_bound_of_the_start_is_its_push_distance),
        cmocka_unit_test(test_a_push_taken_back_leaves_the_state_as_it_was),
        cmocka_unit_test(test_the_pushes_of_a_corridor_reach_the_goal),
        cmocka_unit_test(test_optimal_mode_cuts_a_wedged_corral_within_the_threshold),
        cmocka_unit_test(test_a_push_beyond_the_threshold_is_kept),
        cmocka_unit_test(test_a_deferred_push_is_left_to_the_member_below_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
