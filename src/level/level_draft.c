/* level_draft.c - a drawing not yet saved, kept aside and offered back (level_draft.h). */
#define _GNU_SOURCE
#include "level_draft.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
    SIDE = EDIT_CANVAS_SIDE,
    DRAFT_MAX_BYTES = 4 << 20, /* far above the largest level with its fields */
};

static const char MAGIC[] = "sokoban draft 2\n";

char *level_draft_folder(void)
{
    return safe_file_data_folder("drafts");
}

void level_draft_key(const char *path, int number, char *out, size_t size)
{
    if (!path || strcmp(path, "-") == 0) {
        snprintf(out, size, "%s", path ? LEVEL_DRAFT_STDIN : "new");
        return;
    }
    char *real = realpath(path, NULL);
    snprintf(out, size, "%s:%d", real ? real : path, number);
    free(real);
}

/* FNV-1a, 64 bits: two keys of one base name get two names, two texts two marks. */
static uint64_t key_hash(const char *key)
{
    uint64_t hash = 14695981039346656037ULL;
    for (const unsigned char *c = (const unsigned char *)(key ? key : ""); *c; c++)
        hash = (hash ^ *c) * 1099511628211ULL;
    return hash;
}

void level_draft_file_name(const char *key, char *out, size_t size)
{
    const char *base = strrchr(key, '/');
    base = base ? base + 1 : key;
    char name[SAFE_FILE_NAME_MAX + 1];
    /* the readable part cut so that the hash always fits */
    snprintf(name, sizeof name, "%.120s-%016llx", base, (unsigned long long)key_hash(key));
    safe_file_name(name, ".draft", out, size);
}

static void write_field(FILE *out, const char *name, const char *text)
{
    fprintf(out, "%s %zu\n%s\n", name, strlen(text), text);
}

bool level_draft_write(const char *folder, const char *key, const char *opened,
                       const level_edit *edit, char *why, size_t size)
{
    if (strcmp(key, LEVEL_DRAFT_STDIN) == 0) {
        snprintf(why, size, "a level read from standard input has no file to be known again by");
        return false;
    }
    if (!safe_file_make_folder(folder, why, size)) return false;
    char name[SAFE_FILE_NAME_MAX + 1];
    level_draft_file_name(key, name, sizeof name);
    safe_file f;
    if (!safe_file_create(&f, folder, name, NULL, 0600, why, size)) return false;
    edit_bounds b = level_edit_bounds(edit);
    fputs(MAGIC, f.out);
    write_field(f.out, "key", key);
    fprintf(f.out, "opened %016llx\n", (unsigned long long)key_hash(opened));
    write_field(f.out, "title", edit->title);
    write_field(f.out, "author", edit->author);
    write_field(f.out, "comment", edit->comment);
    fprintf(f.out, "map %d %d %d %d %d\n", b.x, b.y, b.width, b.height, edit->cursor);
    for (int y = b.y; y < b.y + b.height; y++) {
        fwrite(edit->canvas + level_edit_square(b.x, y), 1, (size_t)b.width, f.out);
        fputc('\n', f.out);
    }
    return safe_file_commit(&f, why, size);
}

/* The draft's whole text, NUL-terminated, and when it was written; NULL when none. */
static char *read_whole(const char *folder, const char *key, size_t *length, time_t *when)
{
    char name[SAFE_FILE_NAME_MAX + 1], *path = NULL;
    level_draft_file_name(key, name, sizeof name);
    if (asprintf(&path, "%s/%s", folder, name) < 0) return NULL;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    free(path);
    if (fd < 0) return NULL;
    struct stat st;
    char *text = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < DRAFT_MAX_BYTES &&
        (text = malloc((size_t)st.st_size + 1))) {
        ssize_t got = read(fd, text, (size_t)st.st_size);
        if (got != st.st_size) {
            free(text);
            text = NULL;
        } else {
            text[got] = '\0';
            *length = (size_t)got;
            *when = st.st_mtime;
        }
    }
    close(fd);
    return text;
}

/* A reader of the draft's text. */
typedef struct reader {
    const char *at, *end;
} reader;

