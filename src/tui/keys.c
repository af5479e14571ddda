/* keys.c - the game's key map: one row per action, from which the game's dispatch, the
 * help screen and --help's key list come. */
#include <curses.h>
#include <langinfo.h>
#include <string.h>

#include "level/utf8.h"
#include "keys.h"

enum { CONTROL_L = 'L' & 0x1f, CONTROL_R = 'R' & 0x1f, ESCAPE = 27, DELETE = 127, CONTROL_H = 8 };

/* One action: the keys that give it (0 ends the list), the help screen's line (NULL keys:
 * the action is told on the line of a row above) and --help's words for it (NULL: told with
 * a row above). In the help screen's order. */
typedef struct key_row {
    key_action action;
    int keys[6];
    const char *screen_keys, *screen_text;
    const char *usage;
} key_row;

static const key_row key_rows[] = {
    {KEY_ACTION_LEFT,
     {KEY_LEFT, 'h', 'a', 'A'},
     "arrows hjkl wasd",
     "move (walking into a box pushes it); W A J K too",
     "arrows, hjkl or wasd move (for Caps Lock W A J K too, and Z X Q as z x q)"},
    {KEY_ACTION_UP, {KEY_UP, 'k', 'w', 'K', 'W'}, NULL, NULL, NULL},
    {KEY_ACTION_RIGHT, {KEY_RIGHT, 'l', 'd'}, NULL, NULL, NULL},
    {KEY_ACTION_DOWN, {KEY_DOWN, 'j', 's', 'J'}, NULL, NULL, NULL},
    {KEY_ACTION_MOUSE,
     {KEY_MOUSE},
     "mouse click",
     "walk to the square by the shortest path",
     "a mouse click on a floor square walks there"},
    {KEY_ACTION_MOUSE,
     {0},
     "click box, square",
     "push the box there (or drag it); Esc lets go",
     "a click on a box marks where it can go, and a click on a square (or a drag)"
     " pushes it there (Esc lets it go)"},
    {KEY_ACTION_MOUSE,
     {0},
     "mouse on a list",
     "wheel scrolls (help too); a click selects, again opens",
     "the wheel scrolls the help and the lists, and a click on a list's row selects it, a "
     "second click opening it"},
    {KEY_ACTION_UNDO,
     {'u', KEY_BACKSPACE, DELETE, CONTROL_H},
     "u  U",
     "undo / redo a move (also Backspace / Ctrl-R)",
     "u or Backspace undo"},
    {KEY_ACTION_REDO, {'U', CONTROL_R}, NULL, NULL, "U or Ctrl-R redo"},
    {KEY_ACTION_UNDO_PUSH,
     {'z', 'Z'},
     "z  x",
     "undo / redo by push (Z X too)",
     "z/x undo/redo by push"},
    {KEY_ACTION_REDO_PUSH, {'x', 'X'}, NULL, NULL, NULL},
    {KEY_ACTION_TO_START,
     {KEY_HOME},
     "Home  End",
     "undo to the start / redo to the end",
     "Home/End undo to the start/redo to the end"},
    {KEY_ACTION_TO_END, {KEY_END}, NULL, NULL, NULL},
    {KEY_ACTION_RESTART,
     {'r'},
     "r",
     "restart the level (asks when moves were made)",
     "r restart (asking y/n after moves)"},
    {KEY_ACTION_SNAPSHOT_SAVE,
     {'m'},
     "m  '",
     "save a snapshot / list (Enter restores, d deletes)",
     "m save a named snapshot, ' list them (Enter restores one, d deletes one)"},
    {KEY_ACTION_SNAPSHOTS, {'\''}, NULL, NULL, NULL},
    {KEY_ACTION_STATISTICS,
     {'i'},
     "i",
     "statistics; there e exports, i imports solutions",
     "i statistics of every collection played (e exports the best solutions, i imports "
     "solutions)"},
    {KEY_ACTION_NEXT_LEVEL,
     {'n'},
     "n p  N P",
     "next / previous level; the same, unsolved only",
     "n/p next/previous level"},
    {KEY_ACTION_PREVIOUS_LEVEL, {'p'}, NULL, NULL, NULL},
    {KEY_ACTION_NEXT_UNSOLVED, {'N'}, NULL, NULL, "N/P next/previous unsolved"},
    {KEY_ACTION_PREVIOUS_UNSOLVED, {'P'}, NULL, NULL, NULL},
    {KEY_ACTION_LEVEL_LIST,
     {'L', '\t'},
     "L  Tab",
     "level list: Enter jumps, Tab next collection, c library",
     "L or Tab level list (Tab or Right there: the next collection; c there: the collection "
     "library; / or a name picks one)"},
    {KEY_ACTION_HINT,
     {'H'},
     "H",
     "hint: the solver's next push; H or Enter again makes it",
     "H hint (H again or Enter makes the push)"},
    {KEY_ACTION_ENTER,
     {'\n', '\r', KEY_ENTER},
     "Enter",
     "make the hint's push; undo to solvable; next level",
     "Enter the hint's push, back to a solvable position, or the next level once solved"},
    {KEY_ACTION_SOLVE,
     {'S'},
     "S",
     "solve from here and replay the solution",
     "S solve and replay (space pause, . step, , back, End to the end, + and - or = and _ "
     "speed, Esc stop)"},
    {KEY_ACTION_REPLAY_BEST,
     {'B'},
     "B  O",
     "replay / optimize your best solution (O: list too)",
     "B replay your best solution"},
    {KEY_ACTION_OPTIMIZE,
     {'O'},
     NULL,
     NULL,
     "O optimize the best solution, kept as the optimizer's (O on the level list too)"},
    {KEY_ACTION_PAUSE,
     {' '},
     "space . , End + -",
     "replay: pause, step, back, to the end, speed (= _ too)",
     NULL},
    {KEY_ACTION_STEP, {'.'}, NULL, NULL, NULL},
    {KEY_ACTION_STEP_BACK, {','}, NULL, NULL, NULL},
    {KEY_ACTION_FASTER, {'+', '='}, NULL, NULL, NULL},
    {KEY_ACTION_SLOWER, {'-', '_'}, NULL, NULL, NULL},
    {KEY_ACTION_ESCAPE,
     {ESCAPE},
     "Esc",
     "stop the replay, the solver; hide the hint, the message",
     "Esc stops the replay or the solver, or hides the hint or the message"},
    {KEY_ACTION_DEAD_SQUARES,
     {'D'},
     "D  E",
     "dead squares on/off; edit the level (on the list too)",
     "D dead squares"},
    {KEY_ACTION_EDIT,
     {'E'},
     NULL,
     NULL,
     "E the level editor (E on the level list too; ? there lists its keys)"},
    {KEY_ACTION_HELP,
     {'?', KEY_F(1)},
     "?  F1  Ctrl-L",
     "this help; Ctrl-L repaints the screen",
     "? or F1 help"},
    {KEY_ACTION_REDRAW, {CONTROL_L}, NULL, NULL, "Ctrl-L repaint"},
    {KEY_ACTION_QUIT, {'q', 'Q'}, "q", "quit (your progress is saved; Q too)", "q quit"},
    {KEY_ACTION_RESIZE, {KEY_RESIZE}, NULL, NULL, NULL},
};
enum { KEY_ROW_COUNT = sizeof key_rows / sizeof key_rows[0] };

