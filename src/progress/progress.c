/* progress.c - saved progress in an SQLite database: the calls of progress.h.
 *
 * Every change is an operation (`change` below) run in its own transaction. One that cannot
 * run (another game holds the lock past the busy timeout, a read-only directory, a full disk)
 * is queued and run again, in order, before the next change, by progress_save() and by
 * progress_close(); the first failure after a success is told once. Reads go straight to the
 * database, so what another game saved is seen at once. */
#include "progress.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "rules/game.h"
#include "rules/lurd.h"
#include "progress_db.h"
#include "progress_legacy.h"
#include "progress_store.h"
#include "progress_schema.h"

static const char DATABASE_NAME[] = "progress.db";
/* The longest LURD text kept. */
enum { MAX_LURD_LENGTH = 256 << 10 };
/* How many times progress_save() tries what is queued, each waiting the busy timeout. */
enum { SAVE_ATTEMPTS = 3 };

/* ---- small helpers -------------------------------------------------------------------- */

static void set_message(char *message, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void set_message(char *message, size_t size, const char *format, ...)
{
    if (!message || size == 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, size, format, arguments);
    va_end(arguments);
}

/* A notice not yet taken is kept: the new one follows it, after "; ". */
void progress_notify(progress *progress, const char *format, ...)
{
    size_t kept = progress->notice_pending ? strlen(progress->notice) : 0;
    if (kept && kept + 2 < sizeof progress->notice) {
        memcpy(progress->notice + kept, "; ", 3);
        kept += 2;
    }
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(progress->notice + kept, sizeof progress->notice - kept, format, arguments);
    va_end(arguments);
    progress->notice_pending = true;
}

char *progress_copy_string(const char *text)
{
    if (!text) return NULL;
    size_t length = strlen(text);
    char *copy = malloc(length + 1);
    if (copy) memcpy(copy, text, length + 1);
    return copy;
}

static char *join_path(const char *directory, const char *name)
{
    size_t size = strlen(directory) + strlen(name) + 2;
    char *path = malloc(size);
    if (path) snprintf(path, size, "%s/%s", directory, name);
    return path;
}

/* FNV-1a (Fowler, Noll, Vo): a byte at a time, xor then multiply by the FNV prime. */
uint64_t progress_hash_update(uint64_t hash, const char *data, size_t length)
{
    for (size_t i = 0; i < length; i++) {
        hash ^= (unsigned char)data[i];
        hash *= 1099511628211u;
    }
    return hash;
}

progress_key progress_level_key(const level *level)
{
    char size[32];
    int length = snprintf(size, sizeof size, "%dx%d:", level->width, level->height);
    uint64_t hash = progress_hash_update(PROGRESS_HASH_START, size, (size_t)length);
    return progress_hash_update(hash, level->squares, (size_t)level->width * (size_t)level->height);
}

/* True when `text` is NULL or holds only LURD letters and counts, at most MAX_LURD_LENGTH. */
bool progress_is_lurd_text(const char *text)
{
    if (!text) return true;
    size_t length = strlen(text);
    return length <= MAX_LURD_LENGTH && strspn(text, "lurdLURD0123456789") == length;
}

bool progress_is_groups_text(const char *text)
{
    if (!text) return true;
    size_t length = strlen(text);
    /* a group of two steps takes up to 14 characters ("123456-123457,"): 8 a step */
    return length <= 8 * (size_t)MAX_LURD_LENGTH && strspn(text, "0123456789-,") == length;
}

bool progress_groups_next(const char **at, int steps, int *first, int *last)
{
    const char *text = *at;
    /* digits only, where strtol() would also take spaces and signs */
    if (!text || !isdigit((unsigned char)*text)) return false;
    char *end;
    long from = strtol(text, &end, 10); /* LONG_MAX for 2 MiB of digits: past the steps */
    if (*end != '-' || !isdigit((unsigned char)end[1])) return false;
    long to = strtol(end + 1, &end, 10);
    if ((*end && *end != ',') || from <= *last || to <= from || from >= (long)steps - 1)
        return false;
    *first = (int)from;
    *last = to < steps - 1 ? (int)to : steps - 1;
    *at = *end ? end + 1 : end;
    return true;
}

/* Replays `lurd` on the level: the steps as canonical LURD text (malloc'd) with their counts
 * when they solve it, else NULL. */
char *progress_replay(const level *level, const char *lurd, int *moves, int *pushes)
{
    if (!lurd || !progress_is_lurd_text(lurd)) return NULL;
    lurd_steps steps;
    lurd_error error;
    if (!lurd_parse(lurd, &steps, &error)) return NULL;
    game game;
    char *canonical = NULL;
    if (game_init(&game, level)) {
        if (lurd_apply(&game, &steps, &error) && game_is_solved(&game)) {
            canonical = game_lurd(&game);
            *moves = game.moves;
            *pushes = game.pushes;
        }
        game_free(&game);
    }
    lurd_steps_free(&steps);
    return canonical;
}

/* ---- statements ------------------------------------------------------------------------ */

/* The kept statement of `sql` that nobody holds, or NULL. */
static sqlite3_stmt *kept_statement(progress *progress, const char *sql)
{
    for (int i = 0; i < progress->kept_count; i++) {
        progress_kept_statement *kept = &progress->kept[i];
        if (!kept->in_use && strcmp(sqlite3_sql(kept->statement), sql) == 0) {
            kept->in_use = true;
            return kept->statement;
        }
    }
    return NULL;
}

/* Prepares `sql` anew, kept (and marked handed out) while there is room. NULL on an error. */
static sqlite3_stmt *prepare_kept(progress *progress, const char *sql)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v3(progress->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, NULL) !=
        SQLITE_OK)
        return NULL;
    if (progress->kept_count < PROGRESS_KEPT_STATEMENTS)
        progress->kept[progress->kept_count++] = (progress_kept_statement){statement, true};
    return statement;
}

