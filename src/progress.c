/* progress.c - saved progress in a line-based text file with a checksum on every line.
 *
 * The file (version 1):
 *
 *   sokoban-progress 1
 *   SUM last LEVEL PATH
 *   SUM collection LEVEL PATH
 *   SUM level KEY SOLVED MOVES PUSHES LURD MOVES PUSHES LURD UNFINISHED
 *
 * SUM is the FNV-1a 32-bit hash of the rest of the line, in 8 hex digits; a line whose sum
 * does not match, or that does not parse, is damaged and skipped. PATH is percent-encoded
 * (no spaces or control characters). KEY is the level key in 16 hex digits; SOLVED is 0 or
 * 1; then the best solution by moves and the best by pushes (moves, pushes, LURD) and the
 * unfinished game. A LURD field is "-" when there is none and "=" when it is empty. */
#define _GNU_SOURCE /* renameat2() */
#include "progress.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PROGRESS_HEADER "sokoban-progress "
enum { PROGRESS_VERSION = 1 };
static const char PROGRESS_FILE_NAME[] = "progress.txt";
static const char PROGRESS_LOCK_NAME[] = "progress.lock";
/* The temporary file of a save: this prefix and mkstemp()'s six characters. */
static const char TEMPORARY_PREFIX[] = ".progress.txt.";
/* A temporary file older than this was left by a game that ended in the middle of a save. */
enum { STALE_TEMPORARY_SECONDS = 3600 };

/* The longest line read: a longer one is a damaged record, skipped. A LURD text is at most
 * MAX_LURD_LENGTH bytes, so that a record of three of them always fits in a line. */
enum { MAX_LINE_LENGTH = 1 << 20, MAX_LURD_LENGTH = 256 << 10 };

typedef struct collection_entry {
    char *path;
    int level;
    bool changed; /* set by this game since the last load or save */
} collection_entry;

struct progress {
    char *directory; /* NULL when there is none (no home directory) */
    char *file;
    progress_record *records; /* sorted by key */
    int record_count, record_capacity;
    collection_entry *collections;
    int collection_count, collection_capacity;
    char *last_path; /* the collection played last, or NULL */
    int last_level;
    /* What this game changed since it last read or wrote the file: when saving, these win over
     * the file; for everything else the file (another game's newer work) wins. */
    progress_key *changed_keys; /* the levels, in no order */
    int changed_count, changed_capacity;
    bool last_changed;
    /* Why saving is refused, or "" when it is allowed: the file exists but could not be read
     * (so writing would lose what it holds), or was written by a newer version. */
    char no_save_reason[512];
    bool save_failed; /* the last save failed and was reported */
};

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

static char *copy_string(const char *text)
{
    size_t length = strlen(text);
    char *copy = malloc(length + 1);
    if (copy) memcpy(copy, text, length + 1);
    return copy;
}

/* "A/B", malloc'd. */
static char *join_path(const char *directory, const char *name)
{
    size_t size = strlen(directory) + strlen(name) + 2;
    char *path = malloc(size);
    if (path) snprintf(path, size, "%s/%s", directory, name);
    return path;
}

/* The directory part of `path` ("." when it has none), malloc'd. */
static char *directory_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return copy_string(".");
    size_t length = slash == path ? 1 : (size_t)(slash - path);
    char *directory = malloc(length + 1);
    if (directory) {
        memcpy(directory, path, length);
        directory[length] = '\0';
    }
    return directory;
}

/* The file that `path` stands for when it is a symbolic link (followed link after link, a
 * relative one from the link's directory), even when the last target does not exist yet, so
 * that writing and setting aside replace the target and keep the link. A copy of `path` when
 * it is no link. NULL when out of memory or the links go round in a loop (errno ELOOP). */
static char *resolve_links(const char *path)
{
    char *current = copy_string(path);
    for (int depth = 0; current && depth < 40; depth++) {
        struct stat status;
        if (lstat(current, &status) != 0 || !S_ISLNK(status.st_mode)) return current;
        char target[PATH_MAX];
        ssize_t length = readlink(current, target, sizeof target - 1);
        if (length < 0) return current;
        target[length] = '\0';
        char *next;
        if (target[0] == '/') {
            next = copy_string(target);
        } else {
            char *directory = directory_of(current);
            next = directory ? join_path(directory, target) : NULL;
            free(directory);
        }
        free(current);
        current = next;
    }
    if (current) errno = ELOOP;
    free(current);
    return NULL;
}

/* FNV-1a (Fowler, Noll, Vo): a byte at a time, xor then multiply by the FNV prime. */
static uint32_t fnv1a32(const char *data, size_t length)
{
    uint32_t hash = 2166136261u;
    for (size_t i = 0; i < length; i++) {
        hash ^= (unsigned char)data[i];
        hash *= 16777619u;
    }
    return hash;
}

static uint64_t fnv1a64_update(uint64_t hash, const char *data, size_t length)
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
    uint64_t hash = fnv1a64_update(14695981039346656037u, size, (size_t)length);
    return fnv1a64_update(hash, level->squares, (size_t)level->width * (size_t)level->height);
}

