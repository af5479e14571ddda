/* test_level_edit.c - the level editor's logic: pieces put and stacked, the level growing and
 * shrinking, undo and redo, the eight orientations, normalising, and the checker's word. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "level/level_edit.h"

enum { ORIGIN = EDIT_CANVAS_SIDE / 2 };

/* Draws `rows` (XSB, '\n' between rows) with one put a square from (ORIGIN, ORIGIN). */
static void draw(level_edit *e, const char *rows)
{
    int x = 0, y = 0;
    for (const char *c = rows; *c; c++) {
        if (*c == '\n') {
            x = 0;
            y++;
            continue;
        }
        if (*c != ' ') level_edit_put(e, ORIGIN + x, ORIGIN + y, (edit_piece)*c);
        x++;
    }
}

/* The level's rectangle as rows, trailing floor kept, '\n' between rows. */
static char *shown(const level_edit *e)
{
    edit_bounds b = level_edit_bounds(e);
    char *text = calloc((size_t)(b.width + 1) * (size_t)(b.height + 1) + 1, 1), *at = text;
    for (int y = 0; y < b.height; y++) {
        if (y) *at++ = '\n';
        for (int x = 0; x < b.width; x++) *at++ = level_edit_at(e, b.x + x, b.y + y);
    }
    return text;
}

static void assert_shown(const level_edit *e, const char *expected)
{
    char *text = shown(e);
    assert_string_equal(text, expected);
    free(text);
}

static const char *SMALL = "#####\n"
                           "#@$.#\n"
                           "#####";

static void test_a_new_level_is_empty_and_says_so(void **state)
{
    (void)state;
    level_edit e;
    assert_true(level_edit_init(&e));
    assert_int_equal(level_edit_bounds(&e).width, 0);
    collection c;
    char why[200];
    assert_false(level_edit_check(&e, "new", &c, why, sizeof why));
    assert_string_equal(why, "nothing drawn yet");
    level_edit_free(&e);
}

static void test_drawn_level_is_checked_playable(void **state)
{
    (void)state;
    level_edit e;
    assert_true(level_edit_init(&e));
    draw(&e, SMALL);
    assert_shown(&e, SMALL);
    collection c;
    char why[200] = "";
    assert_true(level_edit_check(&e, "new", &c, why, sizeof why));
    assert_int_equal(c.count, 1);
    assert_int_equal(c.levels[0].width, 5);
    collection_free(&c);
    level_edit_free(&e);
}

/* What the checker says, for the map drawn. */
static void assert_problem(const char *map, const char *expected)
{
    level_edit e;
    assert_true(level_edit_init(&e));
    draw(&e, map);
    collection c;
    char why[200] = "";
    assert_false(level_edit_check(&e, "new", &c, why, sizeof why));
    assert_string_equal(why, expected);
    collection_free(&c);
    level_edit_free(&e);
}

static void test_checker_names_what_is_wrong(void **state)
{
    (void)state;
    assert_problem("#####\n#.$ #\n#####", "no player");
    assert_problem("######\n#@$$.#\n######", "2 boxes but 1 goal");
    assert_problem("#####\n#@$. \n#####", "open wall at row 2: the player can walk off the board");
    assert_problem("#####\n#@$.#\n#####\n  $.", "box at row 4, column 3 is walled off from the "
                                                "player");
}

static void test_box_put_on_goal_is_box_on_goal(void **state)
{
    (void)state;
    level_edit e;
    assert_true(level_edit_init(&e));
    level_edit_put(&e, ORIGIN, ORIGIN, EDIT_GOAL);
    level_edit_put(&e, ORIGIN, ORIGIN, EDIT_BOX);
    assert_int_equal(level_edit_at(&e, ORIGIN, ORIGIN), '*');
    level_edit_put(&e, ORIGIN + 1, ORIGIN, EDIT_PLAYER);
    level_edit_put(&e, ORIGIN + 1, ORIGIN, EDIT_GOAL);
    assert_int_equal(level_edit_at(&e, ORIGIN + 1, ORIGIN), '+');
    /* erase takes the top piece off: the goal stays */
    assert_int_equal(level_edit_put(&e, ORIGIN, ORIGIN, EDIT_ERASE), EDIT_DONE);
    assert_int_equal(level_edit_at(&e, ORIGIN, ORIGIN), '.');
    level_edit_free(&e);
}

