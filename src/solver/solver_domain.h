/* solver_domain.h - Sokoban as a search domain (the interface of ida.h): states, pushes,
 * pruning. Both modes search through it: IDA* (the optimal mode) and the fast mode's
 * feature-space search (solver_fast.h).
 *
 * A state is the set of box squares plus the region the player can walk to, named by its
 * top-left square, so positions that differ only by where the player stands in one region
 * are one state. A move is a push: a box square and a direction; it costs 1, or the length
 * of the tunnel or goal-room macro it starts (solver_macro.h), so the engine's cost is the
 * number of pushes. The walking in between is filled in by solver.c.
 * Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_DOMAIN_H
#define SOKOBAN_SOLVER_DOMAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "rules/board.h"
#include "rules/deadlock.h"
#include "ida.h"
#include "solver_bound.h"
#include "solver_macro.h"
#include "solver_options.h"
#include "solver_state.h"
#include "solver_table.h"

/* Sets up the search from `start`. False when out of memory. */
bool solver_search_init(solver_search *search, const board *board, const position *start,
                        const solver_distances *distances, const deadlock_table *deadlocks,
                        solver_table *table, solver_goal_room *room, const solver_options *options);
/* Makes the search learn its deadlocks (its corrals, its stuck boxes' patterns) in
 * `learned`, shared with the other searches of the board before, beside and after it,
 * instead of in tables of its own; `learned` must outlive the search. What is off stays
 * off. */
struct solver_learned;
void solver_search_share_learned(solver_search *search, struct solver_learned *learned);
void solver_search_free(solver_search *search);
/* Makes the search, and its corral deadlocks' small searches, prune by the two-box
 * deadlocks of `pairs` (NULL: none), and the search by the three-box ones of `triples`
 * (NULL: none; made from `pairs`); both must outlive the search. */
struct solver_pairs;
struct solver_triples;
void solver_search_use_pairs(solver_search *search, const struct solver_pairs *pairs,
                             const struct solver_triples *triples);

/* Puts the search in the position with the boxes on `squares` (box_count of them) and the
 * player on `player`, for searches that jump between states (solver_fast.c). Call
 * solver_search_bound() next: it sets up the matching that make() repairs. */
void solver_search_set(solver_search *search, const uint16_t *squares, int player);
/* The lower bound of the current state, computed from scratch (IDA_INFINITY: dead). */
int solver_search_bound(solver_search *search);
/* The current state's key: the boxes and the player's region. */
uint64_t solver_search_key(solver_search *search);
bool solver_search_is_goal(const solver_search *search);
/* True when the box on `square` and some other box, the player where he stands, are a
 * two-box deadlock (solver_pairs.h): the state is lost. */
bool solver_search_pair_lost(const solver_search *search, int square);
/* True when the current state, a position a search starts from, is proven lost by what
 * the pushes check only for the box they move: a box frozen off a goal, in a block of any
 * size (search->start_freeze: not with SOLVER_NO_DEADLOCKS, as the pushes' check), every
 * box's two- and three-box deadlocks, and the corrals
 * (solver_corral_deadlock_each_touching()). */
bool solver_search_start_lost(solver_search *search);
/* True when the current state (bound `h`, key `key`) ends the search: solved, or known to
 * be solvable (search->known). */
static inline bool solver_search_reached(const solver_search *search, int h, uint64_t key)
{
    return (h == 0 && solver_search_is_goal(search)) ||
           (search->known && search->known(search->known_argument, key));
}

/* The engine's view of the search. */
void solver_search_domain(solver_search *search, ida_domain *domain);

/* A move packs the square of the box pushed and the direction. A path may mark a push
 * SOLVER_MOVE_SINGLE: one push as it stands, never lengthened into a tunnel or goal-room
 * macro when the walking is filled in (the pushes of the fast mode's packing macros). */
enum { SOLVER_MOVE_SINGLE = 1u << 31 };
static inline ida_move solver_move(int square, direction d)
{
    return (ida_move)square * 4u + (ida_move)d;
}
static inline int solver_move_square(ida_move move)
{
    return (int)((move & ~(ida_move)SOLVER_MOVE_SINGLE) / 4u);
}
static inline direction solver_move_direction(ida_move move)
{
    return (direction)(move % 4u);
}

#endif
