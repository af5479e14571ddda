/* test_progress_migrate.c - the schema and its migrations (issue 13, storage item 2): every
 * older schema brought up to date keeping its rows and what they meant, a new database made
 * as the migrations make it, a version set down or up by hand taken as its tables show, and
 * one line told before a migration or a repair that takes long. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "progress/progress.h"
#include "progress/progress_salvage.h"
#include "progress/progress_schema.h"
#include "progress_files_test.h"
#include "progress_test.h"

static void test_first_schema_migrates_keeping_its_rows(void **state)
{
    progress_test_dir *f = *state;
    sqlite3 *db;
    assert_int_equal(sqlite3_open(progress_test_path(f, "progress.db"), &db), SQLITE_OK);
    assert_int_equal(progress_schema_create_version(db, 1), PROGRESS_SCHEMA_OK);
    assert_int_equal(sqlite3_exec(db,
                                  "INSERT INTO level (key, solved, unfinished) VALUES (7, 1, 'ur');"
                                  "INSERT INTO best (key, kind, lurd, moves, pushes, checked) "
                                  "VALUES (7, 0, 'rR', 2, 1, 0);"
                                  "INSERT INTO collection (path, level, played) "
                                  "VALUES ('/levels/a.xsb', 5, 1);",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);

    progress *p = progress_test_open(f);
    const progress_record *r = progress_get(p, 7);
    assert_non_null(r);
    assert_true(r->solved);
    assert_false(r->assisted);
    assert_string_equal(r->unfinished, "ur");
    assert_null(r->unfinished_redo);
    assert_string_equal(r->best_moves.lurd, "rR");
    assert_int_equal(r->best_moves.origin, PROGRESS_OWN);
    const char *path;
    int level;
    assert_true(progress_last(p, &path, &level));
    assert_int_equal(level, 5);
    /* The second schema's tables are there. */
    assert_true(progress_snapshot_save(p, 7, "s", "u", "", NULL));
    assert_true(progress_add_time(p, 7, 3));
    progress_close(p);

    assert_int_equal(sqlite3_open(progress_test_path(f, "progress.db"), &db), SQLITE_OK);
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(s, 0), PROGRESS_SCHEMA_VERSION);
    sqlite3_finalize(s);
    sqlite3_close(db);
}

/* Runs `sql` on the database at `file`: SQLite's result. */
static int run_sql(const char *file, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(file, &db), SQLITE_OK);
    sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    return rc;
}

/* Issue 45, schema: a database of schema 3 (bests and snapshots of levels without a level
 * row, a best of an origin that does not exist, collections ordered by a counter) migrates
 * to schema 4 keeping every row: the levels missing are made, the unknown origin becomes
 * "imported" (the least a best can claim), the counter becomes the time of the last play
 * in the same order; from then on the schema refuses what means nothing. */
