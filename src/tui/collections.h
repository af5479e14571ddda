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
#include "typing.h"

typedef struct collections_screen {
    library library;
    bool scanned;
    int *levels;     /* per entry: levels that can be played */
    int *solved;     /* per entry: of those, solved */
    char **problems; /* per entry: why none of its levels can be played, or NULL */
    int selected, top;
    bool typing;    /* a name is being typed (a letter, or /) */
    char typed[64]; /* the name typed so far, whole UTF-8 characters */
    typing begun;   /* the bytes of a character begun */
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

/* Up/Down/PgUp/PgDn/Home/End or a name choose, Enter plays, Esc or q goes back to the level
 * list. A name is typed from its first letter that is no key of the list (or from /): it is
 * shown on the footer, Backspace takes back its last character; each letter
 * selects the first collection whose name starts with the text (else holds it); a letter
 * after which none does is not taken, and the footer says so. */
collections_outcome collections_key(collections_screen *s, play *p, int key);

/* A click on screen row `y`: selects the collection drawn there, as the keys would; true when it
 * was selected already (the click opens it, as Enter does), false for any other row. */
bool collections_click(collections_screen *s, int y);

void collections_free(collections_screen *s);

/* The library is read again the next time it opens (a level was saved into it). */
void collections_rescan(collections_screen *s);

/* Scans the library of this system (library.h): the bundled levels, the player's
 * $XDG_DATA_HOME/sokoban/levels, /usr/share/games. False when out of memory. */
bool collections_library(library *out);

/* Reads the collection of library entry `e` and adds it to the collections in play, unless
 * it is there already (the same first file): its index, or -1 with the reason in `error`. */
int collections_add(play *p, const library_entry *e, level_error *error);

#endif
