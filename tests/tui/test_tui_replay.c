/* test_tui_replay.c - the game's animated replay (src/tui/replay.c) and key map
 * (src/tui/keys.c): the parts of the front-end that need no terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <curses.h>

#include "rules/game.h"
#include "level/level.h"
#include "tui/keys.h"
#include "tui/replay.h"

/* ---------------------------------------------------------------- helpers */

static const char corridor[] = "#######\n"
                               "#@ $ .#\n"
                               "#######\n";

typedef struct fixture {
    collection levels;
    game game;
    replay replay;
} fixture;

static void fixture_open(fixture *f, const char *text)
{
    level_error error;
    if (!collection_parse(text, strlen(text), "test.xsb", &f->levels, &error))
        fail_msg("%s", error.message);
    assert_true(game_init(&f->game, &f->levels.levels[0]));
    replay_init(&f->replay);
}

static void fixture_close(fixture *f)
{
    replay_stop(&f->replay);
    game_free(&f->game);
    collection_free(&f->levels);
}

/* ---------------------------------------------------------------- replay */

static void test_replay_plays_nothing_before_the_first_step_is_due(void **state)
{
    (void)state;
    fixture f;
    fixture_open(&f, corridor);
    assert_true(replay_start(&f.replay, "rRR", "test", NULL, 0));
    assert_int_equal(replay_tick(&f.replay, &f.game, f.replay.due - 1), 0);
    assert_int_equal(f.game.moves, 0);
    assert_true(replay_timeout_ms(&f.replay, f.replay.due - 10) > 0);
    fixture_close(&f);
}

static void test_replay_plays_every_step_then_stops_solved(void **state)
{
    (void)state;
    fixture f;
    fixture_open(&f, corridor);
    assert_true(replay_start(&f.replay, "rRR", "test", NULL, 0));
    for (int i = 0; i < 3; i++) assert_int_equal(replay_tick(&f.replay, &f.game, f.replay.due), 1);
    assert_false(f.replay.active);
    assert_int_equal(f.game.moves, 3);
    assert_int_equal(f.game.pushes, 2);
    assert_true(game_is_solved(&f.game));
    assert_int_equal(replay_timeout_ms(&f.replay, 0), -1);
    fixture_close(&f);
}

static void test_replay_paused_waits_but_steps_on_request(void **state)
{
    (void)state;
    fixture f;
    fixture_open(&f, corridor);
    assert_true(replay_start(&f.replay, "rRR", "test", NULL, 0));
    replay_toggle_pause(&f.replay);
    assert_int_equal(replay_timeout_ms(&f.replay, 0), -1);
    assert_int_equal(replay_tick(&f.replay, &f.game, f.replay.due + 1e6), 0);
    assert_int_equal(replay_step(&f.replay, &f.game), 1);
    assert_int_equal(f.game.moves, 1);
    assert_true(f.replay.active);
    fixture_close(&f);
}

static void test_replay_stops_at_a_step_the_rules_refuse(void **state)
{
    (void)state;
    fixture f;
    fixture_open(&f, corridor);
    assert_true(replay_start(&f.replay, "lr", "test", NULL, 0));
    assert_int_equal(replay_tick(&f.replay, &f.game, f.replay.due), -1);
    assert_false(f.replay.active);
    assert_int_equal(f.game.moves, 0);
    fixture_close(&f);
}

/* A replay of no steps (an empty solution) is over before it starts: no step is read. */
static void test_replay_of_no_steps_plays_nothing(void **state)
{
    (void)state;
    fixture f;
    fixture_open(&f, corridor);
    assert_true(replay_start(&f.replay, "", "test", NULL, 0));
    assert_false(f.replay.active);
    assert_int_equal(replay_tick(&f.replay, &f.game, f.replay.due + 1e6), 0);
    assert_int_equal(replay_step(&f.replay, &f.game), 0);
    assert_int_equal(replay_finish(&f.replay, &f.game), 0);
    assert_true(replay_start_steps(&f.replay, NULL, 0, "test"));
    assert_false(f.replay.active);
    assert_int_equal(replay_step(&f.replay, &f.game), 0);
    assert_int_equal(f.game.moves, 0);
    fixture_close(&f);
}

static void test_replay_refuses_text_that_is_not_lurd(void **state)
{
    (void)state;
    fixture f;
    fixture_open(&f, corridor);
    char error[256] = "";
    assert_false(replay_start(&f.replay, "rxR", "test", error, sizeof error));
    assert_true(error[0] != 0);
    assert_false(f.replay.active);
    fixture_close(&f);
}

