/* solver_reach.h - the player's reach in a search's state: the squares he can walk to, and
 * the least of them, which names his region (the "normalized" player square of the Sokoban
 * wiki). A flood from his square; after a push, the reach of the state pushed from changed
 * by the two squares the box left and took, where the floor round them shows it (most pushes
 * of a fast search's expansion are made from one state, and a flood is the most of a push's
 * work). Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_REACH_H
#define SOKOBAN_SOLVER_REACH_H

#include <stdbool.h>

#include "solver_state.h"

/* Floods the reach of the search's state from the player's square: s->region, the rows'
 * reach (or s->reach stamped), s->reach_valid. */
void solver_reach_flood(solver_search *search);

/* True when the reach kept (pushed_from_reach, over rows) is the state's, the one its
 * pushes start from: kept now when the reach is valid (the first push from a state), else
 * kept before at the state's depth with its boxes, the player standing in it. */
bool solver_reach_keep(solver_search *search);

/* The reach kept (solver_reach_keep()) when it is that of the state before the push that
 * took a box from `from` to `to`, the player standing on `before` then; else NULL. */
const uint64_t *solver_reach_before_push(const solver_search *search, int from, int to, int before);

/* The reach after one push of the box from `from` to its neighbour `to` (made: the player on
 * `from`) from the state whose reach is kept, without a flood where the floor round the two
 * squares shows it (solver_rows_reach_after_move()); false, nothing changed, else. */
bool solver_reach_after_push(solver_search *search, int from, int to);

#endif
