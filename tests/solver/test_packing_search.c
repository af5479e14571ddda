/* test_packing_search.c - the packing plan by a backward search over whole box pulls
 * (solver_packing_search.h): the deepest goal of a corridor is filled first, a box that
 * stands on its goal now is filled first and never parked, a level whose boxes cannot all
 * leave the goals gets no plan, and on XSokoban 77 (drawn inline) the plan parks boxes off
 * the goals and the bases, each parked box coming to its square before its goal's turn; on
 * XSokoban 88, where the search from every region of the solved position's floor at once
 * finds no plan, the search from the left corridor's region alone parks three boxes down the
 * corridor for the goals above it, as Festival's plan does. Levels drawn inline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "solver/solver_packing_search.h"
#include "solver_board.h"

/* The plan of f's start: its number of layers, layer[] and parking filled. */
static int plan_of(solver_board *f, int *layer, solver_parking *parking)
{
    uint8_t *sources = calloc((size_t)f->board.size, 1);
    assert_non_null(sources);
    for (int q = 0; q < f->board.size; q++)
        if (f->start.boxes[q]) sources[q] = board_is_goal(&f->board, q) ? 2 : 1;
    int layers = solver_packing_search(&f->board, sources, NULL, layer, parking, NULL);
    free(sources);
    return layers;
}

/* A plan of `f`'s start with room for every goal (plan_of), its arrays freed by
 * whole_plan_free(). */
typedef struct whole_plan {
    int *layer, *square, *goal, *parked;
    solver_parking parking;
} whole_plan;

static int whole_plan_of(solver_board *f, whole_plan *plan)
{
    size_t goals = (size_t)f->board.goal_count;
    plan->layer = malloc(goals * sizeof *plan->layer);
    plan->square = malloc(goals * sizeof *plan->square);
    plan->goal = malloc(goals * sizeof *plan->goal);
    plan->parked = malloc(goals * sizeof *plan->parked);
    assert_true(plan->layer && plan->square && plan->goal && plan->parked);
    plan->parking =
        (solver_parking){.square = plan->square, .goal = plan->goal, .layer = plan->parked};
    return plan_of(f, plan->layer, &plan->parking);
}

static void whole_plan_free(whole_plan *plan)
{
    free(plan->layer);
    free(plan->square);
    free(plan->goal);
    free(plan->parked);
}

static void test_the_deepest_goal_of_a_corridor_is_filled_first(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, "##########\n"
                               "#@ $ $ ..#\n"
                               "##########\n");
    int layer[2], square[2], goal[2], parked[2];
    solver_parking parking = {.square = square, .goal = goal, .layer = parked};
    assert_int_equal(plan_of(&f, layer, &parking), 3);
    int deep = solver_board_goal_index(&f, solver_board_square(&f, 8, 1));
    int near = solver_board_goal_index(&f, solver_board_square(&f, 7, 1));
    assert_true(deep >= 0 && near >= 0);
    /* pulled out first, filled last */
    assert_int_equal(layer[near], 0);
    assert_int_equal(layer[deep], 1);
    assert_int_equal(parking.count, 0);
    solver_board_free(&f);
}

static void test_a_box_on_its_goal_now_is_filled_first_and_stays(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, " #####\n"
                               " #   #\n"
                               " # $ ##\n"
                               "##.*. #\n"
                               "#  $  #\n"
                               "#  @ ##\n"
                               "######\n");
    int layer[3], square[3], goal[3], parked[3];
    solver_parking parking = {.square = square, .goal = goal, .layer = parked};
    int layers = plan_of(&f, layer, &parking);
    assert_int_equal(layers, 3);
    int held = solver_board_goal_index(&f, solver_board_square(&f, 3, 3));
    assert_true(held >= 0);
    assert_int_equal(layer[held], layers - 1);
    for (int g = 0; g < f.board.goal_count; g++)
        if (g != held) assert_true(layer[g] < layers - 1);
    assert_int_equal(parking.count, 0);
    solver_board_free(&f);
}