/* True when `text` holds only LURD letters and run-length counts, at most MAX_LURD_LENGTH. */
static bool is_lurd_text(const char *text)
{
    const char *c = text;
    for (; *c; c++)
        if (!strchr("lurdLURD0123456789", *c) || c - text >= MAX_LURD_LENGTH) return false;
    return true;
}

/* A growing string for writing the file. */
typedef struct text_buffer {
    char *data;
    size_t length, capacity;
    bool failed; /* out of memory */
} text_buffer;

static void text_append(text_buffer *text, const char *data, size_t length)
{
    if (text->failed) return;
    if (text->length + length + 1 > text->capacity) {
        size_t capacity = text->capacity ? text->capacity : 256;
        while (text->length + length + 1 > capacity) capacity *= 2;
        char *grown = realloc(text->data, capacity);
        if (!grown) {
            text->failed = true;
            return;
        }
        text->data = grown;
        text->capacity = capacity;
    }
    memcpy(text->data + text->length, data, length);
    text->length += length;
    text->data[text->length] = '\0';
}

static void text_print(text_buffer *text, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static void text_print(text_buffer *text, const char *format, ...)
{
    char small[128];
    va_list arguments;
    va_start(arguments, format);
    int length = vsnprintf(small, sizeof small, format, arguments);
    va_end(arguments);
    if (length < 0 || (size_t)length >= sizeof small) {
        text->failed = true; /* only short numbers and words are printed */
        return;
    }
    text_append(text, small, (size_t)length);
}

/* Appends a path with bytes that are not printable or are ' ' or '%' written as %XX. */
static void text_append_path(text_buffer *text, const char *path)
{
    for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
        if (*c <= ' ' || *c == '%' || *c == 0x7f)
            text_print(text, "%%%02X", *c);
        else
            text_append(text, (const char *)c, 1);
    }
}

/* Decodes a percent-encoded path in place; false when it is malformed. */
static bool decode_path(char *path)
{
    char *to = path;
    for (const char *from = path; *from; from++) {
        if (*from != '%') {
            *to++ = *from;
            continue;
        }
        unsigned value;
        char digits[3] = {from[1], from[1] ? from[2] : '\0', '\0'};
        char *end;
        if (!digits[0] || !digits[1]) return false;
        value = (unsigned)strtoul(digits, &end, 16);
        if (*end || value == 0) return false;
        *to++ = (char)value;
        from += 2;
    }
    *to = '\0';
    return *path != '\0';
}

static void text_append_lurd(text_buffer *text, const char *lurd)
{
    if (!lurd)
        text_append(text, "-", 1);
    else if (!*lurd)
        text_append(text, "=", 1);
    else
        text_append(text, lurd, strlen(lurd));
}

/* ---- records -------------------------------------------------------------------------- */

static void solution_free(progress_solution *solution)
{
    free(solution->lurd);
    solution->lurd = NULL;
}

static void record_free(progress_record *record)
{
    solution_free(&record->best_moves);
    solution_free(&record->best_pushes);
    free(record->unfinished);
}

/* The index of the record with `key`, or where it would go, by binary search. */
static int find_record(const progress *progress, progress_key key, bool *found)
{
    int low = 0, high = progress->record_count;
    while (low < high) {
        int middle = low + (high - low) / 2;
        if (progress->records[middle].key < key)
            low = middle + 1;
        else
            high = middle;
    }
    *found = low < progress->record_count && progress->records[low].key == key;
    return low;
}

/* The record with `key`, added empty when missing; NULL when out of memory. */
static progress_record *record_for(progress *progress, progress_key key)
{
    bool found;
    int index = find_record(progress, key, &found);
    if (found) return &progress->records[index];
    if (progress->record_count == progress->record_capacity) {
        int capacity = progress->record_capacity ? 2 * progress->record_capacity : 64;
        progress_record *grown = realloc(progress->records, (size_t)capacity * sizeof *grown);
        if (!grown) return NULL;
        progress->records = grown;
        progress->record_capacity = capacity;
    }
    memmove(&progress->records[index + 1], &progress->records[index],
            (size_t)(progress->record_count - index) * sizeof *progress->records);
    progress->record_count++;
    progress_record *record = &progress->records[index];
    memset(record, 0, sizeof *record);
    record->key = key;
    return record;
}

static bool is_changed(const progress *progress, progress_key key)
{
    for (int i = 0; i < progress->changed_count; i++)
        if (progress->changed_keys[i] == key) return true;
    return false;
}

/* Notes that this game changed the level's record; false when out of memory. */
static bool mark_changed(progress *progress, progress_key key)
{
    if (is_changed(progress, key)) return true;
    if (progress->changed_count == progress->changed_capacity) {
        int capacity = progress->changed_capacity ? 2 * progress->changed_capacity : 16;
        progress_key *grown = realloc(progress->changed_keys, (size_t)capacity * sizeof *grown);
        if (!grown) return false;
        progress->changed_keys = grown;
        progress->changed_capacity = capacity;
    }
    progress->changed_keys[progress->changed_count++] = key;
    return true;
}

