/* slab.h: memory handed out in pieces and taken back all at once, kept for the next use.
 *
 * The CTAs of a gang (gang.c) all live at once: a cooperative grid of 1,024 CTAs holds a few
 * hundred MiB of registers. Taken from malloc and freed after each launch, every page of it is
 * new to the process at each launch, and the system's cost of handing out a page (zeroing it,
 * mapping it) came to a third of what such a launch took. A slab keeps its memory: a launch
 * takes pieces (slab_zero), the next one reuses them after slab_reset.
 *
 * Every piece comes zero, as from calloc. A plain slab clears reused bytes when it hands them
 * out again (memset, on memory already the process's); a lazy one gives its pages back to the
 * system at slab_reset (they come back zero where touched again), for memory most of which is
 * never touched (a warp's partly-defined bits, each thread's .local).
 * Requires: nothing of ptxrun's. */
#ifndef PTXRUN_SLAB_H
#define PTXRUN_SLAB_H

#include <stdbool.h>
#include <stddef.h>

/* Pages the system zeroed (madvise): memory checkers are told they are defined zeroes. */
#if defined __has_include
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>           /* Debian's valgrind (make deps): a few no-op instructions */
#define MEM_ZEROED(p, n) VALGRIND_MAKE_MEM_DEFINED(p, n)
#endif
#endif
#ifndef MEM_ZEROED
#define MEM_ZEROED(p, n) ((void)(p), (void)(n))
#endif

typedef struct SlabChunk SlabChunk;

typedef struct Slab {
    SlabChunk *first, *current;   /* the chunks, oldest first; the one pieces come from now */
    bool lazy;                     /* slab_reset gives the pages back (else reuse clears them) */
} Slab;

void *slab_zero(Slab *a, size_t bytes);  /* a piece of `bytes` zero bytes, on a 64-byte boundary */
void slab_reset(Slab *a);                /* every piece taken back; the memory kept */
void slab_free(Slab *a);                 /* the memory given back (an empty slab again) */
size_t slab_size(const Slab *a);         /* the bytes it holds */

#endif
