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

/* Reads everything from `fd` into a buffer that starts at `expected` + 1 bytes (the size
 * fstat gave, so a regular file is read into a block of its own size) and doubles only if
 * more comes, never past `max_bytes` + 1. */
static bool read_all(int fd, size_t expected, size_t max_bytes, char **text, size_t *length,
                     char *reason, size_t reason_size)
{
    size_t capacity = (expected < 4096 ? 4096 : expected) + 1, used = 0;
    if (capacity > max_bytes + 2) capacity = max_bytes + 2;
    char *buffer = malloc(capacity);
    if (!buffer) {
        snprintf(reason, reason_size, "out of memory");
        return false;
    }
    bool ok = true;
    while (ok) {
        if (capacity - used < 2) {
            if (used > max_bytes) break; /* refused below */
            size_t grown_capacity = capacity * 2 > max_bytes + 2 ? max_bytes + 2 : capacity * 2;
            char *grown = realloc(buffer, grown_capacity);
            if (!grown) {
                snprintf(reason, reason_size, "out of memory");
                ok = false;
                break;
            }
            buffer = grown;
            capacity = grown_capacity;
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
        }
    }
    if (ok && used > max_bytes) {
        snprintf(reason, reason_size, "too large a file (more than %zu MiB)", max_bytes >> 20);
        ok = false;
    }
    if (!ok) {
        free(buffer);
        return false;
    }
    buffer[used] = '\0';
    *text = buffer;
    *length = used;
    return true;
}

bool textfile_read(const char *path, size_t max_bytes, char **text, size_t *length, char *reason,
                   size_t reason_size)
{
    *text = NULL;
    *length = 0;
    int fd = open_regular(path, reason, reason_size);
    if (fd < 0) return false;
    struct stat info;
    size_t expected = fstat(fd, &info) == 0 && info.st_size > 0 ? (size_t)info.st_size : 0;
    bool ok;
    if (expected > max_bytes) {
        snprintf(reason, reason_size, "too large a file (more than %zu MiB)", max_bytes >> 20);
        ok = false;
    } else {
        ok = read_all(fd, expected, max_bytes, text, length, reason, reason_size);
    }
    close(fd);
    return ok;
}

bool textfile_read_stream(int fd, size_t max_bytes, char **text, size_t *length, char *reason,
                          size_t reason_size)
{
    *text = NULL;
    *length = 0;
    return read_all(fd, 0, max_bytes, text, length, reason, reason_size);
}
