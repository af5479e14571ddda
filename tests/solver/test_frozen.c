/* test_frozen.c - deadlocks behind boxes frozen on goals (solver_frozen.h): a box that can
 * never leave its wall because a frozen box takes the player's place, goals filled only
 * from a pocket the frozen boxes close to the player, a frozen box that leaves the way
 * open, a position with no frozen box left alone, the optimal mode's check after a push
 * (left to a later iteration when the push goes beyond the threshold),
 * and, over positions of real levels, that every position called lost is (an exhaustive
 * search with no deadlock knowledge agrees), that the frozen boxes kept per set of boxes on
 * goals give the answers of a fresh check, and that none along the reference solutions is. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rules/board.h"
#include "level/collection.h"
#include "deadlock_search.h"
#include "reference_solution.h"
#include "search_walk.h"
#include "solver_board.h"
#include "solver/solver_bound.h"
#include "solver/solver_domain.h"
#include "solver/solver_frozen.h"

typedef struct fixture {
    solver_board level; /* the level, its board and push distances (tests/support) */
    solver_search search;
    solver_frozen frozen;
} fixture;

static void fixture_extras(fixture *f)
{
    solver_options options = {.mode = SOLVER_FAST};
    assert_true(solver_search_init(&f->search, &f->level.board, &f->level.start,
                                   &f->level.distances, NULL, NULL, NULL, &options));
    assert_true(solver_frozen_init(&f->frozen, &f->level.board, &f->level.distances));
}

static void fixture_from_text(fixture *f, const char *text)
{
    solver_board_from_text(&f->level, text);
    fixture_extras(f);
}

/* A map of cavepacker-data (solver_board_load_map); false when it is missing. */
static bool fixture_load(fixture *f, const char *format, int number)
{
    if (!solver_board_load_map(&f->level, format, number)) return false;
    fixture_extras(f);
    return true;
}

static void fixture_free(fixture *f)
{
    solver_frozen_free(&f->frozen);
    solver_search_free(&f->search);
    solver_board_free(&f->level);
}

/* The box in the top left corner is frozen on its goal. The box beside it could only be
 * pushed right with the player where the frozen box stands, so it never reaches the goal
 * on the right; no box stands on a dead square, and the bound is finite. */
static void test_box_that_needs_a_frozen_square_to_push_from_is_lost(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, "######\n"
                          "#*$ .#\n"
                          "#@   #\n"
                          "######\n");
    assert_true(solver_search_bound(&f.search) < IDA_INFINITY);
    assert_true(solver_frozen_lost(&f.frozen, &f.search));
    assert_int_equal(f.frozen.lost, 1);
    fixture_free(&f);
}

/* As in XSokoban 39 half-way through, once the packing-order search had filled the wrong
 * goals: the goal on the left of the row of three can only be filled from the middle one,
 * with the player on the right one, which the frozen box has made a pocket he can only
 * enter through the middle square (on the empty board he walks round by the right). The
 * pull search over box squares alone saw every goal reached; over the player's sides too,
 * it sees the left goal never filled. The exhaustive search agrees. */
static void test_goal_the_player_cannot_get_behind_is_lost(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, "########\n"
                          "## ...*#\n"
                          "## # # #\n"
                          "#  $$$ #\n"
                          "#    @ #\n"
                          "########\n");
    assert_true(solver_search_bound(&f.search) < IDA_INFINITY);
    assert_true(solver_frozen_lost(&f.frozen, &f.search));
    assert_int_equal(deadlock_search_solve(&f.level.board, &f.level.start, 200000),
                     DEADLOCK_SEARCH_UNSOLVABLE);
    fixture_free(&f);
}

/* The same pocket, with a box already on the middle goal: it could fill the left goal
 * from the right side only, where the player can no longer get (the box itself closes
 * the pocket). Box squares alone, that box reaches the left goal; with the side the player
 * reaches now (the search's reach computed), it does not. */
static void test_box_the_player_cannot_get_behind_any_more_is_lost(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, "########\n"
                          "## .*.*#\n"
                          "## # # #\n"
                          "#  $$  #\n"
                          "#    @ #\n"
                          "########\n");
    solver_search_key(&f.search); /* the player's reach */
    assert_true(solver_frozen_lost(&f.frozen, &f.search));
    assert_int_equal(deadlock_search_solve(&f.level.board, &f.level.start, 200000),
                     DEADLOCK_SEARCH_UNSOLVABLE);
    fixture_free(&f);
}

