/* progress_schema.h - the tables of the progress database and their migrations.
 *
 * The schema has a version, SQLite's `PRAGMA user_version`: 0 is an empty database, 1 the
 * first schema (levels, bests, collections: what progress.txt held), 2 adds what the player's
 * side needs (assisted solves, redo steps, time played, snapshots, imported solutions), 3 the
 * help in an unfinished game, 4 constraints (lookup tables for a best's kind and origin,
 * foreign keys to the level, flags and counts checked), collection.played as a time, and
 * the files whose solutions were imported, 5 the optimizer's origin, 6 the steps of an
 * unfinished game and of a snapshot played as one move, 7 which database it is (a random
 * id) and the repairs whose rows were copied. A database is brought up to
 * PROGRESS_SCHEMA_VERSION one migration at a time, all in one transaction, with foreign keys
 * off (a migration rebuilds tables); every connection turns them on afterwards
 * (progress_schema_upgrade). Columns are only added or kept under their names, so an older
 * database's rows copy into a newer one column by column (progress_salvage.c relies on
 * that; a value the constraints refuse takes its column's default, and a row still refused
 * is not copied). */
#ifndef SOKOBAN_PROGRESS_SCHEMA_H
#define SOKOBAN_PROGRESS_SCHEMA_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

enum { PROGRESS_SCHEMA_VERSION = 7 };

typedef enum progress_schema_status {
    PROGRESS_SCHEMA_OK,
    PROGRESS_SCHEMA_NEWER, /* written by a newer sokoban: left alone */
    /* another program's database (tables and no version, a negative version, or a view or
     * a trigger): left alone */
    PROGRESS_SCHEMA_FOREIGN,
    PROGRESS_SCHEMA_ERROR, /* SQLite's error: sqlite3_errmsg */
    /* an older version whose migration SQLite refused for what the file holds (a table or
     * column of that version dropped or altered by hand, a value a constraint refuses):
     * nothing was changed, and the file is damaged (the caller salvages it) */
    PROGRESS_SCHEMA_DAMAGED,
} progress_schema_status;

/* Brings the database up to PROGRESS_SCHEMA_VERSION (creating it from version 0), in one
 * transaction, then turns foreign keys on for the connection. `found` (may be NULL) gets
 * the version the database had; on PROGRESS_SCHEMA_ERROR and PROGRESS_SCHEMA_DAMAGED `error`
 * gets SQLite's message. */
progress_schema_status progress_schema_upgrade(sqlite3 *db, int *found, char *error,
                                               size_t error_size);

/* Deletes the bests, snapshots and imported solutions whose level key is not an integer
 * (text written by hand: no level has one, and giving it a level row, as migration 4 and
 * progress_schema_mend do, fails with "datatype mismatch"), in those of the three tables
 * `db` has. */
void progress_schema_drop_unkeyed(sqlite3 *db);

/* What the database is, read without writing anything: PROGRESS_SCHEMA_NEWER,
 * PROGRESS_SCHEMA_FOREIGN, or PROGRESS_SCHEMA_OK (ours of any version up to ours, or empty;
 * also when it cannot tell, a lock held: the migration looks again). `found` (may be NULL)
 * gets the version. For refusing a file before the connection writes to it (its journal
 * mode). */
progress_schema_status progress_schema_look(sqlite3 *db, int *found);

/* After rows were copied in with foreign keys off (a salvage): drops what has no integer
 * key (progress_schema_drop_unkeyed), gives every best, snapshot
 * and imported solution without its level a level row, makes a best of an unknown origin
 * imported and drops one of an unknown kind, as migration 4 does. SQLITE_OK or the error. */
int progress_schema_mend(sqlite3 *db);

/* True unless `db` (at PROGRESS_SCHEMA_VERSION) lacks something of what a new database
 * gets: each table of ours, its columns as the schema makes them (name, type, NOT NULL,
 * default, place in the key), the rows a new one starts with (the lookup tables'), and
 * nothing more: each table's statement as ours (no CHECK, COLLATE or key of its own) and
 * no index but ours. A table dropped or altered, or an index added, by hand would make
 * saves fail ("no such table", "UNIQUE constraint failed"), so the
 * caller treats the file as damaged. What differs ("its table best is missing") goes to
 * `what` (may be NULL; "" when intact). True also when it cannot tell (out of memory): a
 * sound database is never set aside for that. */
bool progress_schema_intact(sqlite3 *db, char *what, size_t what_size);

/* The schema version the tables of `db` show, whatever its `PRAGMA user_version` says (a
 * version set down or up by hand): the latest of which it has something, 7 the identity
 * table or merged_repair, 6 a column of move groups, 5 the optimized origin, 4 a lookup
 * table or imported_file, 3 a help mark, 2 the player's side (level.assisted, snapshot,
 * imported, best.origin), else 1; 0 when it cannot tell (out of memory, a lock). A
 * database whose PRAGMA user_version is above it (set up by hand) is damaged:
 * progress_schema_upgrade says PROGRESS_SCHEMA_DAMAGED, writing nothing. */
int progress_schema_shown(sqlite3 *db);

/* Raises the commit count of the identity row (schema 7) in the transaction open on `db`,
 * so that the commit writes the page of the database's id, and so into its -wal
 * (progress_wal.h): every commit of ours calls it. SQLite's result (an error where the
 * table is missing). */
int progress_schema_stamp(sqlite3 *db);

/* Runs migrations 1..`version` only: a database as that version of sokoban made it (for the
 * migration tests). */
progress_schema_status progress_schema_create_version(sqlite3 *db, int version);

/* The tables, NULL-terminated, in the order a copy should fill them. */
extern const char *const progress_schema_tables[];

#endif
