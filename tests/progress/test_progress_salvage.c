/* test_progress_salvage.c - a damaged progress database set aside and what can be read of it
 * copied into a new one (issue 13, storage item 2): damaged pages, a table or a column of
 * ours dropped or altered by hand, values its schema refuses, an older schema's whose
 * migration fails for what it holds (through the migrations, in memory or in a scratch
 * database on disk when there is room), a repair never copied twice, nothing in the file
 * run (a view, a column name). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <sqlite3.h>

#include "progress/progress.h"
#include "progress/progress_db.h"
#include "progress/progress_salvage.h"
#include "progress/progress_schema.h"
#include "progress_files_test.h"
#include "progress_test.h"

/* The bytes free reported to the code under test (progress_options.free_bytes). */
static long long free_bytes_told = -1;

static long long tell_free_bytes(const char *folder)
{
    (void)folder;
    return free_bytes_told;
}

/* Writes garbage over page 80 (of 4 KiB) of the progress database, closed by the game: the
 * middle of a table the test filled with 300 rows of 2,000 characters (about 160 pages). */
static void damage_page_80(const progress_test_dir *f)
{
    int fd = open(progress_test_path(f, "progress.db"), O_WRONLY);
    assert_true(fd >= 0);
    char garbage[4096];
    memset(garbage, 0x5a, sizeof garbage);
    assert_int_equal(pwrite(fd, garbage, sizeof garbage, 79 * 4096), (ssize_t)sizeof garbage);
    close(fd);
}

/* A game killed after a repair's copy was committed, before the damaged file was renamed
 * FILE.corrupt-* (left as FILE.repairing-*, made here by renaming it back): the next game
 * only renames it, where it copied its rows again and doubled the time played (10 s became
 * 20 s). The copy's transaction records the file copied (merged_repair). */
static void test_repair_killed_after_its_copy_is_not_copied_twice(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_add_time(p, 7, 10));
    progress_close(p);
    progress_test_alter(f, "DROP TABLE imported");
    p = progress_test_open_expecting(f, "was damaged (");
    assert_true(progress_get(p, 7)->seconds == 10);
    progress_close(p);
    DIR *directory = opendir(f->directory);
    assert_non_null(directory);
    char corrupt[600] = "", repairing[600] = "";
    for (struct dirent *entry; (entry = readdir(directory));)
        if (strncmp(entry->d_name, "progress.db.corrupt-", 20) == 0 &&
            !strchr(entry->d_name + 20, 'w')) {
            snprintf(corrupt, sizeof corrupt, "%s/%s", f->directory, entry->d_name);
            snprintf(repairing, sizeof repairing, "%s/progress.db.repairing-%s", f->directory,
                     entry->d_name + 20);
        }
    closedir(directory);
    assert_int_equal(rename(corrupt, repairing), 0);

    p = progress_test_open_expecting(f, "was cut short after its records were copied");
    assert_true(progress_saving(p));
    if (progress_get(p, 7)->seconds != 10)
        fail_msg("time played %g s, not 10 s", progress_get(p, 7)->seconds);
    progress_close(p);
    assert_int_equal(progress_test_count_names(f, "progress.db.corrupt-"), 1);
    assert_int_equal(progress_test_count_names(f, "progress.db.repairing-"), 0);
    p = progress_test_open(f); /* nothing left to say */
    assert_true(progress_get(p, 7)->seconds == 10);
    progress_close(p);
}

/* A database whose b-tree pages are overwritten in the middle fails quick_check: it is set
 * aside, reported, and what can be read is copied into a new one. */
static void test_damaged_database_is_set_aside_and_salvaged(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    char lurd[2001];
    memset(lurd, 'l', sizeof lurd - 1);
    lurd[sizeof lurd - 1] = '\0';
    for (int i = 1; i <= 300; i++) assert_true(progress_set_unfinished(p, (progress_key)i, lurd));
    progress_close(p); /* the last connection: the WAL goes into the file */
    assert_false(progress_test_exists(progress_test_path(f, "progress.db-wal")));

    int fd = open(progress_test_path(f, "progress.db"), O_WRONLY);
    assert_true(fd >= 0);
    struct stat status;
    assert_int_equal(fstat(fd, &status), 0);
    char garbage[4096];
    memset(garbage, 0x5a, sizeof garbage);
    /* Page 80 of about 160 (4 KiB pages): the middle of the level table. */
    assert_int_equal(pwrite(fd, garbage, sizeof garbage, 79 * 4096), (ssize_t)sizeof garbage);
    close(fd);

    p = progress_test_open_expecting(f, "was damaged; it was set aside as");
    assert_true(progress_saving(p));
    assert_int_equal(progress_test_count_names(f, "progress.db.corrupt-"), 1);
    int kept = 0;
    for (int i = 1; i <= 300; i++) kept += progress_get(p, (progress_key)i) != NULL;
    assert_true(kept > 0);
    assert_true(kept < 300);
    assert_true(progress_set_unfinished(p, 1000, "r"));
    progress_close(p);
    p = progress_test_open(f); /* sound now: nothing to say */
    assert_non_null(progress_get(p, 1000));
    progress_close(p);
}

/* A damaged database whose `collection` is a view: the salvage passes it over, reading the
 * tables only (reading a view runs what the file says: a recursive one without end). */
static void test_salvage_reads_no_view(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    char lurd[2001];
    memset(lurd, 'l', sizeof lurd - 1);
    lurd[sizeof lurd - 1] = '\0';
    for (int i = 1; i <= 300; i++) assert_true(progress_set_unfinished(p, (progress_key)i, lurd));
    progress_close(p);
    progress_test_alter(f, "DROP TABLE collection;"
                           "CREATE VIEW collection AS SELECT '/a.xsb' AS path, 3 AS level,"
                           " 1.0 AS played");
    damage_page_80(f);

    p = progress_test_open_expecting(f, "was damaged; it was set aside as");
    assert_true(progress_saving(p));
    const char *path;
    int level;
    assert_false(progress_last(p, &path, &level));
    int kept = 0;
    for (int i = 1; i <= 300; i++) kept += progress_get(p, (progress_key)i) != NULL;
    assert_true(kept > 0); /* the tables are read */
    progress_close(p);
}

