/* blockcopy.c: blocks made from another, and state handed back to it. A launch's block is a copy
 * of its kernel's (block_launch_new); a worker of a grid run on threads (grid.c) or a CTA of a
 * gang (gang.c) is a block sharing the grid's memory with its own CTA's (block_worker_new); when
 * the grid ends, the one that ran the CTA shown hands its warps and memory to the grid's block
 * (block_adopt, block_adopt_kept; a gang's CTA first leaves its gang's memory, block_leave_slab).
 * Requires: block.c (warps, shapes). */
#define _DEFAULT_SOURCE                /* madvise, outside POSIX 2008 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "block.h"

/* k's memory b's, its regions an array of k's own (each region the caller's to fill). */
static void memory_like(Block *k, const Block *b)
{
    k->mem = b->mem;
    k->mem.track = NULL;
    k->mem.epoch = &k->own_epoch;
    memcpy(k->cluster, b->cluster, sizeof k->cluster);
    k->explicit_cluster = b->explicit_cluster;
    k->cooperative = b->cooperative;
    k->mem.regions = xmalloc((b->mem.count + 1) * sizeof *k->mem.regions);
    k->mem.capacity = b->mem.count + 1;
}

/* A block for one launch of b's kernel, of ntid threads (block_fits said yes): b's program and
 * images shared, a copy of b's memory, each per-thread region copied for as many threads as b
 * has and new threads' copies zero and undefined (what block_set_shape on the copy would give,
 * without making b's shape first). */
Block *block_launch_new(const Block *b, Diag *diag, const uint32_t ntid[3], uint32_t active)
{
    Block *k = xcalloc(1, sizeof *k);
    k->prog = b->prog;
    k->shares_program = true;
    k->spare = b->spare;
    k->diag = diag;
    k->per_warp_barriers = b->per_warp_barriers;
    k->images = b->images;
    k->image_count = b->image_count;
    k->samplers = b->samplers;
    k->sampler_count = b->sampler_count;
    memory_like(k, b);
    uint32_t copies = block_warps_for(ntid) * WARP_SIZE;
    k->mem.copies = copies;
    for (uint32_t i = 0; i < b->mem.count; i++) {
        const Region *from = &b->mem.regions[i];
        Region *r = &k->mem.regions[i];
        *r = *from;
        if (r->host || r->borrowed || b->mem.placed_only)
            continue;
        uint64_t n = block_region_bytes(&b->mem, from);
        if (!r->per_lane) {
            r->data = memcpy(xmalloc(n + 1), from->data, n);
            r->shadow = from->shadow ? memcpy(xmalloc(n + 1), from->shadow, n) : NULL;
            continue;
        }
        /* Each thread's stack: b's threads' copies, and zeroes for the rest from calloc, which
         * need not touch pages fresh from the system (a block of 1,024 threads has 2 MiB of
         * them, most never used). */
        uint64_t to = r->size * copies, kept = n < to ? n : to;
        r->data = memcpy(xcalloc(to + 1, 1), from->data, kept);
        r->shadow = from->shadow ? memcpy(xcalloc(to + 1, 1), from->shadow, kept) : NULL;
    }
    uint32_t one[3] = { 1, 1, 1 };
    block_set_grid(k, one);
    block_set_shape(k, ntid, active);
    return k;
}

/* n zero bytes from malloc whose whole pages the system gives again, zero, only when first
 * touched (madvise): a CTA of a gang keeps .local for every thread, most of it never used. */
static uint8_t *zero_later(size_t n)
{
    uint8_t *p = xmalloc(n);
    uintptr_t page = 4096, lo = ((uintptr_t)p + page - 1) & ~(page - 1), hi = ((uintptr_t)p + n) & ~(page - 1);
    if (hi <= lo || madvise((void *)lo, hi - lo, MADV_DONTNEED))
        return memset(p, 0, n);
    memset(p, 0, lo - (uintptr_t)p);
    memset((void *)hi, 0, (uintptr_t)p + n - hi);
    MEM_ZEROED(p + (lo - (uintptr_t)p), hi - lo);     /* zero now, as memory checkers learn */
    return p;
}

/* Whether none of the n bytes whose shadow is s is defined (their data does not matter). */
bool block_undefined_bytes(const uint8_t *s, uint64_t n)
{
    uint8_t any = 0;
    for (uint64_t i = 0; i < n; i++)
        any |= s[i];
    return !any;
}

/* A worker for a grid on several threads: b's program and start state, the grid's memory
 * (.global, .const, parameters) shared, the CTA's own (.shared, .local) copied, warps of its
 * own; all of it pieces of m when given (a gang's CTA: block_leave_slab before it outlives m).
 * undefined[i]: whether no byte of b's per-lane region i is defined, when the caller knows (the
 * same for every CTA of a gang); NULL: looked at here. Call after block_start. */
