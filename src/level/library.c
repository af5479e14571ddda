/* library.c - the collections installed on the system (see library.h). */
#define _GNU_SOURCE
#include "library.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "collection.h"
#include "safe_file.h"
#include "utf8_case.h"

static bool is_level_file(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (name[0] == '.' || !dot) return false;
    return strcasecmp(dot, ".sok") == 0 || strcasecmp(dot, ".xsb") == 0 ||
           strcasecmp(dot, ".txt") == 0;
}

static int compare_strings(const void *a, const void *b)
{
    return collection_natural_compare(*(char *const *)a, *(char *const *)b);
}

/* An entry with the keys it is ordered by: its name folded without its accents, then with
 * them (utf8_case_fold), each worked out once. */
typedef struct sort_item {
    library_entry entry;
    char *plain, *accented;
} sort_item;

static int compare_items(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    int order = collection_natural_compare(x->plain, y->plain);
    if (!order) order = collection_natural_compare(x->accented, y->accented);
    return order ? order : collection_natural_compare(x->entry.name, y->entry.name);
}

/* Orders the entries by name as a reader does (library.h). False when out of memory. */
static bool sort_entries(library *l)
{
    if (l->count == 0) return true;
    sort_item *items = calloc((size_t)l->count, sizeof *items);
    bool ok = items != NULL;
    for (int i = 0; ok && i < l->count; i++) {
        items[i].entry = l->entries[i];
        items[i].plain = utf8_case_fold(l->entries[i].name, false);
        items[i].accented = utf8_case_fold(l->entries[i].name, true);
        ok = items[i].plain && items[i].accented;
    }
    if (ok) {
        qsort(items, (size_t)l->count, sizeof *items, compare_items);
        for (int i = 0; i < l->count; i++) l->entries[i] = items[i].entry;
    }
    for (int i = 0; items && i < l->count; i++) {
        free(items[i].plain);
        free(items[i].accented);
    }
    free(items);
    return ok;
}

/* Adds an entry for `files[0..count)` of `folder` named `name`, taking the file strings. */
static bool add_entry(library *l, int *capacity, const char *folder, const char *name, char **files,
                      int count, int root)
{
    if (l->count == *capacity) {
        *capacity = *capacity ? *capacity * 2 : 32;
        library_entry *grown = realloc(l->entries, (size_t)*capacity * sizeof *grown);
        if (!grown) return false;
        l->entries = grown;
    }
    char **copy = malloc((size_t)count * sizeof *copy);
    library_entry e = {strdup(name), strdup(folder), copy, count, root};
    if (!e.name || !e.folder || !copy) {
        free(e.name);
        free(e.folder);
        free(copy);
        return false;
    }
    memcpy(copy, files, (size_t)count * sizeof *copy);
    l->entries[l->count++] = e;
    return true;
}

/* The name of a collection file: its name without the extension. */
static char *file_stem(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    return strndup(base, dot && dot != base ? (size_t)(dot - base) : strlen(base));
}

/* The name the game gives the collection of the one file `path` (collection_open_all():
 * its Collection: or Title: field, or the group's name of a one-level file), else its name
 * without the extension when it cannot be read: a string to free(). */
static char *file_collection_name(const char *path)
{
    collection *list;
    int *numbers, count;
    level_error error;
    if (!collection_open_all(&path, 1, &list, &numbers, &count, &error)) return file_stem(path);
    char *name =
        count == 1 && list[0].name && list[0].name[0] ? strdup(list[0].name) : file_stem(path);
    for (int i = 0; i < count; i++) collection_free(&list[i]);
    free(list);
    free(numbers);
    return name;
}

/* Scans one folder's level files into entries, and its subfolders `depth` levels down. */
static bool scan_folder(library *l, int *capacity, const char *folder, int depth, int root)
{
    DIR *dir = opendir(folder);
    if (!dir) return true;
    char **files = NULL, **subfolders = NULL;
    int file_count = 0, folder_count = 0, file_capacity = 0, folder_capacity = 0;
    bool ok = true;
    struct dirent *entry;
    while (ok && (entry = readdir(dir))) {
        if (entry->d_name[0] == '.') continue;
        char *path;
        if (asprintf(&path, "%s/%s", folder, entry->d_name) < 0) {
            ok = false;
            break;
        }
        struct stat info;
        bool is_dir = stat(path, &info) == 0 && S_ISDIR(info.st_mode);
        bool is_file = !is_dir && S_ISREG(info.st_mode) && is_level_file(entry->d_name);
        char ***list = is_dir ? &subfolders : &files;
        int *n = is_dir ? &folder_count : &file_count,
            *cap = is_dir ? &folder_capacity : &file_capacity;
        if ((is_dir && depth > 0) || is_file) {
            if (*n == *cap) {
                *cap = *cap ? *cap * 2 : 64;
                char **grown = realloc(*list, (size_t)*cap * sizeof *grown);
                if (!grown) {
                    free(path);
                    ok = false;
                    break;
                }
                *list = grown;
            }
            (*list)[(*n)++] = path;
        } else {
            free(path);
        }
    }
    closedir(dir);
    if (file_count) qsort(files, (size_t)file_count, sizeof *files, compare_strings);
    /* runs of one group's files make one entry; any other file is an entry of its own */
    for (int i = 0; ok && i < file_count;) {
        char key[4096], other[4096];
        int end = i + 1;
        if (collection_group_key(files[i], key, sizeof key))
            while (end < file_count && collection_group_key(files[end], other, sizeof other) &&
                   strcmp(key, other) == 0)
                end++;
        char *name = end - i > 1 ? strdup(strrchr(key, '/') ? strrchr(key, '/') + 1 : key)
                                 : file_collection_name(files[i]);
        ok = name && add_entry(l, capacity, folder, name, files + i, end - i, root);
        free(name);
        if (ok)
            i = end;
        else
            for (int k = i; k < file_count; k++) free(files[k]);
    }
    free(files);
    for (int i = 0; i < folder_count; i++) {
        if (ok) ok = scan_folder(l, capacity, subfolders[i], depth - 1, root);
        free(subfolders[i]);
    }
    free(subfolders);
    return ok;
}

