/* progress_levels.c - what the progress keeps of levels and collections: records and bests
 * (checked by replaying them), unfinished games, snapshots, imported solutions, the
 * collection played last, statistics. Built on the store (progress.c, through
 * progress_store.h): reads with progress_prepare(), writes with progress_submit(); the store
 * calls nothing of this file. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "progress_store.h"

/* ---- reading records ------------------------------------------------------------------ */

bool progress_read(progress *progress, progress_key key, progress_record *record)
{
    memset(record, 0, sizeof *record);
    record->key = key;
    bool found = false;
    record->unfinished_solver_from = record->unfinished_hint_from = PROGRESS_NO_HELP;
    sqlite3_stmt *level = progress_prepare(progress,
                                           "SELECT solved, assisted, unfinished, "
                                           "unfinished_redo, seconds, unfinished_solver_from,"
                                           " unfinished_hint_from, unfinished_groups FROM level "
                                           "WHERE key = ?1",
                                           "k", key);
    if (level && sqlite3_step(level) == SQLITE_ROW) {
        found = true;
        record->solved = sqlite3_column_int(level, 0) != 0;
        record->assisted = sqlite3_column_int(level, 1) != 0;
        record->unfinished = progress_column_text(level, 2);
        record->unfinished_redo = progress_column_text(level, 3);
        record->seconds = sqlite3_column_double(level, 4);
        record->unfinished_groups = progress_column_text(level, 7);
        record->unfinished_solver_from = progress_column_mark(level, 5);
        record->unfinished_hint_from = progress_column_mark(level, 6);
    }
    progress_release(progress, level);
    sqlite3_stmt *best = progress_prepare(progress,
                                          "SELECT kind, lurd, moves, pushes, origin FROM "
                                          "best WHERE key = ?1",
                                          "k", key);
    while (best && sqlite3_step(best) == SQLITE_ROW) {
        found = true;
        progress_solution *solution =
            sqlite3_column_int(best, 0) ? &record->best_pushes : &record->best_moves;
        free(solution->lurd);
        solution->lurd = progress_column_text(best, 1);
        solution->moves = sqlite3_column_int(best, 2);
        solution->pushes = sqlite3_column_int(best, 3);
        int origin = sqlite3_column_int(best, 4);
        solution->origin = origin >= PROGRESS_OWN && origin <= PROGRESS_OPTIMIZED
                               ? (progress_origin)origin
                               : PROGRESS_IMPORTED;
    }
    progress_release(progress, best);
    return found;
}

/* A best as the database holds it, for check_bests(). */
typedef struct stored_best {
    int64_t kind, moves, pushes;
    bool checked;
    char *lurd;
} stored_best;

/* The level's bests (`*count` of them, malloc'd; NULL when none or out of memory), read
 * whole before any is corrected: each correction is a transaction of its own
 * (progress_write_now), never run while the read is under way. */
static stored_best *read_bests(progress *progress, progress_key key, int *count)
{
    *count = 0;
    sqlite3_stmt *select = progress_prepare(progress,
                                            "SELECT kind, lurd, checked, moves, pushes "
                                            "FROM best WHERE key = ?1",
                                            "k", key);
    stored_best *bests = NULL;
    int capacity = 0;
    while (select && sqlite3_step(select) == SQLITE_ROW) {
        if (*count == capacity) {
            int grown_capacity = capacity ? 2 * capacity : 2;
            stored_best *grown = realloc(bests, (size_t)grown_capacity * sizeof *grown);
            if (!grown) break;
            bests = grown;
            capacity = grown_capacity;
        }
        bests[(*count)++] = (stored_best){
            .kind = sqlite3_column_int64(select, 0),
            .lurd = progress_column_text(select, 1),
            .checked = sqlite3_column_type(select, 2) == SQLITE_INTEGER &&
                       sqlite3_column_int64(select, 2) == 1,
            .moves = sqlite3_column_int64(select, 3),
            .pushes = sqlite3_column_int64(select, 4),
        };
    }
    progress_release(progress, select);
    return bests;
}