/* A damaged database whose `level` table has a column whose name reads as SQL: the salvage
 * copies by the name quoted, so the name runs nothing (one closing the column list and
 * adding a recursive SELECT filled the disk without end; this one adds level 7). */
static void test_salvage_runs_no_column_name(void **state)
{
    progress_test_dir *f = *state;
    progress_close(progress_test_open(f));
    sqlite3 *db;
    assert_int_equal(sqlite3_open(progress_test_path(f, "progress.db"), &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db,
                                  "DROP TABLE best; DROP TABLE snapshot; DROP TABLE imported;"
                                  "DROP TABLE level;"
                                  "CREATE TABLE level (\"key) SELECT 7 --\");"
                                  "INSERT INTO level VALUES (1);",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    char path[2001];
    memset(path, 'p', sizeof path - 1);
    path[sizeof path - 1] = '\0';
    sqlite3_stmt *insert;
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "INSERT INTO collection (path, level) VALUES (? || ?, 1)",
                                        -1, &insert, NULL),
                     SQLITE_OK);
    for (int i = 1; i <= 300; i++) {
        sqlite3_bind_int(insert, 1, i);
        sqlite3_bind_text(insert, 2, path, -1, SQLITE_STATIC);
        assert_int_equal(sqlite3_step(insert), SQLITE_DONE);
        sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    sqlite3_close(db);
    damage_page_80(f);

    progress *p = progress_test_open_expecting(f, "was damaged; it was set aside as");
    assert_true(progress_saving(p));
    assert_null(progress_get(p, 7));
    progress_close(p);
}

/* A database of our version whose table `best` was dropped by hand: it is damaged (every
 * save of a best said "no such table: best", and the game opened as saving), so it is set
 * aside at open, told once, and its other rows come into a new one. */
static void test_database_without_a_table_of_ours_is_salvaged(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 5, "rRl"));
    assert_true(progress_set_last(p, "/a.xsb", 3));
    progress_close(p);
    progress_test_alter(f, "DROP TABLE best");

    p = progress_test_open_expecting(
        f, "was damaged (its table best is missing); it was set aside as");
    assert_true(progress_saving(p));
    assert_int_equal(progress_test_count_names(f, "progress.db.corrupt-"), 1);
    const progress_record *record = progress_get(p, 5);
    assert_non_null(record);
    assert_string_equal(record->unfinished, "rRl");
    const char *path;
    int level;
    assert_true(progress_last(p, &path, &level));
    assert_string_equal(path, "/a.xsb");
    assert_int_equal(level, 3);
    assert_true(progress_record_solution(p, 5, "R", 1, 1));
    char why[256];
    assert_false(progress_unsaved(p, why, sizeof why));
    progress_close(p);
    p = progress_test_open(f); /* intact now: nothing to say */
    progress_close(p);
    assert_int_equal(progress_test_count_names(f, "progress.db.corrupt-"), 1);
}

/* A table of ours with a column renamed by hand (so one of ours is gone) is damaged too;
 * its rows come into the new table, the column the file lacks taking its default. */
static void test_table_with_a_column_gone_is_salvaged_keeping_its_rows(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_set_last(p, "/a.xsb", 3));
    assert_true(progress_set_last(p, "/b.xsb", 4));
    assert_true(progress_set_unfinished(p, 5, "rRl"));
    progress_close(p);
    progress_test_alter(f, "ALTER TABLE collection RENAME COLUMN played TO when_played;"
                           "ALTER TABLE level DROP COLUMN unfinished_hint_from");

    p = progress_test_open_expecting(f, "was damaged (its table ");
    assert_true(progress_saving(p));
    assert_int_equal(progress_collection_level(p, "/a.xsb"), 3);
    assert_int_equal(progress_collection_level(p, "/b.xsb"), 4);
    assert_non_null(progress_get(p, 5));
    assert_true(progress_set_last(p, "/c.xsb", 1));
    char why[256];
    assert_false(progress_unsaved(p, why, sizeof why));
    progress_close(p);
}

/* The lookup tables' rows are part of the schema: a best names its origin, so a database
 * that lost the optimizer's origin fails that save, and is damaged. */
static void test_lookup_table_without_its_rows_is_damaged(void **state)
{
    progress_test_dir *f = *state;
    progress_close(progress_test_open(f));
    progress_test_alter(f, "DELETE FROM origin WHERE origin = 3");
    progress *p = progress_test_open_expecting(f, "was damaged (its table origin has rows");
    assert_true(progress_saving(p));
    progress_close(p);
}

/* A sound database says nothing of its schema: opening it twice sets nothing aside. */
static void test_intact_database_is_not_set_aside(void **state)
{
    progress_test_dir *f = *state;
    progress_close(progress_test_open(f));
    progress *p = progress_test_open_expecting(f, "");
    progress_close(p);
    char message[1024];
    p = progress_open(f->directory, message, sizeof message);
    assert_string_equal(message, "");
    progress_close(p);
    assert_int_equal(progress_test_count_names(f, "progress.db."), 0);
}

/* After an older database's salvage: it said so once, the damaged file is kept aside, and
 * the new one saves. */
static progress *open_salvaged(const progress_test_dir *f, const char *expected)
{
    progress *p = progress_test_open_expecting(f, expected);
    assert_true(progress_saving(p));
    assert_int_equal(progress_test_count_names(f, "progress.db.corrupt-"), 1);
    assert_int_equal(progress_test_count_names(f, "progress.db.repairing-"), 0);
    assert_true(progress_set_last(p, "/c.xsb", 1));
    assert_true(progress_set_unfinished(p, 9, "lL"));
    char why[256];
    assert_false(progress_unsaved(p, why, sizeof why));
    return p;
}

