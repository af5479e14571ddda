/* levels.h - the level list: every level of a collection with its solved mark, the best
 * moves and pushes saved, and its title; the player picks one to jump to. */
#ifndef SOKOBAN_TUI_LEVELS_H
#define SOKOBAN_TUI_LEVELS_H

#include "tui.h"

/* Shows the list of the collection in play, the level in play selected. */
void levels_open(tui *t);

/* Draws the list into stdscr; the caller refreshes. */
void levels_draw(tui *t);

/* Answers a key on the list: moving the selection, Tab / left / right for another
 * collection, Enter to play the selected level, Esc or q to go back. */
void levels_key(tui *t, int key);

#endif
