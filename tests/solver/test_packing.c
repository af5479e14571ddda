/* test_packing.c - the packing order (solver_packing.h) and its searches over the floor
 * (solver_pulls.h): the deepest goal of a corridor is filled first, goals open on the same
 * floor share a layer, the player stands packed where he is, a doorway is a gate square,
 * a box pulls back from its goal only where the player can follow, and the parking squares
 * are none when every box can go home. Levels drawn inline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "solver/solver_packing.h"
#include "solver/solver_pulls.h"
#include "solver_board.h"

static void test_the_deepest_goal_of_a_corridor_is_filled_first(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, "########\n"
                               "#@ $$..#\n"
                               "########\n");
    int layer[2];
    assert_int_equal(solver_packing_layers(&f.board, f.start.player, NULL, layer), 2);
    int deep = solver_board_goal_index(&f, solver_board_square(&f, 6, 1));
    int near = solver_board_goal_index(&f, solver_board_square(&f, 5, 1));
    assert_true(deep >= 0 && near >= 0);
    /* the box nearest the player leaves first (layer 0); the deep goal is filled first */
    assert_int_equal(layer[near], 0);
    assert_int_equal(layer[deep], 1);
    solver_board_free(&f);
}

static void test_goals_open_on_the_same_floor_share_a_layer(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, "#######\n"
                               "#$   $#\n"
                               "# . . #\n"
                               "#  @  #\n"
                               "#######\n");
    int layer[2];
    assert_int_equal(solver_packing_layers(&f.board, f.start.player, NULL, layer), 1);
    assert_int_equal(layer[0], 0);
    assert_int_equal(layer[1], 0);
    solver_board_free(&f);
}

static void test_with_every_box_going_home_nothing_is_parked(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, "#######\n"
                               "#$   $#\n"
                               "# . . #\n"
                               "#  @  #\n"
                               "#######\n");
    uint8_t *sources = calloc((size_t)f.board.size, 1);
    assert_non_null(sources);
    for (int q = 0; q < f.board.size; q++)
        if (f.start.boxes[q]) sources[q] = board_is_goal(&f.board, q) ? 2 : 1;
    int square[2], goal[2], layers_of[2], layer[2];
    solver_parking parking = {.square = square, .goal = goal, .layer = layers_of};
    assert_true(solver_packing_layers_until(&f.board, f.start.player, sources, layer, &parking,
                                            true, NULL) >= 1);
    assert_int_equal(parking.count, 0);
    free(sources);
    solver_board_free(&f);
}

static void test_the_player_stands_packed_where_he_is(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, "########\n"
                               "#@ $$..#\n"
                               "########\n");
    uint8_t *mark = malloc((size_t)f.board.size);
    int *queue = malloc((size_t)f.board.size * sizeof *queue);
    assert_true(mark && queue);
    assert_int_equal(solver_pulls_packed_player(&f.board, f.start.player, NULL, mark, queue),
                     f.start.player);
    free(mark);
    free(queue);
    solver_board_free(&f);
}

static void test_a_doorway_is_a_gate_square(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, "#########\n"
                               "#   #   #\n"
                               "# $   . #\n"
                               "#@  #   #\n"
                               "#########\n");
    uint8_t *gate = malloc((size_t)f.board.size);
    assert_non_null(gate);
    solver_pulls_gate_squares(&f.board, &f.distances, gate);
    assert_int_equal(gate[solver_board_square(&f, 4, 2)], 1); /* the doorway */
    assert_int_equal(gate[solver_board_square(&f, 2, 2)], 0); /* the open room */
    assert_int_equal(gate[solver_board_square(&f, 6, 2)], 0);
    free(gate);
    solver_board_free(&f);
}

static void test_a_box_pulls_home_only_where_the_player_can_follow(void **state)
{
    (void)state;
    /* In the packed position the box on the goal at the corridor's end can be pulled back
     * to where the box stands now, the player walking ahead of it. */
    solver_board f;
    solver_board_from_text(&f, "#######\n"
                               "#@ $ .#\n"
                               "#######\n");
    solver_pulls p;
    assert_true(solver_pulls_init(&p, &f.board, NULL, NULL));
    uint8_t *box = calloc((size_t)f.board.size, 1), *home = calloc((size_t)f.board.size, 1);
    assert_true(box && home);
    int goal = solver_board_square(&f, 5, 1), now = solver_board_square(&f, 3, 1);
    box[goal] = 1;
    home[now] = 1;
    p.box = box;
    assert_int_equal(
        solver_pulls_away(&p, goal, f.start.player, home, NULL, NULL, SOLVER_PARK_LAST, NULL), now);
    /* home under the goal: pulling the box down wants the player below it, in the wall */
    solver_board g;
    solver_board_from_text(&g, "#####\n"
                               "#@ .#\n"
                               "# #$#\n"
                               "#####\n");
    solver_pulls q;
    assert_true(solver_pulls_init(&q, &g.board, NULL, NULL));
    uint8_t *gbox = calloc((size_t)g.board.size, 1), *ghome = calloc((size_t)g.board.size, 1);
    assert_true(gbox && ghome);
    int ggoal = solver_board_square(&g, 3, 1);
    gbox[ggoal] = 1;
    ghome[solver_board_square(&g, 3, 2)] = 1;
    q.box = gbox;
    assert_int_equal(
        solver_pulls_away(&q, ggoal, g.start.player, ghome, NULL, NULL, SOLVER_PARK_LAST, NULL),
        -1);
    free(gbox);
    free(ghome);
    solver_pulls_free(&q);
    solver_board_free(&g);
    free(box);
    free(home);
    solver_pulls_free(&p);
    solver_board_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_deepest_goal_of_a_corridor_is_filled_first),
        cmocka_unit_test(test_goals_open_on_the_same_floor_share_a_layer),
        cmocka_unit_test(test_with_every_box_going_home_nothing_is_parked),
        cmocka_unit_test(test_the_player_stands_packed_where_he_is),
        cmocka_unit_test(test_a_doorway_is_a_gate_square),
        cmocka_unit_test(test_a_box_pulls_home_only_where_the_player_can_follow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
