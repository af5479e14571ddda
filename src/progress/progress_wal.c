/* progress_wal.c - the write-ahead log beside a progress database (FILE-wal): whose it is. */
#include "progress_wal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "progress_db.h"

enum { ID_SIZE = 16 }; /* randomblob(16) (progress_schema.c's IDENTITY) */

/* What reading the id of a database gave. */
typedef enum id_read {
    ID_READ,    /* the id */
    ID_NONE,    /* no identity table or row: an older schema's, or another program's */
    ID_DAMAGED, /* SQLite calls it corrupt or not a database */
    ID_UNKNOWN, /* it could not be read now (a lock, memory) */
} id_read;

/* What SQLite's `code` says of a read that failed. */
static id_read failed(int code)
{
    code &= 0xff;
    return code == SQLITE_CORRUPT || code == SQLITE_NOTADB ? ID_DAMAGED : ID_UNKNOWN;
}

/* The identity row of a database: its id and its count of commits, which every commit of
 * ours raises by one (progress_schema_stamp), so that a -wal of its own never holds a
 * count below the file's (a checkpoint copies the -wal's pages into the file, never more). */
typedef struct identity {
    unsigned char id[ID_SIZE];
    sqlite3_int64 commits;
} identity;

/* Reads the identity of the database `db` into `read`. */
static id_read read_id(sqlite3 *db, identity *read)
{
    sqlite3_stmt *statement;
    int rc = sqlite3_prepare_v2(
        db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'identity'", -1,
        &statement, NULL);
    if (rc != SQLITE_OK) return failed(sqlite3_errcode(db));
    rc = sqlite3_step(statement);
    sqlite3_finalize(statement);
    if (rc == SQLITE_DONE) return ID_NONE;
    if (rc != SQLITE_ROW) return failed(rc);
    rc = sqlite3_prepare_v2(db, "SELECT id, commits FROM identity WHERE one = 1", -1, &statement,
                            NULL);
    if (rc != SQLITE_OK) return failed(sqlite3_errcode(db));
    id_read got = ID_NONE;
    rc = sqlite3_step(statement);
    if (rc == SQLITE_ROW && sqlite3_column_bytes(statement, 0) == ID_SIZE) {
        memcpy(read->id, sqlite3_column_blob(statement, 0), ID_SIZE);
        read->commits = sqlite3_column_int64(statement, 1);
        got = ID_READ;
    } else if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        got = failed(rc);
    }
    sqlite3_finalize(statement);
    return got;
}

/* `file` as an SQLite URI that opens it immutable (read only, no -wal, -shm or lock looked
 * at or made), malloc'd: each byte but letters, digits and "/-._" percent-encoded. */
static char *immutable_uri(const char *file)
{
    static const char tail[] = "?immutable=1";
    size_t size = sizeof "file:" + 3 * strlen(file) + sizeof tail;
    char *uri = malloc(size);
    if (!uri) return NULL;
    size_t used = (size_t)snprintf(uri, size, "file:");
    for (const unsigned char *at = (const unsigned char *)file; *at; at++)
        used += (size_t)(isalnum(*at) || strchr("/-._", *at)
                             ? snprintf(uri + used, size - used, "%c", *at)
                             : snprintf(uri + used, size - used, "%%%02X", *at));
    snprintf(uri + used, size - used, "%s", tail);
    return uri;
}

sqlite3 *progress_wal_open_alone(const char *file)
{
    char *uri = immutable_uri(file);
    sqlite3 *alone = NULL;
    if (!uri ||
        sqlite3_open_v2(uri, &alone, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_URI,
                        NULL) != SQLITE_OK) {
        sqlite3_close(alone);
        alone = NULL;
    }
    free(uri);
    return alone;
}

/* FILE`suffix` (malloc'd) when it is a regular file with something in it (its status in
 * `status`), else NULL. */
