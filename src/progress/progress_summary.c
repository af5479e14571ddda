/* progress_summary.c - what the level list shows of every level of a collection, read in one
 * query (issue 45, item 13: four queries a level made each redraw of a 100,000-level list
 * take 0.57 s).
 *
 * The keys go to SQLite as one JSON array; json_each() walks it and the level and best rows
 * are joined to it, so one statement answers for the whole collection. The bests are
 * replayed on their levels before they are shown, as progress_read_level() does (a best that
 * does not replay is left out here and corrected when its level is read); the answer is kept
 * while the database is unchanged (this connection's changes and PRAGMA data_version) and the
 * same levels are asked, so a redraw after a key costs nothing. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progress_store.h"

/* The keys of the levels as a JSON array of signed 64-bit integers (malloc'd). */
static char *keys_as_json(const level *levels, int count)
{
    size_t size = (size_t)count * 22 + 3;
    char *json = malloc(size);
    if (!json) return NULL;
    size_t used = 0;
    json[used++] = '[';
    for (int i = 0; i < count; i++) {
        int64_t key = levels[i].error ? 0 : (int64_t)progress_level_key(&levels[i]);
        used += (size_t)snprintf(json + used, size - used, "%s%" PRId64, i ? "," : "", key);
    }
    json[used++] = ']';
    json[used] = '\0';
    return json;
}

/* The database's data version (PRAGMA data_version), or -1. */
static int64_t data_version(progress *progress)
{
    sqlite3_stmt *statement = progress_prepare(progress, "PRAGMA data_version", "");
    int64_t version = statement && sqlite3_step(statement) == SQLITE_ROW
                          ? sqlite3_column_int64(statement, 0)
                          : -1;
    progress_release(progress, statement);
    return version;
}

/* A best of a row (columns from `column`: lurd, moves, pushes, origin), kept only when it
 * replays on the level to the counts stored. */
static void read_best(sqlite3_stmt *row, int column, const level *lv, progress_best_counts *best)
{
    memset(best, 0, sizeof *best);
    const char *lurd = (const char *)sqlite3_column_text(row, column);
    if (!lurd || lv->error) return;
    int moves, pushes;
    char *canonical = progress_replay(lv, lurd, &moves, &pushes);
    if (canonical && moves == sqlite3_column_int(row, column + 1) &&
        pushes == sqlite3_column_int(row, column + 2)) {
        int origin = sqlite3_column_int(row, column + 3);
        *best = (progress_best_counts){
            .kept = true,
            .moves = moves,
            .pushes = pushes,
            .origin = origin >= PROGRESS_OWN && origin <= PROGRESS_OPTIMIZED
                          ? (progress_origin)origin
                          : PROGRESS_IMPORTED,
        };
    }
    free(canonical);
}

/* Reads the summaries of the levels into `out`: false on an error. */
static bool read_summaries(progress *progress, const level *levels, int count,
                           progress_summary *out)
{
    memset(out, 0, (size_t)count * sizeof *out);
    char *json = keys_as_json(levels, count);
    if (!json) return false;
    sqlite3_stmt *select =
        progress_prepare(progress,
                         "SELECT j.key, l.solved, l.assisted, l.unfinished IS NOT NULL, l.seconds, "
                         "m.lurd, m.moves, m.pushes, m.origin, p.lurd, p.moves, p.pushes, p.origin "
                         "FROM json_each(?1) AS j LEFT JOIN level AS l ON l.key = j.value "
                         "LEFT JOIN best AS m ON m.key = j.value AND m.kind = 0 "
                         "LEFT JOIN best AS p ON p.key = j.value AND p.kind = 1 "
                         "WHERE l.key IS NOT NULL OR m.key IS NOT NULL OR p.key IS NOT NULL",
                         "t", json);
    free(json);
    if (!select) return false;
    int rc;
    while ((rc = sqlite3_step(select)) == SQLITE_ROW) {
        int64_t index = sqlite3_column_int64(select, 0);
        if (index < 0 || index >= count || levels[index].error) continue;
        progress_summary *s = &out[index];
        s->known = true;
        s->solved = sqlite3_column_int(select, 1) != 0;
        s->assisted = sqlite3_column_int(select, 2) != 0;
        s->started = sqlite3_column_int(select, 3) != 0;
        s->seconds = sqlite3_column_double(select, 4);
        read_best(select, 5, &levels[index], &s->best_moves);
        read_best(select, 9, &levels[index], &s->best_pushes);
    }
    progress_release(progress, select);
    return rc == SQLITE_DONE;
}

const progress_summary *progress_summaries(progress *progress, const level *levels, int count)
{
    progress_summaries_cache *cache = &progress->summaries;
    int64_t version = data_version(progress);
    int changes = sqlite3_total_changes(progress->db);
    if (cache->valid && cache->levels == levels && cache->count == count && version >= 0 &&
        cache->version == version && cache->changes == changes)
        return cache->summaries;
    cache->valid = false;
    if (count > cache->capacity) {
        progress_summary *grown = realloc(cache->summaries, (size_t)count * sizeof *grown);
        if (!grown) return NULL;
        cache->summaries = grown;
        cache->capacity = count;
    }
    if (count > 0 && !read_summaries(progress, levels, count, cache->summaries)) return NULL;
    *cache = (progress_summaries_cache){
        .valid = version >= 0,
        .levels = levels,
        .count = count,
        .version = version,
        .changes = changes,
        .summaries = cache->summaries,
        .capacity = cache->capacity,
    };
    return cache->summaries;
}
