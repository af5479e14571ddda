/* solver_corral.h - PI-corral pruning: when the player is shut out of an area that still
 * needs work, search only the pushes into it.
 *
 * A corral is a connected area of free squares the player cannot reach; its barrier is
 * the boxes next to it (the rest of its rim is wall). It is a PI-corral (Damgaard's YASS,
 * described on the Sokoban wiki's Solver page) when, until a barrier box moves, no barrier
 * box can ever be pushed other than into the corral (I), every push into it can be made
 * from where the player stands now (P), and it is not finished (a barrier box off its
 * goal, or a goal inside). Some barrier box must then go into the corral before anything
 * can happen there, and pushes elsewhere can always wait until after that push, so only
 * those pushes need searching: fewest-push solutions survive. A PI-corral with no push at
 * all can never be entered: a deadlock. Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_CORRAL_H
#define SOKOBAN_SOLVER_CORRAL_H

#include <stdbool.h>
#include <stdint.h>

#include "solver_state.h"

/* Looks for PI-corrals in the current state (the player's reach must be computed) and
 * picks the one with the fewest pushes into it. Returns its label, or -1 when there is
 * none. Uses the search's corral work arrays. */
int solver_corral_find(solver_search *search);

/* True when `square` lies in the corral `label` that solver_corral_find() returned. */
static inline bool solver_corral_contains(const solver_search *s, int label, int square)
{
    if (s->use_rows) return solver_rows_has(&s->rows, s->corral_best, square);
    return s->corral_mark[square] == s->corral_stamp && s->corral_id[square] == label;
}

#endif
