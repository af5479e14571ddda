/* test_features.c - FESS's feature space (solver_features.h): boxes count as packed in
 * packing order only (a box on the goal to fill later counts for nothing while the deeper
 * one is empty), the free floor's regions are counted, the player's reach as one (after a
 * push, from the regions before, as many as counted afresh), and the order may be worked out
 * from an earlier position of the game or be the plan of the backward search, which a search
 * takes where it parks boxes, as many as YASS's rules at least. Levels drawn inline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "solver/solver_domain.h"
#include "solver/solver_features.h"
#include "solver/solver_packing_search.h"
#include "solver_board.h"
#include "xsokoban_39.h"

typedef struct fixture {
    solver_board level;
    solver_search search;
    solver_features features;
} fixture;

/* Puts the search in the position with boxes on the `count` squares (x, y) given in pairs
 * and the player on (px, py), the player's reach computed. */
static void place(fixture *f, int px, int py, int count, const int *xy)
{
    for (int i = 0; i < count; i++)
        f->search.box_square_scratch[i] =
            (uint16_t)solver_board_square(&f->level, xy[2 * i], xy[2 * i + 1]);
    solver_search_set(&f->search, f->search.box_square_scratch,
                      solver_board_square(&f->level, px, py));
    solver_search_key(&f->search);
}

/* The search of `text`'s start, with `disable` off, and its features. */
static void fixture_without(fixture *f, const char *text, unsigned disable)
{
    solver_board_from_text(&f->level, text);
    solver_options options = {.mode = SOLVER_FAST, .disable = disable};
    assert_true(solver_search_init(&f->search, &f->level.board, &f->level.start,
                                   &f->level.distances, NULL, NULL, NULL, &options));
    assert_true(solver_features_init(&f->features, &f->search, NULL));
}

static void fixture_from_text(fixture *f, const char *text)
{
    fixture_without(f, text, 0);
}

static void fixture_free(fixture *f)
{
    solver_features_free(&f->features);
    solver_search_free(&f->search);
    solver_board_free(&f->level);
}

static const char corridor[] = "########\n"
                               "#@ $$..#\n"
                               "########\n";

static void test_nothing_is_packed_at_the_start(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, corridor);
    place(&f, 1, 1, 2, (const int[]){3, 1, 4, 1});
    assert_int_equal(solver_features_packed(&f.features, &f.search), 0);
    /* the targets marked by square: the two goals, no parking square in a corridor */
    assert_int_equal(f.features.parking.count, 0);
    const board *b = f.search.board;
    for (int square = 0; square < b->size; square++)
        assert_int_equal(f.features.on_target[square], board_is_goal(b, square) ? 1 : 0);
    fixture_free(&f);
}

static void test_the_deep_goal_filled_counts_and_the_near_one_alone_does_not(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, corridor);
    place(&f, 4, 1, 2, (const int[]){3, 1, 6, 1}); /* the deep goal filled */
    assert_int_equal(solver_features_packed(&f.features, &f.search), 1);
    place(&f, 1, 1, 2, (const int[]){3, 1, 5, 1}); /* the near goal filled, the deep empty */
    assert_int_equal(solver_features_packed(&f.features, &f.search), 0);
    place(&f, 1, 1, 2, (const int[]){5, 1, 6, 1}); /* both */
    assert_int_equal(solver_features_packed(&f.features, &f.search), 2);
    /* the same with the layer being filled given, as the fast search hands it */
    int current = solver_features_current(&f.features, f.search.board, f.search.boxes);
    assert_int_equal(solver_features_packed_in(&f.features, &f.search, current), 2);
    fixture_free(&f);
}

static void test_the_free_floor_is_counted_in_regions(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, corridor);
    place(&f, 1, 1, 2, (const int[]){3, 1, 4, 1}); /* the player's side, the goals' side */
    assert_int_equal(solver_features_regions(&f.features, &f.search), 2);
    place(&f, 1, 1, 2, (const int[]){5, 1, 6, 1}); /* one corridor left of the boxes */
    assert_int_equal(solver_features_regions(&f.features, &f.search), 1);
    fixture_free(&f);
}

/* The regions after a push, worked out from the regions before (solver_features_regions_
 * after()), are those counted afresh, for every push made along a random walk of pushes on
 * XSokoban 39 (boxes cutting the floor, corridors) and on a board of pillars, where most
 * pushes cut or join a part. */
