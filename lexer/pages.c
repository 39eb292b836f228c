/* pages.c: large zeroed allocations straight from the system's pages, for the arena's big blocks,
 * the source text and the large hash tables (names, symbols, reach). Asked for huge pages where
 * the system offers them on request (Linux's transparent huge pages in "madvise" mode): a 64 MB
 * block then costs 32 page faults instead of 16,384, and a fault is dear (about 10 us in the
 * virtual machines we measured on). From 1 MB, mapped in whole huge pages of 2 MB: Linux aligns
 * a mapping to them only when its length is a multiple of one, and a huge page must lie wholly
 * inside the mapping (a block of 2 MB and a few bytes got none: each of its 513 small pages was
 * a fault of its own). What lies past the size asked for is never touched, so it costs no
 * memory, but for the rest of a huge page some of it is in: from 1 MB (a table that size is
 * touched all over) it is at most twice the size. Smaller, or where huge pages cannot be asked
 * for, it is calloc. Freed with pages_free and the size asked for. On the 50 MB nvcc corpus,
 * --check: 15,800 faults before, 10,100 from 2 MB, 6,000 from 1 MB (4,200 from 512 KB, but the
 * peak memory went up by as much again). */
#define _DEFAULT_SOURCE        /* madvise and MAP_ANONYMOUS, outside POSIX 2008 */
#include <stdlib.h>
#include <sys/mman.h>

#include "lexer.h"

enum { HUGE_PAGE = 2u << 20, PAGES_FROM = 1u << 20 };   /* mapped from PAGES_FROM, in huge pages */

#if defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
static size_t whole_huge_pages(size_t size)
{
    return (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
}

void *pages_alloc(size_t size)
{
    if (size < PAGES_FROM)
        return xcalloc(1, size);
    size_t mapped = whole_huge_pages(size);
    if (mapped < size)
        util_out_of_memory(size);
    void *p = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        util_out_of_memory(size);   /* (not calloc: pages_free would unmap it) */
    madvise(p, mapped, MADV_HUGEPAGE);   /* advice: where it is refused, small pages serve */
    return p;
}

void pages_free(void *p, size_t size)
{
    if (!p)
        return;
    if (size < PAGES_FROM)
        free(p);
    else
        munmap(p, whole_huge_pages(size));
}
#else
void *pages_alloc(size_t size)
{
    return xcalloc(1, size);
}

void pages_free(void *p, size_t size)
{
    (void)size;
    free(p);
}
#endif
