/* level_save.h - saving a level the player made into a collection file of the player's own.
 *
 * The player's own levels live in one folder, $XDG_DATA_HOME/sokoban/levels (else
 * ~/.local/share/sokoban/levels), which the game's library lists. A level is saved into a
 * file of that folder only, named by one safe file name (no folder in it, no hidden file, no
 * link followed), and only into a regular file the player owns that holds levels: never into
 * a file of the system's (/usr/share) or someone else's. A save writes the whole new file
 * beside the old one and renames it over it (safe_file.h), so a crash leaves the old file or
 * the new one, never half of one. */
#ifndef SOKOBAN_LEVEL_SAVE_H
#define SOKOBAN_LEVEL_SAVE_H

#include <stdbool.h>
#include <stddef.h>

/* The player's own levels folder, as a string to free(); NULL when neither XDG_DATA_HOME
 * (absolute) nor HOME is set. */
char *level_save_folder(void);

/* The file name `wanted` becomes in the folder (safe_file.h's safe_file_name(): anything
 * but letters, digits, space and "._-+,()" made '_', no leading '.' or '-'), with ".sok"
 * added unless it ends in .sok, .xsb or .txt; `out` holds SAFE_FILE_NAME_MAX + 1 bytes. */
void level_save_file_name(const char *wanted, char *out, size_t size);

/* Where a level was saved: the file's path and the new level's number in it. */
typedef struct level_save_result {
    char path[4096 + 256];
    int number;
} level_save_result;

/* Appends `text` (one level, level_edit_text()) to the collection file `name` in `folder`
 * (both folder and file made when missing), atomically. The file must read back with the
 * level as its last. False with one line of why in `why` (the file is then unchanged). */
bool level_save_append(const char *folder, const char *name, const char *text,
                       level_save_result *result, char *why, size_t size);

/* Replaces level `number` (1-based) of the collection file `name` in `folder` by `text`
 * (one level, level_edit_text()): its title and comment above the map, its map and its
 * fields below are written over, the rest of the file is kept byte for byte, atomically.
 * The file must read back with only that level changed; false with one line of why
 * otherwise (the file is then unchanged). */
bool level_save_replace(const char *folder, const char *name, int number, const char *text,
                        level_save_result *result, char *why, size_t size);

/* True when `path` is a file directly in `folder` (links resolved): a file of the player's
 * own levels. Its name goes into `name`. */
bool level_save_is_own(const char *folder, const char *path, char *name, size_t size);

#endif
