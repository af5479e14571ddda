/* game.h - a level in play: the position, move and push counts, undo and redo.
 *
 * The history is a list of steps; undo walks back along it and redo forward, and a new
 * step after an undo drops the steps that could have been redone. The rules themselves
 * live in board.h; this module only records what they did. */
#ifndef SOKOBAN_GAME_H
#define SOKOBAN_GAME_H

#include <stdbool.h>

#include "board.h"
#include "level/level.h"

typedef struct game_step {
    direction direction;
    bool push;
    bool joined; /* part of one move with the step before it: undone and redone with it */
} game_step;

typedef struct game {
    const level *level; /* not owned */
    board board;
    position start;
    position position;
    int moves; /* steps taken, pushes included */
    int pushes;
    game_step *history; /* history[0 .. length-1]; the first `moves` are in effect */
    int length;
    int capacity;
} game;

/* Starts the level. Returns false only when out of memory. */
bool game_init(game *game, const level *level);
void game_free(game *game);

/* Takes one step; returns what it did (STEP_BLOCKED changes nothing). */
step_result game_step_in(game *game, direction d);

bool game_undo(game *game);    /* false when at the start */
/* Undo and redo of one move: a step, or the steps game_play_move() joined into one. */
bool game_undo_move(game *game);
bool game_redo_move(game *game);
bool game_redo(game *game);    /* false when nothing to redo */
void game_restart(game *game); /* back to the start; the steps stay redoable */
void game_drop_redo(game *game); /* forgets the steps redo could take */
/* Undo and redo by push (as JSoko and YASC do): the positions that count are the start and
 * those just after each push. game_undo_push() takes back everything since the push before
 * the last (the last push, the moves after it and the moves that led to it); false when at
 * the start. game_redo_push() mirrors it: forward through the next push, and through the
 * moves after it when no push is left to redo; false when nothing is left to redo.
 * game_redo_all() redoes every step (the mirror of game_restart()). */
bool game_undo_push(game *game);
bool game_redo_push(game *game);
void game_redo_all(game *game);

bool game_is_solved(const game *game);

/* Walks to `target` by the shortest path (no pushes). Returns the steps taken, or -1
 * when the square cannot be reached (nothing changes then). */
int game_walk_to(game *game, int target);

/* Plays `count` steps as one move (game_undo_move() takes them back together). False,
 * with nothing changed, when a step is blocked. */
bool game_play_move(game *game, const direction *steps, int count);

/* The same pushes, in the same order, with the player's walk before each one the shortest
 * (a move-optimal walk for the pushes): replays `steps` (count of them) from `from` and
 * writes the new steps into *out (malloc'd, NULL when there are none) and their number into
 * *out_count. The walk after the last push is dropped when the steps end solved, else made
 * the shortest walk to the same square. Never more steps than the input. The pushes are
 * the steps the rules find pushing (a text read without case marks none). False (nothing
 * written) when a step is illegal, or when out of memory. */
bool game_shortest_walks(const board *board, const position *from, const game_step *steps,
                         int count, game_step **out, int *out_count);

/* The steps in effect as a LURD string (uppercase for pushes). Returns a string to free(). */
char *game_lurd(const game *game);

#endif
