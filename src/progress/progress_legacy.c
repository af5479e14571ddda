/* progress_legacy.c - importing the progress.txt of earlier versions into the database. */
#include "progress_legacy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "progress_db.h"
#include "progress_schema.h"

static const char LEGACY_FILE_NAME[] = "progress.txt";

/* The longest line taken: a longer one is damaged. A LURD field is at most 256 KiB. */
enum { MAX_LINE_LENGTH = 1 << 20, MAX_LURD_LENGTH = 256 << 10, MAX_WORDS = 12 };
/* The largest progress.txt imported: the old game wrote some hundreds of bytes a level. */
enum { MAX_LEGACY_BYTES = 64 << 20 };

/* FNV-1a 32 (Fowler, Noll, Vo), the old file's line checksum. */
static uint32_t fnv1a32(const char *data, size_t length)
{
    uint32_t hash = 2166136261u;
    for (size_t i = 0; i < length; i++) {
        hash ^= (unsigned char)data[i];
        hash *= 16777619u;
    }
    return hash;
}

/* Splits `text` at single spaces into at most `capacity` words; how many, or -1 when there
 * are more or a word is empty. */
static int split_words(char *text, char **words, int capacity)
{
    int count = 0;
    for (char *word = text;;) {
        if (count == capacity || !*word) return -1;
        words[count++] = word;
        char *space = strchr(word, ' ');
        if (!space) return count;
        *space = '\0';
        word = space + 1;
    }
}

static bool parse_count(const char *word, int *out)
{
    size_t length = strlen(word);
    if (length == 0 || length > 9 || strspn(word, "0123456789") != length) return false;
    *out = atoi(word);
    return true;
}

/* A LURD field: NULL for "-", "" for "=", else the word when it is LURD text. */
static bool parse_lurd(const char *word, const char **out)
{
    *out = NULL;
    if (strcmp(word, "-") == 0) return true;
    if (strcmp(word, "=") == 0) {
        *out = "";
        return true;
    }
    size_t length = strlen(word);
    if (length > MAX_LURD_LENGTH || strspn(word, "lurdLURD0123456789") != length) return false;
    *out = word;
    return true;
}

/* Decodes a percent-encoded path in place; false when it is malformed or empty. */
static bool decode_path(char *path)
{
    char *to = path;
    for (const char *from = path; *from; from++) {
        if (*from != '%') {
            *to++ = *from;
            continue;
        }
        char digits[3] = {from[1], from[1] ? from[2] : '\0', '\0'};
        if (!digits[0] || !digits[1] || strspn(digits, "0123456789abcdefABCDEF") != 2)
            return false;
        unsigned value = (unsigned)strtoul(digits, NULL, 16);
        if (value == 0) return false;
        *to++ = (char)value;
        from += 2;
    }
    *to = '\0';
    return *path != '\0';
}

/* The statements of an import, prepared once. */
typedef struct importer {
    sqlite3 *db;
    sqlite3_stmt *level, *best[2], *collection, *last;
} importer;

static const char LEVEL_SQL[] =
    "INSERT INTO level (key, solved, unfinished) VALUES (?1, ?2, ?3) "
    "ON CONFLICT (key) DO UPDATE SET solved = max(solved, excluded.solved), "
    "unfinished = coalesce(unfinished, excluded.unfinished)";
/* An unchecked best replaces only an unchecked one it beats: a checked best stays. */
static const char *const BEST_SQL[2] = {
    "INSERT INTO best (key, kind, lurd, moves, pushes, checked) VALUES (?1, 0, ?2, ?3, ?4, 0) "
    "ON CONFLICT (key, kind) DO UPDATE SET lurd = excluded.lurd, moves = excluded.moves, "
    "pushes = excluded.pushes WHERE checked = 0 AND "
    "(excluded.moves, excluded.pushes) < (moves, pushes)",
    "INSERT INTO best (key, kind, lurd, moves, pushes, checked) VALUES (?1, 1, ?2, ?3, ?4, 0) "
    "ON CONFLICT (key, kind) DO UPDATE SET lurd = excluded.lurd, moves = excluded.moves, "
    "pushes = excluded.pushes WHERE checked = 0 AND "
    "(excluded.pushes, excluded.moves) < (pushes, moves)",
};
static const char COLLECTION_SQL[] =
    "INSERT INTO collection (path, level) VALUES (?1, ?2) ON CONFLICT (path) DO NOTHING";