/* Binds the arguments `types` names (progress_prepare) to `statement`. */
static void bind_arguments(sqlite3_stmt *statement, const char *types, va_list arguments)
{
    for (int i = 0; types[i]; i++) {
        int index = i + 1;
        if (types[i] == 'k') {
            sqlite3_bind_int64(statement, index, (int64_t)va_arg(arguments, progress_key));
        } else if (types[i] == 'i') {
            sqlite3_bind_int64(statement, index, va_arg(arguments, int64_t));
        } else if (types[i] == 'd') {
            sqlite3_bind_double(statement, index, va_arg(arguments, double));
        } else {
            const char *text = va_arg(arguments, const char *);
            if (text)
                sqlite3_bind_text(statement, index, text, -1, SQLITE_TRANSIENT);
            else
                sqlite3_bind_null(statement, index);
        }
    }
}

/* Statements are kept prepared: under SQLite's parser each small query cost as much again as
 * running it. The connection's statements are few (one for each query text of the store). */
sqlite3_stmt *progress_prepare(progress *progress, const char *sql, const char *types, ...)
{
    sqlite3_stmt *statement = kept_statement(progress, sql);
    if (!statement && !(statement = prepare_kept(progress, sql))) return NULL;
    va_list arguments;
    va_start(arguments, types);
    bind_arguments(statement, types, arguments);
    va_end(arguments);
    return statement;
}

void progress_release(progress *progress, sqlite3_stmt *statement)
{
    if (!statement) return;
    sqlite3_reset(statement);
    sqlite3_clear_bindings(statement);
    for (int i = 0; i < progress->kept_count; i++)
        if (progress->kept[i].statement == statement) {
            progress->kept[i].in_use = false;
            return;
        }
    sqlite3_finalize(statement); /* one not kept: no room was left */
}

void progress_forget_statements(progress *progress)
{
    for (int i = 0; i < progress->kept_count; i++) sqlite3_finalize(progress->kept[i].statement);
    progress->kept_count = 0;
}

