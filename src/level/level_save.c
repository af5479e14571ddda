/* level_save.c - saving a level into a collection file of the player's own (level_save.h). */
#define _GNU_SOURCE
#include "level_save.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "level.h"
#include "level_lines.h"
#include "safe_file.h"
#include "textfile.h"

char *level_save_folder(void)
{
    return safe_file_data_folder("levels");
}

static bool ends_with(const char *text, const char *end)
{
    size_t length = strlen(text), end_length = strlen(end);
    return length >= end_length && strcasecmp(text + length - end_length, end) == 0;
}

void level_save_file_name(const char *wanted, char *out, size_t size)
{
    bool level_file =
        ends_with(wanted, ".sok") || ends_with(wanted, ".xsb") || ends_with(wanted, ".txt");
    safe_file_name(wanted, level_file ? NULL : ".sok", out, size);
}

/* Reads the file `name` of the folder when there is one (*text NULL when there is none): a
 * regular file of the player's own, never through a link. */
static bool read_old(int folder, const char *name, char **text, size_t *length, char *why,
                     size_t size)
{
    *text = NULL;
    *length = 0;
    int fd = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return true;
        snprintf(why, size, "%s: %s", name,
                 errno == ELOOP ? "is a link; levels are saved into plain files only"
                                : strerror(errno));
        return false;
    }
    struct stat info;
    bool ok = fstat(fd, &info) == 0;
    if (ok && (!S_ISREG(info.st_mode) || info.st_uid != geteuid())) {
        snprintf(why, size, "%s: %s", name,
                 S_ISREG(info.st_mode) ? "is not yours; choose another name"
                                       : "is not a plain file");
        ok = false;
    }
    char reason[256];
    if (ok &&
        !textfile_read_stream(fd, LEVEL_MAX_FILE_BYTES, text, length, reason, sizeof reason)) {
        snprintf(why, size, "%s: %s", name, reason);
        ok = false;
    }
    close(fd);
    return ok;
}

/* The old text, a blank line between, and the level: a string to free(), or NULL. */
static char *joined(const char *old, size_t old_length, const char *text, size_t *length)
{
    size_t text_length = strlen(text);
    char *all = malloc(old_length + 2 + text_length + 1);
    if (!all) return NULL;
    size_t at = 0;
    if (old_length) {
        memcpy(all, old, old_length);
        at = old_length;
        if (all[at - 1] != '\n') all[at++] = '\n';
        if (at < 2 || all[at - 2] != '\n') all[at++] = '\n';
    }
    memcpy(all + at, text, text_length + 1);
    *length = at + text_length;
    return all;
}

bool level_save_append(const char *folder, const char *name, const char *text,
                       level_save_result *result, char *why, size_t size)
{
    char wanted[SAFE_FILE_NAME_MAX + 1];
    level_save_file_name(name, wanted, sizeof wanted);
    if (!safe_file_make_folder(folder, why, size)) return false;
    safe_file file;
    if (!safe_file_create(&file, folder, wanted, NULL, 0644, why, size)) return false;
    const char *safe = file.name;
    char *old = NULL, *all = NULL;
    size_t old_length = 0, length = 0;
    bool ok = read_old(file.directory, safe, &old, &old_length, why, size);
    /* a file there must be a level file already: a save never turns notes into levels */
    collection check = {0};
    level_error error;
    if (ok && old && strspn(old, " \t\r\n") < old_length) {
        if (!collection_parse(old, old_length, safe, &check, &error)) {
            snprintf(why, size, "%s holds no levels; choose another name", safe);
            ok = false;
        }
        collection_free(&check);
    }
    if (ok && !(all = joined(old, old_length, text, &length))) {
        snprintf(why, size, "out of memory");
        ok = false;
    }
    /* the file must read back with the new level as its last, playable */
    if (ok && !collection_parse(all, length, safe, &check, &error)) {
        snprintf(why, size, "%s", error.message);
        ok = false;
    } else if (ok) {
        const level *last = check.count ? &check.levels[check.count - 1] : NULL;
        if (!last || last->error) {
            snprintf(why, size, "%s: the level would not read back%s%s", safe,
                     last && last->error ? ": " : "", last && last->error ? last->error : "");
            ok = false;
        }
        result->number = check.count;
        collection_free(&check);
    }
    if (ok) snprintf(result->path, sizeof result->path, "%s", file.path);
    if (ok && fwrite(all, 1, length, file.out) != length) {
        snprintf(why, size, "cannot write %s", file.path);
        ok = false;
    }
    if (ok)
        ok = safe_file_commit(&file, why, size);
    else
        safe_file_abort(&file);
    free(old);
    free(all);
    return ok;
}

