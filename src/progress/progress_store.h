/* progress_store.h - inside the progress store (progress.c, with progress_game.c): the
 * struct behind `progress`, and the changes it writes; progress_levels.c is built on it. Not
 * for other modules.
 *
 * A change is one write, run in its own transaction by progress_submit(); a change that
 * cannot be written is queued and tried again before the next one. */
#ifndef SOKOBAN_PROGRESS_STORE_H
#define SOKOBAN_PROGRESS_STORE_H

#include <sqlite3.h>

#include "progress.h"
#include "progress_db.h"

/* The slots of progress_get(). */
enum { PROGRESS_GET_SLOTS = 4 };

typedef enum progress_change_kind {
    CHANGE_SOLUTION,        /* text: lurd, source; number: moves, pushes, origin, checked */
    CHANGE_GAME,            /* text: lurd, redo, groups; number: solver_from, hint_from */
    CHANGE_TIME,            /* seconds */
    CHANGE_SNAPSHOT,        /* text: name, lurd, redo, groups; number: saved */
    CHANGE_SNAPSHOT_DELETE, /* text: name */
    CHANGE_LAST,            /* text: path; number: level */
} progress_change_kind;

typedef struct progress_change {
    progress_change_kind kind;
    progress_key key;
    char *text[4];
    int64_t number[4];
    double seconds;
    unsigned take; /* the take of its level in force when it was made (progress_take), or 0 */
} progress_change;

/* A game in play's hold on its level (progress_take_game): the hash of the saved game as it
 * was taken or last written here, and, once another game saved one over it, the snapshot
 * this game's changes go to instead. Changes queued under a take are checked against it
 * when they are written, even after the game took another level. */
typedef struct progress_take {
    unsigned id; /* 0: none */
    progress_key key;
    uint64_t saved;
    char apart[64]; /* "" until refused */
} progress_take;

/* The last record progress_get_level() read, kept while nothing changed the database (the
 * game's status line asks at every redraw): this connection's count of changes
 * (sqlite3_total_changes()) and the other connections' (PRAGMA data_version) as they were
 * then, and its slot with that slot's uses. */
typedef struct progress_last_level {
    bool valid, found;
    progress_key key;
    int changes;
    int64_t version;
    int slot;
    unsigned uses;
} progress_last_level;

/* A statement kept prepared (progress_prepare; its SQL is sqlite3_sql's), and whether it is
 * handed out now (from progress_prepare to progress_release). */
typedef struct progress_kept_statement {
    sqlite3_stmt *statement;
    bool in_use;
} progress_kept_statement;

/* How many statements a connection keeps: more than the store has. */
enum { PROGRESS_KEPT_STATEMENTS = 40 };

/* The answer of progress_summaries(), kept while the database and the levels asked for are
 * the same. */
typedef struct progress_summaries_cache {
    bool valid;
    const level *levels;
    int count;
    int64_t version; /* PRAGMA data_version then */
    int changes;     /* sqlite3_total_changes() then */
    progress_summary *summaries;
    int capacity;
} progress_summaries_cache;

struct progress {
    sqlite3 *db;                   /* the database, or one in memory when progress is not saved */
    progress_db_identity identity; /* the file `db` was opened on (progress_db_same_file) */
    bool saving;                   /* false: `db` is in memory */
    bool changed;                  /* a change was made (for progress_unsaved when not saving) */
    char *directory, *file;
    progress_options options; /* as opened, without before_long (reopen() says nothing) */
    char no_save_reason[PROGRESS_DB_MESSAGE_SIZE];
    progress_change *queued; /* changes not yet written, oldest first */
    int queued_count, queued_capacity;
    char failure[1024]; /* why the last write failed, "" after a success */
    bool failure_told;
    bool final_tried;  /* progress_save_final() waited long for what is queued now */
    char notice[2200]; /* notices not yet taken, "; " between them */
    bool notice_pending;
    progress_record slots[PROGRESS_GET_SLOTS];
    unsigned slot_uses[PROGRESS_GET_SLOTS]; /* bumped each time a slot is emptied */
    int next_slot;
    progress_last_level last_level;
    sqlite3_stmt *data_version; /* PRAGMA data_version, prepared once */
    char *last_path;
    progress_summaries_cache summaries;
    progress_kept_statement kept[PROGRESS_KEPT_STATEMENTS]; /* of `db` */
    int kept_count;
    progress_take game;   /* the take in force (progress_take_game) */
    progress_take *takes; /* earlier takes that queued changes still hold */
    int take_count, take_capacity;
    unsigned last_take; /* the id of the newest take */
    uint64_t pending;   /* a take's `saved` once the write under way commits... */
    bool pending_set;   /* ...when set */
};