/* Its collections came through, /a.xsb played last (the counter of schemas 1 to 3 kept its
 * order). */
static void assert_collections_kept(progress *p)
{
    assert_int_equal(progress_collection_level(p, "/a.xsb"), 5);
    assert_int_equal(progress_collection_level(p, "/b.xsb"), 3);
}

/* Reopened, a salvaged database is intact: nothing to say, nothing more set aside, the
 * level `key` saved after the salvage there. */
static void reopen_quietly_with(const progress_test_dir *f, progress_key key)
{
    progress *p = progress_test_open(f);
    assert_non_null(progress_get(p, key));
    progress_close(p);
    assert_int_equal(progress_test_count_names(f, "progress.db.corrupt-"), 1);
}

static void reopen_quietly(const progress_test_dir *f)
{
    reopen_quietly_with(f, 9);
}

/* A database of schema 1 whose best was dropped by hand: migration 2 (which adds best's
 * origin) failed at every start ("cannot use ... no such table: best; progress is not
 * saved", the game's changes lost at exit); now it is salvaged as one of our version is. */
static void test_schema_1_without_a_table_is_salvaged(void **state)
{
    progress_test_dir *f = *state;
    progress_test_older_database(f, 1, ROWS_1, "DROP TABLE best");
    progress *p = open_salvaged(f, "was damaged (");
    const progress_record *r = progress_get(p, 7);
    assert_non_null(r);
    assert_true(r->solved);
    assert_string_equal(r->unfinished, "ur");
    assert_null(r->best_moves.lurd);
    assert_collections_kept(p);
    progress_close(p);
    reopen_quietly(f);
}

/* Schema 2 with a column of level dropped: migration 4 reads it. Its other columns and
 * tables come through, through migration 4's conversions (the counter become a time). */
static void test_schema_2_without_a_column_is_salvaged(void **state)
{
    progress_test_dir *f = *state;
    progress_test_older_database(f, 2, ROWS_2, "ALTER TABLE level DROP COLUMN unfinished_redo");
    progress *p = open_salvaged(f, "was damaged (");
    const progress_record *r = progress_get(p, 7);
    assert_non_null(r);
    assert_true(r->solved);
    assert_string_equal(r->unfinished, "ur");
    assert_string_equal(r->best_moves.lurd, "rR");
    progress_snapshot *snapshots;
    assert_int_equal(progress_snapshots(p, 7, &snapshots), 1);
    progress_snapshots_free(snapshots, 1);
    assert_collections_kept(p);
    progress_close(p);
    char file[512];
    snprintf(file, sizeof file, "%s", progress_test_path(f, "progress.db"));
    int64_t now = (int64_t)time(NULL);
    assert_true(progress_test_query_number(file, "SELECT min(played) FROM collection") >
                now - 86400);
    reopen_quietly(f);
}

/* Schema 3 with snapshot dropped: migration 4 rebuilds every table. */
static void test_schema_3_without_a_table_is_salvaged(void **state)
{
    progress_test_dir *f = *state;
    progress_test_older_database(f, 3, ROWS_2, "DROP TABLE snapshot");
    progress *p = open_salvaged(f, "was damaged (");
    const progress_record *r = progress_get(p, 7);
    assert_non_null(r);
    assert_string_equal(r->best_moves.lurd, "rR");
    assert_collections_kept(p);
    progress_close(p);
    reopen_quietly(f);
}

/* Schema 4 with the lookup table origin dropped: migration 5 adds its row. */
static void test_schema_4_without_a_lookup_table_is_salvaged(void **state)
{
    progress_test_dir *f = *state;
    progress_test_older_database(f, 4, ROWS_2, "DROP TABLE origin");
    progress *p = open_salvaged(f, "was damaged (");
    const progress_record *r = progress_get(p, 7);
    assert_non_null(r);
    assert_string_equal(r->best_moves.lurd, "rR");
    assert_int_equal(r->best_moves.origin, PROGRESS_OWN);
    assert_collections_kept(p);
    progress_close(p);
    reopen_quietly(f);
}

/* Schema 5 with level dropped: migration 6 adds a column to it. The bests and snapshots
 * keep their levels (given a row each, as migration 4 gives them). */
static void test_schema_5_without_a_table_is_salvaged(void **state)
{
    progress_test_dir *f = *state;
    progress_test_older_database(f, 5, ROWS_2, "DROP TABLE level");
    progress *p = open_salvaged(f, "was damaged (its schema 5 cannot be brought up to date: no "
                                   "such table: level); it was set aside as ");
    const progress_record *r = progress_get(p, 7);
    assert_non_null(r);
    assert_string_equal(r->best_moves.lurd, "rR");
    progress_snapshot *snapshots;
    assert_int_equal(progress_snapshots(p, 7, &snapshots), 1);
    progress_snapshots_free(snapshots, 1);
    assert_collections_kept(p);
    progress_close(p);
    reopen_quietly(f);
}

/* An index added by hand on a table of ours can fail a save as a table dropped does (here
 * every level after the first: "UNIQUE constraint failed: level.assisted", the game's
 * changes lost at exit, where the columns were all there): damaged, and salvaged without
 * it. */
static void test_index_added_by_hand_is_salvaged_without_it(void **state)
{
    progress_test_dir *f = *state;
    progress_test_save_game_5(f);
    progress_test_alter(f, "CREATE UNIQUE INDEX mine ON level (assisted)");
    progress *p = progress_test_open_expecting(
        f, "was damaged (its table level has an index sokoban's does not); it "
           "was set aside as");
    assert_string_equal(progress_get(p, 5)->unfinished, "rRl");
    assert_true(progress_set_unfinished(p, 6, "uU"));
    char why[256];
    assert_false(progress_unsaved(p, why, sizeof why));
    progress_close(p);
    reopen_quietly_with(f, 6);
}

