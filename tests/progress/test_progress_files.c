/* test_progress_files.c - the progress database as a file: what is not ours at its path or
 * beside it (a symbolic or hard link, a FIFO, a file that is not a database, another
 * program's or a newer sokoban's database, another database's -wal) left alone and never
 * written (issue 13, storage item 1). The damaged database set aside and salvaged is in
 * test_progress_salvage.c, the migrations in test_progress_migrate.c, the old progress.txt
 * in test_progress_legacy.c. */
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

/* The file's bytes, in a static buffer. */
static const char *read_text(const char *path)
{
    static char text[4096];
    FILE *in = fopen(path, "r");
    assert_non_null(in);
    size_t length = fread(text, 1, sizeof text - 1, in);
    text[length] = '\0';
    fclose(in);
    return text;
}

/* The bytes of the file (at most `size`), into `out`: how many. */
static size_t file_bytes(const char *path, unsigned char *out, size_t size)
{
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    size_t length = fread(out, 1, size, in);
    fclose(in);
    return length;
}

/* Copies the file `from` to `to`. */
static void copy_file(const char *from, const char *to)
{
    static unsigned char bytes[1 << 20];
    size_t length = file_bytes(from, bytes, sizeof bytes);
    assert_true(length < sizeof bytes);
    FILE *out = fopen(to, "wb");
    assert_non_null(out);
    assert_int_equal(fwrite(bytes, 1, length, out), length);
    fclose(out);
}

/* Issue 13, item 1: a link is refused and neither it nor its target changes. */
static void test_symlinked_database_is_refused_and_left_alone(void **state)
{
    progress_test_dir *f = *state;
    char target[512];
    snprintf(target, sizeof target, "%s", progress_test_path(f, "system-file"));
    progress_test_write(target, "precious\n");
    assert_int_equal(symlink(target, progress_test_path(f, "progress.db")), 0);
    progress *p =
        progress_test_open_expecting(f, "is a symbolic link, so it is left alone and progress is "
                                        "not saved");
    assert_false(progress_saving(p));
    assert_true(progress_set_unfinished(p, 1, "ll"));
    char why[1024];
    assert_true(progress_unsaved(p, why, sizeof why));
    assert_non_null(strstr(why, "symbolic link"));
    progress_close(p);
    assert_string_equal(read_text(target), "precious\n");
    struct stat status;
    assert_int_equal(lstat(progress_test_path(f, "progress.db"), &status), 0);
    assert_true(S_ISLNK(status.st_mode));
    assert_int_equal(progress_test_count_names(f, "progress.db"), 1); /* no aside */
    assert_false(progress_test_exists(progress_test_path(f, "progress.db-wal")));
    assert_false(progress_test_exists(progress_test_path(f, "progress.db-shm")));
}

static void test_symlinked_wal_file_is_refused(void **state)
{
    progress_test_dir *f = *state;
    progress_test_write(progress_test_path(f, "elsewhere"), "x");
    assert_int_equal(symlink("elsewhere", progress_test_path(f, "progress.db-wal")), 0);
    progress *p = progress_test_open_expecting(f, "progress.db-wal is a symbolic link");
    assert_false(progress_saving(p));
    progress_close(p);
    assert_string_equal(read_text(progress_test_path(f, "elsewhere")), "x");
}

/* A -wal (or -shm, or -journal) that is a hard link to a file elsewhere is refused as a
 * symbolic link is: SQLite wrote its WAL frames into it from its start, and the file
 * elsewhere ("precious") was overwritten. */
static void test_hard_linked_wal_file_is_refused(void **state)
{
    progress_test_dir *f = *state;
    progress_close(progress_test_open(f));
    progress_test_write(progress_test_path(f, "elsewhere"), "precious\n");
    char elsewhere[512];
    snprintf(elsewhere, sizeof elsewhere, "%s", progress_test_path(f, "elsewhere"));
    assert_int_equal(link(elsewhere, progress_test_path(f, "progress.db-wal")), 0);
    progress *p =
        progress_test_open_expecting(f, "progress.db-wal has another name (a hard link), so it is "
                                        "left alone and progress is not saved");
    assert_false(progress_saving(p));
    assert_true(progress_set_unfinished(p, 1, "ll"));
    progress_close(p);
    assert_string_equal(read_text(elsewhere), "precious\n");
}

/* A database with pages that has another name is ours under either name: a `cp -al` backup of
 * the folder (or a rename by link() and unlink() cut short) left progress.db with two names,
 * and every game after it was refused ("has another name"), its play never saved. */
