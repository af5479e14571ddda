/* progress.h - saved progress: solved levels, best solutions, unfinished games, snapshots,
 * statistics, imported solutions, where the player left off.
 *
 * Everything lives in one SQLite database, `progress.db`, in $XDG_DATA_HOME/sokoban (by
 * default ~/.local/share/sokoban), in WAL mode. Every change is its own transaction,
 * committed before the call returns, so a game that is killed keeps everything up to its last
 * call. Several games may run at once: SQLite's locking orders their writes; a write waits at
 * most a short busy timeout for another game's lock, and one that still cannot get it is kept
 * and tried again at the next change (and at progress_save and progress_close); one that
 * keeps failing is reported (progress_save's message; progress_unsaved at the end).
 *
 * A level is known by a key computed from its map, not by its file or number, so a level that
 * is edited (or moved to another collection) is a different level (or the same one). A
 * collection is known by its path, made absolute.
 *
 * Bests are checked: a solution becomes a best only when it replays to a solved level (the
 * calls that take the level replay it and count its moves and pushes themselves). Bests that
 * came in unchecked (from an old progress.txt) are replayed the first time the level is read
 * with progress_read_level(); one that fails is dropped and reported once.
 *
 * Files not ours are left alone: a database or progress.txt that is a symbolic link, not a
 * regular file, or (the database) not an SQLite database, or one a newer sokoban wrote, is
 * refused with a one-line message and the game plays without saving. A database that cannot
 * be written (a read-only file, folder or file system) is read, never written: its progress
 * is shown and the message says this session's play is not saved. A database that fails
 * `PRAGMA quick_check` is renamed aside (progress.db.repairing-YYYYMMDD-HHMMSS, then
 * .corrupt-YYYYMMDD-HHMMSS once what can be read of it is copied into a new one; a repair cut
 * short is finished by the next open). A `progress.txt` of the old text format beside the
 * database is imported once, in one transaction, and renamed to progress.txt.imported.
 *
 * The module never ends the program and knows nothing of the terminal: every problem becomes
 * a message for the game to show. The schema and its migrations are in progress_schema.c,
 * the import of progress.txt in progress_legacy.c. */
#ifndef SOKOBAN_PROGRESS_H
#define SOKOBAN_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "level/level.h"
#include "progress_options.h"

typedef uint64_t progress_key;

/* The key of a level: a 64-bit FNV-1a hash of its size and its map (walls, floor, goals,
 * boxes and player), so any edit of the map gives another key; titles and comments do not
 * count. */
progress_key progress_level_key(const level *level);

/* Where a solution came from. */
typedef enum progress_origin {
    PROGRESS_OWN = 0,      /* the player alone */
    PROGRESS_ASSISTED = 1, /* with hints, or a solver replay */
    PROGRESS_IMPORTED = 2, /* from a SOK or .sol file */
    PROGRESS_OPTIMIZED = 3, /* a best made shorter by the optimizer (O): assisted */
} progress_origin;

typedef struct progress_solution {
    char *lurd; /* NULL when there is none */
    int moves;
    int pushes;
    progress_origin origin;
} progress_solution;

enum { PROGRESS_NO_HELP = -1 };

typedef struct progress_record {
    progress_key key;
    bool solved;                   /* by the player alone */
    bool assisted;                 /* solved with help (hints, solver) */
    progress_solution best_moves;  /* fewest moves, then fewest pushes */
    progress_solution best_pushes; /* fewest pushes, then fewest moves */
    char *unfinished;              /* the moves in effect of an unfinished game, or NULL */
    char *unfinished_redo;         /* the steps after them that redo can take, or NULL */
    /* The steps among the moves and the redo steps that were played as one move (a box
     * moved with the mouse), which undo and redo take together: "FIRST-LAST" history
     * indices, comma-separated (PROGRESS_GROUPS_FORMAT), or NULL when none. */
    char *unfinished_groups;
    /* The help in the unfinished game: the history index (over the moves and the redo
     * steps) of the first step the solver's replay took, and of the first taken with a hint
     * on show; PROGRESS_NO_HELP when none. */
    int unfinished_solver_from;
    int unfinished_hint_from;
    double seconds;                /* time played on the level */
} progress_record;

typedef struct progress progress; /* opaque */