static char *beside(const char *file, const char *suffix, struct stat *status)
{
    size_t size = strlen(file) + strlen(suffix) + 1;
    char *name = malloc(size);
    if (!name) return NULL;
    snprintf(name, size, "%s%s", file, suffix);
    if (lstat(name, status) == 0 && S_ISREG(status->st_mode) && status->st_size > 0) return name;
    free(name);
    return NULL;
}

static char *wal_beside(const char *file, struct stat *status)
{
    return beside(file, "-wal", status);
}

/* SQLite's lock bytes on a database file (os_unix.c): a writer holds RESERVED_BYTE from its
 * first write until its journal is gone. */
enum { PENDING_BYTE = 0x40000000, RESERVED_BYTE = PENDING_BYTE + 1 };

/* True when the header of `file` says it is in WAL mode (its bytes 18 and 19 are 2), where
 * SQLite writes no rollback journal, and no other process holds the write lock SQLite takes
 * while it has one (the RESERVED byte): the one moment SQLite writes a journal for a file
 * of ours is the switch of a new database to WAL, whose header says WAL before its journal
 * is removed, by a game holding that lock. Read with a descriptor of its own as
 * progress_db.c's examine() reads it, at the same moment (a game opening the database, which
 * holds no connection to it yet: a close drops the process's POSIX locks on the file). */
static bool in_wal_mode_unlocked(const char *file)
{
    int fd = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return false;
    unsigned char versions[2];
    bool wal = pread(fd, versions, 2, 18) == 2 && versions[0] == 2 && versions[1] == 2;
    struct flock lock = {
        .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = RESERVED_BYTE, .l_len = 1};
    bool unlocked = wal && fcntl(fd, F_GETLK, &lock) == 0 && lock.l_type == F_UNLCK;
    close(fd);
    return unlocked;
}

/* FILE-journal (malloc'd) when it lies beside `file`, in WAL mode, with something in it
 * and no writer of its own (in_wal_mode_unlocked): another database's (SQLite would play it
 * back into the file at the first read, its pages over ours, and remove it), else NULL. */
static char *foreign_journal(const char *file)
{
    struct stat status;
    char *journal = beside(file, "-journal", &status);
    if (journal && in_wal_mode_unlocked(file)) return journal;
    free(journal);
    return NULL;
}

/* Sets a -journal not of `file` aside (before any connection reads the file): true when
 * there is none or it was set aside (or is gone), with `message` set; false with `message`
 * saying it is left. */
static bool set_journal_aside(const char *file, char *message, size_t message_size)
{
    char *journal = foreign_journal(file);
    if (!journal) return true;
    char *aside = progress_db_set_aside(journal, PROGRESS_WAL_FOREIGN);
    bool done = aside || errno == ENOENT; /* (another game of ours set it aside meanwhile) */
    if (aside)
        snprintf(message, message_size,
                 "progress: %s is not a rollback journal of %s (in WAL mode, it has none: "
                 "another database's, left by a copy or a restore); it was set aside as %s, "
                 "and the progress saved in %s is used",
                 journal, file, aside, file);
    else if (!done)
        snprintf(message, message_size,
                 "progress: %s is not a rollback journal of %s (another database's, left by a "
                 "copy or a restore) and cannot be set aside (%s), so both are left alone and "
                 "progress is not saved",
                 journal, file, strerror(errno));
    free(aside);
    free(journal);
    return done;
}

/* True when the identity read through the -wal (`through`, `got`) says the -wal is not the
 * one of the file whose own is `own`: another id, none (the -wal holds another program's or
 * an older schema's tables), damage the file alone does not have, or fewer commits than
 * the file has (the -wal of a copy of the database, played apart since the copy). */
static bool not_its_own(id_read got, const identity *through, const identity *own)
{
    return got == ID_NONE || got == ID_DAMAGED ||
           (got == ID_READ &&
            (memcmp(through->id, own->id, ID_SIZE) != 0 || through->commits < own->commits));
}

/* The identity of `file` read alone into `own`: true when it has one. */
static bool own_id(const char *file, identity *own)
{
    sqlite3 *alone = progress_wal_open_alone(file);
    bool known = alone && read_id(alone, own) == ID_READ;
    sqlite3_close(alone);
    return known;
}