key_action keys_action(int key)
{
    for (int i = 0; i < KEY_ROW_COUNT; i++)
        for (const int *k = key_rows[i].keys; *k; k++)
            if (*k == key) return key_rows[i].action;
    return KEY_ACTION_NONE;
}

/* The name of the character `code` past ASCII, in quotes or not: itself where the locale's
 * characters are UTF-8 (those the screen shows) and it takes a column or two, else its
 * code point, "U+00E9" (the C locale shows '?' for any). */
static void character_name(unsigned code, bool quoted, char *out, size_t size)
{
    char bytes[5] = "";
    bool encodable = code <= 0x10FFFF && (code < 0xD800 || code > 0xDFFF);
    if (encodable) bytes[utf8_encode(code, bytes)] = '\0';
    if (encodable && strcmp(nl_langinfo(CODESET), "UTF-8") == 0 && !utf8_is_control(code) &&
        utf8_char_width(code) > 0)
        snprintf(out, size, quoted ? "'%s'" : "%s", bytes);
    else
        snprintf(out, size, "U+%04X", code);
}

void keys_name(int key, char *out, size_t size)
{
    if (key & KEYS_ALT) { /* "Alt-n", "Alt-F5", "Alt-é" */
        int alone = key & ~KEYS_ALT, written = snprintf(out, size, "Alt-");
        if (written < 0 || (size_t)written >= size) return;
        if (alone > ' ' && alone < 127)
            snprintf(out + written, size - (size_t)written, "%c", alone);
        else if (alone & KEYS_CHARACTER)
            character_name((unsigned)(alone & KEYS_CODE_POINT), false, out + written,
                           size - (size_t)written);
        else
            keys_name(alone, out + written, size - (size_t)written);
        return;
    }
    if (key & KEYS_CHARACTER) {
        character_name((unsigned)(key & KEYS_CODE_POINT), true, out, size);
        return;
    }
    if (key >= 0x80 && key <= 0xFF) { /* (curses names it "M-)", the byte less 0x80) */
        snprintf(out, size, "byte %02X", (unsigned)key);
        return;
    }
    /* the names written on the keys (curses calls them IC, NPAGE, ^M, ...), Shift's with them
     * (curses' own codes: SLEFT, SR for Shift-Up, SF for Shift-Down...) */
    static const struct {
        int key;
        const char *name;
    } written[] = {{KEY_IC, "Insert"},
                   {KEY_DC, "Delete"},
                   {KEY_NPAGE, "PgDn"},
                   {KEY_PPAGE, "PgUp"},
                   {KEY_BTAB, "Shift-Tab"},
                   {ESCAPE, "Esc"},
                   {' ', "Space"},
                   {KEY_LEFT, "Left"},
                   {KEY_RIGHT, "Right"},
                   {KEY_UP, "Up"},
                   {KEY_DOWN, "Down"},
                   {KEY_HOME, "Home"},
                   {KEY_END, "End"},
                   {KEY_SLEFT, "Shift-Left"},
                   {KEY_SRIGHT, "Shift-Right"},
                   {KEY_SR, "Shift-Up"},
                   {KEY_SF, "Shift-Down"},
                   {KEY_SHOME, "Shift-Home"},
                   {KEY_SEND, "Shift-End"},
                   {KEY_SPREVIOUS, "Shift-PgUp"},
                   {KEY_SNEXT, "Shift-PgDn"},
                   {KEY_SIC, "Shift-Insert"},
                   {KEY_SDC, "Shift-Delete"},
                   {'\n', "Enter"},
                   {'\r', "Enter"},
                   {KEY_ENTER, "Enter"},
                   {'\t', "Tab"},
                   {KEY_BACKSPACE, "Backspace"},
                   {DELETE, "Backspace"}};
    for (size_t i = 0; i < sizeof written / sizeof written[0]; i++)
        if (written[i].key == key) {
            snprintf(out, size, "%s", written[i].name);
            return;
        }
    const char *name = key > ' ' && key < 127 ? NULL : keyname(key);
    if (key >= KEY_F(1) && key <= KEY_F(63))
        snprintf(out, size, "F%d", key - KEY_F0);
    else if (name && name[0] == '^' && name[1] >= '@' && name[1] <= '_' && !name[2])
        snprintf(out, size, "Ctrl-%c", name[1]); /* ^X, as the help writes Ctrl-L */
    else if (name && keys_modified_name(name, out, size))
        return;
    else if (name)
        snprintf(out, size, "%s", name + (strncmp(name, "KEY_", 4) == 0 ? 4 : 0));
    else
        snprintf(out, size, "'%c'", key);
}

