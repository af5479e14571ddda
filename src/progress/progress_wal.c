/* progress_wal.c - the write-ahead log beside a progress database (FILE-wal): whose it is. */
#include "progress_wal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
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
    unsigned root; /* the identity table's page (a leaf: one row) */
} identity;

/* Reads the identity of the database `db` into `read`. */
static id_read read_id(sqlite3 *db, identity *read)
{
    sqlite3_stmt *statement;
    int rc = sqlite3_prepare_v2(
        db, "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'identity'", -1,
        &statement, NULL);
    if (rc != SQLITE_OK) return failed(sqlite3_errcode(db));
    rc = sqlite3_step(statement);
    read->root = rc == SQLITE_ROW ? (unsigned)sqlite3_column_int64(statement, 0) : 0;
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
        progress_db_tell_also(
            message, message_size,
            "%s is not a rollback journal of %s (in WAL mode, it has none: "
            "another database's, left by a copy or a restore); it was set aside as %s, "
            "and the progress saved in %s is used",
            journal, file, aside, file);
    else if (!done)
        progress_db_tell_also(
            message, message_size,
            "%s is not a rollback journal of %s (another database's, left by a "
            "copy or a restore) and cannot be set aside (%s), so both are left alone and "
            "progress is not saved",
            journal, file, strerror(errno));
    free(aside);
    free(journal);
    return done;
}

/* The 32-bit word at `at`, big-endian (the -wal's headers), or in the order the -wal's
 * magic number says its checksums are taken (`big`). */
static uint32_t word_at(const unsigned char *at, bool big)
{
    return big ? (uint32_t)at[0] << 24 | (uint32_t)at[1] << 16 | (uint32_t)at[2] << 8 | at[3]
               : (uint32_t)at[3] << 24 | (uint32_t)at[2] << 16 | (uint32_t)at[1] << 8 | at[0];
}

/* SQLite's -wal checksum (walformat.html) over `size` bytes (a multiple of 8), from `sum`. */
static void wal_checksum(const unsigned char *bytes, size_t size, bool big, uint32_t sum[2])
{
    for (size_t i = 0; i + 8 <= size; i += 8) {
        sum[0] += word_at(bytes + i, big) + sum[1];
        sum[1] += word_at(bytes + i + 4, big) + sum[0];
    }
}

/* A SQLite varint at `at` (at most `left` bytes) into `value`; the bytes it takes, 0 when
 * it runs past them. */
static size_t varint_at(const unsigned char *at, size_t left, uint64_t *value)
{
    *value = 0;
    for (size_t i = 0; i < 9 && i < left; i++) {
        if (i == 8) {
            *value = (*value << 8) | at[i];
            return 9;
        }
        *value = (*value << 7) | (at[i] & 0x7f);
        if (!(at[i] & 0x80)) return i + 1;
    }
    return 0;
}

/* The commits column of the identity row held by the table b-tree leaf `page` (`size`
 * bytes, not page 1): the row (one, id, commits) as SQLite records it (fileformat2.html),
 * its id `id`; -1 when it is not such a page (another table's since, another id). */
static sqlite3_int64 commits_on_page(const unsigned char *page, size_t size,
                                     const unsigned char *id)
{
    if (size < 12 || page[0] != 0x0d || (page[3] << 8 | page[4]) != 1) return -1;
    size_t at = (size_t)(page[8] << 8 | page[9]), used;
    uint64_t payload, rowid, header, type[3];
    if (at >= size || !(used = varint_at(page + at, size - at, &payload))) return -1;
    at += used;
    if (!(used = varint_at(page + at, size - at, &rowid))) return -1;
    at += used;
    size_t record = at;
    /* (a header's size past the page, near 2^64 in a file written by hand, wrapped the sum
     * below round to before the page) */
    if (!(used = varint_at(page + at, size - at, &header)) || header > size - record) return -1;
    at += used;
    size_t body = record + (size_t)header;
    for (int i = 0; i < 3; i++) {
        if (at >= body || !(used = varint_at(page + at, size - at, &type[i]))) return -1;
        at += used;
    }
    static const int widths[] = {0, 1, 2, 3, 4, 6, 8};
    /* one NULL (the row id), id a blob of ID_SIZE bytes equal to `id`, commits an integer */
    if (type[0] != 0 || type[1] != 12 + 2 * ID_SIZE || body + ID_SIZE > size ||
        memcmp(page + body, id, ID_SIZE) != 0)
        return -1;
    if (type[2] == 8 || type[2] == 9) return (sqlite3_int64)type[2] - 8;
    if (type[2] < 1 || type[2] > 6) return -1;
    at = body + ID_SIZE;
    size_t width = (size_t)widths[type[2]];
    if (at + width > size) return -1;
    uint64_t value = page[at] & 0x80 ? ~(uint64_t)0 : 0; /* signed, big-endian */
    for (size_t i = 0; i < width; i++) value = (value << 8) | page[at + i];
    return (sqlite3_int64)value;
}

