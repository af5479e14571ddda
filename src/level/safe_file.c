/* safe_file.c - a file written inside a given directory under a name taken from data. */
#define _GNU_SOURCE
#include "safe_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *safe_file_data_folder(const char *sub)
{
    const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    char *folder = NULL;
    if (data && data[0] == '/') {
        if (asprintf(&folder, "%s/sokoban/%s", data, sub) < 0) folder = NULL;
    } else if (home && home[0]) {
        if (asprintf(&folder, "%s/.local/share/sokoban/%s", home, sub) < 0) folder = NULL;
    }
    return folder;
}

bool safe_file_make_folder(const char *folder, char *reason, size_t reason_size)
{
    char *path = strdup(folder);
    if (!path) {
        snprintf(reason, reason_size, "out of memory");
        return false;
    }
    bool ok = true;
    for (char *slash = strchr(path + 1, '/'); ok; slash = strchr(slash + 1, '/')) {
        if (slash) *slash = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST) {
            snprintf(reason, reason_size, "cannot make %s: %s", path, strerror(errno));
            ok = false;
        }
        if (!slash) break;
        *slash = '/';
    }
    free(path);
    return ok;
}

/* The bytes a name keeps; every other becomes '_'. */
static bool is_kept(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != 0 && strchr(" ._-+,()", c));
}

void safe_file_name(const char *name, const char *extension, char *out, size_t out_size)
{
    if (!out_size) return;
    if (!extension) extension = "";
    if (!name || !*name) name = "unnamed";
    size_t room = out_size - 1 < SAFE_FILE_NAME_MAX ? out_size - 1 : SAFE_FILE_NAME_MAX;
    size_t extension_length = strlen(extension) < room ? strlen(extension) : room;
    size_t length = 0, stem_room = room - extension_length;
    if ((name[0] == '.' || name[0] == '-') && length < stem_room) out[length++] = '_';
    for (const char *c = name; *c && length < stem_room; c++)
        out[length++] = is_kept((unsigned char)*c) ? *c : '_';
    memcpy(out + length, extension, extension_length);
    out[length + extension_length] = '\0';
}

bool safe_file_create(safe_file *f, const char *directory, const char *name, const char *extension,
                      int mode, char *reason, size_t reason_size)
{
    memset(f, 0, sizeof *f);
    f->directory = -1;
    safe_file_name(name, extension, f->name, sizeof f->name);
    snprintf(f->path, sizeof f->path, "%s/%s", directory, f->name);
    f->directory = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (f->directory < 0) {
        struct stat st;
        bool link = errno == ELOOP || errno == ENOTDIR
                        ? lstat(directory, &st) == 0 && S_ISLNK(st.st_mode)
                        : false;
        snprintf(reason, reason_size, "%s: %s", directory,
                 link ? "is a symbolic link, not a folder of ours" : strerror(errno));
        return false;
    }
    /* a fresh temporary name: O_EXCL never opens what is there, O_NOFOLLOW never a link */
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        snprintf(f->temporary, sizeof f->temporary, ".%s.%06x", f->name,
                 (unsigned)(rand() ^ getpid() ^ attempt * 7919) & 0xffffff);
        fd = openat(f->directory, f->temporary,
                    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd >= 0) fchmod(fd, (mode_t)mode); /* as asked, whatever the umask */
    f->out = fd < 0 ? NULL : fdopen(fd, "w");
    if (!f->out) {
        snprintf(reason, reason_size, "%s: %s", f->path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlinkat(f->directory, f->temporary, 0);
        }
        close(f->directory);
        f->directory = -1;
        return false;
    }
    return true;
}

bool safe_file_commit(safe_file *f, char *reason, size_t reason_size)
{
    bool written = fflush(f->out) == 0 && !ferror(f->out);
    int saved_errno = errno;
    if (written && fsync(fileno(f->out)) != 0) written = false, saved_errno = errno;
    if (fclose(f->out) != 0 && written) written = false, saved_errno = errno;
    f->out = NULL;
    if (written && renameat(f->directory, f->temporary, f->directory, f->name) != 0)
        written = false, saved_errno = errno;
    if (!written) {
        unlinkat(f->directory, f->temporary, 0);
        snprintf(reason, reason_size, "%s: %s", f->path, strerror(saved_errno ? saved_errno : EIO));
    }
    close(f->directory);
    f->directory = -1;
    return written;
}

void safe_file_abort(safe_file *f)
{
    if (f->out) fclose(f->out);
    f->out = NULL;
    if (f->directory >= 0) {
        unlinkat(f->directory, f->temporary, 0);
        close(f->directory);
    }
    f->directory = -1;
}
