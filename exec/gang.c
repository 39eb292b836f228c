/* gang.c: CTAs that run together. The CTAs of a cluster, or every CTA of a cooperative launch,
 * run interleaved under one scheduler as one Gang; every other CTA runs alone (grid.c).
 * Requires: block.c (the CTA). */
#include <stdlib.h>
#include <string.h>

#include "async.h"

void block_set_cluster(Block *b, const uint32_t cluster[3])
{
    memcpy(b->cluster, cluster, sizeof b->cluster);
    b->explicit_cluster = true;
}

void block_set_cooperative(Block *b, bool on)
{
    b->cooperative = on;
}

/* b's rank in its cluster (%cluster_ctarank): x fastest. */
static uint32_t cluster_rank(const Block *b)
{
    const uint32_t *c = b->cluster;
    return b->ctaid[0] % c[0] + c[0] * (b->ctaid[1] % c[1] + c[1] * (b->ctaid[2] % c[2]));
}

Block *gang_peer(const Block *b, uint32_t rank)
{
    const uint32_t *c = b->cluster;
    if (rank >= c[0] * c[1] * c[2])
        return NULL;
    if (rank == cluster_rank(b))
        return (Block *)b;
    const Gang *g = b->gang;
    if (!g)
        return NULL;
    uint32_t id[3] = { b->ctaid[0] - b->ctaid[0] % c[0] + rank % c[0],
                       b->ctaid[1] - b->ctaid[1] % c[1] + rank / c[0] % c[1],
                       b->ctaid[2] - b->ctaid[2] % c[2] + rank / (c[0] * c[1]) };
    for (int d = 0; d < 3; d++)
        if (id[d] - g->lo[d] >= g->extent[d])
            return NULL;
    uint64_t at = (id[0] - g->lo[0]) + (uint64_t)g->extent[0] * ((id[1] - g->lo[1]) + (uint64_t)g->extent[1] *
                                                                  (id[2] - g->lo[2]));
    return at < g->count ? g->ctas[at] : NULL;
}

void gang_changed(Block *b)
{
    mem_changed(&b->mem);
}

/* ---- what an H100 keeps resident ---- */

/* The CTAs of b's shape one SM keeps resident at once, as CUDA's occupancy counts them for an
 * H100 (sm_90): at most 32 CTAs and 64 warps (2,048 threads), and 228 KiB of shared memory,
 * each CTA's .shared (static and dynamic, in 128-byte units) plus the 1 KiB the system reserves.
 * Registers are left out: ptxrun allocates none, so it cannot count them. */
uint32_t gang_ctas_per_sm(const Block *b)
{
    const Region *dyn = &b->mem.regions[b->prog.dynamic_region];
    uint64_t warps = (b->threads + WARP_SIZE - 1) / WARP_SIZE;
    uint64_t shared = (dyn->base + dyn->size + 127) / 128 * 128 + RESERVED_SMEM_BYTES;
    uint64_t n = H100_CTAS_PER_SM, by_warps = H100_WARPS_PER_SM / (warps ? warps : 1),
             by_shared = H100_SHARED_PER_SM / shared;
    n = by_warps < n ? by_warps : n;
    return (uint32_t)(by_shared < n ? by_shared : n);
}

bool gang_fits(const Block *b, Msg *err)
{
    uint64_t ctas = (uint64_t)b->nctaid[0] * b->nctaid[1] * b->nctaid[2];
    uint64_t most = (uint64_t)gang_ctas_per_sm(b) * H100_SMS;
    if (!b->cooperative || ctas <= most)
        return true;
    msg_set(err, "a cooperative launch of %llu CTAs of %u threads: an H100 keeps at most %llu of them resident at "
            "once (%u a multiprocessor, %d multiprocessors), as every CTA of a cooperative launch must be; CUDA "
            "refuses it (cudaErrorCooperativeLaunchTooLarge)", (unsigned long long)ctas, b->threads,
            (unsigned long long)most, gang_ctas_per_sm(b), H100_SMS);
    return false;
}

/* A cooperative launch's grid workspace (cooperative_groups' grid_workspace: its size word, then
 * the barrier word grid.sync() counts arrivals in), zeroed and defined in .global; the kernel
 * finds it at the address %envreg1 (high half) and %envreg2 (low half) hold. */