/* With a square between them the player stands there and pushes the box home. */
static void test_frozen_box_that_leaves_the_way_open_is_not_lost(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, "######\n"
                          "#* $.#\n"
                          "#@   #\n"
                          "######\n");
    assert_false(solver_frozen_lost(&f.frozen, &f.search));
    assert_int_equal(f.frozen.checked, 1);
    fixture_free(&f);
}

/* No box frozen on a goal: nothing to check. */
static void test_position_without_frozen_boxes_is_not_checked(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, "######\n"
                          "# .$ #\n"
                          "#@ $.#\n"
                          "######\n");
    assert_false(solver_frozen_lost(&f.frozen, &f.search));
    assert_int_equal(f.frozen.checked, 0);
    fixture_free(&f);
}

/* True when a box of the fixture's start is frozen off a goal; the work space is left
 * clear. */
static bool start_frozen_off_goal(const fixture *f)
{
    const board *b = &f->level.board;
    uint8_t *work = calloc((size_t)b->size, 1);
    assert_non_null(work);
    bool lost = solver_frozen_off_goal(b, &f->level.distances, f->search.box_square,
                                       f->search.box_count, work);
    for (int q = 0; q < b->size; q++) assert_int_equal(work[q], 0);
    free(work);
    return lost;
}

/* A start with a block of boxes frozen whole, four of them off goals (the first test below
 * says why no box of it can be pushed). */
static const char block_frozen_off_goals[] = "#########\n"
                                             "#       #\n"
                                             "# $$$   #\n"
                                             "# $** . #\n"
                                             "# *** . #\n"
                                             "#  ..  @#\n"
                                             "#########\n";

/* A start with a block of boxes frozen whole, four of them off goals: each box has a free
 * square beside it, and no box of the block can be pushed, each push wanting the player or
 * the box where another box stands. The root's bound says so before the matching or any
 * pair is asked. A block of boxes all on goals, the others free to move, is not lost. */
static void test_start_with_a_block_frozen_off_goals_is_lost(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, block_frozen_off_goals);
    assert_true(start_frozen_off_goal(&f));
    ida_domain domain;
    solver_search_domain(&f.search, &domain);
    assert_true(domain.root_bound(&f.search) >= IDA_INFINITY);
    assert_int_equal(f.search.counters.frozen, 1);
    fixture_free(&f);

    fixture_from_text(&f, "#########\n"
                          "#       #\n"
                          "# **  $ #\n"
                          "# **  . #\n"
                          "#  $    #\n"
                          "#  .   @#\n"
                          "#########\n");
    assert_false(start_frozen_off_goal(&f));
    solver_search_domain(&f.search, &domain);
    assert_true(domain.root_bound(&f.search) < IDA_INFINITY);
    assert_int_equal(f.search.counters.frozen, 0);
    fixture_free(&f);
}

/* SOKOBAN_SOLVER_DISABLE=deadlocks, which measures what the deadlock checks buy, turns the
 * start's freeze check off with the pushes' (deadlock_check_push()): the start with a block
 * frozen off goals is not called lost by it. */
static void test_the_starts_freeze_check_is_off_with_the_deadlocks(void **state)
{
    (void)state;
    fixture f;
    solver_board_from_text(&f.level, block_frozen_off_goals);
    solver_options options = {.mode = SOLVER_FAST,
                              .disable = SOLVER_NO_DEADLOCKS | SOLVER_NO_CORRAL_DEADLOCKS};
    assert_true(solver_search_init(&f.search, &f.level.board, &f.level.start, &f.level.distances,
                                   NULL, NULL, NULL, &options));
    assert_true(solver_frozen_init(&f.frozen, &f.level.board, &f.level.distances));
    assert_true(start_frozen_off_goal(&f)); /* the check itself still says so */
    assert_false(solver_search_start_lost(&f.search));
    assert_int_equal(f.search.counters.frozen, 0);
    fixture_free(&f);
}

/* Over random walks of pushes on Microban I 1-60, every position called lost is: the
 * exhaustive search with no deadlock knowledge finds no solution there. */
