/* solver_threads.h - several searches on one level at once; the first answer wins.
 *
 * Festival runs its strategies side by side on all cores. Here each thread runs one
 * strategy (solver.c picks them and keeps their results) and the threads share what every
 * strategy can use at once: the answer. When one run answers (solved, or proved
 * unsolvable), the others are stopped; the caller's cancel flag reaches them all within a
 * few milliseconds. Knows nothing of Sokoban: a strategy is a callback. Part of the solver
 * (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_THREADS_H
#define SOKOBAN_SOLVER_THREADS_H

#include <stdatomic.h>
#include <stdbool.h>

/* One run: searches until done or until `stop` is set; true when it answered. */
typedef bool solver_thread_run(void *argument, int index, const atomic_bool *stop);

/* Lowers the calling thread's priority by `by` niceness steps, so that it takes a small share
 * of a core it shares with others and all of an idle one. On Linux niceness is a thread's
 * own; elsewhere nothing is done (setpriority() would lower the whole process). */
void solver_threads_lower_priority(int by);

/* The number of cores online (at least 1). */
int solver_threads_cores(void);

/* Runs run(argument, i, stop) for i = 0 .. count - 1 at once, each in a thread of its own,
 * when `stagger_seconds` is 0. Otherwise run 0 runs in the calling thread and the others are
 * helpers: they start in threads once it has run that long without an answer, or has
 * returned without one (so that a run that answers sooner is the only one), and run at a
 * lower priority (Linux): a small share of a core they share with run 0, all of an idle one. The
 * first to answer sets `stop` for the others; `cancel` (may be NULL) sets it too, within a few
 * milliseconds, and then no more runs start. Returns how many runs were started (runs 0 .. that -
 * 1; 0 when not even one thread could start, and then nothing ran) and puts the index of the first
 * that answered in *winner, or -1. */
int solver_threads_race(int count, double stagger_seconds, const atomic_bool *cancel,
                        solver_thread_run *run, void *argument, int *winner);

#endif
