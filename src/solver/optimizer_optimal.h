/* optimizer_optimal.h - the optimal mode's turn in the optimizer, by pushes (part of the
 * optimizer module, optimizer.h; not for other modules): the optimal mode's IDA* (solver.h)
 * starts an iteration at threshold T only when no solution has fewer than T pushes, so it is
 * stopped as soon as its threshold reaches the best's pushes, which it has then proved the
 * fewest; a solution it finds with fewer is checked and taken. */
#ifndef SOKOBAN_OPTIMIZER_OPTIMAL_H
#define SOKOBAN_OPTIMIZER_OPTIMAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "optimizer.h"
#include "rules/board.h"
#include "solver_bound.h"

/* The matching of the start's boxes to the goals (section 5 of docs/SOLVER.md): the pushes
 * no solution can do without; -1 without the distances, when goals and boxes differ, or
 * stopped by `deadline` (on optimizer_clock(); 0: none) or `cancel`. */
int optimizer_start_bound(const board *b, const position *start, const solver_distances *distances,
                          double deadline, const atomic_bool *cancel);

/* The optimal mode from the start with `memory` / 2 bytes, until `deadline` (on
 * optimizer_clock(); 0: none) and within `nodes` (0: none), stopped as soon as it proves the
 * best's pushes (result->pushes) the fewest (result->pushes_fewest set). True when it found
 * a solution shorter than the best by options->metric (checked, and put in *result);
 * *status is set to CANCELLED when options->cancel was set. */
bool optimizer_optimal_better(const board *b, const position *start, const optimizer_options *o,
                              size_t memory, double deadline, uint64_t nodes,
                              optimizer_result *result, optimizer_status *status);

#endif