static void test_boxes_that_cannot_all_leave_the_goals_get_no_plan(void **state)
{
    (void)state;
    solver_board f;
    /* no pull brings a box into the corner where the box stands now */
    solver_board_from_text(&f, "#####\n"
                               "#$  #\n"
                               "# . #\n"
                               "# @ #\n"
                               "#####\n");
    int layer[1], square[1], goal[1], parked[1];
    solver_parking parking = {.square = square, .goal = goal, .layer = parked};
    assert_int_equal(plan_of(&f, layer, &parking), 0);
    solver_board_free(&f);
}

static void test_xsokoban_77_parks_boxes_off_the_goals_before_their_turn(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, "####################\n"
                               "#    ##   #    #   #\n"
                               "#  $  $     ## $   #\n"
                               "## #####  .###### ##\n"
                               " # ##  ##....#### ##\n"
                               "## ##$ ###..##     #\n"
                               "#      #... .# $ $ #\n"
                               "# $ ## ## . ### ####\n"
                               "# # $    #.## # #\n"
                               "# $ $ #   .#### ##\n"
                               "# #  ## # ##  #  ##\n"
                               "#######  $##$   $ #\n"
                               "      ##      $ #@#\n"
                               "       #  ## ######\n"
                               "       #######\n");
    int goals = f.board.goal_count;
    whole_plan plan;
    int layers = whole_plan_of(&f, &plan);
    int *layer = plan.layer, *square = plan.square, *goal = plan.goal, *parked = plan.parked;
    int parks = plan.parking.count;
    assert_true(layers > goals);
    assert_true(parks > 0);
    for (int k = 0; k < parks; k++) {
        assert_false(board_is_goal(&f.board, square[k]));
        assert_false(f.start.boxes[square[k]]);
        /* higher layers are filled first: the parking square before its goal */
        assert_true(parked[k] > layer[goal[k]]);
    }
    /* one goal a layer: each whole box move of the plan is a turn of its own */
    for (int g = 0; g < goals; g++)
        for (int h = g + 1; h < goals; h++) assert_int_not_equal(layer[g], layer[h]);
    whole_plan_free(&plan);
    solver_board_free(&f);
}

static void test_xsokoban_88_parks_three_boxes_down_the_left_corridor(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, "#############\n"
                               "#........####\n"
                               "#...#### #  #####\n"
                               "#...#  ###    $ #\n"
                               "#...$$     $ $  #\n"
                               "#  .#  $ $# $  ##\n"
                               "#...# #$#   $  #\n"
                               "#.# # $   $    #\n"
                               "#.  #$###$####$#\n"
                               "##  #   $ $    #\n"
                               " #  #  $@$  #  #\n"
                               " #  # #### $  $#\n"
                               " #  #    ###   #\n"
                               " #  # $$ # #####\n"
                               " #  #    #\n"
                               " #########\n");
    int goals = f.board.goal_count;
    whole_plan plan;
    int layers = whole_plan_of(&f, &plan);
    int *layer = plan.layer, *square = plan.square, *goal = plan.goal, *parked = plan.parked;
    int parks = plan.parking.count;
    assert_true(layers > goals);
    assert_int_equal(parks, 3);
    int in_corridor = 0, under = 0;
    for (int k = 0; k < parks; k++) {
        for (int row = 9; row <= 13; row += 2)
            in_corridor += square[k] == solver_board_square(&f, 3, row);
        for (int row = 4; row <= 6; row++)
            under += f.board.goals[goal[k]] == solver_board_square(&f, 3, row);
        assert_true(parked[k] > layer[goal[k]]);
    }
    assert_int_equal(in_corridor, 3);
    assert_int_equal(under, 3);
    whole_plan_free(&plan);
    solver_board_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_deepest_goal_of_a_corridor_is_filled_first),
        cmocka_unit_test(test_a_box_on_its_goal_now_is_filled_first_and_stays),
        cmocka_unit_test(test_boxes_that_cannot_all_leave_the_goals_get_no_plan),
        cmocka_unit_test(test_xsokoban_77_parks_boxes_off_the_goals_before_their_turn),
        cmocka_unit_test(test_xsokoban_88_parks_three_boxes_down_the_left_corridor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