const progress_record *progress_get(const progress *progress, progress_key key)
{
    bool found;
    int index = find_record(progress, key, &found);
    return found ? &progress->records[index] : NULL;
}

/* True when (moves, pushes) beats `kept`, ordered by `first` then the other. */
static bool is_better(const progress_solution *kept, int moves, int pushes, bool by_moves)
{
    if (!kept->lurd) return true;
    int first = by_moves ? moves : pushes, second = by_moves ? pushes : moves;
    int kept_first = by_moves ? kept->moves : kept->pushes;
    int kept_second = by_moves ? kept->pushes : kept->moves;
    return first < kept_first || (first == kept_first && second < kept_second);
}

static bool solution_set(progress_solution *solution, const char *lurd, int moves, int pushes)
{
    char *copy = copy_string(lurd);
    if (!copy) return false;
    free(solution->lurd);
    solution->lurd = copy;
    solution->moves = moves;
    solution->pushes = pushes;
    return true;
}

bool progress_record_solution(progress *progress, progress_key key, const char *lurd, int moves,
                              int pushes)
{
    if (!lurd || !is_lurd_text(lurd) || moves < 0 || pushes < 0) return false;
    if (!mark_changed(progress, key)) return false;
    progress_record *record = record_for(progress, key);
    if (!record) return false;
    record->solved = true;
    free(record->unfinished);
    record->unfinished = NULL;
    bool improved = false;
    if (is_better(&record->best_moves, moves, pushes, true))
        improved |= solution_set(&record->best_moves, lurd, moves, pushes);
    if (is_better(&record->best_pushes, moves, pushes, false))
        improved |= solution_set(&record->best_pushes, lurd, moves, pushes);
    return improved;
}

bool progress_set_unfinished(progress *progress, progress_key key, const char *lurd)
{
    if (lurd && !is_lurd_text(lurd)) return false;
    char *copy = NULL;
    if (lurd && *lurd) {
        copy = copy_string(lurd);
        if (!copy) return false;
    }
    if (!copy && !progress_get(progress, key)) return true; /* nothing to forget */
    progress_record *record = mark_changed(progress, key) ? record_for(progress, key) : NULL;
    if (!record) {
        free(copy);
        return false;
    }
    free(record->unfinished);
    record->unfinished = copy;
    return true;
}

/* ---- collections ---------------------------------------------------------------------- */

/* `path` made absolute when the file exists (malloc'd), else a copy of it. */
static char *absolute_path(const char *path)
{
    char *resolved = realpath(path, NULL);
    return resolved ? resolved : copy_string(path);
}

static collection_entry *find_collection(const progress *progress, const char *path)
{
    for (int i = 0; i < progress->collection_count; i++)
        if (strcmp(progress->collections[i].path, path) == 0) return &progress->collections[i];
    return NULL;
}

/* Sets the collection's level, adding it when missing; takes `path` (malloc'd) either way.
 * `changed`: by this game (not read from the file). */
static bool collection_set(progress *progress, char *path, int level, bool changed)
{
    collection_entry *entry = find_collection(progress, path);
    if (entry) {
        free(path);
        entry->level = level;
        entry->changed = entry->changed || changed;
        return true;
    }
    if (progress->collection_count == progress->collection_capacity) {
        int capacity = progress->collection_capacity ? 2 * progress->collection_capacity : 8;
        collection_entry *grown = realloc(progress->collections, (size_t)capacity * sizeof *grown);
        if (!grown) {
            free(path);
            return false;
        }
        progress->collections = grown;
        progress->collection_capacity = capacity;
    }
    progress->collections[progress->collection_count++] = (collection_entry){path, level, changed};
    return true;
}

static bool set_last(progress *progress, const char *path, int level)
{
    char *last = copy_string(path);
    if (!last) return false;
    free(progress->last_path);
    progress->last_path = last;
    progress->last_level = level;
    return true;
}

bool progress_set_last(progress *progress, const char *collection_path, int level_number)
{
    char *path = absolute_path(collection_path);
    if (!path || !set_last(progress, path, level_number)) {
        free(path);
        return false;
    }
    progress->last_changed = true;
    return collection_set(progress, path, level_number, true);
}

bool progress_last(const progress *progress, const char **collection_path, int *level_number)
{
    if (!progress->last_path) return false;
    *collection_path = progress->last_path;
    *level_number = progress->last_level;
    return true;
}

int progress_collection_level(const progress *progress, const char *collection_path)
{
    char *path = absolute_path(collection_path);
    if (!path) return 0;
    const collection_entry *entry = find_collection(progress, path);
    free(path);
    return entry ? entry->level : 0;
}

const char *progress_file(const progress *progress)
{
    return progress->file;
}

/* ---- the lock ------------------------------------------------------------------------- */

/* Two games that save at once must not both read the file, merge and rename: the second
 * rename would drop what the first wrote. So reading, merging and renaming happen under an
 * exclusive flock() on DIR/progress.lock, a file that is never removed (removing it would let
 * a third game lock a new file while the second still holds the old one). Returns the locked
 * descriptor, or -1 with errno set. */
