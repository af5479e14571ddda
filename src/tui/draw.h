/* draw.h - the play screen and the help screen: the board centred, the status line, the
 * message line.
 *
 * Drawing only reads the game's state; it changes nothing but the layout it records for
 * mapping mouse clicks back to squares. Glyphs: two columns a square in a UTF-8 locale
 * (blocks for walls), the XSB characters one column a square otherwise or when the terminal
 * is narrow; colours when the terminal has them, attributes (reverse, bold) when not. */
#ifndef SOKOBAN_TUI_DRAW_H
#define SOKOBAN_TUI_DRAW_H

#include "tui.h"

/* Sets up the colour pairs; call once after initscr(). Sets t->colors. */
void draw_init_colors(tui *t);

/* Draws the play screen (or the help screen when t->screen says so) into stdscr; the
 * caller refreshes. Records the board's layout in t->layout. */
void draw_screen(tui *t);

/* The square under screen cell (row, column) of the last drawn board, or -1. */
int draw_square_at(const tui *t, int row, int column);

/* Colour pairs, shared with the level list. */
enum {
    DRAW_PAIR_WALL = 1,
    DRAW_PAIR_GOAL,
    DRAW_PAIR_BOX,
    DRAW_PAIR_BOX_ON_GOAL,
    DRAW_PAIR_PLAYER,
    DRAW_PAIR_HINT,
    DRAW_PAIR_DEADLOCK,
    DRAW_PAIR_DEAD_SQUARE,
    DRAW_PAIR_GOOD,
    DRAW_PAIR_WARNING,
    DRAW_PAIR_ERROR,
    DRAW_PAIR_TITLE,
};

/* The attributes of a colour pair with a monochrome fallback. */
int draw_attr(const tui *t, int pair, int monochrome);

#endif
