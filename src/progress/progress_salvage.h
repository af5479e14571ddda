/* progress_salvage.h - what can be read of a damaged progress database, copied row by row
 * into a new one.
 *
 * The damaged file is read through a connection of its own (read only, a link never
 * followed), table by table of ours (never a view: reading one would run what the file
 * says), each column by its name (quoted: a name is the file's text, never SQL), so that a
 * table with a column dropped, renamed or added still gives its rows. A row the schema
 * refuses is tried again with its refused values replaced by their column's default. A
 * file of an older schema is copied into a database of that schema (in memory, or over the
 * caller's `memory_max` on disk beside it, made only with four times the file's size free
 * there: progress_salvage.c, SCRATCH_ROOM) and brought up to ours by the migrations first,
 * so that what the older schema meant is carried over as they carry it; where they cannot
 * (or the disk has not that room), it is copied as it is. */
#ifndef SOKOBAN_PROGRESS_SALVAGE_H
#define SOKOBAN_PROGRESS_SALVAGE_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "progress_options.h"

/* Copies what can be read of the database at `aside` into `db`, in one transaction, foreign
 * keys off while copying, then gives what was copied its level rows
 * (progress_schema_mend). A row of a key `db` already has (a repair finished late, merged
 * with what was played since) keeps the newer row's columns, but a level solved stays
 * solved, the time played is the sum, a best stays the better of the two and a collection
 * keeps its last time played. The rows copied, or -1 when the copy could not be made or
 * committed (nothing of it is then in `db`; `note` gets SQLite's reason: a full disk), or
 * PROGRESS_SALVAGE_BUSY when another game held the write lock of `db` past its busy timeout
 * (nothing copied: that game may be finishing the same repair). That the rows of `aside` (its name, device and
 * inode) were copied is recorded in `db` (merged_repair) in the same transaction, so that a
 * game killed before the file is marked repaired never has it copied twice (a level's time
 * played would be doubled): progress_salvage_merged. An older schema's database over
 * options->memory_max bytes (0: PROGRESS_MEMORY_MAX) is migrated on disk (progress_salvage_from). `note` (when not NULL) gets what
 * the copy could not do and the player should know, "" when nothing: an older schema copied as it
 * is because the folder has not four times the file's size free for its migration. */
long progress_salvage(sqlite3 *db, const char *aside, const progress_options *options, char *note,
                      size_t note_size);

/* progress_salvage's result when another game held the write lock of `db`. */
#define PROGRESS_SALVAGE_BUSY (-2)

/* True when `db` records that the rows of the file at `aside` were copied into it by
 * progress_salvage (what is left is to mark it repaired). */
bool progress_salvage_merged(sqlite3 *db, const char *aside);

/* False, with `why` ("copying it needs N MiB free beside it, and M MiB are free"), when the
 * folder of the file set aside at `aside` has less than twice its `bytes` free
 * (progress_salvage_free_beside), what progress_salvage's copy into the database beside it
 * needs (its -wal, then its checkpoint); true when it has them or it cannot be told. */
bool progress_salvage_room_to_copy(const char *aside, long long bytes,
                                   const progress_options *options, char *why, size_t why_size);

/* progress_salvage from a connection already open on the damaged or read-only database
 * (`old`, left open: the caller closes it). `scratch` (NULL: none) is where a database over
 * options->memory_max bytes is migrated on disk (when its folder has four times its size free),
 * removed after; without one such a database is copied as it is. */
long progress_salvage_from(sqlite3 *db, sqlite3 *old, const char *scratch,
                           const progress_options *options);

/* The bytes free for this process in the folder of `path` (options->free_bytes, else
 * statvfs), -1 when it cannot be told. */
long long progress_salvage_free_beside(const char *path, const progress_options *options);

/* progress_salvage's scratch database, ASIDE-migrating: a file of the copy, never a
 * database set aside of its own. */
#define PROGRESS_SALVAGE_SCRATCH "-migrating"

/* The size of the database `db` reads (its pages, through its -wal), in bytes; 0 when it
 * cannot be asked. */
long long progress_salvage_bytes(sqlite3 *db);

#endif
