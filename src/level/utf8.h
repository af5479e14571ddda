/* utf8.h - UTF-8 text as the terminal shows it: validity, Latin-1 conversion, display width.
 *
 * Titles, authors and comments of levels are kept in UTF-8 (a file in Latin-1 is converted
 * when it is read). The list, the status line and `--list` pad and cut them by the columns
 * they take on screen, not by bytes: a wide (East Asian) character takes two, a combining
 * mark none. A level file may put control characters in that text (a tab, a form feed,
 * U+0080 to U+009F from a Latin-1 file, a bidirectional override such as U+202E): the one
 * rule for them, utf8_shown_as(), is that
 * they are never shown, so every printer (the screen, the command line's lines, the
 * messages) leaves them out; a tab is shown as one space, since it parts words
 * ("Red<tab>Text" reads "Red Text"). Knows nothing of the locale; the caller decides whether
 * to show UTF-8 at all. */
#ifndef SOKOBAN_UTF8_H
#define SOKOBAN_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* True when the `length` bytes are well-formed UTF-8. */
bool utf8_valid(const char *text, size_t length);

/* The `length` bytes read as Latin-1 (ISO 8859-1), converted to UTF-8: a new string to
 * free() (*out_length bytes, NUL-terminated), or NULL when out of memory. */
char *utf8_from_latin1(const char *text, size_t length, size_t *out_length);

/* Decodes the character at `text` (NUL-terminated UTF-8): its code point in *code, and
 * returns its length in bytes (1 for a malformed byte, whose *code is U+FFFD). */
int utf8_decode(const char *text, unsigned *code);

/* Writes the UTF-8 of the code point `code` (at most U+10FFFF, no surrogate) to `out`:
 * returns its length, 1 to 4. */
size_t utf8_encode(unsigned code, char *out);

/* True for a control character (U+0000 to U+001F, U+007F to U+009F, and the bidirectional
 * controls of utf8_is_bidi_control()): a terminal would act on it (a tab moves the cursor,
 * U+009B starts a command, U+202E shows the text after it reversed), so text never shows
 * one. */
bool utf8_is_control(unsigned code);

/* True for a Unicode bidirectional formatting character: the embeddings and overrides
 * U+202A to U+202E, the isolates U+2066 to U+2069, the marks U+200E, U+200F and U+061C. A
 * title holding one could reorder the text shown after it (the rest of the line, the next
 * column), so they count as control characters. */
bool utf8_is_bidi_control(unsigned code);

/* The character a terminal is shown for `code`: a space for a tab, none (0) for any other
 * control character, else `code` itself. Every printer of level-file text goes through it. */
unsigned utf8_shown_as(unsigned code);

/* Leaves the control characters out of the NUL-terminated string, in place, a tab made one
 * space; returns its new length in bytes. */
size_t utf8_drop_controls(char *text);

/* Writes `length` bytes of UTF-8 `text` to `out`, leaving out its control characters, a tab
 * written as one space. */
void utf8_write_shown(FILE *out, const char *text, size_t length);

/* True for a byte that goes on a character started before it (10xxxxxx). */
bool utf8_is_continuation(char byte);

/* Takes the last character as shown off the first `length` bytes of `text` (Backspace in a
 * line typed): a grapheme cluster, so a letter goes with the combining marks typed after
 * it, an emoji sequence or a flag whole; a byte that is not UTF-8 (a stray continuation
 * byte, a byte of a surrogate or of a character cut short, each shown as a character of its
 * own) alone. Writes a NUL at the new end and returns the new length (0 stays 0). */
size_t utf8_drop_last(char *text, size_t length);

/* The columns the code point takes on a terminal: 0 (a control character, a combining mark),
 * 1 (a tab too, shown as a space) or 2. */
int utf8_char_width(unsigned code);

/* The columns the NUL-terminated string takes. */
int utf8_width(const char *text);

/* How many bytes of the string fit in `columns` columns, cut between whole characters;
 * *used (if not NULL) gets the columns they take. */
size_t utf8_fit(const char *text, int columns, int *used);

#endif
