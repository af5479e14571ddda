/* snapshots.h - snapshots: named positions of the level in play, saved with their undo and
 * redo history, listed on a screen of their own and restored from it.
 *
 * m asks for a name on the message line and saves the position (the moves in effect and
 * the steps redo can take after them) through progress.h; ' lists the level's snapshots,
 * newest first, and Enter restores one, d deletes one. A snapshot taken while a step of the
 * solver's or a step after a hint is in effect keeps " (assisted)" in its name, and restoring
 * it counts the game as assisted, so that a snapshot cannot launder help. */
#ifndef SOKOBAN_TUI_SNAPSHOTS_H
#define SOKOBAN_TUI_SNAPSHOTS_H

#include <stdbool.h>

#include "progress/progress.h"
#include "draw.h"
#include "play.h"
#include "typing.h"

/* A name's length in characters, of UTF-8's four bytes at most each. */
enum { SNAPSHOT_NAME_MAX = 40, SNAPSHOT_NAME_BYTES = SNAPSHOT_NAME_MAX * 4 };

typedef struct snapshot_screen {
    /* Naming: the name being typed on the message line. */
    bool naming;
    char name[SNAPSHOT_NAME_BYTES + 1];
    int length;   /* in bytes */
    typing begun; /* the bytes of a character begun */
    /* The list. */
    progress_snapshot *items; /* owned, newest first */
    int count;
    int selected, top; /* the snapshot selected, the first one shown */
    /* on the footer until the next key: a key the list does not know, a snapshot deleted */
    char note[SNAPSHOT_NAME_BYTES + 64];
    char deleted[SNAPSHOT_NAME_BYTES + 16]; /* its name, "" for none */
    bool asking; /* Enter asked (y/n) whether to restore over steps in play the snapshot lacks */
    int lost;    /* then: how many, snapshots_steps_lost() */
    int lost_undone; /* of them, how many were undone */
} snapshot_screen;

/* m: starts asking for a name. */
void snapshots_start_naming(snapshot_screen *s, play *p);

/* A key while naming: letters add, Backspace takes back, Enter saves, Esc cancels. */
void snapshots_naming_key(snapshot_screen *s, play *p, int key);

/* ': reads the level's snapshots for the list. False (with a message) when there are none. */
bool snapshots_open(snapshot_screen *s, play *p);

/* Draws the list into stdscr; the caller refreshes. */
void snapshots_draw(snapshot_screen *s, const view *v, const play *p);

/* A click on screen row `y`: selects the snapshot drawn there, as the keys would; true when it was
 * selected already (the click opens it, as Enter does), false for any other row. */
bool snapshots_click(snapshot_screen *s, int y);

/* A key on the list; false when the list closes (back to the play screen). */
bool snapshots_key(snapshot_screen *s, play *p, int key);

/* The steps in play (the moves made and those undone, which redo would make) that restoring
 * `snapshot` loses: those past the steps both begin with, 0 when every step in play is the
 * snapshot's (undo and redo find them again); *undone gets how many of them were undone. */
int snapshots_steps_lost(const play *p, const progress_snapshot *snapshot, int *undone);

/* Frees the list. */
void snapshots_close(snapshot_screen *s);

#endif
