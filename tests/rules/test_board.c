/* test_board.c - the rules (src/rules/board.c): building a board, moves and pushes, blocked
 * pushes, solved positions, walking paths; and play with undo and redo (src/rules/game.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rules/board.h"
#include "rules/game.h"
#include "level/level.h"
#include "level_fixture.h"

/* ---------------------------------------------------------------- helpers */

static void assert_game_position(const game *g, const char *expected)
{
    level_fixture_assert_position(&g->board, &g->position, expected);
}

static const char corridor[] = "#######\n"
                               "#@ $ .#\n"
                               "#######\n";

/* ---------------------------------------------------------------- the board */

static void test_board_marks_walls_goals_and_the_inside(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "  #####\n"
                           "###   #\n"
                           "#@$ . #\n"
                           "#######\n");
    const board *b = &f.board;
    assert_int_equal(b->width, 7);
    assert_int_equal(b->height, 4);
    assert_true(board_is_wall(b, level_fixture_square(b, 0, 2)));
    assert_true(board_is_goal(b, level_fixture_square(b, 4, 2)));
    assert_true(board_is_inside(b, level_fixture_square(b, 1, 2)));
    assert_true(board_is_inside(b, level_fixture_square(b, 4, 1)));
    assert_false(board_is_inside(b, level_fixture_square(b, 0, 0))); /* outside floor */
    assert_false(board_is_inside(b, level_fixture_square(b, 0, 2))); /* a wall */
    assert_int_equal(b->goal_count, 1);
    assert_int_equal(b->goals[0], level_fixture_square(b, 4, 2));
    assert_int_equal(f.start.player, level_fixture_square(b, 1, 2));
    assert_int_equal(f.start.box_count, 1);
    assert_true(f.start.boxes[level_fixture_square(b, 2, 2)]);
    level_fixture_close(&f);
}

static void test_board_steps_one_square_in_each_direction(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#####\n#   #\n# @ #\n#$ .#\n#####\n");
    const board *b = &f.board;
    int centre = level_fixture_square(b, 2, 2);
    assert_int_equal(board_neighbour(b, centre, DIR_LEFT), level_fixture_square(b, 1, 2));
    assert_int_equal(board_neighbour(b, centre, DIR_UP), level_fixture_square(b, 2, 1));
    assert_int_equal(board_neighbour(b, centre, DIR_RIGHT), level_fixture_square(b, 3, 2));
    assert_int_equal(board_neighbour(b, centre, DIR_DOWN), level_fixture_square(b, 2, 3));
    assert_int_equal(board_x(b, centre), 2);
    assert_int_equal(board_y(b, centre), 2);
    assert_int_equal(direction_opposite(DIR_LEFT), DIR_RIGHT);
    assert_int_equal(direction_opposite(DIR_DOWN), DIR_UP);
    level_fixture_close(&f);
}

static void test_direction_letters_are_lowercase_moves_and_uppercase_pushes(void **state)
{
    (void)state;
    assert_int_equal(direction_letter(DIR_LEFT, false), 'l');
    assert_int_equal(direction_letter(DIR_UP, false), 'u');
    assert_int_equal(direction_letter(DIR_RIGHT, true), 'R');
    assert_int_equal(direction_letter(DIR_DOWN, true), 'D');
}

static void test_box_on_goal_outside_the_walls_takes_no_part_in_play(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#####  ###\n#@$.#  #*#\n#####  ###\n");
    assert_int_equal(f.start.box_count, 1);
    assert_int_equal(f.board.goal_count, 1);
    assert_false(f.start.boxes[level_fixture_square(&f.board, 8, 1)]);
    level_fixture_close(&f);
}

/* ---------------------------------------------------------------- steps */

static void test_step_onto_floor_moves_the_player(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, corridor);
    assert_int_equal(board_step(&f.board, &f.start, DIR_RIGHT), STEP_MOVED);
    level_fixture_assert_position(&f.board, &f.start, "#######\n# @$ .#\n#######\n");
    level_fixture_close(&f);
}