bool progress_wal_is_foreign(const char *file)
{
    char *journal = foreign_journal(file);
    free(journal);
    if (journal) return true;
    struct stat status;
    char *wal = wal_beside(file, &status);
    identity own, through;
    bool foreign = false;
    if (wal && own_id(file, &own)) {
        sqlite3 *db = NULL;
        if (sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW, NULL) ==
            SQLITE_OK) {
            sqlite3_busy_timeout(db, PROGRESS_OPEN_BUSY_MS);
            foreign = not_its_own(read_id(db, &through), &through, &own);
        }
        sqlite3_close(db);
    }
    free(wal);
    return foreign;
}

/* Sets the -wal `wal` (of `file`, found as `before`) aside while `db` holds the database's
 * write lock, when it is still the file looked at: true when it is set aside or gone, with
 * `message` set; false with `message` saying it is left. */
static bool set_wal_aside(const char *file, const char *wal, const struct stat *before,
                          char *message, size_t message_size)
{
    struct stat now;
    if (lstat(wal, &now) != 0 || now.st_dev != before->st_dev || now.st_ino != before->st_ino)
        return true; /* another game of ours set it aside meanwhile */
    char *aside = progress_db_set_aside(wal, PROGRESS_WAL_FOREIGN);
    if (!aside) {
        snprintf(message, message_size,
                 "progress: %s is not the write-ahead log of %s (another database's, left by a "
                 "copy or a restore) and cannot be set aside (%s), so both are left alone and "
                 "progress is not saved",
                 wal, file, strerror(errno));
        return false;
    }
    snprintf(message, message_size,
             "progress: %s is not the write-ahead log of %s (another database's, left by a copy "
             "or a restore); it was set aside as %s, and the progress saved in %s is used",
             wal, file, aside, file);
    free(aside);
    return true;
}

bool progress_wal_check(const char *file, char *message, size_t message_size)
{
    if (!set_journal_aside(file, message, message_size)) return false;
    struct stat before;
    char *wal = wal_beside(file, &before);
    identity own, through;
    if (!wal || !own_id(file, &own)) {
        free(wal);
        return true;
    }
    bool go_on = true;
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(file, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL) ==
        SQLITE_OK) {
        sqlite3_busy_timeout(db, PROGRESS_OPEN_BUSY_MS);
        sqlite3_extended_result_codes(db, 0);
        /* Looked at again holding the write lock: a game of ours commits nothing meanwhile,
         * and none sets the -wal aside (nor makes one anew after it) but holding it. */
        if (not_its_own(read_id(db, &through), &through, &own)) {
            if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
                snprintf(message, message_size,
                         "progress: %s is not the write-ahead log of %s (another database's, "
                         "left by a copy or a restore), and another game holds the database, "
                         "so both are left alone and progress is not saved",
                         wal, file);
                go_on = false;
            } else {
                /* the file alone read again too: a checkpoint of another game may have
                 * been writing it the first time (a checkpoint raises its count, never above
                 * its own -wal's) */
                identity again;
                if (own_id(file, &again) && memcmp(again.id, own.id, ID_SIZE) == 0 &&
                    not_its_own(read_id(db, &through), &through, &again))
                    go_on = set_wal_aside(file, wal, &before, message, message_size);
                sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            }
        }
    }
    /* never a checkpoint: that would write the -wal's pages into the file */
    if (db) progress_db_close_stale(db);
    free(wal);
    return go_on;
}

bool progress_wal_is_the_cause(const char *file, progress_schema_status status)
{
    struct stat about;
    char *wal = wal_beside(file, &about);
    sqlite3 *alone = wal ? progress_wal_open_alone(file) : NULL;
    bool cause = false;
    if (alone &&
        sqlite3_exec(alone, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) == SQLITE_OK)
        cause = progress_schema_look(alone, NULL) != status;
    sqlite3_close(alone);
    free(wal);
    return cause;
}
