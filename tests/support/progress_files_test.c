/* progress_files_test.c - what the tests of the progress database as a file share
 * (progress_files_test.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "progress/progress.h"
#include "progress/progress_schema.h"
#include "progress_files_test.h"

/* How many names in the directory start with `prefix` (SQLite's -wal and -shm files aside). */
int progress_test_count_names(const progress_test_dir *f, const char *prefix)
{
    DIR *directory = opendir(f->directory);
    assert_non_null(directory);
    int count = 0;
    for (struct dirent *entry; (entry = readdir(directory));)
        count += strncmp(entry->d_name, prefix, strlen(prefix)) == 0 &&
                 !strstr(entry->d_name, "-wal") && !strstr(entry->d_name, "-shm");
    closedir(directory);
    return count;
}

bool progress_test_exists(const char *path)
{
    struct stat status;
    return lstat(path, &status) == 0;
}

/* Opens the progress with `options` (NULL: none) and checks that its message contains
 * `expected`. */
progress *progress_test_open_with_expecting(const progress_test_dir *f,
                                            const progress_options *options, const char *expected)
{
    char message[1024];
    progress *p = progress_open_with(f->directory, options, message, sizeof message);
    assert_non_null(p);
    if (!strstr(message, expected)) fail_msg("message '%s' lacks '%s'", message, expected);
    return p;
}

/* Opens the progress and checks that its message contains `expected`. */
progress *progress_test_open_expecting(const progress_test_dir *f, const char *expected)
{
    return progress_test_open_with_expecting(f, NULL, expected);
}

/* Opens the progress, saves level 5's game as "rRl" and closes it. */
void progress_test_save_game_5(const progress_test_dir *f)
{
    progress *p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 5, "rRl"));
    progress_close(p);
}

/* Runs `sql` on the progress database, closed by the game. */
void progress_test_alter(const progress_test_dir *f, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(progress_test_path(f, "progress.db"), &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

/* Makes the progress database at schema `version`, with `rows`, then runs `damage` on it
 * (by hand, as a player could). */
void progress_test_older_database(const progress_test_dir *f, int version, const char *rows,
                                  const char *damage)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(progress_test_path(f, "progress.db"), &db), SQLITE_OK);
    assert_int_equal(progress_schema_create_version(db, version), PROGRESS_SCHEMA_OK);
    assert_int_equal(sqlite3_exec(db, rows, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, damage, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

/* Every row of the database at `file`, one text: a collection's time as its order and
 * whether it is a time of today (what migration 4 makes of the counter). */
char *progress_test_dump(const char *file)
{
    static const char *const queries[] = {
        "SELECT group_concat(x, ';') FROM (SELECT quote(key) || ',' || solved || ',' ||"
        " quote(unfinished) || ',' || assisted || ',' || seconds || ',' ||"
        " quote(unfinished_solver_from) || ',' || quote(unfinished_hint_from) AS x FROM level"
        " ORDER BY key)",
        "SELECT group_concat(x, ';') FROM (SELECT key || ',' || kind || ',' || lurd || ',' ||"
        " moves || ',' || pushes || ',' || checked || ',' || origin AS x FROM best ORDER BY"
        " key, kind)",
        "SELECT group_concat(x, ';') FROM (SELECT key || ',' || lurd || ',' || moves || ',' ||"
        " pushes AS x FROM imported ORDER BY key, lurd)",
        "SELECT group_concat(x, ';') FROM (SELECT path || ',' || level || ',' || (played >"
        " (julianday('now') - 2440587.5) * 86400.0 - 86400) AS x FROM collection ORDER BY"
        " played)",
    };
    sqlite3 *db;
    assert_int_equal(sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    char *dump = calloc(1, 8192);
    assert_non_null(dump);
    for (size_t i = 0; i < sizeof queries / sizeof *queries; i++) {
        sqlite3_stmt *statement;
        assert_int_equal(sqlite3_prepare_v2(db, queries[i], -1, &statement, NULL), SQLITE_OK);
        assert_int_equal(sqlite3_step(statement), SQLITE_ROW);
        const char *text = (const char *)sqlite3_column_text(statement, 0);
        size_t used = strlen(dump);
        snprintf(dump + used, 8192 - used, "%s\n", text ? text : "");
        sqlite3_finalize(statement);
    }
    sqlite3_close(db);
    return dump;
}

/* Removes the database and every file beside it named after it (set aside, -wal...). */
void progress_test_remove_databases(const progress_test_dir *f)
{
    DIR *directory = opendir(f->directory);
    assert_non_null(directory);
    for (struct dirent *entry; (entry = readdir(directory));)
        if (strncmp(entry->d_name, "progress.db", 11) == 0) {
            char path[700];
            snprintf(path, sizeof path, "%s/%s", f->directory, entry->d_name);
            unlink(path);
        }
    closedir(directory);
}

/* A damaged schema 3 database salvaged, what is held in memory at most being `memory_max`
 * bytes (progress_options): what the new database holds (progress_test_dump). The scratch
 * database is gone after. */
char *progress_test_salvage_schema_3(const progress_test_dir *f, long long memory_max)
{
    progress_test_older_database(f, 3, ROWS_3_WITH_MEANING, "DROP TABLE snapshot");
    progress_options options = {.memory_max = memory_max};
    progress *p = progress_test_open_with_expecting(f, &options, "was damaged (");
    assert_true(progress_saving(p));
    progress_close(p);
    assert_int_equal(progress_test_count_names(f, "progress.db.repairing-"), 0);
    char file[512];
    snprintf(file, sizeof file, "%s", progress_test_path(f, "progress.db"));
    char *dump = progress_test_dump(file);
    progress_test_remove_databases(f);
    return dump;
}

/* One number from the database at `file`. */
int64_t progress_test_query_number(const char *file, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(file, &db), SQLITE_OK);
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    int64_t number = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return number;
}
