/* test_progress_read_only.c - a progress database this process cannot write (a read-only
 * file, folder or the files beside it): told at start, its saved progress shown, nothing
 * made or changed beside it, and a game that can write it later saves as before. Root
 * writes through permissions: each test runs without that power (CAP_DAC_OVERRIDE), as a
 * user's game does, so that the failure is real for root too (CI runs as root). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "progress/progress.h"
#include "progress/progress_salvage.h"
#include "progress_test.h"

/* Sets whether this thread may override file permissions (the effective CAP_DAC_OVERRIDE
 * and CAP_DAC_READ_SEARCH, which root has and a user has not). Lowering them is always
 * allowed; raising them again only to what the thread is permitted, so a user's test asks
 * for nothing it had not. */
static void set_permission_override(bool on)
{
    struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    if (syscall(SYS_capget, &header, data) != 0) fail_msg("capget failed");
    const uint32_t bits = (1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH);
    data[0].effective =
        on ? data[0].effective | (bits & data[0].permitted) : data[0].effective & ~bits;
    if (syscall(SYS_capset, &header, data) != 0) fail_msg("capset failed");
}

/* The bytes of the file, malloc'd, their count in `size`. */
static char *file_bytes(const char *path, size_t *size)
{
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    char *bytes = malloc(1 << 20);
    assert_non_null(bytes);
    *size = fread(bytes, 1, 1 << 20, in);
    fclose(in);
    return bytes;
}

/* Issue 13, item 3: a database that cannot be written (its mode `file_mode`, its folder's
 * `folder_mode`) is told at once, its saved progress is shown, what is played stays unsaved
 * to the end (for the exit status), and the file is left as it was. Root writes through
 * permissions: the test runs without that power (CAP_DAC_OVERRIDE), as a user's game does,
 * so that the failure is real for root too (CI runs as root). */
static void check_read_only_database(const progress_test_dir *f, mode_t file_mode,
                                     mode_t folder_mode)
{
    progress *p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 1, "l"));
    progress_close(p);
    char database[256];
    snprintf(database, sizeof database, "%s", progress_test_path(f, "progress.db"));
    size_t before_size, after_size;
    char *before = file_bytes(database, &before_size);
    assert_int_equal(chmod(database, file_mode), 0);
    assert_int_equal(chmod(f->directory, folder_mode), 0);
    set_permission_override(false);
    /* the file or the directory is really closed to this process now */
    int probe = open((folder_mode & 0200) ? database : progress_test_path(f, "probe"),
                     O_WRONLY | O_CREAT, 0600);
    assert_int_equal(probe, -1);
    assert_int_equal(errno, EACCES);
    char message[1024];
    p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    if (!strstr(message, "cannot be written") || !strstr(message, "progress saved in it is shown"))
        fail_msg("message: %s", message);
    assert_false(progress_saving(p));
    /* what was saved is shown */
    const progress_record *r = progress_get(p, 1);
    assert_non_null(r);
    assert_string_equal(r->unfinished, "l");
    assert_false(progress_unsaved(p, message, sizeof message));
    assert_true(progress_set_unfinished(p, 2, "lr"));
    assert_non_null(progress_get(p, 2));
    assert_true(progress_unsaved(p, message, sizeof message));
    /* the exit line says what is new: the start line told that the progress is shown */
    if (!strstr(message, "not saved") || !strstr(message, "cannot be written") ||
        strstr(message, "is shown"))
        fail_msg("message: %s", message);
    progress_close(p);
    set_permission_override(true);
    assert_int_equal(chmod(f->directory, 0700), 0);
    assert_int_equal(chmod(database, 0600), 0);
    char *after = file_bytes(database, &after_size);
    assert_int_equal(before_size, after_size);
    assert_memory_equal(before, after, before_size);
    free(before);
    free(after);
    /* and the next game that can write it finds it as it was */
    p = progress_test_open(f);
    assert_string_equal(progress_get(p, 1)->unfinished, "l");
    assert_null(progress_get(p, 2));
    progress_close(p);
}

static void test_a_read_only_database_in_a_read_only_folder_is_shown_unsaved(void **state)
{
    check_read_only_database(*state, 0400, 0500);
}

