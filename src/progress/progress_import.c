/* progress_import.c - the solution sections of level files kept as imported solutions, once
 * per file.
 *
 * A start of the game hands every collection it loaded to progress_import_collection(); a
 * file whose sections were imported before is known by its path and stamp (device, inode,
 * size and modification time, in the table imported_file) and passed over, so that a start
 * never replays what an earlier one did. What a file can make the game replay is capped: at
 * most PROGRESS_IMPORT_MAX_PER_LEVEL sections a level and PROGRESS_IMPORT_MAX_LETTERS of
 * LURD a file; the rest is skipped and told. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "progress_store.h"

/* What identifies a version of a file: a file edited, replaced or touched has another. */
typedef struct file_stamp {
    bool known;
    int64_t device, inode, size, modified; /* modified: nanoseconds since the epoch */
} file_stamp;

static file_stamp stamp_of(const char *path)
{
    file_stamp stamp = {0};
    struct stat status;
    if (stat(path, &status) == 0 && S_ISREG(status.st_mode))
        stamp = (file_stamp){true, (int64_t)status.st_dev, (int64_t)status.st_ino,
                             (int64_t)status.st_size,
                             (int64_t)status.st_mtim.tv_sec * 1000000000 + status.st_mtim.tv_nsec};
    return stamp;
}

static bool imported_before(progress *progress, const char *path, const file_stamp *stamp)
{
    sqlite3_stmt *select =
        progress_prepare(progress,
                         "SELECT 1 FROM imported_file WHERE "
                         "path = ?1 AND device = ?2 AND inode "
                         "= ?3 AND size = ?4 AND modified = ?5",
                         "tiiii", path, stamp->device, stamp->inode, stamp->size, stamp->modified);
    bool found = select && sqlite3_step(select) == SQLITE_ROW;
    progress_release(progress, select);
    return found;
}

/* Remembers the file as imported. Written at once, not queued: one that cannot be written
 * now (another game's lock) only costs the same import at the next start. */
static void remember(progress *progress, const char *path, const file_stamp *stamp)
{
    if (!progress->saving) return;
    progress_write_now(progress,
                       "INSERT OR REPLACE INTO imported_file (path, device, inode, size, "
                       "modified, imported) VALUES (?1, ?2, ?3, ?4, ?5, (julianday('now') - "
                       "2440587.5) * 86400.0)",
                       "tiiii", path, stamp->device, stamp->inode, stamp->size, stamp->modified);
}

/* The file a level was read from. */
static const char *file_of(const collection *set, int index)
{
    return set->levels[index].file ? set->levels[index].file : set->path;
}

/* Imports the sections of levels first..end - 1, all read from `source`: how many were
 * replayed; *skipped counts those over the caps. */
static int import_levels(progress *progress, const collection *set, int first, int end,
                         const char *source, long *skipped)
{
    int replayed = 0;
    size_t letters = 0;
    for (int i = first; i < end; i++) {
        const level *lv = &set->levels[i];
        for (int k = 0; !lv->error && k < lv->solution_count; k++) {
            size_t length = strlen(lv->solutions[k].moves);
            if (k >= PROGRESS_IMPORT_MAX_PER_LEVEL ||
                letters + length > PROGRESS_IMPORT_MAX_LETTERS) {
                (*skipped)++;
                continue;
            }
            letters += length;
            progress_import_solution(progress, lv, lv->solutions[k].moves, source, NULL);
            replayed++;
        }
    }
    return replayed;
}

int progress_import_collection(progress *progress, const collection *set, char *message,
                               size_t message_size)
{
    if (message && message_size) message[0] = '\0';
    int replayed = 0;
    long skipped = 0;
    for (int first = 0, end; first < set->count; first = end) {
        const char *file = file_of(set, first);
        int sections = 0;
        for (end = first; end < set->count && strcmp(file_of(set, end), file) == 0; end++)
            sections += set->levels[end].solution_count;
        if (sections == 0) continue;
        /* standard input ("-") and a file gone since have no stamp: imported, not kept */
        char *absolute = realpath(file, NULL);
        file_stamp stamp = absolute ? stamp_of(absolute) : (file_stamp){0};
        if (stamp.known && imported_before(progress, absolute, &stamp)) {
            free(absolute);
            continue;
        }
        replayed += import_levels(progress, set, first, end, absolute ? absolute : file, &skipped);
        if (stamp.known) remember(progress, absolute, &stamp);
        free(absolute);
    }
    if (skipped && message && message_size)
        snprintf(message, message_size,
                 "progress: %ld solution section%s skipped in %s (at most %d a level and %d KiB "
                 "a file are imported)",
                 skipped, skipped == 1 ? "" : "s", set->path, PROGRESS_IMPORT_MAX_PER_LEVEL,
                 PROGRESS_IMPORT_MAX_LETTERS >> 10);
    return replayed;
}