static int lock_directory(const char *directory)
{
    char *path = join_path(directory, PROGRESS_LOCK_NAME);
    if (!path) {
        errno = ENOMEM;
        return -1;
    }
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    free(path);
    if (fd < 0) return -1;
    while (flock(fd, LOCK_EX) != 0) {
        if (errno == EINTR) continue;
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/* Closing the descriptor releases the lock. -1 is allowed. */
static void unlock_directory(int lock)
{
    if (lock >= 0) close(lock);
}

/* ---- reading -------------------------------------------------------------------------- */

/* Splits `text` at single spaces into at most `capacity` words; returns how many, or -1
 * when there are more or a word is empty. */
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
    if (!*word || strspn(word, "0123456789") != strlen(word) || strlen(word) > 9) return false;
    *out = atoi(word);
    return true;
}

/* Reads a LURD field: NULL for "-", "" for "=", else a copy of valid LURD text. */
static bool parse_lurd(const char *word, char **out)
{
    *out = NULL;
    if (strcmp(word, "-") == 0) return true;
    if (strcmp(word, "=") == 0)
        word = "";
    else if (!is_lurd_text(word))
        return false;
    *out = copy_string(word);
    return *out != NULL;
}

static bool parse_solution(char **words, progress_solution *out)
{
    if (!parse_count(words[0], &out->moves) || !parse_count(words[1], &out->pushes) ||
        !parse_lurd(words[2], &out->lurd))
        return false;
    if (!out->lurd) out->moves = out->pushes = 0;
    return true;
}

/* Reads one "level" record's words (after the word "level"). */
static bool parse_level(progress *progress, char **words, int count)
{
    if (count != 9 || strlen(words[0]) != 16 || strspn(words[0], "0123456789abcdef") != 16)
        return false;
    progress_record record = {.key = strtoull(words[0], NULL, 16)};
    int solved;
    bool ok = parse_count(words[1], &solved) && solved <= 1 &&
              parse_solution(&words[2], &record.best_moves) &&
              parse_solution(&words[5], &record.best_pushes) &&
              parse_lurd(words[8], &record.unfinished);
    progress_record *slot = ok ? record_for(progress, record.key) : NULL;
    if (!slot) {
        record_free(&record);
        return false;
    }
    record.solved = solved == 1;
    record_free(slot); /* a later line about the same level wins */
    *slot = record;
    return true;
}

/* Reads one line (without its newline); false when it is damaged. */
static bool parse_line(progress *progress, char *line)
{
    size_t length = strlen(line);
    if (length < 10 || line[8] != ' ' || strspn(line, "0123456789abcdef") != 8) return false;
    char sum_text[9];
    memcpy(sum_text, line, 8);
    sum_text[8] = '\0';
    if ((uint32_t)strtoul(sum_text, NULL, 16) != fnv1a32(line + 9, length - 9)) return false;

    char *words[12];
    int count = split_words(line + 9, words, 12);
    if (count < 1) return false;
    if (strcmp(words[0], "level") == 0) return parse_level(progress, words + 1, count - 1);
    bool is_last = strcmp(words[0], "last") == 0;
    if (!is_last && strcmp(words[0], "collection") != 0) return false;
    int level;
    if (count != 3 || !parse_count(words[1], &level) || level < 1 || !decode_path(words[2]))
        return false;
    if (is_last) return set_last(progress, words[2], level);
    char *path = copy_string(words[2]);
    return path && collection_set(progress, path, level, false);
}

/* Renames `from` to `to` unless `to` exists (then fails with EEXIST), in one step, so that
 * nothing another game set aside meanwhile is replaced: renameat2(RENAME_NOREPLACE), or
 * where the kernel or the file system does not have it, link() (which never replaces) and
 * unlink(). */
static int rename_without_replacing(const char *from, const char *to)
{
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) return -1;
    if (link(from, to) != 0) return -1;
    if (unlink(from) != 0) {
        int saved = errno;
        unlink(to);
        errno = saved;
        return -1;
    }
    return 0;
}

/* Renames the file aside, to FILE.corrupt-YYYYMMDD-HHMMSS or, when that is taken, the same
 * with -2, -3... added; returns the new name (malloc'd) or NULL with errno set. */
static char *set_aside(const char *file)
{
    char stamp[32];
    time_t now = time(NULL);
    struct tm local;
    localtime_r(&now, &local);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
    size_t size = strlen(file) + sizeof ".corrupt-" + strlen(stamp) + 16;
    char *name = malloc(size);
    if (!name) return NULL;
    for (int attempt = 1; attempt < 1000; attempt++) {
        if (attempt == 1)
            snprintf(name, size, "%s.corrupt-%s", file, stamp);
        else
            snprintf(name, size, "%s.corrupt-%s-%d", file, stamp, attempt);
        if (rename_without_replacing(file, name) == 0) return name;
        if (errno != EEXIST) break;
    }
    int saved = errno;
    free(name);
    errno = saved;
    return NULL;
}

