/* progress_test.h - what the progress tests share: a scratch directory per test, paths in it,
 * levels parsed from inline text, opening a progress that must have nothing to say. */
#ifndef SOKOBAN_TESTS_PROGRESS_TEST_H
#define SOKOBAN_TESTS_PROGRESS_TEST_H

#include <stddef.h>

#include "level/level.h"
#include "progress/progress.h"

typedef struct progress_test_dir {
    char directory[64];
} progress_test_dir;

/* cmocka set-up and tear-down: a fresh scratch directory (scratch.h) as the state, removed
 * after. */
int progress_test_make_dir(void **state);
int progress_test_remove_dir(void **state);

/* DIRECTORY/NAME, in a static buffer (valid until the next call). */
const char *progress_test_path(const progress_test_dir *f, const char *name);

/* Parses inline XSB text into `holder` (free with collection_free). */
void progress_test_parse(const char *text, collection *holder);

/* Opens the progress of the directory; it must have no message. */
progress *progress_test_open(const progress_test_dir *f);

/* `length` letters 'l' (malloc'd): a change of 2,000 is bigger than any page, and must grow
 * the files. */
char *progress_test_long_lurd(size_t length);

/* Writes `text` to the file. */
void progress_test_write(const char *path, const char *text);

#endif