static void make_workspace(Block *b)
{
    Region *r = mem_named(&b->mem, GANG_WORKSPACE, SPACE_GLOBAL);
    if (!r) {
        uint32_t i = mem_add(&b->mem, GANG_WORKSPACE, SPACE_GLOBAL, GANG_WORKSPACE_BYTES, 16, TYPE_U32, false, true);
        r = &b->mem.regions[i];            /* after mem_add, which may move the regions */
    }
    if (r->data) {
        memset(r->data, 0, r->size);
        memset(mem_shadow(&b->mem, r), 0xff, r->size);
    }
    b->grid_workspace = mem_generic(SPACE_GLOBAL, r->base);
}

/* ---- running CTAs together ---- */

enum { GANG_SLICE_STEPS = 1024,        /* warp-steps a warp runs before the schedule is asked again */
       GANG_CTA_TURNS = 16 };          /* slices of one CTA's warps before the next CTA's */

bool gang_runnable(const Gang *g, uint32_t cta, uint32_t warp)
{
    const Block *k = g->ctas[cta];
    if (warp >= k->warp_count)
        return false;
    const Warp *w = k->warps[warp];
    return (w->launched & ~w->exited & ~w->waiting) && !(w->parked && w->spin_epoch == g->epoch);
}

/* Whether warp w of CTA c may run now: parked ones (their epoch moved) only while sweeping. */
static bool eligible(const Gang *g, uint32_t c, uint32_t w, bool sweeping)
{
    return gang_runnable(g, c, w) && (sweeping || !g->ctas[c]->warps[w]->parked);
}

/* The warps of one CTA take turns for up to GANG_CTA_TURNS slices before the next CTA's do (its
 * registers stay in the processor's caches, as when CTAs run one after another); a CTA whose
 * warps all wait, end or park gives its turn at once. A parked warp whose epoch moved comes back
 * only in a sweep, which begins once as many slices as the gang has warps have passed, or when no
 * other warp can run, and lasts until every CTA has had its turns. Any order is one a GPU could
 * take; so a spinning warp is not woken at each of the others' writes (a grid.sync() of N CTAs
 * would otherwise wake the waiting ones N times each), yet it runs again within bounded slices. */
bool gang_next(void *context, Gang *g, uint32_t *cta, uint32_t *warp)
{
    (void)context;
    uint32_t warps = g->ctas[0]->warp_count;
    uint64_t total = (uint64_t)g->count * warps;
    if (++g->picks > (g->sweeping ? total * GANG_CTA_TURNS : total))
        g->sweeping = !g->sweeping, g->picks = 0;
    for (int attempt = 0; attempt < 2; attempt++) {
        uint32_t c = g->next_cta;
        for (uint32_t n = 0; n < warps && g->cta_turns < GANG_CTA_TURNS; n++) {
            uint32_t w = (g->next_warp + n) % warps;
            if (eligible(g, c, w, g->sweeping)) {
                g->next_warp = w + 1;
                g->cta_turns++;
                *cta = c, *warp = w;
                return true;
            }
        }
        for (uint32_t m = 1; m <= g->count; m++) {     /* the next CTAs, this one last */
            uint32_t d = (c + m) % g->count;
            for (uint32_t w = 0; w < warps; w++)
                if (eligible(g, d, w, g->sweeping)) {
                    g->next_cta = d, g->next_warp = w + 1;
                    g->cta_turns = 1;
                    *cta = d, *warp = w;
                    return true;
                }
        }
        if (g->sweeping)
            return false;                  /* nothing can run, parked warps included */
        g->sweeping = true;                /* only parked ones left: wake those whose epoch moved */
        g->picks = 0;
    }
    return false;
}

static uint64_t cta_count(const Block *b)
{
    return (uint64_t)b->nctaid[0] * b->nctaid[1] * b->nctaid[2];
}

bool gang_wanted(const Block *b, const ExecOptions *o)
{
    return b->cooperative || b->cluster[0] * b->cluster[1] * b->cluster[2] > 1 || o->schedule;
}

/* The number (x fastest) of the gang's CTA i. */
static uint64_t member_number(const Block *b, const Gang *g, uint32_t i)
{
    uint64_t x = g->lo[0] + i % g->extent[0], y = g->lo[1] + i / g->extent[0] % g->extent[1],
             z = g->lo[2] + i / (g->extent[0] * g->extent[1]);
    return x + b->nctaid[0] * (y + (uint64_t)b->nctaid[1] * z);
}