static void test_database_with_another_name_is_ours(void **state)
{
    progress_test_dir *f = *state;
    progress_test_save_game_5(f);
    char backup[512];
    snprintf(backup, sizeof backup, "%s", progress_test_path(f, "backup.db"));
    assert_int_equal(link(progress_test_path(f, "progress.db"), backup), 0);
    progress *p = progress_test_open(f);
    assert_true(progress_saving(p));
    assert_string_equal(progress_get(p, 5)->unfinished, "rRl");
    assert_true(progress_set_unfinished(p, 5, "rRlu"));
    progress_close(p);
    p = progress_test_open(f);
    assert_string_equal(progress_get(p, 5)->unfinished, "rRlu");
    progress_close(p);
}

/* A file with another name that is empty (SQLite would make a database of it) or not a
 * database is refused and left as it is. */
static void test_empty_or_foreign_file_with_another_name_is_refused(void **state)
{
    progress_test_dir *f = *state;
    static const char *const contents[] = {"", "precious\n"};
    for (size_t i = 0; i < sizeof contents / sizeof *contents; i++) {
        char elsewhere[512];
        snprintf(elsewhere, sizeof elsewhere, "%s", progress_test_path(f, "elsewhere"));
        progress_test_write(elsewhere, contents[i]);
        assert_int_equal(link(elsewhere, progress_test_path(f, "progress.db")), 0);
        progress *p =
            progress_test_open_expecting(f, "progress.db has another name (a hard link), so it is "
                                            "left alone and progress is not saved");
        assert_false(progress_saving(p));
        assert_true(progress_set_unfinished(p, 1, "ll"));
        progress_close(p);
        assert_string_equal(read_text(elsewhere), contents[i]);
        assert_int_equal(progress_test_count_names(f, "progress.db"), 1); /* no aside */
        assert_int_equal(unlink(progress_test_path(f, "progress.db")), 0);
        assert_int_equal(unlink(elsewhere), 0);
    }
}

/* A repair cut short is finished from the file set aside, read through SQLite, which writes
 * its -shm even to read: one with another name (a hard link to a file elsewhere) was
 * written through ("precious" overwritten). It is left alone now, and said so. */
static void test_repair_cut_short_with_a_hard_linked_shm_is_left_alone(void **state)
{
    progress_test_dir *f = *state;
    progress_test_save_game_5(f);
    char aside[512], shm[520], elsewhere[512];
    snprintf(aside, sizeof aside, "%s",
             progress_test_path(f, "progress.db.repairing-20260101-000000"));
    snprintf(shm, sizeof shm, "%s-shm", aside);
    snprintf(elsewhere, sizeof elsewhere, "%s", progress_test_path(f, "elsewhere"));
    assert_int_equal(rename(progress_test_path(f, "progress.db"), aside), 0);
    progress_test_write(elsewhere, "precious\n");
    assert_int_equal(link(elsewhere, shm), 0);
    progress *p = progress_test_open_expecting(
        f, "-shm has another name (a hard link), so it is left alone and the "
           "repair cut short is not finished from it");
    assert_true(progress_saving(p));
    progress_close(p);
    assert_string_equal(read_text(elsewhere), "precious\n");
    assert_true(progress_test_exists(aside));
}

/* A file set aside whose header is gone (the damage) is not refused as "not a progress
 * database" when a repair cut short is finished from it: it is read for what it holds
 * (nothing here) and marked repaired, where refusing it would tell so at every start. */
static void test_repair_cut_short_of_a_file_without_its_header_is_finished(void **state)
{
    progress_test_dir *f = *state;
    progress_close(progress_test_open(f));
    progress_test_write(progress_test_path(f, "progress.db.repairing-20260101-000000"),
                        "garbage, no header at all");
    progress *p = progress_test_open_expecting(f, "was cut short; it was finished from ");
    progress_close(p);
    assert_int_equal(progress_test_count_names(f, "progress.db.corrupt-"), 1);
    assert_int_equal(progress_test_count_names(f, "progress.db.repairing-"), 0);
}

/* A -journal beside a file set aside (SQLite's, as its -wal and -shm are) is not a repair cut
 * short of its own: it was taken for one, "finished" (nothing copied, one line at start)
 * and renamed to a corrupt- name, or refused at every start as "not a progress database". */