/* A table of the player's own in the file, with an index on it, fails nothing of ours: the
 * database is intact and both stay, where the index was taken for damage and the file set
 * aside (the player's table then only in the corrupt- copy). */
static void test_table_and_index_not_ours_are_left_alone(void **state)
{
    progress_test_dir *f = *state;
    progress_test_save_game_5(f);
    progress_test_alter(f, "CREATE TABLE notes (level INTEGER, text TEXT);"
                           "CREATE UNIQUE INDEX notes_level ON notes (level);"
                           "INSERT INTO notes VALUES (5, 'push the left box first')");
    progress *p = progress_test_open(f);
    assert_string_equal(progress_get(p, 5)->unfinished, "rRl");
    assert_true(progress_set_unfinished(p, 6, "uU"));
    progress_close(p);
    assert_int_equal(progress_test_count_names(f, "progress.db"), 1); /* nothing set aside */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(progress_test_path(f, "progress.db"), &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "SELECT text FROM notes WHERE level = 5", NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    p = progress_test_open(f);
    assert_string_equal(progress_get(p, 6)->unfinished, "uU");
    progress_close(p);
}

/* A generated column added by hand to a table of ours is never read: its
 * expression is the file's, run for each row read (one building a 200 MB text took seconds
 * and gigabytes a row), and one that fails (here malformed JSON) ended the table's copy at
 * its first row: level 5's game was lost. The stored columns are read by name. */
static void test_salvage_reads_no_generated_column(void **state)
{
    progress_test_dir *f = *state;
    progress_test_save_game_5(f);
    progress_test_alter(f, "ALTER TABLE level ADD COLUMN g AS (json_extract('not json', '$'))");
    progress *p = progress_test_open_expecting(f, "was damaged");
    assert_non_null(progress_get(p, 5));
    assert_string_equal(progress_get(p, 5)->unfinished, "rRl");
    progress_close(p);
}

/* A table not ours whose CHECK a row of it fails (written with the checks ignored)
 * is left alone as any table of the player's is: the opening's quick_check ran the file's
 * CHECK expressions on every row (one building a 300 MB blob a row took 24 s), and this one
 * set the whole database aside as damaged. Only our tables' rows are checked, once their
 * statements are ours. */
static void test_a_check_of_a_table_not_ours_is_never_run(void **state)
{
    progress_test_dir *f = *state;
    progress_test_save_game_5(f);
    progress_test_alter(f, "CREATE TABLE notes (level INTEGER CHECK (level > 0));"
                           "PRAGMA ignore_check_constraints = ON;"
                           "INSERT INTO notes VALUES (-1)");
    progress *p = progress_test_open(f);
    assert_string_equal(progress_get(p, 5)->unfinished, "rRl");
    progress_close(p);
    assert_int_equal(progress_test_count_names(f, "progress.db"), 1); /* nothing set aside */
}

/* A table rebuilt by hand with its columns as ours but a CHECK of its own (which refuses a
 * collection of ours): damaged too, its rows kept. */
static void test_table_with_a_check_of_its_own_is_salvaged(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_set_last(p, "/a.xsb", 3));
    progress_close(p);
    progress_test_alter(f, "CREATE TABLE c (  path TEXT PRIMARY KEY CHECK (path NOT LIKE '/c%'),"
                           "  level INTEGER NOT NULL CHECK (level >= 0),"
                           "  played REAL NOT NULL DEFAULT 0 CHECK (played >= 0));"
                           "INSERT INTO c SELECT * FROM collection; DROP TABLE collection;"
                           "ALTER TABLE c RENAME TO collection;"
                           "CREATE INDEX collection_played ON collection (played);");
    p = progress_test_open_expecting(
        f, "was damaged (its table collection has constraints sokoban's does "
           "not); it was set aside as");
    assert_int_equal(progress_collection_level(p, "/a.xsb"), 3);
    assert_true(progress_set_last(p, "/c.xsb", 1));
    char why[256];
    assert_false(progress_unsaved(p, why, sizeof why));
    progress_close(p);
}

/* A row holding values its CHECKs refuse (written by hand with the checks off: a text
 * where a flag is kept, a negative time) fails quick_check, and the salvage copied the
 * rest of the file but not that row: the unfinished game was lost. Now those values take
 * their column's default and the row comes. */
static void test_salvage_keeps_a_row_with_values_its_schema_refuses(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 5, "rRl"));
    assert_true(progress_add_time(p, 5, 30));
    assert_true(progress_set_unfinished(p, 6, "uU"));
    progress_close(p);
    progress_test_alter(f, "PRAGMA ignore_check_constraints = 1;"
                           "UPDATE level SET solved = 'yes', seconds = 'long' WHERE key = 5;"
                           "UPDATE level SET assisted = 7, seconds = -1 WHERE key = 6");
    p = progress_test_open_expecting(
        f, "was damaged (its table level holds a row its schema refuses); it was set aside as");
    const progress_record *r = progress_get(p, 5);
    assert_non_null(r);
    assert_string_equal(r->unfinished, "rRl");
    assert_false(r->solved);
    r = progress_get(p, 6);
    assert_non_null(r);
    assert_string_equal(r->unfinished, "uU");
    assert_false(r->assisted);
    char why[256];
    assert_true(progress_add_time(p, 5, 1));
    assert_false(progress_unsaved(p, why, sizeof why));
    progress_close(p);
}

/* A best of schema 3 whose level key is text (written by hand): migration 4 fails giving
 * it a level row ("datatype mismatch"), and so did the salvage's own mending, so nothing
 * was copied and the file stayed set aside as repairing, tried again and failing at every
 * start. The best that has no level is dropped; the rest comes. */
