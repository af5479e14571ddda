/* safe_file.h - a file written inside a given directory under a name taken from data (a
 * collection's name, a level's title), so that no name, however hostile, writes anywhere
 * else.
 *
 * The name is first made a plain file name (safe_file_name()): every byte outside letters,
 * digits, space and "._-+,()" becomes '_' ('/' among them), a name starting with '.' or
 * '-' is preceded by '_' (no hidden file, no "..", nothing read as an option), an empty one
 * is "unnamed", and it is cut to SAFE_FILE_NAME_MAX bytes. The directory is opened without
 * following a symbolic link in its last component (a `solutions` folder that is a link is
 * refused; the folders above it may be links). The file is written under a temporary name
 * made in that directory with O_CREAT | O_EXCL | O_NOFOLLOW (openat), synced, and renamed
 * over the name (renameat): a file or a link already there is replaced, never written
 * through, and a reader sees the old file or the new one whole. */
#ifndef SOKOBAN_LEVEL_SAFE_FILE_H
#define SOKOBAN_LEVEL_SAFE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The longest name made, extension included (NAME_MAX is 255; room for the temporary's
 * suffix). */
enum { SAFE_FILE_NAME_MAX = 200 };

/* `name` (any text; NULL is "unnamed") as a plain file name ending in `extension` (such as
 * ".sok"; NULL or "" for none), in `out` (at least SAFE_FILE_NAME_MAX + 1 bytes). */
void safe_file_name(const char *name, const char *extension, char *out, size_t out_size);

/* The game's data folder `sub` ("levels", "drafts"): $XDG_DATA_HOME/sokoban/SUB (when
 * XDG_DATA_HOME is absolute), else ~/.local/share/sokoban/SUB, as a string to free(); NULL
 * when neither is set (or out of memory). */
char *safe_file_data_folder(const char *sub);

/* Makes `folder` and its parents when missing (mode 0700 for those made). False with one
 * line in `reason` when one cannot be made. */
bool safe_file_make_folder(const char *folder, char *reason, size_t reason_size);

/* A file being written; safe_file_commit() or safe_file_abort() ends it. */
typedef struct safe_file {
    FILE *out;                         /* write the contents here */
    int directory;                     /* the directory, opened */
    char name[SAFE_FILE_NAME_MAX + 1]; /* the safe name */
    char temporary[SAFE_FILE_NAME_MAX + 16];
    char path[4096 + SAFE_FILE_NAME_MAX + 2]; /* directory/name, for messages */
} safe_file;

/* Starts writing the file named after `name` (made safe, with `extension`) in `directory`,
 * with permissions `mode`. False with one line in `reason` when the directory cannot be
 * opened (missing, not a directory, a symbolic link) or the file cannot be made. */
bool safe_file_create(safe_file *f, const char *directory, const char *name, const char *extension,
                      int mode, char *reason, size_t reason_size);

/* Flushes, syncs and closes the contents and puts them in place under the name. False (and
 * nothing in place, the old file kept) with one line in `reason` when a write failed. */
bool safe_file_commit(safe_file *f, char *reason, size_t reason_size);

/* Gives up: the temporary file is removed, the old file kept. */
void safe_file_abort(safe_file *f);

#endif
