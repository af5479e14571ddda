/* collections.h - the collection library screen: the collections installed on the system
 * (library.h) with their level and solved counts; the player picks one to play.
 *
 * Reached from the level list (c). Reads the saved progress for the counts; a collection
 * picked is read (collection.h), added to the collections in play when it is not there
 * yet, and opened through play_open_level(). */
#ifndef SOKOBAN_TUI_COLLECTIONS_H
#define SOKOBAN_TUI_COLLECTIONS_H

#include <stdbool.h>

#include "level/library.h"
#include "draw.h"
#include "play.h"

typedef struct collections_screen {
    library library;
    bool scanned;
    int *levels; /* per entry: levels that can be played */
    int *solved; /* per entry: of those, solved */
    int selected, top;
    char typed[32]; /* the start of a name being typed */
    char note[600]; /* on the footer until the next key */
} collections_screen;

typedef enum collections_outcome {
    COLLECTIONS_STAY,
    COLLECTIONS_BACK,          /* back to the level list */
    COLLECTIONS_PLAY,          /* a collection was opened: to the play screen */
    COLLECTIONS_OUT_OF_MEMORY, /* it could not be opened */
} collections_outcome;

/* Shows the library; scans the system the first time (and counts solved levels). */
void collections_open(collections_screen *s, const play *p);

void collections_draw(collections_screen *s, const view *v, const play *p);

/* Up/Down/PgUp/PgDn/Home/End or the start of a name choose, Enter plays, Esc or q goes back
 * to the level list. */
collections_outcome collections_key(collections_screen *s, play *p, int key);

void collections_free(collections_screen *s);

/* The library is read again the next time it opens (a level was saved into it). */
void collections_rescan(collections_screen *s);

#endif
