/* progress_wal.h - the write-ahead log beside a progress database (FILE-wal): whose it is.
 *
 * SQLite ties nothing between a -wal and its database: another database's -wal left beside
 * ours (a copy or a restore of files) is read as ours, its pages over ours, and the first
 * checkpoint writes them into the file: our rows are gone. So each database of ours (schema
 * 7 on) holds a random id (the table identity), written into the file itself when it is
 * made or migrated (a checkpoint right after), and every commit of ours writes the id's row
 * (a count it raises: progress_schema_stamp), so that the id's page is in every -wal of ours.
 * A -wal beside the file is its own when the file read alone (immutable: SQLite then never
 * looks at the -wal) and read through the -wal give the same id, and through the -wal a
 * count at least the file's (a checkpoint copies the -wal's pages into the file, never
 * more): the -wal of a copy of the database, played apart since, with fewer commits than
 * the file, is not its own (with as many or more, it cannot be told). Nor is a -wal whose
 * first commit of ours (read from its frames: the identity row's page) says the file held
 * more commits when the -wal began than it holds now: an older copy of the file was put in
 * its place (a backup restored beside the -wal of a game killed), and SQLite would read the
 * -wal's pages over the copy's, a mix of the two. (SQLite's own checks tie a -wal only to
 * itself: the salts of its header are in every frame and each frame's checksum runs on
 * from the one before, so a torn or stale -wal is cut short, never one of another file
 * refused: walformat.html.) When the file alone
 * has no id (an older schema's, or made by a game killed before the checkpoint), nothing
 * can be told and the -wal is taken as SQLite takes it. A -shm from elsewhere needs nothing:
 * the first connection to open the database rebuilds it from the -wal. A -journal beside a
 * file in WAL mode (all of ours) is never its own: SQLite writes none in WAL mode, but
 * plays one it finds back into the file at the first read (another database's pages over
 * ours), so it is set aside too. */
#ifndef SOKOBAN_PROGRESS_WAL_H
#define SOKOBAN_PROGRESS_WAL_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "progress_schema.h"

/* The name a -wal or -journal not of its database is set aside as:
 * FILE-wal.foreign-YYYYMMDD-HHMMSS, FILE-journal.foreign-YYYYMMDD-HHMMSS. */
#define PROGRESS_WAL_FOREIGN "foreign"

/* Before a database that can be written is opened: sets a -journal beside `file` in WAL
 * mode aside (told in `message`); then when a -wal lies beside `file` that is
 * not its own (another database's id, or none, read through it; or it reads as damaged
 * through it while the file alone has an id), sets the -wal aside
 * (PROGRESS_WAL_FOREIGN), holding the database's write lock, and tells so in `message`
 * (the -wal named, its new name, and that the file's own progress is used). False, with
 * `message` saying both are left alone and progress is not saved, when it cannot be set
 * aside (or another game holds the write lock); true otherwise. */
bool progress_wal_check(const char *file, char *message, size_t message_size);

/* True when a -wal or -journal beside `file` is known not to be its own (as
 * progress_wal_check tells, without a lock and without setting anything aside): for a
 * database read only, then read alone (immutable). */
bool progress_wal_is_foreign(const char *file);

/* True when `file` has a -wal beside it with something in it, and the file read without
 * it is not `status`: a -wal that is not its own makes it read as another program's, and
 * the message must name the -wal. */
bool progress_wal_is_the_cause(const char *file, progress_schema_status status);

/* A connection reading `file` alone (immutable: read only, no -wal, -shm or lock looked at
 * or made, a link never followed), NULL when it cannot be had. */
sqlite3 *progress_wal_open_alone(const char *file);

#endif