static void test_a_read_only_database_is_shown_unsaved(void **state)
{
    check_read_only_database(*state, 0444, 0700);
}

static void test_a_database_in_a_read_only_folder_is_shown_unsaved(void **state)
{
    check_read_only_database(*state, 0600, 0500);
}

/* A repair cut short beside a database that cannot be written (FILE.repairing-*, what a
 * game killed in a repair left): its rows are shown with the database's, and it is left as
 * it is for a game that can write to finish (it was not read: its rows were not shown). */
static void test_a_read_only_database_shows_a_repair_cut_short_too(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 3, "u"));
    progress_close(p);
    char database[256], held[256], repairing[256];
    snprintf(database, sizeof database, "%s", progress_test_path(f, "progress.db"));
    snprintf(held, sizeof held, "%s", progress_test_path(f, "held.db"));
    snprintf(repairing, sizeof repairing, "%s",
             progress_test_path(f, "progress.db.repairing-20260101-000000"));
    assert_int_equal(rename(database, held), 0);
    p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 1, "l"));
    progress_close(p);
    assert_int_equal(rename(held, repairing), 0);
    assert_int_equal(chmod(f->directory, 0500), 0);
    set_permission_override(false);
    char message[1024];
    p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    if (!strstr(message, "progress saved in it is shown")) fail_msg("message: %s", message);
    assert_string_equal(progress_get(p, 1)->unfinished, "l");
    const progress_record *r = progress_get(p, 3);
    assert_non_null(r);
    assert_string_equal(r->unfinished, "u");
    progress_close(p);
    set_permission_override(true);
    assert_int_equal(chmod(f->directory, 0700), 0);
    struct stat status;
    assert_int_equal(lstat(repairing, &status), 0);
}

/* A repair cut short beside a database that cannot be written, too large to read into
 * memory with it (memory_max lowered to 256 KiB, the file set aside about 1 MiB), is not
 * read, and the start line says so, where it was read whole into memory (the bound kept
 * only the database itself: a file set aside of 300 MB was held whole). */
static void test_a_read_only_database_leaves_a_large_repair_cut_short_unread(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    char moves[1001];
    memset(moves, 'u', sizeof moves - 1);
    moves[sizeof moves - 1] = '\0';
    for (int i = 2; i <= 700; i++) assert_true(progress_set_unfinished(p, i, moves));
    progress_close(p);
    char held[256], repairing[256];
    snprintf(held, sizeof held, "%s", progress_test_path(f, "held.db"));
    snprintf(repairing, sizeof repairing, "%s",
             progress_test_path(f, "progress.db.repairing-20260101-000000"));
    assert_int_equal(rename(progress_test_path(f, "progress.db"), held), 0);
    p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 1, "l"));
    progress_close(p);
    assert_int_equal(rename(held, repairing), 0);
    assert_int_equal(chmod(f->directory, 0500), 0);
    set_permission_override(false);
    progress_options options = {.memory_max = 256 << 10};
    char message[1024], expected[600];
    p = progress_open_with(f->directory, &options, message, sizeof message);
    set_permission_override(true);
    assert_int_equal(chmod(f->directory, 0700), 0);
    assert_non_null(p);
    snprintf(expected, sizeof expected,
             "; %s, a repair cut short beside it, is not shown: at 1 MiB it is too large to read "
             "into memory: the progress saved in it is shown",
             repairing);
    if (!strstr(message, expected) || strchr(message, '\n')) fail_msg("message: %s", message);
    assert_string_equal(progress_get(p, 1)->unfinished, "l");
    assert_null(progress_get(p, 2));
    progress_close(p);
}

/* Two repairs cut short beside a database that cannot be written, both
 * too large to read into memory with it: the start line names both, where the second
 * overwrote the first. */
