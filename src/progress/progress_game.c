/* progress_game.c - the game in play never written over another game's (progress.h's
 * progress_take_game; part of the store, progress_store.h).
 *
 * Two games may play the same level at once (two terminals, one database). Each knows the
 * saved game it took when it opened the level, as a hash; every write of the level's game
 * first compares the game saved now with it, inside the write's transaction (so no other
 * game writes in between). The same: the write goes on, and what it wrote is what the next
 * one expects. Another: a game saved by the other since, which is kept; this game's moves go
 * to a snapshot of their own, "kept apart YYYY-MM-DD HH:MM:SS" (a name no other snapshot of
 * the level has), told once, until the level is taken again. An empty saved game (the other
 * solved or restarted the level) is nobody's: written over. Nothing is lost, and neither
 * game decides alone by quitting last.
 *
 * A change that finds the database locked is queued and written later, maybe after the game
 * took another level: each change keeps the take it was made under (its id), and is checked
 * against that take, kept while a queued change holds it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "progress_store.h"

/* The hash of a saved game: its three texts (NULL as "") and its help marks. */
static uint64_t game_hash(const char *const texts[3], int64_t solver_from, int64_t hint_from)
{
    uint64_t hash = PROGRESS_HASH_START;
    for (int i = 0; i < 3; i++) /* each with its NUL, so the texts cannot run together */
        hash = progress_hash_update(hash, texts[i] ? texts[i] : "",
                                    texts[i] ? strlen(texts[i]) + 1 : 1);
    char marks[48];
    int length =
        snprintf(marks, sizeof marks, "%lld %lld", (long long)(solver_from < 0 ? -1 : solver_from),
                 (long long)(hint_from < 0 ? -1 : hint_from));
    return progress_hash_update(hash, marks, (size_t)length);
}

static uint64_t no_game_hash(void)
{
    return game_hash((const char *const[3]){0}, -1, -1);
}

/* The hash of the game a change writes (none when it forgets the game). */
static uint64_t change_hash(const progress_change *c)
{
    if (!c->text[0] && !c->text[1]) return no_game_hash();
    return game_hash((const char *const[3]){c->text[0], c->text[1], c->text[2]}, c->number[0],
                     c->number[1]);
}

/* The hash of a record's game (none: no_game_hash). */
static uint64_t record_hash(const progress_record *record)
{
    if (!record || (!record->unfinished && !record->unfinished_redo)) return no_game_hash();
    return game_hash((const char *const[3]){record->unfinished, record->unfinished_redo,
                                            record->unfinished_groups},
                     record->unfinished_solver_from, record->unfinished_hint_from);
}

