/* test_progress_import.c - the solution sections of level files imported once (issue 45,
 * item 11): a file imported before, unchanged, is passed over at the next start; a changed
 * one is imported again; what one file can make the game replay is capped. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "level/level.h"
#include "progress/progress.h"
#include "progress_test.h"

/* A SOK file of two levels, each with a good solution section and a false one. */
static const char SECTIONS[] = "Collection: Sections\n\n"
                               "; One\n#######\n#@ $ .#\n#######\n\n"
                               "Solution (moves 3, pushes 2)\nrRR\n\n"
                               "Solution\nlll\n\n"
                               "; Two\n######\n#@$ .#\n######\n\n"
                               "Solution\nRR\n";

static void load(const char *path, collection *c)
{
    level_error error;
    assert_true(collection_load(path, c, &error));
}

/* Imports the file's sections as a start of the game does: how many were replayed. */
static int start_and_import(const progress_test_dir *f, const char *path, char *message,
                            size_t message_size)
{
    collection c;
    load(path, &c);
    progress *p = progress_test_open(f);
    int replayed = progress_import_collection(p, &c, message, message_size);
    progress_close(p);
    collection_free(&c);
    return replayed;
}

static void test_a_file_is_imported_once(void **state)
{
    progress_test_dir *f = *state;
    char path[600], message[1024];
    snprintf(path, sizeof path, "%s", progress_test_path(f, "sections.sok"));
    progress_test_write(path, SECTIONS);
    assert_int_equal(start_and_import(f, path, message, sizeof message), 3);
    assert_string_equal(message, "");
    /* the next start replays nothing */
    assert_int_equal(start_and_import(f, path, message, sizeof message), 0);
    collection c;
    load(path, &c);
    progress *p = progress_test_open(f);
    const progress_record *r = progress_get_level(p, &c.levels[0]);
    assert_non_null(r);
    assert_int_equal(r->best_moves.moves, 3);
    assert_int_equal(r->best_moves.origin, PROGRESS_IMPORTED);
    assert_non_null(progress_get_level(p, &c.levels[1]));
    progress_close(p);
    collection_free(&c);
}

static void test_a_changed_file_is_imported_again(void **state)
{
    progress_test_dir *f = *state;
    char path[600], message[1024];
    snprintf(path, sizeof path, "%s", progress_test_path(f, "sections.sok"));
    progress_test_write(path, SECTIONS);
    assert_int_equal(start_and_import(f, path, message, sizeof message), 3);
    /* the same size, another time: edited */
    struct timeval times[2] = {{1000000000, 0}, {1000000000, 0}};
    assert_int_equal(utimes(path, times), 0);
    assert_int_equal(start_and_import(f, path, message, sizeof message), 3);
    assert_int_equal(start_and_import(f, path, message, sizeof message), 0);
}

/* A file of one level with 300 false solution sections (the file had 21,185 and
 * took 150 s at every start): at most PROGRESS_IMPORT_MAX_PER_LEVEL are replayed, and the
 * player is told that the rest were skipped. */
static void test_what_a_file_can_make_the_game_replay_is_capped(void **state)
{
    progress_test_dir *f = *state;
    char path[600], message[1024];
    snprintf(path, sizeof path, "%s", progress_test_path(f, "many.sok"));
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fputs("; One\n#######\n#@ $ .#\n#######\n\n", out);
    for (int i = 0; i < 300; i++) fputs("Solution\nlll\n\n", out);
    fclose(out);
    assert_int_equal(start_and_import(f, path, message, sizeof message),
                     PROGRESS_IMPORT_MAX_PER_LEVEL);
    if (!strstr(message, "284 solution sections skipped")) fail_msg("message: '%s'", message);
    assert_int_equal(start_and_import(f, path, message, sizeof message), 0);
}

#define WITH_DIRECTORY(test)                                                                       \
    cmocka_unit_test_setup_teardown(test, progress_test_make_dir, progress_test_remove_dir)

int main(void)
{
    const struct CMUnitTest tests[] = {
        WITH_DIRECTORY(test_a_file_is_imported_once),
        WITH_DIRECTORY(test_a_changed_file_is_imported_again),
        WITH_DIRECTORY(test_what_a_file_can_make_the_game_replay_is_capped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
