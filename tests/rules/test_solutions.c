/* test_solutions.c - solutions in and out (src/rules/solutions.c): checking a solution from
 * outside, the .sol file beside a level file, and the SOK solution sections of an export. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "level/level.h"
#include "rules/solutions.h"
#include "scratch.h"

/* ---------------------------------------------------------------- helpers */

static const char corridor[] = "; Corridor\n"
                               "#######\n"
                               "#@ $ .#\n"
                               "#######\n";

static const char two_levels[] = "; First\n"
                                 "#####\n"
                                 "#@$.#\n"
                                 "#####\n"
                                 "\n"
                                 "; Second\n"
                                 "######\n"
                                 "#@ $.#\n"
                                 "######\n";

static collection parse(const char *text)
{
    collection c;
    level_error error;
    if (!collection_parse(text, strlen(text), "test.xsb", &c, &error))
        fail_msg("%s", error.message);
    return c;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The SOK text the writer gives for `levels`. */
static char *exported(const char *name, const solutions_level *levels, int count)
{
    char *text = NULL;
    size_t length = 0;
    FILE *out = open_memstream(&text, &length);
    assert_non_null(out);
    assert_true(solutions_write_sok(out, name, levels, count));
    fclose(out);
    return text;
}

/* ---------------------------------------------------------------- checking */

static void test_check_accepts_a_solution_and_capitalises_pushes(void **state)
{
    (void)state;
    collection c = parse(corridor);
    solution_entry s;
    char reason[256];
    assert_true(solutions_check(&c.levels[0], "r rr", &s, reason, sizeof reason));
    assert_string_equal(s.lurd, "rRR");
    assert_int_equal(s.moves, 3);
    assert_int_equal(s.pushes, 2);
    assert_int_equal(s.origin, SOLUTION_IMPORTED);
    solution_entry_free(&s);
    collection_free(&c);
}

static void test_check_refuses_what_does_not_solve(void **state)
{
    (void)state;
    collection c = parse(corridor);
    solution_entry s;
    char reason[256];
    assert_false(solutions_check(&c.levels[0], "rR", &s, reason, sizeof reason));
    assert_non_null(strstr(reason, "does not solve the level (2 moves, 1 pushes played)"));
    assert_null(s.lurd);
    assert_false(solutions_check(&c.levels[0], "u", &s, reason, sizeof reason));
    assert_non_null(strstr(reason, "step 1 (u)"));
    assert_false(solutions_check(&c.levels[0], "rRx", &s, reason, sizeof reason));
    assert_non_null(strstr(reason, "not a LURD letter"));
    collection_free(&c);
}

/* ---------------------------------------------------------------- .sol files */

static void test_sol_path_replaces_the_extension(void **state)
{
    (void)state;
    char path[256];
    solutions_sol_path("/maps/xsokoban0001.sok", path, sizeof path);
    assert_string_equal(path, "/maps/xsokoban0001.sol");
    solutions_sol_path("dir.v2/level", path, sizeof path);
    assert_string_equal(path, "dir.v2/level.sol");
    solutions_sol_path("/maps/.hidden", path, sizeof path);
    assert_string_equal(path, "/maps/.hidden.sol");
}

static void test_sol_file_beside_the_level_is_read_and_checked(void **state)
{
    (void)state;
    char *directory = scratch_make("test_solutions");
    char level_path[128], sol_path[128], reason[512];
    snprintf(level_path, sizeof level_path, "%s/corridor.sok", directory);
    snprintf(sol_path, sizeof sol_path, "%s/corridor.sol", directory);
    write_file(level_path, corridor);
    collection c = parse(corridor);
    solution_entry s;

    assert_int_equal(solutions_read_sol(level_path, &c.levels[0], &s, reason, sizeof reason),
                     SOLUTIONS_SOL_NONE);

    write_file(sol_path, "r2r\n"); /* lowercase, with a count, as cavepacker-data has them */
    assert_int_equal(solutions_read_sol(level_path, &c.levels[0], &s, reason, sizeof reason),
                     SOLUTIONS_SOL_FOUND);
    assert_string_equal(s.lurd, "rRR");
    assert_int_equal(s.origin, SOLUTION_IMPORTED);
    solution_entry_free(&s);

    write_file(sol_path, "rr\n");
    assert_int_equal(solutions_read_sol(level_path, &c.levels[0], &s, reason, sizeof reason),
                     SOLUTIONS_SOL_BAD);
    assert_non_null(strstr(reason, sol_path));
    assert_non_null(strstr(reason, "does not solve"));

    unlink(sol_path);
    assert_int_equal(mkdir(sol_path, 0700), 0); /* a directory where the file should be */
    assert_int_equal(solutions_read_sol(level_path, &c.levels[0], &s, reason, sizeof reason),
                     SOLUTIONS_SOL_BAD);
    assert_non_null(strstr(reason, "is a directory"));
    rmdir(sol_path);
    unlink(level_path);
    scratch_remove(directory);
    collection_free(&c);
}

static void test_sol_files_of_cavepacker_data_solve_their_levels(void **state)
{
    (void)state;
    const char *maps = "/usr/share/games/cavepacker/maps";
    const char *names[] = {"xsokoban0001", "microban01_0001", "sasquatch01_0001"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[256], reason[512];
        snprintf(path, sizeof path, "%s/%s.sok", maps, names[i]);
        collection c;
        level_error error;
        if (!collection_load(path, &c, &error)) fail_msg("%s", error.message);
        solution_entry s;
        if (solutions_read_sol(path, &c.levels[0], &s, reason, sizeof reason) !=
            SOLUTIONS_SOL_FOUND)
            fail_msg("%s: %s", names[i], reason);
        assert_true(s.pushes > 0 && s.moves >= s.pushes);
        solution_entry_free(&s);
        collection_free(&c);
    }
}

/* What the folder import handed over: the levels' numbers and the sources. */
typedef struct taken {
    int count;
    int numbers[8];
    char lurd[8][32];
} taken;

static void take(void *argument, const level *lv, const solution_entry *s, const char *source)
{
    taken *t = argument;
    assert_non_null(strstr(source, ".sol"));
    t->numbers[t->count] = lv->number;
    snprintf(t->lurd[t->count], sizeof t->lurd[0], "%s", s->lurd);
    t->count++;
}

static void test_sol_files_of_a_folder_find_their_levels_by_map(void **state)
{
    (void)state;
    char *directory = scratch_make("test_solutions");
    char path[160];
    /* the collection: two levels, as a group of one-level files would make it */
    collection c = parse(two_levels);
    snprintf(path, sizeof path, "%s/first_0001.sok", directory);
    write_file(path, "; First\n#####\n#@$.#\n#####\n");
    snprintf(path, sizeof path, "%s/first_0001.sol", directory);
    write_file(path, "r\n");
    snprintf(path, sizeof path, "%s/second_0002.xsb", directory);
    write_file(path, "######\n#@ $.#\n######\n");
    snprintf(path, sizeof path, "%s/second_0002.sol", directory);
    write_file(path, "rr\n");
    /* a .sol of another level, and a .sol with no level file: ignored */
    snprintf(path, sizeof path, "%s/other.sok", directory);
    write_file(path, "#######\n#@ $ .#\n#######\n");
    snprintf(path, sizeof path, "%s/other.sol", directory);
    write_file(path, "rrr\n");
    snprintf(path, sizeof path, "%s/alone.sol", directory);
    write_file(path, "r\n");
    /* the collection's path: its first file */
    free(c.path);
    c.path = malloc(160);
    snprintf(c.path, 160, "%s/first_0001.sok", directory);

    taken t = {0};
    solutions_import_report report;
    solutions_import_sol_files(&c, take, &t, &report);
    assert_int_equal(report.found, 2);
    assert_int_equal(report.refused, 0);
    assert_int_equal(t.count, 2);
    bool first = false, second = false;
    for (int i = 0; i < t.count; i++) {
        if (t.numbers[i] == 1) first = strcmp(t.lurd[i], "R") == 0;
        if (t.numbers[i] == 2) second = strcmp(t.lurd[i], "rR") == 0;
    }
    assert_true(first && second);

    /* a .sol that does not solve its level is counted as refused, with the reason */
    snprintf(path, sizeof path, "%s/second_0002.sol", directory);
    write_file(path, "r\n");
    t.count = 0;
    solutions_import_sol_files(&c, take, &t, &report);
    assert_int_equal(report.found, 2);
    assert_int_equal(report.refused, 1);
    assert_int_equal(t.count, 1);
    assert_non_null(strstr(report.first_refusal, "second_0002.sol: does not solve"));

    const char *names[] = {"first_0001.sok", "first_0001.sol", "second_0002.xsb", "second_0002.sol",
                           "other.sok",      "other.sol",      "alone.sol"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", directory, names[i]);
        unlink(path);
    }
    scratch_remove(directory);
    collection_free(&c);
}

/* ---------------------------------------------------------------- writing SOK */

static void test_export_names_program_origin_moves_and_pushes(void **state)
{
    (void)state;
    collection c = parse(two_levels);
    solution_entry first[] = {{.lurd = "R", .moves = 1, .pushes = 1, .origin = SOLUTION_OWN}};
    solution_entry second[] = {
        {.lurd = "rR", .moves = 2, .pushes = 1, .origin = SOLUTION_ASSISTED}};
    solutions_level levels[] = {{&c.levels[0], first, 1}, {&c.levels[1], second, 1}};
    char *text = exported("two", levels, 2);
    assert_non_null(strstr(text, "Collection: two\n"));
    assert_non_null(strstr(text, "; First\n\n#####\n#@$.#\n#####\n\n"
                                 "Solution (moves 1, pushes 1)\nR\n"
                                 "Program: sokoban " SOKOBAN_VERSION "\nOrigin: own\n"));
    assert_non_null(strstr(text, "; Second\n\n######\n#@ $.#\n######\n\n"
                                 "Solution (moves 2, pushes 1)\nrR\n"
                                 "Program: sokoban " SOKOBAN_VERSION "\nOrigin: assisted\n"));
    free(text);
    collection_free(&c);
}

static void test_export_keeps_a_level_without_solution_and_wraps_long_ones(void **state)
{
    (void)state;
    collection c = parse(two_levels);
    char lurd[151];
    memset(lurd, 'l', 150);
    lurd[150] = 0;
    solution_entry second[] = {
        {.lurd = lurd, .moves = 150, .pushes = 0, .origin = SOLUTION_IMPORTED}};
    solutions_level levels[] = {{&c.levels[0], NULL, 0}, {&c.levels[1], second, 1}};
    char *text = exported("two", levels, 2);
    /* the first level is there, with no section under it */
    assert_non_null(strstr(text, "; First\n\n#####\n#@$.#\n#####\n\n; Second\n"));
    /* 150 letters: lines of 70, 70 and 10 */
    char expected[200];
    snprintf(expected, sizeof expected, "%.70s\n%.70s\n%.10s\nProgram:", lurd, lurd, lurd);
    assert_non_null(strstr(text, expected));
    assert_non_null(strstr(text, "Origin: imported\n"));
    free(text);
    collection_free(&c);
}

static void test_export_reads_back_as_the_same_levels(void **state)
{
    (void)state;
    collection c = parse(two_levels);
    solution_entry first[] = {{.lurd = "R", .moves = 1, .pushes = 1, .origin = SOLUTION_OWN},
                              {.lurd = "R", .moves = 1, .pushes = 1, .origin = SOLUTION_OWN}};
    solutions_level levels[] = {{&c.levels[0], first, 2}, {&c.levels[1], NULL, 0}};
    char *text = exported("two", levels, 2);
    collection back = parse(text);
    assert_int_equal(back.count, 2);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(back.levels[i].width, c.levels[i].width);
        assert_int_equal(back.levels[i].height, c.levels[i].height);
        assert_memory_equal(back.levels[i].squares, c.levels[i].squares,
                            (size_t)c.levels[i].width * (size_t)c.levels[i].height);
        assert_string_equal(back.levels[i].title, c.levels[i].title);
    }
    collection_free(&back);
    free(text);
    collection_free(&c);
}

