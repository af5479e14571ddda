/* editor.h - the level editor screen: a level drawn with keys and the mouse, checked at every
 * edit, test-played and solved in place, saved into a collection file of the player's own.
 *
 * The level and its edits are level_edit.h's (no curses there); this screen adds the cursor
 * and the brush, the mouse, the line editing of the title, author, comment and file name, the
 * dead squares of the level as drawn (deadlock.h on the checked level), a test play on a play
 * state of its own (play.h, drawn by draw.c, saving nothing), and the solver on a worker thread
 * of its own (editor_solve.h). Drawing is editor_draw.c's. Sits beside the other screens, above
 * play.h and assist.h. */
#ifndef SOKOBAN_TUI_EDITOR_H
#define SOKOBAN_TUI_EDITOR_H

#include <stdbool.h>
#include <stddef.h>

#include "level/level_draft.h"
#include "level/level_edit.h"
#include "rules/deadlock.h"
#include "assist.h"
#include "collections.h"
#include "draw.h"
#include "editor_solve.h"
#include "play.h"
#include "typing.h"

/* What the keys go to. */
typedef enum editor_mode {
    EDITOR_DRAWING,
    EDITOR_TYPING,  /* a line of text: the title, author, comment or file name */
    EDITOR_TESTING, /* the level test-played */
    EDITOR_CONFIRM, /* a yes/no question: leave or start anew without saving */
    EDITOR_DRAFT,   /* a draft kept of this level is offered: Enter restores, Esc discards */
} editor_mode;

/* The line being typed and what it is for. */
typedef enum editor_field {
    EDITOR_FIELD_TITLE,
    EDITOR_FIELD_AUTHOR,
    EDITOR_FIELD_COMMENT,
    EDITOR_FIELD_FILE,
} editor_field;

/* The level as the checker and the dead-square analysis see it, renewed after each edit. */
typedef struct editor_check {
    unsigned long changes; /* level_edit.changes when it was made */
    bool playable;
    char problem[200]; /* what is wrong, when not playable */
    edit_counts counts;
    collection checked; /* the level as read back (count 0 when nothing is drawn) */
    bool dead_ready;    /* board, start and dead hold the playable level's */
    board board;
    position start;
    deadlock_table dead;
    int dead_boxes;     /* boxes on dead squares */
    int first_dead_box; /* canvas square of one of them, or -1 */
} editor_check;

/* The editor's view of the canvas: which canvas squares are shown where. */
typedef struct editor_layout {
    int top, left, cell_width;
    int origin_x, origin_y; /* the first canvas square shown */
    int shown_width, shown_height;
} editor_layout;

typedef struct editor {
    bool open;
    editor_mode mode;
    level_edit edit;
    edit_piece brush;                    /* what the mouse paints */
    bool dragging;                       /* button 1 is down: what it paints is one undo step */
    int line_start;                      /* the column Enter takes the cursor back to */
    int drag_last;                       /* the square the drag painted last */
    unsigned long saved_changes;         /* edit.changes when last saved (or opened) */
    char *saved_text;                    /* level_edit_text() then (NULL: nothing drawn) */
    char draft_key[LEVEL_DRAFT_KEY_MAX]; /* whose draft it keeps and offers (level_draft.h) */
    level_edit draft;                    /* EDITOR_DRAFT: the draft offered */
    char *file_name;    /* the file of the player's own it is saved into, or NULL */
    int replace_number; /* its level that saving writes over (0: saving adds one) */
    editor_check check;
    editor_layout layout;
    bool show_keys; /* ? lists the keys */
    bool show_dead; /* D: the dead squares of the level as drawn */

    editor_field field; /* EDITOR_TYPING: which line */
    char typed[512];    /* whole UTF-8 characters */
    typing begun;       /* the bytes of a character begun */
    int confirm;        /* EDITOR_CONFIRM: the key that asked ('q' leave, 'n' a new level) */

    /* Test play: a play state of one level, nothing saved. */
    play test;
    assist test_assist;
    view test_view;

    editor_solve solve;

    char message[300];
    play_message_kind message_kind;
    unsigned long saved_count;   /* levels saved since the editor was entered */
    char saved_path[4096 + 256]; /* the file saved into last */
    view_screen back_to;         /* the screen it was entered from */
    unsigned long old_mouse;     /* the game's mouse mask, given back on leaving */
} editor;

/* Opens the editor on `from` (NULL: a new, empty level). False when out of memory. */
bool editor_open(editor *e, const level *from, bool utf8);

/* Enters the editor from the game's screen v->screen: opens it on `from` (NULL: a new
 * level), stops the game's solver thread meanwhile (S in the editor has a thread of its own,
 * with the budget of the game's S), and has the mouse report drags. False, said on the
 * game's message line, when out of memory. */
bool editor_enter(editor *e, const level *from, play *p, assist *a, view *v);

/* Back to the screen the editor was entered from; the game's solver takes up the position
 * in play again. When levels were saved, the collection in play they went into and the
 * library are read again. */
void editor_leave(editor *e, play *p, assist *a, view *v, collections_screen *library);

/* What a key leads to. */
typedef enum editor_outcome {
    EDITOR_STAY,
    EDITOR_LEAVE, /* back to the screen the editor was opened from */
} editor_outcome;

editor_outcome editor_key(editor *e, const view *v, int key);

/* True when w saves the level under the file name `name` (as typed) over the level itself:
 * the name makes the file it came from or was saved into; false when it is added to a file. */
bool editor_saves_over(const editor *e, const char *name);

/* Takes the solver's results; `woke` when its wake fd was readable. */
void editor_poll(editor *e, bool woke);

/* How long the main loop may sleep for the editor (the spinner), or -1. */
int editor_timeout_ms(const editor *e);

/* The solver thread's wake fd, or -1. */
int editor_wake_fd(const editor *e);

/* Drafts (editor_draft.c): offers the draft of e->draft_key when one was kept (the mode is
 * then EDITOR_DRAFT); takes the key answering the offer; keeps the drawing as a draft when it
 * differs from the level as saved, before the game ends without leaving the editor (a
 * signal, a closed terminal): then true with one line for stderr in `note`. */
void editor_draft_offer(editor *e);
void editor_draft_key(editor *e, int key);
bool editor_draft_keep(editor *e, char *note, size_t size);

/* Draws the editor (editor_draw.c). */
void editor_draw(editor *e, view *v);

void editor_close(editor *e);

#endif