static void test_step_into_a_box_pushes_it(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#######\n# @$ .#\n#######\n");
    assert_int_equal(board_step(&f.board, &f.start, DIR_RIGHT), STEP_PUSHED);
    level_fixture_assert_position(&f.board, &f.start, "#######\n#  @$.#\n#######\n");
    assert_int_equal(f.start.box_count, 1);
    level_fixture_close(&f);
}

static void test_pushing_a_box_onto_a_goal_shows_box_on_goal(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#######\n#  @$.#\n#######\n");
    assert_int_equal(board_step(&f.board, &f.start, DIR_RIGHT), STEP_PUSHED);
    level_fixture_assert_position(&f.board, &f.start, "#######\n#   @*#\n#######\n");
    level_fixture_close(&f);
}

static void test_step_into_a_wall_is_blocked(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, corridor);
    position before;
    assert_true(position_copy(&before, &f.start, &f.board));
    assert_int_equal(board_step(&f.board, &f.start, DIR_LEFT), STEP_BLOCKED);
    assert_int_equal(board_step(&f.board, &f.start, DIR_UP), STEP_BLOCKED);
    assert_true(position_equal(&before, &f.start, &f.board));
    position_free(&before);
    level_fixture_close(&f);
}

static void test_push_of_a_box_against_a_wall_is_blocked(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "######\n#. @$#\n######\n");
    assert_int_equal(board_step(&f.board, &f.start, DIR_RIGHT), STEP_BLOCKED);
    level_fixture_assert_position(&f.board, &f.start, "######\n#. @$#\n######\n");
    level_fixture_close(&f);
}

static void test_push_of_a_box_against_another_box_is_blocked(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#######\n#@$$..#\n#######\n");
    assert_int_equal(board_step(&f.board, &f.start, DIR_RIGHT), STEP_BLOCKED);
    level_fixture_assert_position(&f.board, &f.start, "#######\n#@$$..#\n#######\n");
    level_fixture_close(&f);
}

static void test_box_can_never_be_pulled(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#######\n#.$@  #\n#######\n");
    assert_int_equal(board_step(&f.board, &f.start, DIR_RIGHT), STEP_MOVED);
    level_fixture_assert_position(&f.board, &f.start, "#######\n#.$ @ #\n#######\n");
    level_fixture_close(&f);
}

static void test_try_step_tells_without_changing_anything(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#######\n# @$ .#\n#######\n");
    assert_int_equal(board_try_step(&f.board, &f.start, DIR_RIGHT), STEP_PUSHED);
    assert_int_equal(board_try_step(&f.board, &f.start, DIR_LEFT), STEP_MOVED);
    assert_int_equal(board_try_step(&f.board, &f.start, DIR_UP), STEP_BLOCKED);
    level_fixture_assert_position(&f.board, &f.start, "#######\n# @$ .#\n#######\n");
    level_fixture_close(&f);
}

static void test_unstep_takes_back_a_move_and_a_push(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, corridor);
    position before;
    assert_true(position_copy(&before, &f.start, &f.board));
    step_result first = board_step(&f.board, &f.start, DIR_RIGHT);
    step_result second = board_step(&f.board, &f.start, DIR_RIGHT);
    assert_int_equal(second, STEP_PUSHED);
    board_unstep(&f.board, &f.start, DIR_RIGHT, second);
    level_fixture_assert_position(&f.board, &f.start, "#######\n# @$ .#\n#######\n");
    board_unstep(&f.board, &f.start, DIR_RIGHT, first);
    assert_true(position_equal(&before, &f.start, &f.board));
    position_free(&before);
    level_fixture_close(&f);
}

static void test_position_copy_is_independent_of_the_original(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#######\n# @$ .#\n#######\n");
    position copy;
    assert_true(position_copy(&copy, &f.start, &f.board));
    assert_true(position_equal(&copy, &f.start, &f.board));
    board_step(&f.board, &f.start, DIR_RIGHT);
    assert_false(position_equal(&copy, &f.start, &f.board));
    level_fixture_assert_position(&f.board, &copy, "#######\n# @$ .#\n#######\n");
    position_free(&copy);
    level_fixture_close(&f);
}

