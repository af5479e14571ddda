/* progress_db_read.c - a progress database this process cannot write, read without
 * writing anything beside it (a part of the progress_db module: progress_db_read.h). */
#include "progress_db_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "progress_db.h"
#include "progress_wal.h"

bool progress_db_cannot_write(const char *file, char *why, size_t why_size)
{
    struct stat status;
    if (lstat(file, &status) != 0) return false;
    const char *slash = strrchr(file, '/');
    char *folder = slash ? strndup(file, slash == file ? 1 : (size_t)(slash - file)) : NULL;
    char *wal = progress_db_with_suffix(file, "-wal"), *shm = progress_db_with_suffix(file, "-shm");
    bool wal_there = wal && lstat(wal, &status) == 0, shm_there = shm && lstat(shm, &status) == 0;
    const char *paths[] = {file, wal_there ? wal : NULL, shm_there ? shm : NULL,
                           wal_there && shm_there ? NULL : folder};
    const char *whose[] = {"", "its -wal: ", "its -shm: ", "its folder: "};
    bool blocked = false;
    for (size_t i = 0; i < sizeof paths / sizeof *paths && !blocked; i++) {
        if (!paths[i] || faccessat(AT_FDCWD, paths[i], W_OK, AT_EACCESS) == 0) continue;
        blocked = errno == EACCES || errno == EROFS || errno == EPERM;
        if (blocked) snprintf(why, why_size, "%s%s", whose[i], strerror(errno));
    }
    free(wal);
    free(shm);
    free(folder);
    return blocked;
}

/* True when SQLite can read the schema of `db`. */
static bool readable(sqlite3 *db)
{
    return sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) == SQLITE_OK;
}

sqlite3 *progress_db_open_reading(const char *file)
{
    sqlite3 *db = NULL;
    int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW;
    char *wal = progress_db_with_suffix(file, "-wal"),
         *journal = progress_db_with_suffix(file, "-journal");
    struct stat status;
    /* (a -wal shorter than its 32-byte header holds no commit: a game that could not write
     * it, a full disk, left it) */
    bool no_wal = wal && (lstat(wal, &status) != 0 ? errno == ENOENT
                                                   : S_ISREG(status.st_mode) && status.st_size < 32);
    bool whole = progress_wal_is_foreign(file) ||
                 (no_wal && journal && lstat(journal, &status) != 0 && errno == ENOENT);
    free(wal);
    free(journal);
    if (whole) {
        db = progress_wal_open_alone(file);
        if (db && readable(db)) return db;
        sqlite3_close(db);
        return NULL;
    }
    /* (another game's checkpoint may hold the file a moment) */
    if (sqlite3_open_v2(file, &db, flags, NULL) == SQLITE_OK &&
        sqlite3_busy_timeout(db, PROGRESS_OPEN_BUSY_MS) == SQLITE_OK && readable(db))
        return db;
    sqlite3_close(db);
    return NULL;
}

bool progress_db_has_wal_only(const char *file)
{
    char *wal = progress_db_with_suffix(file, "-wal"), *shm = progress_db_with_suffix(file, "-shm");
    struct stat status;
    bool only = wal && shm && lstat(wal, &status) == 0 && lstat(shm, &status) != 0;
    free(wal);
    free(shm);
    return only;
}
