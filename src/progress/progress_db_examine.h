/* progress_db_examine.h - what lies at the progress database's path and beside it, looked
 * at without trusting it: a link, a hard link, a FIFO, a file that is not a database are
 * refused before SQLite opens (and writes) anything. A part of the progress_db module, not for
 * other modules. */
#ifndef SOKOBAN_PROGRESS_DB_EXAMINE_H
#define SOKOBAN_PROGRESS_DB_EXAMINE_H

#include <stdbool.h>
#include <stddef.h>

enum { PROGRESS_DB_SCRATCH_NAMES = 4 };

/* A database's own name and the names of the files SQLite keeps beside it, and opens and
 * writes even to read it: FILE, FILE-wal, FILE-shm, FILE-journal. */
extern const char *const progress_db_with_scratch[PROGRESS_DB_SCRATCH_NAMES];

/* Refuses what is not ours at `file` (and beside it, the -wal, -shm and -journal files
 * SQLite would open and write, even to read it): true with `message` set ("..., so it is
 * left alone and " `so`) when it must be left alone. A file that is not a database is
 * refused only when it `must_be_database` (a damaged file set aside is read for what it
 * still holds, if anything). A scratch file
 * with another name (a hard link) is refused as a symbolic link is: SQLite writes a -wal
 * or -shm it finds from its start, and through a hard link that is a file elsewhere (one
 * to a text file beside the folder was overwritten with the WAL's frames); so is a file
 * with another name that is not a database with pages (examine()). */
bool progress_db_refuse(const char *file, bool must_be_database, const char *so, char *message,
                        size_t message_size);

#endif
