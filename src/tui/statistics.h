/* statistics.h - the statistics screen: for each collection in play, and each other the saved
 * progress knows (read again from its files when the screen opens), its levels solved by the
 * player, solved with help, started, the sums of the best moves and pushes, and the time
 * played; a collection known that cannot be read any more (gone, or one that came on
 * standard input) is listed with the reason. For the collection selected, solutions in and
 * out: e exports its best
 * solutions as a SOK file, i imports the solution sections of its SOK file and the .sol files
 * beside its level files (solutions.h).
 *
 * Reads the saved progress through play.h; knows nothing of the other screens. */
#ifndef SOKOBAN_TUI_STATISTICS_H
#define SOKOBAN_TUI_STATISTICS_H

#include <stdbool.h>

#include "draw.h"
#include "play.h"

/* A collection the progress knows that is not in play. */
typedef struct statistics_known {
    collection collection; /* read from its files; empty when it cannot be */
    char *name;            /* its name, or its path when it cannot be read */
    char *problem;         /* why it cannot be read, or NULL */
} statistics_known;

typedef struct statistics_screen {
    int selected;   /* the row selected: the collections in play, then the known ones */
    int top;        /* the first row shown */
    char note[320]; /* what the last export or import did, shown under the table */
    statistics_known *known;
    int known_count;
    struct collection_figures *figures; /* per row, counted when first drawn; NULL: none yet */
    bool *counted;                      /* per row: its figures are counted */
} statistics_screen;

/* Opens the screen on the collection in play, reading the other collections the progress
 * knows. */
void statistics_open(statistics_screen *s, const play *p);

/* Frees the collections read for the screen (when it closes, and at the end). */
void statistics_close(statistics_screen *s);

/* Draws the screen into stdscr; the caller refreshes. */
void statistics_draw(statistics_screen *s, const view *v, play *p);

/* A click on screen row `y`: selects the collection drawn there, as the keys would (nothing
 * opens a row here). */
void statistics_click(statistics_screen *s, const play *p, int y);

/* A key on the screen; false when it closes (back to the play screen). */
bool statistics_key(statistics_screen *s, play *p, int key);

/* Writes the best solutions of collection `c` as a SOK file under the data directory
 * (solutions/NAME.sok beside the progress database); `note` says what was done. */
bool statistics_export(play *p, const collection *c, char *note, size_t note_size);

/* Imports the solution sections and the .sol files of collection `c`, each checked by
 * replay, as imported solutions; `note` says what was done. */
void statistics_import(play *p, const collection *c, char *note, size_t note_size);

#endif