/* Replays the level's bests, whatever the database says of them (a file edited by hand or
 * damaged: an empty or false solution marked checked): one that solves it is marked checked
 * with the counts the replay gave (written only when something differs), one that does not
 * is dropped and told once. Corrections that cannot be written now are made at a later
 * read. Returns the kinds (1 << kind, 0 and 1) of the false bests that could not be dropped, for
 * the reader to hide. */
static unsigned check_bests(progress *progress, const level *level, progress_key key)
{
    int count;
    stored_best *bests = read_bests(progress, key, &count);
    int dropped = 0;
    unsigned false_kept = 0;
    for (int i = 0; i < count; i++) {
        stored_best *best = &bests[i];
        int moves = 0, pushes = 0;
        char *canonical = progress_replay(level, best->lurd ? best->lurd : "", &moves, &pushes);
        bool same = canonical && best->checked && best->moves == moves && best->pushes == pushes &&
                    best->lurd && strcmp(best->lurd, canonical) == 0;
        if (same) {
            /* checked, and true: nothing to write */
        } else if (canonical)
            progress_write_now(progress,
                               "UPDATE best SET checked = 1, lurd = ?3, moves = ?4, pushes = ?5 "
                               "WHERE key = ?1 AND kind = ?2",
                               "kitii", key, best->kind, canonical, (int64_t)moves,
                               (int64_t)pushes);
        else if (progress_write_now(progress, "DELETE FROM best WHERE key = ?1 AND kind = ?2", "ki",
                                    key, best->kind) == SQLITE_OK)
            dropped++;
        else if (best->kind == 0 || best->kind == 1) /* (the kinds a record shows) */
            false_kept |= 1u << best->kind;
        free(canonical);
        free(best->lurd);
    }
    free(bests);
    if (!dropped) return false_kept;
    /* A level whose every best was false was never solved. */
    progress_write_now(progress,
                       "UPDATE level SET solved = 0 WHERE key = ?1 AND NOT EXISTS (SELECT 1 "
                       "FROM best WHERE key = ?1)",
                       "k", key);
    progress_notify(progress,
                    "progress: a saved best of level %d%s%s did not solve it and was dropped",
                    level->number, level->title[0] ? ", " : "", level->title);
    return false_kept;
}

bool progress_read_level(progress *progress, const level *level, progress_record *record)
{
    progress_key key = progress_level_key(level);
    unsigned false_kept = check_bests(progress, level, key);
    bool found = progress_read(progress, key, record);
    /* A false best that could not be dropped yet is not shown. */
    progress_solution *solutions[] = {&record->best_moves, &record->best_pushes};
    for (int kind = 0; kind < 2; kind++) {
        if (!(false_kept & (1u << kind))) continue;
        free(solutions[kind]->lurd);
        memset(solutions[kind], 0, sizeof *solutions[kind]);
    }
    return found;
}

/* The next slot of progress_get, emptied. */
static progress_record *next_slot(progress *progress)
{
    progress_record *slot = &progress->slots[progress->next_slot];
    progress->slot_uses[progress->next_slot]++;
    progress->next_slot = (progress->next_slot + 1) % PROGRESS_GET_SLOTS;
    progress_record_free(slot);
    return slot;
}

const progress_record *progress_get(progress *progress, progress_key key)
{
    progress_record *slot = next_slot(progress);
    return progress_read(progress, key, slot) ? slot : NULL;
}

/* The database's data version as other connections change it (PRAGMA data_version), or -1
 * when it cannot be read. */
static int64_t data_version(progress *progress)
{
    if (!progress->data_version &&
        sqlite3_prepare_v3(progress->db, "PRAGMA data_version", -1, SQLITE_PREPARE_PERSISTENT,
                           &progress->data_version, NULL) != SQLITE_OK)
        return -1;
    int64_t version = sqlite3_step(progress->data_version) == SQLITE_ROW
                          ? sqlite3_column_int64(progress->data_version, 0)
                          : -1;
    sqlite3_reset(progress->data_version);
    return version;
}