/* What reading a progress file found. */
typedef struct read_outcome {
    bool missing;    /* there is no file */
    bool read_error; /* it could not be read; `error_number` says why, 0: no regular file */
    int error_number;
    bool empty;            /* it has no line at all */
    bool is_progress_file; /* its first line is a progress header */
    bool newer;            /* of a version after PROGRESS_VERSION */
    int damaged;           /* lines skipped */
} read_outcome;

typedef enum line_status {
    LINE_READ,     /* a line, maybe the last one without its newline */
    LINE_TOO_LONG, /* a line longer than MAX_LINE_LENGTH, read past and dropped */
    LINE_END,      /* the end of the file */
    LINE_FAILED,   /* a read error or out of memory; errno says which */
} line_status;

/* Makes room for `needed` bytes in *line; false when out of memory (errno is ENOMEM). */
static bool grow_line(char **line, size_t *capacity, size_t needed)
{
    if (needed <= *capacity) return true;
    size_t grown_capacity = *capacity ? 2 * *capacity : 256;
    if (grown_capacity > MAX_LINE_LENGTH + 1) grown_capacity = MAX_LINE_LENGTH + 1;
    char *grown = realloc(*line, grown_capacity);
    if (!grown) {
        errno = ENOMEM;
        return false;
    }
    *line = grown;
    *capacity = grown_capacity;
    return true;
}

/* Reads one line into *line (grown as needed; without its newline, NUL-terminated) and its
 * length into *length. Unlike getline(), a line too long to keep is told apart from the end of
 * the file, so the records after it are still read. */
static line_status read_line(FILE *in, char **line, size_t *capacity, size_t *length)
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
        if (!grow_line(line, capacity, used + 2)) return LINE_FAILED;
        (*line)[used++] = (char)c;
    }
    if (c == EOF && ferror(in)) return LINE_FAILED;
    if (too_long) return LINE_TOO_LONG;
    if (c == EOF && used == 0) return LINE_END;
    if (!grow_line(line, capacity, used + 1)) return LINE_FAILED;
    (*line)[used] = '\0';
    *length = used;
    return LINE_READ;
}

/* Why a file could not be read, for a message. */
static const char *read_problem(const read_outcome *outcome)
{
    return outcome->error_number ? strerror(outcome->error_number) : "not a regular file";
}

/* Opens `file` for reading when it is a regular file. It is opened without blocking, so that
 * a FIFO put in its place cannot hang the game, and checked with fstat() before a byte is
 * read. NULL with the outcome filled in when it is missing or cannot be read. */
static FILE *open_regular_file(const char *file, read_outcome *outcome)
{
    int fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        outcome->missing = errno == ENOENT;
        outcome->read_error = !outcome->missing;
        outcome->error_number = errno;
        return NULL;
    }
    struct stat status;
    int flags;
    FILE *in = NULL;
    if (fstat(fd, &status) != 0)
        outcome->error_number = errno;
    else if (!S_ISREG(status.st_mode))
        outcome->error_number = 0;
    else if ((flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ||
             !(in = fdopen(fd, "r")))
        outcome->error_number = errno;
    if (!in) {
        outcome->read_error = true;
        close(fd);
    }
    return in;
}

/* Reads the records of `file` into `into`, skipping damaged lines. */
static read_outcome read_records(progress *into, const char *file)
{
    read_outcome outcome = {0};
    FILE *in = open_regular_file(file, &outcome);
    if (!in) return outcome;
    char *line = NULL;
    size_t capacity = 0, length = 0;
    int line_number = 0;
    line_status status;
    while ((status = read_line(in, &line, &capacity, &length)) != LINE_END &&
           status != LINE_FAILED) {
        line_number++;
        if (status == LINE_TOO_LONG) {
            if (line_number == 1) break; /* not a progress file */
            outcome.damaged++;
            continue;
        }
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r'))
            line[--length] = '\0';
        if (line_number == 1) {
            size_t header = strlen(PROGRESS_HEADER);
            outcome.is_progress_file =
                strncmp(line, PROGRESS_HEADER, header) == 0 &&
                strspn(line + header, "0123456789") == strlen(line + header) &&
                line[header] != '\0';
            if (!outcome.is_progress_file) break;
            outcome.newer = atoi(line + header) > PROGRESS_VERSION;
            if (outcome.newer) break;
            continue;
        }
        if (length == 0 || line[0] == '#') continue;
        if (!parse_line(into, line)) outcome.damaged++;
    }
    /* Only the end of the file ends reading without an error. */
    outcome.read_error = status == LINE_FAILED;
    outcome.error_number = errno;
    outcome.empty = line_number == 0;
    free(line);
    fclose(in);
    return outcome;
}

static bool save_locked(progress *progress, char *reason, size_t reason_size);