/* ---------------------------------------------------------------- solved */

static void test_position_is_solved_when_every_box_is_on_a_goal(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#######\n#  @$.#\n#######\n");
    assert_false(position_is_solved(&f.start, &f.board));
    board_step(&f.board, &f.start, DIR_RIGHT);
    assert_true(position_is_solved(&f.start, &f.board));
    level_fixture_close(&f);
}

static void test_position_with_one_of_two_boxes_home_is_not_solved(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#######\n#@$ *.#\n#######\n");
    assert_false(position_is_solved(&f.start, &f.board));
    level_fixture_close(&f);
}

static void test_level_drawn_solved_is_solved_at_the_start(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#####\n#@**#\n#####\n");
    assert_true(position_is_solved(&f.start, &f.board));
    level_fixture_close(&f);
}

static void test_position_is_written_back_as_rows(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "  ####\n###  #\n#+$ *#\n# .$ #\n######\n");
    level_fixture_assert_position(&f.board, &f.start, "  ####\n###  #\n#+$ *#\n# .$ #\n######\n");
    level_fixture_close(&f);
}

/* ---------------------------------------------------------------- paths */

static const char room[] = "#######\n"
                           "#@    #\n"
                           "# ### #\n"
                           "#   $.#\n"
                           "#######\n";

/* Walks `path` from the start and fails unless it ends on `target` with no push. */
static void assert_path_walks_to(level_fixture *f, const direction *path, int length, int target)
{
    position p;
    assert_true(position_copy(&p, &f->start, &f->board));
    for (int i = 0; i < length; i++)
        assert_int_equal(board_step(&f->board, &p, path[i]), STEP_MOVED);
    assert_int_equal(p.player, target);
    position_free(&p);
}

static void test_path_is_the_shortest_walk(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, room);
    direction path[64];
    int target = level_fixture_square(&f.board, 5, 2);
    int length = board_path(&f.board, &f.start, target, path, 64);
    assert_int_equal(length, 5); /* four right, one down */
    assert_path_walks_to(&f, path, length, target);
    level_fixture_close(&f);
}

static void test_path_goes_around_a_box(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#######\n#@$  .#\n#     #\n#######\n");
    direction path[64];
    int target = level_fixture_square(&f.board, 3, 1);
    int length = board_path(&f.board, &f.start, target, path, 64);
    assert_int_equal(length, 4); /* down, right, right, up */
    assert_path_walks_to(&f, path, length, target);
    level_fixture_close(&f);
}

static void test_path_to_the_players_own_square_is_empty(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, room);
    direction path[4];
    assert_int_equal(board_path(&f.board, &f.start, f.start.player, path, 4), 0);
    level_fixture_close(&f);
}

static void test_path_behind_boxes_is_unreachable(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#######\n#@$ ..#\n##$   #\n#######\n");
    direction path[64];
    assert_int_equal(board_path(&f.board, &f.start, level_fixture_square(&f.board, 4, 1), path, 64),
                     -1);
    level_fixture_close(&f);
}

static void test_path_to_a_wall_a_box_or_outside_is_unreachable(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "  #####\n  #@$.#\n  #####\n");
    direction path[8];
    const board *b = &f.board;
    assert_int_equal(board_path(b, &f.start, level_fixture_square(b, 2, 1), path, 8),
                     -1); /* wall */
    assert_int_equal(board_path(b, &f.start, level_fixture_square(b, 4, 1), path, 8), -1); /* box */
    assert_int_equal(board_path(b, &f.start, level_fixture_square(b, 0, 1), path, 8),
                     -1); /* outside */
    assert_int_equal(board_path(b, &f.start, -1, path, 8), -1);
    assert_int_equal(board_path(b, &f.start, b->size, path, 8), -1);
    level_fixture_close(&f);
}

