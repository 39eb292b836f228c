/* slab.c: memory handed out in pieces and taken back all at once (slab.h). Chunks twice the size
 * of the one before, from SLAB_FIRST to SLAB_CHUNK bytes (a piece larger: its own size), so that
 * a small gang holds little even of address space; each its own mapping of small pages, its
 * header at its start. (Not huge
 * pages, as pages.c asks for: where the system makes them by compacting memory as they are first
 * touched, the first launch of a 1,024-CTA cooperative grid took 650 us a CTA instead of 250;
 * later launches gained 5-10%.) A chunk remembers how far an earlier use wrote (dirty): a piece
 * below that is cleared when handed out, one above it is still as the system gave it, zero.
 * Below it too, a page the system never gave (one that no piece on it wrote) is still zero: on
 * Linux without swap (where a page that was given stays in memory) the reset asks which (mincore),
 * and such pages are not cleared (a cooperative grid's warps that never write some registers left
 * a quarter of the 1,024-CTA benchmark's pages so, cleared at each launch for nothing, and at the
 * second launch given by the system then). */
#define _DEFAULT_SOURCE                /* madvise and MAP_ANONYMOUS, outside POSIX 2008 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#ifdef __linux__
#include <sys/sysinfo.h>
#endif

#include "slab.h"
#include "lexer.h"

enum { SLAB_FIRST = 64 << 10, SLAB_CHUNK = 32 << 20, SLAB_ALIGN = 64, PAGE = 4096 };

struct SlabChunk {
    SlabChunk *next;
    size_t size;               /* the whole mapping, header included */
    size_t used;               /* bytes handed out since the last reset (from the chunk's start) */
    size_t dirty;              /* bytes an earlier use wrote: cleared when handed out again */
    size_t start;              /* the header's bytes: this, then untouched[] */
    bool known;                /* untouched[] says which pages are */
    unsigned char untouched[]; /* untouched[page]: no earlier use wrote on it (zero) */
};

/* The bytes before a chunk of `size` hands out pieces. */
static size_t header(size_t size)
{
    return (sizeof(SlabChunk) + size / PAGE + SLAB_ALIGN - 1) / SLAB_ALIGN * SLAB_ALIGN;
}

/* A chunk for a piece of `bytes`, after one of `last` bytes (0: none). */
static SlabChunk *chunk_new(size_t bytes, size_t last)
{
    size_t size = last ? (2 * last < SLAB_CHUNK ? 2 * last : SLAB_CHUNK) : SLAB_FIRST;
    while (header(size) + bytes > size)        /* a piece larger: its own size (and header) */
        size = (header(size) + bytes + PAGE - 1) / PAGE * PAGE;
    SlabChunk *c;
#ifdef MAP_ANONYMOUS
    c = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (c == MAP_FAILED)
        util_out_of_memory(size);
#else
    c = pages_alloc(size);
#endif
    *c = (SlabChunk){ NULL, size, header(size), header(size), header(size), false };
    return c;
}

static void chunk_free(SlabChunk *c)
{
#ifdef MAP_ANONYMOUS
    munmap(c, c->size);
#else
    pages_free(c, c->size);
#endif
}

void *slab_zero(Slab *a, size_t bytes)
{
    bytes = (bytes + SLAB_ALIGN - 1) / SLAB_ALIGN * SLAB_ALIGN;
    if (!bytes)
        bytes = SLAB_ALIGN;
    SlabChunk *c = a->current;
    while (c && c->size - c->used < bytes)     /* the later chunks, kept from an earlier use */
        c = c->next;
    if (!c) {
        SlabChunk *last = a->current;          /* the new one goes at the end of the list */
        while (last && last->next)
            last = last->next;
        c = chunk_new(bytes, last ? last->size : 0);
        if (last)
            last->next = c;
        else
            a->first = c;
    }
    a->current = c;
    uint8_t *p = (uint8_t *)c + c->used;
    size_t end = c->used >= c->dirty ? c->used : c->dirty - c->used < bytes ? c->dirty : c->used + bytes;
    for (size_t at = c->used, next; at < end; at = next) {   /* page by page, but the untouched */
        next = (at / PAGE + 1) * PAGE < end ? (at / PAGE + 1) * PAGE : end;
        if (!c->known || !c->untouched[at / PAGE])
            memset((uint8_t *)c + at, 0, next - at);
    }
    c->used += bytes;
    return p;
}

/* Which of the chunk's pages below top no earlier use wrote on (c->untouched), where the system
 * can say: a page it never gave is not in memory, and without swap a page it gave always is. */
static void find_untouched(SlabChunk *c, size_t top)
{
#if defined __linux__ && defined MAP_ANONYMOUS
    struct sysinfo si;
    size_t pages = (top + PAGE - 1) / PAGE;
    c->known = !sysinfo(&si) && !si.totalswap && !mincore(c, pages * PAGE, c->untouched);
    for (size_t i = 0; i < pages && c->known; i++)
        c->untouched[i] = !(c->untouched[i] & 1);
#else
    (void)c, (void)top;
#endif
}

void slab_reset(Slab *a)
{
    for (SlabChunk *c = a->first; c; c = c->next) {
        size_t top = c->used > c->dirty ? c->used : c->dirty;
#ifdef MADV_DONTNEED
        /* Lazy: the pages go back to the system, zero when next touched; none is cleared here. */
        size_t from = (c->start + PAGE - 1) / PAGE * PAGE, to = (top + PAGE - 1) / PAGE * PAGE;
        if (a->lazy && to > from && !madvise((uint8_t *)c + from, to - from, MADV_DONTNEED)) {
            MEM_ZEROED((uint8_t *)c + from, to - from);     /* zero now, as memory checkers learn */
            memset((uint8_t *)c + c->start, 0, from - c->start);
            top = c->start;
        }
#endif
        if (!a->lazy && top > c->start)
            find_untouched(c, top);
        c->dirty = top;
        c->used = c->start;
    }
    a->current = a->first;
}

void slab_free(Slab *a)
{
    for (SlabChunk *c = a->first, *next; c; c = next) {
        next = c->next;
        chunk_free(c);
    }
    a->first = a->current = NULL;
}

size_t slab_size(const Slab *a)
{
    size_t n = 0;
    for (const SlabChunk *c = a->first; c; c = c->next)
        n += c->size;
    return n;
}
