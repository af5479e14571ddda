/* test_oop.c - boxes out of the plan (solver_oop.h): a goal in the door between two rooms,
 * filled before the goal beyond it, puts the room behind the door out of the plan, and a
 * box there counts; goals in an open room put nothing out of the plan; a layer before the
 * door's looks ahead to the door's zone; the out-of-plan advisor (solver_box_advisors.h) takes the
 * box in that zone through the door while it is still open, as far from the zone as it can
 * go. The packing order is set by each test. Levels drawn inline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "solver/solver_box_advisors.h"
#include "solver/solver_domain.h"
#include "solver/solver_features.h"
#include "solver/solver_oop.h"
#include "solver_board.h"

/* Room A (x 1 to 4) and room B (x 6 to 8) joined by the goal (5, 2) in the door; goals in
 * room A at (2, 2) and (4, 3). */
static const char two_rooms[] = "##########\n"
                                "#    #   #\n"
                                "# .  . $ #\n"
                                "# $$.#   #\n"
                                "#@   #   #\n"
                                "##########\n";

/* One open room, two goals in its middle: filling one walls nothing off. */
static const char open_room[] = "#######\n"
                                "#     #\n"
                                "# $.  #\n"
                                "#  .$ #\n"
                                "#@    #\n"
                                "#######\n";

typedef struct fixture {
    solver_board level;
    solver_search search;
    solver_features features;
    solver_oop oop;
} fixture;

static int at(const fixture *f, int x, int y)
{
    return solver_board_square(&f->level, x, y);
}

/* The goal's index on square (x, y). */
static int goal_at(const fixture *f, int x, int y)
{
    const board *b = &f->level.board;
    for (int t = 0; t < b->goal_count; t++)
        if (b->goals[t] == at(f, x, y)) return t;
    fail();
    return -1;
}

/* The level `text` with its goals filled in the order given (x, y pairs, the first filled first:
 * one layer each, no parking), and its zones. */
static void fixture_with_order(fixture *f, const char *text, const int *order)
{
    solver_board_from_text(&f->level, text);
    solver_options options = {.mode = SOLVER_FAST};
    assert_true(solver_search_init(&f->search, &f->level.board, &f->level.start,
                                   &f->level.distances, NULL, NULL, NULL, &options));
    assert_true(solver_features_init(&f->features, &f->search, NULL));
    int goals = f->level.board.goal_count;
    f->features.parking.count = 0;
    f->features.target_count = goals;
    for (int k = 0; k < goals; k++)
        f->features.layer[goal_at(f, order[2 * k], order[2 * k + 1])] = goals - 1 - k;
    assert_true(solver_oop_init(&f->oop, &f->level.board, &f->features, &f->level.distances));
    solver_search_key(&f->search); /* the player's reach */
}

static void fixture_free(fixture *f)
{
    solver_oop_free(&f->oop);
    solver_features_free(&f->features);
    solver_search_free(&f->search);
    solver_board_free(&f->level);
}

static void test_a_door_filled_first_puts_the_room_behind_it_out_of_the_plan(void **state)
{
    (void)state;
    fixture f;
    fixture_with_order(&f, two_rooms, (const int[]){2, 2, 5, 2, 4, 3});
    /* while the door's layer (1) is filled, room B can reach no later goal */
    const uint8_t *zone = solver_oop_zone(&f.oop, 1);
    assert_non_null(zone);
    assert_true(zone[at(&f, 7, 2)]);
    assert_true(zone[at(&f, 6, 3)]);
    assert_false(zone[at(&f, 8, 2)]); /* dead: against the wall, it leaves for no goal */
    assert_false(zone[at(&f, 3, 2)]);
    assert_false(zone[at(&f, 3, 3)]);
    assert_false(zone[at(&f, 5, 2)]); /* the door's goal itself */
    assert_int_equal(solver_oop_count(&f.oop, 1, f.search.box_square, f.search.box_count), 1);
    /* the last layer has no later goals, so no zone */
    assert_null(solver_oop_zone(&f.oop, 0));
    fixture_free(&f);
}