static void test_path_longer_than_the_buffer_gives_its_length_and_first_steps(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, room);
    direction path[2];
    int length = board_path(&f.board, &f.start, level_fixture_square(&f.board, 5, 2), path, 2);
    assert_int_equal(length, 5);
    assert_int_equal(path[0], DIR_RIGHT);
    assert_int_equal(path[1], DIR_RIGHT);
    assert_int_equal(board_path(&f.board, &f.start, level_fixture_square(&f.board, 5, 2), NULL, 0),
                     5);
    level_fixture_close(&f);
}

static void test_reachable_marks_every_square_the_player_can_walk_to(void **state)
{
    (void)state;
    level_fixture f;
    level_fixture_open(&f, "#######\n#@$.# #\n#   # #\n#######\n");
    uint8_t *reach = malloc((size_t)f.board.size);
    assert_int_equal(board_reachable(&f.board, &f.start, reach), 5);
    assert_true(reach[level_fixture_square(&f.board, 1, 1)]);
    assert_true(reach[level_fixture_square(&f.board, 3, 1)]);  /* round the box */
    assert_false(reach[level_fixture_square(&f.board, 2, 1)]); /* the box */
    assert_false(reach[level_fixture_square(&f.board, 5, 1)]); /* another room */
    free(reach);
    level_fixture_close(&f);
}

/* What board_path is for: a solution given as pushes only (which box, which way) becomes
 * a full move sequence by walking behind each box before pushing it. */
static void test_paths_expand_pushes_into_a_full_solution(void **state)
{
    (void)state;
    collection levels;
    game g;
    level_error error;
    static const char text[] = "  #####\n"
                               "###   #\n"
                               "# $ $ #\n"
                               "# #.#.##\n"
                               "#  @   #\n"
                               "########\n";
    if (!collection_parse(text, sizeof text - 1, "test.xsb", &levels, &error))
        fail_msg("%s", error.message);
    assert_true(game_init(&g, &levels.levels[0]));
    static const struct {
        int x, y;
        direction d;
    } pushes[] = {{2, 2, DIR_RIGHT}, {3, 2, DIR_DOWN}, {4, 2, DIR_RIGHT}, {5, 2, DIR_DOWN}};
    for (size_t i = 0; i < sizeof pushes / sizeof pushes[0]; i++) {
        int box = pushes[i].y * g.board.width + pushes[i].x;
        int behind = board_neighbour(&g.board, box, direction_opposite(pushes[i].d));
        assert_true(game_walk_to(&g, behind) >= 0);
        assert_int_equal(game_step_in(&g, pushes[i].d), STEP_PUSHED);
    }
    assert_true(game_is_solved(&g));
    assert_int_equal(g.pushes, 4);
    assert_int_equal(g.moves, 22);
    level_fixture_close_game(&g, &levels);
}

/* ---------------------------------------------------------------- the game */

static void test_game_counts_moves_and_pushes(void **state)
{
    (void)state;
    collection levels;
    game g;
    level_fixture_open_game(&g, &levels, corridor);
    assert_int_equal(game_step_in(&g, DIR_RIGHT), STEP_MOVED);
    assert_int_equal(game_step_in(&g, DIR_RIGHT), STEP_PUSHED);
    assert_int_equal(g.moves, 2);
    assert_int_equal(g.pushes, 1);
    level_fixture_close_game(&g, &levels);
}

static void test_game_blocked_step_is_not_counted(void **state)
{
    (void)state;
    collection levels;
    game g;
    level_fixture_open_game(&g, &levels, corridor);
    assert_int_equal(game_step_in(&g, DIR_UP), STEP_BLOCKED);
    assert_int_equal(g.moves, 0);
    assert_int_equal(g.length, 0);
    assert_false(game_undo(&g));
    level_fixture_close_game(&g, &levels);
}

static void test_game_is_solved_when_the_last_box_reaches_its_goal(void **state)
{
    (void)state;
    collection levels;
    game g;
    level_fixture_open_game(&g, &levels, corridor);
    game_step_in(&g, DIR_RIGHT);
    game_step_in(&g, DIR_RIGHT);
    assert_false(game_is_solved(&g));
    game_step_in(&g, DIR_RIGHT);
    assert_true(game_is_solved(&g));
    level_fixture_close_game(&g, &levels);
}