/* The file's collection played last becomes the database's only when it knows none. */
static const char LAST_SQL[] =
    "UPDATE collection SET played = (julianday('now') - 2440587.5) * 86400.0 WHERE path = ?1 AND "
    "NOT EXISTS (SELECT 1 FROM collection WHERE played > 0)";

static void importer_free(importer *importer)
{
    sqlite3_finalize(importer->level);
    sqlite3_finalize(importer->best[0]);
    sqlite3_finalize(importer->best[1]);
    sqlite3_finalize(importer->collection);
    sqlite3_finalize(importer->last);
}

static bool importer_init(importer *importer, sqlite3 *db)
{
    memset(importer, 0, sizeof *importer);
    importer->db = db;
    if (sqlite3_prepare_v2(db, LEVEL_SQL, -1, &importer->level, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, BEST_SQL[0], -1, &importer->best[0], NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, BEST_SQL[1], -1, &importer->best[1], NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, COLLECTION_SQL, -1, &importer->collection, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, LAST_SQL, -1, &importer->last, NULL) == SQLITE_OK)
        return true;
    importer_free(importer);
    return false;
}

/* Steps a statement once and resets it: SQLITE_DONE on success. */
static int run(sqlite3_stmt *statement)
{
    int rc = sqlite3_step(statement);
    sqlite3_reset(statement);
    sqlite3_clear_bindings(statement);
    return rc;
}

