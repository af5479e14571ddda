/* progress_db_examine.c - what lies at the progress database's path and beside it, looked
 * at without trusting it. */
#include "progress_db_examine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "progress_db_read.h"

const char *const progress_db_with_scratch[PROGRESS_DB_SCRATCH_NAMES] = {"", "-wal", "-shm",
                                                                         "-journal"};

/* What lies at a path. */
typedef enum file_kind {
    FILE_MISSING,
    FILE_DATABASE, /* a regular file with SQLite's header, or empty */
    FILE_LINK,
    FILE_HARD_LINKED, /* a scratch file, or an empty database, with another name */
    FILE_NOT_REGULAR,
    FILE_NOT_DATABASE,
    FILE_UNREADABLE, /* errno says why */
} file_kind;

/* Looks at `file` without following a link and without blocking on a FIFO; the header is read
 * from the file opened, checked to be regular after opening. A file with another name (a hard
 * link) is FILE_HARD_LINKED unless it is a database that holds something: SQLite writes a
 * `scratch` file (-wal, -shm, -journal) from its start whatever it holds, and makes a database
 * of an empty file, so through the link into a file elsewhere; a database with pages is read
 * for what it holds under either name: ours stays ours (a `cp -al` backup of the folder, a
 * rename by link() and unlink() cut short), another program's is refused by what it holds
 * before a byte is written. */
static file_kind examine(const char *file, bool scratch)
{
    struct stat status;
    if (lstat(file, &status) != 0) return errno == ENOENT ? FILE_MISSING : FILE_UNREADABLE;
    if (S_ISLNK(status.st_mode)) return FILE_LINK;
    if (!S_ISREG(status.st_mode)) return FILE_NOT_REGULAR;
    bool other_name = status.st_nlink > 1;
    if (other_name && (scratch || status.st_size == 0)) return FILE_HARD_LINKED;
    int fd = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return errno == ELOOP ? FILE_LINK : FILE_UNREADABLE;
    static const char header[16] = "SQLite format 3";
    char start[16];
    file_kind kind = FILE_DATABASE;
    ssize_t got;
    if (fstat(fd, &status) != 0)
        kind = FILE_UNREADABLE;
    else if (!S_ISREG(status.st_mode))
        kind = FILE_NOT_REGULAR;
    else if (status.st_size == 0)
        kind = FILE_DATABASE;
    else if ((got = pread(fd, start, sizeof start, 0)) < 0)
        kind = FILE_UNREADABLE;
    else if (got != (ssize_t)sizeof start || memcmp(start, header, sizeof header) != 0)
        kind = FILE_NOT_DATABASE;
    int saved = errno;
    close(fd);
    errno = saved;
    if (other_name && kind != FILE_DATABASE && kind != FILE_UNREADABLE) return FILE_HARD_LINKED;
    return kind;
}

bool progress_db_refuse(const char *file, bool must_be_database, const char *so, char *message,
                        size_t message_size)
{
    for (size_t i = 0; i < sizeof progress_db_with_scratch / sizeof *progress_db_with_scratch;
         i++) {
        char *name = progress_db_with_suffix(file, progress_db_with_scratch[i]);
        if (!name) {
            snprintf(message, message_size, "progress: out of memory; progress is not saved");
            return true;
        }
        file_kind kind = examine(name, i > 0);
        const char *problem = NULL;
        if (kind == FILE_LINK)
            problem = "is a symbolic link";
        else if (kind == FILE_HARD_LINKED)
            problem = "has another name (a hard link)";
        else if (kind == FILE_NOT_REGULAR)
            problem = "is not a regular file";
        else if (kind == FILE_NOT_DATABASE && i == 0 && must_be_database)
            problem = "is not a progress database";
        else if (kind == FILE_UNREADABLE)
            problem = strerror(errno);
        if (problem)
            snprintf(message, message_size, "progress: %s %s%s, so it is left alone and %s", name,
                     kind == FILE_UNREADABLE ? "cannot be read: " : "", problem, so);
        free(name);
        if (problem) return true;
    }
    return false;
}
