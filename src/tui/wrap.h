/* wrap.h - text broken into lines at spaces (a tab is one), by the columns it takes on screen.
 *
 * The message line, the level's comment and the help screen break their text here: at the
 * last space that fits, a word longer than the line cut where it must. wrap_balanced() gives
 * the narrowest width that takes no more lines than the full width does, so that a text of
 * two or three lines breaks into lines of about the same length and leaves no single word
 * alone on its last line (the tutorial's lessons). Knows nothing of curses. */
#ifndef SOKOBAN_TUI_WRAP_H
#define SOKOBAN_TUI_WRAP_H

#include <stddef.h>

/* How many bytes of the `length` bytes of UTF-8 `text` make its first line when wrapped at
 * a space to `columns` columns (a word longer than the line is cut; at least one character).
 * The spaces at the break are left to wrap_skip_spaces(). */
size_t wrap_line(const char *text, size_t length, int columns);

/* The bytes of spaces at the start of `text`, at most `length`: skipped after a break. */
size_t wrap_skip_spaces(const char *text, size_t length);

/* The lines `length` bytes of `text` take when wrapped to `columns` columns (0 for none). */
int wrap_count(const char *text, size_t length, int columns);

/* How many bytes of the `length` bytes of `text` to show on one line of `columns` columns
 * when it cannot wrap (a title, a row of a list): all of them when they fit; else the
 * words that fit in `columns` - `mark_columns` (room for a mark such as "..." that says
 * something was left out), cut after the last whole word, without the spaces and the
 * ':' ',' ';' '-' '(' before the cut; a first word longer than that is cut where it must.
 * Never more than fit. */
size_t wrap_shorten(const char *text, size_t length, int columns, int mark_columns);

/* `text`'s lines joined into one in `out` (`size` bytes, cut there): a line break becomes
 * one space, none after a space or at the start, so that a blank line adds nothing. */
void wrap_join_lines(const char *text, char *out, size_t size);

/* The narrowest width, at most `columns`, at which the text takes no more lines than at
 * `columns`: the width to wrap it to for even lines. */
int wrap_balanced(const char *text, size_t length, int columns);

#endif
