/* progress_db_read.h - a progress database this process cannot write: telling so, and
 * reading it without writing anything beside it. A part of the progress_db module, not for
 * other modules (progress_db.c opens the database and says what is shown). */
#ifndef SOKOBAN_PROGRESS_DB_READ_H
#define SOKOBAN_PROGRESS_DB_READ_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

/* A connection that reads `file` and writes nothing there: immutable (no -wal, -shm or
 * lock looked at or made) when no -wal or -journal lies beside it (the file then holds every
 * commit) or its -wal is another database's; else read only, through its -wal (which makes
 * the -shm when none is there and the folder can hold it). A read-only open of a file with
 * nothing beside it would make a -shm and a -wal of the file's mode, read only beside a
 * read-only file, and every write of a later game that can write the file would fail. NULL
 * when it cannot be read. */
sqlite3 *progress_db_open_reading(const char *file);

/* True when a -wal lies beside `file` and no -shm: SQLite reads the -wal only through a
 * -shm, and makes one when the folder lets it. */
bool progress_db_has_wal_only(const char *file);

/* `file` with `suffix` appended, malloc'd (NULL when out of memory). */
char *progress_db_with_suffix(const char *file, const char *suffix);

#endif
