/* collection.c - collections from files, folders, standard input and groups of one-level
 * files (see collection.h). */
#define _GNU_SOURCE
#include "collection.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "textfile.h"
#include "utf8.h"

int collection_natural_compare(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            while (*a == '0') a++;
            while (*b == '0') b++;
            size_t la = 0, lb = 0;
            while (isdigit((unsigned char)a[la])) la++;
            while (isdigit((unsigned char)b[lb])) lb++;
            if (la != lb) return la < lb ? -1 : 1;
            int order = strncmp(a, b, la);
            if (order) return order;
            a += la;
            b += lb;
            continue;
        }
        if (*a != *b) return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}

int collection_split_level(const char *argument, char **file)
{
    *file = NULL;
    const char *colon = strrchr(argument, ':');
    if (!colon || colon == argument || !colon[1]) return 0;
    struct stat info;
    if (stat(argument, &info) == 0) return 0; /* a file really named so */
    long number = 0;
    bool too_large = false;
    for (const char *c = colon + 1; *c; c++) {
        if (!isdigit((unsigned char)*c)) return 0;
        if (!too_large) number = number * 10 + (*c - '0');
        too_large = too_large || number > COLLECTION_MAX_LEVEL_NUMBER;
    }
    if (too_large) return COLLECTION_LEVEL_TOO_LARGE;
    if (number < 1) return COLLECTION_LEVEL_ZERO;
    *file = strndup(argument, (size_t)(colon - argument));
    return *file ? (int)number : -1;
}

void collection_split_level_error(const char *argument, int number, level_error *error)
{
    const char *digits = strrchr(argument, ':');
    if (number == COLLECTION_LEVEL_ZERO)
        snprintf(error->message, sizeof error->message,
                 "%s: no level 0 (levels are numbered from 1)", argument);
    else
        snprintf(error->message, sizeof error->message,
                 "%s: no level %s (levels are numbered from 1 to %d)", argument,
                 digits ? digits + 1 : "", COLLECTION_MAX_LEVEL_NUMBER);
}

static void set_error(level_error *error, const char *format, const char *a, const char *b)
{
    if (error) snprintf(error->message, sizeof error->message, format, a, b);
}

/* Reads standard input as one collection named "-". */
static bool open_stdin(collection *out, level_error *error)
{
    char *text, reason[200];
    size_t length;
    if (!textfile_read_stream(STDIN_FILENO, LEVEL_MAX_FILE_BYTES, &text, &length, reason,
                              sizeof reason)) {
        set_error(error, "%s: %s", "-", reason);
        return false;
    }
    bool ok = collection_parse(text, length, "-", out, error);
    free(text);
    if (ok) {
        char *name = strdup("standard input");
        if (name) {
            free(out->name);
            out->name = name;
        }
    }
    return ok;
}

/* True for a level file's name in a folder: .sok, .xsb or .txt, not hidden. */
static bool is_level_file_name(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (name[0] == '.' || !dot) return false;
    return strcasecmp(dot, ".sok") == 0 || strcasecmp(dot, ".xsb") == 0 ||
           strcasecmp(dot, ".txt") == 0;
}

static int compare_names(const void *a, const void *b)
{
    return collection_natural_compare(*(char *const *)a, *(char *const *)b);
}

/* The level files of a folder, in natural order: an array of names (each to free()) and
 * its length, or -1 with errno set. */
static int list_folder(const char *path, char ***names)
{
    DIR *folder = opendir(path);
    if (!folder) return -1;
    int count = 0, capacity = 0;
    char **list = NULL;
    struct dirent *entry;
    while ((entry = readdir(folder))) {
        if (!is_level_file_name(entry->d_name)) continue;
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 64;
            char **grown = realloc(list, (size_t)capacity * sizeof *grown);
            if (!grown) break;
            list = grown;
        }
        if (!(list[count] = strdup(entry->d_name))) break;
        count++;
    }
    closedir(folder);
    if (count > 0) qsort(list, (size_t)count, sizeof *list, compare_names);
    *names = list;
    return count;
}

/* Names the file of every level of `c` that has none yet: `path`. False when out of memory. */
static bool mark_files(collection *c, const char *path)
{
    for (int i = 0; i < c->count; i++)
        if (!c->levels[i].file && !(c->levels[i].file = strdup(path))) return false;
    return true;
}

