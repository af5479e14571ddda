/* progress_files_test.h - what the tests of the progress database as a file share
 * (test_progress_files.c, _salvage.c, _migrate.c, _legacy.c): names in the folder, opening
 * with a message expected, a database altered by hand or made at an older schema, every row
 * of one as text. */
#ifndef SOKOBAN_TESTS_PROGRESS_FILES_TEST_H
#define SOKOBAN_TESTS_PROGRESS_FILES_TEST_H

#include <stdbool.h>
#include <stdint.h>

#include "progress/progress.h"
#include "progress_test.h"

/* How many names in the directory start with `prefix` (SQLite's -wal and -shm files aside). */
int progress_test_count_names(const progress_test_dir *f, const char *prefix);

bool progress_test_exists(const char *path);

/* Opens the progress with `options` (NULL: none) and checks that its message contains
 * `expected`. */
progress *progress_test_open_with_expecting(const progress_test_dir *f,
                                            const progress_options *options, const char *expected);

/* Opens the progress and checks that its message contains `expected`. */
progress *progress_test_open_expecting(const progress_test_dir *f, const char *expected);

/* Opens the progress, saves level 5's game as "rRl" and closes it. */
void progress_test_save_game_5(const progress_test_dir *f);

/* Runs `sql` on the progress database, closed by the game. */
void progress_test_alter(const progress_test_dir *f, const char *sql);

/* Makes the progress database at schema `version`, with `rows`, then runs `damage` on it
 * (by hand, as a player could). */
void progress_test_older_database(const progress_test_dir *f, int version, const char *rows,
                                  const char *damage);

/* The rows progress_test_older_database's tests give each schema: a level solved with an unfinished
 * game, its best, and a collection (schema 2 on: a snapshot). */
#define ROWS_1                                                                                     \
    "INSERT INTO level (key, solved, unfinished) VALUES (7, 1, 'ur');"                             \
    "INSERT INTO best (key, kind, lurd, moves, pushes, checked) VALUES (7, 0, 'rR', 2, 1, 1);"     \
    "INSERT INTO collection (path, level, played) VALUES ('/a.xsb', 5, 2), ('/b.xsb', 3, 1);"

#define ROWS_2 ROWS_1 "INSERT INTO snapshot (key, name, lurd, saved) VALUES (7, 'before', 'ud', 5);"

/* The rows of a schema 3 database that mean something its migration 4 carries over: flags
 * other than 0 and 1, a negative time and help mark, a best of an origin unknown and one of
 * a negative count, an imported solution of a negative count, the collection counter. */
#define ROWS_3_WITH_MEANING                                                                        \
    ROWS_2 "INSERT INTO level (key, solved, assisted, seconds, unfinished_solver_from)"            \
           "  VALUES (8, 2, 3, -5, -1);"                                                           \
           "INSERT INTO best (key, kind, lurd, moves, pushes, checked, origin)"                    \
           "  VALUES (8, 0, 'lL', -1, 1, 1, 0), (8, 1, 'lL', 2, 1, 1, 7);"                         \
           "INSERT INTO imported VALUES (8, 'uU', -3, 1, 'a.sok');"

/* Every row of the database at `file`, one text: a collection's time as its order and
 * whether it is a time of today (what migration 4 makes of the counter). */
char *progress_test_dump(const char *file);

/* Removes the database and every file beside it named after it (set aside, -wal...). */
void progress_test_remove_databases(const progress_test_dir *f);

/* A damaged schema 3 database salvaged, what is held in memory at most being `memory_max`
 * bytes (progress_options): what the new database holds (progress_test_dump). The scratch
 * database is gone after. */
char *progress_test_salvage_schema_3(const progress_test_dir *f, long long memory_max);

/* One number from the database at `file`. */
int64_t progress_test_query_number(const char *file, const char *sql);

#endif