static void test_replay_after_a_stall_catches_up_a_few_steps_at_a_time(void **state)
{
    (void)state;
    fixture f;
    fixture_open(&f, "#########\n"
                     "#@     .#\n"
                     "#$      #\n"
                     "#########\n");
    assert_true(replay_start(&f.replay, "rrrrrllll", "test", NULL, 0));
    int played = replay_tick(&f.replay, &f.game, f.replay.due + 1e6);
    assert_true(played > 1 && played < 9);
    assert_true(f.replay.active);
    fixture_close(&f);
}

static void test_replay_speed_stays_in_bounds_and_outlives_a_stop(void **state)
{
    (void)state;
    replay r;
    replay_init(&r);
    double initial = replay_steps_per_second(&r);
    for (int i = 0; i < 2 * REPLAY_SPEED_COUNT; i++) replay_faster(&r);
    assert_int_equal(r.speed, REPLAY_SPEED_COUNT - 1);
    assert_true(replay_steps_per_second(&r) > initial);
    replay_stop(&r);
    assert_int_equal(r.speed, REPLAY_SPEED_COUNT - 1);
    for (int i = 0; i < 2 * REPLAY_SPEED_COUNT; i++) replay_slower(&r);
    assert_int_equal(r.speed, 0);
    replay_stop(&r);
}

static void test_replay_steps_back_and_pauses(void **state)
{
    (void)state;
    fixture f;
    fixture_open(&f, corridor);
    assert_true(replay_start(&f.replay, "rRR", "test", NULL, 0));
    assert_int_equal(replay_step_back(&f.replay, &f.game), 0); /* nothing played yet */
    assert_int_equal(replay_tick(&f.replay, &f.game, f.replay.due), 1);
    assert_int_equal(replay_step(&f.replay, &f.game), 1);
    assert_int_equal(f.game.pushes, 1);
    assert_int_equal(replay_step_back(&f.replay, &f.game), 1);
    assert_int_equal(f.game.moves, 1);
    assert_int_equal(f.game.pushes, 0);
    assert_true(f.replay.paused);
    /* and forward again, to the end */
    assert_int_equal(replay_step(&f.replay, &f.game), 1);
    assert_int_equal(replay_step(&f.replay, &f.game), 1);
    assert_true(game_is_solved(&f.game));
    assert_false(f.replay.active);
    fixture_close(&f);
}

static void test_replay_jumps_to_its_end(void **state)
{
    (void)state;
    fixture f;
    fixture_open(&f, corridor);
    assert_true(replay_start(&f.replay, "rRR", "test", NULL, 0));
    assert_int_equal(replay_finish(&f.replay, &f.game), 3);
    assert_false(f.replay.active);
    assert_true(game_is_solved(&f.game));
    fixture_close(&f);
}

static void test_replay_held_stands_still_and_carries_on_after(void **state)
{
    (void)state;
    fixture f;
    fixture_open(&f, corridor);
    assert_true(replay_start(&f.replay, "rRR", "test", NULL, 0));
    replay_hold(&f.replay, true);
    assert_int_equal(replay_timeout_ms(&f.replay, 0), -1);
    assert_int_equal(replay_tick(&f.replay, &f.game, f.replay.due + 1e6), 0);
    assert_int_equal(f.game.moves, 0);
    replay_hold(&f.replay, false);
    assert_true(f.replay.active);
    assert_false(f.replay.paused);
    assert_true(replay_timeout_ms(&f.replay, replay_now_ms()) >= 0);
    assert_int_equal(replay_tick(&f.replay, &f.game, f.replay.due), 1);
    /* a pause the player chose outlives a hold */
    replay_toggle_pause(&f.replay);
    replay_hold(&f.replay, true);
    replay_hold(&f.replay, false);
    assert_true(f.replay.paused);
    fixture_close(&f);
}

/* ---------------------------------------------------------------- keys */

static void test_keys_move_with_arrows_vi_and_wasd(void **state)
{
    (void)state;
    const int left[] = {KEY_LEFT, 'h', 'a'}, up[] = {KEY_UP, 'k', 'w'};
    const int right[] = {KEY_RIGHT, 'l', 'd'}, down[] = {KEY_DOWN, 'j', 's'};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(keys_action(left[i]), KEY_ACTION_LEFT);
        assert_int_equal(keys_action(up[i]), KEY_ACTION_UP);
        assert_int_equal(keys_action(right[i]), KEY_ACTION_RIGHT);
        assert_int_equal(keys_action(down[i]), KEY_ACTION_DOWN);
        assert_true(keys_is_move(keys_action(left[i])));
    }
}