static void test_schema_3_with_a_text_key_is_salvaged(void **state)
{
    progress_test_dir *f = *state;
    progress_test_older_database(
        f, 3, ROWS_2,
        "INSERT INTO best (key, kind, lurd, moves, pushes) VALUES ('x', 0, 'lL', 2, 1)");
    progress *p = open_salvaged(f, "was damaged (its schema 3 cannot be brought up to date: "
                                   "datatype mismatch); it was set aside as ");
    const progress_record *r = progress_get(p, 7);
    assert_non_null(r);
    assert_string_equal(r->best_moves.lurd, "rR");
    assert_collections_kept(p);
    progress_close(p);
    reopen_quietly(f);
}

/* A collection table rebuilt by hand without its key, holding two rows of one path: the
 * salvage keeps the level of the one played last (it kept the first row's level, with the
 * last one's time). */
static void test_salvage_keeps_the_level_of_a_collection_played_last(void **state)
{
    progress_test_dir *f = *state;
    progress_close(progress_test_open(f));
    progress_test_alter(f, "CREATE TABLE c (path TEXT, level INTEGER NOT NULL CHECK (level >= 0),"
                           "  played REAL NOT NULL DEFAULT 0 CHECK (played >= 0));"
                           "INSERT INTO c VALUES ('/a.xsb', 3, 100), ('/a.xsb', 9, 5000),"
                           "  ('/a.xsb', 4, 200);"
                           "DROP TABLE collection; ALTER TABLE c RENAME TO collection;"
                           "CREATE INDEX collection_played ON collection (played);");
    progress *p =
        progress_test_open_expecting(f, "was damaged (its table collection has columns sokoban's "
                                        "does not)");
    assert_int_equal(progress_collection_level(p, "/a.xsb"), 9);
    progress_close(p);
}

/* An older schema's database over the size migrated in memory (64 MiB; lowered to a byte
 * here) is migrated in a scratch database on disk, so that it means what a smaller one
 * means: it was copied as it was, and lost what migration 4 carries (a flag of 2 failed
 * its CHECK and the row's numbers became defaults, the counter stayed a count of 1970's
 * seconds, a best of a negative count was not copied). */
static void test_a_large_older_database_is_salvaged_as_a_small_one(void **state)
{
    progress_test_dir *f = *state;
    char *small = progress_test_salvage_schema_3(f, 64LL << 20);
    char *large = progress_test_salvage_schema_3(f, 1);
    assert_string_equal(large, small);
    /* and what migration 4 means is there */
    if (!strstr(small, "8,1,NULL,1,0.0,NULL,NULL") || !strstr(small, "8,0,lL,0,1,0,0") ||
        !strstr(small, "8,1,lL,2,1,1,2") || !strstr(small, "/b.xsb,3,1;/a.xsb,5,1"))
        fail_msg("salvaged: %s", small);
    free(small);
    free(large);
}

/* Review5 finding 5: an older schema's database over the size migrated in memory, with
 * less than four times its size free beside it (SCRATCH_ROOM) but the twice its copy as it
 * is needs (COPY_ROOM, progress_salvage.c), is copied as it is, said in the line that tells the
 * repair, and no scratch database is made (one was made at every start, filled the disk
 * and failed, and the copy fell back to the same). */
static void test_an_older_database_without_room_to_migrate_is_copied_as_it_is(void **state)
{
    progress_test_dir *f = *state;
    progress_test_older_database(f, 3, ROWS_3_WITH_MEANING, "DROP TABLE snapshot");
    struct stat file;
    assert_int_equal(stat(progress_test_path(f, "progress.db"), &file), 0);
    progress_options options = {.memory_max = 1, .free_bytes = tell_free_bytes};
    free_bytes_told = 2 * (long long)file.st_size; /* what the copy as it is needs */
    char message[1024];
    progress *p = progress_open_with(f->directory, &options, message, sizeof message);
    if (!strstr(message, "copied from it as it was (bringing its older schema up to date first "
                         "needs 1 MiB free beside it, and 0 MiB are free)") ||
        strchr(message, '\n'))
        fail_msg("message: %s", message);
    assert_true(progress_saving(p));
    progress_close(p);
    assert_int_equal(progress_test_count_names(f, "progress.db.repairing-"), 0);
    assert_int_equal(progress_test_count_names(f, "progress.db.corrupt-"), 1);
    DIR *directory = opendir(f->directory);
    assert_non_null(directory);
    for (struct dirent *entry; (entry = readdir(directory));)
        if (strstr(entry->d_name, "-migrating")) fail_msg("left: %s", entry->d_name);
    closedir(directory);
}

/* Review6: with three times the file's size free beside it, room for the scratch database
 * (up to twice it) but not for the new database's -wal and checkpoint written while the
 * scratch is still there, the file is copied as it is and said: the scratch was made, the
 * disk filled, nothing was copied and the next start failed the same (measured on a tmpfs:
 * progress_salvage.c, SCRATCH_ROOM). */
static void test_room_for_the_scratch_alone_copies_as_it_is(void **state)
{
    progress_test_dir *f = *state;
    progress_test_older_database(f, 3, ROWS_3_WITH_MEANING, "DROP TABLE snapshot");
    struct stat file;
    assert_int_equal(stat(progress_test_path(f, "progress.db"), &file), 0);
    progress_options options = {.memory_max = 1, .free_bytes = tell_free_bytes};
    free_bytes_told = 3 * (long long)file.st_size;
    char message[1024];
    progress *p = progress_open_with(f->directory, &options, message, sizeof message);
    if (!strstr(message, "copied from it as it was (bringing its older schema up to date first "
                         "needs 1 MiB free beside it, and 0 MiB are free)"))
        fail_msg("message: %s", message);
    assert_true(progress_saving(p));
    progress_close(p);
}

/* Review5 finding 4: a game finishing a repair while another game holds the new database's
 * write lock (the other one migrating the same file set aside) leaves that game's scratch
 * database (ASIDE-migrating) alone and copies nothing: it removed it and made its own,
 * and the first one wrote into a deleted file. */