static void test_second_player_moves_the_first(void **state)
{
    (void)state;
    level_edit e;
    assert_true(level_edit_init(&e));
    draw(&e, "#######\n#+ $  #\n#######");
    level_edit_put(&e, ORIGIN + 5, ORIGIN + 1, EDIT_PLAYER);
    assert_shown(&e, "#######\n#. $ @#\n#######");
    assert_int_equal(level_edit_count(&e).players, 1);
    /* one undo step puts him back */
    level_edit_undo(&e);
    assert_shown(&e, "#######\n#+ $  #\n#######");
    level_edit_free(&e);
}

static void test_level_grows_and_shrinks_as_drawn(void **state)
{
    (void)state;
    level_edit e;
    assert_true(level_edit_init(&e));
    draw(&e, SMALL);
    level_edit_put(&e, ORIGIN - 2, ORIGIN - 1, EDIT_WALL);
    edit_bounds b = level_edit_bounds(&e);
    assert_int_equal(b.x, ORIGIN - 2);
    assert_int_equal(b.y, ORIGIN - 1);
    assert_int_equal(b.width, 7);
    assert_int_equal(b.height, 4);
    level_edit_put(&e, ORIGIN - 2, ORIGIN - 1, EDIT_FLOOR);
    assert_shown(&e, SMALL);
    level_edit_free(&e);
}

static void test_level_stops_at_the_largest_side(void **state)
{
    (void)state;
    level_edit e;
    assert_true(level_edit_init(&e));
    assert_int_equal(level_edit_put(&e, 10, 10, EDIT_WALL), EDIT_DONE);
    assert_int_equal(level_edit_put(&e, 10 + LEVEL_MAX_SIDE - 1, 10, EDIT_WALL), EDIT_DONE);
    assert_int_equal(level_edit_put(&e, 10 + LEVEL_MAX_SIDE, 10, EDIT_WALL), EDIT_TOO_LARGE);
    assert_int_equal(level_edit_put(&e, 9, 10, EDIT_WALL), EDIT_TOO_LARGE);
    assert_int_equal(level_edit_bounds(&e).width, LEVEL_MAX_SIDE);
    /* off the canvas */
    assert_int_equal(level_edit_put(&e, -1, 10, EDIT_WALL), EDIT_TOO_LARGE);
    level_edit_free(&e);
}

static void test_undo_and_redo_walk_the_edits(void **state)
{
    (void)state;
    level_edit e;
    assert_true(level_edit_init(&e));
    draw(&e, SMALL);
    int steps = e.done;
    assert_int_equal(steps, 15); /* one step a square drawn */
    /* putting what is there already is no step */
    assert_int_equal(level_edit_put(&e, ORIGIN, ORIGIN, EDIT_WALL), EDIT_UNCHANGED);
    assert_int_equal(e.done, steps);
    for (int i = 0; i < steps; i++) assert_int_equal(level_edit_undo(&e), EDIT_DONE);
    assert_int_equal(level_edit_undo(&e), EDIT_UNCHANGED);
    assert_int_equal(level_edit_bounds(&e).width, 0);
    for (int i = 0; i < steps; i++) assert_int_equal(level_edit_redo(&e), EDIT_DONE);
    assert_int_equal(level_edit_redo(&e), EDIT_UNCHANGED);
    assert_shown(&e, SMALL);
    /* a new edit drops what could be redone */
    level_edit_undo(&e);
    level_edit_put(&e, ORIGIN + 7, ORIGIN, EDIT_WALL);
    assert_int_equal(level_edit_redo(&e), EDIT_UNCHANGED);
    level_edit_free(&e);
}

static void test_drag_is_one_undo_step(void **state)
{
    (void)state;
    level_edit e;
    assert_true(level_edit_init(&e));
    level_edit_begin_group(&e);
    for (int x = 0; x < 6; x++) level_edit_put(&e, ORIGIN + x, ORIGIN, EDIT_WALL);
    level_edit_end_group(&e);
    assert_int_equal(e.done, 1);
    assert_shown(&e, "######");
    level_edit_undo(&e);
    assert_int_equal(level_edit_bounds(&e).width, 0);
    /* a drag that painted nothing leaves no step */
    level_edit_begin_group(&e);
    level_edit_end_group(&e);
    assert_int_equal(e.done, 0);
    assert_int_equal(level_edit_redo(&e), EDIT_DONE);
    assert_shown(&e, "######");
    level_edit_free(&e);
}

