/* test_optimizer_pull.c - the optimizer's base by another route (part of the optimizer
 * module): what it offers solves the level from the start with fewer pushes than asked for,
 * nothing is offered when no solution is shorter, after a given prefix of pushes what it
 * offers begins with them, a meeting that leaves the player in another region is joined,
 * and a cancel stops it. (Its gain, on
 * XSokoban 22 and 37, is measured in docs/SOLVER.md, section 32.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ida.h"
#include "solver/optimizer_pull.h"
#include "optimizer_pushes.h"
#include "solver_board.h"

typedef struct offers {
    const solver_board *f;
    int count;            /* solutions offered */
    int pushes;           /* of the last */
    optimizer_push first; /* the last one's first push */
} offers;

static bool keep(void *argument, const optimizer_push *pushes, int count)
{
    offers *o = argument;
    assert_true(optimizer_pushes_solve(o->f, pushes, count));
    o->count++;
    o->pushes = count;
    if (count > 0) o->first = pushes[0];
    return true;
}

static optimizer_pull_status base(const solver_board *f, int limit, const atomic_bool *cancel,
                                  offers *o)
{
    *o = (offers){.f = f};
    optimizer_pull_request request = {
        .board = &f->board,
        .start = &f->start,
        .limit_pushes = limit,
        .max_nodes = 200000,
        .meet_nodes = 50000,
        .max_bytes = (size_t)32 << 20,
        .cancel = cancel,
        .offer = keep,
        .offer_argument = o,
    };
    uint64_t nodes;
    return optimizer_pull_base(&request, &nodes);
}

/* Each box has a goal of its own three and two pushes away, and 5 pushes in all are the
 * fewest (the optimal mode's count). */
static const char two_ways[] = "##########\n"
                               "#.  $ $ .#\n"
                               "#   @    #\n"
                               "#        #\n"
                               "##########\n";

static void test_a_base_solves_the_level_in_the_fewest_pushes_here(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, two_ways);
    offers o;
    assert_int_equal(base(&f, 1000, NULL, &o), OPTIMIZER_PULL_FOUND);
    assert_true(o.count >= 1);
    assert_int_equal(o.pushes, 5);
    solver_board_free(&f);
}

/* One box, three pushes to its goal and no shorter way. */
static const char three_pushes[] = "#######\n"
                                   "#@$  .#\n"
                                   "#######\n";

static void test_nothing_is_offered_below_the_fewest_pushes(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, three_pushes);
    offers o;
    assert_int_equal(base(&f, 4, NULL, &o), OPTIMIZER_PULL_FOUND);
    assert_int_equal(o.pushes, 3);
    assert_int_not_equal(base(&f, 3, NULL, &o), OPTIMIZER_PULL_FOUND);
    assert_int_equal(o.count, 0);
    solver_board_free(&f);
}

/* Three boxes, 12 pushes at the fewest: the pulls meet the fast mode at most 14 times (from a
 * tenth of the way on, each 10 lower in the bound), runs of more than one node each. */
static const char three_rooms[] = "##########\n"
                                  "#   #    #\n"
                                  "# $ $  . #\n"
                                  "#@  # $ .#\n"
                                  "#  ##  . #\n"
                                  "##########\n";

static void test_with_a_time_limit_alone_the_fast_mode_meets_the_pulls(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, three_rooms);
    offers o = {.f = &f};
    /* no node limit at all: each meeting has its share of the time (it had one node) */
    optimizer_pull_request request = {
        .board = &f.board,
        .start = &f.start,
        .limit_pushes = 1000,
        .deadline = ida_clock() + 20,
        .meet_seconds = 5,
        .max_bytes = (size_t)32 << 20,
        .offer = keep,
        .offer_argument = &o,
    };
    uint64_t nodes;
    assert_int_equal(optimizer_pull_base(&request, &nodes), OPTIMIZER_PULL_FOUND);
    assert_int_equal(o.pushes, 12); /* the fewest */
    solver_board_free(&f);
}

/* The left box pushed one square towards its goal first: the rest then takes 2 pushes a
 * box, 5 in all (the fewest still). */
static void test_after_a_prefix_what_is_offered_begins_with_it(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, two_ways);
    optimizer_push prefix = {solver_board_square(&f, 4, 1), DIR_LEFT};
    offers o = {.f = &f};
    optimizer_pull_request request = {
        .board = &f.board,
        .start = &f.start,
        .prefix = &prefix,
        .prefix_count = 1,
        .limit_pushes = 1000,
        .max_nodes = 200000,
        .meet_nodes = 50000,
        .max_bytes = (size_t)32 << 20,
        .offer = keep,
        .offer_argument = &o,
    };
    uint64_t nodes;
    assert_int_equal(optimizer_pull_base(&request, &nodes), OPTIMIZER_PULL_FOUND);
    assert_int_equal(o.pushes, 5);
    assert_int_equal(o.first.box, prefix.box);
    assert_int_equal(o.first.direction, DIR_LEFT);
    /* none shorter: the limit counts the prefix */
    o = (offers){.f = &f};
    request.limit_pushes = 5;
    assert_int_not_equal(optimizer_pull_base(&request, &nodes), OPTIMIZER_PULL_FOUND);
    assert_int_equal(o.count, 0);
    solver_board_free(&f);
}

/* Microban I 11. The pulls' first meeting (one pull from the goals) is met by the fast mode
 * in 13 pushes, but with the player on the other side of the boxes than the pulls' state,
 * where its pull read backwards cannot follow: what was offered did not replay (keep()
 * failed here). Two pushes from there reach a state of the pulls, and the 16 pushes offered
 * replay. */
static const char other_side[] = "  ######\n"
                                 "  #    #\n"
                                 "  # ##@##\n"
                                 "### # $ #\n"
                                 "# ..# $ #\n"
                                 "#       #\n"
                                 "#  ######\n"
                                 "####\n";

static void test_a_meeting_on_the_other_side_is_joined(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, other_side);
    offers o;
    assert_int_equal(base(&f, 18, NULL, &o), OPTIMIZER_PULL_FOUND);
    assert_int_equal(o.pushes, 16);
    solver_board_free(&f);
}

static void test_a_cancel_stops_it(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, two_ways);
    atomic_bool cancel;
    atomic_init(&cancel, true);
    offers o;
    assert_int_equal(base(&f, 1000, &cancel, &o), OPTIMIZER_PULL_LIMIT);
    assert_int_equal(o.count, 0);
    solver_board_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_base_solves_the_level_in_the_fewest_pushes_here),
        cmocka_unit_test(test_nothing_is_offered_below_the_fewest_pushes),
        cmocka_unit_test(test_with_a_time_limit_alone_the_fast_mode_meets_the_pulls),
        cmocka_unit_test(test_after_a_prefix_what_is_offered_begins_with_it),
        cmocka_unit_test(test_a_meeting_on_the_other_side_is_joined),
        cmocka_unit_test(test_a_cancel_stops_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
