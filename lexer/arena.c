/* arena.c: a bump allocator. Everything a Module owns comes from its arena and is freed at
 * once by arena_free; nothing in the front end frees piecemeal. Blocks grow geometrically so
 * a 10 MB input costs a handful of mallocs. Blocks come zeroed from calloc (the large ones as
 * fresh pages, which the kernel zeroes when first touched); bytes handed out again after
 * arena_reset or arena_release are zeroed there, and only those. */
#include <stdlib.h>
#include <string.h>

#include "lexer.h"

enum { ARENA_ALIGN = 16, ARENA_MIN_BLOCK = 64 * 1024 };

struct ArenaBlock {
    ArenaBlock *prev;
    size_t used, size;
    _Alignas(16) unsigned char data[];
};

static void drop_block(ArenaBlock *b)
{
    if (b)
        pages_free(b, sizeof *b + b->size);
}

void *arena_alloc(Arena *arena, size_t size)
{
    size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    ArenaBlock *b = arena->head;
    if (!b || b->size - b->used < size) {
        /* Each block with its head twice the last, up to 64 MB: from the first, powers of two,
         * so that the large ones fill whole huge pages (pages.c); a larger request, or a larger
         * spare taken, makes a block of its own size. */
        size_t want = (b ? 2 * (sizeof *b + b->size) : ARENA_MIN_BLOCK) - sizeof *b;
        if (want > 64u * 1024 * 1024 - sizeof *b)
            want = 64u * 1024 * 1024 - sizeof *b;
        if (want < size)
            want = size;
        ArenaBlock *nb = arena->spare;
        if (nb && nb->size >= want) {
            arena->spare = NULL;
        } else {
            nb = pages_alloc(sizeof *nb + want);
            nb->used = 0;
            nb->size = want;
        }
        nb->prev = b;
        arena->head = b = nb;
    }
    void *p = b->data + b->used;
    b->used += size;
    return p;
}

/* Growing reuses the space in place when the old allocation is the block's last one. */
void *arena_grow(Arena *arena, void *old, size_t old_size, size_t new_size)
{
    ArenaBlock *b = arena->head;
    size_t old_rounded = (old_size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (old && b && (unsigned char *)old + old_rounded == b->data + b->used) {
        size_t extra = ((new_size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1)) - old_rounded;
        if (b->size - b->used >= extra) {     /* never handed out: still zero */
            b->used += extra;
            return old;
        }
    }
    void *p = arena_alloc(arena, new_size);
    if (old_size)
        memcpy(p, old, old_size);
    return p;
}

char *arena_strndup(Arena *arena, const char *s, size_t len)
{
    char *p = arena_alloc(arena, len + 1);
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

/* Empties the arena for reuse: its newest (largest) block is kept, the bytes used in it zeroed
 * again (only those), the others freed. */
void arena_reset(Arena *arena)
{
    ArenaBlock *b = arena->head;
    if (!b)
        return;
    for (ArenaBlock *old = b->prev; old;) {
        ArenaBlock *prev = old->prev;
        drop_block(old);
        old = prev;
    }
    memset(b->data, 0, b->used);
    b->used = 0;
    b->prev = NULL;
}

ArenaMark arena_mark(const Arena *arena)
{
    return (ArenaMark){ arena->head, arena->head ? arena->head->used : 0 };
}

/* The blocks begun after the mark are emptied; the largest is kept as the spare, so that a
 * release after each of many small functions does not allocate and free a block each time. */
void arena_release(Arena *arena, ArenaMark mark)
{
    while (arena->head && arena->head != mark.block) {
        ArenaBlock *b = arena->head;
        arena->head = b->prev;
        memset(b->data, 0, b->used);
        b->used = 0;
        b->prev = NULL;
        if (arena->spare && arena->spare->size >= b->size) {
            drop_block(b);
        } else {
            drop_block(arena->spare);
            arena->spare = b;
        }
    }
    if (mark.block) {
        memset(mark.block->data + mark.used, 0, mark.block->used - mark.used);
        mark.block->used = mark.used;
    }
}

void arena_free(Arena *arena)
{
    drop_block(arena->spare);
    arena->spare = NULL;
    ArenaBlock *b = arena->head;
    while (b) {
        ArenaBlock *prev = b->prev;
        drop_block(b);
        b = prev;
    }
    arena->head = NULL;
}