static const char *L_SHAPE = "###\n"
                             "#@#\n"
                             "#$####\n"
                             "#.   #\n"
                             "######";

static void test_rotation_turns_clockwise(void **state)
{
    (void)state;
    level_edit e;
    assert_true(level_edit_init(&e));
    draw(&e, L_SHAPE);
    assert_int_equal(level_edit_transform(&e, 1, false), EDIT_DONE);
    assert_shown(&e, "#####\n"
                     "#.$@#\n"
                     "# ###\n"
                     "# #  \n"
                     "# #  \n"
                     "###  ");
    level_edit_free(&e);
}

static void test_mirror_flips_left_to_right(void **state)
{
    (void)state;
    level_edit e;
    assert_true(level_edit_init(&e));
    draw(&e, L_SHAPE);
    assert_int_equal(level_edit_transform(&e, 0, true), EDIT_DONE);
    assert_shown(&e, "   ###\n"
                     "   #@#\n"
                     "####$#\n"
                     "#   .#\n"
                     "######");
    level_edit_free(&e);
}

/* A level the same mirrored (or turned) is left as it is: no change counted, no undo step,
 * where the editor marked it changed ("edit*") and asked before leaving. */
static void test_a_symmetric_level_mirrored_is_unchanged(void **state)
{
    (void)state;
    level_edit e;
    assert_true(level_edit_init(&e));
    draw(&e, "#######\n"
             "#.   .#\n"
             "#  $  #\n"
             "# $@$ #\n"
             "#  $  #\n"
             "#.   .#\n"
             "#######");
    unsigned long changes = e.changes;
    assert_int_equal(level_edit_transform(&e, 0, true), EDIT_UNCHANGED);
    assert_int_equal(level_edit_transform(&e, 2, false), EDIT_UNCHANGED);
    assert_int_equal(e.changes, changes);
    assert_int_equal(level_edit_transform(&e, 1, false), EDIT_UNCHANGED); /* square, too */
    assert_int_equal(e.changes, changes);
    level_edit_free(&e);
}

static void test_eight_orientations_are_all_different_and_four_turns_come_back(void **state)
{
    (void)state;
    level_edit e;
    assert_true(level_edit_init(&e));
    draw(&e, L_SHAPE);
    char *seen[8];
    for (int i = 0; i < 8; i++) {
        edit_result result = level_edit_transform(&e, i % 4, i >= 4);
        seen[i] = shown(&e);
        for (int k = 0; k < i; k++) assert_string_not_equal(seen[i], seen[k]);
        /* back to the drawn level for the next (the first, no turn, left it as it was) */
        if (result == EDIT_DONE) level_edit_undo(&e);
    }
    for (int i = 0; i < 4; i++) level_edit_transform(&e, 1, false);
    assert_shown(&e, "###   \n#@#   \n#$####\n#.   #\n######");
    for (int i = 0; i < 8; i++) free(seen[i]);
    level_edit_free(&e);
}

static void test_transform_is_one_undo_step_and_turns_the_cursor(void **state)
{
    (void)state;
    level_edit e;
    assert_true(level_edit_init(&e));
    draw(&e, L_SHAPE);
    e.cursor = level_edit_square(ORIGIN + 1, ORIGIN + 1); /* on the player */
    level_edit_transform(&e, 1, false);
    assert_int_equal(level_edit_at(&e, e.cursor % EDIT_CANVAS_SIDE, e.cursor / EDIT_CANVAS_SIDE),
                     '@');
    level_edit_undo(&e);
    assert_shown(&e, "###   \n#@#   \n#$####\n#.   #\n######");
    assert_int_equal(e.cursor, level_edit_square(ORIGIN + 1, ORIGIN + 1));
    level_edit_free(&e);
}

static void test_normalise_removes_what_is_outside(void **state)
{
    (void)state;
    level_edit e;
    assert_true(level_edit_init(&e));
    draw(&e, "##        \n"
             "   #####  \n"
             "   #@$.#  \n"
             "   #####  \n"
             "         #");
    assert_int_equal(level_edit_normalise(&e), EDIT_DONE);
    assert_shown(&e, SMALL);
    /* nothing more to do */
    assert_int_equal(level_edit_normalise(&e), EDIT_UNCHANGED);
    level_edit_undo(&e);
    assert_int_equal(level_edit_bounds(&e).width, 10);
    level_edit_free(&e);
}