static void test_a_repair_waiting_for_the_lock_leaves_the_scratch_alone(void **state)
{
    progress_test_dir *f = *state;
    progress_test_older_database(f, 3, ROWS_3_WITH_MEANING, "");
    char aside[256], scratch[300];
    snprintf(aside, sizeof aside, "%s", progress_test_path(f, "progress.db.repairing-1"));
    snprintf(scratch, sizeof scratch, "%s" PROGRESS_SALVAGE_SCRATCH, aside);
    assert_int_equal(rename(progress_test_path(f, "progress.db"), aside), 0);
    progress_test_write(scratch, "the other game's migration");
    struct stat before, after;
    assert_int_equal(lstat(scratch, &before), 0);
    sqlite3 *db, *other;
    assert_int_equal(sqlite3_open(progress_test_path(f, "progress.db"), &db), SQLITE_OK);
    assert_int_equal(progress_schema_upgrade(db, NULL, NULL, 0), PROGRESS_SCHEMA_OK);
    assert_int_equal(sqlite3_open(progress_test_path(f, "progress.db"), &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    progress_options on_disk = {.memory_max = 1}; /* every file migrated on disk */
    long copied = progress_salvage(db, aside, &on_disk, NULL, 0);
    sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(other);
    assert_int_equal(copied, PROGRESS_SALVAGE_BUSY);
    assert_int_equal(lstat(scratch, &after), 0);
    assert_true(after.st_ino == before.st_ino && after.st_size == before.st_size);
    /* the lock let go, the copy is made, the scratch of a game killed there replaced */
    copied = progress_salvage(db, aside, &on_disk, NULL, 0);
    assert_true(copied > 0);
    assert_int_equal(lstat(scratch, &after), -1);
    /* and a second copy of the same file, once recorded, copies nothing */
    assert_int_equal(progress_salvage(db, aside, &on_disk, NULL, 0), 0);
    sqlite3_close(db);
}

/* Fills the progress database with 2,000 levels, each 10 s played and an unfinished game of
 * 1,000 moves (about 2.5 MiB), then damages it (a table dropped). */
static void make_large_damaged(const progress_test_dir *f)
{
    progress_close(progress_test_open(f));
    progress_test_alter(f, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                           "WHERE i < 2000) INSERT INTO level (key, seconds, unfinished) "
                           "SELECT i, 10, substr(replace(hex(zeroblob(500)), '0', 'l'), 1, 1000) "
                           "FROM n; DROP TABLE imported");
}

/* Sets this process's largest file size (RLIMIT_FSIZE, the soft limit), as a full disk: a
 * write past it fails (EFBIG; SIGXFSZ ignored). -1: back to the hard limit. */
static void limit_file_size(long long bytes)
{
    struct rlimit limit;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &limit), 0);
    limit.rlim_cur = bytes < 0 ? limit.rlim_max : (rlim_t)bytes;
    signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &limit), 0);
}

/* The level rows of the database at `path`. */
static int count_levels(const char *path)
{
    sqlite3 *db;
    sqlite3_stmt *statement;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM level", -1, &statement, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(statement), SQLITE_ROW);
    int count = sqlite3_column_int(statement, 0);
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return count;
}

/* A repair whose copy the disk cannot hold (writes past 100,000 bytes fail, as on a full
 * disk: the copy of a 2.5 MiB file) leaves nothing of it in the new database, and the next
 * start, with room, copies every row once: each level 10 s. SQLite rolled the copy's
 * transaction back when its cache spilled into the -wal and failed; the rows after were each
 * committed alone (16 here), the copy was then taken for failed, and the next start copied
 * them again: 10 s became 20 s. */
static void test_a_repair_the_disk_cannot_hold_copies_nothing_twice(void **state)
{
    progress_test_dir *f = *state;
    make_large_damaged(f);
    char message[1024];
    limit_file_size(100000);
    progress *p = progress_open(f->directory, message, sizeof message);
    limit_file_size(-1);
    progress_close(p);
    assert_int_equal(count_levels(progress_test_path(f, "progress.db")), 0);
    p = progress_test_open_expecting(f, "2000 records were copied");
    int doubled = 0, missing = 0;
    for (int i = 1; i <= 2000; i++) {
        const progress_record *r = progress_get(p, (progress_key)i);
        if (!r) missing++;
        else if (r->seconds != 10) doubled++;
    }
    progress_close(p);
    if (doubled || missing) fail_msg("%d levels missing, %d not 10 s", missing, doubled);
}

static long long no_bytes_free(const char *folder)
{
    (void)folder;
    return 0;
}

/* The largest file size open_telling_all opens with, once (limit_file_size; -1: none). */
static long long file_size_limit = -1;

/* Opens the progress with `options` (under file_size_limit), the message expected to hold
 * each of `parts` (NULL ended, "%1$s" in one standing for the database's path) on one line. */
static progress *open_telling_all(const progress_test_dir *f, const progress_options *options,
                                  const char *const *parts)
{
    char message[2048], part[1024];
    if (file_size_limit >= 0) limit_file_size(file_size_limit);
    progress *p = progress_open_with(f->directory, options, message, sizeof message);
    if (file_size_limit >= 0) limit_file_size(-1);
    file_size_limit = -1;
    assert_non_null(p);
    for (; *parts; parts++) {
        snprintf(part, sizeof part, *parts, progress_test_path(f, "progress.db"));
        if (!strstr(message, part)) fail_msg("message: %s\nlacks: %s", message, part);
    }
    if (strchr(message, '\n')) fail_msg("two lines: %s", message);
    return p;
}

/* A damaged database whose rows the disk has not room to copy into a new one (twice the
 * file's size free beside it: the -wal, then the checkpoint; none here) is set aside, nothing
 * copied, and the game goes on with the new database, saved, saying in one line that what
 * was set aside is not shown until a start with room copies it in; each start says the same
 * until there is room, then the copy is made once, merged with what was played meanwhile.
 * Reading the two into memory instead, shown and not saved, gave up each session's play on
 * a disk with kilobytes to spare (review7). */