static void test_journal_beside_a_repair_is_not_a_repair_of_its_own(void **state)
{
    progress_test_dir *f = *state;
    progress_close(progress_test_open(f));
    const char *journal = progress_test_path(f, "progress.db.repairing-20260101-000000-journal");
    progress_test_write(journal, "not a database\n");
    progress_close(progress_test_open(f)); /* no message */
    assert_string_equal(read_text(journal), "not a database\n");
}

static void test_file_that_is_not_a_database_is_never_overwritten(void **state)
{
    progress_test_dir *f = *state;
    progress_test_write(progress_test_path(f, "progress.db"), "my notes, not a database\n");
    progress *p = progress_test_open_expecting(f, "is not a progress database");
    assert_false(progress_saving(p));
    assert_true(progress_set_last(p, "/levels/a.xsb", 2));
    progress_close(p);
    assert_string_equal(read_text(progress_test_path(f, "progress.db")),
                        "my notes, not a database\n");
    assert_int_equal(progress_test_count_names(f, "progress.db"), 1);
}

static void test_fifo_in_place_of_the_database_is_not_waited_on(void **state)
{
    progress_test_dir *f = *state;
    assert_int_equal(mkfifo(progress_test_path(f, "progress.db"), 0600), 0);
    progress *p = progress_test_open_expecting(f, "is not a regular file");
    progress_close(p);
    struct stat status;
    assert_int_equal(lstat(progress_test_path(f, "progress.db"), &status), 0);
    assert_true(S_ISFIFO(status.st_mode));
}

/* Not a byte of it is written: before, the switch to WAL came before the look at its
 * tables, and rewrote its header (bytes 18 and 19, 1 to 2). */
static void test_another_programs_database_is_left_alone(void **state)
{
    progress_test_dir *f = *state;
    progress_test_alter(f, "CREATE TABLE mine (x)");
    static unsigned char before[65536], after[65536];
    size_t length = file_bytes(progress_test_path(f, "progress.db"), before, sizeof before);
    progress *p = progress_test_open_expecting(f, "another program's database");
    assert_false(progress_saving(p));
    progress_close(p);
    assert_int_equal(file_bytes(progress_test_path(f, "progress.db"), after, sizeof after), length);
    assert_memory_equal(before, after, length);
}

/* A -wal of another database left beside ours (a copy, a restore from a backup): SQLite
 * reads its pages as the database's, which is then another program's, and is left alone;
 * but closing the connection checkpointed the WAL into the file, and the player's tables
 * were gone for good. Now the file and the -wal stay as they were: taking the -wal away
 * gives the progress back. The message names the -wal, the file that is the problem (it
 * said "progress.db is another program's database"). A file of schema 6, which has no id
 * to tell its -wal by (test_progress_wal.c: one of ours sets such a -wal aside). */