/* Reads the progress file. Reports (once) what went wrong in `message`. */
static void load_locked(progress *progress, char *message, size_t message_size)
{
    read_outcome outcome = read_records(progress, progress->file);
    if (outcome.missing) return;
    bool read_error = outcome.read_error;

    bool newer = outcome.newer, is_progress_file = outcome.is_progress_file;
    int damaged = outcome.damaged;
    if (read_error) {
        snprintf(progress->no_save_reason, sizeof progress->no_save_reason,
                 "cannot read %s (%s), so it is not written over", progress->file,
                 read_problem(&outcome));
        set_message(message, message_size, "progress: %s", progress->no_save_reason);
        return;
    }
    if (outcome.empty) return; /* nothing saved yet */
    if (newer) {
        snprintf(progress->no_save_reason, sizeof progress->no_save_reason,
                 "%s was written by a newer sokoban, so it is not written over", progress->file);
        set_message(message, message_size, "progress: %s", progress->no_save_reason);
        return;
    }
    if (is_progress_file && damaged == 0) return;

    char *target = resolve_links(progress->file);
    char *aside = target ? set_aside(target) : NULL;
    free(target);
    if (!aside) {
        if (!is_progress_file)
            snprintf(progress->no_save_reason, sizeof progress->no_save_reason,
                     "%s is not a progress file and cannot be set aside (%s), so it is not "
                     "written over",
                     progress->file, strerror(errno));
        set_message(message, message_size, "progress: %s %s and could not be set aside (%s)",
                    progress->file,
                    is_progress_file ? "has damaged records" : "is not a progress file",
                    strerror(errno));
        return;
    }
    if (is_progress_file)
        set_message(message, message_size,
                    "progress: %d damaged record%s of %s skipped; the file was kept as %s", damaged,
                    damaged == 1 ? "" : "s", progress->file, aside);
    else
        set_message(message, message_size,
                    "progress: %s could not be read as saved progress; it was set aside as %s",
                    progress->file, aside);
    free(aside);
    /* Write the records that were read back at once, so they are not lost with the file. */
    char reason[1024];
    if (is_progress_file) save_locked(progress, reason, sizeof reason);
}

/* Removes the temporary files of saves that never finished (the game ended between creating
 * and renaming one) from `directory`. Only those older than STALE_TEMPORARY_SECONDS, so that
 * the file of a game saving right now (one without the lock: an older sokoban) is left. */
static void remove_stale_temporaries(const char *directory)
{
    DIR *entries = opendir(directory);
    if (!entries) return;
    time_t now = time(NULL);
    size_t prefix = strlen(TEMPORARY_PREFIX);
    for (struct dirent *entry; (entry = readdir(entries));) {
        if (strncmp(entry->d_name, TEMPORARY_PREFIX, prefix) != 0 ||
            strlen(entry->d_name) != prefix + 6)
            continue;
        struct stat status;
        if (fstatat(dirfd(entries), entry->d_name, &status, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISREG(status.st_mode) && now - status.st_mtime > STALE_TEMPORARY_SECONDS)
            unlinkat(dirfd(entries), entry->d_name, 0);
    }
    closedir(entries);
}

/* Reads the progress file under the lock, so that a save of another game cannot come between
 * reading a damaged file and setting it aside. Without a directory (nothing saved yet) or
 * when the lock cannot be made (a read-only directory) it reads without the lock. */
static void load(progress *progress, char *message, size_t message_size)
{
    int lock = lock_directory(progress->directory);
    load_locked(progress, message, message_size);
    if (lock >= 0) {
        /* Temporary files sit beside the file, which may be a link to another directory. */
        remove_stale_temporaries(progress->directory);
        char *target = resolve_links(progress->file);
        char *target_directory = target ? directory_of(target) : NULL;
        if (target_directory && strcmp(target_directory, progress->directory) != 0)
            remove_stale_temporaries(target_directory);
        free(target_directory);
        free(target);
    }
    unlock_directory(lock);
}

/* The default directory: $XDG_DATA_HOME/sokoban, else $HOME/.local/share/sokoban. */
static char *default_directory(void)
{
    const char *data_home = getenv("XDG_DATA_HOME");
    if (data_home && data_home[0] == '/') return join_path(data_home, "sokoban");
    const char *home = getenv("HOME");
    if (!home || !*home) return NULL;
    size_t size = strlen(home) + sizeof "/.local/share/sokoban";
    char *path = malloc(size);
    if (path) snprintf(path, size, "%s/.local/share/sokoban", home);
    return path;
}

progress *progress_open(const char *directory, char *message, size_t message_size)
{
    set_message(message, message_size, "%s", "");
    progress *progress = calloc(1, sizeof *progress);
    if (!progress) return NULL;
    progress->directory = directory ? copy_string(directory) : default_directory();
    if (!progress->directory) {
        if (directory) {
            free(progress);
            return NULL;
        }
        snprintf(progress->no_save_reason, sizeof progress->no_save_reason,
                 "neither XDG_DATA_HOME nor HOME is set, so progress is not saved");
        set_message(message, message_size, "progress: %s", progress->no_save_reason);
        progress->file = copy_string(PROGRESS_FILE_NAME);
    } else {
        progress->file = join_path(progress->directory, PROGRESS_FILE_NAME);
    }
    if (!progress->file) {
        progress_close(progress);
        return NULL;
    }
    if (progress->directory) load(progress, message, message_size);
    /* What progress_open() reported is not reported again by the first save. */
    progress->save_failed = progress->no_save_reason[0] != '\0';
    return progress;
}

/* Frees what the progress holds, not the progress itself. */
static void free_contents(progress *progress)
{
    for (int i = 0; i < progress->record_count; i++) record_free(&progress->records[i]);
    free(progress->records);
    for (int i = 0; i < progress->collection_count; i++) free(progress->collections[i].path);
    free(progress->collections);
    free(progress->changed_keys);
    free(progress->last_path);
    free(progress->directory);
    free(progress->file);
}

void progress_close(progress *progress)
{
    if (!progress) return;
    free_contents(progress);
    free(progress);
}

/* ---- writing -------------------------------------------------------------------------- */

/* Appends one record line: its checksum, then the body that starts at `body`. */
static void finish_line(text_buffer *text, size_t body)
{
    if (text->failed) return;
    uint32_t sum = fnv1a32(text->data + body, text->length - body);
    char sum_text[10];
    snprintf(sum_text, sizeof sum_text, "%08x ", (unsigned)sum);
    /* The body is already there: shift it right by the sum's width. */
    text_append(text, "         ", 9);
    if (text->failed) return;
    memmove(text->data + body + 9, text->data + body, text->length - body - 9);
    memcpy(text->data + body, sum_text, 9);
    text_append(text, "\n", 1);
}

static void write_path_record(text_buffer *text, const char *kind, int level, const char *path)
{
    size_t body = text->length;
    text_print(text, "%s %d ", kind, level);
    text_append_path(text, path);
    finish_line(text, body);
}

static void write_solution(text_buffer *text, const progress_solution *solution)
{
    text_print(text, " %d %d ", solution->moves, solution->pushes);
    text_append_lurd(text, solution->lurd);
}

/* The whole file as text. */
static void write_file_text(const progress *progress, text_buffer *text)
{
    text_print(text, "%s%d\n", PROGRESS_HEADER, PROGRESS_VERSION);
    if (progress->last_path)
        write_path_record(text, "last", progress->last_level, progress->last_path);
    for (int i = 0; i < progress->collection_count; i++)
        write_path_record(text, "collection", progress->collections[i].level,
                          progress->collections[i].path);
    for (int i = 0; i < progress->record_count; i++) {
        const progress_record *record = &progress->records[i];
        size_t body = text->length;
        text_print(text, "level %016llx %d", (unsigned long long)record->key, record->solved);
        write_solution(text, &record->best_moves);
        write_solution(text, &record->best_pushes);
        text_append(text, " ", 1);
        text_append_lurd(text, record->unfinished);
        finish_line(text, body);
    }
}

/* Creates the directory and its parents (mode 0700, as XDG asks) when missing. */
static bool make_directories(const char *directory)
{
    char *path = copy_string(directory);
    if (!path) return false;
    bool ok = true;
    for (char *slash = path + 1; ok; slash++) {
        if (*slash != '/' && *slash != '\0') continue;
        char saved = *slash;
        *slash = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST) ok = false;
        *slash = saved;
        if (!saved) break;
    }
    free(path);
    return ok;
}

