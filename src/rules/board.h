/* board.h - the rules of Sokoban: the static board, positions, moves and pushes, paths.
 *
 * A board is the unchanging part of a level (walls, goals, the floor the player can ever
 * reach); a position is the changing part (where the player and the boxes stand). Squares
 * are numbered y * width + x. Every square marked BOARD_INSIDE has all four neighbours on
 * the grid, because the level check guarantees the inside is closed by walls, so code that
 * steps from an inside square never needs a bounds check. */
#ifndef SOKOBAN_BOARD_H
#define SOKOBAN_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "level/level.h"

/* The four directions, in LURD order. */
typedef enum direction { DIR_LEFT, DIR_UP, DIR_RIGHT, DIR_DOWN } direction;
enum { DIRECTION_COUNT = 4 };

static inline direction direction_opposite(direction d)
{
    return (direction)((d + 2) & 3);
}

/* 'l', 'u', 'r', 'd' for a move; the uppercase letter for a push. */
char direction_letter(direction d, bool push);

/* Square flags. */
enum {
    BOARD_WALL = 1,   /* '#' */
    BOARD_GOAL = 2,   /* a goal square */
    BOARD_INSIDE = 4, /* floor reachable from the player's start, ignoring boxes */
};

typedef struct board {
    int width, height;
    int size;       /* width * height */
    uint8_t *flags; /* size entries of BOARD_* flags; outside floor has none */
    int goal_count;
    int *goals;                 /* the goal squares, in square order */
    int delta[DIRECTION_COUNT]; /* square offset of one step in each direction */
} board;

typedef struct position {
    int player; /* the player's square */
    int box_count;
    uint8_t *boxes; /* size entries: 1 where a box stands, else 0 */
} position;

/* Builds the board and the start position of a checked level. Returns false only when
 * out of memory. */
bool board_from_level(const level *level, board *board, position *start);
void board_free(board *board);

bool position_init(position *position, const board *board); /* empty: no boxes */
bool position_copy(position *to, const position *from, const board *board);
void position_free(position *position);
bool position_equal(const position *a, const position *b, const board *board);

static inline bool board_is_wall(const board *b, int square)
{
    return b->flags[square] & BOARD_WALL;
}
static inline bool board_is_goal(const board *b, int square)
{
    return b->flags[square] & BOARD_GOAL;
}
static inline bool board_is_inside(const board *b, int square)
{
    return b->flags[square] & BOARD_INSIDE;
}
static inline int board_neighbour(const board *b, int square, direction d)
{
    return square + b->delta[d];
}
static inline int board_x(const board *b, int square)
{
    return square % b->width;
}
static inline int board_y(const board *b, int square)
{
    return square / b->width;
}

/* True when every box stands on a goal. */
bool position_is_solved(const position *position, const board *board);

/* What one step of the player does. */
typedef enum step_result {
    STEP_BLOCKED = 0, /* wall, or a box that cannot move: nothing changed */
    STEP_MOVED,       /* the player walked */
    STEP_PUSHED,      /* the player walked and pushed a box one square */
} step_result;

/* What a step in direction d would do, without doing it. */
step_result board_try_step(const board *board, const position *position, direction d);

/* Makes the step (if not blocked) and says what it did. */
step_result board_step(const board *board, position *position, direction d);

/* Undoes a step made in direction d that had the given result. */
void board_unstep(const board *board, position *position, direction d, step_result result);

/* Shortest walk (no pushes) from the player's square to `target`, by breadth-first search.
 * Writes up to `capacity` directions into `path` and returns the walk's length, 0 when
 * the player is already there, or -1 when `target` cannot be reached without pushing. */
int board_path(const board *board, const position *position, int target, direction *path,
               int capacity);

/* Marks in `reach` (size bytes) every square the player can walk to without pushing.
 * Returns the number of squares marked. */
int board_reachable(const board *board, const position *position, uint8_t *reach);

/* Writes the position as XSB rows (like level_to_text's map). Returns a string to free(). */
char *position_to_text(const board *board, const position *position);

#endif
