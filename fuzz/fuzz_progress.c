/* fuzz_progress.c - libFuzzer target for importing an old progress.txt.
 *
 * Reads the input as a progress.txt (any bytes) into an empty database in memory. Whatever
 * the bytes: no crash, no hang, no bad memory access, and the import succeeds (a damaged line
 * is skipped, never an error). The database must then pass `PRAGMA integrity_check`, and
 * importing the same bytes again must take the same number of lines and change no row
 * count (the import merges: what the database holds wins). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progress/progress_db.h"
#include "progress/progress_legacy.h"
#include "progress/progress_schema.h"

/* The rows of every table, summed. */
static long count_rows(sqlite3 *db)
{
    long rows = 0;
    for (const char *const *table = progress_schema_tables; *table; table++) {
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", *table);
        sqlite3_stmt *statement;
        if (sqlite3_prepare_v2(db, sql, -1, &statement, NULL) != SQLITE_OK) abort();
        if (sqlite3_step(statement) != SQLITE_ROW) abort();
        rows += sqlite3_column_int64(statement, 0);
        sqlite3_finalize(statement);
    }
    return rows;
}

static void check_integrity(sqlite3 *db)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &statement, NULL) != SQLITE_OK)
        abort();
    if (sqlite3_step(statement) != SQLITE_ROW ||
        strcmp((const char *)sqlite3_column_text(statement, 0), "ok") != 0)
        abort();
    sqlite3_finalize(statement);
}

/* Imports the bytes once; aborts when the import fails. */
static progress_legacy_counts import(sqlite3 *db, const uint8_t *data, size_t size)
{
    progress_legacy_counts counts = {0};
    if (size == 0) return counts; /* fmemopen wants a buffer */
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in) abort();
    char error[256];
    if (!progress_legacy_read(db, in, &counts, error, sizeof error)) {
        fprintf(stderr, "import failed: %s\n", error);
        abort();
    }
    fclose(in);
    return counts;
}

/* Empties every table, for the next input: one database serves them all (making the schema
 * for each input would cost more than the import). */
static void empty_tables(sqlite3 *db)
{
    for (const char *const *table = progress_schema_tables; *table; table++) {
        char sql[128];
        snprintf(sql, sizeof sql, "DELETE FROM %s", *table);
        if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static sqlite3 *db;
    if (!db && !(db = progress_db_open_memory())) abort();
    empty_tables(db);
    progress_legacy_counts first = import(db, data, size);
    check_integrity(db);
    long rows = count_rows(db);
    progress_legacy_counts second = import(db, data, size);
    if (second.records != first.records || second.damaged != first.damaged) abort();
    if (count_rows(db) != rows) abort();
    return 0;
}