/* Runs a statement that returns no rows: SQLITE_OK or the error. Gives it back. */
int progress_finish(progress *progress, sqlite3_stmt *statement)
{
    if (!statement) {
        int code = sqlite3_errcode(progress->db);
        return code ? code : SQLITE_NOMEM;
    }
    int rc = sqlite3_step(statement);
    progress_release(progress, statement);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc;
}

char *progress_column_text(sqlite3_stmt *statement, int column)
{
    return progress_copy_string((const char *)sqlite3_column_text(statement, column));
}

int progress_column_mark(sqlite3_stmt *statement, int column)
{
    if (sqlite3_column_type(statement, column) != SQLITE_INTEGER) return PROGRESS_NO_HELP;
    int64_t mark = sqlite3_column_int64(statement, column);
    return mark >= 0 && mark <= INT_MAX ? (int)mark : PROGRESS_NO_HELP;
}

/* ---- changes ------------------------------------------------------------------------- */

void progress_record_free(progress_record *record)
{
    free(record->best_moves.lurd);
    free(record->best_pushes.lurd);
    free(record->unfinished);
    free(record->unfinished_redo);
    free(record->unfinished_groups);
    memset(record, 0, sizeof *record);
}

void progress_change_free(progress_change *change)
{
    for (int i = 0; i < 4; i++) free(change->text[i]);
}

/* Writes a solution's row of level (solved or assisted) and imported, then each best it
 * beats; *flags gets which. */
static int write_solution(progress *progress, const progress_change *c, int *flags)
{
    sqlite3 *db = progress->db;
    static const char *const level_sql[] = {
        [PROGRESS_OWN] = "INSERT INTO level (key, solved) VALUES (?1, 1) ON CONFLICT (key) DO "
                         "UPDATE SET solved = 1, unfinished = NULL, unfinished_redo = NULL, "
                         "unfinished_groups = NULL, unfinished_solver_from = NULL, "
                         "unfinished_hint_from = NULL",
        [PROGRESS_ASSISTED] = "INSERT INTO level (key, assisted) VALUES (?1, 1) ON CONFLICT "
                              "(key) DO UPDATE SET assisted = 1, unfinished = NULL, "
                              "unfinished_redo = NULL, unfinished_groups = NULL, "
                              "unfinished_solver_from = NULL, unfinished_hint_from = NULL",
        [PROGRESS_IMPORTED] = "INSERT OR IGNORE INTO imported (key, lurd, moves, pushes, source)"
                              " VALUES (?1, ?2, ?3, ?4, ?5)",
        /* the optimizer's: assisted, the game in play left as it is */
        [PROGRESS_OPTIMIZED] = "INSERT INTO level (key, assisted) VALUES (?1, 1) ON CONFLICT "
                               "(key) DO UPDATE SET assisted = 1",
    };
    int origin = (int)c->number[2];
    /* an imported solution's level may have no row yet: its bests belong to one */
    int rc = origin != PROGRESS_IMPORTED
                 ? SQLITE_OK
                 : progress_finish(progress, progress_prepare(progress,
                                                              "INSERT OR IGNORE INTO level (key) "
                                                              "VALUES (?1)",
                                                              "k", c->key));
    /* solved here: the game saved is forgotten, unless it is another game's (progress_game.c) */
    const char *sql = level_sql[origin];
    bool other = false;
    progress_take *take = progress_game_find(progress, c->take);
    if (rc == SQLITE_OK && (origin == PROGRESS_OWN || origin == PROGRESS_ASSISTED)) {
        rc = progress_game_other(progress, take, c->key, NULL, &other);
        if (other)
            sql = origin == PROGRESS_OWN ? "INSERT INTO level (key, solved) VALUES (?1, 1) ON "
                                           "CONFLICT (key) DO UPDATE SET solved = 1"
                                         : level_sql[PROGRESS_OPTIMIZED];
        else
            progress_game_writing(progress, take, NULL);
    }
    if (rc == SQLITE_OK)
        rc = progress_finish(progress, progress_prepare(progress, sql, "ktiit", c->key, c->text[0],
                                                        c->number[0], c->number[1],
                                                        c->text[1] ? c->text[1] : ""));
    for (int kind = 0; kind < 2 && rc == SQLITE_OK; kind++) {
        sqlite3_stmt *kept = progress_prepare(progress,
                                              "SELECT moves, pushes FROM best WHERE key = ?1 AND "
                                              "kind = ?2",
                                              "ki", c->key, (int64_t)kind);
        if (!kept) return sqlite3_errcode(db);
        int step = sqlite3_step(kept);
        bool better = step == SQLITE_DONE;
        if (step == SQLITE_ROW) {
            int64_t moves = sqlite3_column_int64(kept, 0), pushes = sqlite3_column_int64(kept, 1);
            int64_t first = kind ? pushes : moves, second = kind ? moves : pushes;
            int64_t new_first = kind ? c->number[1] : c->number[0];
            int64_t new_second = kind ? c->number[0] : c->number[1];
            better = new_first < first || (new_first == first && new_second < second);
        } else if (step != SQLITE_DONE) {
            rc = step;
        }
        progress_release(progress, kept);
        if (!better || rc != SQLITE_OK) continue;
        rc = progress_finish(
            progress,
            progress_prepare(progress,
                             "INSERT OR REPLACE INTO best (key, kind, lurd, moves, pushes,"
                             " checked, origin) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                             "kitiiii", c->key, (int64_t)kind, c->text[0], c->number[0],
                             c->number[1], c->number[3], (int64_t)origin));
        if (rc == SQLITE_OK && flags) *flags |= kind ? PROGRESS_BEST_PUSHES : PROGRESS_BEST_MOVES;
    }
    return rc;
}

