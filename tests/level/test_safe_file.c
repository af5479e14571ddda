/* test_safe_file.c - files written under names taken from data (src/level/safe_file.c):
 * whatever the name, the file lands inside the directory given, under a plain name, and
 * neither a link in the file's place nor a directory that is a link is written through. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "level/safe_file.h"
#include "scratch.h"

/* ---------------------------------------------------------------- helpers */

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The whole text of a small file ("" when missing). */
static const char *read_text(const char *path)
{
    static char text[256];
    text[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f) return text;
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    return text;
}

/* Writes `text` to the file named after `name` in `directory`; the reason on failure. */
static bool write_named(const char *directory, const char *name, const char *text, char *path,
                        size_t path_size, char *reason, size_t reason_size)
{
    safe_file f;
    if (!safe_file_create(&f, directory, name, ".sok", 0644, reason, reason_size)) return false;
    snprintf(path, path_size, "%s", f.path);
    fputs(text, f.out);
    return safe_file_commit(&f, reason, reason_size);
}

/* ---------------------------------------------------------------- names */

static void test_a_plain_name_stays_as_it_is(void **state)
{
    (void)state;
    char name[SAFE_FILE_NAME_MAX + 1];
    safe_file_name("Microban I (155)", ".sok", name, sizeof name);
    assert_string_equal(name, "Microban I (155).sok");
}

static void test_slashes_and_dots_cannot_climb_out(void **state)
{
    (void)state;
    char name[SAFE_FILE_NAME_MAX + 1];
    safe_file_name("../../../../../../tmp/x/PWNED", ".sok", name, sizeof name);
    assert_string_equal(name, "_.._.._.._.._.._.._tmp_x_PWNED.sok");
    safe_file_name("..", NULL, name, sizeof name);
    assert_string_equal(name, "_..");
    safe_file_name(".hidden", "", name, sizeof name);
    assert_string_equal(name, "_.hidden");
    safe_file_name("-rf", ".sok", name, sizeof name);
    assert_string_equal(name, "_-rf.sok");
    safe_file_name("/etc/passwd", NULL, name, sizeof name);
    assert_string_equal(name, "_etc_passwd");
}

static void test_control_and_non_ascii_bytes_become_underscores(void **state)
{
    (void)state;
    char name[SAFE_FILE_NAME_MAX + 1];
    safe_file_name("a\nb\tc\\d\x1b[0m\xc3\xa9*?:\"<>|~$`", ".sok", name, sizeof name);
    assert_string_equal(name, "a_b_c_d__0m____________.sok");
    for (const char *c = name; *c; c++) assert_true(*c != '/');
}

static void test_an_empty_name_is_unnamed_and_a_long_one_is_cut(void **state)
{
    (void)state;
    char name[SAFE_FILE_NAME_MAX + 1];
    safe_file_name("", ".sok", name, sizeof name);
    assert_string_equal(name, "unnamed.sok");
    safe_file_name(NULL, ".sok", name, sizeof name);
    assert_string_equal(name, "unnamed.sok");
    char long_name[5000];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = 0;
    safe_file_name(long_name, ".sok", name, sizeof name);
    assert_int_equal(strlen(name), SAFE_FILE_NAME_MAX);
    assert_string_equal(name + SAFE_FILE_NAME_MAX - 4, ".sok");
    char small[8];
    safe_file_name("collection", ".sok", small, sizeof small);
    assert_string_equal(small, "col.sok");
}

/* ---------------------------------------------------------------- files */

