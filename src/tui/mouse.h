/* mouse.h - the mouse on the play screen: a click walks to a square; a click on a box picks
 * it (the squares it can be pushed to are marked) and the next click pushes it there; a drag
 * from a box to a square does both at once.
 *
 * It turns button presses and releases into the play state's actions (play.h) and keeps
 * only where the button went down. On the other screens the wheel scrolls. */
#ifndef SOKOBAN_TUI_MOUSE_H
#define SOKOBAN_TUI_MOUSE_H

#include <stdbool.h>

#include "draw.h"
#include "play.h"

typedef struct mouse {
    int pressed;         /* the square the button went down on, -1 when none */
    bool pressed_picked; /* that square held the box already picked */
} mouse;

/* The mouse mask the game asks curses for. */
unsigned long mouse_mask(void);

/* Reads the mouse event curses has (after KEY_MOUSE) and acts on it. */
void mouse_event(mouse *m, const view *v, play *p);

/* Reads the mouse event curses has (after KEY_MOUSE) on a screen that scrolls: KEY_UP for
 * the wheel turned up, KEY_DOWN for down, 0 for anything else. */
int mouse_wheel_key(void);

#endif
