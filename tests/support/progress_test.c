/* progress_test.c - what the progress tests share (progress_test.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "progress_test.h"

int progress_test_make_dir(void **state)
{
    progress_test_dir *f = calloc(1, sizeof *f);
    assert_non_null(f);
    /* On tmpfs when there is one: the tests sync the database hundreds of times, and what
     * they check (files, locks, modes, what a killed process leaves) is the same there. */
    strcpy(f->directory, access("/dev/shm", W_OK) == 0 ? "/dev/shm/test_progress.XXXXXX"
                                                       : "/tmp/test_progress.XXXXXX");
    assert_non_null(mkdtemp(f->directory));
    *state = f;
    return 0;
}

int progress_test_remove_dir(void **state)
{
    progress_test_dir *f = *state;
    char command[256];
    snprintf(command, sizeof command, "chmod -R u+rwx '%s'; rm -rf '%s'", f->directory,
             f->directory);
    assert_int_equal(system(command), 0);
    free(f);
    return 0;
}

const char *progress_test_path(const progress_test_dir *f, const char *name)
{
    static char path[512];
    assert_true(strlen(f->directory) + 1 + strlen(name) < sizeof path);
    snprintf(path, sizeof path, "%s/%s", f->directory, name);
    return path;
}

void progress_test_parse(const char *text, collection *holder)
{
    level_error error;
    assert_true(collection_parse(text, strlen(text), "test", holder, &error));
}

progress *progress_test_open(const progress_test_dir *f)
{
    char message[1024];
    progress *p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    assert_string_equal(message, "");
    return p;
}

void progress_test_write(const char *path, const char *text)
{
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fputs(text, out);
    assert_int_equal(fclose(out), 0);
}
