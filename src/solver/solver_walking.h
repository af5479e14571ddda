/* solver_walking.h - from a search's pushes to the steps of a solution, and back: the
 * player's walking filled in between the pushes (tunnel and goal-room macros worked out
 * again by the rules that made them), and checked steps made single pushes. Part of the
 * solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_WALKING_H
#define SOKOBAN_SOLVER_WALKING_H

#include <stdbool.h>

#include "ida.h"
#include "rules/board.h"
#include "rules/game.h"
#include "solver_state.h"

/* Steps as they are written, growing. */
typedef struct solver_step_list {
    game_step *steps;
    int count, capacity;
} solver_step_list;

/* Plays the pushes of `path` from `start`, walking the player by shortest paths to the
 * square behind each box (board_path), and writes every step to `list`. A move of the
 * search may be a tunnel or goal-room macro of several pushes; they are worked out again
 * here by the same rules from the same positions. False when a push cannot be made (a bug)
 * or out of memory. */
bool solver_fill_in_walking(const board *b, const position *start, const solver_search *search,
                            const ida_move *path, int length, solver_step_list *list);

/* The pushes of checked steps from the player's square `player`, into pushes->path, as
 * single pushes (SOLVER_MOVE_SINGLE: no macro lengthens them when they are replayed from
 * another search's start); pushes->cost their count. False when out of memory. */
bool solver_pushes_of_steps(const board *b, int player, const game_step *steps, int count,
                            ida_result *pushes);

#endif
