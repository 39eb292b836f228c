/* pages.c: large zeroed allocations straight from the system's pages, for the arena's big blocks,
 * the source text and the large hash tables (names, symbols, reach). Asked for huge pages where
 * the system offers them on request (Linux's transparent huge pages in "madvise" mode): a 64 MB
 * block then costs 32 page faults instead of 16,384, which for a 50 MB module was a fifth of
 * --check's time. From 2 MB, one huge page (Linux aligns mappings that large to it); elsewhere,
 * or for smaller sizes, it is calloc. Freed with pages_free and the same size. */
#define _DEFAULT_SOURCE        /* madvise and MAP_ANONYMOUS, outside POSIX 2008 */
#include <stdlib.h>
#include <sys/mman.h>

#include "lexer.h"

enum { PAGES_MIN = 2u << 20 };

#if defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
void *pages_alloc(size_t size)
{
    if (size < PAGES_MIN)
        return xcalloc(1, size);
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        util_out_of_memory(size);   /* (not calloc: pages_free would unmap it) */
    madvise(p, size, MADV_HUGEPAGE);   /* advice: where it is refused, small pages serve */
    return p;
}

void pages_free(void *p, size_t size)
{
    if (!p)
        return;
    if (size < PAGES_MIN)
        free(p);
    else
        munmap(p, size);
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
