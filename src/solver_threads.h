/* solver_threads.h - several searches on one level at once; the first answer wins.
 *
 * Festival runs its strategies side by side on all cores. Here each thread runs one strategy
 * (solver.c picks them: the fast mode with different packing orders) with its share of the
 * memory, and the threads share what every strategy can use at once: the answer. When one
 * of them solves the level or proves it unsolvable, the others are cancelled; the caller's
 * cancel flag reaches them all within a few milliseconds. Knows nothing of Sokoban: a
 * strategy is a callback. Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_THREADS_H
#define SOKOBAN_SOLVER_THREADS_H

#include "solver.h"

/* One strategy: solves with `options` (the caller's, but with the race's own cancel flag and,
 * but for index 0, no progress callback) into `result`. */
typedef void solver_thread_run(void *argument, int index, const solver_options *options,
                               solver_result *result);

/* The number of cores online (at least 1). */
int solver_threads_cores(void);

/* Runs run(argument, i, ...) for i = 0 .. count - 1 in threads of their own, at once. The
 * first to answer "solved" or "unsolvable" wins and the others are cancelled; its result is
 * put in `result` (nodes summed over all). Without such an answer: "cancelled" when the
 * caller's flag was set, else "limit" when any run reached a limit, else the first run's
 * status. When a thread cannot be started the race goes on with those that could (at
 * least run 0, in the caller's thread). Returns result->status. */
solver_status solver_threads_race(int count, const solver_options *options,
                                  solver_thread_run *run, void *argument, solver_result *result);

#endif