static void test_keys_undo_redo_and_the_solver(void **state)
{
    (void)state;
    assert_int_equal(keys_action('u'), KEY_ACTION_UNDO);
    assert_int_equal(keys_action(KEY_BACKSPACE), KEY_ACTION_UNDO);
    assert_int_equal(keys_action(127), KEY_ACTION_UNDO);
    assert_int_equal(keys_action('U'), KEY_ACTION_REDO);
    assert_int_equal(keys_action('R' & 0x1f), KEY_ACTION_REDO);
    assert_int_equal(keys_action('H'), KEY_ACTION_HINT);
    assert_int_equal(keys_action('S'), KEY_ACTION_SOLVE);
    assert_int_equal(keys_action('D'), KEY_ACTION_DEAD_SQUARES);
    assert_int_equal(keys_action('L'), KEY_ACTION_LEVEL_LIST);
    assert_int_equal(keys_action('q'), KEY_ACTION_QUIT);
    assert_int_equal(keys_action('\r'), KEY_ACTION_ENTER);
    assert_int_equal(keys_action(27), KEY_ACTION_ESCAPE);
    assert_int_equal(keys_action('R'), KEY_ACTION_NONE);
    assert_int_equal(keys_action('`'), KEY_ACTION_NONE);
}

static void test_keys_undo_and_redo_by_push_and_to_either_end(void **state)
{
    (void)state;
    assert_int_equal(keys_action('z'), KEY_ACTION_UNDO_PUSH);
    assert_int_equal(keys_action('x'), KEY_ACTION_REDO_PUSH);
    assert_int_equal(keys_action('Z'), KEY_ACTION_UNDO_PUSH);
    assert_int_equal(keys_action('X'), KEY_ACTION_REDO_PUSH);
    assert_int_equal(keys_action(KEY_HOME), KEY_ACTION_TO_START);
    assert_int_equal(keys_action(KEY_END), KEY_ACTION_TO_END);
    assert_int_equal(keys_action(','), KEY_ACTION_STEP_BACK);
}

static void test_keys_caps_lock_capitals_of_free_movement_letters_move(void **state)
{
    (void)state;
    assert_int_equal(keys_action('W'), KEY_ACTION_UP);
    assert_int_equal(keys_action('K'), KEY_ACTION_UP);
    assert_int_equal(keys_action('A'), KEY_ACTION_LEFT);
    assert_int_equal(keys_action('J'), KEY_ACTION_DOWN);
    /* the capitals that are commands stay commands */
    assert_int_equal(keys_action('H'), KEY_ACTION_HINT);
    assert_int_equal(keys_action('L'), KEY_ACTION_LEVEL_LIST);
}

static void test_keys_help_names_every_key_once_per_line(void **state)
{
    (void)state;
    int count;
    const keys_help_line *lines = keys_help(&count);
    assert_true(count > 10);
    for (int i = 0; i < count; i++) {
        assert_true(lines[i].keys[0] != 0);
        assert_true(lines[i].what[0] != 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replay_plays_nothing_before_the_first_step_is_due),
        cmocka_unit_test(test_replay_plays_every_step_then_stops_solved),
        cmocka_unit_test(test_replay_paused_waits_but_steps_on_request),
        cmocka_unit_test(test_replay_stops_at_a_step_the_rules_refuse),
        cmocka_unit_test(test_replay_refuses_text_that_is_not_lurd),
        cmocka_unit_test(test_replay_of_no_steps_plays_nothing),
        cmocka_unit_test(test_replay_after_a_stall_catches_up_a_few_steps_at_a_time),
        cmocka_unit_test(test_replay_speed_stays_in_bounds_and_outlives_a_stop),
        cmocka_unit_test(test_replay_steps_back_and_pauses),
        cmocka_unit_test(test_replay_jumps_to_its_end),
        cmocka_unit_test(test_replay_held_stands_still_and_carries_on_after),
        cmocka_unit_test(test_keys_move_with_arrows_vi_and_wasd),
        cmocka_unit_test(test_keys_undo_redo_and_the_solver),
        cmocka_unit_test(test_keys_help_names_every_key_once_per_line),
        cmocka_unit_test(test_keys_undo_and_redo_by_push_and_to_either_end),
        cmocka_unit_test(test_keys_caps_lock_capitals_of_free_movement_letters_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