static void test_a_read_only_database_tells_every_large_repair_cut_short(void **state)
{
    progress_test_dir *f = *state;
    char moves[1001];
    memset(moves, 'u', sizeof moves - 1);
    moves[sizeof moves - 1] = '\0';
    char database[128], held[2][160], repairing[2][160];
    snprintf(database, sizeof database, "%s", progress_test_path(f, "progress.db"));
    for (int k = 0; k < 2; k++) {
        progress *p = progress_test_open(f);
        for (int i = 2; i <= 700; i++) assert_true(progress_set_unfinished(p, i, moves));
        progress_close(p);
        snprintf(held[k], sizeof held[k], "%s/held-%d.db", f->directory, k);
        snprintf(repairing[k], sizeof repairing[k], "%s.repairing-2026010%d-000000", database,
                 k + 1);
        assert_int_equal(rename(database, held[k]), 0);
    }
    progress *p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 1, "l"));
    progress_close(p);
    for (int k = 0; k < 2; k++) assert_int_equal(rename(held[k], repairing[k]), 0);
    assert_int_equal(chmod(f->directory, 0500), 0);
    set_permission_override(false);
    progress_options options = {.memory_max = 256 << 10};
    char message[4096], expected[1024];
    p = progress_open_with(f->directory, &options, message, sizeof message);
    set_permission_override(true);
    assert_int_equal(chmod(f->directory, 0700), 0);
    assert_non_null(p);
    for (int k = 0; k < 2; k++) {
        snprintf(expected, sizeof expected,
                 "%s, a repair cut short beside it, is not shown: at 1 MiB it is too large to "
                 "read into memory",
                 repairing[k]);
        if (!strstr(message, expected) || strchr(message, '\n')) fail_msg("message: %s", message);
    }
    assert_string_equal(progress_get(p, 1)->unfinished, "l");
    progress_close(p);
}

/* Finding 1 of review5: a read-only database in a writable folder, read by a game, has no
 * -shm nor -wal made beside it (read only, they were left there, and once the file was made
 * writable again every write of a later game failed, "attempt to write a readonly
 * database", with no word at the start). */
static void test_reading_a_read_only_database_leaves_nothing_beside_it(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 1, "l"));
    progress_close(p);
    char database[256];
    snprintf(database, sizeof database, "%s", progress_test_path(f, "progress.db"));
    assert_int_equal(chmod(database, 0444), 0);
    set_permission_override(false);
    char message[1024];
    p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    if (!strstr(message, "cannot be written")) fail_msg("message: %s", message);
    assert_string_equal(progress_get(p, 1)->unfinished, "l");
    progress_close(p);
    struct stat status;
    assert_int_equal(lstat(progress_test_path(f, "progress.db-shm"), &status), -1);
    assert_int_equal(lstat(progress_test_path(f, "progress.db-wal"), &status), -1);
    /* made writable again: the next game saves, the override still dropped */
    assert_int_equal(chmod(database, 0644), 0);
    p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    if (message[0]) fail_msg("message: %s", message);
    assert_true(progress_set_unfinished(p, 2, "r"));
    assert_false(progress_unsaved(p, message, sizeof message));
    progress_close(p);
    set_permission_override(true);
    p = progress_test_open(f);
    assert_string_equal(progress_get(p, 2)->unfinished, "r");
    progress_close(p);
}

/* A -shm left read only beside the database (by a game before finding 1's fix) is told at
 * the start, named, where every write failed with no word until the exit line. */
static void test_a_read_only_shm_beside_the_database_is_told_at_start(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 1, "l"));
    progress_close(p);
    progress_test_write(progress_test_path(f, "progress.db-shm"), "");
    progress_test_write(progress_test_path(f, "progress.db-wal"), "");
    assert_int_equal(chmod(progress_test_path(f, "progress.db-shm"), 0444), 0);
    assert_int_equal(chmod(progress_test_path(f, "progress.db-wal"), 0444), 0);
    set_permission_override(false);
    char message[1024];
    p = progress_open(f->directory, message, sizeof message);
    set_permission_override(true);
    assert_non_null(p);
    if (!strstr(message, "cannot be written (its -")) fail_msg("message: %s", message);
    assert_string_equal(progress_get(p, 1)->unfinished, "l");
    progress_close(p);
}

/* Starts a game on the directory's progress in a child that saves level `level` unfinished
 * and is killed before it closes: its -wal and -shm are left beside the database. */
