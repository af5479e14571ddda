/* test_alloc_fail_sok.c - parsing a SOK file (header, banner lines, solutions), a level that
 * cannot be played and a Latin-1 title with every allocation failing in turn (alloc_fail.h):
 * no crash, no leak, "out of memory" said. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_fail.h"
#include "level/level.h"

static const char sok_text[] = ":::::::::::::::::::::\n"
                               ":: File Format 0.20 ::\n"
                               ":::::::::::::::::::::\n"
                               "\n"
                               "Title: Sweep\n"
                               "Author: the test suite\n"
                               "Collection: Sweep Collection\n"
                               "Notes on the file.\n"
                               "\n"
                               "Caf\xE9\n"
                               "\n"
                               "#####\n"
                               "#@$.#\n"
                               "#####\n"
                               "Comment:\n"
                               "one\n"
                               "\n"
                               "\n"
                               "two\n"
                               "Comment-End:\n"
                               "\n"
                               "Solution (moves 2, pushes 1)\n"
                               "rR\n"
                               "Date: 2026\n"
                               "\n"
                               "; Twins\n"
                               "######\n"
                               "#@$.@#\n"
                               "######\n"
                               "\n"
                               "; Third\n"
                               "#####\n"
                               "#@$x#\n"
                               "#####\n"
                               "\n"
                               "; Fourth\n"
                               "######\n"
                               "#@ $.#\n"
                               "######\n"
                               "Solution/Moves\n"
                               "r\n"
                               "R\n";

static bool parse(void *argument, char *error, size_t error_size)
{
    collection c;
    level_error e;
    if (!collection_parse(argument, strlen(argument), "sweep.sok", &c, &e)) {
        snprintf(error, error_size, "%s", e.message);
        return false;
    }
    bool ok = c.count == 4 && c.bad_count == 2 && c.levels[3].solution_count == 1;
    if (!ok) snprintf(error, error_size, "parsed wrong: %d levels, %d bad", c.count, c.bad_count);
    collection_free(&c);
    return ok;
}

static void test_every_allocation_failure_parsing_a_sok_file_is_an_error(void **state)
{
    (void)state;
    alloc_fail_sweep_options options = {.expect_error = "out of memory"};
    alloc_fail_sweep_result result =
        alloc_fail_sweep("parsing a SOK file", parse, (void *)sok_text, &options);
    print_message("parsing a SOK file: %ld allocations, %ld runs with one failing\n",
                  result.allocations, result.runs);
    assert_true(result.allocations > 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_allocation_failure_parsing_a_sok_file_is_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
