/* progress_test.c - what the progress tests share (progress_test.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progress_test.h"
#include "scratch.h"

int progress_test_make_dir(void **state)
{
    progress_test_dir *f = calloc(1, sizeof *f);
    assert_non_null(f);
    char *folder = scratch_make("test_progress");
    assert_true(strlen(folder) < sizeof f->directory);
    strcpy(f->directory, folder);
    free(folder);
    *state = f;
    return 0;
}

int progress_test_remove_dir(void **state)
{
    progress_test_dir *f = *state;
    char *folder = strdup(f->directory);
    assert_non_null(folder);
    scratch_remove(folder);
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

char *progress_test_long_lurd(size_t length)
{
    char *lurd = malloc(length + 1);
    assert_non_null(lurd);
    memset(lurd, 'l', length);
    lurd[length] = '\0';
    return lurd;
}