const progress_record *progress_get_level(progress *progress, const level *level)
{
    progress_key key = progress_level_key(level);
    int64_t version = data_version(progress);
    progress_last_level *last = &progress->last_level;
    if (last->valid && version >= 0 && last->key == key && last->version == version &&
        last->changes == sqlite3_total_changes(progress->db) &&
        last->uses == progress->slot_uses[last->slot])
        return last->found ? &progress->slots[last->slot] : NULL;
    int index = progress->next_slot;
    progress_record *slot = next_slot(progress);
    bool found = progress_read_level(progress, level, slot);
    /* the changes after the read: it may correct a best itself */
    *last = (progress_last_level){.valid = version >= 0,
                                  .found = found,
                                  .key = key,
                                  .changes = sqlite3_total_changes(progress->db),
                                  .version = version,
                                  .slot = index,
                                  .uses = progress->slot_uses[index]};
    return found ? slot : NULL;
}

/* ---- writing records ------------------------------------------------------------------ */

/* Records a checked solution (canonical LURD, counts from the replay). */
static bool submit_solution(progress *progress, progress_key key, char *lurd, int moves, int pushes,
                            progress_origin origin, bool checked, const char *source,
                            int *best_flags)
{
    progress_change change = {
        .kind = CHANGE_SOLUTION,
        .key = key,
        .text = {lurd, progress_copy_string(source)},
        .number = {moves, pushes, origin, checked},
    };
    if (source && !change.text[1]) {
        free(lurd);
        return false;
    }
    int flags = 0;
    bool written = progress_submit(progress, &change, &flags);
    if (best_flags) *best_flags = flags;
    return written && flags != 0;
}

bool progress_add_solution(progress *progress, const level *level, const char *lurd,
                           progress_origin origin, int *best_flags)
{
    if (best_flags) *best_flags = 0;
    if (origin == PROGRESS_IMPORTED)
        return progress_import_solution(progress, level, lurd, "", best_flags);
    int moves, pushes;
    char *canonical = progress_replay(level, lurd, &moves, &pushes);
    if (!canonical) return false;
    progress_key key = progress_level_key(level);
    /* A false best kept unchecked must not stand in the way of this one. */
    check_bests(progress, level, key);
    return submit_solution(progress, key, canonical, moves, pushes, origin, true, NULL, best_flags);
}

bool progress_import_solution(progress *progress, const level *level, const char *lurd,
                              const char *source, int *best_flags)
{
    if (best_flags) *best_flags = 0;
    int moves, pushes;
    char *canonical = progress_replay(level, lurd, &moves, &pushes);
    if (!canonical) return false;
    progress_key key = progress_level_key(level);
    check_bests(progress, level, key);
    int flags = 0;
    submit_solution(progress, key, canonical, moves, pushes, PROGRESS_IMPORTED, true,
                    source ? source : "", &flags);
    if (best_flags) *best_flags = flags;
    return true;
}

bool progress_record_solution(progress *progress, progress_key key, const char *lurd, int moves,
                              int pushes)
{
    if (!lurd || !*lurd || !progress_is_lurd_text(lurd) || moves < 0 || pushes < 0) return false;
    char *copy = progress_copy_string(lurd);
    if (!copy) return false;
    return submit_solution(progress, key, copy, moves, pushes, PROGRESS_OWN, false, NULL, NULL);
}

bool progress_set_game(progress *progress, progress_key key, const char *lurd, const char *redo)
{
    return progress_set_game_helped(progress, key, lurd, redo, NULL, PROGRESS_NO_HELP,
                                    PROGRESS_NO_HELP);
}

bool progress_set_game_helped(progress *progress, progress_key key, const char *lurd,
                              const char *redo, const char *groups, int solver_from, int hint_from)
{
    if (!progress_is_lurd_text(lurd) || !progress_is_lurd_text(redo) ||
        !progress_is_groups_text(groups))
        return false;
    progress_change change = {.kind = CHANGE_GAME,
                              .key = key,
                              .number = {solver_from < 0 ? PROGRESS_NO_HELP : solver_from,
                                         hint_from < 0 ? PROGRESS_NO_HELP : hint_from}};
    /* no moves, no groups: the game is forgotten */
    const char *texts[3] = {lurd, redo, (lurd && *lurd) || (redo && *redo) ? groups : NULL};
    for (int i = 0; i < 3; i++) {
        if (texts[i] && *texts[i] && !(change.text[i] = progress_copy_string(texts[i]))) {
            progress_change_free(&change);
            return false;
        }
    }
    return progress_submit(progress, &change, NULL);
}

