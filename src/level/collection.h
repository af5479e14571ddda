/* collection.h - where collections come from: a file, a folder, standard input, a group of
 * one-level files, the collections installed on the system.
 *
 * level.h reads one file; this module turns what the player names into collections:
 *   FILE           a collection file (XSB or SOK)
 *   FILE:N         the same, starting at level N
 *   DIRECTORY      one collection of every level file in it (.sok, .xsb, .txt), in natural
 *                  name order (level2 before level10)
 *   -              a collection read from standard input
 * Files named NAME_NNNN.sok (or NAMENNNN.sok), as Debian's cavepacker-data ships one level a
 * file, given one after the other, group into one collection NAME. A collection keeps the
 * path as the player typed it. */
#ifndef SOKOBAN_COLLECTION_H
#define SOKOBAN_COLLECTION_H

#include <stdbool.h>

#include "level.h"

/* Compares two names as a person sorts them: runs of digits by their value. */
int collection_natural_compare(const char *a, const char *b);

/* Splits "FILE:N" into the file and the level number when FILE:N itself names no file and
 * N is a whole number from 1; returns N and writes FILE (to free()) into *file, or 0 (and
 * *file NULL) when the argument is no such thing. -1 when out of memory;
 * COLLECTION_LEVEL_ZERO or COLLECTION_LEVEL_TOO_LARGE (and *file NULL) for "FILE:0" or a
 * number past COLLECTION_MAX_LEVEL_NUMBER ("FILE:99999999999"), level numbers that cannot
 * be (--level's bounds too). */
enum { COLLECTION_LEVEL_ZERO = -2, COLLECTION_LEVEL_TOO_LARGE = -3 };
enum { COLLECTION_MAX_LEVEL_NUMBER = 1000000 };
int collection_split_level(const char *argument, char **file);

/* The message of collection_split_level's COLLECTION_LEVEL_ZERO or _TOO_LARGE for `argument`
 * ("FILE:0: no level 0 (levels are numbered from 1)"), into error->message. */
void collection_split_level_error(const char *argument, int number, level_error *error);

/* Reads the collection `argument` names (a file, a directory or "-"; not FILE:N). False
 * with the reason in `error` when it cannot be read or holds no level. */
bool collection_open(const char *argument, collection *out, level_error *error);

/* The grouping key of a one-level file: "microban01" for ".../microban01_0012.sok", written
 * into `key` (size `size`); false when the name does not end in digits before its
 * extension. */
bool collection_group_key(const char *path, char *key, size_t size);

/* The files of the group `path` belongs to (NAME_NNNN.sok: every NAME_*.sok beside it), in
 * natural order, as paths to free() in an array to free(): their count; 0 when `path` is no
 * such file, -1 when the folder cannot be read. */
int collection_group_files(const char *path, char ***files);

/* Appends the levels of `from` to `into` (numbered on), leaving `from` empty. False when
 * out of memory (both unchanged). */
bool collection_append(collection *into, collection *from);

/* Reads the collections the arguments name, grouping neighbouring one-level files of one
 * name; *levels[i] is the level number FILE:N gave the i-th collection (0 for none). On
 * failure prints nothing, fills `error` and frees what it read. */
bool collection_open_all(const char *const *arguments, int count, collection **out, int **levels,
                         int *out_count, level_error *error);

#endif
