/* test_level_save.c - saving a level into the player's own collection files: a new file, an
 * append, safe names, and no file that is a link or not a level file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "level/level.h"
#include "level/level_save.h"
#include "level/safe_file.h"

#include "scratch.h"

static const char *LEVEL_A = "#####\n#@$.#\n#####\nTitle: A\n\n";
static const char *LEVEL_B = "######\n#@$ .#\n######\nTitle: B\nAuthor: Me\n\n";

static char folder[256];

/* cmocka set-up and tear-down: a fresh scratch folder (scratch.h), removed after. */
static int make_folder(void **state)
{
    (void)state;
    char *made = scratch_make("sokoban-test-save");
    snprintf(folder, sizeof folder, "%s", made);
    free(made);
    return 0;
}

static int remove_folder(void **state)
{
    (void)state;
    char *made = strdup(folder);
    if (!made) return -1;
    scratch_remove(made);
    return 0;
}

static char *read_back(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

static void test_first_save_makes_the_file_then_appends(void **state)
{
    (void)state;
    char where[400], why[300] = "";
    snprintf(where, sizeof where, "%s/new/levels", folder); /* made with its parents */
    level_save_result result;
    assert_true(level_save_append(where, "mine", LEVEL_A, &result, why, sizeof why));
    assert_int_equal(result.number, 1);
    char expected[500];
    snprintf(expected, sizeof expected, "%s/mine.sok", where);
    assert_string_equal(result.path, expected);
    assert_true(level_save_append(where, "mine.sok", LEVEL_B, &result, why, sizeof why));
    assert_int_equal(result.number, 2);
    assert_string_equal(read_back(result.path), "#####\n#@$.#\n#####\nTitle: A\n\n"
                                                "######\n#@$ .#\n######\nTitle: B\nAuthor: Me\n\n");
    collection c;
    level_error error;
    assert_true(collection_load(result.path, &c, &error));
    assert_int_equal(c.count, 2);
    assert_string_equal(c.levels[1].title, "B");
    assert_string_equal(c.levels[1].author, "Me");
    collection_free(&c);
}

static void test_names_are_made_safe(void **state)
{
    (void)state;
    char out[SAFE_FILE_NAME_MAX + 1];
    level_save_file_name("../../etc/passwd", out, sizeof out);
    assert_string_equal(out, "_.._.._etc_passwd.sok");
    level_save_file_name(".hidden", out, sizeof out);
    assert_string_equal(out, "_.hidden.sok");
    level_save_file_name("My levels.xsb", out, sizeof out);
    assert_string_equal(out, "My levels.xsb");
    level_save_file_name("", out, sizeof out);
    assert_string_equal(out, "unnamed.sok");
}

static void test_link_is_never_written_through(void **state)
{
    (void)state;
    char target[400], link_path[400], why[300] = "";
    snprintf(target, sizeof target, "%s/target.sok", folder);
    snprintf(link_path, sizeof link_path, "%s/link.sok", folder);
    FILE *f = fopen(target, "w");
    fputs(LEVEL_A, f);
    fclose(f);
    assert_int_equal(symlink(target, link_path), 0);
    level_save_result result;
    assert_false(level_save_append(folder, "link.sok", LEVEL_B, &result, why, sizeof why));
    assert_string_equal(why, "link.sok: is a link; levels are saved into plain files only");
    assert_string_equal(read_back(target), LEVEL_A);
}

static void test_file_that_is_no_level_file_is_left_alone(void **state)
{
    (void)state;
    char path[400], why[300] = "";
    snprintf(path, sizeof path, "%s/notes.txt", folder);
    FILE *f = fopen(path, "w");
    fputs("my shopping list\n", f);
    fclose(f);
    level_save_result result;
    assert_false(level_save_append(folder, "notes.txt", LEVEL_B, &result, why, sizeof why));
    assert_string_equal(read_back(path), "my shopping list\n");
    /* and no temporary file is left beside it */
    char command[500];
    snprintf(command, sizeof command, "test $(ls -A '%s' | grep -c '^\\.') -eq 0", folder);
    assert_int_equal(system(command), 0);
}

/* Writes `text` as `name` in the folder. */
static void write_file(const char *name, const char *text)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static const char *NEW_TWO = "#######\n#@ $ .#\n#######\nTitle: New two\nAuthor: Me\n\n";

static void test_replace_keeps_the_other_levels_byte_for_byte(void **state)
{
    (void)state;
    write_file("three.sok", "::  a banner\nCollection: Three\n\n"
                            "; One\n#####\n#@$.#\n#####\n\n"
                            "; Two\n; its comment\n######\n#@ $.#\n######\n"
                            "Solution\nrR\n\n"
                            "#####\n#@$.#\n#####\nTitle: Three\n");
    level_save_result result;
    char why[300] = "";
    assert_true(level_save_replace(folder, "three.sok", 2, NEW_TWO, &result, why, sizeof why));
    assert_int_equal(result.number, 2);
    char path[400];
    snprintf(path, sizeof path, "%s/three.sok", folder);
    assert_string_equal(read_back(path), "::  a banner\nCollection: Three\n\n"
                                         "; One\n#####\n#@$.#\n#####\n\n"
                                         "#######\n#@ $ .#\n#######\nTitle: New two\n"
                                         "Author: Me\n\n"
                                         "#####\n#@$.#\n#####\nTitle: Three\n");
}

static void test_replace_first_level_of_a_plain_file(void **state)
{
    (void)state;
    write_file("plain.xsb", "; One\n\n#####\n#@$.#\n#####\n\n; Two\n######\n#@ $.#\n######\n");
    level_save_result result;
    char why[300] = "";
    assert_true(level_save_replace(folder, "plain.xsb", 1, NEW_TWO, &result, why, sizeof why));
    char path[400];
    snprintf(path, sizeof path, "%s/plain.xsb", folder);
    assert_string_equal(read_back(path), "#######\n#@ $ .#\n#######\nTitle: New two\nAuthor: Me\n"
                                         "\n; Two\n######\n#@ $.#\n######\n");
}

static void test_replace_of_a_level_not_there_is_refused(void **state)
{
    (void)state;
    write_file("one.sok", LEVEL_A);
    level_save_result result;
    char why[300] = "";
    assert_false(level_save_replace(folder, "one.sok", 2, NEW_TWO, &result, why, sizeof why));
    assert_string_equal(why, "one.sok has no level 2");
    char path[400];
    snprintf(path, sizeof path, "%s/one.sok", folder);
    assert_string_equal(read_back(path), LEVEL_A);
}

static void test_own_files_are_those_directly_in_the_folder(void **state)
{
    (void)state;
    write_file("mine.sok", LEVEL_A);
    char path[400], name[256];
    snprintf(path, sizeof path, "%s/mine.sok", folder);
    assert_true(level_save_is_own(folder, path, name, sizeof name));
    assert_string_equal(name, "mine.sok");
    assert_false(level_save_is_own(folder, TEST_LEVELS_DIR "/xsokoban.xsb", name, sizeof name));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_save_makes_the_file_then_appends),
        cmocka_unit_test(test_names_are_made_safe),
        cmocka_unit_test(test_link_is_never_written_through),
        cmocka_unit_test(test_file_that_is_no_level_file_is_left_alone),
        cmocka_unit_test(test_replace_keeps_the_other_levels_byte_for_byte),
        cmocka_unit_test(test_replace_first_level_of_a_plain_file),
        cmocka_unit_test(test_replace_of_a_level_not_there_is_refused),
        cmocka_unit_test(test_own_files_are_those_directly_in_the_folder),
    };
    return cmocka_run_group_tests(tests, make_folder, remove_folder);
}