/* The statements of one change (inside its transaction). */
static int write_change(progress *progress, const progress_change *c, int *flags)
{
    switch (c->kind) {
    case CHANGE_SOLUTION:
        return write_solution(progress, c, flags);
    case CHANGE_GAME: {
        bool other;
        progress_take *take = progress_game_find(progress, c->take);
        int rc = progress_game_other(progress, take, c->key, c, &other);
        if (rc != SQLITE_OK || other)
            return rc != SQLITE_OK ? rc : progress_game_apart(progress, take, c);
        progress_game_writing(progress, take, c);
    }
        if (!c->text[0] && !c->text[1])
            return progress_finish(
                progress, progress_prepare(progress,
                                           "UPDATE level SET unfinished = NULL, unfinished_redo ="
                                           " NULL, unfinished_groups = NULL, unfinished_solver_from"
                                           " = NULL, unfinished_hint_from = NULL WHERE key = ?1",
                                           "k", c->key));
        /* the help marks: NULL for none (PROGRESS_NO_HELP) */
        return progress_finish(
            progress,
            progress_prepare(progress,
                             "INSERT INTO level (key, unfinished, unfinished_redo, "
                             "unfinished_groups, unfinished_solver_from, unfinished_hint_from) "
                             "VALUES (?1, ?2, ?3, ?4, nullif(?5, -1), nullif(?6, -1)) ON "
                             "CONFLICT (key) DO UPDATE SET unfinished = ?2, unfinished_redo = "
                             "?3, unfinished_groups = ?4, unfinished_solver_from = "
                             "nullif(?5, -1), unfinished_hint_from = nullif(?6, -1)",
                             "ktttii", c->key, c->text[0], c->text[1], c->text[2], c->number[0],
                             c->number[1]));
    case CHANGE_TIME:
        return progress_finish(
            progress, progress_prepare(progress,
                                       "INSERT INTO level (key, seconds) VALUES (?1, ?2) ON "
                                       "CONFLICT (key) DO UPDATE SET seconds = seconds + ?2",
                                       "kd", c->key, c->seconds));
    case CHANGE_SNAPSHOT: {
        int rc = progress_finish(progress, progress_prepare(progress,
                                                            "INSERT OR IGNORE INTO level (key) "
                                                            "VALUES (?1)",
                                                            "k", c->key));
        if (rc != SQLITE_OK) return rc;
        return progress_finish(
            progress,
            progress_prepare(progress,
                             "INSERT OR REPLACE INTO snapshot (key, name, lurd, redo, "
                             "groups, saved) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                             "ktttti", c->key, c->text[0], c->text[1], c->text[2] ? c->text[2] : "",
                             c->text[3] ? c->text[3] : "", c->number[0]));
    }
    case CHANGE_SNAPSHOT_DELETE:
        return progress_finish(progress,
                               progress_prepare(progress,
                                                "DELETE FROM snapshot WHERE key = ?1 AND name = ?2",
                                                "kt", c->key, c->text[0]));
    case CHANGE_LAST:
        /* played: the time now, seconds since the epoch, and later than every other (a clock
         * set back, two plays in one millisecond), for progress_last */
        return progress_finish(
            progress, progress_prepare(progress,
                                       "INSERT INTO collection (path, level, played) VALUES (?1, "
                                       "?2, max((julianday('now') - 2440587.5) * 86400.0, "
                                       "(SELECT coalesce(max(played), 0) + 0.001 FROM collection)))"
                                       " ON CONFLICT (path) DO UPDATE SET level = excluded.level, "
                                       "played = excluded.played",
                                       "ti", c->text[0], c->number[0]));
    }
    return SQLITE_MISUSE;
}

