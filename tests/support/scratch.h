/* scratch.h - scratch folders for the tests: each fresh, on tmpfs when there is one (the
 * progress database syncs at every commit: milliseconds each on a disk, nothing on tmpfs,
 * and what the tests check of files, modes and locks is the same there), and removed with
 * everything in it, its modes given back first. A folder a failing test did not remove goes
 * at exit, and on SIGTERM or SIGINT (meson's timeout stops a test with SIGTERM). */
#ifndef SOKOBAN_TESTS_SCRATCH_H
#define SOKOBAN_TESTS_SCRATCH_H

/* A fresh folder named NAME.XXXXXX (mkdtemp) under /dev/shm, or /tmp without it; the path
 * is the caller's to pass to scratch_remove. Fails the test when none can be made. */
char *scratch_make(const char *name);

/* Writes `text` to FOLDER/NAME, failing the test when it cannot. */
void scratch_write(const char *folder, const char *name, const char *text);

/* Removes the folder and what it holds, and frees the path. */
void scratch_remove(char *folder);

#endif