/* The index of an entry before `before` (in the priority of their folders: the earlier
 * folder first, then the order found) whose name folded is `key`, or -1; `folded` holds each
 * entry's (utf8_case_fold, worked out once: a library may hold thousands). */
static int named_before(const library *l, char *const *folded, const char *key, int before)
{
    const library_entry *b = &l->entries[before];
    for (int i = 0; i < l->count; i++) {
        const library_entry *e = &l->entries[i];
        bool earlier = e->root < b->root || (e->root == b->root && i < before);
        if (earlier && strcmp(folded[i], key) == 0) return i;
    }
    return -1;
}

/* "PLAIN (WHERE)" into *name and its folded key into *key (new strings); false, both NULL,
 * when out of memory. */
static bool bracketed(const char *plain, const char *where, char **name, char **key)
{
    *key = NULL;
    if (asprintf(name, "%s (%s)", plain, where) < 0) {
        *name = NULL;
        return false;
    }
    *key = utf8_case_fold(*name, true);
    if (*key) return true;
    free(*name);
    *name = NULL;
    return false;
}

/* Makes the names unique: an entry named as an earlier one gets its folder (under the
 * folder scanned; that folder's own name when it lies there) in brackets, or its first
 * file's name when that is still taken. False when out of memory. */
static bool make_names_unique(library *l, const char *const *folders)
{
    char **folded = calloc((size_t)l->count + 1, sizeof *folded);
    bool ok = folded != NULL;
    for (int i = 0; ok && i < l->count; i++)
        ok = (folded[i] = utf8_case_fold(l->entries[i].name, true)) != NULL;
    for (int i = 0; ok && i < l->count; i++) {
        library_entry *e = &l->entries[i];
        if (named_before(l, folded, folded[i], i) < 0) continue;
        const char *root = folders[e->root];
        size_t length = strlen(root);
        const char *where = strncmp(e->folder, root, length) == 0 && e->folder[length] == '/'
                                ? e->folder + length + 1
                            : strrchr(root, '/') ? strrchr(root, '/') + 1
                                                 : root;
        char *name, *key;
        ok = bracketed(e->name, where, &name, &key);
        if (ok && named_before(l, folded, key, i) >= 0) { /* taken too: the file's name instead */
            free(name);
            free(key);
            where = strrchr(e->files[0], '/') ? strrchr(e->files[0], '/') + 1 : e->files[0];
            ok = bracketed(e->name, where, &name, &key);
        }
        if (!ok) break;
        free(e->name);
        e->name = name;
        free(folded[i]);
        folded[i] = key;
    }
    for (int i = 0; folded && i < l->count; i++) free(folded[i]);
    free(folded);
    return ok;
}

bool library_scan(const char *const *folders, int count, library *out)
{
    *out = (library){0};
    int capacity = 0;
    for (int i = 0; i < count; i++) {
        if (!scan_folder(out, &capacity, folders[i], 2, i)) {
            library_free(out);
            return false;
        }
    }
    if (!make_names_unique(out, folders) || !sort_entries(out)) {
        library_free(out);
        return false;
    }
    return true;
}

int library_match(const library *l, const char *name, int *matches, int max)
{
    int found = 0;
    for (int i = 0; i < l->count; i++)
        if (utf8_case_equal(l->entries[i].name, name)) {
            if (found < max) matches[found] = i;
            found++;
        }
    if (found > 0) return found;
    for (int i = 0; i < l->count; i++)
        if (utf8_case_starts(l->entries[i].name, name)) {
            if (found < max) matches[found] = i;
            found++;
        }
    return found;
}

int library_default_folders(const char *bundled, char **folders, int max)
{
    int n = 0;
    if (bundled && n < max) folders[n] = strdup(bundled), n += folders[n] != NULL;
    char *mine = safe_file_data_folder("levels");
    if (mine && n < max)
        folders[n++] = mine;
    else
        free(mine);
    if (n < max) folders[n] = strdup("/usr/share/games"), n += folders[n] != NULL;
    return n;
}

void library_free(library *l)
{
    for (int i = 0; i < l->count; i++) {
        for (int k = 0; k < l->entries[i].file_count; k++) free(l->entries[i].files[k]);
        free(l->entries[i].files);
        free(l->entries[i].name);
        free(l->entries[i].folder);
    }
    free(l->entries);
    *l = (library){0};
}