/* The database was set aside (another game found it damaged) or replaced under this game:
 * opens the one now at its place, for the change at hand and the ones after, and tells the
 * player once. False (with `why`) when it cannot be opened. */
static bool reopen(progress *progress, char *why, size_t why_size)
{
    char message[PROGRESS_DB_MESSAGE_SIZE];
    /* one this game cannot write: told with why, never read (progress_db_open would copy it
     * whole into memory, at every change, only for that) */
    if (progress_db_cannot_write(progress->file, message, sizeof message)) {
        set_message(why, why_size, "it was set aside or replaced, and %s cannot be written (%s)",
                    progress->file, message);
        return false;
    }
    bool read_only = false;
    sqlite3 *db = progress_db_open(progress->directory, progress->file, &progress->options,
                                   &read_only, message, sizeof message);
    if (db && read_only) { /* SQLite opened it read only after all: a copy in memory */
        sqlite3_close(db);
        set_message(why, why_size, "it was set aside or replaced, and %s cannot be written",
                    progress->file);
        return false;
    }
    if (!db) {
        set_message(why, why_size, "it was set aside or replaced, and %s",
                    strncmp(message, "progress: ", 10) == 0 ? message + 10 : message);
        return false;
    }
    sqlite3_finalize(progress->data_version);
    progress->data_version = NULL;
    progress_forget_statements(progress);
    progress_db_close_stale(progress->db);
    progress->db = db;
    progress->identity = progress_db_identify(db);
    progress->last_level.valid = false;
    progress->summaries.valid = false;
    progress_game_retake(progress);
    progress_notify(progress,
                    "progress: %s was set aside or replaced by another game; this game saves "
                    "into the new one",
                    progress->file);
    return true;
}

/* Begins a change's transaction holding the write lock, on the file at the database's path:
 * a database set aside or replaced since it was opened is opened again first. */
