/* textfile.c - reading whole text files: regular files only, with a size cap. */
#include "textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Opens `path` for reading without blocking (a FIFO with no writer would otherwise wait
 * for ever) and checks that it is a regular file. Returns the descriptor, or -1. */
static int open_regular(const char *path, char *reason, size_t reason_size)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(reason, reason_size, "cannot open: %s", strerror(errno));
        return -1;
    }
    struct stat info;
    if (fstat(fd, &info) != 0) {
        snprintf(reason, reason_size, "cannot read: %s", strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(info.st_mode)) {
        snprintf(reason, reason_size, "%s",
                 S_ISDIR(info.st_mode) ? "is a directory, not a file" : "not a regular file");
        close(fd);
        return -1;
    }
    /* back to blocking reads: a regular file never blocks anyway */
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

int textfile_open(const char *path, char *reason, size_t reason_size)
{
    return open_regular(path, reason, reason_size);
}

bool textfile_check(const char *path, char *reason, size_t reason_size)
{
    int fd = open_regular(path, reason, reason_size);
    if (fd < 0) return false;
    close(fd);
    return true;
}

bool textfile_read(const char *path, size_t max_bytes, char **text, size_t *length, char *reason,
                   size_t reason_size)
{
    *text = NULL;
    *length = 0;
    int fd = open_regular(path, reason, reason_size);
    if (fd < 0) return false;
    size_t capacity = 4096, used = 0;
    char *buffer = malloc(capacity);
    bool ok = buffer != NULL;
    if (!ok) snprintf(reason, reason_size, "out of memory");
    while (ok) {
        if (capacity - used < 2) {
            if (capacity > max_bytes) {
                snprintf(reason, reason_size, "too large a file (more than %zu MiB)",
                         max_bytes >> 20);
                ok = false;
                break;
            }
            char *grown = realloc(buffer, capacity * 2);
            if (!grown) {
                snprintf(reason, reason_size, "out of memory");
                ok = false;
                break;
            }
            buffer = grown;
            capacity *= 2;
        }
        ssize_t n = read(fd, buffer + used, capacity - used - 1);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            snprintf(reason, reason_size, "cannot read: %s", strerror(errno));
            ok = false;
        } else if (n == 0) {
            break;
        } else {
            used += (size_t)n;
            if (used > max_bytes) {
                snprintf(reason, reason_size, "too large a file (more than %zu MiB)",
                         max_bytes >> 20);
                ok = false;
            }
        }
    }
    close(fd);
    if (!ok) {
        free(buffer);
        return false;
    }
    buffer[used] = '\0';
    *text = buffer;
    *length = used;
    return true;
}
