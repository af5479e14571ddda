/* textfile.h - reading a whole text file: regular files only, never a hang, with a size cap.
 *
 * Level collections, solution files and tile puzzle lists are all read through here, so
 * that a directory, a FIFO, a device or an unreadable file gets one clear reason instead
 * of a hang or an empty read. */
#ifndef SOKOBAN_TEXTFILE_H
#define SOKOBAN_TEXTFILE_H

#include <stdbool.h>
#include <stddef.h>

/* Checks that `path` names a regular file that can be opened for reading. On failure
 * writes the reason ("is a directory", "not a regular file", "No such file or
 * directory", ...) into `reason` and returns false. */
bool textfile_check(const char *path, char *reason, size_t reason_size);

/* Opens `path` for reading once and checks the open file (a regular file, never a wait
 * on a FIFO): the descriptor to read and close, or -1 with the reason. */
int textfile_open(const char *path, char *reason, size_t reason_size);

/* Reads the whole file into a NUL-terminated buffer (*text, to free()) of *length bytes
 * (the file may hold NUL bytes: *length counts them). Fails with a reason when the file is
 * not a regular file, cannot be read, or is larger than `max_bytes`. */
bool textfile_read(const char *path, size_t max_bytes, char **text, size_t *length, char *reason,
                   size_t reason_size);

/* The same from an open descriptor that may be a pipe or a terminal (standard input for
 * `sokoban -`): reads to the end, failing beyond `max_bytes`. */
bool textfile_read_stream(int fd, size_t max_bytes, char **text, size_t *length, char *reason,
                          size_t reason_size);

#endif