static void test_undo_takes_back_the_last_step(void **state)
{
    (void)state;
    collection levels;
    game g;
    level_fixture_open_game(&g, &levels, corridor);
    game_step_in(&g, DIR_RIGHT);
    game_step_in(&g, DIR_RIGHT);
    assert_true(game_undo(&g));
    assert_game_position(&g, "#######\n# @$ .#\n#######\n");
    assert_int_equal(g.moves, 1);
    assert_int_equal(g.pushes, 0);
    assert_true(game_undo(&g));
    assert_true(position_equal(&g.position, &g.start, &g.board));
    assert_false(game_undo(&g));
    level_fixture_close_game(&g, &levels);
}

static void test_redo_replays_what_was_undone(void **state)
{
    (void)state;
    collection levels;
    game g;
    level_fixture_open_game(&g, &levels, corridor);
    game_step_in(&g, DIR_RIGHT);
    game_step_in(&g, DIR_RIGHT);
    game_undo(&g);
    game_undo(&g);
    assert_true(game_redo(&g));
    assert_true(game_redo(&g));
    assert_false(game_redo(&g));
    assert_game_position(&g, "#######\n#  @$.#\n#######\n");
    assert_int_equal(g.moves, 2);
    assert_int_equal(g.pushes, 1);
    level_fixture_close_game(&g, &levels);
}

static void test_redo_with_nothing_undone_does_nothing(void **state)
{
    (void)state;
    collection levels;
    game g;
    level_fixture_open_game(&g, &levels, corridor);
    assert_false(game_redo(&g));
    game_step_in(&g, DIR_RIGHT);
    assert_false(game_redo(&g));
    assert_int_equal(g.moves, 1);
    level_fixture_close_game(&g, &levels);
}

static void test_new_step_after_undo_drops_the_redo_branch(void **state)
{
    (void)state;
    collection levels;
    game g;
    level_fixture_open_game(&g, &levels, "#######\n#  $ .#\n#@    #\n#######\n");
    game_step_in(&g, DIR_RIGHT);
    game_step_in(&g, DIR_RIGHT);
    game_undo(&g);
    assert_int_equal(game_step_in(&g, DIR_UP), STEP_MOVED);
    assert_int_equal(g.length, 2);
    assert_false(game_redo(&g));
    char *lurd = game_lurd(&g);
    assert_string_equal(lurd, "ru");
    free(lurd);
    level_fixture_close_game(&g, &levels);
}

static void test_restart_goes_back_to_the_start_and_keeps_the_steps_redoable(void **state)
{
    (void)state;
    collection levels;
    game g;
    level_fixture_open_game(&g, &levels, corridor);
    game_step_in(&g, DIR_RIGHT);
    game_step_in(&g, DIR_RIGHT);
    game_step_in(&g, DIR_RIGHT);
    game_restart(&g);
    assert_true(position_equal(&g.position, &g.start, &g.board));
    assert_int_equal(g.moves, 0);
    assert_int_equal(g.pushes, 0);
    for (int i = 0; i < 3; i++) assert_true(game_redo(&g));
    assert_true(game_is_solved(&g));
    level_fixture_close_game(&g, &levels);
}

static void test_undo_push_goes_back_to_just_after_the_push_before_last(void **state)
{
    (void)state;
    collection levels;
    game g;
    level_fixture_open_game(&g, &levels, "#########\n#@ $   .#\n#       #\n#########\n");
    game_step_in(&g, DIR_RIGHT);
    game_step_in(&g, DIR_RIGHT); /* push A */
    game_step_in(&g, DIR_DOWN);
    game_step_in(&g, DIR_UP);
    game_step_in(&g, DIR_RIGHT); /* push B */
    game_step_in(&g, DIR_DOWN);
    game_step_in(&g, DIR_RIGHT);
    /* push B, the moves after it and the moves that led to it: just after push A */
    assert_true(game_undo_push(&g));
    assert_int_equal(g.moves, 2);
    assert_int_equal(g.pushes, 1);
    /* no push before A: back to the start */
    assert_true(game_undo_push(&g));
    assert_int_equal(g.moves, 0);
    assert_false(game_undo_push(&g));
    assert_int_equal(g.moves, 0);
    level_fixture_close_game(&g, &levels);
}

