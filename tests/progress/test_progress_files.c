/* test_progress_files.c - the progress database as a file: links and files not ours left
 * alone, a damaged database set aside and salvaged, migrations from the first schema, and the
 * one-time import of an old progress.txt (issue 13, storage items 1, 2 and 5); a database
 * of our version whose tables were dropped or altered is damaged too, and so is an older one
 * whose migration fails for what it holds. */
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
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "progress/progress.h"
#include "progress/progress_salvage.h"
#include "progress/progress_schema.h"
#include "progress_test.h"

/* ---- helpers ---------------------------------------------------------------------------- */

/* The bytes free that statvfs() reports to the code under test, when not negative (it is
 * wrapped for this test: tests/meson.build, unit_link_args; with _FILE_OFFSET_BITS=64 glibc
 * names it statvfs64). */
static long long free_bytes_told = -1;

int __real_statvfs64(const char *path, struct statvfs *space);
int __wrap_statvfs64(const char *path, struct statvfs *space);

int __wrap_statvfs64(const char *path, struct statvfs *space)
{
    int rc = __real_statvfs64(path, space);
    if (rc == 0 && free_bytes_told >= 0) {
        space->f_frsize = 1;
        space->f_bavail = (fsblkcnt_t)free_bytes_told;
    }
    return rc;
}

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

static bool exists(const char *path)
{
    struct stat status;
    return lstat(path, &status) == 0;
}

/* How many names in the directory start with `prefix` (SQLite's -wal and -shm files aside). */
static int count_names(const progress_test_dir *f, const char *prefix)
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

/* Opens the progress with `options` (NULL: none) and checks that its message contains
 * `expected`. */
static progress *open_with_expecting(const progress_test_dir *f, const progress_options *options,
                                     const char *expected)
{
    char message[1024];
    progress *p = progress_open_with(f->directory, options, message, sizeof message);
    assert_non_null(p);
    if (!strstr(message, expected)) fail_msg("message '%s' lacks '%s'", message, expected);
    return p;
}

/* Opens the progress and checks that its message contains `expected`. */
static progress *open_expecting(const progress_test_dir *f, const char *expected)
{
    return open_with_expecting(f, NULL, expected);
}

/* Opens the progress, saves level 5's game as "rRl" and closes it. */
static void save_game_5(const progress_test_dir *f)
{
    progress *p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 5, "rRl"));
    progress_close(p);
}

/* One record line of the old progress.txt: its FNV-1a 32 checksum, then `body`. */
static void legacy_line(FILE *out, const char *body)
{
    uint32_t hash = 2166136261u;
    for (const char *c = body; *c; c++) {
        hash ^= (unsigned char)*c;
        hash *= 16777619u;
    }
    fprintf(out, "%08x %s\n", (unsigned)hash, body);
}

/* ---- files that are not ours ------------------------------------------------------------ */