static void test_a_repair_without_room_to_copy_plays_on_saved_and_says_so(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_add_time(p, 7, 10));
    progress_close(p);
    progress_test_alter(f, "DROP TABLE imported");
    progress_options full = {.free_bytes = no_bytes_free};
    p = open_telling_all(
        f, &full,
        (const char *const[]){"progress: %1$s was damaged (its table imported is missing); it was "
                              "set aside as %1$s.repairing-",
                              ", and what can be read of it cannot be copied into a new one yet "
                              "(copying it needs 1 MiB free beside it, and 0 MiB are free; each "
                              "start tries again): what it holds is not shown until then, and "
                              "this session's play is saved without it",
                              NULL});
    assert_true(progress_saving(p));
    assert_null(progress_get(p, 7));
    assert_true(progress_add_time(p, 8, 5));
    progress_close(p);
    assert_int_equal(progress_test_count_names(f, "progress.db.repairing-"), 1);
    p = open_telling_all(f, &full,
                         (const char *const[]){"progress: a repair of %1$s was cut short, and it "
                                               "cannot be finished from %1$s.repairing-",
                                               " yet (copying it needs 1 MiB free beside it, and "
                                               "0 MiB are free; each start tries again): what it "
                                               "holds is not shown until then",
                                               NULL});
    assert_true(progress_saving(p));
    assert_null(progress_get(p, 7));
    assert_true(progress_get(p, 8)->seconds == 5);
    assert_true(progress_add_time(p, 8, 5));
    progress_close(p);
    p = progress_test_open_expecting(f, "was cut short; it was finished from");
    assert_true(progress_saving(p));
    assert_true(progress_get(p, 7)->seconds == 10);
    assert_true(progress_get(p, 8)->seconds == 10);
    progress_close(p);
    assert_int_equal(progress_test_count_names(f, "progress.db.repairing-"), 0);
}

/* A repair whose copy fails (writes past 100,000 bytes fail, as on a full disk) is told with
 * SQLite's reason, nothing of it written, the game on the new database; the next start
 * tries again and says so, where none was shown and the next start said nothing. */
static void test_a_repair_whose_copy_fails_says_so(void **state)
{
    progress_test_dir *f = *state;
    make_large_damaged(f);
    file_size_limit = 100000;
    progress *p = open_telling_all(
        f, NULL,
        (const char *const[]){"cannot be copied into a new one yet (its copy failed: ",
                              "; each start tries again): what it holds is not shown until then",
                              NULL});
    assert_true(progress_saving(p));
    assert_null(progress_get(p, 2000));
    progress_close(p);
    file_size_limit = 100000;
    p = open_telling_all(f, NULL,
                         (const char *const[]){"progress: a repair of %1$s was cut short, and it "
                                               "cannot be finished from ",
                                               "(its copy failed: ", NULL});
    assert_null(progress_get(p, 2000));
    progress_close(p);
    p = progress_test_open_expecting(f, "was cut short; it was finished from");
    assert_true(progress_get(p, 1)->seconds == 10);
    assert_true(progress_get(p, 2000)->seconds == 10);
    progress_close(p);
}

/* 512 KiB free: room to copy a small file set aside, not one of 1 MiB or more. */
static long long half_a_mib_free(const char *folder)
{
    (void)folder;
    return 512 << 10;
}

/* Renames the file `from` in the folder to FILE.repairing-`stamp`: a repair cut short. */
static void leave_as_repair_cut_short(const progress_test_dir *f, const char *from,
                                      const char *stamp)
{
    char held[256], repairing[256];
    snprintf(held, sizeof held, "%s", progress_test_path(f, from));
    snprintf(repairing, sizeof repairing, "%s.repairing-%s", progress_test_path(f, "progress.db"),
             stamp);
    assert_int_equal(rename(held, repairing), 0);
}

/* Three repairs cut short, one small enough to finish now and two that
 * the disk has no room to copy: the line says all three (one finished, two left, "what they
 * hold"), where each left overwrote the one before and the finished one, and a player saw
 * one of the three. */
static void test_every_repair_cut_short_is_told(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_add_time(p, 3, 10));
    progress_close(p);
    const char *held[] = {"a.db", "b.db", "c.db"};
    for (int i = 0; i < 3; i++) {
        if (i > 0) make_large_damaged(f);
        char database[256];
        snprintf(database, sizeof database, "%s", progress_test_path(f, "progress.db"));
        assert_int_equal(rename(database, progress_test_path(f, held[i])), 0);
    }
    p = progress_test_open(f);
    assert_true(progress_add_time(p, 1, 5));
    progress_close(p);
    leave_as_repair_cut_short(f, held[0], "20260101-000000");
    leave_as_repair_cut_short(f, held[1], "20260102-000000");
    leave_as_repair_cut_short(f, held[2], "20260103-000000");
    progress_options half = {.free_bytes = half_a_mib_free};
    p = open_telling_all(
        f, &half,
        (const char *const[]){"was cut short; it was finished from %1$s.corrupt-20260101-000000",
                              "cannot be finished from %1$s.repairing-20260102-000000 yet "
                              "(copying it needs",
                              "cannot be finished from %1$s.repairing-20260103-000000 yet "
                              "(copying it needs",
                              "what they hold is not shown until then, and this session's play "
                              "is saved without them",
                              NULL});
    assert_true(progress_saving(p));
    assert_true(progress_get(p, 3)->seconds == 10);
    assert_true(progress_get(p, 1)->seconds == 5);
    progress_close(p);
}

/* A database (sound) on a disk with no room for what opening it writes (its -shm: writes
 * past 0 bytes fail here) is read into memory and shown, this session not saved, one line
 * saying why, where it said 'cannot use FILE (disk I/O error); progress is not saved' and
 * showed nothing. The next start, with room, saves as before. */
