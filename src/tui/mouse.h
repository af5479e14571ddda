/* mouse.h - the mouse on the play screen: a click walks to a square; a click on a box picks
 * it (the squares it can be pushed to are marked) and the next click pushes it there; a drag
 * from a box to a square does both at once.
 *
 * It turns button presses and releases into the play state's actions (play.h) and keeps
 * only where the button went down. On the lists the wheel scrolls and a click selects a row
 * (tui.c), a click on the row selected opening it; on the help the wheel scrolls. Every screen
 * takes the events that came with one KEY_MOUSE by mouse_take(). */
#ifndef SOKOBAN_TUI_MOUSE_H
#define SOKOBAN_TUI_MOUSE_H

#include <curses.h>
#include <stdbool.h>

#include "draw.h"
#include "play.h"

typedef struct mouse {
    int pressed;         /* the square the button went down on, -1 when none */
    bool pressed_picked; /* that square held the box already picked */
} mouse;

/* The mouse mask the game asks curses for. */
unsigned long mouse_mask(void);

/* The most mouse events mouse_take() takes at once. */
enum { MOUSE_EVENTS_MOST = 16 };

/* Takes every mouse event curses has after KEY_MOUSE into `events` (room for
 * MOUSE_EVENTS_MOST), oldest first, and returns their number. Reports that one read finds
 * together (a press and the motion after it, as a quick drag or a busy machine brings them)
 * come with one KEY_MOUSE, and getmouse() gives them newest first, one a call: a screen that
 * took one would lose the press of the drag. */
int mouse_take(MEVENT *events);

/* Reads the mouse events curses has (after KEY_MOUSE) and acts on each, oldest first. */
void mouse_event(mouse *m, const view *v, play *p);

#endif
