/* keys.h - the game's key map: which key does what, in one table.
 *
 * A key read from curses (a character, or a KEY_* code) becomes an action; the screens
 * decide what an action means to them. The same table prints the help screen and --help's
 * list of keys, so the keys the game answers and the keys it lists cannot drift apart. */
#ifndef SOKOBAN_TUI_KEYS_H
#define SOKOBAN_TUI_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum key_action {
    KEY_ACTION_NONE,
    KEY_ACTION_LEFT,
    KEY_ACTION_UP,
    KEY_ACTION_RIGHT,
    KEY_ACTION_DOWN,
    KEY_ACTION_UNDO,
    KEY_ACTION_REDO,
    KEY_ACTION_RESTART,
    KEY_ACTION_NEXT_LEVEL,
    KEY_ACTION_PREVIOUS_LEVEL,
    KEY_ACTION_NEXT_UNSOLVED,
    KEY_ACTION_PREVIOUS_UNSOLVED,
    KEY_ACTION_LEVEL_LIST,
    KEY_ACTION_HINT,
    KEY_ACTION_SOLVE,
    KEY_ACTION_REPLAY_BEST,
    KEY_ACTION_DEAD_SQUARES,
    KEY_ACTION_HELP,
    KEY_ACTION_QUIT,
    KEY_ACTION_ENTER,  /* make the hinted push; go to the next level when solved */
    KEY_ACTION_ESCAPE, /* stop a replay, cancel the solver, leave a screen */
    KEY_ACTION_PAUSE,  /* replay: pause or resume */
    KEY_ACTION_STEP,   /* replay: one step */
    KEY_ACTION_FASTER,
    KEY_ACTION_SLOWER,
    KEY_ACTION_MOUSE,
    KEY_ACTION_RESIZE,
    KEY_ACTION_REDRAW,        /* Ctrl-L: repaint the whole screen */
    KEY_ACTION_UNDO_PUSH,     /* undo by push: back to just after the push before last */
    KEY_ACTION_REDO_PUSH,     /* redo by push: the mirror */
    KEY_ACTION_TO_START,      /* undo every step (the steps stay redoable) */
    KEY_ACTION_TO_END,        /* redo every step; in a replay: jump to its end */
    KEY_ACTION_STEP_BACK,     /* replay: one step back */
    KEY_ACTION_SNAPSHOT_SAVE, /* save the position as a named snapshot */
    KEY_ACTION_SNAPSHOTS,     /* the level's snapshots */
    KEY_ACTION_STATISTICS,    /* the statistics screen (and solutions in and out) */
    KEY_ACTION_EDIT,          /* the level in play into the level editor */
    KEY_ACTION_OPTIMIZE,      /* the level's best solution given to the optimizer */
} key_action;

/* Alt held with a key: the key's code with this bit set. A terminal sends Alt-n as Esc and
 * n at once, and so come Esc and a key typed within curses' wait for a sequence (25 ms) or
 * both read together (over a slow link, or while the game was busy): terminal_read_key()
 * gives them as one key, and the loop (tui.c) takes it as Esc and then the key, as typed,
 * but in a line being typed and on the editor's offer of a draft, where Esc would throw
 * away what the player made: there it is one key that no screen takes for a command. */
#define KEYS_ALT 0x1000000

/* A character past ASCII whose bytes the terminal sent at once (UTF-8's C3 A9 for "é", or
 * the locale's own set's): its code point (U+00E9) with this bit set, one key, where curses
 * gives a key a byte. A byte that is no whole character comes alone (0x80 to 0xFF). */
#define KEYS_CHARACTER 0x200000
#define KEYS_CODE_POINT 0x1FFFFF /* the bits of a code point under KEYS_CHARACTER */

/* The action of `key` (a curses key code), or KEY_ACTION_NONE. The capitals of the
 * movement letters that are no command (W A J K) move too, so that Caps Lock does not stop
 * the player; H L S D stay hint, level list, solve and dead squares. */
key_action keys_action(int key);

/* A key's name for a message: 'x' for a printable character ('é' where the locale's
 * characters are UTF-8's, "U+00E9" where they are not or for a character that takes no
 * column), "byte A9" for a byte that is no whole character, "Alt-x", else the name written
 * on the key ("F5", "PgDn", "Ctrl-A"), or curses' name without its "KEY_". */
void keys_name(int key, char *out, size_t size);

/* The name curses gives a key with modifiers held ("kLFT5", from the terminal's entry) as the
 * player reads it ("Ctrl-Left"), into `out`; false, `out` untouched, for another name. */
bool keys_modified_name(const char *name, char *out, size_t size);

/* True for the four moves. */
static inline bool keys_is_move(key_action action)
{
    return action >= KEY_ACTION_LEFT && action <= KEY_ACTION_DOWN;
}

/* One line of the help screen: the keys as shown, and what they do. */
typedef struct keys_help_line {
    const char *keys;
    const char *what;
} keys_help_line;

/* The keys a replay answers, for the message shown when another key is pressed. */
#define KEYS_REPLAY_TEXT "space pause, . step, , back, End to the end, + - speed, Esc stop"

/* The help screen's lines, and how many there are. */
const keys_help_line *keys_help(int *count);

/* Writes --help's paragraph of keys ("Keys in the game: ..."), wrapped at 80 columns. */
void keys_print_usage(FILE *out);

#endif
