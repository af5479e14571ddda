/* test_alloc_fail_level.c - loading a level file with every allocation failing in turn
 * (alloc_fail.h): no crash, no leak, and "out of memory" said in the error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc_fail.h"
#include "rules/board.h"
#include "level/level.h"

/* A collection with what the parser keeps in memory: titles before and after the map,
 * authors, one-line and block comments (several lines, appended one by one), run-length
 * rows, '|' row separators, and enough levels for the level array to grow. */
static const char collection_text[] = "; A collection for the allocation sweep\n"
                                      "Author: the test suite\n"
                                      "\n"
                                      "; First\n"
                                      "#######\n"
                                      "#@ $ .#\n"
                                      "#######\n"
                                      "Comment:\n"
                                      "a first comment line,\n"
                                      "a second one,\n"
                                      "and a third.\n"
                                      "Comment-End:\n"
                                      "\n"
                                      "7#|#@$2-.#|7#\n"
                                      "Title: Second\n"
                                      "Author: someone else\n"
                                      "Comment: one line\n"
                                      "Comment: and another\n"
                                      "\n"
                                      "; Third\n"
                                      "#####\n"
                                      "#.  #\n"
                                      "# $ #\n"
                                      "#@  #\n"
                                      "#####\n"
                                      "\n"
                                      "########\n"
                                      "#.. $ @#\n"
                                      "#  $   #\n"
                                      "########\n"
                                      "Title: Fourth\n"
                                      "\n"
                                      "; Fifth\n"
                                      "######\n"
                                      "#+$  #\n"
                                      "# $. #\n"
                                      "######\n"
                                      "Comment:\n"
                                      "x\n"
                                      "y\n"
                                      "z\n"
                                      "Comment-End:\n";

/* Loads the file at `argument` and builds every level's board. */
static bool load_and_build(void *argument, char *error, size_t error_size)
{
    collection c;
    level_error e;
    if (!collection_load(argument, &c, &e)) {
        snprintf(error, error_size, "%s", e.message);
        return false;
    }
    bool ok = true;
    for (int i = 0; i < c.count && ok; i++) {
        board b;
        position start;
        ok = board_from_level(&c.levels[i], &b, &start);
        if (!ok) {
            snprintf(error, error_size, "level %d: out of memory building the board", i + 1);
            break;
        }
        board_free(&b);
        position_free(&start);
    }
    collection_free(&c);
    return ok;
}

/* Parses the text at `argument` (not from a file) and writes every level back as text. */
static bool parse_and_write(void *argument, char *error, size_t error_size)
{
    collection c;
    level_error e;
    if (!collection_parse(argument, strlen(argument), "inline.xsb", &c, &e)) {
        snprintf(error, error_size, "%s", e.message);
        return false;
    }
    bool ok = true;
    for (int i = 0; i < c.count && ok; i++) {
        char *text = level_to_text(&c.levels[i]);
        if (!text) {
            snprintf(error, error_size, "level %d: out of memory writing it", i + 1);
            ok = false;
        }
        free(text);
    }
    collection_free(&c);
    return ok;
}

static void write_file(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    assert_non_null(file);
    assert_int_equal(fputs(text, file) >= 0, 1);
    assert_int_equal(fclose(file), 0);
}

static void test_every_allocation_failure_loading_a_level_file_is_an_error(void **state)
{
    (void)state;
    char path[] = "/tmp/test_alloc_fail_level.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_file(path, collection_text);
    alloc_fail_sweep_options options = {.expect_error = "out of memory"};
    alloc_fail_sweep_result result =
        alloc_fail_sweep("loading a level file", load_and_build, path, &options);
    unlink(path);
    print_message("loading a level file: %ld allocations, %ld runs with one failing\n",
                  result.allocations, result.runs);
    /* the five levels, their titles, comments and boards: dozens of allocations */
    assert_true(result.allocations > 30);
    assert_true(result.runs >= 2 * result.allocations);
}

static void test_every_allocation_failure_on_the_bundled_tutorial_is_an_error(void **state)
{
    (void)state;
    alloc_fail_sweep_options options = {.expect_error = "out of memory"};
    alloc_fail_sweep_result result = alloc_fail_sweep("loading the tutorial", load_and_build,
                                                      TEST_LEVELS_DIR "/tutorial.xsb", &options);
    assert_true(result.allocations > 30);
}

static void test_every_allocation_failure_parsing_and_writing_levels_is_an_error(void **state)
{
    (void)state;
    alloc_fail_sweep_options options = {.expect_error = "out of memory"};
    alloc_fail_sweep("parsing and writing levels", parse_and_write, (void *)collection_text,
                     &options);
}

/* The harness itself: the Nth allocation fails, once or from then on, and blocks left
 * behind are counted. */
static void test_the_harness_fails_the_nth_allocation_and_counts_leaks(void **state)
{
    (void)state;
    long live = alloc_fail_live_blocks();
    alloc_fail_arm(2, false);
    void *a = malloc(8), *b = malloc(8), *c = calloc(1, 8);
    char *d = strdup("x");
    assert_non_null(a);
    assert_null(b);
    assert_non_null(c);
    assert_non_null(d);
    assert_int_equal(alloc_fail_calls(), 4);
    assert_true(alloc_fail_fired());
    assert_int_equal(alloc_fail_live_blocks() - live, 3);
    alloc_fail_arm(1, true);
    assert_null(realloc(a, 64)); /* the block stays */
    assert_null(malloc(1));
    alloc_fail_disarm();
    free(a);
    free(c);
    free(d);
    assert_int_equal(alloc_fail_live_blocks(), live);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_harness_fails_the_nth_allocation_and_counts_leaks),
        cmocka_unit_test(test_every_allocation_failure_loading_a_level_file_is_an_error),
        cmocka_unit_test(test_every_allocation_failure_on_the_bundled_tutorial_is_an_error),
        cmocka_unit_test(test_every_allocation_failure_parsing_and_writing_levels_is_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