static void test_undo_push_without_a_push_goes_to_the_start(void **state)
{
    (void)state;
    collection levels;
    game g;
    level_fixture_open_game(&g, &levels, "########\n#@ $  .#\n#      #\n########\n");
    game_step_in(&g, DIR_DOWN);
    game_step_in(&g, DIR_RIGHT);
    assert_true(game_undo_push(&g));
    assert_int_equal(g.moves, 0);
    level_fixture_close_game(&g, &levels);
}

static void test_redo_push_mirrors_undo_push(void **state)
{
    (void)state;
    collection levels;
    game g;
    level_fixture_open_game(&g, &levels, "#########\n#@ $   .#\n#       #\n#########\n");
    direction steps[] = {DIR_RIGHT, DIR_RIGHT, DIR_DOWN, DIR_UP, DIR_RIGHT, DIR_DOWN, DIR_RIGHT};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) game_step_in(&g, steps[i]);
    game_restart(&g);
    /* to just after push A, then to just after push B and, no push being left, the end */
    assert_true(game_redo_push(&g));
    assert_int_equal(g.moves, 2);
    assert_int_equal(g.pushes, 1);
    assert_true(game_redo_push(&g));
    assert_int_equal(g.moves, 7);
    assert_int_equal(g.pushes, 2);
    assert_false(game_redo_push(&g));
    /* undo to the start and redo to the end */
    game_restart(&g);
    game_redo_all(&g);
    assert_int_equal(g.moves, 7);
    level_fixture_close_game(&g, &levels);
}

static void test_many_undos_and_redos_keep_the_counts_right(void **state)
{
    (void)state;
    collection levels;
    game g;
    level_fixture_open_game(&g, &levels, "#########\n#@      #\n# $ $ ..#\n#       #\n#########\n");
    /* more steps than the history's first allocation */
    for (int i = 0; i < 300; i++) {
        assert_int_equal(game_step_in(&g, DIR_DOWN), STEP_MOVED);
        assert_int_equal(game_step_in(&g, DIR_UP), STEP_MOVED);
    }
    assert_int_equal(g.moves, 600);
    game_restart(&g);
    while (game_redo(&g)) {
    }
    assert_int_equal(g.moves, 600);
    assert_int_equal(g.pushes, 0);
    assert_true(position_equal(&g.position, &g.start, &g.board));
    level_fixture_close_game(&g, &levels);
}

static void test_walk_to_takes_the_shortest_path_and_records_it(void **state)
{
    (void)state;
    collection levels;
    game g;
    level_fixture_open_game(&g, &levels, room);
    assert_int_equal(game_walk_to(&g, level_fixture_square(&g.board, 5, 2)), 5);
    assert_int_equal(g.position.player, level_fixture_square(&g.board, 5, 2));
    assert_int_equal(g.moves, 5);
    assert_int_equal(g.pushes, 0);
    assert_true(game_undo(&g));
    assert_int_equal(g.position.player, level_fixture_square(&g.board, 5, 1));
    level_fixture_close_game(&g, &levels);
}

static void test_walk_to_an_unreachable_square_changes_nothing(void **state)
{
    (void)state;
    collection levels;
    game g;
    level_fixture_open_game(&g, &levels, room);
    assert_int_equal(game_walk_to(&g, level_fixture_square(&g.board, 4, 3)), -1); /* the box */
    assert_int_equal(game_walk_to(&g, level_fixture_square(&g.board, 0, 0)), -1); /* a wall */
    assert_int_equal(g.moves, 0);
    assert_true(position_equal(&g.position, &g.start, &g.board));
    level_fixture_close_game(&g, &levels);
}