/* ---- Replacing a level in place ------------------------------------------------------ */

/* The entry of `list` that holds file line `number`, or -1. */
static int entry_of_line(const line_list *list, int number)
{
    for (int i = 0; i < list->count; i++)
        if ((int)list->lines[i].number == number) return i;
    return -1;
}

/* The end of a level's block from its map's first entry: the map rows, then the fields
 * right under them (a Comment: block up to its Comment-End:). */
static int block_end(const line_list *list, int map)
{
    int i = map;
    while (i < list->count && list->lines[i].kind == LINE_MAP) i++;
    size_t length;
    while (i < list->count && list->lines[i].kind == LINE_TEXT && line_is_field(&list->lines[i])) {
        const char *value = line_field(&list->lines[i], "Comment", &length);
        if (value && length == 0) { /* a block: on to its end */
            int end = i + 1;
            while (end < list->count && !line_is_comment_end(&list->lines[end])) end++;
            if (end == list->count) break;
            i = end;
        }
        i++;
    }
    return i;
}

/* The entries [*from, *to) of level `index` of `c` in `list`: its title and comment above
 * its map (after the level before it, its solutions, and for the first level the file's
 * header), its map and the fields under it. False when its map is not found. */
static bool level_entries(const line_list *list, const collection *c, int index, int *from, int *to)
{
    int map = entry_of_line(list, c->levels[index].first_line);
    if (map < 0) return false;
    *to = block_end(list, map);
    /* its solution sections go with it: they solve the level replaced, not the new one */
    for (;;) {
        int i = *to;
        while (i < list->count && list->lines[i].kind == LINE_BLANK) i++;
        if (i == list->count || !line_opens_solution(&list->lines[i])) break;
        for (i++; i < list->count && line_is_moves(&list->lines[i]); i++) continue;
        *to = i;
    }
    int start = 0;
    if (index > 0) {
        int previous = entry_of_line(list, c->levels[index - 1].first_line);
        if (previous < 0) return false;
        start = block_end(list, previous);
        /* the level above's solution sections are the level above's */
        while (start < map &&
               (list->lines[start].kind == LINE_BLANK || line_opens_solution(&list->lines[start]) ||
                line_is_moves(&list->lines[start])))
            start++;
    } else {
        /* the last paragraph above the first map, unless it names the collection */
        start = map;
        while (start > 0 && list->lines[start - 1].kind == LINE_BLANK) start--;
        while (start > 0 && list->lines[start - 1].kind == LINE_TEXT) start--;
        for (int i = start; i < map; i++)
            if (list->lines[i].kind == LINE_BANNER ||
                (list->lines[i].kind == LINE_TEXT &&
                 line_field(&list->lines[i], "Collection", &(size_t){0})))
                start = map;
    }
    *from = start;
    return true;
}

/* The byte offset where entry `i` begins (`length` when past the last). */
static size_t offset_of(const char *text, size_t length, const line_list *list, int i)
{
    return i < list->count ? (size_t)(list->lines[i].text - text) : length;
}