static int begin_write(progress *progress, char *why, size_t why_size)
{
    for (int attempt = 0;; attempt++) {
        int rc = sqlite3_exec(progress->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
        if (rc != SQLITE_OK) {
            set_message(why, why_size, "%s", sqlite3_errmsg(progress->db));
            return rc;
        }
        if (!progress->saving || progress_db_same_file(progress->db, &progress->identity))
            return SQLITE_OK;
        sqlite3_exec(progress->db, "ROLLBACK", NULL, NULL, NULL);
        if (attempt > 0) {
            set_message(why, why_size, "it was replaced again while it was opened");
            return SQLITE_CANTOPEN;
        }
        if (!reopen(progress, why, why_size)) return SQLITE_CANTOPEN;
    }
}

/* Runs one change in its own transaction. On a failure `why` gets SQLite's reason, read
 * before the ROLLBACK, which would replace it (with "cannot rollback - no transaction is
 * active" when the failure ended the transaction itself, as a full disk does). */
static int run_change(progress *progress, const progress_change *c, int *flags, char *why,
                      size_t why_size)
{
    int rc = begin_write(progress, why, why_size);
    if (rc != SQLITE_OK) return rc;
    sqlite3 *db = progress->db;
    int local_flags = 0;
    progress->pending_set = false;
    rc = write_change(progress, c, &local_flags);
    /* the id's page in the commit, so in the -wal (progress_wal.h) */
    if (rc == SQLITE_OK) rc = progress_schema_stamp(db);
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        set_message(why, why_size, "%s", sqlite3_errmsg(db));
        if (!sqlite3_get_autocommit(db)) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return rc;
    }
    progress_game_written(progress, progress_game_find(progress, c->take));
    if (flags) *flags = local_flags;
    return SQLITE_OK;
}

/* A write the store makes of itself (a best found false dropped, a file marked imported), in
 * a transaction of its own with the id's row stamped as every commit of ours is
 * (progress_wal.h: a commit that did not raise the count left a backup of as many commits,
 * but older, taken for the file a -wal began on). Never queued, and never on a database set
 * aside or replaced since it was opened (the next change opens the new one): what is not
 * written now is written at a later read. */
