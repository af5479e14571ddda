/* solver_pages.h - the solver's big arrays (the fast mode's store, the optimal mode's
 * transposition table): pages mapped from the system, not malloc'd.
 *
 * Fresh zero pages cost nothing until touched and go back whole, out of reach of allocator
 * settings such as MALLOC_PERTURB_ (which writes over every block malloc hands out and takes
 * back: seconds for 256 MiB). A mapping of 2 MiB or more is marked for transparent huge pages
 * where the system has them (MADV_HUGEPAGE, which Linux honours in its default "madvise"
 * setting): the arrays are read at random, one state's key here and its boxes there, and a
 * huge page covers what 512 small ones did, so that far fewer look-ups miss the processor's
 * page cache (the TLB) and far fewer first touches fault. Part of the solver (solver.h);
 * internal to it. */
#ifndef SOKOBAN_SOLVER_PAGES_H
#define SOKOBAN_SOLVER_PAGES_H

#include <stddef.h>

/* `bytes` of zero memory, or NULL when the system has none. */
void *solver_pages_map(size_t bytes);

/* Gives back what solver_pages_map(bytes) returned; NULL is ignored. */
void solver_pages_unmap(void *pages, size_t bytes);

#endif
