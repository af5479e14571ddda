/* progress_db.h - the progress database as a file: opening it without trusting what lies at
 * its path, and setting a damaged one aside.
 *
 * Only a regular file that is an SQLite database (or is missing, or empty) is opened; a
 * symbolic link (the database or its -wal, -shm, -journal files: links among the folders on
 * the way, a linked home or XDG_DATA_HOME, are the user's and followed), a -wal, -shm or
 * -journal file with another name (a hard link), a database with another name that holds no
 * page (one with pages is ours under either name: a `cp -al` backup), anything not a regular
 * file,
 * a file that is not a database, another program's database and one a newer sokoban wrote are
 * refused and never written. A database that fails `PRAGMA quick_check`, lacks something
 * of our schema (progress_schema_intact) or is of an older schema whose migration fails for
 * what it holds (a table of its version dropped by hand) is renamed aside
 * (FILE.repairing-YYYYMMDD-HHMMSS, with its -wal file; only a regular file is renamed, never
 * replacing another), what can be read of it is copied, row by row (an older schema's
 * through the migrations), into a new one in one transaction, and then it is renamed
 * FILE.corrupt-YYYYMMDD-HHMMSS. A repair cut short (the
 * game killed before the copy's commit) is finished by the next game that opens the
 * database, from the FILE.repairing-* it finds.
 *
 * A database this process cannot write (a read-only file, an existing -wal or -shm it cannot
 * write, a read-only folder where SQLite would have to make a missing -wal or -shm, a
 * read-only file system) is read into a database in memory and shown, never written: read
 * immutable when no -wal or -journal lies beside it (a read-only open would make a -shm and
 * a -wal of the file's mode there, read only, failing every write of a later game), else
 * through its -wal; one over progress_options' memory_max (64 MiB) is refused, as is a -wal
 * without its -shm in a read-only folder (SQLite cannot read it). */
#ifndef SOKOBAN_PROGRESS_DB_H
#define SOKOBAN_PROGRESS_DB_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "progress_options.h"

/* How long a statement waits for another game's lock before it gives up (it is tried again
 * later), and how long opening (and the last save at exit) waits. */
enum { PROGRESS_BUSY_MS = 100, PROGRESS_OPEN_BUSY_MS = 2000 };

/* Opens `file` (creating it and `directory` when missing) and brings its schema up to date.
 * Returns NULL when it is refused or cannot be opened, with one line in `message` saying why
 * (SQLite's reason when SQLite refuses) and that progress is not saved. A damaged database set
 * aside, or a repair cut short finished, is also told in `message` (the connection is then
 * to the new database); one whose rows cannot be copied into the new database now (the
 * folder has not twice its size free, or the copy fails: a full disk) is left for the next
 * start, the connection to the new database (saved; the rows set aside not shown until
 * then), `message` saying so. A database whose opening the disk has no room for (a full
 * disk, an I/O error), or a damaged one whose new database it has no room for, is read into
 * memory, `*read_only` set, as below: what it holds shown and not saved. A
 * database this process cannot write (a read-only file, folder or
 * file system) is never opened for writing: the connection is to a database in memory
 * holding a copy of what it holds (brought up to our schema, nothing written to the file),
 * `*read_only` is set, and `message` says that the progress saved is shown but this
 * session's play is not saved; a repair cut short beside it is read into the copy too, and
 * left for a game that can write to finish. `options` (NULL: the defaults) says how large a
 * database may be held in memory, and whom to tell before a step that takes long
 * (progress_options.h). */
/* How the message of a database that cannot be written ends ("progress: FILE cannot be
 * written (WHY)" before it): what is said once, at the start; the line at the exit says only
 * what comes before (progress.c). */
#define PROGRESS_DB_SHOWN                                                                          \
    ": the progress saved in it is shown, but this session's play is not saved"

/* The room a message of opening wants: each thing told (a -wal set aside, each repair
 * finished or left) is in it, "; " between, each naming a file or two. */
enum { PROGRESS_DB_MESSAGE_SIZE = 4096 };

sqlite3 *progress_db_open(const char *directory, const char *file, const progress_options *options,
                          bool *read_only, char *message, size_t message_size);

/* Adds one thing told to `message`: after "progress: " when it is empty, else after "; " (a
 * line of opening says each thing it has to tell, none written over another). `format` has
 * no "progress: " of its own. What `size` cannot hold is left out, the line ending in "...". */
void progress_db_tell_also(char *message, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* True when this process cannot write the database at `file` (which exists) or the files
 * SQLite keeps beside it: a read-only file, an existing -wal or -shm it cannot write (one
 * left read only beside a read-only file would fail every write of a later game), or,
 * when SQLite would have to make the -wal or the -shm, a read-only folder; a read-only file
 * system either way. Asked of the effective user and its capabilities (AT_EACCESS), as
 * SQLite's writes would be, of the files alone (nothing opened or read); the reason in
 * `why` ("Permission denied", "its folder: Read-only file system"). progress_db_read.c. */
bool progress_db_cannot_write(const char *file, char *why, size_t why_size);

/* Which file a path names: its device and inode (st_dev, st_ino). */
typedef struct progress_db_identity {
    bool known;
    dev_t device;
    ino_t inode;
} progress_db_identity;

/* The identity of the file now at the path of the connection's database (known false when
 * nothing is there). */
progress_db_identity progress_db_identify(sqlite3 *db);

/* True when the connection's path still names the file `identity` (taken when it was
 * opened): false once another game has set it aside (renamed it) or anything replaced or
 * removed it. Call it holding the write lock (after BEGIN IMMEDIATE): another game sets a
 * database aside only holding that lock, so the answer holds until the commit. */
bool progress_db_same_file(sqlite3 *db, const progress_db_identity *identity);

/* Closes a connection whose file may have been set aside or replaced: without the
 * checkpoint and the removal of FILE-wal that closing the last connection does, since that
 * name may now be the WAL of the database at its place. */
void progress_db_close_stale(sqlite3 *db);

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