static void test_every_position_called_lost_is_unsolvable(void **state)
{
    (void)state;
    int lost = 0, confirmed = 0;
    unsigned seed = 4242;
    for (int number = 1; number <= 60; number++) {
        fixture f;
        if (!fixture_load(&f, "microban01_%04d.sok", number)) skip(); /* cavepacker-data missing */
        solver_search *s = &f.search;
        ida_domain domain;
        solver_search_domain(s, &domain);
        position p;
        assert_true(position_copy(&p, &f.level.start, &f.level.board));
        for (int walk = 0; walk < 30; walk++) {
            search_walk_start(s, &f.level.board, &f.level.start);
            for (int step = 0; step < 30 && search_walk_push(s, &domain, &seed); step++) {
                if (!solver_frozen_lost(&f.frozen, s)) continue;
                lost++;
                search_walk_position(s, &f.level.board, &p);
                deadlock_search_result r = deadlock_search_solve(&f.level.board, &p, 200000);
                assert_int_not_equal(r, DEADLOCK_SEARCH_SOLVABLE);
                confirmed += r == DEADLOCK_SEARCH_UNSOLVABLE;
                break;
            }
        }
        position_free(&p);
        fixture_free(&f);
    }
    /* the walks meet such positions often enough for this to test something */
    assert_true(lost >= 20);
    assert_true(confirmed >= lost / 2);
}

/* Over random walks of pushes on Microban I 1-60, the check with the frozen boxes of the
 * sets of boxes on goals met before says what a check that has met none says, at every
 * position; and most positions take their frozen boxes from a set met before. */
static void test_the_frozen_boxes_kept_give_the_answers_of_a_fresh_check(void **state)
{
    (void)state;
    uint64_t asked = 0, marked = 0;
    int lost = 0;
    unsigned seed = 777;
    for (int number = 1; number <= 60; number++) {
        fixture f;
        if (!fixture_load(&f, "microban01_%04d.sok", number)) skip(); /* cavepacker-data missing */
        solver_search *s = &f.search;
        ida_domain domain;
        solver_search_domain(s, &domain);
        for (int walk = 0; walk < 20; walk++) {
            search_walk_start(s, &f.level.board, &f.level.start);
            for (int step = 0; step < 30 && search_walk_push(s, &domain, &seed); step++) {
                solver_frozen fresh;
                assert_true(solver_frozen_init(&fresh, &f.level.board, &f.level.distances));
                bool kept = solver_frozen_lost(&f.frozen, s);
                assert_int_equal(kept, solver_frozen_lost(&fresh, s));
                solver_frozen_free(&fresh);
                asked++;
                lost += kept;
            }
        }
        marked += f.frozen.marked;
        fixture_free(&f);
    }
    assert_true(lost > 0);
    assert_true(marked * 2 < asked);
}

/* The optimal mode asks the check after each push (solver_search's frozen_deadlocks): the
 * push up that freezes the box in the corner of the row of goals closes the pocket of the
 * position above, and is cut at once; without the check the same push is made, its bound
 * finite, and only a search below it would find the position lost. */
static void test_optimal_mode_cuts_the_push_that_freezes_a_goal_box(void **state)
{
    (void)state;
    solver_board level;
    solver_board_from_text(&level, "########\n"
                                   "## ....#\n"
                                   "## # #$#\n"
                                   "#  $$$@#\n"
                                   "#      #\n"
                                   "########\n");
    const board *b = &level.board;
    solver_options options = {.mode = SOLVER_OPTIMAL};
    solver_search search;
    solver_frozen frozen;
    assert_true(
        solver_search_init(&search, b, &level.start, &level.distances, NULL, NULL, NULL, &options));
    assert_true(solver_frozen_init(&frozen, b, &level.distances));
    ida_domain domain;
    solver_search_domain(&search, &domain);
    assert_true(domain.root_bound(&search) < IDA_INFINITY);
    ida_move up = solver_move(board_neighbour(b, level.start.player, DIR_UP), DIR_UP);
    int cost;
    assert_true(domain.make(&search, up, 0, &cost) < IDA_INFINITY); /* no check: made */
    domain.unmake(&search, up);
    search.frozen_deadlocks = &frozen;
    assert_int_equal(domain.make(&search, up, 0, &cost), IDA_PRUNE);
    domain.unmake(&search, up);
    assert_int_equal(search.counters.frozen, 1);
    solver_frozen_free(&frozen);
    solver_search_free(&search);
    solver_board_free(&level);
}

