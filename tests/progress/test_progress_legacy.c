/* test_progress_legacy.c - the one-time import of an old progress.txt beside the database
 * (issue 13, storage item 5): every intact record whatever its header, a damaged line
 * counted, what the database holds kept, a link, a FIFO or a huge file left alone. */
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
    progress *p = progress_test_open_expecting(f, "imported 5 records from");
    progress_close(p);
    assert_false(progress_test_exists(progress_test_path(f, "progress.txt")));
    assert_true(progress_test_exists(progress_test_path(f, "progress.txt.imported")));

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
    progress_close(progress_test_open_expecting(f, "; 2 damaged lines skipped"));
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
    progress *p =
        progress_test_open_expecting(f, "progress.txt is a symbolic link, so it is not imported");
    assert_true(progress_saving(p));
    assert_null(progress_get(p, 0x10));
    progress_close(p);
    struct stat status;
    assert_int_equal(lstat(progress_test_path(f, "progress.txt"), &status), 0);
    assert_true(S_ISLNK(status.st_mode));
    assert_false(progress_test_exists(progress_test_path(f, "progress.txt.imported")));
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
    progress *p = progress_test_open_expecting(
        f, "progress.txt is larger than 64 MiB, so it is not imported");
    assert_true(progress_saving(p));
    progress_close(p);
    assert_true(progress_test_exists(progress_test_path(f, "progress.txt")));
}

static void test_old_progress_that_is_a_fifo_is_not_waited_on(void **state)
{
    progress_test_dir *f = *state;
    assert_int_equal(mkfifo(progress_test_path(f, "progress.txt"), 0600), 0);
    progress *p = progress_test_open_expecting(f, "cannot be imported (not a regular file)");
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
    p = progress_test_open_expecting(f, "imported 5 records");
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
    progress *p = progress_test_open_expecting(f, "imported 60000 records");
    assert_int_equal(progress_collection_level(p, "/levels/c39999.xsb"), 39999 % 50 + 1);
    assert_non_null(progress_get(p, 1));
    assert_non_null(progress_get(p, 20000));
    progress_close(p);
}

#define WITH_DIRECTORY(test)                                                                       \
    cmocka_unit_test_setup_teardown(test, progress_test_make_dir, progress_test_remove_dir)

int main(void)
{
    const struct CMUnitTest tests[] = {
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