Block *block_worker_new(const Block *b, GangMemory *m, const bool *undefined)
{
    Block *k = m ? slab_zero(&m->rows, sizeof *k) : xcalloc(1, sizeof *k);
    k->in_slab = m;
    k->prog = b->prog;
    k->worker = true;
    k->per_warp_barriers = b->per_warp_barriers;
    k->whole_values = b->whole_values;
    memcpy(k->ntid, b->ntid, sizeof k->ntid);
    memcpy(k->nctaid, b->nctaid, sizeof k->nctaid);
    k->threads = b->threads;
    k->start = b->start;
    memory_like(k, b);
    for (uint32_t i = 0; i < b->mem.count; i++) {
        Region *r = &k->mem.regions[i];
        *r = b->mem.regions[i];
        r->borrowed = !(block_region_of_cta(r) || r->per_lane);
        if (r->borrowed)
            continue;
        uint64_t n = block_region_bytes(&b->mem, r);
        r->in_slab = m;
        if (r->per_lane && (undefined ? undefined[i] : block_undefined_bytes(b->mem.regions[i].shadow, n))) {
            /* pages the system gives only where a thread writes */
            r->data = m ? slab_zero(&m->lazy, n + 1) : zero_later(n + 1);
            r->shadow = m ? slab_zero(&m->lazy, n + 1) : zero_later(n + 1);
            r->high = 0;
            continue;
        }
        r->data = m ? slab_zero(&m->rows, n + 1) : xmalloc(n + 1);
        r->shadow = m ? slab_zero(&m->rows, n + 1) : xmalloc(n + 1);
        memcpy(r->data, b->mem.regions[i].data, n);
        memcpy(r->shadow, b->mem.regions[i].shadow, n);
    }
    k->fresh_local = true;
    for (uint32_t i = 0; i < b->warp_count; i++) {
        k->warps[i] = block_new_warp(k, i, m);
        k->warps[i]->launched = b->warps[i]->launched;
    }
    k->warp_count = b->warp_count;
    return k;
}

/* A gang's CTA that is to hand its state to a block outliving the gang's memory (block_adopt):
 * its warps and its own regions move into malloc's memory. Its kept states (spin.c) are dropped:
 * it has stopped running. */
void block_leave_slab(Block *k)
{
    const Program *p = &k->prog;
    for (uint32_t i = 0; i < k->warp_count; i++) {
        Warp *a = k->warps[i];
        if (!a->in_slab)
            continue;
        spin_free(a);
        Warp *w = xmalloc(sizeof *w);
        *w = *a;
        w->in_slab = false;
        w->val = xcalloc_aligned(p->row_count, sizeof *w->val, 64);
        memcpy(w->val, a->val, p->row_count * sizeof *w->val);
        w->bits = block_bits_alloc(p->row_count);
        for (uint32_t r = 0; r < p->row_count; r++)     /* only rows partly defined mean anything */
            if (a->defined[r] != ALL_LANES)
                memcpy(w->bits[r], a->bits[r], sizeof *w->bits);
        w->defined = xmalloc((p->row_count ? p->row_count : 1) * sizeof *w->defined);
        memcpy(w->defined, a->defined, p->row_count * sizeof *w->defined);
        w->pred = xmalloc(p->pred_count * sizeof *w->pred);
        memcpy(w->pred, a->pred, p->pred_count * sizeof *w->pred);
        w->pred_defined = xmalloc(p->pred_count * sizeof *w->pred_defined);
        memcpy(w->pred_defined, a->pred_defined, p->pred_count * sizeof *w->pred_defined);
        w->active = xmalloc(p->func_count * sizeof *w->active);
        memcpy(w->active, a->active, p->func_count * sizeof *w->active);
        k->warps[i] = w;
    }
    for (uint32_t i = 0; i < k->mem.count; i++) {
        Region *r = &k->mem.regions[i];
        if (!r->in_slab)
            continue;
        uint64_t n = block_region_bytes(&k->mem, r);
        uint8_t *data = xmalloc(n + 1), *shadow = xmalloc(n + 1);
        memcpy(data, r->data, n);
        memcpy(shadow, r->shadow, n);
        r->data = data, r->shadow = shadow;
        r->in_slab = false;
    }
}

/* The worker that ran the grid's last CTA hands its state to b, which shows it: its warps and
 * its CTA's memory (.shared, .local) change places with b's, to be freed with the worker. */
void block_adopt(Block *b, Block *worker)
{
    for (uint32_t i = 0; i < b->warp_count; i++) {
        Warp *w = b->warps[i];
        b->warps[i] = worker->warps[i];
        worker->warps[i] = w;
        b->warps[i]->block = b;
        b->warps[i]->prog = &b->prog;
        w->block = worker;
        w->prog = &worker->prog;
    }
    for (uint32_t i = 0; i < b->mem.count; i++) {
        Region *mine = &b->mem.regions[i], *theirs = &worker->mem.regions[i];
        if (theirs->borrowed)
            continue;
        Region keep = *mine;
        mine->data = theirs->data;
        mine->shadow = theirs->shadow;
        mine->size = theirs->size;
        mine->base = theirs->base;     /* a stack grown down (alloca) moved its base */
        theirs->data = keep.data;
        theirs->shadow = keep.shadow;
        theirs->size = keep.size;
        theirs->base = keep.base;
    }
    memcpy(b->ctaid, worker->ctaid, sizeof b->ctaid);
}

/* A worker kept the CTA: b takes its copies. */
void block_adopt_kept(Block *b, Block *worker)
{
    if (!worker->has_kept)
        return;
    for (uint32_t i = 0; i < b->warp_count; i++) {
        Warp *w = b->kept[i];
        b->kept[i] = worker->kept[i];
        worker->kept[i] = w;
        if (b->kept[i]) {              /* freed with b, after the worker: b's program, not its */
            b->kept[i]->block = b;
            b->kept[i]->prog = &b->prog;
        }
        if (w) {
            w->block = worker;
            w->prog = &worker->prog;
        }
    }
    b->has_kept = true;
    worker->has_kept = false;          /* a worker of later CTAs (a gang's) keeps none of its own yet */
    memcpy(b->kept_ctaid, worker->kept_ctaid, sizeof b->kept_ctaid);
}