static void bind_text_or_null(sqlite3_stmt *statement, int index, const char *text)
{
    if (text)
        sqlite3_bind_text(statement, index, text, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(statement, index);
}

/* One "level" record's words (after the word "level"): 0 taken, 1 damaged, or an SQLite
 * error code. */
static int import_level(importer *importer, char **words, int count)
{
    if (count != 9 || strlen(words[0]) != 16 || strspn(words[0], "0123456789abcdef") != 16)
        return 1;
    int64_t key = (int64_t)strtoull(words[0], NULL, 16);
    int solved, moves[2], pushes[2];
    const char *lurd[2], *unfinished;
    if (!parse_count(words[1], &solved) || solved > 1 || !parse_count(words[2], &moves[0]) ||
        !parse_count(words[3], &pushes[0]) || !parse_lurd(words[4], &lurd[0]) ||
        !parse_count(words[5], &moves[1]) || !parse_count(words[6], &pushes[1]) ||
        !parse_lurd(words[7], &lurd[1]) || !parse_lurd(words[8], &unfinished))
        return 1;
    sqlite3_bind_int64(importer->level, 1, key);
    sqlite3_bind_int(importer->level, 2, solved);
    bind_text_or_null(importer->level, 3, unfinished && *unfinished ? unfinished : NULL);
    int rc = run(importer->level);
    if (rc != SQLITE_DONE) return rc;
    for (int kind = 0; kind < 2; kind++) {
        if (!lurd[kind] || !*lurd[kind]) continue;
        sqlite3_stmt *best = importer->best[kind];
        sqlite3_bind_int64(best, 1, key);
        sqlite3_bind_text(best, 2, lurd[kind], -1, SQLITE_STATIC);
        sqlite3_bind_int(best, 3, moves[kind]);
        sqlite3_bind_int(best, 4, pushes[kind]);
        if ((rc = run(best)) != SQLITE_DONE) return rc;
    }
    return 0;
}

/* One line (without its newline): 0 taken, 1 damaged, or an SQLite error code. */
static int import_line(importer *importer, char *line, size_t length)
{
    if (length < 10 || line[8] != ' ' || strspn(line, "0123456789abcdef") < 8) return 1;
    char sum_text[9];
    memcpy(sum_text, line, 8);
    sum_text[8] = '\0';
    bool sum_matches = (uint32_t)strtoul(sum_text, NULL, 16) == fnv1a32(line + 9, length - 9);
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION /* the fuzzer cannot forge checksums */
    sum_matches = true;
#endif
    if (!sum_matches) return 1;
    if (memchr(line, '\0', length)) return 1;

    char *words[MAX_WORDS];
    int count = split_words(line + 9, words, MAX_WORDS);
    if (count < 1) return 1;
    if (strcmp(words[0], "level") == 0) return import_level(importer, words + 1, count - 1);
    bool is_last = strcmp(words[0], "last") == 0;
    if (!is_last && strcmp(words[0], "collection") != 0) return 1;
    int level;
    if (count != 3 || !parse_count(words[1], &level) || level < 1 || !decode_path(words[2]))
        return 1;
    sqlite3_bind_text(importer->collection, 1, words[2], -1, SQLITE_STATIC);
    sqlite3_bind_int(importer->collection, 2, level);
    int rc = run(importer->collection);
    if (rc != SQLITE_DONE) return rc;
    if (is_last) {
        sqlite3_bind_text(importer->last, 1, words[2], -1, SQLITE_STATIC);
        if ((rc = run(importer->last)) != SQLITE_DONE) return rc;
    }
    return 0;
}

/* Reads one line into *line (grown as needed, without its newline) and its length. -1 at the
 * end, -2 on an error (errno), 1 for a line too long (read past), else 0. */
static int read_line(FILE *in, char **line, size_t *capacity, size_t *length)
{
    size_t used = 0;
    bool too_long = false;
    int c;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (too_long) continue;
        if (used == MAX_LINE_LENGTH) {
            too_long = true;
            continue;
        }
        if (used + 2 > *capacity) {
            size_t grown_capacity = *capacity ? 2 * *capacity : 256;
            char *grown = realloc(*line, grown_capacity);
            if (!grown) {
                errno = ENOMEM;
                return -2;
            }
            *line = grown;
            *capacity = grown_capacity;
        }
        (*line)[used++] = (char)c;
    }
    if (c == EOF && ferror(in)) return -2;
    if (too_long) return 1;
    if (c == EOF && used == 0) return -1;
    if (!*line) { /* an empty last line before the end: nothing to keep */
        *length = 0;
        return 0;
    }
    (*line)[used] = '\0';
    *length = used;
    return 0;
}

bool progress_legacy_read(sqlite3 *db, FILE *in, progress_legacy_counts *counts, char *error,
                          size_t error_size)
{
    memset(counts, 0, sizeof *counts);
    importer importer;
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(error, error_size, "%s", sqlite3_errmsg(db));
        return false;
    }
    if (!importer_init(&importer, db)) {
        snprintf(error, error_size, "%s", sqlite3_errmsg(db));
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return false;
    }
    char *line = NULL;
    size_t capacity = 0, length = 0;
    int status, rc = 0;
    bool first = true;
    while ((status = read_line(in, &line, &capacity, &length)) != -1 && status != -2) {
        rc = status == 0 && length > 0 ? import_line(&importer, line, length) : 1;
        if (rc > 1) break;
        /* The header is no record: skipped quietly when it is one. */
        bool header = first && status == 0 && length > 0 && strncmp(line, "sokoban-progress ", 17) == 0;
        if (rc == 0)
            counts->records++;
        else if (!header && !(status == 0 && length == 0))
            counts->damaged++;
        first = false;
        rc = 0;
    }
    free(line);
    bool ok = false;
    if (status == -2)
        snprintf(error, error_size, "%s", strerror(errno));
    else if (rc > 1)
        snprintf(error, error_size, "%s", sqlite3_errstr(rc));
    else
        ok = true;
    importer_free(&importer);
    if (ok) progress_schema_stamp(db); /* the id's page in the -wal too (progress_wal.h) */
    if (ok && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(error, error_size, "%s", sqlite3_errmsg(db));
        ok = false;
    }
    if (!ok) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return ok;
}