int progress_write_now(progress *progress, const char *sql, const char *types, ...)
{
    int rc = sqlite3_exec(progress->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc != SQLITE_OK) return rc;
    sqlite3_stmt *statement = NULL;
    if (progress->saving && !progress_db_same_file(progress->db, &progress->identity))
        rc = SQLITE_CANTOPEN;
    else if (!(statement = kept_statement(progress, sql)) &&
             !(statement = prepare_kept(progress, sql)))
        rc = sqlite3_errcode(progress->db) ? sqlite3_errcode(progress->db) : SQLITE_NOMEM;
    if (statement) {
        va_list arguments;
        va_start(arguments, types);
        bind_arguments(statement, types, arguments);
        va_end(arguments);
        rc = progress_finish(progress, statement);
    }
    if (rc == SQLITE_OK) rc = progress_schema_stamp(progress->db);
    if (rc == SQLITE_OK) rc = sqlite3_exec(progress->db, "COMMIT", NULL, NULL, NULL);
    if (rc != SQLITE_OK && !sqlite3_get_autocommit(progress->db))
        sqlite3_exec(progress->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* Notes why a write failed (`reason`: SQLite's message); the first failure after a success
 * becomes a notice. */
static void note_failure(progress *progress, int rc, const char *reason)
{
    const char *why = rc == SQLITE_BUSY || rc == SQLITE_LOCKED
                          ? "another game keeps the database locked"
                          : reason;
    snprintf(progress->failure, sizeof progress->failure, "cannot write %s (%s)", progress->file,
             why);
    if (!progress->failure_told)
        progress_notify(progress, "progress not saved: %s; it is tried again at the next change",
                        progress->failure);
    progress->failure_told = true;
}

/* Runs the queued changes in order; false when one still fails (it stays queued). */
static bool run_queued(progress *progress)
{
    int done = 0;
    bool ok = true;
    for (; done < progress->queued_count; done++) {
        char reason[512];
        int rc = run_change(progress, &progress->queued[done], NULL, reason, sizeof reason);
        if (rc != SQLITE_OK) {
            note_failure(progress, rc, reason);
            ok = false;
            break;
        }
        progress_change_free(&progress->queued[done]);
    }
    memmove(progress->queued, progress->queued + done,
            (size_t)(progress->queued_count - done) * sizeof *progress->queued);
    progress->queued_count -= done;
    progress_game_prune(progress);
    if (ok) {
        progress->failure[0] = '\0';
        progress->failure_told = false;
    }
    return ok;
}

/* Queues a change (taking its texts); one that only replaces the last queued (the game of the
 * same level, after every push) takes its place. False when out of memory (then dropped). */
static bool queue(progress *progress, progress_change *c)
{
    progress->final_tried = false;
    progress_change *last =
        progress->queued_count ? &progress->queued[progress->queued_count - 1] : NULL;
    if (last && c->kind == CHANGE_GAME && last->kind == CHANGE_GAME && last->key == c->key) {
        progress_change_free(last);
        *last = *c;
        return true;
    }
    if (progress->queued_count == progress->queued_capacity) {
        int capacity = progress->queued_capacity ? 2 * progress->queued_capacity : 16;
        progress_change *grown = realloc(progress->queued, (size_t)capacity * sizeof *grown);
        if (!grown) {
            progress_change_free(c);
            return false;
        }
        progress->queued = grown;
        progress->queued_capacity = capacity;
    }
    progress->queued[progress->queued_count++] = *c;
    return true;
}

/* Writes a change (taking its texts), after what is queued; queues it when it cannot.
 * Sets *kept to whether it was written or queued (false: out of memory, dropped). Returns
 * true when it was written. */
static bool submit(progress *progress, progress_change *c, int *flags, bool *kept)
{
    if (flags) *flags = 0;
    progress->changed = true;
    c->take = progress_game_take_of(progress, c->key);
    if (progress->queued_count == 0 || run_queued(progress)) {
        char reason[512];
        int rc = run_change(progress, c, flags, reason, sizeof reason);
        if (rc == SQLITE_OK) {
            progress_change_free(c);
            *kept = true;
            return true;
        }
        note_failure(progress, rc, reason);
    }
    *kept = queue(progress, c);
    return false;
}

bool progress_submit(progress *progress, progress_change *c, int *flags)
{
    bool kept;
    return submit(progress, c, flags, &kept);
}

bool progress_submit_kept(progress *progress, progress_change *c)
{
    bool kept;
    submit(progress, c, NULL, &kept);
    return kept;
}

/* ---- opening and closing ------------------------------------------------------------- */

/* The default directory: $XDG_DATA_HOME/sokoban, else $HOME/.local/share/sokoban. */
static char *default_directory(void)
{
    const char *data_home = getenv("XDG_DATA_HOME");
    if (data_home && data_home[0] == '/') return join_path(data_home, "sokoban");
    const char *home = getenv("HOME");
    if (!home || !*home) return NULL;
    return join_path(home, ".local/share/sokoban");
}

progress *progress_open(const char *directory, char *message, size_t message_size)
{
    return progress_open_with(directory, NULL, message, message_size);
}

progress *progress_open_with(const char *directory, const progress_options *options, char *message,
                             size_t message_size)
{
    set_message(message, message_size, "%s", "");
    progress *progress = calloc(1, sizeof *progress);
    if (!progress) return NULL;
    if (options) progress->options = *options;
    progress->options.before_long = NULL; /* (told once, at opening) */
    progress->directory = directory ? progress_copy_string(directory) : default_directory();
    if (!progress->directory && directory) {
        free(progress);
        return NULL;
    }
    progress->file = progress->directory ? join_path(progress->directory, DATABASE_NAME)
                                         : progress_copy_string(DATABASE_NAME);
    if (!progress->file) {
        progress_close(progress);
        return NULL;
    }
    char opened[PROGRESS_DB_MESSAGE_SIZE] = "", imported[1024] = "";
    bool read_only = false; /* progress->db is a copy in memory of a file it cannot write */
    if (!progress->directory) {
        snprintf(progress->no_save_reason, sizeof progress->no_save_reason,
                 "neither XDG_DATA_HOME nor HOME is set, so progress is not saved");
        set_message(opened, sizeof opened, "progress: %s", progress->no_save_reason);
    } else {
        progress->db = progress_db_open(progress->directory, progress->file, options, &read_only,
                                        opened, sizeof opened);
        if (!progress->db || read_only) {
            /* (the exit line says only why: that the progress is shown was told at the start) */
            const char *shown = read_only ? strstr(opened, PROGRESS_DB_SHOWN) : NULL;
            const char *reason = strncmp(opened, "progress: ", 10) == 0 ? opened + 10 : opened;
            snprintf(progress->no_save_reason, sizeof progress->no_save_reason, "%.*s",
                     shown ? (int)(shown - reason) : (int)strlen(reason), reason);
        }
    }
    progress->saving = progress->db != NULL && !read_only;
    if (progress->saving) progress->identity = progress_db_identify(progress->db);
    if (progress->saving)
        progress_legacy_import(progress->db, progress->directory, imported, sizeof imported);
    if (!progress->db && !(progress->db = progress_db_open_memory())) {
        progress_close(progress);
        return NULL;
    }
    if (opened[0] && imported[0])
        set_message(message, message_size, "%s; %s", opened, imported + 10);
    else
        set_message(message, message_size, "%s", opened[0] ? opened : imported);
    return progress;
}

bool progress_save_final(progress *progress, char *why, size_t why_size)
{
    if (progress->saving && progress->queued_count) {
        sqlite3_busy_timeout(progress->db, PROGRESS_OPEN_BUSY_MS);
        run_queued(progress);
        sqlite3_busy_timeout(progress->db, PROGRESS_BUSY_MS);
        progress->final_tried = true;
    }
    return !progress_unsaved(progress, why, why_size);
}

void progress_close(progress *progress)
{
    if (!progress) return;
    if (progress->saving && progress->queued_count && !progress->final_tried) {
        /* The last chance: wait longer for another game's lock (once: not again right
         * after progress_save_final() waited as long). */
        sqlite3_busy_timeout(progress->db, PROGRESS_OPEN_BUSY_MS);
        run_queued(progress);
    }
    for (int i = 0; i < progress->queued_count; i++) progress_change_free(&progress->queued[i]);
    free(progress->queued);
    free(progress->takes);
    for (int i = 0; i < PROGRESS_GET_SLOTS; i++) progress_record_free(&progress->slots[i]);
    sqlite3_finalize(progress->data_version);
    progress_forget_statements(progress);
    sqlite3_close(progress->db);
    free(progress->last_path);
    free(progress->summaries.summaries);
    free(progress->directory);
    free(progress->file);
    free(progress);
}

const char *progress_file(const progress *progress)
{
    return progress->file;
}

bool progress_saving(const progress *progress)
{
    return progress->saving;
}

bool progress_save(progress *progress, char *message, size_t message_size)
{
    set_message(message, message_size, "%s", "");
    if (!progress->saving || progress->queued_count == 0) return true;
    bool told = progress->failure_told;
    for (int attempt = 0; attempt < SAVE_ATTEMPTS; attempt++)
        if (run_queued(progress)) return true;
    if (!told) {
        set_message(message, message_size, "progress not saved: %s", progress->failure);
        progress->notice_pending = false; /* told here, not again as a notice */
    }
    return false;
}

bool progress_unsaved(const progress *progress, char *why, size_t why_size)
{
    set_message(why, why_size, "%s", "");
    if (!progress->saving && progress->changed) {
        set_message(why, why_size, "progress was not saved: %s", progress->no_save_reason);
        return true;
    }
    if (progress->queued_count > 0) {
        set_message(why, why_size, "progress was not saved: %s", progress->failure);
        return true;
    }
    return false;
}

const char *progress_take_notice(progress *progress)
{
    if (!progress->notice_pending) return NULL;
    progress->notice_pending = false;
    return progress->notice;
}