static void test_a_layer_looks_ahead_to_the_next_zone(void **state)
{
    (void)state;
    fixture f;
    fixture_with_order(&f, two_rooms, (const int[]){2, 2, 5, 2, 4, 3});
    /* room B still reaches the door while (2, 2) is filled, but the door's layer comes next
     * and will shut it: its box is out of the plan already */
    const uint8_t *zone = solver_oop_zone(&f.oop, 2);
    assert_non_null(zone);
    assert_true(zone[at(&f, 7, 2)]);
    assert_int_equal(solver_oop_count(&f.oop, 2, f.search.box_square, f.search.box_count), 1);
    /* the pushes from the zone with (2, 2) filled: through the open door into room A */
    assert_int_equal(solver_oop_distance(&f.oop, 2, at(&f, 7, 2)), 0);
    assert_int_equal(solver_oop_distance(&f.oop, 2, at(&f, 4, 2)), 2);
    fixture_free(&f);
}

static void test_goals_in_an_open_room_leave_no_zone(void **state)
{
    (void)state;
    fixture f;
    fixture_with_order(&f, open_room, (const int[]){3, 2, 3, 3});
    assert_false(f.oop.any);
    for (int layer = 0; layer < 2; layer++) assert_null(solver_oop_zone(&f.oop, layer));
    assert_int_equal(solver_oop_count(&f.oop, 1, f.search.box_square, f.search.box_count), 0);
    fixture_free(&f);
}

static void test_the_advisor_takes_the_box_through_the_open_door(void **state)
{
    (void)state;
    fixture f;
    fixture_with_order(&f, two_rooms, (const int[]){2, 2, 5, 2, 4, 3});
    solver_box_advisors moves;
    assert_true(solver_box_advisors_init(&moves, &f.level.board, &f.features));
    int regions = solver_features_regions(&f.features, &f.search);
    solver_box_advisors_out_of_plan(&moves, &f.search, regions, &f.oop);
    const solver_box_advice *a = &moves.out_of_plan;
    assert_true(a->count > 0);
    assert_int_equal(a->from, at(&f, 7, 2));
    /* out of the zone, into room A (the door left open: the box not on (4, 2) or on the
     * door, where it would shut room B off), as far from the zone as the box goes */
    assert_false(solver_oop_zone(&f.oop, 2)[a->to]);
    int farthest = solver_oop_distance(&f.oop, 2, a->to);
    assert_true(farthest >= 3);
    const board *b = &f.level.board;
    int box = a->from;
    for (int k = 0; k < a->count; k++) {
        assert_int_equal(solver_move_square(a->path[k]), box);
        box += b->delta[solver_move_direction(a->path[k])];
    }
    assert_int_equal(box, a->to);
    solver_box_advisors_free(&moves);
    fixture_free(&f);
}

static void test_the_advisor_names_nothing_without_a_zone(void **state)
{
    (void)state;
    fixture f;
    fixture_with_order(&f, open_room, (const int[]){3, 2, 3, 3});
    solver_box_advisors moves;
    assert_true(solver_box_advisors_init(&moves, &f.level.board, &f.features));
    int regions = solver_features_regions(&f.features, &f.search);
    solver_box_advisors_out_of_plan(&moves, &f.search, regions, &f.oop);
    assert_int_equal(moves.out_of_plan.count, 0);
    solver_box_advisors_free(&moves);
    fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_door_filled_first_puts_the_room_behind_it_out_of_the_plan),
        cmocka_unit_test(test_a_layer_looks_ahead_to_the_next_zone),
        cmocka_unit_test(test_goals_in_an_open_room_leave_no_zone),
        cmocka_unit_test(test_the_advisor_takes_the_box_through_the_open_door),
        cmocka_unit_test(test_the_advisor_names_nothing_without_a_zone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