static void test_a_hostile_name_is_written_inside_the_directory(void **state)
{
    (void)state;
    char *directory = scratch_make("sokoban-safe-file"), path[4400], reason[4600], outside[256];
    char inside[256];
    snprintf(inside, sizeof inside, "%s/solutions", directory);
    assert_int_equal(mkdir(inside, 0755), 0);
    snprintf(outside, sizeof outside, "%s/PWNED.sok", directory);
    write_text(outside, "precious\n");
    if (!write_named(inside, "../PWNED", "export\n", path, sizeof path, reason, sizeof reason))
        fail_msg("%s", reason);
    assert_string_equal(read_text(outside), "precious\n");
    char expected[4400];
    snprintf(expected, sizeof expected, "%s/_.._PWNED.sok", inside);
    assert_string_equal(path, expected);
    assert_string_equal(read_text(expected), "export\n");
    struct stat st;
    assert_int_equal(stat(expected, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
    scratch_remove(directory);
}

static void test_a_file_there_is_replaced_whole_and_a_link_there_not_followed(void **state)
{
    (void)state;
    char *directory = scratch_make("sokoban-safe-file"), path[4400], reason[4600], target[256],
         link[256];
    snprintf(target, sizeof target, "%s/target", directory);
    write_text(target, "precious\n");
    if (!write_named(directory, "name", "first\n", path, sizeof path, reason, sizeof reason))
        fail_msg("%s", reason);
    if (!write_named(directory, "name", "second\n", path, sizeof path, reason, sizeof reason))
        fail_msg("%s", reason);
    assert_string_equal(read_text(path), "second\n");
    /* a link in the file's place is replaced by the file, its target untouched */
    snprintf(link, sizeof link, "%s/linked.sok", directory);
    assert_int_equal(symlink(target, link), 0);
    if (!write_named(directory, "linked", "export\n", path, sizeof path, reason, sizeof reason))
        fail_msg("%s", reason);
    assert_string_equal(read_text(target), "precious\n");
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_string_equal(read_text(link), "export\n");
    scratch_remove(directory);
}

static void test_a_directory_that_is_a_link_is_refused(void **state)
{
    (void)state;
    char *directory = scratch_make("sokoban-safe-file"), path[4400] = "", reason[4600],
         elsewhere[256];
    char link[256];
    snprintf(elsewhere, sizeof elsewhere, "%s/elsewhere", directory);
    assert_int_equal(mkdir(elsewhere, 0755), 0);
    snprintf(link, sizeof link, "%s/solutions", directory);
    assert_int_equal(symlink(elsewhere, link), 0);
    assert_false(write_named(link, "name", "export\n", path, sizeof path, reason, sizeof reason));
    assert_non_null(strstr(reason, "is a symbolic link"));
    char written[4400];
    snprintf(written, sizeof written, "%s/name.sok", elsewhere);
    assert_int_equal(access(written, F_OK), -1);
    /* a directory that is not there: refused, named */
    char missing[256];
    snprintf(missing, sizeof missing, "%s/missing", directory);
    assert_false(write_named(missing, "name", "x", path, sizeof path, reason, sizeof reason));
    assert_non_null(strstr(reason, missing));
    scratch_remove(directory);
}

static void test_an_abort_leaves_the_old_file_and_no_temporary(void **state)
{
    (void)state;
    char *directory = scratch_make("sokoban-safe-file"), path[4400], reason[4600];
    if (!write_named(directory, "kept", "old\n", path, sizeof path, reason, sizeof reason))
        fail_msg("%s", reason);
    safe_file f;
    assert_true(safe_file_create(&f, directory, "kept", ".sok", 0644, reason, sizeof reason));
    fputs("half", f.out);
    safe_file_abort(&f);
    assert_string_equal(read_text(path), "old\n");
    char command[300];
    snprintf(command, sizeof command, "test $(ls -A '%s' | wc -l) -eq 1", directory);
    assert_int_equal(system(command), 0);
    scratch_remove(directory);
}

static void test_the_data_folders_follow_xdg_data_home_else_home(void **state)
{
    (void)state;
    char *old_data = getenv("XDG_DATA_HOME") ? strdup(getenv("XDG_DATA_HOME")) : NULL;
    char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    setenv("XDG_DATA_HOME", "/data", 1);
    setenv("HOME", "/home/a", 1);
    char *folder = safe_file_data_folder("drafts");
    assert_string_equal(folder, "/data/sokoban/drafts");
    free(folder);
    setenv("XDG_DATA_HOME", "relative", 1); /* not absolute: the XDG rule ignores it */
    folder = safe_file_data_folder("levels");
    assert_string_equal(folder, "/home/a/.local/share/sokoban/levels");
    free(folder);
    unsetenv("XDG_DATA_HOME");
    setenv("HOME", "", 1);
    assert_null(safe_file_data_folder("levels"));
    if (old_data) setenv("XDG_DATA_HOME", old_data, 1);
    if (old_home) setenv("HOME", old_home, 1);
    free(old_data);
    free(old_home);
}

static void test_a_folder_is_made_with_its_parents(void **state)
{
    (void)state;
    char *root = scratch_make("data");
    char folder[4096], why[600];
    snprintf(folder, sizeof folder, "%s/sokoban/drafts", root);
    assert_true(safe_file_make_folder(folder, why, sizeof why));
    assert_true(safe_file_make_folder(folder, why, sizeof why)); /* there already: fine */
    struct stat st;
    assert_int_equal(stat(folder, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    /* a file where a folder goes: one line of why */
    char file[4200];
    snprintf(file, sizeof file, "%s/plain", root);
    write_text(file, "x");
    snprintf(folder, sizeof folder, "%s/plain/under", root);
    assert_false(safe_file_make_folder(folder, why, sizeof why));
    assert_non_null(strstr(why, "cannot make"));
    scratch_remove(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_plain_name_stays_as_it_is),
        cmocka_unit_test(test_slashes_and_dots_cannot_climb_out),
        cmocka_unit_test(test_control_and_non_ascii_bytes_become_underscores),
        cmocka_unit_test(test_an_empty_name_is_unnamed_and_a_long_one_is_cut),
        cmocka_unit_test(test_a_hostile_name_is_written_inside_the_directory),
        cmocka_unit_test(test_a_file_there_is_replaced_whole_and_a_link_there_not_followed),
        cmocka_unit_test(test_a_directory_that_is_a_link_is_refused),
        cmocka_unit_test(test_an_abort_leaves_the_old_file_and_no_temporary),
        cmocka_unit_test(test_the_data_folders_follow_xdg_data_home_else_home),
        cmocka_unit_test(test_a_folder_is_made_with_its_parents),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
