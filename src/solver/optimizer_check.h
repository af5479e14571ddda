/* optimizer_check.h - what every solution the optimizer keeps goes through (part of the
 * optimizer module, optimizer.h; not for other modules): the steps of a list of pushes with
 * the player walking the shortest way between them, and a replay from the start that checks
 * each step and the end. */
#ifndef SOKOBAN_OPTIMIZER_CHECK_H
#define SOKOBAN_OPTIMIZER_CHECK_H

#include <stdbool.h>

#include "optimizer_search.h"
#include "rules/board.h"
#include "rules/game.h"

/* Replays `steps` from `start`: true when every step is legal, its push marked as one, and
 * the end solved; counts its moves and pushes. */
bool optimizer_replay_solves(const board *b, const position *start, const game_step *steps,
                             int count, int *moves, int *pushes);

/* The steps of `pushes` from `start`, the player walking by shortest paths (malloc'd, *length
 * of them); NULL when one is not possible or out of memory. */
game_step *optimizer_steps_of(const board *b, const position *start, const optimizer_push *pushes,
                              int count, int *length);

#endif