static void regions_after_each_push(const char *text, unsigned seed)
{
    fixture f;
    fixture_from_text(&f, text);
    solver_search *s = &f.search;
    ida_domain domain;
    solver_search_domain(s, &domain);
    ida_move *moves = malloc((size_t)domain.max_moves * sizeof *moves);
    uint16_t *next = malloc((size_t)s->box_count * sizeof *next);
    uint16_t *start = malloc((size_t)s->box_count * sizeof *start);
    assert_non_null(moves);
    assert_non_null(next);
    assert_non_null(start);
    for (int i = 0; i < s->box_count; i++) start[i] = (uint16_t)s->box_square[i];
    int start_player = s->player;
    int pushes = 0;
    for (int step = 0; step < 400; step++) {
        solver_search_bound(s); /* the reach and the matching, as a search expanding it */
        int before = solver_features_regions(&f.features, s);
        int count = domain.expand(s, moves), chosen = -1, player = 0;
        for (int m = 0; m < count; m++) {
            int cost;
            int h = domain.make(s, moves[m], 0, &cost);
            if (h != IDA_PRUNE && h < IDA_INFINITY) {
                solver_search_key(s);
                assert_int_equal(solver_features_regions_after(&f.features, s, before,
                                                               solver_move_square(moves[m])),
                                 solver_features_regions(&f.features, s));
                pushes++;
                if (chosen < 0 || rand_r(&seed) % 3 == 0) {
                    chosen = m;
                    player = s->player;
                    for (int i = 0; i < s->box_count; i++) next[i] = (uint16_t)s->box_square[i];
                }
            }
            domain.unmake(s, moves[m]);
        }
        if (chosen < 0) /* no push left: from the start again */
            solver_search_set(s, start, start_player);
        else
            solver_search_set(s, next, player);
    }
    assert_true(pushes > 400);
    free(moves);
    free(next);
    free(start);
    fixture_free(&f);
}

static void test_the_regions_after_a_push_are_counted_afresh(void **state)
{
    (void)state;
    regions_after_each_push(xsokoban_39_start, 39);
    regions_after_each_push("#########\n"
                            "#   .   #\n"
                            "# # # # #\n"
                            "#  $@$  #\n"
                            "# #$#$# #\n"
                            "#.  $  .#\n"
                            "# # # # #\n"
                            "#   .  .#\n"
                            "#########\n",
                            7);
}

static bool same_order(const solver_features *a, const solver_features *b, int goals)
{
    if (a->parking.count != b->parking.count) return false;
    for (int g = 0; g < goals; g++)
        if (a->layer[g] != b->layer[g]) return false;
    for (int k = 0; k < a->parking.count; k++)
        if (a->parking.square[k] != b->parking.square[k] ||
            a->parking.goal[k] != b->parking.goal[k] || a->parking.layer[k] != b->parking.layer[k])
            return false;
    return true;
}

/* The packing order of a search given an earlier position of its game
 * (solver_options.plan_from) is the order worked out from that position by YASS's rules,
 * targets and parking squares alike, wherever the search stands: here XSokoban 39's start and
 * its position after 360 pushes of the reference solution, where the order worked out afresh
 * is another. */
static void test_the_order_is_worked_out_from_the_position_given(void **state)
{
    (void)state;
    fixture start, later, given;
    fixture_without(&start, xsokoban_39_start, SOLVER_NO_PLAN_PICK);
    fixture_without(&later, xsokoban_39_at_push_360, SOLVER_NO_PLAN_PICK);
    solver_board_from_text(&given.level, xsokoban_39_at_push_360);
    solver_options options = {.mode = SOLVER_FAST, .plan_from = &start.level.start};
    assert_true(solver_search_init(&given.search, &given.level.board, &given.level.start,
                                   &given.level.distances, NULL, NULL, NULL, &options));
    assert_true(solver_features_init(&given.features, &given.search, NULL));
    int goals = start.level.board.goal_count;
    assert_true(same_order(&given.features, &start.features, goals));
    assert_false(same_order(&later.features, &start.features, goals));
    fixture_free(&given);
    fixture_free(&later);
    fixture_free(&start);
}

/* A search told to take the plan of the backward search (solver_options.searched_plan, the
 * race's part) has that plan for its order, targets and parking squares alike, where the
 * order by YASS's rules is another: XSokoban 39's start. */
static void test_the_searched_plan_is_the_order_when_asked_for(void **state)
{
    (void)state;
    fixture own, given;
    fixture_without(&own, xsokoban_39_start, SOLVER_NO_PLAN_PICK);
    solver_board_from_text(&given.level, xsokoban_39_start);
    solver_options options = {.mode = SOLVER_FAST, .searched_plan = true};
    assert_true(solver_search_init(&given.search, &given.level.board, &given.level.start,
                                   &given.level.distances, NULL, NULL, NULL, &options));
    assert_true(solver_features_init(&given.features, &given.search, NULL));
    const board *b = &given.level.board;
    int goals = b->goal_count;
    uint8_t *sources = calloc((size_t)b->size, 1), *rest = malloc((size_t)b->size);
    int *layer = malloc((size_t)goals * sizeof *layer);
    int *square = malloc((size_t)goals * sizeof *square);
    int *goal = malloc((size_t)goals * sizeof *goal);
    int *parked = malloc((size_t)goals * sizeof *parked);
    assert_true(sources && rest && layer && square && goal && parked);
    for (int q = 0; q < b->size; q++)
        if (given.level.start.boxes[q]) sources[q] = board_is_goal(b, q) ? 2 : 1;
    solver_macro_rest_squares(b, &given.level.distances, rest);
    solver_parking parking = {.square = square, .goal = goal, .layer = parked};
    assert_true(solver_packing_search(b, sources, rest, layer, &parking, NULL) > 0);
    solver_features plan = {.layer = layer, .parking = parking};
    assert_true(same_order(&given.features, &plan, goals));
    assert_false(same_order(&own.features, &plan, goals));
    free(sources);
    free(rest);
    free(layer);
    free(square);
    free(goal);
    free(parked);
    fixture_free(&given);
    fixture_free(&own);
}

