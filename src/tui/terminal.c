/* terminal.c - curses mode in, and the terminal put back however the game ends. */
#include <curses.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "level/utf8.h"
#include "keys.h"
#include "mouse.h"
#include "terminal.h"
#include "typing.h"

/* The signal handlers can only reach globals: this is the game's only one. */
static volatile sig_atomic_t curses_active; /* the terminal is in curses mode */

/* What clears the screen, without its padding, on a terminal with no alternate screen to
 * leave (no rmcup: vt100, linux); empty on one that has it. Read at the start, so that a
 * signal's handler only writes it. */
static char clear_after[64];

/* The terminal's "clear" capability without the padding ("$<50>") tputs would turn into a
 * wait, into `out`: vt100's is "\033[H\033[J$<50>". Empty when the terminal has an
 * alternate screen, or no clear. */
static void read_clear_after(char *out, size_t size)
{
    out[0] = '\0';
    const char *leave = tigetstr("rmcup"), *clear = tigetstr("clear");
    if (leave && leave != (char *)-1 && *leave) return;
    if (!clear || clear == (char *)-1) return;
    size_t n = 0;
    for (const char *c = clear; *c && n + 1 < size; c++) {
        if (c[0] == '$' && c[1] == '<' && strchr(c, '>')) { /* padding: $<5>, $<50/> */
            c = strchr(c, '>');
            continue;
        }
        out[n++] = *c;
    }
    out[n] = '\0';
}

void terminal_restore(void)
{
    if (!curses_active) return;
    curses_active = 0;
    endwin();
    /* endwin() leaves the last frame on a terminal without an alternate screen */
    if (clear_after[0]) {
        ssize_t written = write(STDOUT_FILENO, clear_after, strlen(clear_after));
        (void)written;
    }
}

/* Sequences terminals send for keys besides those TERM's entry names: tmux and screen send
 * Home and End as ESC [ 1 ~ and ESC [ 4 ~ whatever TERM says (xterm-256color's are ESC O H
 * and ESC O F), as the Linux console and rxvt do; an arrow comes as ESC [ A or ESC O A,
 * by the keypad's mode. Unknown to curses, such a key came as Esc and three keys more
 * ("Unknown key '~'", and Esc's own action: a replay stopped, a field typed left). */
static const struct {
    const char *sequence;
    int key;
} other_sequences[] = {
    {"\033[1~", KEY_HOME}, {"\033[7~", KEY_HOME},  {"\033[H", KEY_HOME},   {"\033OH", KEY_HOME},
    {"\033[4~", KEY_END},  {"\033[8~", KEY_END},   {"\033[F", KEY_END},    {"\033OF", KEY_END},
    {"\033[3~", KEY_DC},   {"\033[5~", KEY_PPAGE}, {"\033[6~", KEY_NPAGE}, {"\033[A", KEY_UP},
    {"\033[B", KEY_DOWN},  {"\033[C", KEY_RIGHT},  {"\033[D", KEY_LEFT},   {"\033OA", KEY_UP},
    {"\033OB", KEY_DOWN},  {"\033OC", KEY_RIGHT},  {"\033OD", KEY_LEFT},
};

/* Teaches curses the other sequences where TERM's entry leaves them free. */
static void define_other_sequences(void)
{
    for (size_t i = 0; i < sizeof other_sequences / sizeof other_sequences[0]; i++)
        if (key_defined(other_sequences[i].sequence) == 0)
            define_key(other_sequences[i].sequence, other_sequences[i].key);
}

/* The key a byte past ASCII starts (curses gives a key a byte): the character of the bytes
 * the terminal sent with it (those already read, nodelay: none waited for) as one key,
 * KEYS_CHARACTER | its code point; the byte alone when they are no whole character, the
 * bytes read after it put back to be read next. */
static int read_character(int first)
{
    typing begun;
    typing_start(&begun);
    int bytes[4] = {first}, count = 1, key = first;
    char character[5];
    bool left_out;
    size_t length = typing_byte(&begun, first, character, &left_out);
    while (length == 0 && !left_out && count < 4) {
        int next = getch();
        if (next == ERR) break;
        bytes[count++] = next;
        if (next > 0xFF) break;
        length = typing_byte(&begun, next, character, &left_out);
    }
    unsigned code;
    if (length > 1 && !left_out && utf8_decode(character, &code) == (int)length)
        key = KEYS_CHARACTER | (int)code;
    else
        for (int i = count - 1; i > 0; i--) ungetch(bytes[i]); /* (a stack: the last first) */
    return key;
}

/* The next key, a character past ASCII read whole. */
static int read_one(void)
{
    int key = getch();
    return key >= 0x80 && key <= 0xFF ? read_character(key) : key;
}

int terminal_read_key(void)
{
    enum { ESCAPE = 27 };
    int key = read_one();
    if (key != ESCAPE) return key;
    /* curses waited ESCDELAY for a sequence it knows; a key already there with the Esc is Alt's
     * (nodelay: no wait for one that is not) */
    int next = read_one();
    if (next == ERR) return ESCAPE;
    if (next == ESCAPE || next == KEY_MOUSE || next == KEY_RESIZE || next >= KEYS_ALT) {
        ungetch(next);
        return ESCAPE;
    }
    return next | KEYS_ALT;
}

bool terminal_start(view *v)
{
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        fputs("sokoban: the game needs a terminal (see --help for the other modes)\n", stderr);
        return false;
    }
    SCREEN *screen = newterm(NULL, stdout, stdin);
    if (!screen) {
        fprintf(stderr, "sokoban: cannot use the terminal '%s'\n",
                getenv("TERM") ? getenv("TERM") : "(TERM is not set)");
        return false;
    }
    set_term(screen);
    /* A terminal that cannot move the cursor (TERM=dumb, a printing terminal) would pile
     * every frame onto one line: refuse it in one line instead. */
    const char *cursor_address = tigetstr("cup");
    if (!cursor_address || cursor_address == (char *)-1) {
        endwin();
        delscreen(screen);
        fprintf(stderr,
                "sokoban: the terminal '%s' cannot move the cursor; the game needs one that "
                "can (TERM=xterm-256color, linux, screen...)\n",
                getenv("TERM") ? getenv("TERM") : "");
        return false;
    }
    read_clear_after(clear_after, sizeof clear_after);
    curses_active = 1;
    atexit(terminal_restore);
    /* ncurses (6.4) writes each cursor motion of a screen update with its own write() while
     * the screen is "initial", a state only leaving curses mode (endwin()) ends: about 28
     * writes instead of one for a key that redraws the dead squares, twice the time from key
     * to redraw (bench/hint.sh). Leaving and coming back before the first frame shows nothing;
     * the modes are set after it, as leaving resets the keypad's. */
    endwin();
    refresh();
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    define_other_sequences();
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    mousemask(mouse_mask(), NULL);
    mouseinterval(0);
    /* no-color.org: NO_COLOR set and not empty means no colours; attributes (reverse, bold,
     * underline) mark what colours would */
    const char *no_color = getenv("NO_COLOR");
    if (!no_color || !*no_color) draw_init_colors(v);
    return true;
}