static void test_export_to_a_file_replaces_it_whole(void **state)
{
    (void)state;
    char *directory = scratch_make("test_solutions");
    char path[128], reason[512];
    snprintf(path, sizeof path, "%s/corridor.sok", directory);
    write_file(path, "old\n");
    collection c = parse(corridor);
    solution_entry s[] = {{.lurd = "rRR", .moves = 3, .pushes = 2, .origin = SOLUTION_OWN}};
    solutions_level levels[] = {{&c.levels[0], s, 1}};
    char written[4400];
    assert_true(solutions_export(directory, "corridor", levels, 1, written, sizeof written, reason,
                                 sizeof reason));
    assert_string_equal(written, path);
    collection back;
    level_error error;
    if (!collection_load(path, &back, &error)) fail_msg("%s", error.message);
    assert_int_equal(back.count, 1);
    collection_free(&back);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
    unlink(path);
    char gone[128];
    snprintf(gone, sizeof gone, "%s", directory);
    scratch_remove(directory);

    /* a directory that is not there: false, naming it */
    assert_false(solutions_export(gone, "corridor", levels, 1, written, sizeof written, reason,
                                  sizeof reason));
    assert_non_null(strstr(reason, gone));
    collection_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_accepts_a_solution_and_capitalises_pushes),
        cmocka_unit_test(test_check_refuses_what_does_not_solve),
        cmocka_unit_test(test_sol_path_replaces_the_extension),
        cmocka_unit_test(test_sol_file_beside_the_level_is_read_and_checked),
        cmocka_unit_test(test_sol_files_of_cavepacker_data_solve_their_levels),
        cmocka_unit_test(test_sol_files_of_a_folder_find_their_levels_by_map),
        cmocka_unit_test(test_export_names_program_origin_moves_and_pushes),
        cmocka_unit_test(test_export_keeps_a_level_without_solution_and_wraps_long_ones),
        cmocka_unit_test(test_export_reads_back_as_the_same_levels),
        cmocka_unit_test(test_export_to_a_file_replaces_it_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