/* Sends a notice to the player (progress_take_notice). */
void progress_notify(progress *progress, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Writes a change (taking its texts), after what is queued; queues it when it cannot. True
 * when it was written; `flags` gets the bests a solution became. */
bool progress_submit(progress *progress, progress_change *change, int *flags);
/* progress_submit, true when the change was written or queued (written later, as the game's
 * moves are): false only when memory ran out and it was dropped. */
bool progress_submit_kept(progress *progress, progress_change *change);
void progress_change_free(progress_change *change);

/* FNV-1a, 64 bits: `data` added to `hash` (PROGRESS_HASH_START at first). */
#define PROGRESS_HASH_START 14695981039346656037u
uint64_t progress_hash_update(uint64_t hash, const char *data, size_t length);

/* The game in play, never written over another game's (progress_game.c, progress_take_game).
 * The take a change is made under: the one in force when its level is the take's, else 0. */
unsigned progress_game_take_of(const progress *progress, progress_key key);
/* The take of id `id` (0: NULL), the one in force or an earlier one a queued change holds. */
progress_take *progress_game_find(progress *progress, unsigned id);
/* Inside a write's transaction: whether the level's saved game is another game's, saved
 * since the change's take (`take`, NULL for none: no check) took it or last wrote it (or
 * this game is kept apart already), and not the one the change `c` writes (a solution: NULL);
 * an empty saved game (the level solved or restarted there) is nobody's. SQLITE_OK with
 * *other set, or the error. */
int progress_game_other(progress *progress, progress_take *take, progress_key key,
                        const progress_change *c, bool *other);
/* The change of a game whose level holds another game's: kept apart as a snapshot of a name
 * of its own (told once), or that snapshot deleted when the game is forgotten; an unchanged
 * game is left. */
int progress_game_apart(progress *progress, progress_take *take, const progress_change *c);
/* The level's game is being written: the change `c`, or NULL when it is forgotten (solved);
 * once the transaction commits it is the saved game the take may write over. */
void progress_game_writing(progress *progress, const progress_take *take, const progress_change *c);
/* The write under `take` committed: what it wrote (progress_game_writing) is the saved game
 * the take, and a later take of the level by this game that took the game as it was before
 * the write (the level opened again while the write was queued), may write over. */
void progress_game_written(progress *progress, progress_take *take);
/* The earlier takes no queued change holds are dropped (after the queue ran). */
void progress_game_prune(progress *progress);
/* The database was opened again (set aside or replaced): every take takes the game saved in
 * the new one, nothing kept apart. */
void progress_game_retake(progress *progress);

/* A malloc'd copy; NULL for NULL or when out of memory. */
char *progress_copy_string(const char *text);

/* True when `text` is NULL or LURD letters and counts, at most 256 KiB. */
bool progress_is_lurd_text(const char *text);

/* Replays `lurd` on the level: the steps as canonical LURD text (malloc'd) with their
 * counts when they solve it, else NULL. */
char *progress_replay(const level *level, const char *lurd, int *moves, int *pushes);

/* A statement of `sql` on the progress's connection with the arguments `types` names bound,
 * one letter each: k a progress_key, i an int64_t, d a double, t a text (NULL binds NULL).
 * NULL on an error. The statement is kept prepared for the next use of the same SQL:
 * give it back with progress_release(), never sqlite3_finalize(). */
sqlite3_stmt *progress_prepare(progress *progress, const char *sql, const char *types, ...);
/* Gives back a statement of progress_prepare(): reset, its arguments cleared. NULL is
 * ignored. */
void progress_release(progress *progress, sqlite3_stmt *statement);
/* Steps a statement once and gives it back: SQLITE_OK or the error. */
int progress_finish(progress *progress, sqlite3_stmt *statement);
/* progress_prepare's statement run at once in a transaction of its own, the id's row stamped
 * (progress_wal.h): a write the store makes of itself while reading (a best found false
 * dropped, a file marked imported), never queued, never on a database set aside or replaced
 * since it was opened. SQLITE_OK or the error (then nothing is written: it is made again at
 * a later read). No statement of progress_prepare may be in use across it. */
int progress_write_now(progress *progress, const char *sql, const char *types, ...);
/* Finalizes the statements kept for the connection, before it is closed or replaced. */
void progress_forget_statements(progress *progress);
/* A malloc'd copy of a text column (NULL for NULL). */
char *progress_column_text(sqlite3_stmt *statement, int column);
/* A help mark's column (unfinished_solver_from, unfinished_hint_from): PROGRESS_NO_HELP for
 * NULL or anything but an integer in 0..INT_MAX. */
int progress_column_mark(sqlite3_stmt *statement, int column);

#endif
