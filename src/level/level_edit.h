/* level_edit.h - a level being drawn in the editor: the grid, the pieces put on it, undo and
 * redo of edits, the eight rotations and mirrors, normalising, and what is wrong with it.
 *
 * The level lies on a canvas twice the largest level a side, so that it can grow in every
 * direction from where it stands; the level is the smallest rectangle round what is drawn
 * (outside floor is nothing), so it grows and shrinks as it is drawn, and an edit that would
 * make it larger than LEVEL_MAX_SIDE a side is refused. Pieces stack as in JSoko and YASC: a
 * box put on a goal is a box on a goal, a goal put under the player keeps the player; there
 * is one player, so putting one moves him. Every edit is one undo step (a mouse drag is one
 * step however many squares it paints).
 *
 * Whether the level can be played is the level checker's answer (level.h), asked on the XSB
 * text of the drawn map, so the editor and the game can never disagree about a level. Knows
 * nothing of the rules of play or the screen. */
#ifndef SOKOBAN_LEVEL_EDIT_H
#define SOKOBAN_LEVEL_EDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "level.h"

enum { EDIT_CANVAS_SIDE = 2 * LEVEL_MAX_SIDE };

/* What a key or the mouse puts on a square: the XSB characters, and erase (the top piece
 * off: the box or the player first, then the goal or the wall). */
typedef enum edit_piece {
    EDIT_WALL = LEVEL_WALL,
    EDIT_FLOOR = LEVEL_FLOOR,
    EDIT_GOAL = LEVEL_GOAL,
    EDIT_BOX = LEVEL_BOX,
    EDIT_BOX_ON_GOAL = LEVEL_BOX_ON_GOAL,
    EDIT_PLAYER = LEVEL_PLAYER,
    EDIT_PLAYER_ON_GOAL = LEVEL_PLAYER_ON_GOAL,
    EDIT_ERASE = 'x',
} edit_piece;

/* One square changed by an edit. */
typedef struct edit_change {
    int square; /* y * EDIT_CANVAS_SIDE + x on the canvas */
    char before, after;
} edit_change;

/* One undo step: the squares it changed, and the cursor before and after. */
typedef struct edit_step {
    edit_change *changes;
    int count, capacity;
    int cursor_before, cursor_after;
} edit_step;

typedef struct level_edit {
    char *canvas; /* EDIT_CANVAS_SIDE squared squares, row by row, LEVEL_* characters */
    int cursor;   /* the cursor's canvas square */
    char *title, *author, *comment; /* never NULL */
    edit_step *steps; /* steps[0 .. done) are in effect, steps[done .. count) redoable */
    int done, count, capacity;
    bool grouping;         /* a drag is painting: its squares join one step */
    bool group_started;    /* ... which is steps[done - 1] */
    unsigned long changes; /* counts every change of the squares, for callers' caches */
} level_edit;

/* An empty level, the cursor in the middle of the canvas. False when out of memory. */
bool level_edit_init(level_edit *edit);

/* The level `from` (checked or not: its squares may be NULL for a level that could not be
 * read, which then starts empty), placed in the middle of the canvas with the cursor on its
 * player (or its first square), and its title, author and comment. */
bool level_edit_init_from(level_edit *edit, const level *from);

void level_edit_free(level_edit *edit);

/* Canvas squares and coordinates. */
static inline int level_edit_square(int x, int y)
{
    return y * EDIT_CANVAS_SIDE + x;
}
static inline char level_edit_at(const level_edit *edit, int x, int y)
{
    return edit->canvas[level_edit_square(x, y)];
}

/* The level's rectangle on the canvas; width and height 0 when nothing is drawn. */
typedef struct edit_bounds {
    int x, y, width, height;
} edit_bounds;
edit_bounds level_edit_bounds(const level_edit *edit);

/* What an edit did. */
typedef enum edit_result {
    EDIT_DONE,      /* the level changed */
    EDIT_UNCHANGED, /* it was so already (or nothing to undo or redo) */
    EDIT_TOO_LARGE, /* refused: the level would be larger than LEVEL_MAX_SIDE a side */
} edit_result;

/* Puts `piece` on canvas square (x, y) (the cursor stays where it is). */
edit_result level_edit_put(level_edit *edit, int x, int y, edit_piece piece);

/* A mouse drag: the squares painted between begin and end are one undo step. */
void level_edit_begin_group(level_edit *edit);
void level_edit_end_group(level_edit *edit);

/* Undoes or redoes one step (the cursor goes back where it was). */
edit_result level_edit_undo(level_edit *edit);
edit_result level_edit_redo(level_edit *edit);

/* Turns the level a quarter clockwise (`quarters` times), then mirrors it left to right
 * when `mirror`; the level keeps its top left corner, the cursor turns with it. Eight
 * orientations in all, as YASC offers. One undo step; EDIT_UNCHANGED, with none, when the
 * level is the same so (a symmetric one) or empty. */
edit_result level_edit_transform(level_edit *edit, int quarters, bool mirror);

/* Normalises: walls that touch no square the player can reach (diagonals count) go, as does
 * everything else outside the walls; the level is then its smallest rectangle. Needs a player
 * in closed walls (EDIT_UNCHANGED otherwise). One undo step. */
edit_result level_edit_normalise(level_edit *edit);

/* Counts of what is drawn. */
typedef struct edit_counts {
    int players, boxes, goals, walls;
} edit_counts;
edit_counts level_edit_count(const level_edit *edit);

/* The level as the game would read it: the level checker (level.h) on the drawn map. Fills
 * `out` with a collection of one level, named `name`, with the title, author and comment
 * (collection_free() it); returns true when that level can be played. Otherwise `out` is
 * left empty and why goes into `problem` ("no player", "2 boxes but 1 goal", "open wall at row 3:
 * the player can walk off the board", "box at row 2, column 5 is walled off from the player",
 * "nothing drawn yet"). False with `out` empty when out of memory (`problem` says so). */
bool level_edit_check(const level_edit *edit, const char *name, collection *out, char *problem,
                      size_t size);

/* The level as text for a collection file: the map rows, then Title:, Author: and a
 * Comment: block when they are set, then a blank line. Returns a string to free(), or NULL
 * when out of memory or nothing is drawn. */
char *level_edit_text(const level_edit *edit);

/* Replaces the title, author or comment (copies `text`). False when out of memory. */
bool level_edit_set_text(char **field, const char *text);

#endif
