/* progress_db_names.h - the progress database's folder made, its path resolved, and a file
 * renamed to a name that is free. A part of the progress_db module, not for other modules
 * (progress_db.h declares progress_db_set_aside and progress_db_rename_new, defined here). */
#ifndef SOKOBAN_PROGRESS_DB_NAMES_H
#define SOKOBAN_PROGRESS_DB_NAMES_H

#include <stdbool.h>

/* Creates the directory and its parents (mode 0700, as XDG asks) when missing; false with
 * errno. */
bool progress_db_make_directories(const char *directory);

/* The database's path with its folders resolved: the real path of `directory` (which
 * exists) and the last component of `file` (malloc'd). Links on the way to the folder (a
 * home folder or XDG_DATA_HOME that is a link) are the user's own and are followed; the
 * file's own name is kept, for the caller to look at. NULL with errno. */
char *progress_db_real_file(const char *directory, const char *file);

/* Renames `from` to `stem`, or to stem-2, stem-3 ... when taken, never replacing a file.
 * The name taken (malloc'd), or NULL with errno. */
char *progress_db_rename_to_free_name(const char *from, const char *stem);

#endif
