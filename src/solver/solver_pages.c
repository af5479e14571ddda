/* solver_pages.c - the solver's big arrays, mapped from the system (solver_pages.h). */
#include "solver_pages.h"

#include <sys/mman.h>

/* The size of a huge page on x86-64 and arm64 with 4 KiB pages: smaller mappings are left
 * as they are (a huge page there would only be memory the array never uses). */
#define HUGE_PAGE_BYTES ((size_t)2 << 20)

void *solver_pages_map(size_t bytes)
{
    void *pages = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    /* advice only: a system without huge pages says no, and small pages do the same job */
    if (bytes >= HUGE_PAGE_BYTES) (void)madvise(pages, bytes, MADV_HUGEPAGE);
#endif
    return pages;
}

void solver_pages_unmap(void *pages, size_t bytes)
{
    if (pages) munmap(pages, bytes);
}
