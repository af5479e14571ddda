/* terminal.h - the terminal the game plays in: curses mode entered, and the terminal put back
 * however the game ends.
 *
 * terminal_start() refuses what cannot be played on (no terminal, an unknown TERM, one that
 * cannot move the cursor) with a line on stderr. terminal_restore() puts the terminal back as
 * it was, the game's screen gone: a terminal with an alternate screen (xterm, screen, tmux)
 * shows again what was there before; one without (vt100, linux) is cleared, so that no frame
 * of the game stays behind the shell's prompt. It is safe from a crash's signal handler and
 * twice, and runs at exit() too. */
#ifndef SOKOBAN_TUI_TERMINAL_H
#define SOKOBAN_TUI_TERMINAL_H

#include <stdbool.h>

#include "draw.h"

/* Enters curses mode: keys, mouse, no cursor, the colours of `v` (none under NO_COLOR).
 * Returns false (with a message on stderr) when the terminal cannot. */
bool terminal_start(view *v);

/* The next key (curses' getch()), ERR when none is waiting. A character past ASCII whose
 * bytes came at once is one key, KEYS_CHARACTER | its code point (keys.h), where curses gives
 * a byte a key; a byte that is no whole character comes alone. Esc with a key at once behind
 * it (read with it, as a terminal sends Alt with a key) is that key | KEYS_ALT; Esc then Esc,
 * a mouse event or a resize is the Esc alone, what follows read next. */
int terminal_read_key(void);

/* Puts the terminal back as it was. Safe to call twice, and from a signal handler. */
void terminal_restore(void);

#endif
