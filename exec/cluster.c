/* cluster.c: the CTAs of a cluster (sm_90) as one another's: distributed shared memory and the
 * cluster barrier. A CTA's .shared::cluster addresses (docs/semantics.md, "Clusters"): below
 * MEM_CLUSTER_RANK_UNIT, its own .shared (its .shared::cta addresses are .shared::cluster
 * addresses of itself, as the PTX ISA says); (rank + 1) * MEM_CLUSTER_RANK_UNIT + offset, the
 * byte at offset in the .shared of the CTA of that cluster rank; the generic address of either
 * is it plus the .shared window. mapa and getctarank compute them (an address or rank outside
 * the cluster: an undefined result and a warning); mem.c's one access path asks
 * cluster_memory whose memory an address reaches (outside the cluster, a CTA that has
 * exited, another CTA through .shared::cta: a fault). barrier.cluster.arrive/.wait: each
 * thread arrives once a phase; the phase completes when every non-exited thread of the
 * cluster has arrived, and a wait goes on once its thread's arrival's phase has completed;
 * either instruction first waits for every non-exited thread of its warp (PTX ISA). Its state
 * is each warp's lanes (Warp.cluster). The cluster's CTAs are found in the Gang (block.h) by
 * cluster_peer, as gang_peer finds them: gang.c runs the warps, so a call into it from here,
 * below warp.c, would be a loop of calls between files; changes move Memory.epoch
 * (mem_changed), as gang_changed does.
 * Requires: report.c (faults, warnings). */
#include <string.h>

#include "family.h"

#define RANK_SHIFT MEM_CLUSTER_RANK_SHIFT
#define RANK_UNIT (1ull << RANK_SHIFT)

/* The cluster's CTAs (%cluster_nctarank), and b's rank in it (%cluster_ctarank, x fastest). */
uint32_t cluster_nctarank(const Block *b)
{
    return b->cluster[0] * b->cluster[1] * b->cluster[2];
}

uint32_t cluster_ctarank(const Block *b)
{
    const uint32_t *c = b->cluster;
    return b->ctaid[0] % c[0] + c[0] * (b->ctaid[1] % c[1] + c[1] * (b->ctaid[2] % c[2]));
}

Block *cluster_peer(const Block *b, uint32_t rank)
{
    const uint32_t *c = b->cluster;
    if (rank >= cluster_nctarank(b))
        return NULL;
    if (rank == cluster_ctarank(b))
        return (Block *)b;
    const Gang *g = b->gang;
    uint32_t id[3] = { b->ctaid[0] - b->ctaid[0] % c[0] + rank % c[0],
                       b->ctaid[1] - b->ctaid[1] % c[1] + rank / c[0] % c[1],
                       b->ctaid[2] - b->ctaid[2] % c[2] + rank / (c[0] * c[1]) };
    for (int d = 0; g && d < 3; d++)
        if (id[d] - g->lo[d] >= g->extent[d])
            return NULL;
    uint64_t at = g ? (id[0] - g->lo[0]) + (uint64_t)g->extent[0] * ((id[1] - g->lo[1]) + (uint64_t)g->extent[1] *
                                                                      (id[2] - g->lo[2])) : 0;
    return g && at < g->count ? g->ctas[at] : NULL;
}

/* The CTA of rank r while it has a thread that has not exited, else NULL. */
static Block *live_peer(const Block *b, uint32_t r)
{
    Block *p = cluster_peer(b, r);
    for (uint32_t i = 0; p && i < p->warp_count; i++)
        if (p->warps[i]->launched & ~p->warps[i]->exited)
            return p;
    return NULL;
}

/* The rank a .shared::cluster address names (its own rank below the unit) and its offset there. */
static uint64_t rank_of(const Block *b, uint64_t address, uint64_t *offset)
{
    *offset = address & (RANK_UNIT - 1);
    return address < RANK_UNIT ? cluster_ctarank(b) : (address >> RANK_SHIFT) - 1;
}

bool cluster_holds(const Block *b, uint64_t address, bool whole_cluster)
{
    uint64_t offset, r = rank_of(b, address, &offset);
    return whole_cluster ? r < cluster_nctarank(b) : r == cluster_ctarank(b);
}

Block *cluster_owner(const Block *b, uint64_t address)
{
    uint64_t offset, r = rank_of(b, address, &offset);
    return r < cluster_nctarank(b) ? live_peer(b, (uint32_t)r) : NULL;
}