/* ---- Opening and closing ------------------------------------------------------------- */

/* Opens the database of `directory` (NULL: $XDG_DATA_HOME/sokoban, or ~/.local/share/sokoban
 * when XDG_DATA_HOME is unset, empty or relative), creating the directory and database on
 * first use, and imports an old progress.txt found there. Returns NULL only when out of
 * memory. When something must be told to the player (progress.txt imported, a damaged
 * database set aside, a file refused so progress is not saved, no home directory), writes one
 * line into `message`, else makes it "". Without a usable database the progress still works,
 * in memory only (progress_saving() is then false). */
progress *progress_open(const char *directory, char *message, size_t message_size);

/* The room a message of the progress wants, whole: a line of opening says each thing it has
 * to tell (a -wal or -journal set aside, each repair finished or left), each naming a file or
 * two with its folder. */
enum { PROGRESS_MESSAGE_SIZE = 4608 };

/* progress_open with `options` (NULL: none; progress_options.h): a caller that can show a
 * line before its screen starts is told before a step of opening that takes long. */
progress *progress_open_with(const char *directory, const progress_options *options, char *message,
                             size_t message_size);

/* Tries once more to write what could not be written (unless progress_save_final() has just
 * waited for it as long), then frees the progress. NULL is allowed. */
void progress_close(progress *progress);

/* The database file. */
const char *progress_file(const progress *progress);

/* False when progress is not saved at all (a refused file, no home directory, a database
 * this process cannot write: the progress saved in it is then read and shown). */
bool progress_saving(const progress *progress);

/* Writes what earlier changes could not write (another game held the lock for long). Returns
 * false while something is still unwritten; the message then says why, but only for the first
 * failure after a success (so a full disk is reported once, not on every move): on a
 * repeated failure the message is "". With nothing pending it returns true. */
bool progress_save(progress *progress, char *message, size_t message_size);

/* At the end of a game: waits longer for another game's lock (PROGRESS_OPEN_BUSY_MS) and
 * writes what is queued. Returns true when nothing is left unsaved; else false with one line
 * in `why` (as progress_unsaved). Call it after the terminal is restored, then
 * progress_close(). */
bool progress_save_final(progress *progress, char *why, size_t why_size);

/* True when changes were made that are not in the database (a write that kept failing, or a
 * progress that is not saved at all); `why` (may be NULL) says why in one line. For the
 * game's last words on stderr and its exit status. */
bool progress_unsaved(const progress *progress, char *why, size_t why_size);

/* A message the progress has for the player since it was last asked (a best that did not
 * replay and was dropped, a write that failed), or NULL. Each is given once. */
const char *progress_take_notice(progress *progress);

/* ---- Levels ------------------------------------------------------------------------- */

/* Reads the record of a level into `record` (free it with progress_record_free()). Returns
 * false when nothing is known of the level (`record` is then empty) or on an error. */
bool progress_read(progress *progress, progress_key key, progress_record *record);

/* The same for a level at hand: bests that were never checked are replayed on it first; one
 * that does not solve it is dropped (and told once through progress_take_notice()). */
bool progress_read_level(progress *progress, const level *level, progress_record *record);

void progress_record_free(progress_record *record);

/* The record of a level, or NULL when nothing is known of it: progress_read() into storage
 * the progress owns, valid (not updated) until progress_get has been called four more
 * times or the progress is closed. */
const progress_record *progress_get(progress *progress, progress_key key);
/* The same with progress_read_level(). */
const progress_record *progress_get_level(progress *progress, const level *level);

/* Records a solution of `level`: replays `lurd` (LURD text, at most 256 KiB) on it, and when
 * it solves the level marks the level solved (PROGRESS_OWN) or assisted (PROGRESS_ASSISTED),
 * keeps it as the best by moves and/or by pushes when it beats the one kept, and forgets the
 * unfinished game. An imported solution (PROGRESS_IMPORTED) is kept with the imported ones and
 * may become a best, but does not mark the level solved. Returns true when the solution became
 * a best; false when not, when it does not solve the level, or on an error. `best_flags` (may
 * be NULL) gets PROGRESS_BEST_MOVES and/or PROGRESS_BEST_PUSHES. */
