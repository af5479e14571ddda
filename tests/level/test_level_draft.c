/* test_level_draft.c - the editor's drafts (src/level/level_draft.c): a drawing kept under a
 * plain name of its key inside the drafts folder, read back square for square with its
 * fields, and only ever offered to its own level. */
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
    assert_true(level_draft_write(drafts, "/home/a/levels.sok:3", &edit, why, sizeof why));

    level_edit back;
    time_t when = 0;
    assert_true(level_draft_read(drafts, "/home/a/levels.sok:3", &back, &when));
    assert_true(when > 0);
    assert_memory_equal(back.canvas, edit.canvas, EDIT_CANVAS_SIDE * EDIT_CANVAS_SIDE);
    assert_string_equal(back.title, "Half done");
    assert_string_equal(back.author, "");
    assert_string_equal(back.comment, "two\nlines");
    assert_int_equal(back.cursor, edit.cursor);
    level_edit_free(&back);

    /* another level's key finds nothing, and removed it is gone */
    assert_false(level_draft_read(drafts, "/home/b/levels.sok:3", &back, &when));
    level_draft_remove(drafts, "/home/a/levels.sok:3");
    assert_false(level_draft_read(drafts, "/home/a/levels.sok:3", &back, &when));
    level_edit_free(&edit);
    scratch_remove(folder);
}

static void test_a_broken_draft_is_not_offered(void **state)
{
    (void)state;
    char *folder = scratch_make("draft");
    char name[SAFE_FILE_NAME_MAX + 1];
    level_draft_file_name("new", name, sizeof name);
    const char *broken[] = {
        "",
        "sokoban draft 1\nkey 3\nnew\n",
        "sokoban draft 1\nkey 3\nnew\ntitle 0\n\nauthor 0\n\ncomment 0\n\nmap 0 0 2 1 0\n#X\n",
        "sokoban draft 1\nkey 3\nnew\ntitle 99\n\nauthor 0\n\ncomment 0\n\nmap 0 0 1 1 0\n#\n",
        "sokoban draft 1\nkey 3\nnew\ntitle 0\n\nauthor 0\n\ncomment 0\n\nmap 199 0 5 1 0\n#####\n",
    };
    level_edit edit;
    time_t when;
    for (size_t i = 0; i < sizeof broken / sizeof *broken; i++) {
        scratch_write(folder, name, broken[i]);
        assert_false(level_draft_read(folder, "new", &edit, &when));
    }
    scratch_write(folder, name,
                  "sokoban draft 1\nkey 3\nnew\ntitle 0\n\nauthor 0\n\ncomment 0\n\n"
                  "map 0 0 1 1 0\n#\n");
    assert_true(level_draft_read(folder, "new", &edit, &when));
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
        cmocka_unit_test(test_a_broken_draft_is_not_offered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