static void test_schema_3_migrates_to_constraints_keeping_its_rows(void **state)
{
    progress_test_dir *f = *state;
    char file[512];
    snprintf(file, sizeof file, "%s", progress_test_path(f, "progress.db"));
    sqlite3 *db;
    assert_int_equal(sqlite3_open(file, &db), SQLITE_OK);
    assert_int_equal(progress_schema_create_version(db, 3), PROGRESS_SCHEMA_OK);
    assert_int_equal(
        sqlite3_exec(db,
                     "INSERT INTO level (key, solved, unfinished, seconds) "
                     "VALUES (7, 1, 'ur', 12.5);"
                     "INSERT INTO best (key, kind, lurd, moves, pushes, checked, origin)"
                     " VALUES (7, 0, 'rR', 2, 1, 1, 0), (8, 0, 'lL', 2, 1, 1, 2),"
                     " (9, 1, 'uU', 2, 1, 1, 7);"
                     "INSERT INTO snapshot (key, name, lurd, saved) "
                     "VALUES (10, 'before', 'ud', 5);"
                     "INSERT INTO imported (key, lurd, moves, pushes, source) "
                     "VALUES (8, 'lL', 2, 1, '/a.sok');"
                     "INSERT INTO collection (path, level, played) VALUES "
                     "('/levels/old.xsb', 5, 1), ('/levels/new.xsb', 2, 3), "
                     "('/levels/never.xsb', 4, 0);",
                     NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);

    progress *p = progress_test_open(f);
    assert_int_equal(PROGRESS_SCHEMA_VERSION, 7);
    const progress_record *r = progress_get(p, 7);
    assert_non_null(r);
    assert_true(r->solved);
    assert_string_equal(r->unfinished, "ur");
    assert_string_equal(r->best_moves.lurd, "rR");
    assert_int_equal(progress_get(p, 8)->best_moves.origin, PROGRESS_IMPORTED);
    assert_int_equal(progress_get(p, 9)->best_pushes.origin, PROGRESS_IMPORTED);
    progress_snapshot *snapshots;
    assert_int_equal(progress_snapshots(p, 10, &snapshots), 1);
    progress_snapshots_free(snapshots, 1);
    const char *path;
    int level;
    assert_true(progress_last(p, &path, &level));
    assert_string_equal(path, "/levels/new.xsb");
    assert_int_equal(level, 2);
    progress_close(p);

    assert_int_equal(progress_test_query_number(file, "PRAGMA user_version"),
                     PROGRESS_SCHEMA_VERSION);
    /* every best, snapshot and imported solution has its level */
    assert_int_equal(progress_test_query_number(file, "SELECT count(*) FROM best WHERE key NOT IN "
                                                      "(SELECT key FROM level)"),
                     0);
    assert_int_equal(progress_test_query_number(file, "SELECT count(*) FROM level"), 4);
    assert_int_equal(progress_test_query_number(file, "SELECT count(*) FROM best"), 3);
    /* played: seconds since the epoch, now (within a day), in the order the counter gave */
    int64_t now = (int64_t)time(NULL);
    int64_t newer = progress_test_query_number(file, "SELECT played FROM collection WHERE path = "
                                                     "'/levels/new.xsb'");
    assert_true(newer > now - 86400 && newer <= now + 1);
    assert_true(progress_test_query_number(file,
                                           "SELECT played < (SELECT played FROM collection WHERE "
                                           "path = '/levels/new.xsb') FROM collection WHERE path = "
                                           "'/levels/old.xsb'"));
    assert_int_equal(progress_test_query_number(file, "SELECT played FROM collection WHERE path = "
                                                      "'/levels/never.xsb'"),
                     0);
    /* what means nothing is refused */
    assert_int_not_equal(run_sql(file, "INSERT INTO best (key, kind, lurd, moves, pushes, origin)"
                                       " VALUES (7, 1, 'r', 1, 0, 9)"),
                         SQLITE_OK);
    assert_int_not_equal(run_sql(file, "INSERT INTO best (key, kind, lurd, moves, pushes, origin)"
                                       " VALUES (7, 2, 'r', 1, 0, 0)"),
                         SQLITE_OK);
    assert_int_not_equal(run_sql(file, "INSERT INTO best (key, kind, lurd, moves, pushes, origin)"
                                       " VALUES (12345, 1, 'r', 1, 0, 0)"),
                         SQLITE_OK);
    assert_int_not_equal(run_sql(file, "UPDATE level SET solved = 5 WHERE key = 7"), SQLITE_OK);
    /* the kinds and origins are named in the database itself */
    assert_int_equal(progress_test_query_number(file, "SELECT count(*) FROM best_kind"), 2);
    assert_int_equal(progress_test_query_number(file, "SELECT count(*) FROM origin"),
                     4); /* and optimized, since 5 */
    /* a level forgotten takes its bests and snapshots with it */
    assert_int_equal(run_sql(file, "DELETE FROM level WHERE key = 10"), SQLITE_OK);
    assert_int_equal(progress_test_query_number(file, "SELECT count(*) FROM snapshot"), 0);
}

/* Issue 44: a database of schema 5 (before the steps played as one move were kept) keeps
 * its unfinished game and snapshots: they come back with no steps joined, and take groups
 * from then on. */
static void test_schema_5_migrates_to_move_groups_keeping_its_rows(void **state)
{
    progress_test_dir *f = *state;
    char file[512];
    snprintf(file, sizeof file, "%s", progress_test_path(f, "progress.db"));
    sqlite3 *db;
    assert_int_equal(sqlite3_open(file, &db), SQLITE_OK);
    assert_int_equal(progress_schema_create_version(db, 5), PROGRESS_SCHEMA_OK);
    assert_int_equal(sqlite3_exec(db,
                                  "INSERT INTO level (key, unfinished, unfinished_redo) "
                                  "VALUES (7, 'rrR', 'd');"
                                  "INSERT INTO snapshot (key, name, lurd, saved) "
                                  "VALUES (7, 'before', 'ud', 5);",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);

    progress *p = progress_test_open(f);
    const progress_record *r = progress_get(p, 7);
    assert_string_equal(r->unfinished, "rrR");
    assert_string_equal(r->unfinished_redo, "d");
    assert_null(r->unfinished_groups);
    progress_snapshot *snapshots;
    assert_int_equal(progress_snapshots(p, 7, &snapshots), 1);
    assert_string_equal(snapshots[0].lurd, "ud");
    assert_string_equal(snapshots[0].groups, "");
    progress_snapshots_free(snapshots, 1);
    assert_true(
        progress_set_game_helped(p, 7, "rrR", "d", "0-2", PROGRESS_NO_HELP, PROGRESS_NO_HELP));
    assert_string_equal(progress_get(p, 7)->unfinished_groups, "0-2");
    progress_close(p);
    assert_int_equal(progress_test_query_number(file, "PRAGMA user_version"), 7);
}

/* The schema of `db`, one line a table, index and row of the lookup tables, quotes taken out
 * (a table renamed by a migration is written "level" in sqlite_master), in `out`. */
static void schema_text(sqlite3 *db, char *out, size_t size)
{
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "SELECT name || ': ' || replace(sql, '\"', '') FROM "
                                        "sqlite_master UNION ALL SELECT 'kind ' || kind || name "
                                        "FROM best_kind UNION ALL SELECT 'origin ' || origin || "
                                        "name FROM origin UNION ALL SELECT 'version ' || "
                                        "user_version FROM pragma_user_version ORDER BY 1",
                                        -1, &s, NULL),
                     SQLITE_OK);
    size_t used = 0;
    out[0] = '\0';
    while (sqlite3_step(s) == SQLITE_ROW)
        used += (size_t)snprintf(out + used, size - used, "%s\n", sqlite3_column_text(s, 0));
    assert_true(used < size);
    sqlite3_finalize(s);
}