static void test_a_full_disk_at_the_start_shows_the_progress(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_add_time(p, 7, 10));
    progress_close(p);
    char line[600];
    snprintf(line, sizeof line, "progress: %%1$s cannot be written (%s)" PROGRESS_DB_SHOWN,
             strerror(EFBIG));
    file_size_limit = 0;
    p = open_telling_all(f, NULL, (const char *const[]){line, NULL});
    assert_false(progress_saving(p));
    assert_true(progress_get(p, 7)->seconds == 10);
    progress_close(p);
    p = progress_test_open_expecting(f, "");
    assert_true(progress_saving(p));
    assert_true(progress_get(p, 7)->seconds == 10);
    progress_close(p);
}

/* A damaged database set aside on a disk with no room for the new database's first pages
 * (writes past 40,000 bytes fail: its -shm is made, its schema's -wal is not): what the
 * file set aside holds is read into memory and shown, one line saying so, where it said
 * 'cannot use FILE (disk I/O error); progress is not saved' and showed nothing. The next
 * start, with room, finishes the repair. */
static void test_a_full_disk_at_a_repair_shows_the_progress(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_add_time(p, 7, 10));
    progress_close(p);
    progress_test_alter(f, "DROP TABLE imported");
    file_size_limit = 40000;
    p = open_telling_all(f, NULL,
                         (const char *const[]){"progress: %1$s was damaged (its table imported is "
                                               "missing); it was set aside as %1$s.repairing-",
                                               ", and a new one cannot be made yet (",
                                               "; each start tries again)" PROGRESS_DB_SHOWN,
                                               NULL});
    assert_false(progress_saving(p));
    assert_true(progress_get(p, 7)->seconds == 10);
    progress_close(p);
    p = progress_test_open_expecting(f, "was cut short; it was finished from");
    assert_true(progress_saving(p));
    assert_true(progress_get(p, 7)->seconds == 10);
    progress_close(p);
}

#define WITH_DIRECTORY(test)                                                                       \
    cmocka_unit_test_setup_teardown(test, progress_test_make_dir, progress_test_remove_dir)

/* Told past the line's room: it ends in "...", a UTF-8 character of a file's name kept whole
 * or left out, where it ended wherever the room did, unmarked. */
static void test_what_is_told_past_the_room_ends_marked_cut(void **state)
{
    (void)state;
    char message[24] = "";
    progress_db_tell_also(message, sizeof message, "%s is set aside", "/home/a");
    assert_string_equal(message, "progress: /home/a is...");
    char accents[22] = "";
    /* "progress: /é/é/é/é/é" is 25 bytes: the mark's place, byte 18, is inside the third é */
    progress_db_tell_also(accents, sizeof accents, "%s", "/\xc3\xa9/\xc3\xa9/\xc3\xa9/\xc3\xa9/\xc3\xa9");
    assert_string_equal(accents, "progress: /\xc3\xa9/\xc3\xa9/...");
    char fits[40] = "";
    progress_db_tell_also(fits, sizeof fits, "a");
    progress_db_tell_also(fits, sizeof fits, "b");
    assert_string_equal(fits, "progress: a; b");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        WITH_DIRECTORY(test_repair_killed_after_its_copy_is_not_copied_twice),
        WITH_DIRECTORY(test_salvage_reads_no_view),
        WITH_DIRECTORY(test_salvage_runs_no_column_name),
        WITH_DIRECTORY(test_damaged_database_is_set_aside_and_salvaged),
        WITH_DIRECTORY(test_database_without_a_table_of_ours_is_salvaged),
        WITH_DIRECTORY(test_table_with_a_column_gone_is_salvaged_keeping_its_rows),
        WITH_DIRECTORY(test_lookup_table_without_its_rows_is_damaged),
        WITH_DIRECTORY(test_intact_database_is_not_set_aside),
        WITH_DIRECTORY(test_schema_1_without_a_table_is_salvaged),
        WITH_DIRECTORY(test_schema_2_without_a_column_is_salvaged),
        WITH_DIRECTORY(test_schema_3_without_a_table_is_salvaged),
        WITH_DIRECTORY(test_schema_4_without_a_lookup_table_is_salvaged),
        WITH_DIRECTORY(test_schema_5_without_a_table_is_salvaged),
        WITH_DIRECTORY(test_index_added_by_hand_is_salvaged_without_it),
        WITH_DIRECTORY(test_table_and_index_not_ours_are_left_alone),
        WITH_DIRECTORY(test_a_check_of_a_table_not_ours_is_never_run),
        WITH_DIRECTORY(test_salvage_reads_no_generated_column),
        WITH_DIRECTORY(test_table_with_a_check_of_its_own_is_salvaged),
        WITH_DIRECTORY(test_salvage_keeps_a_row_with_values_its_schema_refuses),
        WITH_DIRECTORY(test_schema_3_with_a_text_key_is_salvaged),
        WITH_DIRECTORY(test_salvage_keeps_the_level_of_a_collection_played_last),
        WITH_DIRECTORY(test_a_large_older_database_is_salvaged_as_a_small_one),
        WITH_DIRECTORY(test_an_older_database_without_room_to_migrate_is_copied_as_it_is),
        WITH_DIRECTORY(test_room_for_the_scratch_alone_copies_as_it_is),
        WITH_DIRECTORY(test_a_repair_waiting_for_the_lock_leaves_the_scratch_alone),
        WITH_DIRECTORY(test_a_repair_the_disk_cannot_hold_copies_nothing_twice),
        WITH_DIRECTORY(test_a_repair_without_room_to_copy_plays_on_saved_and_says_so),
        WITH_DIRECTORY(test_a_repair_whose_copy_fails_says_so),
        WITH_DIRECTORY(test_every_repair_cut_short_is_told),
        WITH_DIRECTORY(test_a_full_disk_at_the_start_shows_the_progress),
        WITH_DIRECTORY(test_a_full_disk_at_a_repair_shows_the_progress),
        cmocka_unit_test(test_what_is_told_past_the_room_ends_marked_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
