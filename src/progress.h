/* progress.h - saved progress: solved levels, best solutions, where the player left off.
 *
 * Everything lives in one text file, `progress.txt`, in $XDG_DATA_HOME/sokoban (by default
 * ~/.local/share/sokoban). A level is known by a key computed from its map, not by its file
 * or number, so a level that is edited (or moved to another collection) is a different level
 * (or the same one). For each level the file keeps: solved or not, the best solution by
 * moves (fewest moves, then fewest pushes), the best by pushes (fewest pushes, then fewest
 * moves) and the moves of an unfinished game; and for each collection the level last
 * played, plus the collection played last.
 *
 * The file is written whole to a temporary file in the same directory, synced and renamed over
 * the old one, so a crash leaves either the old or the new file. Just before, what the file
 * holds is read again and merged in (levels, better solutions; and where this game changed
 * nothing since it last read or wrote the file, the file's unfinished games and last levels),
 * so two games running at once do not lose or undo each other's records; reading, merging and
 * renaming happen under an exclusive flock() of `progress.lock` beside the file
 * (progress_open() also removes, under it, temporary files over an hour old, left by a save
 * that never finished). Each record is one line with its own checksum: a damaged line (or one
 * over 1 MiB) loses only itself. A file that cannot be read as a progress file at all, or that
 * has damaged lines, is renamed aside (progress.txt.corrupt-
 * YYYYMMDD-HHMMSS) and reported once through the message of progress_open(); the records that
 * could be read are kept and written back at once. The module never ends the program: every
 * problem becomes a message for the game to show. Knows nothing of the terminal. */
#ifndef SOKOBAN_PROGRESS_H
#define SOKOBAN_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "level.h"

typedef uint64_t progress_key;

/* The key of a level: a 64-bit FNV-1a hash of its size and its map (walls, floor, goals,
 * boxes and player), so any edit of the map gives another key; titles and comments do not
 * count. */
progress_key progress_level_key(const level *level);

typedef struct progress_solution {
    char *lurd; /* NULL when there is none */
    int moves;
    int pushes;
} progress_solution;

typedef struct progress_record {
    progress_key key;
    bool solved;
    progress_solution best_moves;  /* fewest moves, then fewest pushes */
    progress_solution best_pushes; /* fewest pushes, then fewest moves */
    char *unfinished;              /* the moves of an unfinished game (LURD), or NULL */
} progress_record;

typedef struct progress progress; /* opaque */

/* Reads the progress file of `directory` (NULL: $XDG_DATA_HOME/sokoban, or
 * ~/.local/share/sokoban when XDG_DATA_HOME is unset, empty or relative). A missing file is an
 * empty progress. Returns NULL only when out of memory. When something must be told to the
 * player (a damaged file set aside, a file that cannot be read and so will not be written
 * over, no home directory), writes one line into `message`, else makes it "". */
progress *progress_open(const char *directory, char *message, size_t message_size);

/* Frees the progress without saving it. NULL is allowed. */
void progress_close(progress *progress);

/* The file the progress is read from and written to. */
const char *progress_file(const progress *progress);

/* The record of a level, or NULL when nothing is known of it. Valid until the next change. */
const progress_record *progress_get(const progress *progress, progress_key key);

/* Records a solution of the level: marks it solved, keeps the solution as the best by moves
 * and/or by pushes when it beats the one kept, and forgets the unfinished game. `lurd` holds
 * only l, u, r, d (either case) and digits, at most 256 KiB of them. Returns true when the
 * solution became a best (the first solution always does); false when it did not, or `lurd`
 * is not LURD text, or memory ran out. */
bool progress_record_solution(progress *progress, progress_key key, const char *lurd, int moves,
                              int pushes);

/* Keeps the moves of an unfinished game of the level; NULL or "" forgets them. Returns false
 * when `lurd` is not LURD text (or longer than 256 KiB) or memory ran out. */
bool progress_set_unfinished(progress *progress, progress_key key, const char *lurd);

/* Remembers that level `level_number` of the collection at `collection_path` is being played.
 * The path is kept absolute (resolved when the file exists). Returns false when out of
 * memory. */
bool progress_set_last(progress *progress, const char *collection_path, int level_number);

/* The collection played last and its level; false when none is known. The path stays valid
 * until the next change. */
bool progress_last(const progress *progress, const char **collection_path, int *level_number);

/* The level last played in the collection at `collection_path`, or 0 when unknown. */
int progress_collection_level(const progress *progress, const char *collection_path);

/* Writes the file atomically, creating the directory when needed. Returns false on failure;
 * the message then says why, but only for the first failure after a success (so a full disk
 * is reported once, not on every move): on a repeated failure the message is "". */
bool progress_save(progress *progress, char *message, size_t message_size);

#endif