static void test_game_lurd_writes_moves_lowercase_and_pushes_uppercase(void **state)
{
    (void)state;
    collection levels;
    game g;
    level_fixture_open_game(&g, &levels, corridor);
    game_step_in(&g, DIR_RIGHT);
    game_step_in(&g, DIR_RIGHT);
    game_step_in(&g, DIR_RIGHT);
    game_step_in(&g, DIR_LEFT);
    char *lurd = game_lurd(&g);
    assert_string_equal(lurd, "rRRl");
    free(lurd);
    game_undo(&g);
    lurd = game_lurd(&g);
    assert_string_equal(lurd, "rRR");
    free(lurd);
    level_fixture_close_game(&g, &levels);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_board_marks_walls_goals_and_the_inside),
        cmocka_unit_test(test_board_steps_one_square_in_each_direction),
        cmocka_unit_test(test_direction_letters_are_lowercase_moves_and_uppercase_pushes),
        cmocka_unit_test(test_box_on_goal_outside_the_walls_takes_no_part_in_play),
        cmocka_unit_test(test_step_onto_floor_moves_the_player),
        cmocka_unit_test(test_step_into_a_box_pushes_it),
        cmocka_unit_test(test_pushing_a_box_onto_a_goal_shows_box_on_goal),
        cmocka_unit_test(test_step_into_a_wall_is_blocked),
        cmocka_unit_test(test_push_of_a_box_against_a_wall_is_blocked),
        cmocka_unit_test(test_push_of_a_box_against_another_box_is_blocked),
        cmocka_unit_test(test_box_can_never_be_pulled),
        cmocka_unit_test(test_try_step_tells_without_changing_anything),
        cmocka_unit_test(test_unstep_takes_back_a_move_and_a_push),
        cmocka_unit_test(test_position_copy_is_independent_of_the_original),
        cmocka_unit_test(test_position_is_solved_when_every_box_is_on_a_goal),
        cmocka_unit_test(test_position_with_one_of_two_boxes_home_is_not_solved),
        cmocka_unit_test(test_level_drawn_solved_is_solved_at_the_start),
        cmocka_unit_test(test_position_is_written_back_as_rows),
        cmocka_unit_test(test_path_is_the_shortest_walk),
        cmocka_unit_test(test_path_goes_around_a_box),
        cmocka_unit_test(test_path_to_the_players_own_square_is_empty),
        cmocka_unit_test(test_path_behind_boxes_is_unreachable),
        cmocka_unit_test(test_path_to_a_wall_a_box_or_outside_is_unreachable),
        cmocka_unit_test(test_path_longer_than_the_buffer_gives_its_length_and_first_steps),
        cmocka_unit_test(test_reachable_marks_every_square_the_player_can_walk_to),
        cmocka_unit_test(test_paths_expand_pushes_into_a_full_solution),
        cmocka_unit_test(test_game_counts_moves_and_pushes),
        cmocka_unit_test(test_game_blocked_step_is_not_counted),
        cmocka_unit_test(test_game_is_solved_when_the_last_box_reaches_its_goal),
        cmocka_unit_test(test_undo_takes_back_the_last_step),
        cmocka_unit_test(test_redo_replays_what_was_undone),
        cmocka_unit_test(test_redo_with_nothing_undone_does_nothing),
        cmocka_unit_test(test_new_step_after_undo_drops_the_redo_branch),
        cmocka_unit_test(test_restart_goes_back_to_the_start_and_keeps_the_steps_redoable),
        cmocka_unit_test(test_undo_push_goes_back_to_just_after_the_push_before_last),
        cmocka_unit_test(test_undo_push_without_a_push_goes_to_the_start),
        cmocka_unit_test(test_redo_push_mirrors_undo_push),
        cmocka_unit_test(test_many_undos_and_redos_keep_the_counts_right),
        cmocka_unit_test(test_walk_to_takes_the_shortest_path_and_records_it),
        cmocka_unit_test(test_walk_to_an_unreachable_square_changes_nothing),
        cmocka_unit_test(test_game_lurd_writes_moves_lowercase_and_pushes_uppercase),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
