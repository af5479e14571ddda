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
#include "level/collection.h"
#include "level/library.h"
#include "level/utf8_case.h"
#include "scratch.h"

static const char one_level[] = "#####\n#@$.#\n#####\n";

/* The name of the collection in `file` of the folder `root` (0 the earlier, 1 the later):
 * its Collection: field, or the group's name. */
static const char *name_of(int root, const char *file)
{
    static const struct {
        int root;
        const char *file, *name;
    } names[] = {{0, "ete.sok", "Été"},          {0, "strasse.sok", "Straße"},
                 {0, "group_0001.xsb", "group"}, {1, "ete.sok", "E\xcc\x81TE\xcc\x81"},
                 {1, "strasse.sok", "STRASSE"},  {1, "plain.xsb", "plain"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].root == root && strcmp(names[i].file, file) == 0) return names[i].name;
    return NULL;
}

/* True when `name` is `plain`, or `plain (WHERE)` when `where` is not NULL. */
static bool named(const char *name, const char *plain, size_t plain_length, const char *where)
{
    if (strncmp(name, plain, plain_length) != 0) return false;
    name += plain_length;
    if (!name[0]) return true;
    size_t length = where ? strlen(where) : 0;
    return where && strncmp(name, " (", 2) == 0 && strncmp(name + 2, where, length) == 0 &&
           strcmp(name + 2 + length, ")") == 0;
}

/* True when the entry `e` is named as the collection of its first file, or by that file's
 * name without the extension when memory ran out reading it (library.c's
 * file_collection_name); an entry of the later folder may have that folder's name after it. */
static bool named_by_its_file(const library_entry *e, const char *const *folders)
{
    const char *file = strrchr(e->files[0], '/') + 1, *dot = strrchr(file, '.');
    const char *name = name_of(e->root, file);
    const char *where = e->root == 1 ? strrchr(folders[1], '/') + 1 : NULL;
    return name && (named(e->name, name, strlen(name), where) ||
                    named(e->name, file, (size_t)(dot - file), where));
}

/* True when `a` comes before `b` or with it in the library's order (library.h): folded
 * without accents, then with them, then the bytes, each in natural order. */
static bool in_library_order(const char *a, const char *b)
{
    char *plain_a = utf8_case_fold(a, false), *plain_b = utf8_case_fold(b, false);
    char *accented_a = utf8_case_fold(a, true), *accented_b = utf8_case_fold(b, true);
    assert_true(plain_a && plain_b && accented_a && accented_b);
    int order = collection_natural_compare(plain_a, plain_b);
    if (!order) order = collection_natural_compare(accented_a, accented_b);
    if (!order) order = collection_natural_compare(a, b);
    free(plain_a);
    free(plain_b);
    free(accented_a);
    free(accented_b);
    return order <= 0;
}

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
     * library.c does (file_collection_name): the entries are all there, each named by its
     * collection or its file, in the library's order */
    bool recovered = ok && alloc_fail_fired();
    if (recovered) alloc_fail_disarm(); /* (a persistent failure) the checks' folds */
    for (int i = 0; ok && i < l.count; i++) {
        if (recovered) {
            ok = named_by_its_file(&l.entries[i], folders) &&
                 (i == 0 || in_library_order(l.entries[i - 1].name, l.entries[i].name));
            continue;
        }
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
    snprintf(text, sizeof text, "Collection: Été\n\n; One\n%s", one_level);
    scratch_write(earlier, "ete.sok", text);
    snprintf(text, sizeof text, "Collection: E\xcc\x81TE\xcc\x81\n\n; One\n%s", one_level);
    scratch_write(later, "ete.sok", text);
    snprintf(text, sizeof text, "Collection: Straße\n\n; One\n%s", one_level);
    scratch_write(earlier, "strasse.sok", text);
    snprintf(text, sizeof text, "Collection: STRASSE\n\n; One\n%s", one_level);
    scratch_write(later, "strasse.sok", text);
    scratch_write(earlier, "group_0001.xsb", one_level);
    scratch_write(earlier, "group_0002.xsb", one_level);
    scratch_write(later, "plain.xsb", one_level);
    const char *folders[] = {earlier, later};
    alloc_fail_sweep_options options = {.expect_error = "out of memory", .may_recover = true};
    alloc_fail_sweep_result result =
        alloc_fail_sweep("scanning the library", scan, (void *)folders, &options);
    print_message("scanning the library: %ld allocations, %ld runs with one failing, %ld "
                  "recovered\n",
                  result.allocations, result.runs, result.recovered);
    assert_true(result.allocations > 30);
    assert_true(result.recovered > 0); /* a file named by its file name, checked */
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