Memory *cluster_memory(Warp *w, const XInstr *x, int lane, uint64_t address, uint64_t *in_space)
{
    Block *b = w->block;
    uint64_t r = rank_of(b, *in_space, in_space);
    uint32_t pc = (uint32_t)(x - w->prog->code), n = cluster_nctarank(b);
    if (r >= n) {
        report_fault(w, pc, "lane %d (pc %u): '%s' at 0x%llx: a .shared::cluster address of CTA rank %llu, but the "
                     "cluster has %u CTA%s (ranks 0 to %u)", lane, pc, x->ir->mnemonic, (unsigned long long)address,
                     (unsigned long long)r, n, n == 1 ? "" : "s", n - 1);
        return NULL;
    }
    if (x->space == SPACE_SHARED && !x->cluster_space && r != cluster_ctarank(b)) {
        report_fault(w, pc, "lane %d (pc %u): '%s' at 0x%llx: the shared memory of CTA rank %llu of the cluster, "
                     "which .shared::cta does not reach (this CTA is rank %u; .shared::cluster does)", lane, pc,
                     x->ir->mnemonic, (unsigned long long)address, (unsigned long long)r, cluster_ctarank(b));
        return NULL;
    }
    Block *p = live_peer(b, (uint32_t)r);
    if (!p) {
        report_fault(w, pc, "lane %d (pc %u): '%s' at 0x%llx: the shared memory of CTA rank %llu of the cluster, "
                     "which has exited (the PTX ISA leaves that undefined: a barrier.cluster before exiting keeps "
                     "it)", lane, pc, x->ir->mnemonic, (unsigned long long)address, (unsigned long long)r);
        return NULL;
    }
    return &p->mem;
}

static const char outside_window[] =
    "mapa or getctarank of an address outside the shared memory of the cluster (PTX ISA: a must be a shared memory "
    "address): its result is undefined";
static const char outside_cluster[] =
    "mapa to a CTA rank outside the cluster (PTX ISA: b is the rank of a CTA of the cluster): its result is undefined";

/* mapa d, a, b: the address in the CTA of rank b of the byte a addresses; getctarank d, a: the
 * rank of the CTA whose shared memory a addresses. Generic forms: generic addresses. */
void cluster_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    const Block *b = w->block;
    uint32_t pc = (uint32_t)(x - w->prog->code), n = cluster_nctarank(b);
    bool generic = x->space == SPACE_NONE, mapa = x->op == OP_MAPA;
    uint64_t keep = width_mask(x->bits);
    uint32_t defined = warp_defined_in(w, x->src[0], mask, ~0ull);
    if (mapa)
        defined &= warp_defined_in(w, x->src[1], mask, ~0ull);
    uint32_t outside = 0, far = 0;
    for (uint32_t k = mask & defined; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint64_t a = warp_src(w, x->src[0])[l] & keep, offset;
        uint64_t address = generic ? a - MEM_SHARED_WINDOW : a;     /* a generic address's .shared one */
        if (generic && (a < MEM_SHARED_WINDOW || address >= MEM_WINDOW_SIZE)) {
            outside |= 1u << l;
            continue;
        }
        uint64_t r = rank_of(b, address, &offset);
        if (r >= n) {
            outside |= 1u << l;
            continue;
        }
        if (!mapa) {
            w->val[x->dst][l] = r;
            continue;
        }
        uint64_t to = (uint32_t)warp_src(w, x->src[1])[l];
        if (to >= n) {
            far |= 1u << l;
            continue;
        }
        uint64_t d = ((to + 1) << RANK_SHIFT) + offset;
        w->val[x->dst][l] = (generic ? d + MEM_SHARED_WINDOW : d) & keep;
    }
    if (outside)
        report_warn(w, pc, outside, outside_window);
    if (far)
        report_warn(w, pc, far, outside_cluster);
    warp_define(w, x->dst, mask, defined & ~outside & ~far);
}

/* ---- barrier.cluster ---- */

static bool is_wait(const Warp *w, int l)
{
    return w->prog->code[w->arrival[l].pc].barrier == BARRIER_CLUSTER_WAIT;
}

/* When every non-exited thread of the cluster has arrived, the phase completes: each arrival
 * counts as passed, and the threads waiting for it go on. */
static void try_complete(Block *b)
{
    uint32_t n = cluster_nctarank(b);
    bool any = false;
    for (uint32_t r = 0; r < n; r++) {
        const Block *p = live_peer(b, r);
        for (uint32_t i = 0; p && i < p->warp_count; i++) {
            const Warp *w = p->warps[i];
            uint32_t live = w->launched & ~w->exited;
            if (live & ~w->cluster.arrived)
                return;
            any |= (live & w->cluster.arrived) != 0;
        }
    }
    if (!any)
        return;
    for (uint32_t r = 0; r < n; r++) {
        Block *p = live_peer(b, r);
        for (uint32_t i = 0; p && i < p->warp_count; i++) {
            Warp *w = p->warps[i];
            uint32_t waiting = w->cluster.waiting;
            w->cluster.passed = (w->cluster.passed | w->cluster.arrived) & ~waiting & ~w->exited;
            w->cluster.arrived = w->cluster.waiting = 0;
            warp_release(w, waiting);
        }
    }
    mem_changed(&b->mem);
}