bool progress_set_unfinished(progress *progress, progress_key key, const char *lurd)
{
    return progress_set_game(progress, key, lurd, NULL);
}

bool progress_add_time(progress *progress, progress_key key, double seconds)
{
    if (!(seconds > 0)) return true;
    progress_change change = {.kind = CHANGE_TIME, .key = key, .seconds = seconds};
    return progress_submit(progress, &change, NULL);
}

/* ---- snapshots ----------------------------------------------------------------------- */

bool progress_snapshot_save(progress *progress, progress_key key, const char *name,
                            const char *lurd, const char *redo, const char *groups)
{
    if (!name || !progress_is_lurd_text(lurd) || !progress_is_lurd_text(redo) ||
        !progress_is_groups_text(groups))
        return false;
    progress_change change = {
        .kind = CHANGE_SNAPSHOT,
        .key = key,
        .text = {progress_copy_string(name), progress_copy_string(lurd ? lurd : ""),
                 progress_copy_string(redo ? redo : ""),
                 progress_copy_string(groups ? groups : "")},
        .number = {(int64_t)time(NULL)},
    };
    if (!change.text[0] || !change.text[1] || !change.text[2] || !change.text[3]) {
        progress_change_free(&change);
        return false;
    }
    return progress_submit_kept(progress, &change);
}

