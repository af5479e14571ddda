/* progress_legacy.h - importing the progress.txt of earlier versions into the database.
 *
 * The old file is text: a header line, then one record a line, each with an FNV-1a checksum
 * of the rest of the line in 8 hex digits:
 *
 *   sokoban-progress 1
 *   SUM last LEVEL PATH
 *   SUM collection LEVEL PATH
 *   SUM level KEY SOLVED MOVES PUSHES LURD MOVES PUSHES LURD UNFINISHED
 *
 * PATH is percent-encoded; KEY 16 hex digits; a LURD field "-" for none and "=" for empty.
 * Every line whose checksum matches and that parses is taken, whatever the header says (a
 * damaged header hides nothing); the others are counted and skipped. The import is one
 * transaction, linear in the file's size; what the database already holds wins, but for a
 * better best, and the bests come in unchecked (replayed when the level is next read). */
#ifndef SOKOBAN_PROGRESS_LEGACY_H
#define SOKOBAN_PROGRESS_LEGACY_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct progress_legacy_counts {
    long records; /* lines taken */
    long damaged; /* lines skipped (the header included when it is damaged) */
} progress_legacy_counts;

/* Reads the records of `in` into the database in one transaction. Returns false (the
 * transaction rolled back) on a read error, out of memory or a database error, with
 * `error` saying which. */
bool progress_legacy_read(sqlite3 *db, FILE *in, progress_legacy_counts *counts, char *error,
                          size_t error_size);

/* Imports DIRECTORY/progress.txt when there is one: reads it into the database and renames
 * it to progress.txt.imported (progress.txt.imported-YYYYMMDD-HHMMSS when that is taken). A
 * progress.txt that is a symbolic link (never followed), not a regular file or larger than
 * 64 MiB is left alone and told. Returns false when there was
 * nothing to import; else true with one line for the player in `message` (what was
 * imported, or why not). */
bool progress_legacy_import(sqlite3 *db, const char *directory, char *message,
                            size_t message_size);

#endif