/* Writes `text` to `file` (no symbolic link) through a temporary file in the same directory:
 * write, fsync, rename over the file, fsync the directory so the rename itself is on disk. */
static bool write_atomically(const char *file, const text_buffer *text, char *reason,
                             size_t reason_size)
{
    char *directory = directory_of(file);
    char *temporary = directory ? join_path(directory, ".progress.txt.XXXXXX") : NULL;
    _Static_assert(sizeof ".progress.txt.XXXXXX" == sizeof TEMPORARY_PREFIX + 6, "the prefix");
    if (!temporary) {
        snprintf(reason, reason_size, "out of memory");
        free(directory);
        return false;
    }
    int fd = mkstemp(temporary);
    if (fd < 0) {
        snprintf(reason, reason_size, "cannot create a file in %s (%s)", directory,
                 strerror(errno));
        free(temporary);
        free(directory);
        return false;
    }
    const char *step = "write";
    bool ok = true;
    for (size_t done = 0; ok && done < text->length;) {
        ssize_t written = write(fd, text->data + done, text->length - done);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0)
            ok = false;
        else
            done += (size_t)written;
    }
    if (ok && fsync(fd) != 0) step = "sync", ok = false;
    if (close(fd) != 0 && ok) step = "close", ok = false;
    if (ok && rename(temporary, file) != 0) step = "rename", ok = false;
    if (!ok) {
        snprintf(reason, reason_size, "cannot %s %s (%s)", step, file, strerror(errno));
        unlink(temporary);
        free(temporary);
        free(directory);
        return false;
    }
    free(temporary);
    int directory_fd = open(directory, O_RDONLY | O_DIRECTORY);
    if (directory_fd >= 0) {
        fsync(directory_fd); /* best effort: some file systems refuse it */
        close(directory_fd);
    }
    free(directory);
    return true;
}

/* Merges `from` (the file as another game running at the same time saved it) into `into`:
 * levels and collections `into` does not know are added; better solutions and solved marks
 * are kept from both; for the unfinished game of a level, the level of a collection and the
 * collection played last, `into`'s value wins only when this game changed it since it last
 * read or wrote the file, else the file's does (an idle game must not undo another's newer
 * work). Returns false when out of memory. */
