/* solver_memory.c - the solver's memory limit (solver_memory.h). */
#include "solver_memory.h"

#include <stdint.h>
#include <sys/resource.h>
#include <unistd.h>

#include "solver_below.h"
#include "solver_corral_deadlock.h"

/* The default for one search of the fast mode: 1 GiB, or a quarter of a smaller machine's
 * memory, or of the process's address-space limit (ulimit -v) when that is smaller (at
 * least 64 MiB). At 256 MiB the fast mode's store filled before 30 s on 24 of
 * the 29 XSokoban levels it missed; at 1 GiB it solves 14 and 87 of them too
 * (docs/BENCHMARKS.md). The optimal mode's one table takes the whole quarter: the table
 * that keeps an iteration's positions decides how long the next one takes (XSokoban 5: 162
 * million nodes with 1 GiB, 83 million with 6 GiB; docs/SOLVER.md, section 6). Pages are
 * taken as they are touched, so an easy level costs no more. */
enum { DEFAULT_MEMORY_MIB = 1024, LEAST_DEFAULT_MEMORY_MIB = 64 };

unsigned long long solver_machine_mib(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return 0;
    return (unsigned long long)pages * (unsigned long long)page >> 20;
}

unsigned long long solver_process_mib(void)
{
    unsigned long long least = 0;
    const int resources[] = {RLIMIT_AS, RLIMIT_DATA};
    for (size_t i = 0; i < sizeof resources / sizeof resources[0]; i++) {
        struct rlimit limit;
        if (getrlimit(resources[i], &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) continue;
        unsigned long long mib = (unsigned long long)limit.rlim_cur >> 20;
        if (least == 0 || mib < least) least = mib;
    }
    return least;
}

/* What the process may have in MiB: the machine's memory or the process's limit, the smaller
 * (0 when neither is known). */
static unsigned long long usable_mib(void)
{
    unsigned long long machine = solver_machine_mib(), process = solver_process_mib();
    return process && (!machine || process < machine) ? process : machine;
}

size_t solver_memory_for(const solver_options *options, int searches)
{
    if (options->memory_bytes > 0) return options->memory_bytes;
    unsigned long long mib = (unsigned long long)DEFAULT_MEMORY_MIB * (unsigned long long)searches,
                       quarter = usable_mib() / 4;
    if (options->mode == SOLVER_OPTIMAL && quarter > 0) mib = quarter;
    if (quarter > 0 && quarter < mib) mib = quarter;
    if (mib < LEAST_DEFAULT_MEMORY_MIB) mib = LEAST_DEFAULT_MEMORY_MIB;
    return (size_t)mib << 20;
}

size_t solver_search_bytes(const solver_options *options)
{
    size_t bytes = solver_memory_for(options, 1);
    size_t corrals = (size_t)SOLVER_CORRAL_ENTRIES * sizeof(uint64_t);
    if (!(options->disable & SOLVER_NO_CORRAL_DEADLOCKS) && bytes >= 4 * corrals) bytes -= corrals;
    return bytes;
}

#define PAIRS_MOST_BYTES ((size_t)16 << 20)

size_t solver_pairs_bytes(const solver_options *options)
{
    size_t share = solver_memory_for(options, 1) / 16;
    return share < PAIRS_MOST_BYTES ? share : PAIRS_MOST_BYTES;
}

size_t solver_below_bytes_for(const solver_options *options)
{
    size_t search = solver_search_bytes(options);
    size_t below = solver_below_bytes(solver_below_log2_for(search));
    return !(options->disable & SOLVER_NO_BELOW) && search >= 16 * below ? below : 0;
}

size_t solver_member_bytes(const solver_options *options, bool pairs_shared)
{
    size_t bytes = solver_memory_for(options, 1) - solver_search_bytes(options); /* corrals */
    bytes += solver_below_bytes_for(options);
    if (!pairs_shared && !(options->disable & SOLVER_NO_PAIRS))
        bytes += solver_pairs_bytes(options);
    return bytes;
}