/* Issue 13, item 1: a link is refused and neither it nor its target changes. */
static void test_symlinked_database_is_refused_and_left_alone(void **state)
{
    progress_test_dir *f = *state;
    char target[512];
    snprintf(target, sizeof target, "%s", progress_test_path(f, "system-file"));
    progress_test_write(target, "precious\n");
    assert_int_equal(symlink(target, progress_test_path(f, "progress.db")), 0);
    progress *p = open_expecting(f, "is a symbolic link, so it is left alone and progress is "
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
    assert_int_equal(count_names(f, "progress.db"), 1); /* no aside */
    assert_false(exists(progress_test_path(f, "progress.db-wal")));
    assert_false(exists(progress_test_path(f, "progress.db-shm")));
}

static void test_symlinked_wal_file_is_refused(void **state)
{
    progress_test_dir *f = *state;
    progress_test_write(progress_test_path(f, "elsewhere"), "x");
    assert_int_equal(symlink("elsewhere", progress_test_path(f, "progress.db-wal")), 0);
    progress *p = open_expecting(f, "progress.db-wal is a symbolic link");
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
    progress *p = open_expecting(f, "progress.db-wal has another name (a hard link), so it is "
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
    save_game_5(f);
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
        progress *p = open_expecting(f, "progress.db has another name (a hard link), so it is "
                                        "left alone and progress is not saved");
        assert_false(progress_saving(p));
        assert_true(progress_set_unfinished(p, 1, "ll"));
        progress_close(p);
        assert_string_equal(read_text(elsewhere), contents[i]);
        assert_int_equal(count_names(f, "progress.db"), 1); /* no aside */
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
    save_game_5(f);
    char aside[512], shm[520], elsewhere[512];
    snprintf(aside, sizeof aside, "%s",
             progress_test_path(f, "progress.db.repairing-20260101-000000"));
    snprintf(shm, sizeof shm, "%s-shm", aside);
    snprintf(elsewhere, sizeof elsewhere, "%s", progress_test_path(f, "elsewhere"));
    assert_int_equal(rename(progress_test_path(f, "progress.db"), aside), 0);
    progress_test_write(elsewhere, "precious\n");
    assert_int_equal(link(elsewhere, shm), 0);
    progress *p =
        open_expecting(f, "-shm has another name (a hard link), so it is left alone and the "
                          "repair cut short is not finished from it");
    assert_true(progress_saving(p));
    progress_close(p);
    assert_string_equal(read_text(elsewhere), "precious\n");
    assert_true(exists(aside));
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
    progress *p = open_expecting(f, "was cut short; it was finished from ");
    progress_close(p);
    assert_int_equal(count_names(f, "progress.db.corrupt-"), 1);
    assert_int_equal(count_names(f, "progress.db.repairing-"), 0);
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
    progress *p = open_expecting(f, "is not a progress database");
    assert_false(progress_saving(p));
    assert_true(progress_set_last(p, "/levels/a.xsb", 2));
    progress_close(p);
    assert_string_equal(read_text(progress_test_path(f, "progress.db")),
                        "my notes, not a database\n");
    assert_int_equal(count_names(f, "progress.db"), 1);
}

static void test_fifo_in_place_of_the_database_is_not_waited_on(void **state)
{
    progress_test_dir *f = *state;
    assert_int_equal(mkfifo(progress_test_path(f, "progress.db"), 0600), 0);
    progress *p = open_expecting(f, "is not a regular file");
    progress_close(p);
    struct stat status;
    assert_int_equal(lstat(progress_test_path(f, "progress.db"), &status), 0);
    assert_true(S_ISFIFO(status.st_mode));
}

/* Runs `sql` on the progress database, closed by the game. */
static void alter_database(const progress_test_dir *f, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(progress_test_path(f, "progress.db"), &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
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

/* The bytes of the file (at most `size`), into `out`: how many. */
static size_t file_bytes(const char *path, unsigned char *out, size_t size)
{
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    size_t length = fread(out, 1, size, in);
    fclose(in);
    return length;
}

/* Not a byte of it is written: before, the switch to WAL came before the look at its
 * tables, and rewrote its header (bytes 18 and 19, 1 to 2). */
static void test_another_programs_database_is_left_alone(void **state)
{
    progress_test_dir *f = *state;
    alter_database(f, "CREATE TABLE mine (x)");
    static unsigned char before[65536], after[65536];
    size_t length = file_bytes(progress_test_path(f, "progress.db"), before, sizeof before);
    progress *p = open_expecting(f, "another program's database");
    assert_false(progress_saving(p));
    progress_close(p);
    assert_int_equal(file_bytes(progress_test_path(f, "progress.db"), after, sizeof after), length);
    assert_memory_equal(before, after, length);
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
    alter_database(f, "DROP TABLE imported");
    p = open_expecting(f, "was damaged (");
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

    p = open_expecting(f, "was cut short after its records were copied");
    assert_true(progress_saving(p));
    if (progress_get(p, 7)->seconds != 10)
        fail_msg("time played %g s, not 10 s", progress_get(p, 7)->seconds);
    progress_close(p);
    assert_int_equal(count_names(f, "progress.db.corrupt-"), 1);
    assert_int_equal(count_names(f, "progress.db.repairing-"), 0);
    p = progress_test_open(f); /* nothing left to say */
    assert_true(progress_get(p, 7)->seconds == 10);
    progress_close(p);
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

    progress *p = open_expecting(f, "progress.db-wal does not belong to");
    assert_false(progress_saving(p));
    progress_close(p);
    assert_true(exists(wal));
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
    alter_database(f, "PRAGMA user_version = 99");
    progress *p = open_expecting(f, "newer sokoban (schema 99)");
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

/* ---- damage ------------------------------------------------------------------------------ */

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
    assert_false(exists(progress_test_path(f, "progress.db-wal")));

    int fd = open(progress_test_path(f, "progress.db"), O_WRONLY);
    assert_true(fd >= 0);
    struct stat status;
    assert_int_equal(fstat(fd, &status), 0);
    char garbage[4096];
    memset(garbage, 0x5a, sizeof garbage);
    /* Page 80 of about 160 (4 KiB pages): the middle of the level table. */
    assert_int_equal(pwrite(fd, garbage, sizeof garbage, 79 * 4096), (ssize_t)sizeof garbage);
    close(fd);

    p = open_expecting(f, "was damaged; it was set aside as");
    assert_true(progress_saving(p));
    assert_int_equal(count_names(f, "progress.db.corrupt-"), 1);
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

/* ---- migrations ------------------------------------------------------------------------- */

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

/* One number from the database at `file`. */
static int64_t query_number(const char *file, const char *sql)
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
    assert_int_equal(sqlite3_exec(db,
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

    assert_int_equal(query_number(file, "PRAGMA user_version"), PROGRESS_SCHEMA_VERSION);
    /* every best, snapshot and imported solution has its level */
    assert_int_equal(query_number(file, "SELECT count(*) FROM best WHERE key NOT IN "
                                        "(SELECT key FROM level)"), 0);
    assert_int_equal(query_number(file, "SELECT count(*) FROM level"), 4);
    assert_int_equal(query_number(file, "SELECT count(*) FROM best"), 3);
    /* played: seconds since the epoch, now (within a day), in the order the counter gave */
    int64_t now = (int64_t)time(NULL);
    int64_t newer = query_number(file, "SELECT played FROM collection WHERE path = "
                                       "'/levels/new.xsb'");
    assert_true(newer > now - 86400 && newer <= now + 1);
    assert_true(query_number(file, "SELECT played < (SELECT played FROM collection WHERE "
                                   "path = '/levels/new.xsb') FROM collection WHERE path = "
                                   "'/levels/old.xsb'"));
    assert_int_equal(query_number(file, "SELECT played FROM collection WHERE path = "
                                        "'/levels/never.xsb'"), 0);
    /* what means nothing is refused */
    assert_int_not_equal(run_sql(file, "INSERT INTO best (key, kind, lurd, moves, pushes, origin)"
                                       " VALUES (7, 1, 'r', 1, 0, 9)"), SQLITE_OK);
    assert_int_not_equal(run_sql(file, "INSERT INTO best (key, kind, lurd, moves, pushes, origin)"
                                       " VALUES (7, 2, 'r', 1, 0, 0)"), SQLITE_OK);
    assert_int_not_equal(run_sql(file, "INSERT INTO best (key, kind, lurd, moves, pushes, origin)"
                                       " VALUES (12345, 1, 'r', 1, 0, 0)"), SQLITE_OK);
    assert_int_not_equal(run_sql(file, "UPDATE level SET solved = 5 WHERE key = 7"), SQLITE_OK);
    /* the kinds and origins are named in the database itself */
    assert_int_equal(query_number(file, "SELECT count(*) FROM best_kind"), 2);
    assert_int_equal(query_number(file, "SELECT count(*) FROM origin"), 4); /* and optimized, since 5 */
    /* a level forgotten takes its bests and snapshots with it */
    assert_int_equal(run_sql(file, "DELETE FROM level WHERE key = 10"), SQLITE_OK);
    assert_int_equal(query_number(file, "SELECT count(*) FROM snapshot"), 0);
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
    assert_int_equal(query_number(file, "PRAGMA user_version"), 7);
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
    assert_int_equal(query_number(file, "SELECT count(*) FROM best"), 2);
    assert_int_equal(query_number(file, "SELECT count(*) FROM imported"), 1);
    assert_int_equal(query_number(file, "SELECT count(*) FROM level"), 2);
}

/* ---- the old progress.txt ---------------------------------------------------------------- */

static void write_legacy(const progress_test_dir *f, const char *header)
{
    FILE *out = fopen(progress_test_path(f, "progress.txt"), "w");
    assert_non_null(out);
    fputs(header, out);
    legacy_line(out, "last 3 /levels/my%20levels.xsb");
    legacy_line(out, "collection 3 /levels/my%20levels.xsb");
    legacy_line(out, "collection 9 /levels/other.xsb");
    legacy_line(out, "level 0000000000000010 1 3 2 rRR 3 2 rRR -");
    fputs("0badc0de level 0000000000000020 1 1 1 R 1 1 R -\n", out); /* damaged */
    legacy_line(out, "level 0000000000000030 0 0 0 - 0 0 - llUr");
    fclose(out);
}

/* Issue 13, item 2: a damaged header (a trailing space) hides nothing. */
static void test_old_progress_is_imported_once_whatever_its_header(void **state)
{
    progress_test_dir *f = *state;
    write_legacy(f, "sokoban-progress 1 \n");
    progress *p = open_expecting(f, "imported 5 records from");
    progress_close(p);
    assert_false(exists(progress_test_path(f, "progress.txt")));
    assert_true(exists(progress_test_path(f, "progress.txt.imported")));

    p = progress_test_open(f); /* once: nothing to say the second time */
    assert_non_null(progress_get(p, 0x10));
    assert_true(progress_get(p, 0x10)->solved);
    assert_string_equal(progress_get(p, 0x10)->best_moves.lurd, "rRR");
    assert_null(progress_get(p, 0x20));
    assert_string_equal(progress_get(p, 0x30)->unfinished, "llUr");
    assert_int_equal(progress_collection_level(p, "/levels/my levels.xsb"), 3);
    assert_int_equal(progress_collection_level(p, "/levels/other.xsb"), 9);
    const char *path;
    int level;
    assert_true(progress_last(p, &path, &level));
    assert_string_equal(path, "/levels/my levels.xsb");
    progress_close(p);
}

static void test_damaged_lines_are_counted_in_the_message(void **state)
{
    progress_test_dir *f = *state;
    write_legacy(f, "garbage header\n");
    progress_close(open_expecting(f, "; 2 damaged lines skipped"));
}

/* Issue 45, item 11: a progress.txt that is a link is never followed (it could name any file,
 * of any size, or one being written): it is told and left alone, and so is its target. */
static void test_symlinked_old_progress_is_not_followed(void **state)
{
    progress_test_dir *f = *state;
    write_legacy(f, "sokoban-progress 1\n");
    char old_name[512];
    snprintf(old_name, sizeof old_name, "%s", progress_test_path(f, "progress.txt"));
    assert_int_equal(rename(old_name, progress_test_path(f, "kept-elsewhere.txt")), 0);
    assert_int_equal(symlink("kept-elsewhere.txt", progress_test_path(f, "progress.txt")), 0);
    progress *p = open_expecting(f, "progress.txt is a symbolic link, so it is not imported");
    assert_true(progress_saving(p));
    assert_null(progress_get(p, 0x10));
    progress_close(p);
    struct stat status;
    assert_int_equal(lstat(progress_test_path(f, "progress.txt"), &status), 0);
    assert_true(S_ISLNK(status.st_mode));
    assert_false(exists(progress_test_path(f, "progress.txt.imported")));
    assert_int_equal(lstat(progress_test_path(f, "kept-elsewhere.txt"), &status), 0);
    assert_true(S_ISREG(status.st_mode));
}

/* Issue 45, item 11: a progress.txt larger than any the old game wrote (a 2 GiB sparse file
 * took 9.5 s to read at every start) is refused by its size, at once, and left alone. */
static void test_huge_old_progress_is_refused_by_its_size(void **state)
{
    progress_test_dir *f = *state;
    int fd = open(progress_test_path(f, "progress.txt"), O_WRONLY | O_CREAT, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)2 << 30), 0);
    close(fd);
    progress *p = open_expecting(f, "progress.txt is larger than 64 MiB, so it is not imported");
    assert_true(progress_saving(p));
    progress_close(p);
    assert_true(exists(progress_test_path(f, "progress.txt")));
}

static void test_old_progress_that_is_a_fifo_is_not_waited_on(void **state)
{
    progress_test_dir *f = *state;
    assert_int_equal(mkfifo(progress_test_path(f, "progress.txt"), 0600), 0);
    progress *p = open_expecting(f, "cannot be imported (not a regular file)");
    assert_true(progress_saving(p));
    progress_close(p);
}

/* An import is one transaction: the database already holds newer work, which wins. */
static void test_import_keeps_what_the_database_holds(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 0x30, "d"));
    assert_true(progress_set_last(p, "/levels/newer.xsb", 1));
    progress_close(p);
    write_legacy(f, "sokoban-progress 1\n");
    p = open_expecting(f, "imported 5 records");
    assert_string_equal(progress_get(p, 0x30)->unfinished, "d");
    const char *path;
    int level;
    assert_true(progress_last(p, &path, &level));
    assert_string_equal(path, "/levels/newer.xsb");
    progress_close(p);
}

/* Issue 13, item 5: big files load in linear time; here 40,000 collection lines and 20,000
 * level records in falling key order, which the old reader took seconds over (the time is
 * measured in bench/, not here; this test only checks everything arrives). */
static void test_a_large_old_progress_arrives_whole(void **state)
{
    progress_test_dir *f = *state;
    FILE *out = fopen(progress_test_path(f, "progress.txt"), "w");
    assert_non_null(out);
    fputs("sokoban-progress 1\n", out);
    char body[256];
    for (int i = 0; i < 40000; i++) {
        snprintf(body, sizeof body, "collection %d /levels/c%05d.xsb", i % 50 + 1, i);
        legacy_line(out, body);
    }
    for (int i = 20000; i > 0; i--) {
        snprintf(body, sizeof body, "level %016x 1 1 1 R 1 1 R -", i);
        legacy_line(out, body);
    }
    fclose(out);
    progress *p = open_expecting(f, "imported 60000 records");
    assert_int_equal(progress_collection_level(p, "/levels/c39999.xsb"), 39999 % 50 + 1);
    assert_non_null(progress_get(p, 1));
    assert_non_null(progress_get(p, 20000));
    progress_close(p);
}

#define WITH_DIRECTORY(test) \
    cmocka_unit_test_setup_teardown(test, progress_test_make_dir, progress_test_remove_dir)

/* A negative user_version is no version of ours (another program set it): the database
 * is left alone, never migrated from a migration before the first (an array read out of
 * bounds, its pointer run as SQL, until 2026-12-07). */
static void test_database_of_a_negative_version_is_left_alone(void **state)
{
    progress_test_dir *f = *state;
    progress_close(progress_test_open(f));
    alter_database(f, "PRAGMA user_version = -5");
    progress *p = open_expecting(f, "another program's database");
    assert_false(progress_saving(p));
    progress_close(p);
    assert_int_equal(query_number(progress_test_path(f, "progress.db"), "PRAGMA user_version"),
                     -5);
}

/* A database of our version with a trigger (or a view), which sokoban never makes, is
 * left alone: a write of ours would fire it and run what the file says (a recursive one
 * without end: the game hung at its first save). */
static void test_database_with_a_trigger_is_left_alone(void **state)
{
    progress_test_dir *f = *state;
    progress_close(progress_test_open(f));
    alter_database(f, "CREATE TRIGGER t AFTER INSERT ON level BEGIN "
                      "DELETE FROM collection; END");
    progress *p = open_expecting(f, "another program's database");
    assert_false(progress_saving(p));
    progress_close(p);
    assert_int_equal(query_number(progress_test_path(f, "progress.db"),
                                  "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"),
                     1);
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
    alter_database(f, "DROP TABLE collection;"
                      "CREATE VIEW collection AS SELECT '/a.xsb' AS path, 3 AS level,"
                      " 1.0 AS played");
    damage_page_80(f);

    p = open_expecting(f, "was damaged; it was set aside as");
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

    progress *p = open_expecting(f, "was damaged; it was set aside as");
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
    alter_database(f, "DROP TABLE best");

    p = open_expecting(f, "was damaged (its table best is missing); it was set aside as");
    assert_true(progress_saving(p));
    assert_int_equal(count_names(f, "progress.db.corrupt-"), 1);
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
    assert_int_equal(count_names(f, "progress.db.corrupt-"), 1);
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
    alter_database(f, "ALTER TABLE collection RENAME COLUMN played TO when_played;"
                      "ALTER TABLE level DROP COLUMN unfinished_hint_from");

    p = open_expecting(f, "was damaged (its table ");
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
    alter_database(f, "DELETE FROM origin WHERE origin = 3");
    progress *p = open_expecting(f, "was damaged (its table origin has rows");
    assert_true(progress_saving(p));
    progress_close(p);
}

/* A sound database says nothing of its schema: opening it twice sets nothing aside. */
static void test_intact_database_is_not_set_aside(void **state)
{
    progress_test_dir *f = *state;
    progress_close(progress_test_open(f));
    progress *p = open_expecting(f, "");
    progress_close(p);
    char message[1024];
    p = progress_open(f->directory, message, sizeof message);
    assert_string_equal(message, "");
    progress_close(p);
    assert_int_equal(count_names(f, "progress.db."), 0);
}

/* Makes the progress database at schema `version`, with `rows`, then runs `damage` on it
 * (by hand, as a player could). */
static void older_database(const progress_test_dir *f, int version, const char *rows,
                           const char *damage)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(progress_test_path(f, "progress.db"), &db), SQLITE_OK);
    assert_int_equal(progress_schema_create_version(db, version), PROGRESS_SCHEMA_OK);
    assert_int_equal(sqlite3_exec(db, rows, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, damage, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

/* The rows older_database's tests give each schema: a level solved with an unfinished game,
 * its best, and a collection (schema 2 on: a snapshot). */
#define ROWS_1                                                                                     \
    "INSERT INTO level (key, solved, unfinished) VALUES (7, 1, 'ur');"                             \
    "INSERT INTO best (key, kind, lurd, moves, pushes, checked) VALUES (7, 0, 'rR', 2, 1, 1);"     \
    "INSERT INTO collection (path, level, played) VALUES ('/a.xsb', 5, 2), ('/b.xsb', 3, 1);"
#define ROWS_2 ROWS_1 "INSERT INTO snapshot (key, name, lurd, saved) VALUES (7, 'before', 'ud', 5);"

/* After an older database's salvage: it said so once, the damaged file is kept aside, and
 * the new one saves. */
static progress *open_salvaged(const progress_test_dir *f, const char *expected)
{
    progress *p = open_expecting(f, expected);
    assert_true(progress_saving(p));
    assert_int_equal(count_names(f, "progress.db.corrupt-"), 1);
    assert_int_equal(count_names(f, "progress.db.repairing-"), 0);
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
    assert_int_equal(count_names(f, "progress.db.corrupt-"), 1);
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
    older_database(f, 1, ROWS_1, "DROP TABLE best");
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
    older_database(f, 2, ROWS_2, "ALTER TABLE level DROP COLUMN unfinished_redo");
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
    assert_true(query_number(file, "SELECT min(played) FROM collection") > now - 86400);
    reopen_quietly(f);
}

/* Schema 3 with snapshot dropped: migration 4 rebuilds every table. */
static void test_schema_3_without_a_table_is_salvaged(void **state)
{
    progress_test_dir *f = *state;
    older_database(f, 3, ROWS_2, "DROP TABLE snapshot");
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
    older_database(f, 4, ROWS_2, "DROP TABLE origin");
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
    older_database(f, 5, ROWS_2, "DROP TABLE level");
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
    save_game_5(f);
    alter_database(f, "CREATE UNIQUE INDEX mine ON level (assisted)");
    progress *p =
        open_expecting(f, "was damaged (its table level has an index sokoban's does not); it "
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
    save_game_5(f);
    alter_database(f, "CREATE TABLE notes (level INTEGER, text TEXT);"
                      "CREATE UNIQUE INDEX notes_level ON notes (level);"
                      "INSERT INTO notes VALUES (5, 'push the left box first')");
    progress *p = progress_test_open(f);
    assert_string_equal(progress_get(p, 5)->unfinished, "rRl");
    assert_true(progress_set_unfinished(p, 6, "uU"));
    progress_close(p);
    assert_int_equal(count_names(f, "progress.db"), 1); /* nothing set aside */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(progress_test_path(f, "progress.db"), &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "SELECT text FROM notes WHERE level = 5", NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    p = progress_test_open(f);
    assert_string_equal(progress_get(p, 6)->unfinished, "uU");
    progress_close(p);
}

/* A table rebuilt by hand with its columns as ours but a CHECK of its own (which refuses a
 * collection of ours): damaged too, its rows kept. */
static void test_table_with_a_check_of_its_own_is_salvaged(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_set_last(p, "/a.xsb", 3));
    progress_close(p);
    alter_database(f, "CREATE TABLE c (  path TEXT PRIMARY KEY CHECK (path NOT LIKE '/c%'),"
                      "  level INTEGER NOT NULL CHECK (level >= 0),"
                      "  played REAL NOT NULL DEFAULT 0 CHECK (played >= 0));"
                      "INSERT INTO c SELECT * FROM collection; DROP TABLE collection;"
                      "ALTER TABLE c RENAME TO collection;"
                      "CREATE INDEX collection_played ON collection (played);");
    p = open_expecting(f, "was damaged (its table collection has constraints sokoban's does "
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
    alter_database(f, "PRAGMA ignore_check_constraints = 1;"
                      "UPDATE level SET solved = 'yes', seconds = 'long' WHERE key = 5;"
                      "UPDATE level SET assisted = 7, seconds = -1 WHERE key = 6");
    p = open_expecting(f, "was damaged; it was set aside as");
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
    older_database(f, 3, ROWS_2,
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
    alter_database(f, "CREATE TABLE c (path TEXT, level INTEGER NOT NULL CHECK (level >= 0),"
                      "  played REAL NOT NULL DEFAULT 0 CHECK (played >= 0));"
                      "INSERT INTO c VALUES ('/a.xsb', 3, 100), ('/a.xsb', 9, 5000),"
                      "  ('/a.xsb', 4, 200);"
                      "DROP TABLE collection; ALTER TABLE c RENAME TO collection;"
                      "CREATE INDEX collection_played ON collection (played);");
    progress *p = open_expecting(f, "was damaged (its table collection has columns sokoban's "
                                    "does not)");
    assert_int_equal(progress_collection_level(p, "/a.xsb"), 9);
    progress_close(p);
}

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
static char *dump_database(const char *file)
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
static void remove_databases(const progress_test_dir *f)
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
 * bytes (progress_options): what the new database holds (dump_database). The scratch
 * database is gone after. */
static char *salvage_schema_3(const progress_test_dir *f, long long memory_max)
{
    older_database(f, 3, ROWS_3_WITH_MEANING, "DROP TABLE snapshot");
    progress_options options = {.memory_max = memory_max};
    progress *p = open_with_expecting(f, &options, "was damaged (");
    assert_true(progress_saving(p));
    progress_close(p);
    assert_int_equal(count_names(f, "progress.db.repairing-"), 0);
    char file[512];
    snprintf(file, sizeof file, "%s", progress_test_path(f, "progress.db"));
    char *dump = dump_database(file);
    remove_databases(f);
    return dump;
}

/* An older schema's database over the size migrated in memory (64 MiB; lowered to a byte
 * here) is migrated in a scratch database on disk, so that it means what a smaller one
 * means: it was copied as it was, and lost what migration 4 carries (a flag of 2 failed
 * its CHECK and the row's numbers became defaults, the counter stayed a count of 1970's
 * seconds, a best of a negative count was not copied). */
static void test_a_large_older_database_is_salvaged_as_a_small_one(void **state)
{
    progress_test_dir *f = *state;
    char *small = salvage_schema_3(f, 64LL << 20);
    char *large = salvage_schema_3(f, 1);
    assert_string_equal(large, small);
    /* and what migration 4 means is there */
    if (!strstr(small, "8,1,NULL,1,0.0,NULL,NULL") || !strstr(small, "8,0,lL,0,1,0,0") ||
        !strstr(small, "8,1,lL,2,1,1,2") || !strstr(small, "/b.xsb,3,1;/a.xsb,5,1"))
        fail_msg("salvaged: %s", small);
    free(small);
    free(large);
}

/* Review5 finding 5: an older schema's database over the size migrated in memory, with
 * less than twice its size free beside it (the scratch database's migration 4 copies every
 * table before dropping the old one), is copied as it is, said in the line that tells the
 * repair, and no scratch database is made (one was made at every start, filled the disk
 * and failed, and the copy fell back to the same). */
static void test_an_older_database_without_room_to_migrate_is_copied_as_it_is(void **state)
{
    progress_test_dir *f = *state;
    older_database(f, 3, ROWS_3_WITH_MEANING, "DROP TABLE snapshot");
    progress_options options = {.memory_max = 1};
    free_bytes_told = 4096;
    char message[1024];
    progress *p = progress_open_with(f->directory, &options, message, sizeof message);
    free_bytes_told = -1;
    if (!strstr(message, "copied from it as it was (bringing its older schema up to date first "
                         "needs 1 MiB free beside it, and 0 MiB are free)") ||
        strchr(message, '\n'))
        fail_msg("message: %s", message);
    assert_true(progress_saving(p));
    progress_close(p);
    assert_int_equal(count_names(f, "progress.db.repairing-"), 0);
    assert_int_equal(count_names(f, "progress.db.corrupt-"), 1);
    DIR *directory = opendir(f->directory);
    assert_non_null(directory);
    for (struct dirent *entry; (entry = readdir(directory));)
        if (strstr(entry->d_name, "-migrating")) fail_msg("left: %s", entry->d_name);
    closedir(directory);
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
    progress_options options = {.before_long = tell_into, .argument = told,
                                .long_bytes = long_bytes};
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
    remove_databases(f);
    older_database(f, 5, ROWS_2, "");
    progress_close(open_telling(f, 0, told)); /* a small one's migration */
    assert_string_equal(told, "");
    remove_databases(f);
    older_database(f, 5, ROWS_2, "");
    progress_close(open_telling(f, 1, told));
    snprintf(line, sizeof line, "progress: bringing %s up to date (1 MiB)...\n",
             progress_test_path(f, "progress.db"));
    assert_string_equal(told, line);
    remove_databases(f);
    older_database(f, 3, ROWS_3_WITH_MEANING, "DROP TABLE snapshot"); /* damaged */
    progress_close(open_telling(f, 1, told));
    snprintf(line, sizeof line,
             "progress: bringing %s up to date (1 MiB)...\nprogress: repairing %s (1 MiB)...\n",
             progress_test_path(f, "progress.db"), progress_test_path(f, "progress.db"));
    assert_string_equal(told, line);
}

/* Review5 finding 4: a game finishing a repair while another game holds the new database's
 * write lock (the other one migrating the same file set aside) leaves that game's scratch
 * database (ASIDE-migrating) alone and copies nothing: it removed it and made its own,
 * and the first one wrote into a deleted file. */
static void test_a_repair_waiting_for_the_lock_leaves_the_scratch_alone(void **state)
{
    progress_test_dir *f = *state;
    older_database(f, 3, ROWS_3_WITH_MEANING, "");
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
    long copied = progress_salvage(db, aside, 0, NULL, 0);
    sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(other);
    assert_int_equal(copied, -1);
    assert_int_equal(lstat(scratch, &after), 0);
    assert_true(after.st_ino == before.st_ino && after.st_size == before.st_size);
    /* the lock let go, the copy is made, the scratch of a game killed there replaced */
    copied = progress_salvage(db, aside, 0, NULL, 0);
    assert_true(copied > 0);
    assert_int_equal(lstat(scratch, &after), -1);
    /* and a second copy of the same file, once recorded, copies nothing */
    assert_int_equal(progress_salvage(db, aside, 0, NULL, 0), 0);
    sqlite3_close(db);
}

/* A database of our version whose PRAGMA user_version was set down by hand (to each older
 * version, and to 0 with every table of ours there) is taken as of the version its tables
 * show: nothing said, nothing set aside, its rows as they were (an optimized best, the move
 * groups) and saves go on, where the migrations from the lower version failed on what the
 * later ones made ('was damaged (its schema 1 cannot be brought up to date: duplicate
 * column name: assisted)') and the file was set aside, and at 0 it was 'another program's
 * database', neither shown nor saved (review5 finding 7). */
static void test_a_version_set_down_by_hand_keeps_what_the_tables_hold(void **state)
{
    progress_test_dir *f = *state;
    for (int lowered = 0; lowered < PROGRESS_SCHEMA_VERSION; lowered++) {
        char damage[64];
        snprintf(damage, sizeof damage, "PRAGMA user_version = %d", lowered);
        older_database(f, PROGRESS_SCHEMA_VERSION,
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
        assert_int_equal(count_names(f, "progress.db."), 0);
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
        remove_databases(f);
    }
}

/* A schema 3 database whose PRAGMA user_version was set up by hand (to each later version
 * up to ours): salvaged as of the version its tables show, through migration 4, as a
 * damaged schema 3 file is (salvage_schema_3), where migrations after the raised version ran
 * on its tables (the file then said schema 6) and it was copied as it was: flags of 2 and a
 * negative count refused, the collection counter kept as seconds of 1970. */
static void test_a_version_set_up_by_hand_is_salvaged_as_its_tables_show(void **state)
{
    progress_test_dir *f = *state;
    char *expected = salvage_schema_3(f, 64LL << 20);
    for (int raised = 4; raised <= PROGRESS_SCHEMA_VERSION; raised++) {
        char damage[64];
        snprintf(damage, sizeof damage, "PRAGMA user_version = %d", raised);
        older_database(f, 3, ROWS_3_WITH_MEANING, damage);
        progress *p = open_expecting(f, "was damaged (");
        assert_true(progress_saving(p));
        progress_close(p);
        char file[512];
        snprintf(file, sizeof file, "%s", progress_test_path(f, "progress.db"));
        char *dump = dump_database(file);
        if (strcmp(dump, expected) != 0)
            fail_msg("user_version %d: salvaged\n%s, expected\n%s", raised, dump, expected);
        free(dump);
        remove_databases(f);
    }
    free(expected);
}

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
        WITH_DIRECTORY(test_repair_killed_after_its_copy_is_not_copied_twice),
        WITH_DIRECTORY(test_wal_of_another_database_is_left_as_found),
        WITH_DIRECTORY(test_file_that_is_not_a_database_is_never_overwritten),
        WITH_DIRECTORY(test_fifo_in_place_of_the_database_is_not_waited_on),
        WITH_DIRECTORY(test_another_programs_database_is_left_alone),
        WITH_DIRECTORY(test_database_of_a_newer_version_is_left_alone),
        WITH_DIRECTORY(test_database_of_a_negative_version_is_left_alone),
        WITH_DIRECTORY(test_database_with_a_trigger_is_left_alone),
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
        WITH_DIRECTORY(test_table_with_a_check_of_its_own_is_salvaged),
        WITH_DIRECTORY(test_salvage_keeps_a_row_with_values_its_schema_refuses),
        WITH_DIRECTORY(test_schema_3_with_a_text_key_is_salvaged),
        WITH_DIRECTORY(test_salvage_keeps_the_level_of_a_collection_played_last),
        WITH_DIRECTORY(test_a_large_older_database_is_salvaged_as_a_small_one),
        WITH_DIRECTORY(test_an_older_database_without_room_to_migrate_is_copied_as_it_is),
        WITH_DIRECTORY(test_a_long_step_of_opening_is_told_before_it),
        WITH_DIRECTORY(test_a_repair_waiting_for_the_lock_leaves_the_scratch_alone),
        WITH_DIRECTORY(test_a_version_set_down_by_hand_keeps_what_the_tables_hold),
        WITH_DIRECTORY(test_a_version_set_up_by_hand_is_salvaged_as_its_tables_show),
        WITH_DIRECTORY(test_first_schema_migrates_keeping_its_rows),
        WITH_DIRECTORY(test_schema_3_migrates_to_constraints_keeping_its_rows),
        WITH_DIRECTORY(test_schema_5_migrates_to_move_groups_keeping_its_rows),
        WITH_DIRECTORY(test_rows_of_new_levels_have_their_level),
        cmocka_unit_test(test_a_new_database_has_the_schema_migrations_make),
        WITH_DIRECTORY(test_old_progress_is_imported_once_whatever_its_header),
        WITH_DIRECTORY(test_damaged_lines_are_counted_in_the_message),
        WITH_DIRECTORY(test_symlinked_old_progress_is_not_followed),
        WITH_DIRECTORY(test_huge_old_progress_is_refused_by_its_size),
        WITH_DIRECTORY(test_old_progress_that_is_a_fifo_is_not_waited_on),
        WITH_DIRECTORY(test_import_keeps_what_the_database_holds),
        WITH_DIRECTORY(test_a_large_old_progress_arrives_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
