/* test_box_moves.c - moving one box where the player points (src/rules/box_moves.c): the
 * squares a box can reach, the walks and pushes that take it there with the fewest pushes,
 * the other boxes fixed, and no way when there is none. Levels drawn inline; the pushes found
 * are played by the rules and the position compared with the one drawn. A box move is played
 * as one move of the game (src/rules/game.c): undone and redone as one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rules/board.h"
#include "rules/box_moves.h"
#include "rules/game.h"
#include "level/level.h"
#include "level_fixture.h"

/* Finds the steps moving the box at (box_x, box_y) to (x, y), plays them from the start
 * (each must be a step the rules allow) and checks the position reached is `expected`;
 * returns the number of pushes among the steps. */
static int move_box(level_fixture *f, int box_x, int box_y, int x, int y, const char *expected)
{
    direction *steps;
    int count = box_moves_find(&f->board, &f->start, level_fixture_square(&f->board, box_x, box_y),
                               level_fixture_square(&f->board, x, y), &steps);
    assert_true(count >= 0);
    position played;
    assert_true(position_copy(&played, &f->start, &f->board));
    int pushes = 0;
    for (int i = 0; i < count; i++) {
        step_result result = board_step(&f->board, &played, steps[i]);
        assert_int_not_equal(result, STEP_BLOCKED);
        pushes += result == STEP_PUSHED;
    }
    char *text = position_to_text(&f->board, &played);
    assert_string_equal(text, expected);
    free(text);
    free(steps);
    position_free(&played);
    return pushes;
}

/* The squares the box at (x, y) can reach, drawn as the level with 'o' on each. */
static void assert_reach(level_fixture *f, int x, int y, const char *expected)
{
    uint8_t *reach = malloc((size_t)f->board.size);
    assert_non_null(reach);
    int count = box_moves_reach(&f->board, &f->start, level_fixture_square(&f->board, x, y), reach);
    char *text = position_to_text(&f->board, &f->start);
    int marked = 0;
    for (int square = 0, i = 0; text[i]; i++) {
        if (text[i] == '\n') continue;
        if (reach[square]) {
            text[i] = 'o';
            marked++;
        }
        square++;
    }
    assert_int_equal(count, marked);
    assert_string_equal(text, expected);
    free(text);
    free(reach);
}

/* ---------------------------------------------------------------- the tests */

static void test_a_box_pushed_along_a_row(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#######\n"
                           "#@$  .#\n"
                           "#######\n");
    assert_int_equal(move_box(&f, 2, 1, 5, 1,
                              "#######\n"
                              "#   @*#\n"
                              "#######\n"),
                     3);
    level_fixture_close(&f);
}

static void test_the_player_walks_round_to_push_the_other_way(void **state)
{
    (void)state;
    level_fixture f;
    /* right twice, then the player walks round the box and pushes it up once */
    level_fixture_open(&f, "#######\n"
                           "###   #\n"
                           "#@$   #\n"
                           "###  .#\n"
                           "#######\n");
    assert_int_equal(move_box(&f, 2, 2, 4, 1,
                              "#######\n"
                              "### $ #\n"
                              "#   @ #\n"
                              "###  .#\n"
                              "#######\n"),
                     3);
    level_fixture_close(&f);
}

static void test_the_fewest_pushes_are_found(void **state)
{
    (void)state;
    level_fixture f;
    /* one push down, not a tour round the room */
    level_fixture_open(&f, "######\n"
                           "# @  #\n"
                           "# $  #\n"
                           "#   .#\n"
                           "######\n");
    assert_int_equal(move_box(&f, 2, 2, 2, 3,
                              "######\n"
                              "#    #\n"
                              "# @  #\n"
                              "# $ .#\n"
                              "######\n"),
                     1);
    level_fixture_close(&f);
}

static void test_a_box_in_a_corner_has_no_way(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#####\n"
                           "#$  #\n"
                           "# @.#\n"
                           "#####\n");
    direction *steps;
    assert_int_equal(box_moves_find(&f.board, &f.start, level_fixture_square(&f.board, 1, 1),
                                    level_fixture_square(&f.board, 3, 2), &steps),
                     BOX_MOVES_NO_WAY);
    assert_null(steps);
    level_fixture_close(&f);
}

static void test_the_other_boxes_stay_where_they_stand(void **state)
{
    (void)state;
    level_fixture f;
    /* the second box could be pushed on out of the way, but a mouse move leaves it */
    level_fixture_open(&f, "#########\n"
                           "#@$ $ ..#\n"
                           "#########\n");
    direction *steps;
    assert_int_equal(box_moves_find(&f.board, &f.start, level_fixture_square(&f.board, 2, 1),
                                    level_fixture_square(&f.board, 5, 1), &steps),
                     BOX_MOVES_NO_WAY);
    assert_int_equal(move_box(&f, 2, 1, 3, 1,
                              "#########\n"
                              "# @$$ ..#\n"
                              "#########\n"),
                     1);
    level_fixture_close(&f);
}

