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
#include "safe_file.h"
#include "textfile.h"

char *level_save_folder(void)
{
    const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    char *folder = NULL;
    if (data && data[0] == '/') {
        if (asprintf(&folder, "%s/sokoban/levels", data) < 0) folder = NULL;
    } else if (home && home[0]) {
        if (asprintf(&folder, "%s/.local/share/sokoban/levels", home) < 0) folder = NULL;
    }
    return folder;
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

/* Makes `folder` and its parents (mode 0700 for those made). */
static bool make_folder(const char *folder, char *why, size_t size)
{
    char *path = strdup(folder);
    if (!path) {
        snprintf(why, size, "out of memory");
        return false;
    }
    for (char *slash = strchr(path + 1, '/');; slash = strchr(slash + 1, '/')) {
        if (slash) *slash = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST) {
            snprintf(why, size, "cannot make %s: %s", path, strerror(errno));
            free(path);
            return false;
        }
        if (!slash) break;
        *slash = '/';
    }
    free(path);
    return true;
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
    if (!make_folder(folder, why, size)) return false;
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
