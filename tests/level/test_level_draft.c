/* test_level_draft.c - the editor's drafts (src/level/level_draft.c): a drawing kept under a
 * plain name of its key inside the drafts folder, read back square for square with its
 * fields, and only ever offered to its own level: its key and the text it began from. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "level/level_draft.h"
#include "scratch.h"

/* Puts the rows of `map` on the canvas with their top left corner at (x, y). */
static void draw(level_edit *edit, int x, int y, const char *map)
{
    for (int row = 0; *map; row++) {
        for (int column = 0; *map && *map != '\n'; column++, map++)
            if (*map != ' ') level_edit_put(edit, x + column, y + row, (edit_piece)*map);
        if (*map == '\n') map++;
    }
}

static void test_the_key_names_the_file_and_the_level(void **state)
{
    (void)state;
    char key[LEVEL_DRAFT_KEY_MAX];
    level_draft_key(NULL, 0, key, sizeof key);
    assert_string_equal(key, "new");
    level_draft_key("/nowhere/at/all.sok", 3, key, sizeof key);
    assert_string_equal(key, "/nowhere/at/all.sok:3");
    /* standard input: no file to know the level by again, no draft */
    level_draft_key("-", 3, key, sizeof key);
    assert_string_equal(key, LEVEL_DRAFT_STDIN);
}

static void test_the_file_name_is_plain_and_differs_by_folder(void **state)
{
    (void)state;
    char one[SAFE_FILE_NAME_MAX + 1], two[SAFE_FILE_NAME_MAX + 1];
    level_draft_file_name("/home/a/levels.sok:3", one, sizeof one);
    level_draft_file_name("/home/b/levels.sok:3", two, sizeof two);
    assert_memory_equal(one, "levels.sok_3-", 13);
    assert_non_null(strstr(one, ".draft"));
    assert_string_not_equal(one, two);
    level_draft_file_name("/x/../../etc/passwd:1", one, sizeof one);
    assert_null(strchr(one, '/'));
    assert_true(one[0] != '.');
    char *long_key = malloc(3000);
    memset(long_key, 'a', 2999);
    long_key[2999] = '\0';
    level_draft_file_name(long_key, one, sizeof one);
    assert_true(strlen(one) <= SAFE_FILE_NAME_MAX);
    assert_non_null(strstr(one, ".draft"));
    free(long_key);
}

/* The level's text as the editor opened it: the draft began from it. */
static const char LEVEL[] = "#####\n#@$.#\n#####\n";

static void test_a_drawing_comes_back_square_for_square(void **state)
{
    (void)state;
    char *folder = scratch_make("draft");
    char drafts[4096];
    snprintf(drafts, sizeof drafts, "%s/sokoban/drafts", folder); /* made when missing */
    level_edit edit;
    assert_true(level_edit_init(&edit));
    /* not playable: no player, pieces apart */
    draw(&edit, 10, 20, "#####\n#.$ #\n\n  # *");
    level_edit_set_text(&edit.title, "Half done");
    level_edit_set_text(&edit.comment, "two\nlines");
    edit.cursor = level_edit_square(12, 21);
    char why[600];
    assert_true(level_draft_write(drafts, "/home/a/levels.sok:3", LEVEL, &edit, why, sizeof why));

    level_edit back;
    time_t when = 0;
    assert_true(level_draft_read(drafts, "/home/a/levels.sok:3", LEVEL, &back, &when));
    assert_true(when > 0);
    assert_memory_equal(back.canvas, edit.canvas, EDIT_CANVAS_SIDE * EDIT_CANVAS_SIDE);
    assert_string_equal(back.title, "Half done");
    assert_string_equal(back.author, "");
    assert_string_equal(back.comment, "two\nlines");
    assert_int_equal(back.cursor, edit.cursor);
    level_edit_free(&back);

    /* another level's key finds nothing, and removed it is gone */
    assert_false(level_draft_read(drafts, "/home/b/levels.sok:3", LEVEL, &back, &when));
    level_draft_remove(drafts, "/home/a/levels.sok:3");
    assert_false(level_draft_read(drafts, "/home/a/levels.sok:3", LEVEL, &back, &when));
    level_edit_free(&edit);
    scratch_remove(folder);
}