enum { PROGRESS_BEST_MOVES = 1, PROGRESS_BEST_PUSHES = 2 };
bool progress_add_solution(progress *progress, const level *level, const char *lurd,
                           progress_origin origin, int *best_flags);

/* The former call, for a caller without the level: the solution is kept as the player's own
 * and unchecked, with the counts given, and replayed by the first progress_read_level().
 * Returns true when it became a best. (Goes when the game calls progress_add_solution.) */
bool progress_record_solution(progress *progress, progress_key key, const char *lurd, int moves,
                              int pushes);

/* Keeps the unfinished game of the level: the moves in effect and the steps redo can take
 * after them (NULL or "" for none). Both NULL or "" forget the game. Returns false when a text
 * is not LURD (or longer than 256 KiB) or on an error. Call it after every change: a killed
 * game keeps its moves up to the last call. */
bool progress_set_game(progress *progress, progress_key key, const char *lurd, const char *redo);
/* The same with the steps played as one move (`groups`, as progress_record's
 * unfinished_groups; NULL or "" for none) and the help in the game (progress_record's
 * unfinished_solver_from and unfinished_hint_from; PROGRESS_NO_HELP for none), so that a
 * resumed game undoes a box move as one and, when the solver or a hint helped, stays
 * assisted. False also when `groups` is not progress_is_groups_text(). */
bool progress_set_game_helped(progress *progress, progress_key key, const char *lurd,
                              const char *redo, const char *groups, int solver_from, int hint_from);

/* The steps of a game played as one move, as the progress keeps them: each move of two
 * steps or more as "FIRST-LAST" (its first and last step's indices in the history, the
 * moves in effect then the redo steps, from 0), the moves in order, separated by commas:
 * "3-8,12-20". True for NULL, "" and a text of that alphabet (digits, '-' and ',') at most
 * 2 MiB long (8 characters for each step of the longest LURD); the reader checks the numbers
 * against the steps it has. */
#define PROGRESS_GROUPS_FORMAT "%d-%d"
bool progress_is_groups_text(const char *text);
/* Reads the next group of a groups text, as it applies to a history of `steps` steps: from
 * `*at` (the text at first, then where the call before left it), with `*last` the last step
 * of the group before (-1 at first). True with the group's steps in `*first` and `*last`
 * (0 <= FIRST < LAST < steps, LAST lowered to the last step when the text names more) and
 * `*at` past it. False at the text's end and wherever it is damaged (not "FIRST-LAST" of
 * digits, FIRST not after the group before, LAST not after FIRST, or FIRST at or past the
 * last step): the groups read before the damage stand. Whatever the text (a database's
 * text is not checked), it reads each character at most once. */
bool progress_groups_next(const char **at, int steps, int *first, int *last);
/* The game of the level is the one in play here, as `record` holds it (NULL: no game
 * saved): from now on this progress writes the level's game only over that one, or over
 * its own last write. When another game (another sokoban on the same database) has saved
 * one since, the newer one is kept: this game's changes go to a snapshot of the level named
 * "kept apart HH:MM:SS" instead, and a notice says so once (progress_take_notice); a game
 * that has not changed since it was taken is not kept apart, and forgetting the game
 * (solved, restarted) deletes that snapshot. A level never taken is written as before. */
void progress_take_game(progress *progress, progress_key key, const progress_record *record);

/* progress_set_game without redo steps. */
bool progress_set_unfinished(progress *progress, progress_key key, const char *lurd);

/* Adds `seconds` to the time played on the level. */
bool progress_add_time(progress *progress, progress_key key, double seconds);

/* ---- Snapshots: named positions saved by the player ---------------------------------- */

typedef struct progress_snapshot {
    char *name;
    char *lurd; /* the moves in effect */
    char *redo; /* the steps redo can take after them, or "" */
    char *groups;  /* the steps played as one move (progress_record's unfinished_groups), or "" */
    int64_t saved; /* seconds since the epoch */
} progress_snapshot;

/* Saves (or replaces) the snapshot `name` of the level; `groups` (NULL for none) as
 * progress_set_game_helped's. True when it was written, or queued while another game holds
 * the database (written later, as the moves are). */
bool progress_snapshot_save(progress *progress, progress_key key, const char *name,
                            const char *lurd, const char *redo, const char *groups);
