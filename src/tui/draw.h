/* draw.h - the play screen and the help screen: the board centred, the status line, the
 * message line.
 *
 * Drawing reads the play state (play.h) and the solver's activity (assist.h) and never
 * changes them; it writes only its own view: the layout it records for mapping mouse
 * clicks back to squares. Glyphs: two columns a square in a UTF-8 locale (blocks for
 * walls), the XSB characters one column a square otherwise or when the terminal is narrow;
 * colours when the terminal has them, attributes (reverse, bold) when not. */
#ifndef SOKOBAN_TUI_DRAW_H
#define SOKOBAN_TUI_DRAW_H

#include <stdbool.h>

#include "assist.h"
#include "play.h"

/* Which screen is shown (and has the keys). */
typedef enum view_screen {
    VIEW_SCREEN_PLAY,
    VIEW_SCREEN_LEVELS,
    VIEW_SCREEN_HELP,
    VIEW_SCREEN_SNAPSHOTS,   /* snapshots.h */
    VIEW_SCREEN_STATISTICS,  /* statistics.h */
    VIEW_SCREEN_COLLECTIONS, /* collections.h: the collection library */
    VIEW_SCREEN_EDITOR,      /* editor.h: the level editor */
} view_screen;

/* Where the board lies on the screen, set by draw_screen() and read back for mouse clicks.
 * A board larger than the screen is drawn one column a square, and when that does not fit
 * either, scrolled: the view shows squares from (origin_x, origin_y) on, and follows the
 * player (and so a replay's pushed box) with a margin. */
typedef struct view_layout {
    int top, left;                 /* screen row and column of the first square shown */
    int cell_width;                /* columns per square: 2, or 1 when the terminal is narrow */
    int origin_x, origin_y;        /* the first square shown (0, 0 unless scrolled) */
    int shown_width, shown_height; /* squares shown across and down */
    bool scrolled;                 /* the board is larger than the screen */
    bool too_small; /* no room even for one row of the board: a note is shown instead */
} view_layout;

/* How the game is shown: what the screen is, not what the game is. */
typedef struct view {
    view_screen screen;
    view_layout layout;
    bool show_dead_squares; /* the D overlay */
    bool utf8;              /* the locale's character set is UTF-8 */
    bool colors;            /* the terminal has colours and we use them */
    unsigned spinner;       /* the spinner's frame: tenths of a second on the clock */
    int help_top;           /* the first row of the help shown, when it scrolls */
} view;

/* Sets up the colour pairs; call once after initscr(). Sets v->colors. */
void draw_init_colors(view *v);

/* Draws the play screen (or the help screen when v->screen says so) into stdscr; the
 * caller refreshes. Records the board's layout in v->layout. */
void draw_screen(view *v, const play *p, const assist *a);

/* The rows of the help screen, and how far it scrolls on this terminal (0: it fits). */
int draw_help_rows(void);
int draw_help_scroll_limit(void);

/* A key on the help screen: Up/Down/PgUp/PgDn and Space scroll it on a small terminal
 * (v->help_top), Space at its end leaving it as any other key does; returns false for a
 * key that leaves it. */
bool draw_help_key(view *v, int key);

/* The square under screen cell (row, column) of the last drawn board, or -1. */
int draw_square_at(const view *v, const play *p, int row, int column);

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

/* Writes `length` bytes of UTF-8 `text` at (row, column), at most `columns` columns by
 * display width. Each character takes the columns utf8_char_width() gives it, as every
 * measure of the screen counts them: a control character (a tab in a level's title) none,
 * so it is not drawn; outside a UTF-8 locale, a character that is not ASCII shows as that
 * many '?' (none for a combining accent, two for a wide character). */
void draw_text(const view *v, int row, int column, const char *text, size_t length, int columns);

/* Writes the NUL-terminated `text` at (row, column) in at most `columns` columns: whole
 * when it fits, else shortened after its last whole word that fits with a mark ("…", or
 * "..." outside UTF-8) saying that something was left out (wrap_shorten). */
void draw_text_fit(const view *v, int row, int column, const char *text, int columns);

/* `text` as draw_text_fit would show it in `columns` columns (shortened by words, with
 * the mark), into `out`, for a column of a row; returns the columns it takes. */
int draw_shorten(const view *v, const char *text, int columns, char *out, size_t size);

/* Writes `text` wrapped at spaces to the screen's width on the rows from `row`, at most
 * `rows` of them (the last shortened as draw_text_fit when the text takes more); returns
 * the rows written. draw_wrapped_rows() says how many it takes. */
int draw_wrapped(const view *v, int row, const char *text, int rows);
int draw_wrapped_rows(const char *text);

/* One square of a level from its XSB character, drawn as the play screen draws it, in a
 * cell of `cell_width` columns (2: the UTF-8 glyphs, 1: the XSB characters), with the
 * DRAW_MARK_* marks: the level editor's board. */
enum { DRAW_MARK_DEADLOCK = 1, DRAW_MARK_CURSOR = 2, DRAW_MARK_DEAD_SQUARE = 4 };
void draw_level_square(const view *v, int row, int column, int cell_width, char square, int marks);

/* The attributes of a colour pair with a monochrome fallback. */
int draw_attr(const view *v, int pair, int monochrome);

#endif
