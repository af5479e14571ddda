/* solver_fast.h - the solver's fast mode: a feature-space search over push states.
 *
 * IDA* keeps almost nothing in memory and pays for it by searching again and again; with an
 * inadmissible bound it wanders. The fast mode instead keeps every state it has seen (a
 * hash set, bounded by the memory budget) and never looks at a state twice. Which open state
 * it takes next follows Shoham and Schaeffer's FESS (the Festival solver, 2020): every state
 * falls in a cell of a feature space (boxes on goals x regions of free floor), the search
 * visits the non-empty cells in turn, and in each takes the state reached with the fewest
 * pushes that no advisor asked for (packing a box in packing order, joining regions,
 * pushing aside the box in the way), ties going to the lower matching bound. With the
 * features turned off (SOLVER_NO_FEATURES) it is a weighted best-first search, f = g + 5h.
 * Once it has looked at search->restart_after nodes, it hands a state it is about to expand,
 * now and then, to search->restart (solver.c), which searches afresh from there with a budget
 * of its own (search->restart_budget nodes); the search then takes as many nodes as that
 * restart took before the next. From a state along the way the level's analysis (the packing
 * order above all) starts again, and a search from there often ends far sooner than the one
 * still going (docs/SOLVER.md, "Restarts"). Each call numbers its restarts from 1 and decides
 * each one's kind: every search->restart_box_moves_every-th has the advisors over whole box
 * moves; on a start whose floor falls into more regions than the feature space tells apart,
 * the first of those goes from the search's start instead (search->restart_from_start):
 * another strategy from the beginning, the search's own states kept for after it.
 * Solutions are not push-optimal; "unsolvable" is still a proof: only deadlocks and pushes
 * that can wait (PI-corrals) are left out, every single push is still searched, and solver.c
 * repeats a search that used goal-room macros without them before it says so. It moves
 * through the same Sokoban domain as IDA* (solver_domain.h). Part of the solver (solver.h);
 * internal to it. */
#ifndef SOKOBAN_SOLVER_FAST_H
#define SOKOBAN_SOLVER_FAST_H

#include <stdbool.h>
#include <stddef.h>

#include "ida.h"
#include "solver_domain.h"

/* Searches from the search's current state with the limits of the IDA* engine, in at most
 * `memory_bytes` of states, by feature-space search when `features`, else weighted
 * best-first. Fills `result` like ida_search() does; IDA_LIMIT also when the
 * memory is full. The search's state is left undefined. */
ida_status solver_fast_search(solver_search *search, const ida_limits *limits, size_t memory_bytes,
                              bool features, double backward_share, ida_result *result);

#endif