static bool same_text(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

static bool same_level(const level *a, const level *b, bool metadata)
{
    if (a->width != b->width || a->height != b->height || !a->squares != !b->squares) return false;
    if (a->squares && memcmp(a->squares, b->squares, (size_t)a->width * (size_t)a->height) != 0)
        return false;
    return !metadata || (same_text(a->title, b->title) && same_text(a->author, b->author) &&
                         same_text(a->comment, b->comment));
}

/* `old` with level `index`'s entries replaced by `text`: a string to free() and its
 * length, or NULL (out of memory, or the level not found). */
static char *spliced(const char *old, size_t old_length, const collection *c, int index,
                     const char *text, size_t *length)
{
    line_list list;
    if (!lines_split(old, old_length, &list)) return NULL;
    int from, to;
    char *all = NULL;
    if (level_entries(&list, c, index, &from, &to)) {
        size_t start = offset_of(old, old_length, &list, from);
        size_t end = offset_of(old, old_length, &list, to);
        size_t text_length = strlen(text);
        /* the blank line that ends `text` is the file's own when something follows */
        if (end < old_length && old[end] == '\n' && text_length >= 2 &&
            text[text_length - 2] == '\n')
            text_length--;
        all = malloc(start + text_length + (old_length - end) + 1);
        if (all) {
            memcpy(all, old, start);
            memcpy(all + start, text, text_length);
            memcpy(all + start + text_length, old + end, old_length - end);
            *length = start + text_length + (old_length - end);
            all[*length] = '\0';
        }
    }
    lines_free(&list);
    return all;
}

/* True when `after` is `before` with level `index` made the one `text` holds. */
static bool only_that_level_changed(const collection *before, const collection *after, int index,
                                    const char *text)
{
    collection mine;
    level_error error;
    if (!collection_parse(text, strlen(text), "level", &mine, &error)) return false;
    bool same = mine.count == 1 && before->count == after->count &&
                same_level(&after->levels[index], &mine.levels[0], true);
    for (int i = 0; same && i < before->count; i++)
        if (i != index) same = same_level(&before->levels[i], &after->levels[i], true);
    collection_free(&mine);
    return same;
}

bool level_save_replace(const char *folder, const char *name, int number, const char *text,
                        level_save_result *result, char *why, size_t size)
{
    safe_file file;
    if (!safe_file_create(&file, folder, name, NULL, 0644, why, size)) return false;
    char *old = NULL, *all = NULL;
    size_t old_length = 0, length = 0;
    collection before = {0}, after = {0};
    level_error error;
    bool ok = read_old(file.directory, file.name, &old, &old_length, why, size);
    if (ok && (!old || !collection_parse(old, old_length, file.name, &before, &error) ||
               number < 1 || number > before.count)) {
        snprintf(why, size, "%s has no level %d", file.name, number);
        ok = false;
    }
    if (ok && !(all = spliced(old, old_length, &before, number - 1, text, &length))) {
        snprintf(why, size, "level %d of %s not found", number, file.name);
        ok = false;
    }
    if (ok && !(collection_parse(all, length, file.name, &after, &error) &&
                only_that_level_changed(&before, &after, number - 1, text))) {
        snprintf(why, size, "level %d of %s cannot be replaced alone; another name adds it", number,
                 file.name);
        ok = false;
    }
    if (ok && fwrite(all, 1, length, file.out) != length) {
        snprintf(why, size, "cannot write %s", file.path);
        ok = false;
    }
    if (ok) {
        result->number = number;
        snprintf(result->path, sizeof result->path, "%s", file.path);
        ok = safe_file_commit(&file, why, size);
    } else {
        safe_file_abort(&file);
    }
    collection_free(&before);
    collection_free(&after);
    free(old);
    free(all);
    return ok;
}

bool level_save_is_own(const char *folder, const char *path, char *name, size_t size)
{
    char real_folder[4096], real_path[4096];
    if (!realpath(folder, real_folder) || !realpath(path, real_path)) return false;
    size_t length = strlen(real_folder);
    const char *rest = real_path + length;
    if (strncmp(real_path, real_folder, length) != 0 || rest[0] != '/' || strchr(rest + 1, '/'))
        return false;
    snprintf(name, size, "%s", rest + 1);
    return true;
}
