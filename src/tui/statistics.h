/* statistics.h - the statistics screen: for each collection played, its levels solved by the
 * player, solved with help, started, the sums of the best moves and pushes, and the time
 * played; and, for the collection selected, solutions in and out: e exports its best
 * solutions as a SOK file, i imports the solution sections of its SOK file and the .sol files
 * beside its level files (solutions.h).
 *
 * Reads the saved progress through play.h; knows nothing of the other screens. */
#ifndef SOKOBAN_TUI_STATISTICS_H
#define SOKOBAN_TUI_STATISTICS_H

#include <stdbool.h>

#include "draw.h"
#include "play.h"

typedef struct statistics_screen {
    int selected;   /* the collection selected */
    int top;        /* the first collection shown */
    char note[320]; /* what the last export or import did, shown under the table */
} statistics_screen;

/* Opens the screen on the collection in play. */
void statistics_open(statistics_screen *s, const play *p);

/* Draws the screen into stdscr; the caller refreshes. */
void statistics_draw(statistics_screen *s, const view *v, play *p);

/* A key on the screen; false when it closes (back to the play screen). */
bool statistics_key(statistics_screen *s, play *p, int key);

/* Writes the best solutions of collection `index` as a SOK file under the data directory
 * (solutions/NAME.sok beside the progress database); `note` says what was done. */
bool statistics_export(play *p, int index, char *note, size_t note_size);

/* Imports the solution sections and the .sol files of collection `index`, each checked by
 * replay, as imported solutions; `note` says what was done. */
void statistics_import(play *p, int index, char *note, size_t note_size);

#endif