/* Whether every thread of the CTA has ended. */
static bool cta_ended(const Block *k)
{
    for (uint32_t i = 0; i < k->warp_count; i++)
        if (k->warps[i]->launched & ~k->warps[i]->exited)
            return false;
    return true;
}

/* The gang's CTAs, from their start, until every thread has ended; false when the run stops
 * early (a fault, a deadlock, a --strict warning), with *stopped the CTA where it did. */
static bool run_gang(Block *b, Gang *g, const ExecOptions *o, uint32_t *stopped)
{
    g->epoch++;                        /* parked warps of an earlier gang mean nothing now */
    g->next_cta = g->next_warp = g->cta_turns = 0;
    g->sweeping = false;
    g->picks = 0;
    for (uint32_t i = 0; i < g->count; i++)
        block_begin_cta(g->ctas[i], o, member_number(b, g, i));
    bool (*next)(void *, Gang *, uint32_t *, uint32_t *) = o->schedule ? o->schedule : gang_next;
    uint32_t c, wi, last = NO_SLOT;
    for (bool expired = true; expired;) {
        while (next(o->schedule_context, g, &c, &wi)) {
            Block *k = g->ctas[c];
            Warp *w = k->warps[wi];
            if (warp_parked(w))        /* the epoch moved: it runs again */
                continue;
            if (c != last && g->ahead)     /* a CTA's turn: gang_next's turn comes to the next after */
                ahead_fill(g, c);
            last = c;
            warp_run(w, o, GANG_SLICE_STEPS);
            if (w->faulted || (o->strict && w->warnings.len)) {
                *stopped = c;
                return false;
            }
        }
        expired = false;               /* nothing can move: try_wait's time limit (mbarrier.c) */
        for (uint32_t i = 0; i < g->count; i++)
            expired |= mbarrier_expire(g->ctas[i]);
    }
    bool first = true;
    for (uint32_t i = 0; i < g->count; i++)
        if (!cta_ended(g->ctas[i])) {
            if (first)
                *stopped = i;
            block_report_deadlock(g->ctas[i], first);
            first = false;
        }
    return first;
}

/* A block for each CTA of a gang of `count`: b's program, start state and .global; .shared and
 * .local its own (made when first written), reporting to b's diag. */
static void make_members(Block *b, Gang *g, uint32_t count, GangMemory *m)
{
    /* A .global region all of whose bytes are defined keeps no shadow until written (mem.c):
     * each member would make its own copy, and the others would not see what it wrote undefined.
     * The gang's CTAs share one, made here. */
    for (uint32_t i = 0; i < b->mem.count; i++) {
        Region *r = &b->mem.regions[i];
        if (r->space == SPACE_GLOBAL && !r->per_lane && !r->shadow && !r->read_only && !b->mem.placed_only)
            mem_shadow(&b->mem, r);
    }

    g->ctas = xcalloc(count, sizeof *g->ctas);
    g->count = count;
    bool *undefined = xcalloc(b->mem.count ? b->mem.count : 1, sizeof *undefined);
    for (uint32_t i = 0; i < b->mem.count; i++)     /* each CTA's .local starts from these */
        undefined[i] = b->mem.regions[i].per_lane &&
                       block_undefined_bytes(b->mem.regions[i].shadow, block_region_bytes(&b->mem, &b->mem.regions[i]));
    for (uint32_t i = 0; i < count; i++) {
        Block *k = block_worker_new(b, m, undefined);
        k->worker = false;             /* it reports, as b would */
        k->diag = b->diag;
        k->images = b->images, k->image_count = b->image_count;
        k->samplers = b->samplers, k->sampler_count = b->sampler_count;
        k->gang = g;
        k->gang_rank = i;
        k->mem.epoch = &g->epoch;
        k->grid_workspace = b->grid_workspace;
        for (uint32_t j = 0; j < k->warp_count; j++)   /* one copy of the program for all: in the caches */
            k->warps[j]->prog = &b->prog;
        g->ctas[i] = k;
    }
    free(undefined);
}