static bool merge(progress *into, const progress *from)
{
    for (int i = 0; i < from->record_count; i++) {
        const progress_record *theirs = &from->records[i];
        bool ours_wins = is_changed(into, theirs->key);
        progress_record *ours = record_for(into, theirs->key);
        if (!ours) return false;
        ours->solved = ours->solved || theirs->solved;
        const progress_solution *moves = &theirs->best_moves, *pushes = &theirs->best_pushes;
        if (moves->lurd && is_better(&ours->best_moves, moves->moves, moves->pushes, true) &&
            !solution_set(&ours->best_moves, moves->lurd, moves->moves, moves->pushes))
            return false;
        if (pushes->lurd && is_better(&ours->best_pushes, pushes->moves, pushes->pushes, false) &&
            !solution_set(&ours->best_pushes, pushes->lurd, pushes->moves, pushes->pushes))
            return false;
        if (!ours_wins) {
            char *unfinished = NULL;
            if (theirs->unfinished && !(unfinished = copy_string(theirs->unfinished))) return false;
            free(ours->unfinished);
            ours->unfinished = unfinished;
        }
    }
    for (int i = 0; i < from->collection_count; i++) {
        const collection_entry *theirs = &from->collections[i];
        collection_entry *ours = find_collection(into, theirs->path);
        if (ours) {
            if (!ours->changed) ours->level = theirs->level;
            continue;
        }
        char *path = copy_string(theirs->path);
        if (!path || !collection_set(into, path, theirs->level, false)) return false;
    }
    if (!into->last_changed && from->last_path &&
        !set_last(into, from->last_path, from->last_level))
        return false;
    return true;
}

/* After a save, what the file holds is what this game holds: nothing is changed any more. */
static void forget_changes(progress *progress)
{
    progress->changed_count = 0;
    progress->last_changed = false;
    for (int i = 0; i < progress->collection_count; i++) progress->collections[i].changed = false;
}

/* Before writing `target` (the file with its links followed): takes in what the file holds
 * now, which another game may have saved since this one read it. A file that became
 * unreadable is not written over; one that became damaged or foreign is set aside first.
 * Returns false with `reason` when it must not be written. */
static bool merge_file(progress *progress, const char *target, char *reason, size_t reason_size)
{
    struct progress scratch = {0};
    read_outcome outcome = read_records(&scratch, progress->file);
    bool ok = true;
    if (outcome.read_error) {
        snprintf(reason, reason_size, "cannot read %s (%s), so it is not written over",
                 progress->file, read_problem(&outcome));
        ok = false;
    } else if (outcome.newer) {
        snprintf(progress->no_save_reason, sizeof progress->no_save_reason,
                 "%s was written by a newer sokoban, so it is not written over", progress->file);
        snprintf(reason, reason_size, "%s", progress->no_save_reason);
        ok = false;
    } else if (!outcome.missing && !outcome.empty) {
        if (!outcome.is_progress_file || outcome.damaged > 0) free(set_aside(target));
        if (outcome.is_progress_file && !merge(progress, &scratch)) {
            snprintf(reason, reason_size, "out of memory");
            ok = false;
        }
    }
    free_contents(&scratch);
    return ok;
}

/* Merges in what the file holds and writes it all back. Call with the lock held. */
static bool save_locked(progress *progress, char *reason, size_t reason_size)
{
    /* A link to the file stays a link: the file it points to is replaced. */
    char *target = resolve_links(progress->file);
    if (!target) {
        snprintf(reason, reason_size, "cannot follow the link %s (%s)", progress->file,
                 strerror(errno));
        return false;
    }
    bool ok = false;
    text_buffer text = {0};
    if (merge_file(progress, target, reason, reason_size)) {
        write_file_text(progress, &text);
        if (text.failed)
            snprintf(reason, reason_size, "out of memory");
        else
            ok = write_atomically(target, &text, reason, reason_size);
    }
    free(text.data);
    free(target);
    if (ok) forget_changes(progress);
    return ok;
}

bool progress_save(progress *progress, char *message, size_t message_size)
{
    set_message(message, message_size, "%s", "");
    char reason[1024] = "";
    bool ok = false;
    int lock = -1;
    if (progress->no_save_reason[0]) {
        snprintf(reason, sizeof reason, "%s", progress->no_save_reason);
    } else if (!make_directories(progress->directory)) {
        snprintf(reason, sizeof reason, "cannot create %s (%s)", progress->directory,
                 strerror(errno));
    } else if ((lock = lock_directory(progress->directory)) < 0) {
        snprintf(reason, sizeof reason, "cannot lock %s/%s (%s)", progress->directory,
                 PROGRESS_LOCK_NAME, strerror(errno));
    } else {
        ok = save_locked(progress, reason, sizeof reason);
    }
    unlock_directory(lock);
    if (ok) {
        progress->save_failed = false;
        return true;
    }
    if (!progress->save_failed)
        set_message(message, message_size, "progress not saved: %s", reason);
    progress->save_failed = true;
    return false;
}