/* The hash of the level's game saved now, read as progress_read() reads it. */
static int saved_hash(progress *progress, progress_key key, uint64_t *hash)
{
    *hash = no_game_hash();
    sqlite3_stmt *s = progress_prepare(progress,
                                       "SELECT unfinished, unfinished_redo, unfinished_groups, "
                                       "unfinished_solver_from, unfinished_hint_from FROM level "
                                       "WHERE key = ?1",
                                       "k", key);
    if (!s) return sqlite3_errcode(progress->db);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        /* the texts stay the statement's: the record is only hashed */
        progress_record record = {
            .unfinished = (char *)sqlite3_column_text(s, 0),
            .unfinished_redo = (char *)sqlite3_column_text(s, 1),
            .unfinished_groups = (char *)sqlite3_column_text(s, 2),
            .unfinished_solver_from = progress_column_mark(s, 3),
            .unfinished_hint_from = progress_column_mark(s, 4),
        };
        *hash = record_hash(&record);
    }
    progress_release(progress, s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* True when a queued change holds the take `id`. */
static bool held(const progress *progress, unsigned id)
{
    for (int i = 0; i < progress->queued_count; i++)
        if (progress->queued[i].take == id) return true;
    return false;
}

void progress_take_game(progress *progress, progress_key key, const progress_record *record)
{
    /* the take in force, kept while queued changes hold it (no room: they are then written
     * without a check, as before any take) */
    if (progress->game.id && held(progress, progress->game.id)) {
        if (progress->take_count == progress->take_capacity) {
            int capacity = progress->take_capacity ? 2 * progress->take_capacity : 4;
            progress_take *grown =
                realloc(progress->takes, (size_t)capacity * sizeof *progress->takes);
            if (grown) {
                progress->takes = grown;
                progress->take_capacity = capacity;
            }
        }
        if (progress->take_count < progress->take_capacity)
            progress->takes[progress->take_count++] = progress->game;
    }
    progress->game = (progress_take){.id = ++progress->last_take, .key = key};
    if (!progress->game.id) progress->game.id = ++progress->last_take; /* wrapped: never 0 */
    progress->game.saved = record_hash(record);
}

unsigned progress_game_take_of(const progress *progress, progress_key key)
{
    return progress->game.id && progress->game.key == key ? progress->game.id : 0;
}

progress_take *progress_game_find(progress *progress, unsigned id)
{
    if (!id) return NULL;
    if (progress->game.id == id) return &progress->game;
    for (int i = 0; i < progress->take_count; i++)
        if (progress->takes[i].id == id) return &progress->takes[i];
    return NULL;
}

void progress_game_written(progress *progress, progress_take *take)
{
    if (!progress->pending_set || !take) return;
    uint64_t before = take->saved;
    for (int i = -1; i < progress->take_count; i++) {
        progress_take *other = i < 0 ? &progress->game : &progress->takes[i];
        if (other != take && other->id && other->key == take->key && other->saved == before &&
            !other->apart[0])
            other->saved = progress->pending;
    }
    take->saved = progress->pending;
}

void progress_game_prune(progress *progress)
{
    int kept = 0;
    for (int i = 0; i < progress->take_count; i++)
        if (held(progress, progress->takes[i].id)) progress->takes[kept++] = progress->takes[i];
    progress->take_count = kept;
}

void progress_game_retake(progress *progress)
{
    for (int i = -1; i < progress->take_count; i++) {
        progress_take *take = i < 0 ? &progress->game : &progress->takes[i];
        if (!take->id) continue;
        take->apart[0] = '\0';
        uint64_t hash;
        /* unreadable: no game, as the write that follows finds it or fails */
        saved_hash(progress, take->key, &hash);
        take->saved = hash;
    }
}

int progress_game_other(progress *progress, progress_take *take, progress_key key,
                        const progress_change *c, bool *other)
{
    *other = false;
    if (!take || take->key != key) return SQLITE_OK;
    if (take->apart[0]) {
        *other = true;
        return SQLITE_OK;
    }
    uint64_t saved;
    int rc = saved_hash(progress, key, &saved);
    if (rc != SQLITE_OK) return rc;
    /* another's, unless it is empty (solved or restarted there: nothing to keep) or the very
     * game this change writes (both came to one position) */
    *other = saved != take->saved && saved != no_game_hash() && !(c && saved == change_hash(c));
    return SQLITE_OK;
}

/* Names the snapshot a take's moves are kept apart in: by the date and time, with a count
 * after it when the level has a snapshot of that name already. */
static int name_apart(progress *progress, progress_take *take)
{
    time_t now = time(NULL);
    struct tm local;
    char clock[32] = "";
    if (localtime_r(&now, &local)) strftime(clock, sizeof clock, "%Y-%m-%d %H:%M:%S", &local);
    for (int count = 1;; count++) {
        if (count == 1)
            snprintf(take->apart, sizeof take->apart, "kept apart %s", clock);
        else
            snprintf(take->apart, sizeof take->apart, "kept apart %s (%d)", clock, count);
        sqlite3_stmt *s =
            progress_prepare(progress, "SELECT 1 FROM snapshot WHERE key = ?1 AND name = ?2", "kt",
                             take->key, take->apart);
        if (!s) return sqlite3_errcode(progress->db);
        int rc = sqlite3_step(s);
        progress_release(progress, s);
        if (rc == SQLITE_DONE) return SQLITE_OK;
        if (rc != SQLITE_ROW) return rc;
    }
}

int progress_game_apart(progress *progress, progress_take *take, const progress_change *c)
{
    bool forget = !c->text[0] && !c->text[1];
    if (!take->apart[0]) {
        /* nothing of this game's to keep: it was not changed since it was taken */
        if (forget || change_hash(c) == take->saved) return SQLITE_OK;
        int rc = name_apart(progress, take);
        if (rc != SQLITE_OK) {
            take->apart[0] = '\0';
            return rc;
        }
        progress_notify(progress,
                        "Another sokoban saved this level's game since you opened it: kept; "
                        "yours goes to the snapshot \"%s\" (' lists them)",
                        take->apart);
    }
    if (forget) /* solved or restarted here: its moves need no keeping */
        return progress_finish(progress,
                               progress_prepare(progress,
                                                "DELETE FROM snapshot WHERE key = ?1 AND name = ?2",
                                                "kt", c->key, take->apart));
    int rc = progress_finish(
        progress,
        progress_prepare(progress, "INSERT OR IGNORE INTO level (key) VALUES (?1)", "k", c->key));
    if (rc != SQLITE_OK) return rc;
    return progress_finish(
        progress, progress_prepare(progress,
                                   "INSERT OR REPLACE INTO snapshot (key, name, lurd, redo, "
                                   "groups, saved) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                                   "ktttti", c->key, take->apart, c->text[0] ? c->text[0] : "",
                                   c->text[1] ? c->text[1] : "", c->text[2] ? c->text[2] : "",
                                   (int64_t)time(NULL)));
}

void progress_game_writing(progress *progress, const progress_take *take, const progress_change *c)
{
    progress->pending_set = take != NULL;
    progress->pending = c ? change_hash(c) : no_game_hash();
}
