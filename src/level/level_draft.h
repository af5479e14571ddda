/* level_draft.h - a drawing of the editor's not yet saved, kept aside when the game is ended
 * (a signal, a closed terminal) and offered back the next time the editor opens its level.
 *
 * Drafts live in one folder of our own, $XDG_DATA_HOME/sokoban/drafts (else
 * ~/.local/share/sokoban/drafts), never beside the player's level file. A draft belongs to a
 * key: "new" for a level that had no file, else the level's file (its real path) and its
 * number ("/home/a/levels.sok:3"). Its file name is made from the key (safe_file.h's
 * safe_file_name() on the file's base name and number, then a hash of the whole key, so two
 * files of one name in two folders keep two drafts), and the key is written inside it, so a
 * draft is only ever offered to its own level. It is written atomically (safe_file.h): a
 * reader sees the old draft or the new one whole.
 *
 * The file holds the text fields length-prefixed (any byte, line ends too) and the drawn
 * rectangle of the canvas as it stands, row by row, so a drawing that cannot be played yet
 * (no player, an open wall, pieces apart) comes back square for square. Knows nothing of the
 * screen. */
#ifndef SOKOBAN_LEVEL_DRAFT_H
#define SOKOBAN_LEVEL_DRAFT_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "level_edit.h"
#include "safe_file.h"

enum { LEVEL_DRAFT_KEY_MAX = 4096 + 32 };

/* The drafts folder, as a string to free(); NULL when neither XDG_DATA_HOME (absolute) nor
 * HOME is set. */
char *level_draft_folder(void);

/* The key of level `number` of the file `path` (its real path when it has one), or "new"
 * when `path` is NULL. */
void level_draft_key(const char *path, int number, char *out, size_t size);

/* The draft's file name for `key` (at least SAFE_FILE_NAME_MAX + 1 bytes). */
void level_draft_file_name(const char *key, char *out, size_t size);

/* Keeps `edit` as the draft of `key` in `folder` (made, with its parents, when missing),
 * over an older one. False with one line of why in `why`. */
bool level_draft_write(const char *folder, const char *key, const level_edit *edit, char *why,
                       size_t size);

/* The draft of `key` in `folder` into `edit` (level_edit_free() it), with the time it was
 * kept in `*when`. False when there is none for that key, it cannot be read or is not a draft
 * (`edit` then holds nothing to free). */
bool level_draft_read(const char *folder, const char *key, level_edit *edit, time_t *when);

/* Removes the draft of `key` (there may be none). */
void level_draft_remove(const char *folder, const char *key);

#endif
