/* level_draft.h - a drawing of the editor's not yet saved, kept aside when the game is ended
 * (a signal, a closed terminal) and offered back the next time the editor opens its level.
 *
 * Drafts live in one folder of our own, $XDG_DATA_HOME/sokoban/drafts (else
 * ~/.local/share/sokoban/drafts), never beside the player's level file. A draft belongs to a
 * key: "new" for a level that had no file, else the level's file (its real path) and its
 * number ("/home/a/levels.sok:3"). Its file name is made from the key (safe_file.h's
 * safe_file_name() on the file's base name and number, then a hash of the whole key, so two
 * files of one name in two folders keep two drafts). The key is written inside it, and a hash
 * of the level's text as the editor opened it or last saved it (the empty text for a new
 * level): a draft is only offered when the level opened has that key and that very text, so
 * not to another level that now has the number (one inserted before it, the file edited
 * elsewhere). A level read from standard input ("-") has the key LEVEL_DRAFT_STDIN and keeps
 * no draft: every piped collection would share its numbers. It is written atomically
 * (safe_file.h): a reader sees the old draft or the new one whole.
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

/* The key of a level read from standard input: no draft is written or read for it. */
#define LEVEL_DRAFT_STDIN "-"

/* The drafts folder, as a string to free(); NULL when neither XDG_DATA_HOME (absolute) nor
 * HOME is set. */
char *level_draft_folder(void);

/* The key of level `number` of the file `path` (its real path when it has one), "new" when
 * `path` is NULL, LEVEL_DRAFT_STDIN when it is "-" (standard input). */
void level_draft_key(const char *path, int number, char *out, size_t size);

/* The draft's file name for `key` (at least SAFE_FILE_NAME_MAX + 1 bytes). */
void level_draft_file_name(const char *key, char *out, size_t size);

/* Keeps `edit` as the draft of `key` in `folder` (made, with its parents, when missing),
 * over an older one; `opened` is the level's text the drawing began from (as opened or last
 * saved; NULL or "" for a new level). False with one line of why in `why` (always for
 * LEVEL_DRAFT_STDIN). */
bool level_draft_write(const char *folder, const char *key, const char *opened,
                       const level_edit *edit, char *why, size_t size);

/* The draft of `key` in `folder` into `edit` (level_edit_free() it), with the time it was
 * kept in `*when`. False when there is none for that key, it began from another text than
 * `opened` (the level changed since), it cannot be read or is not a draft (`edit` then holds
 * nothing to free). */
bool level_draft_read(const char *folder, const char *key, const char *opened, level_edit *edit,
                      time_t *when);

/* Removes the draft of `key` (there may be none). */
void level_draft_remove(const char *folder, const char *key);

#endif