static void leave_a_killed_game(const progress_test_dir *f, int level)
{
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        char message[1024];
        progress *p = progress_open(f->directory, message, sizeof message);
        _exit(p && progress_set_unfinished(p, level, "d") ? 0 : 1);
    }
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Finding 2 of review5 (a regression of f39bd1f): a read-only folder that holds a writable
 * database with its -wal and -shm (a game killed there) saves, as it did at 4c70ede: SQLite
 * makes nothing in the folder; it was read into memory, "not saved". */
static void test_a_read_only_folder_with_writable_files_saves(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 1, "l"));
    progress_close(p);
    leave_a_killed_game(f, 3);
    struct stat status;
    assert_int_equal(lstat(progress_test_path(f, "progress.db-shm"), &status), 0);
    assert_int_equal(lstat(progress_test_path(f, "progress.db-wal"), &status), 0);
    assert_int_equal(chmod(f->directory, 0500), 0);
    set_permission_override(false);
    char message[1024];
    p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    if (message[0]) fail_msg("message: %s", message);
    assert_true(progress_saving(p));
    assert_string_equal(progress_get(p, 3)->unfinished, "d");
    assert_true(progress_set_unfinished(p, 2, "r"));
    assert_false(progress_unsaved(p, message, sizeof message));
    progress_close(p);
    set_permission_override(true);
    assert_int_equal(chmod(f->directory, 0700), 0);
    p = progress_test_open(f);
    assert_string_equal(progress_get(p, 1)->unfinished, "l");
    assert_string_equal(progress_get(p, 2)->unfinished, "r");
    progress_close(p);
}

/* Finding 3 of review5: a database that cannot be written and is larger than what is read
 * into memory (progress_options' memory_max, lowered here below the file's size) is refused
 * in one line that says why, where it was read whole into memory (a 300 MB file: 323 MB
 * resident). */
static void test_a_read_only_database_too_large_for_memory_is_refused(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 1, "l"));
    progress_close(p);
    assert_int_equal(chmod(progress_test_path(f, "progress.db"), 0444), 0);
    set_permission_override(false);
    progress_options options = {.memory_max = 1024};
    char message[1024];
    p = progress_open_with(f->directory, &options, message, sizeof message);
    set_permission_override(true);
    if (!strstr(message, "cannot be written (Permission denied), and at 1 MiB it is too large "
                         "to read into memory; progress is not saved") ||
        strchr(message, '\n'))
        fail_msg("message: %s", message);
    if (p) {
        assert_false(progress_saving(p));
        assert_null(progress_get(p, 1));
    }
    progress_close(p);
}

/* The lines told before a long step of opening (progress_options.before_long), one after
 * another, "\n" after each, into a buffer of 2048 bytes. */
static void tell_into(const char *line, void *argument)
{
    char *told = argument;
    size_t used = strlen(told);
    snprintf(told + used, 2048 - used, "%s\n", line);
}

/* Review5 finding 12, the read-only case: a database that cannot be written, over the size
 * from which a step of opening is long (lowered here to a byte), is told in one line before
 * it is read into memory ("progress: reading FILE (N MiB)..."), the saved progress then
 * shown; under that size nothing is told. */
static void test_reading_a_read_only_database_is_told_before_it(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 1, "l"));
    progress_close(p);
    assert_int_equal(chmod(progress_test_path(f, "progress.db"), 0444), 0);
    char told[2048] = "", line[600], message[1024];
    progress_options options = {.before_long = tell_into, .argument = told, .long_bytes = 1};
    set_permission_override(false);
    p = progress_open_with(f->directory, &options, message, sizeof message);
    set_permission_override(true);
    snprintf(line, sizeof line, "progress: reading %s (1 MiB)...\n",
             progress_test_path(f, "progress.db"));
    assert_string_equal(told, line);
    assert_non_null(p);
    assert_false(progress_saving(p));
    assert_string_equal(progress_get(p, 1)->unfinished, "l");
    progress_close(p);
    told[0] = '\0'; /* under the size: nothing told */
    options.long_bytes = 1LL << 30;
    set_permission_override(false);
    p = progress_open_with(f->directory, &options, message, sizeof message);
    set_permission_override(true);
    assert_string_equal(told, "");
    assert_string_equal(progress_get(p, 1)->unfinished, "l");
    progress_close(p);
}

