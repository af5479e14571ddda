/* typing.h - the characters typed into a line of text (the editor's fields, a snapshot's
 * name, a collection's name searched): the bytes the terminal sends a key at a time
 * (curses' getch()), or a character whose bytes came at once as one key (terminal.h), given
 * as UTF-8, which level files and the saved progress hold.
 *
 * A terminal sends a character as one byte or as several. In a UTF-8 locale, and in the C
 * locale (whose character set, ASCII, names no other: a terminal there mostly sends UTF-8,
 * shown as '?' but kept as typed), the bytes are UTF-8; in a locale of another character set
 * they are that set's, converted ("é" is E9 in a Latin-1 locale, C3 A9 once given). The bytes
 * of a character are held until it is whole, so that a line typed holds whole characters
 * only. Bytes that are no character are left out: a Latin-1 byte or a UTF-16 surrogate
 * (ED A0 80) where UTF-8 is read, an overlong form, a byte no UTF-8 has. So are the control
 * characters U+0080 to U+009F, which no text shows (level/utf8.h). A line typed so is UTF-8,
 * always. The locale is the one the game set at its start (setlocale()). */
#ifndef SOKOBAN_TUI_TYPING_H
#define SOKOBAN_TUI_TYPING_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

/* The bytes of a character typed so far: made new by typing_start() when a line starts. */
typedef struct typing {
    char bytes[4]; /* UTF-8 read: the first bytes of a character begun */
    int count;
    mbstate_t state; /* another character set: the C library's state */
    bool pending;    /* a character begun, not yet whole */
} typing;

/* Forgets the bytes of a character begun: a new line is typed. */
void typing_start(typing *t);

/* Takes the byte `key` (1 to 255) of a character typed. When it ends a character, writes
 * the character's UTF-8 to `out`, NUL-terminated, and returns its length (1 to 4); returns
 * 0 while a character is begun and not whole, and when `key` is left out. *left_out says
 * whether bytes typed were left out, `key` or those of a character begun that `key` broke
 * (Latin-1's E9 then "x" where UTF-8 is read gives the "x" and leaves E9 out). */
size_t typing_byte(typing *t, int key, char out[5], bool *left_out);

/* True for a key a line takes as text: a byte of a character (space to 0xFF, Delete
 * aside), or a character whose bytes the terminal sent at once (keys.h: KEYS_CHARACTER;
 * with Alt, no). */
bool typing_is_text(int key);

/* Takes the key `key` typed (typing_is_text()): a byte as typing_byte() takes it, a whole
 * character as it is, a character begun before it then left out (*left_out). Writes the
 * character's UTF-8 to `out`, NUL-terminated, and returns its length, 0 for none. */
size_t typing_take(typing *t, int key, char out[5], bool *left_out);

/* What the line's message says when bytes were left out. */
const char *typing_left_out_message(void);

#endif