bool keys_modified_name(const char *name, char *out, size_t size)
{
    /* xterm's modifiers, numbered as in its sequences (ESC [ 1 ; 5 D: Ctrl-Left) */
    static const char *const modifiers[] = {"Shift-",      "Alt-",      "Shift-Alt-",     "Ctrl-",
                                            "Shift-Ctrl-", "Alt-Ctrl-", "Shift-Alt-Ctrl-"};
    static const char *const keys[][2] = {
        {"LFT", "Left"}, {"RIT", "Right"}, {"UP", "Up"},    {"DN", "Down"},   {"HOM", "Home"},
        {"END", "End"},  {"NXT", "PgDn"},  {"PRV", "PgUp"}, {"DC", "Delete"}, {"IC", "Insert"}};
    size_t length = strlen(name);
    if (length < 3 || name[0] != 'k' || name[length - 1] < '2' || name[length - 1] > '8')
        return false;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strlen(keys[i][0]) == length - 2 && strncmp(name + 1, keys[i][0], length - 2) == 0) {
            snprintf(out, size, "%s%s", modifiers[name[length - 1] - '2'], keys[i][1]);
            return true;
        }
    return false;
}

const keys_help_line *keys_help(int *count)
{
    /* filled from the table on the first call (the game's one thread) */
    static keys_help_line lines[KEY_ROW_COUNT];
    static int line_count = -1;
    if (line_count < 0) {
        int n = 0;
        for (int i = 0; i < KEY_ROW_COUNT; i++)
            if (key_rows[i].screen_keys)
                lines[n++] = (keys_help_line){key_rows[i].screen_keys, key_rows[i].screen_text};
        line_count = n;
    }
    *count = line_count;
    return lines;
}

void keys_print_usage(FILE *out)
{
    /* "Keys in the game: " and the rows' words, "; " between them, wrapped at 80 columns */
    int column = fprintf(out, "Keys in the game:");
    for (int i = 0; i < KEY_ROW_COUNT; i++) {
        if (!key_rows[i].usage) continue;
        const char *text = key_rows[i].usage;
        bool last_row = true;
        for (int j = i + 1; j < KEY_ROW_COUNT; j++)
            if (key_rows[j].usage) last_row = false;
        while (*text) {
            size_t word = strcspn(text, " ");
            const char *end = word == strlen(text) ? (last_row ? "." : ";") : "";
            int width = (int)word + (int)strlen(end);
            if (column + 1 + width > 79) {
                fputc('\n', out);
                column = 0;
            } else {
                fputc(' ', out);
                column++;
            }
            column += fprintf(out, "%.*s%s", (int)word, text, end);
            text += word;
            while (*text == ' ') text++;
        }
    }
    fputc('\n', out);
}