bool collection_append(collection *into, collection *from)
{
    if (!mark_files(into, into->path) || !mark_files(from, from->path)) return false;
    level *grown = realloc(into->levels, (size_t)(into->count + from->count) * sizeof *grown);
    if (!grown && into->count + from->count > 0) return false;
    into->levels = grown;
    for (int i = 0; i < from->count; i++) {
        level *lv = &into->levels[into->count + i];
        *lv = from->levels[i];
        lv->number = into->count + i + 1;
    }
    into->count += from->count;
    into->bad_count += from->bad_count;
    free(from->levels);
    from->levels = NULL;
    from->count = from->bad_count = 0;
    collection_free(from);
    return true;
}

/* The last part of a folder's path, without trailing slashes and without control characters
 * (as name_from_path): a string to free(). */
static char *folder_name(const char *path)
{
    size_t end = strlen(path);
    while (end > 1 && path[end - 1] == '/') end--;
    size_t start = end;
    while (start > 0 && path[start - 1] != '/') start--;
    char *name = strndup(path + start, end - start);
    if (name) utf8_drop_controls(name);
    return name;
}

/* The size of the regular file at `path`, 0 for anything else. */
static size_t file_bytes(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && S_ISREG(info.st_mode) ? (size_t)info.st_size : 0;
}

/* True when the regular files among `names` in `folder` take at most LEVEL_MAX_FILE_BYTES
 * together (their sizes, before any is read). */
static bool folder_within_limit(const char *folder, char **names, int count)
{
    size_t total = 0;
    for (int i = 0; i < count; i++) {
        char *file;
        if (asprintf(&file, "%s/%s", folder, names[i]) < 0) continue; /* told when read */
        total += file_bytes(file);
        free(file);
        if (total > LEVEL_MAX_FILE_BYTES) return false;
    }
    return true;
}

/* A folder as one collection: its level files in natural order; a file that cannot be read
 * at all is passed over, as long as one can. The files are read up to LEVEL_MAX_FILE_BYTES
 * together, as one file is: a folder of more is refused before any is read. */
static bool open_folder(const char *path, collection *out, level_error *error)
{
    *out = (collection){0};
    char **names;
    int count = list_folder(path, &names);
    if (count < 0) {
        set_error(error, "%s: cannot open: %s", path, strerror(errno));
        return false;
    }
    if (!folder_within_limit(path, names, count)) {
        for (int i = 0; i < count; i++) free(names[i]);
        free(names);
        char limit[32];
        snprintf(limit, sizeof limit, "%zu", LEVEL_MAX_FILE_BYTES >> 20);
        set_error(error, "%s: too large a folder (more than %s MiB of level files)", path, limit);
        return false;
    }
    bool ok = true;
    level_error first_error = {""};
    for (int i = 0; ok && i < count; i++) {
        char *file;
        if (asprintf(&file, "%s/%s", path, names[i]) < 0) {
            ok = false;
            break;
        }
        collection one;
        level_error one_error;
        if (collection_load(file, &one, &one_error)) {
            if (!mark_files(&one, file)) {
                collection_free(&one);
                ok = false;
            } else if (!out->path) {
                *out = one;
                free(out->path);
                free(out->name);
                out->path = strdup(path);
                out->name = folder_name(path);
                ok = out->path && out->name;
            } else {
                ok = collection_append(out, &one);
                if (!ok) collection_free(&one);
            }
        } else if (!first_error.message[0]) {
            first_error = one_error;
        }
        free(file);
    }
    for (int i = 0; i < count; i++) free(names[i]);
    free(names);
    if (!ok) {
        collection_free(out);
        set_error(error, "%s: %s", path, "out of memory");
        return false;
    }
    if (!out->path) {
        if (first_error.message[0] && error)
            *error = first_error;
        else
            set_error(error, "%s: %s", path, "no level files (.sok, .xsb, .txt) in this folder");
        return false;
    }
    return true;
}

bool collection_open(const char *argument, collection *out, level_error *error)
{
    *out = (collection){0};
    if (strcmp(argument, "-") == 0) return open_stdin(out, error);
    struct stat info;
    if (stat(argument, &info) == 0 && S_ISDIR(info.st_mode))
        return open_folder(argument, out, error);
    return collection_load(argument, out, error);
}