/* A new database is made with the latest schema at once (not through every migration); it
 * must be the schema the migrations make from the first version. */
static void test_a_new_database_has_the_schema_migrations_make(void **state)
{
    (void)state;
    static char fresh[16384], migrated[16384];
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(progress_schema_upgrade(db, NULL, NULL, 0), PROGRESS_SCHEMA_OK);
    schema_text(db, fresh, sizeof fresh);
    char what[160];
    assert_true(progress_schema_intact(db, what, sizeof what)); /* its lines follow the schema */
    assert_string_equal(what, "");
    sqlite3_close(db);
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(progress_schema_create_version(db, 1), PROGRESS_SCHEMA_OK);
    assert_int_equal(progress_schema_upgrade(db, NULL, NULL, 0), PROGRESS_SCHEMA_OK);
    schema_text(db, migrated, sizeof migrated);
    assert_true(progress_schema_intact(db, what, sizeof what));
    sqlite3_close(db);
    assert_string_equal(fresh, migrated);
    assert_non_null(strstr(fresh, "version 7"));
    assert_non_null(strstr(fresh, "origin 3optimized"));
}

/* The store keeps the keys it promises: an imported solution and a snapshot of a level
 * never played before make the level's row. */
static void test_rows_of_new_levels_have_their_level(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    collection c;
    progress_test_parse("#####\n#@$.#\n#####\n", &c);
    assert_true(progress_import_solution(p, &c.levels[0], "R", "/x.sok", NULL));
    assert_true(progress_snapshot_save(p, 99, "s", "l", "", NULL));
    progress_close(p);
    collection_free(&c);
    const char *file = progress_test_path(f, "progress.db");
    assert_int_equal(progress_test_query_number(file, "SELECT count(*) FROM best"), 2);
    assert_int_equal(progress_test_query_number(file, "SELECT count(*) FROM imported"), 1);
    assert_int_equal(progress_test_query_number(file, "SELECT count(*) FROM level"), 2);
}

