/* progress_game.c - the game in play never written over another game's (progress.h's
 * progress_take_game; part of the store, progress_store.h).
 *
 * Two games may play the same level at once (two terminals, one database). Each knows the
 * saved game it took when it opened the level, as a hash; every write of the level's game
 * first compares the game saved now with it, inside the write's transaction (so no other
 * game writes in between). The same: the write goes on, and what it wrote is what the next
 * one expects. Another: a game saved by the other since, which is kept; this game's moves go
 * to a snapshot of their own, "kept apart HH:MM:SS", told once, until the level is taken
 * again. Nothing is lost, and neither game decides alone by quitting last. */
#include <stdio.h>
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

void progress_take_game(progress *progress, progress_key key, const progress_record *record)
{
    progress->game.taken = true;
    progress->game.key = key;
    progress->game.apart[0] = '\0';
    progress->game.saved =
        !record || (!record->unfinished && !record->unfinished_redo)
            ? no_game_hash()
            : game_hash((const char *const[3]){record->unfinished, record->unfinished_redo,
                                               record->unfinished_groups},
                        record->unfinished_solver_from, record->unfinished_hint_from);
}

int progress_game_other(progress *progress, progress_key key, const progress_change *c, bool *other)
{
    *other = false;
    if (!progress->game.taken || progress->game.key != key) return SQLITE_OK;
    if (progress->game.apart[0]) {
        *other = true;
        return SQLITE_OK;
    }
    sqlite3_stmt *s = progress_prepare(progress,
                                       "SELECT unfinished, unfinished_redo, unfinished_groups, "
                                       "unfinished_solver_from, unfinished_hint_from FROM level "
                                       "WHERE key = ?1",
                                       "k", key);
    if (!s) return sqlite3_errcode(progress->db);
    int rc = sqlite3_step(s);
    uint64_t saved = no_game_hash();
    if (rc == SQLITE_ROW &&
        (sqlite3_column_type(s, 0) != SQLITE_NULL || sqlite3_column_type(s, 1) != SQLITE_NULL)) {
        const char *texts[3];
        for (int i = 0; i < 3; i++) texts[i] = (const char *)sqlite3_column_text(s, i);
        int64_t marks[2];
        for (int i = 0; i < 2; i++)
            marks[i] =
                sqlite3_column_type(s, 3 + i) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 3 + i);
        saved = game_hash(texts, marks[0], marks[1]);
    }
    progress_release(progress, s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return rc;
    /* another's, unless it is the very game this change writes (both came to one position) */
    *other = saved != progress->game.saved && !(c && saved == change_hash(c));
    return SQLITE_OK;
}

int progress_game_apart(progress *progress, const progress_change *c)
{
    bool forget = !c->text[0] && !c->text[1];
    if (!progress->game.apart[0]) {
        /* nothing of this game's to keep: it was not changed since it was taken */
        if (forget || change_hash(c) == progress->game.saved) return SQLITE_OK;
        time_t now = time(NULL);
        struct tm local;
        char clock[16] = "";
        if (localtime_r(&now, &local)) strftime(clock, sizeof clock, "%H:%M:%S", &local);
        snprintf(progress->game.apart, sizeof progress->game.apart, "kept apart %s", clock);
        progress_notify(progress,
                        "Another sokoban saved this level's game since you opened it: kept; "
                        "yours goes to the snapshot \"%s\" (' lists them)",
                        progress->game.apart);
    }
    if (forget) /* solved or restarted here: its moves need no keeping */
        return progress_finish(progress,
                               progress_prepare(progress,
                                                "DELETE FROM snapshot WHERE key = ?1 AND name = ?2",
                                                "kt", c->key, progress->game.apart));
    int rc = progress_finish(
        progress,
        progress_prepare(progress, "INSERT OR IGNORE INTO level (key) VALUES (?1)", "k", c->key));
    if (rc != SQLITE_OK) return rc;
    return progress_finish(
        progress, progress_prepare(progress,
                                   "INSERT OR REPLACE INTO snapshot (key, name, lurd, redo, "
                                   "groups, saved) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                                   "ktttti", c->key, progress->game.apart,
                                   c->text[0] ? c->text[0] : "", c->text[1] ? c->text[1] : "",
                                   c->text[2] ? c->text[2] : "", (int64_t)time(NULL)));
}

void progress_game_writing(progress *progress, progress_key key, const progress_change *c)
{
    progress->game.pending_set = progress->game.taken && progress->game.key == key;
    progress->game.pending = c ? change_hash(c) : no_game_hash();
}