/* Newest first, then by name, as the snapshot table is read. */
static int snapshot_order(const void *a, const void *b)
{
    const progress_snapshot *x = a, *y = b;
    if (x->saved != y->saved) return x->saved > y->saved ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void snapshot_clear(progress_snapshot *s)
{
    free(s->name);
    free(s->lurd);
    free(s->redo);
    free(s->groups);
}

/* The snapshot changes of `key` still queued (another game held the database), played over
 * the rows read, so that the list shows what the player saved and deleted. False when out of
 * memory. */
static bool apply_queued_snapshots(const progress *progress, progress_key key,
                                   progress_snapshot **snapshots, int *count, int *capacity)
{
    for (int q = 0; q < progress->queued_count; q++) {
        const progress_change *c = &progress->queued[q];
        if (c->key != key || (c->kind != CHANGE_SNAPSHOT && c->kind != CHANGE_SNAPSHOT_DELETE))
            continue;
        int at = 0;
        while (at < *count && strcmp((*snapshots)[at].name, c->text[0]) != 0) at++;
        if (at < *count) {
            snapshot_clear(&(*snapshots)[at]);
            (*snapshots)[at] = (*snapshots)[--*count];
        }
        if (c->kind == CHANGE_SNAPSHOT_DELETE) continue;
        if (*count == *capacity) {
            int grown_capacity = *capacity ? 2 * *capacity : 8;
            progress_snapshot *grown = realloc(*snapshots, (size_t)grown_capacity * sizeof *grown);
            if (!grown) return false;
            *snapshots = grown;
            *capacity = grown_capacity;
        }
        progress_snapshot *s = &(*snapshots)[(*count)++];
        s->name = progress_copy_string(c->text[0]);
        s->lurd = progress_copy_string(c->text[1]);
        s->redo = progress_copy_string(c->text[2]);
        s->groups = progress_copy_string(c->text[3] ? c->text[3] : "");
        s->saved = c->number[0];
        if (!s->name || !s->lurd || !s->redo || !s->groups) return false;
    }
    if (*count > 1) qsort(*snapshots, (size_t)*count, sizeof **snapshots, snapshot_order);
    return true;
}

int progress_snapshots(progress *progress, progress_key key, progress_snapshot **snapshots)
{
    *snapshots = NULL;
    sqlite3_stmt *select = progress_prepare(progress,
                                            "SELECT name, lurd, redo, saved, groups FROM "
                                            "snapshot WHERE key = ?1 ORDER BY "
                                            "saved DESC, name",
                                            "k", key);
    if (!select) return -1;
    int count = 0, capacity = 0;
    bool failed = false;
    int rc;
    while (!failed && (rc = sqlite3_step(select)) == SQLITE_ROW) {
        if (count == capacity) {
            capacity = capacity ? 2 * capacity : 8;
            progress_snapshot *grown = realloc(*snapshots, (size_t)capacity * sizeof *grown);
            if (!grown) {
                failed = true;
                break;
            }
            *snapshots = grown;
        }
        progress_snapshot *s = &(*snapshots)[count++];
        s->name = progress_column_text(select, 0);
        s->lurd = progress_column_text(select, 1);
        s->redo = progress_column_text(select, 2);
        s->saved = sqlite3_column_int64(select, 3);
        s->groups = progress_column_text(select, 4);
        failed = !s->name || !s->lurd || !s->redo || !s->groups;
    }
    if (!failed && rc != SQLITE_DONE) failed = true;
    progress_release(progress, select);
    if (!failed) failed = !apply_queued_snapshots(progress, key, snapshots, &count, &capacity);
    if (failed) {
        progress_snapshots_free(*snapshots, count);
        *snapshots = NULL;
        return -1;
    }
    return count;
}

void progress_snapshots_free(progress_snapshot *snapshots, int count)
{
    for (int i = 0; i < count; i++) snapshot_clear(&snapshots[i]);
    free(snapshots);
}

bool progress_snapshot_delete(progress *progress, progress_key key, const char *name)
{
    /* there as the player sees it: in the table with the changes still queued played over */
    progress_snapshot *snapshots;
    int count = progress_snapshots(progress, key, &snapshots);
    bool found = false;
    for (int i = 0; i < count && !found; i++) found = strcmp(snapshots[i].name, name) == 0;
    progress_snapshots_free(snapshots, count < 0 ? 0 : count);
    if (!found) return false;
    progress_change change = {
        .kind = CHANGE_SNAPSHOT_DELETE, .key = key, .text = {progress_copy_string(name)}};
    if (!change.text[0]) return false;
    return progress_submit_kept(progress, &change);
}

/* ---- imported solutions -------------------------------------------------------------- */

int progress_imported_solutions(progress *progress, progress_key key, progress_imported **list)
{
    *list = NULL;
    sqlite3_stmt *select = progress_prepare(progress,
                                            "SELECT lurd, moves, pushes, source "
                                            "FROM imported WHERE key = ?1 ORDER "
                                            "BY moves, pushes",
                                            "k", key);
    if (!select) return -1;
    int count = 0, capacity = 0, rc;
    bool failed = false;
    while (!failed && (rc = sqlite3_step(select)) == SQLITE_ROW) {
        if (count == capacity) {
            capacity = capacity ? 2 * capacity : 8;
            progress_imported *grown = realloc(*list, (size_t)capacity * sizeof *grown);
            if (!grown) {
                failed = true;
                break;
            }
            *list = grown;
        }
        progress_imported *s = &(*list)[count++];
        s->lurd = progress_column_text(select, 0);
        s->moves = sqlite3_column_int(select, 1);
        s->pushes = sqlite3_column_int(select, 2);
        s->source = progress_column_text(select, 3);
        failed = !s->lurd || !s->source;
    }
    if (!failed && rc != SQLITE_DONE) failed = true;
    progress_release(progress, select);
    if (failed) {
        progress_imported_free(*list, count);
        *list = NULL;
        return -1;
    }
    return count;
}

void progress_imported_free(progress_imported *list, int count)
{
    for (int i = 0; i < count; i++) {
        free(list[i].lurd);
        free(list[i].source);
    }
    free(list);
}

/* ---- collections and statistics ------------------------------------------------------- */

/* `path` made absolute when the file exists (malloc'd), else a copy of it. */
static char *absolute_path(const char *path)
{
    char *resolved = realpath(path, NULL);
    return resolved ? resolved : progress_copy_string(path);
}

bool progress_set_last(progress *progress, const char *collection_path, int level_number)
{
    progress_change change = {
        .kind = CHANGE_LAST, .text = {absolute_path(collection_path)}, .number = {level_number}};
    if (!change.text[0]) return false;
    progress_submit(progress, &change, NULL);
    return true;
}

/* A level number as the database holds it: an integer from 1 to INT_MAX, else 0 (none):
 * one written by hand past an int, read as an int, came back negative (2147483648 as
 * INT_MIN, and the game's `number - 1` overflowed). */
static int level_number_of(sqlite3_stmt *statement, int column)
{
    if (sqlite3_column_type(statement, column) != SQLITE_INTEGER) return 0;
    int64_t number = sqlite3_column_int64(statement, column);
    return number >= 1 && number <= INT_MAX ? (int)number : 0;
}

bool progress_last(progress *progress, const char **collection_path, int *level_number)
{
    sqlite3_stmt *select = progress_prepare(progress,
                                            "SELECT path, level FROM collection "
                                            "WHERE played > 0 ORDER BY played "
                                            "DESC LIMIT 1",
                                            "");
    bool found = false;
    if (select && sqlite3_step(select) == SQLITE_ROW) {
        char *path = progress_column_text(select, 0);
        if (path) {
            free(progress->last_path);
            progress->last_path = path;
            *collection_path = path;
            *level_number = level_number_of(select, 1);
            found = true;
        }
    }
    progress_release(progress, select);
    return found;
}

int progress_collection_level(progress *progress, const char *collection_path)
{
    char *path = absolute_path(collection_path);
    if (!path) return 0;
    sqlite3_stmt *select = progress_prepare(progress,
                                            "SELECT level FROM collection WHERE "
                                            "path = ?1",
                                            "t", path);
    int level = select && sqlite3_step(select) == SQLITE_ROW ? level_number_of(select, 0) : 0;
    progress_release(progress, select);
    free(path);
    return level;
}

int progress_collections(progress *progress, char ***paths)
{
    *paths = NULL;
    sqlite3_stmt *select =
        progress_prepare(progress, "SELECT path FROM collection ORDER BY played DESC, path", "");
    if (!select) return -1;
    int count = 0, capacity = 0, rc;
    char **list = NULL;
    while ((rc = sqlite3_step(select)) == SQLITE_ROW) {
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 16;
            char **grown = realloc(list, (size_t)capacity * sizeof *grown);
            if (!grown) break;
            list = grown;
        }
        if (!(list[count] = progress_column_text(select, 0))) break;
        count++;
    }
    progress_release(progress, select);
    if (rc != SQLITE_DONE) {
        for (int i = 0; i < count; i++) free(list[i]);
        free(list);
        return -1;
    }
    *paths = list;
    return count;
}

bool progress_statistics_of(progress *progress, const progress_key *keys, int count,
                            progress_statistics *statistics)
{
    memset(statistics, 0, sizeof *statistics);
    statistics->levels = count;
    sqlite3_stmt *select = progress_prepare(progress,
                                            "SELECT solved, assisted, unfinished "
                                            "IS NOT NULL, seconds FROM level "
                                            "WHERE key = ?1",
                                            "k", (progress_key)0);
    if (!select) return false;
    for (int i = 0; i < count; i++) {
        sqlite3_reset(select);
        sqlite3_bind_int64(select, 1, (int64_t)keys[i]);
        int rc = sqlite3_step(select);
        if (rc == SQLITE_DONE) continue;
        if (rc != SQLITE_ROW) {
            progress_release(progress, select);
            return false;
        }
        bool solved = sqlite3_column_int(select, 0);
        statistics->solved += solved;
        statistics->assisted += !solved && sqlite3_column_int(select, 1);
        statistics->started += sqlite3_column_int(select, 2);
        statistics->seconds += sqlite3_column_double(select, 3);
    }
    progress_release(progress, select);
    return true;
}
