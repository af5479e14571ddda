/* test_corral.c - PI-corral pruning (solver_corral.h): a room the player is shut out of by
 * a box that can only go in, with a goal inside, is a PI-corral and holds that room; with
 * the room's goal filled and no box off its goal there is nothing to do in it; a level the
 * player walks all over has no corral. Levels drawn inline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "solver/solver_corral.h"
#include "solver/solver_domain.h"
#include "solver_board.h"

typedef struct fixture {
    solver_board level;
    solver_search search;
} fixture;

/* The level's search in its start position, the player's reach computed. */
static void fixture_from_text(fixture *f, const char *text)
{
    solver_board_from_text(&f->level, text);
    solver_options options = {.mode = SOLVER_FAST};
    assert_true(solver_search_init(&f->search, &f->level.board, &f->level.start,
                                   &f->level.distances, NULL, NULL, NULL, &options));
    int count = 0;
    for (int q = 0; q < f->level.board.size; q++)
        if (f->level.start.boxes[q]) f->search.box_square_scratch[count++] = (uint16_t)q;
    solver_search_set(&f->search, f->search.box_square_scratch, f->level.start.player);
    solver_search_key(&f->search); /* the player's reach */
}

static void fixture_free(fixture *f)
{
    solver_search_free(&f->search);
    solver_board_free(&f->level);
}

static void test_a_room_behind_a_box_that_can_only_go_in_is_a_pi_corral(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, "########\n"
                          "#@ #   #\n"
                          "#  $ . #\n"
                          "#  #   #\n"
                          "########\n");
    int label = solver_corral_find(&f.search);
    assert_true(label >= 0);
    assert_true(solver_corral_contains(&f.search, label, solver_board_square(&f.level, 5, 2)));
    assert_false(solver_corral_contains(&f.search, label, solver_board_square(&f.level, 1, 1)));
    fixture_free(&f);
}

static void test_a_level_the_player_walks_all_over_has_no_corral(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, "######\n"
                          "#    #\n"
                          "#@$ .#\n"
                          "#    #\n"
                          "######\n");
    assert_int_equal(solver_corral_find(&f.search), -1);
    fixture_free(&f);
}

static void test_a_finished_room_is_no_pi_corral(void **state)
{
    (void)state;
    /* the room behind the boxes has no goal and its barrier boxes stand on goals */
    fixture f;
    fixture_from_text(&f, "########\n"
                          "#@ #   #\n"
                          "#  *   #\n"
                          "#  #   #\n"
                          "########\n");
    assert_int_equal(solver_corral_find(&f.search), -1);
    fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_room_behind_a_box_that_can_only_go_in_is_a_pi_corral),
        cmocka_unit_test(test_a_level_the_player_walks_all_over_has_no_corral),
        cmocka_unit_test(test_a_finished_room_is_no_pi_corral),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
