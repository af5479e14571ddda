/* keys.c - the game's key map. */
#include <curses.h>

#include "keys.h"

enum { CONTROL_L = 'L' & 0x1f, CONTROL_R = 'R' & 0x1f, ESCAPE = 27, DELETE = 127, CONTROL_H = 8 };

key_action keys_action(int key)
{
    switch (key) {
    case KEY_LEFT:
    case 'h':
    case 'a':
    case 'A':
        return KEY_ACTION_LEFT;
    case KEY_UP:
    case 'k':
    case 'w':
    case 'K':
    case 'W':
        return KEY_ACTION_UP;
    case KEY_RIGHT:
    case 'l':
    case 'd':
        return KEY_ACTION_RIGHT;
    case KEY_DOWN:
    case 'j':
    case 's':
    case 'J':
        return KEY_ACTION_DOWN;
    case 'z':
    case 'Z':
        return KEY_ACTION_UNDO_PUSH;
    case 'x':
    case 'X':
        return KEY_ACTION_REDO_PUSH;
    case KEY_HOME:
        return KEY_ACTION_TO_START;
    case KEY_END:
        return KEY_ACTION_TO_END;
    case ',':
        return KEY_ACTION_STEP_BACK;
    case 'm':
        return KEY_ACTION_SNAPSHOT_SAVE;
    case '\'':
        return KEY_ACTION_SNAPSHOTS;
    case 'i':
        return KEY_ACTION_STATISTICS;
    case 'u':
    case KEY_BACKSPACE:
    case DELETE:
    case CONTROL_H:
        return KEY_ACTION_UNDO;
    case 'U':
    case CONTROL_R:
        return KEY_ACTION_REDO;
    case 'r':
        return KEY_ACTION_RESTART;
    case 'n':
        return KEY_ACTION_NEXT_LEVEL;
    case 'p':
        return KEY_ACTION_PREVIOUS_LEVEL;
    case 'N':
        return KEY_ACTION_NEXT_UNSOLVED;
    case 'P':
        return KEY_ACTION_PREVIOUS_UNSOLVED;
    case 'L':
    case '\t':
        return KEY_ACTION_LEVEL_LIST;
    case 'H':
        return KEY_ACTION_HINT;
    case 'S':
        return KEY_ACTION_SOLVE;
    case 'B':
        return KEY_ACTION_REPLAY_BEST;
    case 'D':
        return KEY_ACTION_DEAD_SQUARES;
    case '?':
    case KEY_F(1):
        return KEY_ACTION_HELP;
    case 'q':
    case 'Q':
        return KEY_ACTION_QUIT;
    case '\n':
    case '\r':
    case KEY_ENTER:
        return KEY_ACTION_ENTER;
    case ESCAPE:
        return KEY_ACTION_ESCAPE;
    case ' ':
        return KEY_ACTION_PAUSE;
    case '.':
        return KEY_ACTION_STEP;
    case '+':
    case '=':
        return KEY_ACTION_FASTER;
    case '-':
    case '_':
        return KEY_ACTION_SLOWER;
    case KEY_MOUSE:
        return KEY_ACTION_MOUSE;
    case KEY_RESIZE:
        return KEY_ACTION_RESIZE;
    case CONTROL_L:
        return KEY_ACTION_REDRAW;
    default:
        return KEY_ACTION_NONE;
    }
}

static const keys_help_line help_lines[] = {
    {"arrows hjkl wasd", "move (walking into a box pushes it); W A J K too"},
    {"mouse click", "walk to the square by the shortest path"},
    {"u  U", "undo / redo a move (also Backspace / Ctrl-R)"},
    {"z  x", "undo / redo by push"},
    {"Home  End", "undo to the start / redo to the end"},
    {"r", "restart the level (asks when moves were made)"},
    {"m  '", "save a named snapshot / list them (Enter restores)"},
    {"i", "statistics; there e exports, i imports solutions"},
    {"n p  N P", "next / previous level; the same, unsolved only"},
    {"L  Tab", "level list: solved marks, best scores; Enter jumps"},
    {"H", "hint: the solver's next push; H or Enter again makes it"},
    {"S", "solve from here and replay the solution"},
    {"B", "replay your best saved solution of the level"},
    {"space . , End + -", "replay: pause, step, back, to the end, speed"},
    {"Esc", "stop the replay or the solver"},
    {"D", "show or hide the dead squares"},
    {"?", "this help"},
    {"Ctrl-L", "repaint the screen"},
    {"q", "quit (your progress is saved)"},
};

const keys_help_line *keys_help(int *count)
{
    *count = (int)(sizeof help_lines / sizeof help_lines[0]);
    return help_lines;
}