/* Why open_regular() refused a file, when errno does not say. */
typedef enum legacy_refusal {
    LEGACY_NOT_REGULAR = -1,
    LEGACY_TOO_LARGE = -2,
} legacy_refusal;

/* Opens `file` for reading without following a link (it could name any file, of any size)
 * and without blocking on a FIFO, checked regular and at most MAX_LEGACY_BYTES after
 * opening; NULL with errno (ELOOP for a link), or with *refusal set and errno 0. */
static FILE *open_regular(const char *file, legacy_refusal *refusal)
{
    int fd = open(file, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat status;
    int flags;
    FILE *in = NULL;
    if (fstat(fd, &status) != 0)
        ;
    else if (!S_ISREG(status.st_mode))
        errno = 0, *refusal = LEGACY_NOT_REGULAR;
    else if (status.st_size > MAX_LEGACY_BYTES)
        errno = 0, *refusal = LEGACY_TOO_LARGE;
    else if ((flags = fcntl(fd, F_GETFL)) >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0)
        in = fdopen(fd, "r");
    if (!in) {
        int saved = errno;
        close(fd);
        errno = saved;
    }
    return in;
}

bool progress_legacy_import(sqlite3 *db, const char *directory, char *message,
                            size_t message_size)
{
    size_t size = strlen(directory) + sizeof LEGACY_FILE_NAME + sizeof ".imported" + 1;
    char *file = malloc(size), *imported = malloc(size);
    bool found = false;
    struct stat status;
    if (!file || !imported) {
        snprintf(message, message_size, "progress: out of memory");
        found = true;
    } else {
        snprintf(file, size, "%s/%s", directory, LEGACY_FILE_NAME);
        snprintf(imported, size, "%s/%s.imported", directory, LEGACY_FILE_NAME);
        found = lstat(file, &status) == 0;
    }
    /* out of memory: `file` may be there but was never written */
    bool ready = file && imported;
    legacy_refusal refusal = LEGACY_NOT_REGULAR;
    FILE *in = found && ready ? open_regular(file, &refusal) : NULL;
    if (found && ready && !in && errno == ELOOP) {
        snprintf(message, message_size, "progress: %s is a symbolic link, so it is not imported",
                 file);
    } else if (found && ready && !in && !errno && refusal == LEGACY_TOO_LARGE) {
        snprintf(message, message_size,
                 "progress: %s is larger than %d MiB, so it is not imported", file,
                 MAX_LEGACY_BYTES >> 20);
    } else if (found && ready && !in) {
        snprintf(message, message_size, "progress: %s cannot be imported (%s)", file,
                 errno ? strerror(errno) : "not a regular file");
    } else if (in) {
        progress_legacy_counts counts;
        char error[256] = "";
        bool read = progress_legacy_read(db, in, &counts, error, sizeof error);
        fclose(in);
        char *aside = NULL;
        bool renamed = read && (progress_db_rename_new(file, imported) == 0 ||
                                (errno == EEXIST &&
                                 (aside = progress_db_set_aside(file, "imported")) != NULL));
        char damaged[64] = "";
        if (read && counts.damaged)
            snprintf(damaged, sizeof damaged, "; %ld damaged line%s skipped", counts.damaged,
                     counts.damaged == 1 ? "" : "s");
        if (!read)
            snprintf(message, message_size, "progress: %s was not imported (%s)", file, error);
        else if (!renamed)
            snprintf(message, message_size,
                     "progress: imported %ld record%s from %s, which cannot be renamed (%s)",
                     counts.records, counts.records == 1 ? "" : "s", file, strerror(errno));
        else
            snprintf(message, message_size, "progress: imported %ld record%s from %s (now %s)%s",
                     counts.records, counts.records == 1 ? "" : "s", file,
                     aside ? aside : imported, damaged);
        free(aside);
    }
    free(file);
    free(imported);
    return found;
}