/* The count of commits the file whose identity is `own` held when its -wal (`wal`) began: the count
 * the identity row (its leaf, page `root`) has in the -wal's first frame of that page, less one
 * (every commit of ours raises the file's count by one, the store's own corrections at a read too:
 * progress_write_now; a commit of ours that did not would leave a file with as many commits
 * but older than the one the -wal began on; another program's writing the row without
 * raising it only lowers what this says), read only from a page holding the file's own id. Only
 * frames SQLite would read count: the salts of the -wal's header, checksums unbroken from it, and a
 * commit frame at or after the frame; the -wal is read up to that commit. -1 when it cannot be
 * told. */
static sqlite3_int64 wal_began_at(const char *wal, const identity *own)
{
    int fd = open(wal, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -1;
    unsigned char header[32], frame[24];
    sqlite3_int64 began = -1;
    unsigned char *page = NULL;
    if (read(fd, header, sizeof header) == (ssize_t)sizeof header &&
        (word_at(header, true) & 0xfffffffe) == 0x377f0682) {
        bool big = header[3] & 1;
        uint32_t size = word_at(header + 8, true), sum[2] = {0, 0};
        wal_checksum(header, 24, big, sum);
        bool sound = sum[0] == word_at(header + 24, true) && sum[1] == word_at(header + 28, true);
        page = sound && size >= 512 && size <= 65536 && !(size & (size - 1)) ? malloc(size) : NULL;
        sqlite3_int64 found = -1;
        /* (a first commit of more than 64 MiB is not read through) */
        for (long frames = 0; page && frames < (64L << 20) / size; frames++) {
            if (read(fd, frame, sizeof frame) != (ssize_t)sizeof frame ||
                read(fd, page, size) != (ssize_t)size || memcmp(frame + 8, header + 16, 8) != 0)
                break;
            wal_checksum(frame, 8, big, sum);
            wal_checksum(page, size, big, sum);
            if (sum[0] != word_at(frame + 16, true) || sum[1] != word_at(frame + 20, true)) break;
            if (found < 0 && word_at(frame, true) == own->root)
                found = commits_on_page(page, size, own->id);
            if (found >= 0 && word_at(frame + 4, true) != 0) { /* its commit */
                began = found - 1;
                break;
            }
        }
    }
    free(page);
    close(fd);
    return began;
}

/* True when the identity read through the -wal (`through`, `got`) says the -wal is not the
 * one of the file whose own is `own`: another id, none (the -wal holds another program's or
 * an older schema's tables), damage the file alone does not have, fewer commits than the
 * file has (the -wal of a copy of the database, played apart since the copy), or the file
 * fewer commits than it had when the -wal (`wal`) began (an older copy of the file put in
 * its place since: a backup restored beside the -wal a game killed left). */
static bool not_its_own(id_read got, const identity *through, const identity *own, const char *wal)
{
    if (got == ID_NONE || got == ID_DAMAGED) return true;
    if (got != ID_READ) return false;
    if (memcmp(through->id, own->id, ID_SIZE) != 0 || through->commits < own->commits) return true;
    /* the file holds fewer commits than it had when the -wal began: an older copy of it */
    sqlite3_int64 began = own->root > 1 ? wal_began_at(wal, own) : -1;
    return began >= 0 && own->commits < began;
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
            foreign = not_its_own(read_id(db, &through), &through, &own, wal);
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
        progress_db_tell_also(
            message, message_size,
            "%s is not the write-ahead log of %s (another database's, left by a "
            "copy or a restore) and cannot be set aside (%s), so both are left alone and "
            "progress is not saved",
            wal, file, strerror(errno));
        return false;
    }
    progress_db_tell_also(
        message, message_size,
        "%s is not the write-ahead log of %s (another database's, left by a copy "
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
        if (not_its_own(read_id(db, &through), &through, &own, wal)) {
            if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
                progress_db_tell_also(
                    message, message_size,
                    "%s is not the write-ahead log of %s (another database's, "
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
                    not_its_own(read_id(db, &through), &through, &again, wal))
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