static void test_a_draft_is_not_offered_to_a_level_whose_text_changed(void **state)
{
    (void)state;
    char *folder = scratch_make("draft");
    level_edit edit, back;
    assert_true(level_edit_init(&edit));
    draw(&edit, 0, 0, "#####\n#@$.#\n# ###");
    char why[600];
    time_t when;
    assert_true(level_draft_write(folder, "/home/a/levels.sok:3", LEVEL, &edit, why, sizeof why));
    /* a level inserted before it: level 3 of that file is now another level */
    assert_false(
        level_draft_read(folder, "/home/a/levels.sok:3", "#####\n#@*#\n####\n", &back, &when));
    /* a new level's draft began from nothing: not offered to a level of a file */
    assert_false(level_draft_read(folder, "/home/a/levels.sok:3", NULL, &back, &when));
    /* the draft stays for its own level, should the file come back as it was */
    assert_true(level_draft_read(folder, "/home/a/levels.sok:3", LEVEL, &back, &when));
    level_edit_free(&back);

    /* a new level's draft: the empty text is its own */
    assert_true(level_draft_write(folder, "new", NULL, &edit, why, sizeof why));
    assert_true(level_draft_read(folder, "new", "", &back, &when));
    level_edit_free(&back);

    /* a level from standard input keeps none, and says why */
    assert_false(level_draft_write(folder, LEVEL_DRAFT_STDIN, LEVEL, &edit, why, sizeof why));
    assert_non_null(strstr(why, "standard input"));
    assert_false(level_draft_read(folder, LEVEL_DRAFT_STDIN, LEVEL, &back, &when));
    level_edit_free(&edit);
    scratch_remove(folder);
}

/* A draft's first lines: the new level's key, begun from the empty text. */
#define HEAD "sokoban draft 2\nkey 3\nnew\nopened cbf29ce484222325\n"

static void test_a_broken_draft_is_not_offered(void **state)
{
    (void)state;
    char *folder = scratch_make("draft");
    char name[SAFE_FILE_NAME_MAX + 1];
    level_draft_file_name("new", name, sizeof name);
    const char *broken[] = {
        "",
        HEAD "",
        HEAD "title 0\n\nauthor 0\n\ncomment 0\n\nmap 0 0 2 1 0\n#X\n",
        HEAD "title 99\n\nauthor 0\n\ncomment 0\n\nmap 0 0 1 1 0\n#\n",
        HEAD "title 0\n\nauthor 0\n\ncomment 0\n\nmap 199 0 5 1 0\n#####\n",
    };
    level_edit edit;
    time_t when;
    for (size_t i = 0; i < sizeof broken / sizeof *broken; i++) {
        scratch_write(folder, name, broken[i]);
        assert_false(level_draft_read(folder, "new", NULL, &edit, &when));
    }
    scratch_write(folder, name, HEAD "title 0\n\nauthor 0\n\ncomment 0\n\nmap 0 0 1 1 0\n#\n");
    assert_true(level_draft_read(folder, "new", NULL, &edit, &when));
    assert_int_equal(edit.canvas[0], '#');
    level_edit_free(&edit);
    scratch_remove(folder);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_key_names_the_file_and_the_level),
        cmocka_unit_test(test_the_file_name_is_plain_and_differs_by_folder),
        cmocka_unit_test(test_a_drawing_comes_back_square_for_square),
        cmocka_unit_test(test_a_draft_is_not_offered_to_a_level_whose_text_changed),
        cmocka_unit_test(test_a_broken_draft_is_not_offered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
