/* progress_db.h - the progress database as a file: opening it without trusting what lies at
 * its path, and setting a damaged one aside.
 *
 * Only a regular file that is an SQLite database (or is missing, or empty) is opened; a
 * symbolic link (the database or its -wal/-shm files: links among the folders on the way, a
 * linked home or XDG_DATA_HOME, are the user's and followed), anything not a regular file,
 * a file that is not a database, another program's database and one a newer sokoban wrote are
 * refused and never written. A database that fails `PRAGMA quick_check` is renamed aside
 * (FILE.corrupt-YYYYMMDD-HHMMSS, with its -wal file; only a regular file is renamed, never
 * replacing another) and what can be read of it is copied, row by row, into a new one. */
#ifndef SOKOBAN_PROGRESS_DB_H
#define SOKOBAN_PROGRESS_DB_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

/* How long a statement waits for another game's lock before it gives up (it is tried again
 * later), and how long opening (and the last save at exit) waits. */
enum { PROGRESS_BUSY_MS = 100, PROGRESS_OPEN_BUSY_MS = 2000 };

/* Opens `file` (creating it and `directory` when missing) and brings its schema up to date.
 * Returns NULL when it is refused or cannot be opened, with one line in `message` saying why
 * (SQLite's reason when SQLite refuses) and that progress is not saved. A damaged database set aside is also told in `message`
 * (the connection is then to the new database). */
sqlite3 *progress_db_open(const char *directory, const char *file, char *message,
                          size_t message_size);

/* A database in memory with the schema, for a progress that is not saved. NULL when out of
 * memory. */
sqlite3 *progress_db_open_memory(void);

/* Renames `file` aside to FILE.SUFFIX-YYYYMMDD-HHMMSS (or with -2, -3... when taken), never
 * replacing a file; returns the new name (malloc'd) or NULL with errno set. */
char *progress_db_set_aside(const char *file, const char *suffix);

/* Renames `from` to `to` unless `to` exists (then fails with EEXIST), in one step. 0 or -1
 * with errno. */
int progress_db_rename_new(const char *from, const char *to);

#endif
