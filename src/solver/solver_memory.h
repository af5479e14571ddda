/* solver_memory.h - the solver's memory limit: --memory, or a default from the mode and the
 * machine.
 *
 * Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_MEMORY_H
#define SOKOBAN_SOLVER_MEMORY_H

#include <stddef.h>

#include "solver_options.h"

/* The machine's memory in MiB, or 0 when unknown. */
unsigned long long solver_machine_mib(void);

/* The process's limit of memory in MiB, the smaller of its address-space and data limits
 * (ulimit -v, ulimit -d), or 0 when it has none. */
unsigned long long solver_process_mib(void);

/* The memory limit of a solve by `searches` searches at once: --memory, or by default 1 GiB
 * for each search of the fast mode (so that each search of a race may keep as many states
 * as one alone), at most a quarter of the machine's memory or of the process's limit
 * (solver_process_mib) when that is smaller; for the optimal mode's one table, that quarter
 * (1 GiB when neither is known); at least 64 MiB. */
size_t solver_memory_for(const solver_options *options, int searches);

/* What one search may spend on its table or store: the memory limit less its table of learned
 * corrals (solver_corral_deadlock.h), so that the limit stays the peak. */
size_t solver_search_bytes(const solver_options *options);

/* The most memory the table of two-box deadlocks may take (solver_pairs.h): 16 MiB, and no
 * more than a sixteenth of the memory limit. Every XSokoban board needs less than 400 KiB. */
size_t solver_pairs_bytes(const solver_options *options);
/* The table of the last bounds below (solver_below.h) a search of the optimal mode takes out
 * of solver_search_bytes, or 0 when it goes without. */
size_t solver_below_bytes_for(const solver_options *options);
/* What a member of the optimal mode's team (solver_team.h) takes besides the table they
 * share: its corral table, its table of the last bounds below (solver_below.h) and, unless
 * `pairs_shared` (solver_learned's), the most its pair tables may take. */
size_t solver_member_bytes(const solver_options *options, bool pairs_shared);

#endif