static void test_wal_of_another_database_is_left_as_found(void **state)
{
    progress_test_dir *f = *state;
    sqlite3 *mine;
    assert_int_equal(sqlite3_open(progress_test_path(f, "progress.db"), &mine), SQLITE_OK);
    assert_int_equal(progress_schema_create_version(mine, 6), PROGRESS_SCHEMA_OK);
    assert_int_equal(sqlite3_exec(mine,
                                  "PRAGMA journal_mode = WAL;"
                                  "INSERT INTO level (key, unfinished) VALUES (5, 'rRl')",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(mine);
    char other[512], wal[512];
    snprintf(other, sizeof other, "%s", progress_test_path(f, "other.db"));
    snprintf(wal, sizeof wal, "%s", progress_test_path(f, "progress.db-wal"));
    sqlite3 *db;
    assert_int_equal(sqlite3_open(other, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db,
                                  "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;"
                                  "CREATE TABLE mine (x); INSERT INTO mine VALUES (1)",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    char other_wal[520];
    snprintf(other_wal, sizeof other_wal, "%s-wal", other);
    copy_file(other_wal, wal);
    sqlite3_close(db);
    static unsigned char before[65536], after[65536];
    size_t length = file_bytes(progress_test_path(f, "progress.db"), before, sizeof before);

    progress *p = progress_test_open_expecting(f, "progress.db-wal does not belong to");
    assert_false(progress_saving(p));
    progress_close(p);
    assert_true(progress_test_exists(wal));
    assert_int_equal(file_bytes(progress_test_path(f, "progress.db"), after, sizeof after), length);
    assert_memory_equal(before, after, length);
    assert_int_equal(unlink(wal), 0);
    unlink(progress_test_path(f, "progress.db-shm"));
    p = progress_test_open(f);
    assert_string_equal(progress_get(p, 5)->unfinished, "rRl");
    progress_close(p);
}

static void test_database_of_a_newer_version_is_left_alone(void **state)
{
    progress_test_dir *f = *state;
    progress_close(progress_test_open(f));
    progress_test_alter(f, "PRAGMA user_version = 99");
    progress *p = progress_test_open_expecting(f, "newer sokoban (schema 99)");
    assert_false(progress_saving(p));
    progress_close(p);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(progress_test_path(f, "progress.db"), &db), SQLITE_OK);
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(s, 0), 99);
    sqlite3_finalize(s);
    sqlite3_close(db);
}

/* A negative user_version is no version of ours (another program set it): the database
 * is left alone, never migrated from a migration before the first (an array read out of
 * bounds, its pointer run as SQL, until 2026-12-07). */
static void test_database_of_a_negative_version_is_left_alone(void **state)
{
    progress_test_dir *f = *state;
    progress_close(progress_test_open(f));
    progress_test_alter(f, "PRAGMA user_version = -5");
    progress *p = progress_test_open_expecting(f, "another program's database");
    assert_false(progress_saving(p));
    progress_close(p);
    assert_int_equal(
        progress_test_query_number(progress_test_path(f, "progress.db"), "PRAGMA user_version"),
        -5);
}

/* A collection's level number written by hand past an int (2147483648) is none (0),
 * where it was read as -2147483648 and the game's `number - 1` overflowed (UBSan); so is one
 * of 0 or below, or text. */
static void test_a_level_number_out_of_range_is_none(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_set_last(p, "/a.xsb", 5));
    progress_close(p);
    const char *numbers[] = {"2147483648", "4294967301", "'x'", "5.5"};
    for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++) {
        char sql[200];
        snprintf(sql, sizeof sql, "UPDATE collection SET level = %s", numbers[i]);
        progress_test_alter(f, sql);
        p = progress_test_open(f);
        const char *path;
        int number = -1;
        assert_true(progress_last(p, &path, &number));
        if (number != 0) fail_msg("level %s read as %d", numbers[i], number);
        assert_int_equal(progress_collection_level(p, "/a.xsb"), 0);
        progress_close(p);
    }
}

/* A database of our version with a trigger (or a view), which sokoban never makes, is
 * left alone: a write of ours would fire it and run what the file says (a recursive one
 * without end: the game hung at its first save). */
static void test_database_with_a_trigger_is_left_alone(void **state)
{
    progress_test_dir *f = *state;
    progress_close(progress_test_open(f));
    progress_test_alter(f, "CREATE TRIGGER t AFTER INSERT ON level BEGIN "
                           "DELETE FROM collection; END");
    progress *p = progress_test_open_expecting(f, "another program's database");
    assert_false(progress_saving(p));
    progress_close(p);
    assert_int_equal(
        progress_test_query_number(progress_test_path(f, "progress.db"),
                                   "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"),
        1);
}

#define WITH_DIRECTORY(test)                                                                       \
    cmocka_unit_test_setup_teardown(test, progress_test_make_dir, progress_test_remove_dir)

int main(void)
{
    const struct CMUnitTest tests[] = {
        WITH_DIRECTORY(test_symlinked_database_is_refused_and_left_alone),
        WITH_DIRECTORY(test_symlinked_wal_file_is_refused),
        WITH_DIRECTORY(test_hard_linked_wal_file_is_refused),
        WITH_DIRECTORY(test_database_with_another_name_is_ours),
        WITH_DIRECTORY(test_empty_or_foreign_file_with_another_name_is_refused),
        WITH_DIRECTORY(test_repair_cut_short_with_a_hard_linked_shm_is_left_alone),
        WITH_DIRECTORY(test_repair_cut_short_of_a_file_without_its_header_is_finished),
        WITH_DIRECTORY(test_journal_beside_a_repair_is_not_a_repair_of_its_own),
        WITH_DIRECTORY(test_wal_of_another_database_is_left_as_found),
        WITH_DIRECTORY(test_file_that_is_not_a_database_is_never_overwritten),
        WITH_DIRECTORY(test_fifo_in_place_of_the_database_is_not_waited_on),
        WITH_DIRECTORY(test_another_programs_database_is_left_alone),
        WITH_DIRECTORY(test_database_of_a_newer_version_is_left_alone),
        WITH_DIRECTORY(test_database_of_a_negative_version_is_left_alone),
        WITH_DIRECTORY(test_database_with_a_trigger_is_left_alone),
        WITH_DIRECTORY(test_a_level_number_out_of_range_is_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
