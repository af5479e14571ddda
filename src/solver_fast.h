/* solver_fast.h - the solver's fast mode: weighted best-first search over push states.
 *
 * IDA* keeps almost nothing in memory and pays for it by searching again and again; with an
 * inadmissible bound it wanders. The fast mode instead keeps every state it has seen (a
 * hash set, bounded by the memory budget) and always expands the open state with the least
 * g + 5 h (weighted A*, Pohl 1970), so it goes straight for the goals and never looks at a
 * state twice. Solutions are not push-optimal; "unsolvable" is still a proof: only
 * deadlocks and pushes that can wait (PI-corrals) are left out, and solver.c repeats a search
 * that used goal-room macros without them before it says so. It moves through the same
 * Sokoban domain as IDA* (solver_domain.h). Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_FAST_H
#define SOKOBAN_SOLVER_FAST_H

#include <stdbool.h>
#include <stddef.h>

#include "ida.h"
#include "solver_domain.h"

/* Searches from the search's current state with the limits of the IDA* engine, in at most
 * `memory_bytes` of states. Fills `result` like ida_search() does; IDA_LIMIT also when the
 * memory is full. The search's state is left undefined. */
ida_status solver_fast_search(solver_search *search, const ida_limits *limits, size_t memory_bytes,
                              bool features, ida_result *result);

#endif
