/* levels.h - the level list: every level of a collection with its solved mark, the best
 * solutions saved (by moves and by pushes, each as moves/pushes), its title and author,
 * and for a level that cannot be played its reason; the player picks one to jump to.
 *
 * Reads the play state to draw; opens the level picked through play_open_level(). */
#ifndef SOKOBAN_TUI_LEVELS_H
#define SOKOBAN_TUI_LEVELS_H

#include <stdbool.h>

#include "draw.h"
#include "play.h"

/* The list's cursor. */
typedef struct level_list {
    int collection; /* the collection listed */
    int selected;   /* index of the highlighted level */
    int top;        /* index of the first level on screen */
    int typed;      /* the level number being typed, 0 when none */
    char note[200]; /* shown on the footer until the next key: why Enter did nothing */
    bool optimizing; /* O was pressed: the footer shows the play's message until a key */
} level_list;

/* What a key on the list leads to. */
typedef enum levels_outcome {
    LEVELS_STAY,          /* the list stays on screen */
    LEVELS_BACK,          /* back to the play screen */
    LEVELS_OUT_OF_MEMORY, /* the level picked could not be opened */
    LEVELS_COLLECTIONS,   /* c: to the collection library */
    LEVELS_EDIT,          /* E: the selected level into the editor (levels_selected()) */
    LEVELS_OPTIMIZE,      /* O: the selected level's best to the optimizer (its message shown) */
} levels_outcome;

/* Shows the list of the collection in play, the level in play selected. */
void levels_open(level_list *list, const play *p);

/* Draws the list into stdscr, scrolling it to the selection; the caller refreshes. */
void levels_draw(level_list *list, const view *v, const play *p);

/* Answers a key on the list: moving the selection, Tab / left / right for another
 * collection, Enter to play the selected level, Esc or q to go back. */
levels_outcome levels_key(level_list *list, play *p, int key);

/* A click on screen row `y`: selects the level drawn there, as the keys would; true when it was
 * selected already (the click opens it, as Enter does), false for any other row. */
bool levels_click(level_list *list, const play *p, int y);

/* The level selected on the list. */
const level *levels_selected(const level_list *list, const play *p);

#endif