/* XSokoban 14, whose plan by the backward search parks no box where YASS's rules park 4. */
static const char xsokoban_14[] = "       #######\n"
                                  " #######     #\n"
                                  " #     # $@$ #\n"
                                  " #$$ #   #########\n"
                                  " # ###......##   #\n"
                                  " #   $......## # #\n"
                                  " # ###......     #\n"
                                  "##   #### ### #$##\n"
                                  "#  #$   #  $  # #\n"
                                  "#  $ $$$  # $## #\n"
                                  "#   $ $ ###$$ # #\n"
                                  "#####     $   # #\n"
                                  "    ### ###   # #\n"
                                  "      #     #   #\n"
                                  "      ########  #\n"
                                  "             ####\n";

/* XSokoban 1, where neither the plan by the backward search nor YASS's rules park a box. */
static const char xsokoban_1[] = "    #####\n"
                                 "    #   #\n"
                                 "    #$  #\n"
                                 "  ###  $##\n"
                                 "  #  $ $ #\n"
                                 "### # ## #   ######\n"
                                 "#   # ## #####  ..#\n"
                                 "# $  $          ..#\n"
                                 "##### ### #@##  ..#\n"
                                 "    #     #########\n"
                                 "    #######\n";

/* The three orders of `text`'s start: the search's (picked), the backward search's plan
 * alone (plan) and YASS's rules (the pick off); freed by orders_free(). */
typedef struct orders {
    fixture picked, plan, yass;
} orders;

static void orders_of(orders *o, const char *text)
{
    fixture_from_text(&o->picked, text);
    solver_board_from_text(&o->plan.level, text);
    solver_options options = {.mode = SOLVER_FAST, .searched_plan = true};
    assert_true(solver_search_init(&o->plan.search, &o->plan.level.board, &o->plan.level.start,
                                   &o->plan.level.distances, NULL, NULL, NULL, &options));
    assert_true(solver_features_init(&o->plan.features, &o->plan.search, NULL));
    fixture_without(&o->yass, text, SOLVER_NO_PLAN_PICK);
}

static void orders_free(orders *o)
{
    fixture_free(&o->picked);
    fixture_free(&o->plan);
    fixture_free(&o->yass);
}

/* Without an earlier position, the search's order is the plan of the backward search when it
 * parks boxes, at least as many as YASS's rules (XSokoban 39's start: 2 each), else YASS's
 * order (XSokoban 14: none against 4; XSokoban 1: none either); with the pick off, YASS's
 * order always. */
static void test_the_searched_plan_is_taken_where_it_parks_as_many_as_yass(void **state)
{
    (void)state;
    orders o;
    orders_of(&o, xsokoban_39_start);
    int goals = o.picked.level.board.goal_count;
    assert_int_equal(o.plan.features.parking.count, o.yass.features.parking.count);
    assert_true(same_order(&o.picked.features, &o.plan.features, goals));
    assert_false(same_order(&o.picked.features, &o.yass.features, goals));
    orders_free(&o);

    orders_of(&o, xsokoban_14);
    goals = o.picked.level.board.goal_count;
    assert_int_equal(o.plan.features.parking.count, 0);
    assert_int_equal(o.yass.features.parking.count, 4);
    assert_true(same_order(&o.picked.features, &o.yass.features, goals));
    orders_free(&o);

    orders_of(&o, xsokoban_1);
    goals = o.picked.level.board.goal_count;
    assert_int_equal(o.plan.features.parking.count, 0);
    assert_int_equal(o.yass.features.parking.count, 0);
    assert_false(same_order(&o.plan.features, &o.yass.features, goals));
    assert_true(same_order(&o.picked.features, &o.yass.features, goals));
    orders_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nothing_is_packed_at_the_start),
        cmocka_unit_test(test_the_deep_goal_filled_counts_and_the_near_one_alone_does_not),
        cmocka_unit_test(test_the_free_floor_is_counted_in_regions),
        cmocka_unit_test(test_the_regions_after_a_push_are_counted_afresh),
        cmocka_unit_test(test_the_order_is_worked_out_from_the_position_given),
        cmocka_unit_test(test_the_searched_plan_is_the_order_when_asked_for),
        cmocka_unit_test(test_the_searched_plan_is_taken_where_it_parks_as_many_as_yass),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
