/* test_alloc_fail_progress.c - importing an old progress.txt with every allocation failing in
 * turn (alloc_fail.h), SQLite's own included (routed through the harness with
 * SQLITE_CONFIG_MALLOC): no crash, no leak, and a message that says what happened. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "alloc_fail.h"
#include "progress/progress.h"
#include "scratch.h"

/* ---- SQLite's allocator through the harness: a size kept before each block ---------------- */

enum { HEADER = 16 };

static void *sqlite_malloc(int size)
{
    char *block = alloc_fail_malloc((size_t)size + HEADER);
    if (!block) return NULL;
    *(size_t *)block = (size_t)size;
    return block + HEADER;
}

static void sqlite_free(void *block)
{
    if (block) alloc_fail_free((char *)block - HEADER);
}

static void *sqlite_realloc(void *block, int size)
{
    if (!block) return sqlite_malloc(size);
    char *grown = alloc_fail_realloc((char *)block - HEADER, (size_t)size + HEADER);
    if (!grown) return NULL;
    *(size_t *)grown = (size_t)size;
    return grown + HEADER;
}

static int sqlite_size(void *block)
{
    return block ? (int)*(size_t *)((char *)block - HEADER) : 0;
}

static int sqlite_roundup(int size)
{
    return (size + 7) & ~7;
}

static int sqlite_init(void *data)
{
    (void)data;
    return SQLITE_OK;
}

static void sqlite_shutdown(void *data)
{
    (void)data;
}

static const sqlite3_mem_methods harness_methods = {
    sqlite_malloc, sqlite_free, sqlite_realloc, sqlite_size,
    sqlite_roundup, sqlite_init, sqlite_shutdown, NULL,
};

/* ---- the operation ------------------------------------------------------------------------ */

static char directory[64];

/* One line of the old file: its FNV-1a 32 checksum, then `body`. */
static void legacy_line(FILE *out, const char *body)
{
    uint32_t hash = 2166136261u;
    for (const char *c = body; *c; c++) {
        hash ^= (unsigned char)*c;
        hash *= 16777619u;
    }
    fprintf(out, "%08x %s\n", (unsigned)hash, body);
}

/* A fresh directory holding only an old progress.txt of three records and a damaged one. */
static void prepare_directory(void)
{
    static const char *const names[] = {"progress.db", "progress.db-wal", "progress.db-shm",
                                        "progress.txt.imported"};
    char path[128];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(path, sizeof path, "%s/%s", directory, names[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/progress.txt", directory);
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fputs("sokoban-progress 1 \n", out);
    legacy_line(out, "last 2 /levels/a%20b.xsb");
    legacy_line(out, "level 0000000000000010 1 3 2 rRR 3 2 rRR -");
    legacy_line(out, "level 0000000000000030 0 0 0 - 0 0 - llUr");
    fputs("0badc0de level 0000000000000020 1 1 1 R 1 1 R -\n", out);
    fclose(out);
}

/* Opens the progress (importing the file) and reads a record back. */
static bool import_progress(void *argument, char *error, size_t error_size)
{
    (void)argument;
    prepare_directory(); /* stdio allocates inside libc, unseen by the harness */
    char message[1024];
    progress *p = progress_open(directory, message, sizeof message);
    if (!p) {
        snprintf(error, error_size, "progress_open: out of memory");
        return false;
    }
    bool ok = strstr(message, "imported 3 records") != NULL;
    if (ok) {
        progress_record record;
        ok = progress_read(p, 0x30, &record) && record.unfinished &&
             strcmp(record.unfinished, "llUr") == 0;
        progress_record_free(&record);
        if (!ok) snprintf(error, error_size, "the record read back is wrong (out of memory?)");
    } else {
        snprintf(error, error_size, "%s", message);
    }
    progress_close(p);
    return ok;
}

static void test_importing_old_progress_survives_every_failed_allocation(void **state)
{
    (void)state;
    /* On tmpfs when there is one (scratch.h): thousands of runs, each syncing the database. */
    char *folder = scratch_make("test_alloc_progress");
    assert_true(strlen(folder) < sizeof directory);
    strcpy(directory, folder);
    alloc_fail_sweep_options options = {.may_recover = true};
    alloc_fail_sweep_result result =
        alloc_fail_sweep("importing progress.txt", import_progress, NULL, &options);
    print_message("%ld allocations, %ld failing runs, %ld recovered\n", result.allocations,
                  result.runs, result.recovered);
    assert_true(result.allocations > 100); /* SQLite's are counted too */
    scratch_remove(folder);
}

int main(void)
{
    assert_int_equal(sqlite3_config(SQLITE_CONFIG_MALLOC, &harness_methods), SQLITE_OK);
    assert_int_equal(sqlite3_initialize(), SQLITE_OK);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_importing_old_progress_survives_every_failed_allocation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