/* The lanes of w gathered at barrier.cluster instructions, once every non-exited lane of the
 * warp is at one: each arrives, or waits for its arrival's phase. False after a fault. */
static bool gathered(Warp *w)
{
    uint32_t g = w->cluster.gather, live = w->launched & ~w->exited;
    if (!g || (live & ~(g | w->cluster.waiting)))
        return true;
    uint32_t first = w->arrival[__builtin_ctz(g)].pc, split = 0;
    for (uint32_t k = g; k; k &= k - 1)
        split |= (uint32_t)(w->arrival[__builtin_ctz(k)].pc != first) << __builtin_ctz(k);
    if (split && w->prog->code[first].aligned)
        report_warn(w, first, g, "'.aligned' barrier.cluster that a warp's lanes reach at different instructions, "
                    "which PTX leaves undefined,");
    uint32_t go = 0;
    for (uint32_t k = g; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint32_t bit = 1u << l, pc = w->arrival[l].pc;
        if (!is_wait(w, l)) {
            if (w->cluster.arrived & bit) {
                report_fault(w, pc, "lane %d arrives at the cluster barrier ('%s') again before the barrier has "
                             "completed (PTX ISA: each thread arrives once before it completes)", l,
                             w->prog->code[pc].ir->mnemonic);
                return false;
            }
            w->cluster.arrived |= bit;
            w->cluster.passed &= ~bit;     /* a wait now waits for this arrival's phase */
            go |= bit;
        } else if (w->cluster.passed & bit) {
            w->cluster.passed &= ~bit;
            go |= bit;
        } else if (w->cluster.arrived & bit) {
            w->cluster.waiting |= bit;
        } else {
            report_fault(w, pc, "lane %d waits at '%s' without having arrived (barrier.cluster.arrive) since its "
                         "last wait: the barrier waits for every non-exited thread of the cluster to arrive, so it "
                         "would never complete", l, w->prog->code[pc].ir->mnemonic);
            return false;
        }
    }
    w->cluster.gather = 0;
    warp_release(w, go);
    return true;
}

void cluster_barrier(Warp *w, uint32_t pc, uint32_t lanes)
{
    if (!lanes)
        return;
    for (uint32_t k = lanes; k; k &= k - 1)
        w->arrival[__builtin_ctz(k)] = (Arrival){ pc, 0, w->steps };
    w->waiting |= lanes;
    w->at_barrier |= lanes;
    w->cluster.gather |= lanes;
    if (w->trace)
        w->trace->waiting |= lanes;
    if (gathered(w))
        try_complete(w->block);
    mem_changed(&w->block->mem);
}

void cluster_threads_exited(Block *b)
{
    for (uint32_t i = 0; i < b->warp_count; i++)
        if (b->warps[i]->cluster.gather && !gathered(b->warps[i]))
            return;
    try_complete(b);
}

/* For a deadlock: the lanes waiting at barrier.cluster instructions, and how far the phase is. */
void cluster_report_waits(Block *b)
{
    uint32_t n = cluster_nctarank(b), arrived = 0, live = 0;
    for (uint32_t r = 0; r < n; r++) {
        const Block *p = live_peer(b, r);
        for (uint32_t i = 0; p && i < p->warp_count; i++) {
            const Warp *w = p->warps[i];
            live += (uint32_t)__builtin_popcount(w->launched & ~w->exited);
            arrived += (uint32_t)__builtin_popcount(w->launched & ~w->exited & w->cluster.arrived);
        }
    }
    for (uint32_t i = 0; i < b->warp_count; i++) {
        Warp *w = b->warps[i];
        uint32_t kinds[2] = { w->cluster.gather, w->cluster.waiting };
        for (int kind = 0; kind < 2; kind++) {
            if (!kinds[kind])
                continue;
            char who[200];
            int l = __builtin_ctz(kinds[kind]);
            report_lanes(w, who, sizeof who, kinds[kind]);
            if (kind == 0)
                diag_at(b->diag, DIAG_NOTE, w->prog->code[w->arrival[l].pc].ir->stmt_at, "%s wait%s here for the "
                        "other non-exited lanes of the warp to come to a barrier.cluster", who,
                        __builtin_popcount(kinds[kind]) == 1 ? "s" : "");
            else
                diag_at(b->diag, DIAG_NOTE, w->prog->code[w->arrival[l].pc].ir->stmt_at, "%s wait%s here for "
                        "every non-exited thread of the cluster (%u CTA%s) to arrive at the cluster barrier; %u of "
                        "%u %s arrived", who, __builtin_popcount(kinds[kind]) == 1 ? "s" : "", n, n == 1 ? "" : "s",
                        arrived, live, arrived == 1 ? "has" : "have");
        }
    }
}