/* The same push in an iteration whose threshold it goes beyond: its bound (the matching) shows
 * it will not be expanded, so the check waits for an iteration that would expand it, and the
 * push is made with that bound; with the threshold at its f it is cut as before. */
static void test_a_push_beyond_the_threshold_waits_for_the_check(void **state)
{
    (void)state;
    solver_board level;
    solver_board_from_text(&level, "########\n"
                                   "## ....#\n"
                                   "## # #$#\n"
                                   "#  $$$@#\n"
                                   "#      #\n"
                                   "########\n");
    const board *b = &level.board;
    solver_options options = {.mode = SOLVER_OPTIMAL};
    solver_search search;
    solver_frozen frozen;
    assert_true(
        solver_search_init(&search, b, &level.start, &level.distances, NULL, NULL, NULL, &options));
    assert_true(solver_frozen_init(&frozen, b, &level.distances));
    ida_domain domain;
    solver_search_domain(&search, &domain);
    assert_true(domain.root_bound(&search) < IDA_INFINITY);
    ida_move up = solver_move(board_neighbour(b, level.start.player, DIR_UP), DIR_UP);
    int cost;
    int h = domain.make(&search, up, 0, &cost); /* no check: its bound */
    domain.unmake(&search, up);
    assert_true(h < IDA_INFINITY);
    search.frozen_deadlocks = &frozen;
    domain.begin_iteration(&search, cost + h - 1);
    assert_int_equal(domain.make(&search, up, 0, &cost), h); /* beyond: made, not checked */
    domain.unmake(&search, up);
    assert_int_equal(search.counters.frozen, 0);
    assert_int_equal(search.counters.beyond, 1);
    domain.begin_iteration(&search, cost + h);
    assert_int_equal(domain.make(&search, up, 0, &cost), IDA_PRUNE); /* within: cut */
    domain.unmake(&search, up);
    assert_int_equal(search.counters.frozen, 1);
    solver_frozen_free(&frozen);
    solver_search_free(&search);
    solver_board_free(&level);
}

/* After a push of a reference solution: the frozen checks say the position is not lost,
 * neither behind boxes frozen on goals nor with a box frozen off one (the start's check). */
static void check_frozen(void *argument, const position *p, direction d)
{
    (void)d;
    fixture *f = argument;
    search_walk_set(&f->search, &f->level.board, p);
    solver_search_key(&f->search); /* the player's reach: the sides he pushes from */
    assert_false(solver_frozen_lost(&f->frozen, &f->search));
    assert_false(start_frozen_off_goal(f));
}

/* Every position along a real solution can be solved: after each push of the reference
 * solutions of XSokoban 1-30 (cavepacker-data's .sol files), none is called lost, though
 * many have boxes frozen on goals, and none has a box frozen off a goal. */
static void test_no_position_along_a_solution_is_lost(void **state)
{
    (void)state;
    uint64_t checked = 0;
    for (int number = 1; number <= 30; number++) {
        fixture f;
        if (!fixture_load(&f, "xsokoban%04d.sok", number)) skip(); /* cavepacker-data missing */
        assert_true(
            reference_solution_play(number, &f.level.board, &f.level.start, check_frozen, &f));
        checked += f.frozen.checked;
        fixture_free(&f);
    }
    assert_true(checked > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_box_that_needs_a_frozen_square_to_push_from_is_lost),
        cmocka_unit_test(test_goal_the_player_cannot_get_behind_is_lost),
        cmocka_unit_test(test_box_the_player_cannot_get_behind_any_more_is_lost),
        cmocka_unit_test(test_frozen_box_that_leaves_the_way_open_is_not_lost),
        cmocka_unit_test(test_position_without_frozen_boxes_is_not_checked),
        cmocka_unit_test(test_start_with_a_block_frozen_off_goals_is_lost),
        cmocka_unit_test(test_the_starts_freeze_check_is_off_with_the_deadlocks),
        cmocka_unit_test(test_optimal_mode_cuts_the_push_that_freezes_a_goal_box),
        cmocka_unit_test(test_a_push_beyond_the_threshold_waits_for_the_check),
        cmocka_unit_test(test_every_position_called_lost_is_unsolvable),
        cmocka_unit_test(test_the_frozen_boxes_kept_give_the_answers_of_a_fresh_check),
        cmocka_unit_test(test_no_position_along_a_solution_is_lost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