/* Gang memory kept at most: a kernel keeps no more between launches. */
#define GANG_KEEP_MAX ((size_t)1 << 30)

/* The gang memory b's kernel kept from its last launch, or a new one (none kept yet, or another
 * launch of the kernel, on another thread, holds it now). */
static GangMemory *memory_take(Block *b)
{
    GangMemory *m = b->spare ? atomic_exchange(&b->spare->kept, NULL) : NULL;
    if (!m) {
        m = xcalloc(1, sizeof *m);
        m->lazy.lazy = true;
    }
    return m;
}

/* Every piece of m back, m kept for the kernel's next launch (unless it already keeps one). */
static void memory_give(Block *b, GangMemory *m)
{
    GangMemory *none = NULL;
    if (!b->spare || slab_size(&m->rows) + slab_size(&m->lazy) > GANG_KEEP_MAX) {
        gang_memory_free(m);
        return;
    }
    slab_reset(&m->rows);
    slab_reset(&m->lazy);
    if (!atomic_compare_exchange_strong(&b->spare->kept, &none, m))
        gang_memory_free(m);
}

/* Each member's warnings join b's (one per place and kind, as one CTA after another gives). */
static void merge_warnings(Block *b, const Block *k)
{
    for (uint32_t i = 0; i < k->warp_count; i++)
        for (uint32_t j = 0; j < k->warps[i]->warnings.len; j++) {
            const Warning *x = &k->warps[i]->warnings.data[j];
            report_warn(b->warps[i], x->pc, x->lanes, x->what);
        }
}

bool gang_run_grid(Block *b, const ExecOptions *o)
{
    const uint32_t *cl = b->cluster;
    bool whole = b->cooperative;
    if (whole)
        make_workspace(b);
    Gang g = { 0 };
    uint32_t size[3];
    for (int d = 0; d < 3; d++)
        size[d] = whole ? b->nctaid[d] : o->schedule && cl[0] * cl[1] * cl[2] == 1 ? 1 : cl[d];
    memcpy(g.extent, size, sizeof size);
    GangMemory *memory = memory_take(b);
    g.spin_pool = &memory->spins;          /* kept with it: its states no warp's once the members are freed */
    make_members(b, &g, size[0] * size[1] * size[2], memory);
    if (!o->schedule && g.count > 1)   /* ahead.c follows gang_next's order */
        g.ahead = ahead_new(&b->prog);
    uint64_t gangs = cta_count(b) / g.count, steps = 0, lane_steps = 0;
    uint32_t per[3] = { b->nctaid[0] / size[0], b->nctaid[1] / size[1], b->nctaid[2] / size[2] };
    bool ran = true;
    uint32_t stopped = 0;
    for (uint64_t n = 0; n < gangs && ran; n++) {
        g.lo[0] = (uint32_t)(n % per[0]) * size[0];
        g.lo[1] = (uint32_t)(n / per[0] % per[1]) * size[1];
        g.lo[2] = (uint32_t)(n / ((uint64_t)per[0] * per[1])) * size[2];
        ran = run_gang(b, &g, o, &stopped);
        for (uint32_t i = 0; i < g.count; i++) {
            Block *k = g.ctas[i];
            block_end_cta(k, o, member_number(b, &g, i));
            block_adopt_kept(b, k);
            if (o->cta_done)
                o->cta_done(o->cta_context, k);
        }
        if (b->progress && ran) {
            atomic_fetch_add(&b->progress->ctas_done, g.count);
            block_progress(b, o, true);
        }
    }
    /* b shows the CTA where the run stopped, or the last one; every CTA's warnings are b's. */
    uint32_t shown = ran ? g.count - 1 : stopped;
    block_leave_slab(g.ctas[shown]);
    block_adopt(b, g.ctas[shown]);
    for (uint32_t i = 0; i < g.count; i++) {
        Block *k = g.ctas[i];
        if (i != shown)
            merge_warnings(b, k);
        for (uint32_t j = 0; j < k->warp_count && i != shown; j++)
            ran &= !k->warps[j]->faulted;
        steps += k->steps;
        lane_steps += k->lane_steps;
        block_free(k);
    }
    b->steps = steps;
    b->lane_steps = lane_steps;
    free(g.ctas);
    ahead_free(g.ahead);
    memory_give(b, memory);
    block_show_kept(b);
    return ran;
}