bool collection_group_key(const char *path, char *key, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t length = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    size_t digits = 0;
    while (digits < length && isdigit((unsigned char)base[length - 1 - digits])) digits++;
    if (digits == 0 || digits == length) return false;
    size_t stem = length - digits;
    if (base[stem - 1] == '_' || base[stem - 1] == '-') stem--;
    if (stem == 0) return false;
    /* the folder is part of the key: two folders' files never group */
    int written = snprintf(key, size, "%.*s%.*s", (int)(base - path), path, (int)stem, base);
    return written > 0 && (size_t)written < size;
}

bool collection_open_all(const char *const *arguments, int count, collection **out, int **levels,
                         int *out_count, level_error *error)
{
    collection *list = calloc((size_t)(count ? count : 1), sizeof *list);
    int *numbers = calloc((size_t)(count ? count : 1), sizeof *numbers);
    char previous_key[4096] = "";
    size_t group_bytes = 0; /* of the files of the group being read, as a folder's are */
    int n = 0;
    bool ok = list && numbers;
    if (!ok) set_error(error, "%s%s", "out of memory", "");
    for (int i = 0; ok && i < count; i++) {
        char *file = NULL;
        int number = collection_split_level(arguments[i], &file);
        if (number == COLLECTION_LEVEL_ZERO || number == COLLECTION_LEVEL_TOO_LARGE) {
            collection_split_level_error(arguments[i], number, error);
            ok = false;
            break;
        }
        if (number < 0) {
            set_error(error, "%s%s", "out of memory", "");
            ok = false;
            break;
        }
        const char *path = file ? file : arguments[i];
        char key[4096];
        if (!file && previous_key[0] && collection_group_key(path, key, sizeof key) &&
            strcmp(key, previous_key) == 0) {
            group_bytes += file_bytes(path);
            if (group_bytes > LEVEL_MAX_FILE_BYTES) {
                free(file);
                char limit[32];
                snprintf(limit, sizeof limit, "%zu", LEVEL_MAX_FILE_BYTES >> 20);
                set_error(error, "%s: too large a group of level files (more than %s MiB together)",
                          path, limit);
                ok = false;
                break;
            }
        }
        collection one;
        ok = collection_open(path, &one, error);
        bool grouped = ok && !file && one.count == 1 && collection_group_key(path, key, sizeof key);
        free(file);
        if (!ok) break;
        if (grouped && n > 0 && strcmp(key, previous_key) == 0) {
            ok = collection_append(&list[n - 1], &one);
            if (!ok) {
                collection_free(&one);
                set_error(error, "%s%s", "out of memory", "");
            }
            continue;
        }
        if (grouped) {
            /* the group is named by its key's file part: "microban01" */
            const char *name = strrchr(key, '/');
            char *copy = strdup(name ? name + 1 : key);
            if (copy) utf8_drop_controls(copy); /* as name_from_path */
            if (copy) {
                free(one.name);
                one.name = copy;
            }
            snprintf(previous_key, sizeof previous_key, "%s", key);
            group_bytes = file_bytes(path);
        } else {
            previous_key[0] = '\0';
        }
        numbers[n] = number;
        list[n++] = one;
    }
    if (!ok) {
        for (int i = 0; i < n; i++) collection_free(&list[i]);
        free(list);
        free(numbers);
        return false;
    }
    *out = list;
    *levels = numbers;
    *out_count = n;
    return true;
}

int collection_group_files(const char *path, char ***files)
{
    *files = NULL;
    char key[4096];
    if (!collection_group_key(path, key, sizeof key)) return 0;
    const char *slash = strrchr(path, '/');
    char *folder = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
    if (!folder) return -1;
    char **names;
    int count = list_folder(slash == path ? "/" : folder, &names);
    int kept = 0;
    for (int i = 0; i < count; i++) {
        char *file, other[4096];
        if (slash ? asprintf(&file, "%s/%s", folder, names[i]) < 0 : !(file = strdup(names[i])))
            file = NULL;
        free(names[i]);
        if (file && collection_group_key(file, other, sizeof other) && strcmp(other, key) == 0)
            names[kept++] = file;
        else
            free(file);
    }
    free(folder);
    if (count < 0) return -1;
    if (kept == 0) {
        free(names);
        return 0;
    }
    *files = names;
    return kept;
}