/* A database of our version whose PRAGMA user_version was set down by hand (to each older
 * version, and to 0 with every table of ours there) is taken as of the version its tables
 * show: nothing said, nothing set aside, its rows as they were (an optimized best, the move
 * groups) and saves go on, where the migrations from the lower version failed on what the
 * later ones made ('was damaged (its schema 1 cannot be brought up to date: duplicate
 * column name: assisted)') and the file was set aside, and at 0 it was 'another program's
 * database', neither shown nor saved. */
static void test_a_version_set_down_by_hand_keeps_what_the_tables_hold(void **state)
{
    progress_test_dir *f = *state;
    for (int lowered = 0; lowered < PROGRESS_SCHEMA_VERSION; lowered++) {
        char damage[64];
        snprintf(damage, sizeof damage, "PRAGMA user_version = %d", lowered);
        progress_test_older_database(
            f, PROGRESS_SCHEMA_VERSION,
            "INSERT INTO level (key, unfinished, unfinished_groups)"
            "  VALUES (7, 'ur', '0-1');"
            "INSERT INTO best (key, kind, lurd, moves, pushes, checked, origin)"
            "  VALUES (7, 0, 'rR', 2, 1, 1, 3);"
            "INSERT INTO snapshot (key, name, lurd, saved, groups)"
            "  VALUES (7, 'before', 'ud', 5, '0-1');",
            damage);
        char message[1024];
        progress *p = progress_open(f->directory, message, sizeof message);
        assert_non_null(p);
        if (message[0]) fail_msg("user_version %d: %s", lowered, message);
        assert_true(progress_saving(p));
        assert_int_equal(progress_test_count_names(f, "progress.db."), 0);
        assert_true(progress_set_unfinished(p, 8, "l"));
        assert_false(progress_unsaved(p, message, sizeof message));
        const progress_record *r = progress_get(p, 7);
        assert_non_null(r);
        if (!r->best_moves.lurd || r->best_moves.origin != PROGRESS_OPTIMIZED ||
            !r->unfinished_groups || strcmp(r->unfinished_groups, "0-1") != 0)
            fail_msg("user_version %d: best %s of origin %d, groups %s", lowered,
                     r->best_moves.lurd ? r->best_moves.lurd : "none", r->best_moves.origin,
                     r->unfinished_groups ? r->unfinished_groups : "none");
        progress_snapshot *snapshots;
        assert_int_equal(progress_snapshots(p, 7, &snapshots), 1);
        assert_string_equal(snapshots[0].groups, "0-1");
        progress_snapshots_free(snapshots, 1);
        progress_close(p);
        progress_test_remove_databases(f);
    }
}

/* A schema 3 database whose PRAGMA user_version was set up by hand (to each later version
 * up to ours): salvaged as of the version its tables show, through migration 4, as a
 * damaged schema 3 file is (progress_test_salvage_schema_3), where migrations after the raised
 * version ran on its tables (the file then said schema 6) and it was copied as it was: flags of 2
 * and a negative count refused, the collection counter kept as seconds of 1970. */
static void test_a_version_set_up_by_hand_is_salvaged_as_its_tables_show(void **state)
{
    progress_test_dir *f = *state;
    char *expected = progress_test_salvage_schema_3(f, 64LL << 20);
    for (int raised = 4; raised <= PROGRESS_SCHEMA_VERSION; raised++) {
        char damage[64];
        snprintf(damage, sizeof damage, "PRAGMA user_version = %d", raised);
        progress_test_older_database(f, 3, ROWS_3_WITH_MEANING, damage);
        progress *p = progress_test_open_expecting(f, "was damaged (");
        assert_true(progress_saving(p));
        progress_close(p);
        char file[512];
        snprintf(file, sizeof file, "%s", progress_test_path(f, "progress.db"));
        char *dump = progress_test_dump(file);
        if (strcmp(dump, expected) != 0)
            fail_msg("user_version %d: salvaged\n%s, expected\n%s", raised, dump, expected);
        free(dump);
        progress_test_remove_databases(f);
    }
    free(expected);
}

/* The lines told before a long step of opening (progress_options.before_long), one after
 * another, "\n" after each. */