static void test_normalise_keeps_corner_walls_and_needs_closed_walls(void **state)
{
    (void)state;
    level_edit e;
    assert_true(level_edit_init(&e));
    draw(&e, "#####\n#@$.#\n#### ");
    assert_int_equal(level_edit_normalise(&e), EDIT_UNCHANGED); /* open: nothing removed */
    level_edit_put(&e, ORIGIN + 4, ORIGIN + 2, EDIT_WALL);
    assert_int_equal(level_edit_normalise(&e), EDIT_UNCHANGED); /* corners touch the inside */
    assert_shown(&e, SMALL);
    level_edit_free(&e);
}

static void test_text_reads_back_as_the_same_level(void **state)
{
    (void)state;
    level_edit e;
    assert_true(level_edit_init(&e));
    draw(&e, L_SHAPE);
    level_edit_set_text(&e.title, "Corner");
    level_edit_set_text(&e.author, "A. Player");
    level_edit_set_text(&e.comment, "two lines\n####");
    char *text = level_edit_text(&e);
    assert_string_equal(text, "###\n#@#\n#$####\n#.   #\n######\nTitle: Corner\n"
                              "Author: A. Player\nComment:\ntwo lines\n####\nComment-End:\n\n");
    collection c;
    level_error error;
    assert_true(collection_parse(text, strlen(text), "mine", &c, &error));
    assert_int_equal(c.count, 1);
    assert_null(c.levels[0].error);
    assert_string_equal(c.levels[0].title, "Corner");
    assert_string_equal(c.levels[0].author, "A. Player");
    assert_string_equal(c.levels[0].comment, "two lines\n####");
    level_edit f;
    assert_true(level_edit_init_from(&f, &c.levels[0]));
    assert_shown(&f, "###   \n#@#   \n#$####\n#.   #\n######");
    assert_string_equal(f.title, "Corner");
    level_edit_free(&f);
    collection_free(&c);
    free(text);
    level_edit_free(&e);
}

/* A level that cannot be played (two players) opens as it was drawn, and the checker says
 * what is wrong, so that the player can mend it. */
static void test_level_that_cannot_be_played_opens_to_be_mended(void **state)
{
    (void)state;
    const char *text = "; Twins\n######\n#@$.@#\n######\n";
    collection c;
    level_error error;
    assert_true(collection_parse(text, strlen(text), "mine", &c, &error));
    assert_non_null(c.levels[0].error);
    level_edit e;
    assert_true(level_edit_init_from(&e, &c.levels[0]));
    assert_shown(&e, "######\n#@$.@#\n######");
    assert_string_equal(e.title, "Twins");
    level_edit_free(&e);
    collection_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_new_level_is_empty_and_says_so),
        cmocka_unit_test(test_drawn_level_is_checked_playable),
        cmocka_unit_test(test_checker_names_what_is_wrong),
        cmocka_unit_test(test_box_put_on_goal_is_box_on_goal),
        cmocka_unit_test(test_second_player_moves_the_first),
        cmocka_unit_test(test_level_grows_and_shrinks_as_drawn),
        cmocka_unit_test(test_level_stops_at_the_largest_side),
        cmocka_unit_test(test_undo_and_redo_walk_the_edits),
        cmocka_unit_test(test_drag_is_one_undo_step),
        cmocka_unit_test(test_rotation_turns_clockwise),
        cmocka_unit_test(test_mirror_flips_left_to_right),
        cmocka_unit_test(test_a_symmetric_level_mirrored_is_unchanged),
        cmocka_unit_test(test_eight_orientations_are_all_different_and_four_turns_come_back),
        cmocka_unit_test(test_transform_is_one_undo_step_and_turns_the_cursor),
        cmocka_unit_test(test_normalise_removes_what_is_outside),
        cmocka_unit_test(test_normalise_keeps_corner_walls_and_needs_closed_walls),
        cmocka_unit_test(test_level_that_cannot_be_played_opens_to_be_mended),
        cmocka_unit_test(test_text_reads_back_as_the_same_level),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
