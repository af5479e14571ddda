/* progress_schema.h - the tables of the progress database and their migrations.
 *
 * The schema has a version, SQLite's `PRAGMA user_version`: 0 is an empty database, 1 the
 * first schema (levels, bests, collections: what progress.txt held), 2 adds what the player's
 * side needs (assisted solves, redo steps, time played, snapshots, imported solutions). A
 * database is brought up to PROGRESS_SCHEMA_VERSION one migration at a time, all in one
 * transaction; migrations only add tables and columns, so an older database's rows copy into
 * a newer one column by column (progress_db.c's salvage relies on that). */
#ifndef SOKOBAN_PROGRESS_SCHEMA_H
#define SOKOBAN_PROGRESS_SCHEMA_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

enum { PROGRESS_SCHEMA_VERSION = 3 };

typedef enum progress_schema_status {
    PROGRESS_SCHEMA_OK,
    PROGRESS_SCHEMA_NEWER,   /* written by a newer sokoban: left alone */
    PROGRESS_SCHEMA_FOREIGN, /* another program's database (tables, no version): left alone */
    PROGRESS_SCHEMA_ERROR, /* SQLite's error: sqlite3_errmsg */
} progress_schema_status;

/* Brings the database up to PROGRESS_SCHEMA_VERSION (creating it from version 0), in one
 * transaction. `found` (may be NULL) gets the version the database had; on
 * PROGRESS_SCHEMA_ERROR `error` gets SQLite's message. */
progress_schema_status progress_schema_upgrade(sqlite3 *db, int *found, char *error,
                                               size_t error_size);

/* Runs migrations 1..`version` only: a database as that version of sokoban made it (for the
 * migration tests). */
progress_schema_status progress_schema_create_version(sqlite3 *db, int version);

/* The tables, NULL-terminated, in the order a copy should fill them. */
extern const char *const progress_schema_tables[];

#endif
