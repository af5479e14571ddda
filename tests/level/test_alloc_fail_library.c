/* test_alloc_fail_library.c - the collection library scanned (names folded, made unique and
 * ordered: src/level/library.c, utf8_case.c) with every allocation failing in turn
 * (alloc_fail.h): no crash, no leak, the scan says it failed (or, when memory ran out
 * reading a file, names that file by its file name). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_fail.h"
#include "level/library.h"
#include "scratch.h"

static const char level[] = "#####\n#@$.#\n#####\n";

/* Scans the two folders of `argument`: "Été" and "Straße" in each (the later folder's made
 * apart, as "E + U+0301 TE + U+0301" and "STRASSE" are the same names), a group of one-level
 * files and a plain file; all in order. */
static bool scan(void *argument, char *error, size_t error_size)
{
    const char *const *folders = argument;
    library l;
    if (!library_scan(folders, 2, &l)) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    /* the later folder's named by it, "later.XXXXXX" */
    static const char *const order[] = {
        "Été", "E\xcc\x81TE\xcc\x81 (later.", "group", "plain", "Straße", "STRASSE (later."};
    bool ok = l.count == 6;
    /* a file it could not read (memory ran out there) is named by its file name, as
     * library.c does (file_collection_name): the entries are all there, named otherwise */
    bool recovered = ok && alloc_fail_fired();
    for (int i = 0; ok && !recovered && i < l.count; i++) {
        size_t length = strlen(order[i]);
        ok = order[i][length - 1] == '.' ? strncmp(l.entries[i].name, order[i], length) == 0
                                         : strcmp(l.entries[i].name, order[i]) == 0;
    }
    if (!ok) snprintf(error, error_size, "scanned wrong: %d entries", l.count);
    library_free(&l);
    return ok;
}

static void test_every_allocation_failure_scanning_the_library_is_an_error(void **state)
{
    (void)state;
    char *earlier = scratch_make("sokoban-library"), *later = scratch_make("later");
    char text[256];
    snprintf(text, sizeof text, "Collection: Été\n\n; One\n%s", level);
    scratch_write(earlier, "ete.sok", text);
    snprintf(text, sizeof text, "Collection: E\xcc\x81TE\xcc\x81\n\n; One\n%s", level);
    scratch_write(later, "ete.sok", text);
    snprintf(text, sizeof text, "Collection: Straße\n\n; One\n%s", level);
    scratch_write(earlier, "strasse.sok", text);
    snprintf(text, sizeof text, "Collection: STRASSE\n\n; One\n%s", level);
    scratch_write(later, "strasse.sok", text);
    scratch_write(earlier, "group_0001.xsb", level);
    scratch_write(earlier, "group_0002.xsb", level);
    scratch_write(later, "plain.xsb", level);
    const char *folders[] = {earlier, later};
    alloc_fail_sweep_options options = {.expect_error = "out of memory", .may_recover = true};
    alloc_fail_sweep_result result =
        alloc_fail_sweep("scanning the library", scan, (void *)folders, &options);
    print_message("scanning the library: %ld allocations, %ld runs with one failing\n",
                  result.allocations, result.runs);
    assert_true(result.allocations > 30);
    scratch_remove(earlier);
    scratch_remove(later);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_allocation_failure_scanning_the_library_is_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
