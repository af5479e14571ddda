/* solver_team.h - the optimal mode on several threads: one IDA* (ida.h's team), a search on
 * each thread with a domain of its own, over one transposition table they share
 * (solver_table_share). An iteration runs on one thread until it passes
 * SOLVER_TEAM_PARALLEL_AFTER nodes (about 0.1 s); it is then given up and searched again from the
 * root by every thread, each in the order one search takes, and so are the iterations after
 * it; the table leaves to a thread what another has searched, and what another is still below
 * is deferred to the end of the list and left to it. The push counts stay optimal: an iteration
 * ends only when every thread has ended it (docs/SOLVER.md, section 6).
 *
 * Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_TEAM_H
#define SOKOBAN_SOLVER_TEAM_H

#include <stddef.h>

#include "solver_options.h"

enum { SOLVER_TEAM_PARALLEL_AFTER = 100000 };

/* The threads of the optimal mode: --threads, else one a core, at most IDA_TEAM_MOST (a
 * team's most) either way (XSokoban 5 on two: 82 to 86 million nodes in 8 runs of 9 under
 * load, where one thread searches 82 million; docs/SOLVER.md, section 6b). */
int solver_team_size(const solver_options *options);
/* The same for `threads` asked (0: none) on a machine of `cores`. */
int solver_team_size_for(int threads, int cores);

/* The team for `options` within its memory limit (--memory is the peak): the shared table's
 * bytes in *table_bytes, the memory limit less what every member takes besides
 * (solver_member_bytes; pair tables not counted when `pairs_shared`), as one search alone
 * takes its table less its below table; the members fewer than solver_team_size when theirs
 * would take more than half. Less than 2: one search alone instead. */
int solver_team_fit(const solver_options *options, bool pairs_shared, size_t *table_bytes);

/* Runs one member: the whole search of the level, with `options` naming the team, the member
 * (options->team_member) and the shared table. */
typedef void (*solver_team_member)(void *argument, const solver_options *options);

/* Runs `size` members (at least 2) over one table of at most `table_bytes`, each on a thread
 * of its own but the first: the member whose result holds the solution, or -1. False in
 * *ran when nothing could be set up (out of memory; then nothing ran). */
int solver_team_run(int size, const solver_options *options, size_t table_bytes,
                    solver_team_member run, void *argument, bool *ran);

#endif
