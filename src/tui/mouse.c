/* mouse.c - the mouse on the play screen: walking, and boxes picked and pushed. */
#include <curses.h>

#include "mouse.h"

unsigned long mouse_mask(void)
{
    /* the wheel's notches come as buttons 4 (up) and 5 (down) pressed */
    return BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED;
}

/* The button went down on `square`: a box is picked; another square takes the box picked
 * there, or the player walks there. */
static void press(mouse *m, play *p, int square)
{
    m->pressed = square;
    m->pressed_picked = p->selection.active && p->selection.box == square;
    if (square < 0) return;
    if (p->game.position.boxes[square]) {
        if (!m->pressed_picked) play_select_box(p, square);
    } else if (p->selection.active) {
        play_move_box(p, p->selection.box, square);
        m->pressed = -1;
    } else {
        play_walk_to(p, square);
    }
}

/* The button came up on `square`: after a drag from a box, the box goes there; a click on
 * the box already picked lets it go. */
static void release(mouse *m, play *p, int square)
{
    int pressed = m->pressed;
    m->pressed = -1;
    if (pressed < 0 || !p->selection.active || p->selection.box != pressed) return;
    if (square == pressed) {
        if (m->pressed_picked) {
            play_drop_selection(p);
            play_message(p, PLAY_MESSAGE_INFO, "%s", "");
        }
    } else if (square >= 0) {
        play_move_box(p, pressed, square);
    }
}

int mouse_take(MEVENT *events)
{
    MEVENT newest_first[MOUSE_EVENTS_MOST];
    int count = 0;
    while (count < MOUSE_EVENTS_MOST && getmouse(&newest_first[count]) == OK) count++;
    for (int i = 0; i < count; i++) events[i] = newest_first[count - 1 - i];
    return count;
}

void mouse_event(mouse *m, const view *v, play *p)
{
    MEVENT events[MOUSE_EVENTS_MOST];
    int count = mouse_take(events);
    for (int i = 0; i < count; i++) {
        int square = draw_square_at(v, p, events[i].y, events[i].x);
        if (events[i].bstate & BUTTON1_PRESSED) {
            press(m, p, square);
        } else if (events[i].bstate & BUTTON1_RELEASED) {
            release(m, p, square);
        } else if (events[i].bstate & BUTTON1_CLICKED) {
            /* a press and its release read at once (curses makes them a click), or a
             * terminal that reports clicks only */
            press(m, p, square);
            release(m, p, square);
        }
    }
}