static void tell_into(const char *line, void *argument)
{
    char *told = argument;
    size_t used = strlen(told);
    snprintf(told + used, 2048 - used, "%s\n", line);
}

/* Opens the progress with every step over `long_bytes` long; the lines told go to `told`
 * (2048 bytes). */
static progress *open_telling(const progress_test_dir *f, long long long_bytes, char *told)
{
    told[0] = '\0';
    progress_options options = {
        .before_long = tell_into, .argument = told, .long_bytes = long_bytes};
    char message[1024];
    return progress_open_with(f->directory, &options, message, sizeof message);
}

/* Review5 finding 12: before a migration or a repair of a database over the size at which
 * it takes long (a second from 32 MiB; lowered here to a byte), one line says what is
 * done and on how much, for the caller to show on a screen that is otherwise blank
 * meanwhile (8.4 s at 300 MB); a start that only opens the database, or one under the
 * size, says nothing. */
static void test_a_long_step_of_opening_is_told_before_it(void **state)
{
    progress_test_dir *f = *state;
    char told[2048], line[600];
    progress_close(open_telling(f, 1, told)); /* made anew */
    assert_string_equal(told, "");
    progress_close(open_telling(f, 1, told)); /* only opened */
    assert_string_equal(told, "");
    progress_test_remove_databases(f);
    progress_test_older_database(f, 5, ROWS_2, "");
    progress_close(open_telling(f, 0, told)); /* a small one's migration */
    assert_string_equal(told, "");
    progress_test_remove_databases(f);
    progress_test_older_database(f, 5, ROWS_2, "");
    progress_close(open_telling(f, 1, told));
    snprintf(line, sizeof line, "progress: bringing %s up to date (1 MiB)...\n",
             progress_test_path(f, "progress.db"));
    assert_string_equal(told, line);
    progress_test_remove_databases(f);
    progress_test_older_database(f, 3, ROWS_3_WITH_MEANING, "DROP TABLE snapshot"); /* damaged */
    progress_close(open_telling(f, 1, told));
    snprintf(line, sizeof line,
             "progress: bringing %s up to date (1 MiB)...\nprogress: repairing %s (1 MiB)...\n",
             progress_test_path(f, "progress.db"), progress_test_path(f, "progress.db"));
    assert_string_equal(told, line);
}

/* A repair cut short (FILE.repairing-*, left by a game killed in it) is finished at the next
 * start with its own line before it, naming the file set aside: the new database beside it
 * is opened without a word. */
static void test_a_repair_cut_short_is_told_before_it_is_finished(void **state)
{
    progress_test_dir *f = *state;
    progress_test_older_database(f, 5, ROWS_2, "");
    char aside[512], told[2048], line[1200];
    snprintf(aside, sizeof aside, "%s", progress_test_path(f, "progress.db.repairing-1"));
    assert_int_equal(rename(progress_test_path(f, "progress.db"), aside), 0);
    progress_close(open_telling(f, 1, told));
    snprintf(line, sizeof line, "progress: finishing the repair of %s (1 MiB)...\n", aside);
    assert_string_equal(told, line);
}

#define WITH_DIRECTORY(test)                                                                       \
    cmocka_unit_test_setup_teardown(test, progress_test_make_dir, progress_test_remove_dir)

int main(void)
{
    const struct CMUnitTest tests[] = {
        WITH_DIRECTORY(test_a_long_step_of_opening_is_told_before_it),
        WITH_DIRECTORY(test_a_repair_cut_short_is_told_before_it_is_finished),
        WITH_DIRECTORY(test_a_version_set_down_by_hand_keeps_what_the_tables_hold),
        WITH_DIRECTORY(test_a_version_set_up_by_hand_is_salvaged_as_its_tables_show),
        WITH_DIRECTORY(test_first_schema_migrates_keeping_its_rows),
        WITH_DIRECTORY(test_schema_3_migrates_to_constraints_keeping_its_rows),
        WITH_DIRECTORY(test_schema_5_migrates_to_move_groups_keeping_its_rows),
        WITH_DIRECTORY(test_rows_of_new_levels_have_their_level),
        cmocka_unit_test(test_a_new_database_has_the_schema_migrations_make),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
