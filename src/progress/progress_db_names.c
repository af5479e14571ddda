/* progress_db_names.c - the progress database's folder and the names it is set aside under:
 * a part of the progress_db module (progress_db_names.h). */
#define _GNU_SOURCE /* renameat2() */
#include "progress_db_names.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "progress_db.h"

/* Creates the directory and its parents (mode 0700, as XDG asks) when missing. */
bool progress_db_make_directories(const char *directory)
{
    size_t length = strlen(directory);
    char *path = malloc(length + 1);
    if (!path) return false;
    memcpy(path, directory, length + 1);
    bool ok = true;
    for (char *slash = path + 1; ok; slash++) {
        if (*slash != '/' && *slash != '\0') continue;
        char saved = *slash;
        *slash = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST) ok = false;
        *slash = saved;
        if (!saved) break;
    }
    int saved_errno = errno;
    free(path);
    errno = saved_errno;
    return ok;
}

/* Renames `from` to `to` unless `to` exists (then fails with EEXIST), in one step:
 * renameat2(RENAME_NOREPLACE), or where the file system does not have it, link() (which
 * never replaces) and unlink(). */
int progress_db_rename_new(const char *from, const char *to)
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

/* Renames `from` to `stem`, or to stem-2, stem-3 ... when taken, never replacing a file.
 * The name taken (malloc'd), or NULL with errno. */
char *progress_db_rename_to_free_name(const char *from, const char *stem)
{
    size_t size = strlen(stem) + 16;
    char *name = malloc(size);
    if (!name) return NULL;
    for (int attempt = 1; attempt < 1000; attempt++) {
        if (attempt == 1)
            snprintf(name, size, "%s", stem);
        else
            snprintf(name, size, "%s-%d", stem, attempt);
        if (progress_db_rename_new(from, name) == 0) return name;
        if (errno != EEXIST) break;
    }
    int saved = errno;
    free(name);
    errno = saved;
    return NULL;
}

char *progress_db_set_aside(const char *file, const char *suffix)
{
    char stamp[32];
    time_t now = time(NULL);
    struct tm local;
    localtime_r(&now, &local);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
    size_t size = strlen(file) + strlen(suffix) + strlen(stamp) + 3;
    char *stem = malloc(size);
    if (!stem) return NULL;
    snprintf(stem, size, "%s.%s-%s", file, suffix, stamp);
    char *name = progress_db_rename_to_free_name(file, stem);
    int saved = errno;
    free(stem);
    errno = saved;
    return name;
}

/* The database's path with its folders resolved: the real path of `directory` (which
 * exists) and the last component of `file`. Links on the way to the folder (a home folder or
 * XDG_DATA_HOME that is a link) are the user's own and are followed; the file's own name is
 * kept, for refuse() to look at. NULL with errno. */
char *progress_db_real_file(const char *directory, const char *file)
{
    char *folder = realpath(directory, NULL);
    if (!folder) return NULL;
    const char *slash = strrchr(file, '/');
    const char *name = slash ? slash + 1 : file;
    size_t size = strlen(folder) + strlen(name) + 2;
    char *path = malloc(size);
    if (path) snprintf(path, size, "%s%s%s", folder, strcmp(folder, "/") ? "/" : "", name);
    int saved = errno;
    free(folder);
    errno = saved;
    return path;
}