static void test_the_box_on_its_own_square_needs_no_step(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#####\n"
                           "#@$.#\n"
                           "#####\n");
    direction *steps;
    assert_int_equal(box_moves_find(&f.board, &f.start, level_fixture_square(&f.board, 2, 1),
                                    level_fixture_square(&f.board, 2, 1), &steps),
                     0);
    assert_null(steps);
    level_fixture_close(&f);
}

static void test_a_square_without_a_box_moves_nothing(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#####\n"
                           "#@$.#\n"
                           "#####\n");
    direction *steps;
    assert_int_equal(box_moves_find(&f.board, &f.start, level_fixture_square(&f.board, 3, 1),
                                    level_fixture_square(&f.board, 2, 1), &steps),
                     BOX_MOVES_NO_WAY);
    uint8_t reach[15];
    assert_int_equal(
        box_moves_reach(&f.board, &f.start, level_fixture_square(&f.board, 1, 1), reach), 0);
    level_fixture_close(&f);
}

static void test_the_squares_a_box_can_reach_are_marked(void **state)
{
    (void)state;
    level_fixture f;
    /* along the top row only, both ways (the player walks round by the room below), but
     * never down: there is no square above the row to push it from */
    level_fixture_open(&f, "#######\n"
                           "#@$   #\n"
                           "#.### #\n"
                           "#     #\n"
                           "#######\n");
    assert_reach(&f, 2, 1,
                 "#######\n"
                 "#ooooo#\n"
                 "#.### #\n"
                 "#     #\n"
                 "#######\n");
    level_fixture_close(&f);
}

static void test_a_box_reaches_every_square_of_an_open_room(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "######\n"
                           "#@   #\n"
                           "#  $ #\n"
                           "#   .#\n"
                           "#    #\n"
                           "######\n");
    /* into the corners too: a push may leave a box where it can never move again */
    assert_reach(&f, 3, 2,
                 "######\n"
                 "#oooo#\n"
                 "#oooo#\n"
                 "#oooo#\n"
                 "#oooo#\n"
                 "######\n");
    level_fixture_close(&f);
}

/* Plays the move of the box at (2, 2) to (4, 1) on a game of the level above. */
static const char walk_round[] = "#######\n"
                                 "###   #\n"
                                 "#@$   #\n"
                                 "###  .#\n"
                                 "#######\n";

static void play_walk_round(game *g, collection *levels)
{
    level_fixture_open_game(g, levels, walk_round);
    direction *steps;
    int count = box_moves_find(&g->board, &g->position, 2 * 7 + 2, 1 * 7 + 4, &steps);
    assert_true(count > 3);
    assert_true(game_step_in(g, DIR_DOWN) == STEP_BLOCKED); /* nothing before the move */
    assert_true(game_play_move(g, steps, count));
    assert_int_equal(g->moves, count);
    assert_int_equal(g->pushes, 3);
    free(steps);
}

static void test_a_box_move_undoes_as_one_move(void **state)
{
    (void)state;
    collection levels;
    game g;
    play_walk_round(&g, &levels);
    assert_true(game_step_in(&g, DIR_LEFT) == STEP_MOVED);
    assert_true(game_undo_move(&g)); /* the step after it alone */
    assert_int_equal(g.pushes, 3);
    assert_true(game_undo_move(&g)); /* the whole move */
    assert_true(position_equal(&g.position, &g.start, &g.board));
    assert_false(game_undo_move(&g));
    assert_true(game_redo_move(&g)); /* the whole move again */
    assert_int_equal(g.pushes, 3);
    char *text = position_to_text(&g.board, &g.position);
    assert_string_equal(text, "#######\n"
                              "### $ #\n"
                              "#   @ #\n"
                              "###  .#\n"
                              "#######\n");
    free(text);
    assert_true(game_redo_move(&g)); /* and the step after it */
    assert_false(game_redo_move(&g));
    level_fixture_close_game(&g, &levels);
}

static void test_a_blocked_move_changes_nothing(void **state)
{
    (void)state;
    collection levels;
    game g;
    play_walk_round(&g, &levels);
    direction into_the_wall[] = {DIR_RIGHT, DIR_RIGHT, DIR_RIGHT};
    int moves = g.moves;
    assert_false(game_play_move(&g, into_the_wall, 3));
    assert_int_equal(g.moves, moves);
    assert_int_equal(g.length, moves);
    level_fixture_close_game(&g, &levels);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_box_pushed_along_a_row),
        cmocka_unit_test(test_the_player_walks_round_to_push_the_other_way),
        cmocka_unit_test(test_the_fewest_pushes_are_found),
        cmocka_unit_test(test_a_box_in_a_corner_has_no_way),
        cmocka_unit_test(test_the_other_boxes_stay_where_they_stand),
        cmocka_unit_test(test_the_box_on_its_own_square_needs_no_step),
        cmocka_unit_test(test_a_square_without_a_box_moves_nothing),
        cmocka_unit_test(test_the_squares_a_box_can_reach_are_marked),
        cmocka_unit_test(test_a_box_reaches_every_square_of_an_open_room),
        cmocka_unit_test(test_a_box_move_undoes_as_one_move),
        cmocka_unit_test(test_a_blocked_move_changes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