/* The level's snapshots, newest first, with the saves and deletes still queued played over
 * them: their count (0 or more), or -1 on an error. Free the array with
 * progress_snapshots_free(). */
int progress_snapshots(progress *progress, progress_key key, progress_snapshot **snapshots);
void progress_snapshots_free(progress_snapshot *snapshots, int count);
/* Deletes a snapshot; true when it was there (the delete written, or queued while another
 * game holds the database, as a save is: progress_snapshots lists what is queued too). */
bool progress_snapshot_delete(progress *progress, progress_key key, const char *name);

/* ---- Imported solutions -------------------------------------------------------------- */

typedef struct progress_imported {
    char *lurd;
    int moves, pushes;
    char *source; /* the file it came from */
} progress_imported;

/* Checks and keeps a solution read from `source` (a SOK or .sol file): like
 * progress_record_solution(..., PROGRESS_IMPORTED, ...). Returns false when it does not solve
 * the level (then it is not kept) or on an error; `best_flags` as there. */
bool progress_import_solution(progress *progress, const level *level, const char *lurd,
                              const char *source, int *best_flags);
/* Imports the solution sections of a collection's files (each level's `solutions`) as
 * imported solutions, once per file: a file whose path, device, inode, size and
 * modification time are those of its last import is passed over, so a start of the game does
 * not replay them again. Of a file, at most PROGRESS_IMPORT_MAX_PER_LEVEL sections a level
 * and PROGRESS_IMPORT_MAX_LETTERS letters of LURD are replayed; when some are skipped,
 * `message` gets one line saying so (else ""). Returns how many sections were replayed. */
enum { PROGRESS_IMPORT_MAX_PER_LEVEL = 16, PROGRESS_IMPORT_MAX_LETTERS = 4 << 20 };
int progress_import_collection(progress *progress, const collection *set, char *message,
                               size_t message_size);

/* The imported solutions of a level, fewest moves first: their count, or -1 on an error. */
int progress_imported_solutions(progress *progress, progress_key key, progress_imported **list);
void progress_imported_free(progress_imported *list, int count);

/* ---- Collections and statistics ------------------------------------------------------- */

/* Remembers that level `level_number` of the collection at `collection_path` is being played
 * (and that it is the collection played last). The path is kept absolute (resolved when the
 * file exists). */
bool progress_set_last(progress *progress, const char *collection_path, int level_number);

/* The collection played last and its level (1 on; 0 when the database holds none that is a
 * level number); false when none is known. The path stays valid until the next call of
 * progress_last. */
bool progress_last(progress *progress, const char **collection_path, int *level_number);

/* The level last played in the collection at `collection_path` (1 on), or 0 when unknown. */
int progress_collection_level(progress *progress, const char *collection_path);

/* Every collection the progress knows (each one played), the one played last first: their
 * paths as kept (absolute; "-" for standard input) in an array of `*paths` (each path and
 * the array to free()); returns their count, or -1 on an error (*paths NULL). */
int progress_collections(progress *progress, char ***paths);

typedef struct progress_statistics {
    int levels;    /* levels given */
    int solved;    /* solved by the player alone */
    int assisted;  /* solved only with help */
    int started;   /* with an unfinished game */
    double seconds; /* time played */
} progress_statistics;

/* What the level list shows of a level. */
typedef struct progress_best_counts {
    bool kept; /* a best of this kind is kept (and replays on the level) */
    int moves, pushes;
    progress_origin origin;
} progress_best_counts;

typedef struct progress_summary {
    bool known;    /* anything is kept of the level */
    bool solved;   /* by the player alone */
    bool assisted; /* solved with help */
    bool started;  /* an unfinished game is kept */
    progress_best_counts best_moves, best_pushes;
    double seconds;
} progress_summary;

/* The summaries of `count` levels (a collection's), read in one query: summaries[i] is of
 * levels[i] (empty for a level that cannot be played). A best is counted only when it
 * replays on its level. The array is the progress's own, valid until the next call or
 * progress_close(); it is read again only when the database has changed (by this game or
 * another) or other levels are asked for. NULL on an error. */
const progress_summary *progress_summaries(progress *progress, const level *levels, int count);

/* Statistics over the levels whose keys are given (a collection's levels). */
bool progress_statistics_of(progress *progress, const progress_key *keys, int count,
                            progress_statistics *statistics);

#endif