/* Review5 finding 6: a read-only folder holding the database and its -wal but no -shm
 * (SQLite reads a -wal only through a -shm, and cannot make one there) is told so, with
 * what to do, where it said the file could not be "written (its folder: Permission denied)
 * nor read" when the file itself reads fine. */
static void test_a_wal_without_its_shm_in_a_read_only_folder_is_told(void **state)
{
    progress_test_dir *f = *state;
    leave_a_killed_game(f, 3);
    assert_int_equal(unlink(progress_test_path(f, "progress.db-shm")), 0);
    assert_int_equal(chmod(f->directory, 0500), 0);
    set_permission_override(false);
    char message[1024];
    progress *p = progress_open(f->directory, message, sizeof message);
    set_permission_override(true);
    assert_int_equal(chmod(f->directory, 0700), 0);
    if (!strstr(message, "its -wal needs a -shm beside it, which its read-only folder cannot "
                         "hold; make the folder writable"))
        fail_msg("message: %s", message);
    if (p) assert_false(progress_saving(p));
    progress_close(p);
}

/* Review5 finding 8: a database replaced under a game by one this process cannot write is
 * told at the game's next change with the reason, learned by looking at the file: it was
 * read whole into memory at every change only to learn that it was read only, and the
 * reason was lost. */
static void test_a_read_only_replacement_is_told_with_its_reason(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 1, "l"));
    char database[256], replacement[256];
    snprintf(database, sizeof database, "%s", progress_test_path(f, "progress.db"));
    snprintf(replacement, sizeof replacement, "%s", progress_test_path(f, "replacement.db"));
    sqlite3 *db;
    assert_int_equal(sqlite3_open(database, &db), SQLITE_OK);
    char sql[400];
    snprintf(sql, sizeof sql, "VACUUM INTO '%s'", replacement);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(chmod(replacement, 0444), 0);
    assert_int_equal(rename(replacement, database), 0);
    set_permission_override(false);
    assert_false(progress_set_unfinished(p, 2, "r")); /* (kept to be tried again) */
    char why[1024];
    bool unsaved = progress_unsaved(p, why, sizeof why);
    set_permission_override(true);
    assert_true(unsaved);
    char expected[600];
    snprintf(expected, sizeof expected,
             "it was set aside or replaced, and %s cannot be written (Permission denied)",
             database);
    if (!strstr(why, expected)) fail_msg("why: %s", why);
    progress_close(p);
}

#define WITH_DIRECTORY(test)                                                                       \
    cmocka_unit_test_setup_teardown(test, progress_test_make_dir, progress_test_remove_dir)

int main(void)
{
    const struct CMUnitTest tests[] = {
        WITH_DIRECTORY(test_a_read_only_database_in_a_read_only_folder_is_shown_unsaved),
        WITH_DIRECTORY(test_a_read_only_database_is_shown_unsaved),
        WITH_DIRECTORY(test_a_database_in_a_read_only_folder_is_shown_unsaved),
        WITH_DIRECTORY(test_a_read_only_database_shows_a_repair_cut_short_too),
        WITH_DIRECTORY(test_a_read_only_database_leaves_a_large_repair_cut_short_unread),
        WITH_DIRECTORY(test_a_read_only_database_tells_every_large_repair_cut_short),
        WITH_DIRECTORY(test_reading_a_read_only_database_leaves_nothing_beside_it),
        WITH_DIRECTORY(test_a_read_only_shm_beside_the_database_is_told_at_start),
        WITH_DIRECTORY(test_a_read_only_folder_with_writable_files_saves),
        WITH_DIRECTORY(test_a_read_only_database_too_large_for_memory_is_refused),
        WITH_DIRECTORY(test_reading_a_read_only_database_is_told_before_it),
        WITH_DIRECTORY(test_a_wal_without_its_shm_in_a_read_only_folder_is_told),
        WITH_DIRECTORY(test_a_read_only_replacement_is_told_with_its_reason),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
