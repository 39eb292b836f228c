/* clusterasync.c: st.async and red.async (sm_90): a store or a reduction into the shared memory
 * of a CTA of the cluster, whose completion is a complete-tx of its bytes on an mbarrier in that
 * same CTA (PTX ISA). st.async's bytes are an asynchronous write (async.h): undefined from the
 * issue, they land when the mbarrier's phase completes, so a read that does not wait for the
 * phase reads undefined bytes. red.async's reduction is made at the issue (atomic.c's
 * arithmetic) and its complete-tx follows: its value is seen before the phase completes, one of
 * the orders a GPU may give. Lane by lane, lowest first. Faults, for what the PTX ISA leaves
 * undefined: a cluster of one CTA (it requires %cluster_nctarank > 1), a destination and an
 * mbarrier in different CTAs, an address outside the cluster's shared memory, no live mbarrier.
 * Requires: cluster.c (whose memory), mem.c (the access path), mbarrier.c, asyncwrite.c. */
#include <string.h>

#include "async.h"

/* [src[1] + src_offset]: the mbarrier's address. */
static uint64_t mbar_address(const Warp *w, const XInstr *x, int l)
{
    return (warp_src(w, x->src[1])[l] + (uint64_t)x->src_offset) & width_mask(x->src_addr_bits ? x->src_addr_bits : 64);
}

/* The .shared::cluster address of a (generic: in the .shared window), or false. */
static bool shared_address(const XInstr *x, uint64_t a, uint64_t *address)
{
    if (x->space != SPACE_NONE) {
        *address = a;
        return true;
    }
    *address = a - MEM_SHARED_WINDOW;
    return a >= MEM_SHARED_WINDOW && *address < MEM_WINDOW_SIZE;
}

/* The CTA both a and mbar are in, their bytes checked through mem_locate: the destination's
 * (size bytes: *region and *offset in owner) and the mbarrier's (*m); NULL after a fault. */
static Block *place(Warp *w, const XInstr *x, int l, unsigned size, uint32_t *region, uint64_t *offset, uint32_t *m)
{
    uint32_t pc = (uint32_t)(x - w->prog->code);
    uint64_t a = mem_lane_address(w, x, l), mb = mbar_address(w, x, l), sa, sm;
    bool in_a = shared_address(x, a, &sa), in_mb = shared_address(x, mb, &sm);
    if (!in_a || !in_mb) {
        report_fault(w, pc, "lane %d (pc %u): '%s' with %s 0x%llx, a generic address outside the shared memory of the "
                     "cluster (the PTX ISA leaves that undefined)", l, pc, x->ir->mnemonic,
                     in_a ? "the mbarrier address" : "the address", (unsigned long long)(in_a ? mb : a));
        return NULL;
    }
    Block *owner = cluster_owner(w->block, sa), *bar = cluster_owner(w->block, sm);
    if (owner && bar && owner != bar) {
        report_fault(w, pc, "lane %d (pc %u): '%s' stores into the shared memory of CTA rank %u and signals an mbarrier "
                     "of CTA rank %u: the PTX ISA requires both in the same CTA", l, pc, x->ir->mnemonic,
                     cluster_ctarank(owner), cluster_ctarank(bar));
        return NULL;
    }
    uint8_t *shadow, *p = mem_locate(w, x, l, a, size, true, &shadow);
    uint8_t *q = p ? mem_locate(w, x, l, mb, 8, true, &shadow) : NULL;
    if (!q)
        return NULL;                          /* a fault (an exited CTA, outside every region, ...) */
    *region = async_region_of(owner, p);
    *offset = (uint64_t)(p - owner->mem.regions[*region].data);
    uint32_t bar_region = async_region_of(owner, q);
    *m = mbarrier_find(w, pc, l, owner, bar_region, (uint64_t)(q - owner->mem.regions[bar_region].data));
    return *m == NO_SLOT ? NULL : owner;
}

static void store_async(Warp *w, const XInstr *x, int l, uint32_t pc)
{
    unsigned size = x->bits / 8, total = size * x->vec_count;
    uint32_t region, m;
    uint64_t offset;
    Block *owner = place(w, x, l, total, &region, &offset, &m);
    if (!owner)
        return;
    uint8_t data[32], shadow[32];
    for (unsigned e = 0; e < x->vec_count; e++) {
        mem_write_bytes(data + e * size, warp_src(w, x->vec[e])[l], size);
        mem_write_bytes(shadow + e * size, warp_dbits(w, x->vec[e], l), size);
    }
    AsyncWrite wr = { .to = owner, .region = region, .offset = offset, .size = total, .thread = w->thread_base + (uint32_t)l,
                      .pc = pc, .kind = ASYNC_BULK, .mbarrier = NO_SLOT };
    async_issue(&wr, data, shadow);
    async_attach(owner, m, &wr);
    mbarrier_tx(w, pc, l, owner, m, -(int64_t)total);
}

static void reduce_async(Warp *w, const XInstr *x, int l, uint32_t pc)
{
    unsigned size = x->bits / 8;
    uint32_t region, m;
    uint64_t offset;
    Block *owner = place(w, x, l, size, &region, &offset, &m);
    if (!owner)
        return;
    Region *r = &owner->mem.regions[region];
    uint8_t *p = r->data + offset, *shadow = mem_shadow(&owner->mem, r) + offset;
    bool nan_choice = false;
    uint64_t old = mem_read_bytes(p, size), b = warp_src(w, x->vec[0])[l];
    uint64_t defined = mem_read_bytes(shadow, size) == width_mask(8 * size) && (w->defined[x->vec[0]] >> l & 1);
    mem_put(&owner->mem, p, shadow, atomic_update(x, old, b, 0, false, &nan_choice), defined ? ~0ull : 0, size);
    mbarrier_tx(w, pc, l, owner, m, -(int64_t)size);
}

void clusterasync_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    uint32_t pc = (uint32_t)(x - w->prog->code), n = cluster_nctarank(w->block);
    if (!mem_address_defined(w, x, mask, pc))
        return;
    uint32_t undefined = mask & ~w->defined[x->src[1]];
    if (undefined) {
        report_fault(w, pc, "lane %d (pc %u): '%s' uses an undefined mbarrier address", __builtin_ctz(undefined), pc,
                     x->ir->mnemonic);
        return;
    }
    if (mask && n < 2) {
        report_fault(w, pc, "lane %d (pc %u): '%s' in a cluster of one CTA: the PTX ISA requires a cluster of more "
                     "(%%cluster_nctarank > 1)", __builtin_ctz(mask), pc, x->ir->mnemonic);
        return;
    }
    for (uint32_t k = mask; k && !w->faulted; k &= k - 1) {
        if (x->op == OP_ST_ASYNC)
            store_async(w, x, __builtin_ctz(k), pc);
        else
            reduce_async(w, x, __builtin_ctz(k), pc);
    }
}