/* The field `name`'s text (copied, to free()), or NULL. */
static char *read_field(reader *r, const char *name)
{
    size_t name_length = strlen(name), length = 0;
    if ((size_t)(r->end - r->at) <= name_length + 1 || memcmp(r->at, name, name_length) != 0 ||
        r->at[name_length] != ' ')
        return NULL;
    char *after;
    errno = 0;
    unsigned long long value = strtoull(r->at + name_length + 1, &after, 10);
    if (errno || after >= r->end || *after != '\n') return NULL;
    if (value > (unsigned long long)(r->end - after - 1)) return NULL;
    length = (size_t)value;
    const char *text = after + 1;
    if (text + length >= r->end || text[length] != '\n' || memchr(text, '\0', length)) return NULL;
    r->at = text + length + 1;
    return strndup(text, length);
}

static bool is_square(char c)
{
    return c == LEVEL_WALL || c == LEVEL_FLOOR || c == LEVEL_GOAL || c == LEVEL_BOX ||
           c == LEVEL_BOX_ON_GOAL || c == LEVEL_PLAYER || c == LEVEL_PLAYER_ON_GOAL;
}

/* The map: its rectangle on the canvas, each row's squares checked. */
static bool read_map(reader *r, level_edit *edit)
{
    int x, y, width, height, cursor, used = 0;
    if (sscanf(r->at, "map %d %d %d %d %d\n%n", &x, &y, &width, &height, &cursor, &used) != 5 ||
        used == 0)
        return false;
    if (x < 0 || y < 0 || width < 0 || height < 0 || width > LEVEL_MAX_SIDE ||
        height > LEVEL_MAX_SIDE || x + width > SIDE || y + height > SIDE || cursor < 0 ||
        cursor >= SIDE * SIDE)
        return false;
    r->at += used;
    for (int row = 0; row < height; row++) {
        if (r->end - r->at < width + 1 || r->at[width] != '\n') return false;
        for (int column = 0; column < width; column++) {
            if (!is_square(r->at[column])) return false;
            edit->canvas[level_edit_square(x + column, y + row)] = r->at[column];
        }
        r->at += width + 1;
    }
    edit->cursor = cursor;
    return r->at == r->end;
}

/* The "opened" line: the hash of the level's text the drawing began from. */
static bool read_opened(reader *r, const char *opened)
{
    char line[64];
    snprintf(line, sizeof line, "opened %016llx\n", (unsigned long long)key_hash(opened));
    size_t length = strlen(line);
    if ((size_t)(r->end - r->at) < length || memcmp(r->at, line, length) != 0) return false;
    r->at += length;
    return true;
}

bool level_draft_read(const char *folder, const char *key, const char *opened, level_edit *edit,
                      time_t *when)
{
    if (strcmp(key, LEVEL_DRAFT_STDIN) == 0) return false;
    size_t length = 0;
    char *text = read_whole(folder, key, &length, when);
    if (!text) return false;
    reader r = {text, text + length};
    bool ok = length > strlen(MAGIC) && memcmp(text, MAGIC, strlen(MAGIC)) == 0;
    r.at += strlen(MAGIC);
    char *stored_key = ok ? read_field(&r, "key") : NULL;
    ok = stored_key && strcmp(stored_key, key) == 0 && read_opened(&r, opened) &&
         level_edit_init(edit);
    free(stored_key);
    if (!ok) {
        free(text);
        return false;
    }
    char **fields[] = {&edit->title, &edit->author, &edit->comment};
    const char *names[] = {"title", "author", "comment"};
    for (int i = 0; ok && i < 3; i++) {
        char *value = read_field(&r, names[i]);
        if (value) {
            free(*fields[i]);
            *fields[i] = value;
        }
        ok = value != NULL;
    }
    ok = ok && read_map(&r, edit);
    free(text);
    if (!ok) level_edit_free(edit);
    return ok;
}

void level_draft_remove(const char *folder, const char *key)
{
    char name[SAFE_FILE_NAME_MAX + 1], *path = NULL;
    level_draft_file_name(key, name, sizeof name);
    if (asprintf(&path, "%s/%s", folder, name) < 0) return;
    unlink(path);
    free(path);
}
