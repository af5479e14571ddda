/* test_progress_faults.c - the progress store when the world misbehaves (issue 45): a full
 * disk told with its real reason, a data directory reached through symbolic links. A
 * database set aside or replaced under a game is in test_progress_set_aside.c. */
#define _GNU_SOURCE /* unshare() */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "progress/progress.h"
#include "progress_test.h"

/* Fills the disk while a change is written, then makes room again; returns the notice the
 * failure gave (static). `fill` makes the disk full, `room` frees it. */
static const char *notice_of_a_full_disk(const progress_test_dir *f, void (*fill)(bool full))
{
    static char notice[1200];
    progress *p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 1, "l"));
    char *lurd = progress_test_long_lurd(200 << 10);
    fill(true);
    bool written = progress_set_unfinished(p, 2, lurd);
    fill(false);
    assert_false(written);
    const char *told = progress_take_notice(p);
    assert_non_null(told);
    snprintf(notice, sizeof notice, "%s", told);
    char why[1200];
    assert_true(progress_unsaved(p, why, sizeof why));
    assert_null(strstr(why, "rollback"));
    /* room again: what was queued is written */
    assert_true(progress_save(p, why, sizeof why));
    assert_string_equal(progress_get(p, 2)->unfinished, lurd);
    free(lurd);
    progress_close(p);
    return notice;
}

/* A file size limit (RLIMIT_FSIZE) for the disk: a write past it fails with EFBIG. */
static void limit_file_size(bool full)
{
    static struct rlimit old_limit;
    static void (*old_handler)(int);
    if (full) {
        assert_int_equal(getrlimit(RLIMIT_FSIZE, &old_limit), 0);
        old_handler = signal(SIGXFSZ, SIG_IGN);
        struct rlimit limit = {.rlim_cur = 64 << 10, .rlim_max = old_limit.rlim_max};
        assert_int_equal(setrlimit(RLIMIT_FSIZE, &limit), 0);
    } else {
        assert_int_equal(setrlimit(RLIMIT_FSIZE, &old_limit), 0);
        signal(SIGXFSZ, old_handler);
    }
}

/* Issue 45, item 12: the reason given is the write's, not the ROLLBACK's ("cannot rollback -
 * no transaction is active", which it was before). */
static void test_a_failed_write_is_told_with_its_reason(void **state)
{
    const char *notice = notice_of_a_full_disk(*state, limit_file_size);
    if (!strstr(notice, "disk I/O error")) fail_msg("notice '%s' lacks the reason", notice);
    assert_null(strstr(notice, "rollback"));
}

/* The directory of the full-disk test: a file system of its own, 512 KiB. */
static const char *small_disk;

static char filler_path[600];

/* Fills the small file system with one file, or removes that file. */
static void fill_the_disk(bool full)
{
    if (!full) {
        assert_int_equal(unlink(filler_path), 0);
        return;
    }
    int fd = open(filler_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    char block[4096] = {0};
    while (write(fd, block, sizeof block) > 0) continue;
    close(fd);
}

/* The same on a real full disk (ENOSPC), where SQLite says "database or disk is full": a
 * tmpfs of 512 KiB mounted on the test's directory, in a mount namespace of the test's own
 * (a child process), so that nothing is left mounted. It needs the right to mount (root, as
 * CI runs); without it the test is skipped. */
static void test_a_full_disk_is_told_with_its_reason(void **state)
{
    progress_test_dir *f = *state;
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        if (unshare(CLONE_NEWNS) != 0 || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
            mount("tmpfs", f->directory, "tmpfs", 0, "size=512k,mode=0700") != 0)
            _exit(77);
        small_disk = f->directory;
        snprintf(filler_path, sizeof filler_path, "%s/filler", small_disk);
        const char *notice = notice_of_a_full_disk(f, fill_the_disk);
        _exit(strstr(notice, "database or disk is full") && !strstr(notice, "rollback") ? 0 : 1);
    }
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 77) skip();
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* Issue 45, item 4: a data directory reached through links (a home folder or XDG_DATA_HOME
 * that is a link, as on many systems) saves like any other; only the database file itself
 * and its -wal and -shm are refused as links (test_progress_files.c). */
static void test_a_symlinked_data_home_saves(void **state)
{
    progress_test_dir *f = *state;
    char real[512], link[512], data[600];
    snprintf(real, sizeof real, "%s", progress_test_path(f, "real-home"));
    snprintf(link, sizeof link, "%s", progress_test_path(f, "home"));
    assert_int_equal(mkdir(real, 0700), 0);
    assert_int_equal(symlink("real-home", link), 0);
    /* the link twice: the home and the data folder in it */
    char real_share[600];
    snprintf(real_share, sizeof real_share, "%s/share-real", real);
    assert_int_equal(mkdir(real_share, 0700), 0);
    snprintf(data, sizeof data, "%s/share", real);
    assert_int_equal(symlink("share-real", data), 0);
    snprintf(data, sizeof data, "%s/share/sokoban", link);
    char message[1024];
    progress *p = progress_open(data, message, sizeof message);
    assert_non_null(p);
    assert_string_equal(message, "");
    assert_true(progress_saving(p));
    assert_true(progress_set_unfinished(p, 5, "rr"));
    progress_close(p);
    char file[700];
    snprintf(file, sizeof file, "%s/sokoban/progress.db", real_share);
    struct stat status;
    assert_int_equal(lstat(file, &status), 0);
    assert_true(S_ISREG(status.st_mode));
    p = progress_open(data, message, sizeof message);
    assert_string_equal(message, "");
    assert_string_equal(progress_get(p, 5)->unfinished, "rr");
    progress_close(p);
}

#define WITH_DIRECTORY(test)                                                                       \
    cmocka_unit_test_setup_teardown(test, progress_test_make_dir, progress_test_remove_dir)

int main(void)
{
    const struct CMUnitTest tests[] = {
        WITH_DIRECTORY(test_a_failed_write_is_told_with_its_reason),
        WITH_DIRECTORY(test_a_full_disk_is_told_with_its_reason),
        WITH_DIRECTORY(test_a_symlinked_data_home_saves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
