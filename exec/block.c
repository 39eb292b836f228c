/* block.c: the CTA and the grid. A block of up to 1024 threads is warps of 32 consecutive
 * threads (x fastest), the last one partial when the size is not a multiple of 32. Its warps run
 * under one scheduler: each runs for a slice of warp-steps in turn, so a warp spinning on a flag
 * another warp sets still lets that warp run; when no warp has a lane able to move, that is a
 * deadlock. The CTAs of a grid run one after another, each from the state the lanes file gave
 * (registers, predicates, .shared and .local); global memory carries over.
 * The block owns the lowered program, the memory, the warps and the barriers.
 * Requires: lower.c (the program), warp.c (one warp), barrier.c (bar, barrier). */
#define _DEFAULT_SOURCE                /* MAP_ANONYMOUS, outside POSIX 2008 (as lexer/pages.c) */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "async.h"

enum { SLICE_STEPS = 64, WORKER_SLICE_STEPS = 1 << 12 };     /* warp-steps a warp runs before the next one's turn */

/* The state every CTA starts from: the rows and predicates the lanes file gave each warp (only
 * those, so a large register file is not copied), and the bytes of the regions that belong to
 * the CTA (.shared). Every other register starts undefined again. Each thread's .local stack
 * starts undefined: its kernel frame is made so again; the frames of calls are at each call. */
typedef struct StartRows {
    uint32_t count;
    uint32_t *row;             /* the rows given, ascending */
    uint64_t (*val)[WARP_SIZE];
    uint64_t (*bits)[WARP_SIZE];   /* Warp.bits of the row */
    uint32_t *defined;
} StartRows;

typedef struct Snapshot {
    StartRows regs[MAX_WARPS], preds[MAX_WARPS];   /* preds: val[k][0] holds the lanes where true */
    uint8_t **data, **shadow;  /* per region; NULL for global, const and kernel parameters */
    uint32_t region_count;
} Snapshot;

static bool row_given(const Warp *w, uint32_t row)
{
    if (w->defined[row])
        return true;
    uint64_t any = 0;                  /* no early exit: a loop the compiler makes vector code of */
    for (int l = 0; l < WARP_SIZE; l++)
        any |= w->val[row][l] | w->bits[row][l];
    return any != 0;
}

static void push_row(StartRows *s, uint32_t row, const uint64_t *val, const uint64_t *bits, uint32_t defined)
{
    if ((s->count & (s->count - 1)) == 0) {      /* 0, 1, 2, 4, ...: room for twice as many */
        uint32_t room = s->count ? 2 * s->count : 1;
        s->row = xrealloc(s->row, room * sizeof *s->row);
        s->val = xrealloc(s->val, room * sizeof *s->val);
        s->bits = xrealloc(s->bits, room * sizeof *s->bits);
        s->defined = xrealloc(s->defined, room * sizeof *s->defined);
    }
    s->row[s->count] = row;
    memcpy(s->val[s->count], val, sizeof *s->val);
    if (bits)
        memcpy(s->bits[s->count], bits, sizeof *s->bits);
    else
        memset(s->bits[s->count], 0, sizeof *s->bits);
    s->defined[s->count++] = defined;
}

static void take_rows(StartRows *s, const Warp *w)
{
    for (uint32_t r = 0; r < w->prog->reg_count; r++)
        if (row_given(w, r))
            push_row(s, r, w->val[r], w->bits[r], w->defined[r]);
}

/* Predicates in val[k][0]; the constants (the last slots) never change in a run. */
static void take_preds(StartRows *s, const Warp *w)
{
    for (uint32_t q = 0; q + PRED_CONSTANTS < w->prog->pred_count; q++)
        if (w->pred[q] || w->pred_defined[q]) {
            uint64_t v[WARP_SIZE] = { w->pred[q] };
            push_row(s, q, v, NULL, w->pred_defined[q]);
        }
}

static Snapshot *take_snapshot(const Block *b)
{
    Snapshot *s = xcalloc(1, sizeof *s);
    for (uint32_t i = 0; i < b->warp_count; i++) {
        take_rows(&s->regs[i], b->warps[i]);
        take_preds(&s->preds[i], b->warps[i]);
    }
    const Memory *mem = &b->mem;
    s->region_count = mem->count;
    s->data = xcalloc(mem->count + 1, sizeof *s->data);
    s->shadow = xcalloc(mem->count + 1, sizeof *s->shadow);
    for (uint32_t i = 0; i < mem->count; i++) {
        const Region *r = &mem->regions[i];
        if (!block_region_of_cta(r))
            continue;
        uint64_t n = block_region_bytes(mem, r);
        s->data[i] = xmalloc(n + 1);
        s->shadow[i] = xmalloc(n + 1);
        memcpy(s->data[i], r->data, n);
        memcpy(s->shadow[i], r->shadow, n);
    }
    return s;
}

static void restore_snapshot(Block *b, const Snapshot *s)
{
    const Program *p = &b->prog;
    for (uint32_t i = 0; i < b->warp_count; i++) {
        Warp *w = b->warps[i];
        if (!b->fresh_local) {         /* fresh: new_warp's rows, zero and undefined, none written yet */
            memset(w->val, 0, p->reg_count * sizeof *w->val);
            memset(w->bits, 0, p->reg_count * sizeof *w->bits);
            memset(w->defined, 0, p->reg_count * sizeof *w->defined);
            memset(w->pred, 0, (p->pred_count - PRED_CONSTANTS) * sizeof *w->pred);
            memset(w->pred_defined, 0, (p->pred_count - PRED_CONSTANTS) * sizeof *w->pred_defined);
        }
        const StartRows *r = &s->regs[i], *q = &s->preds[i];
        for (uint32_t k = 0; k < r->count; k++) {
            memcpy(w->val[r->row[k]], r->val[k], sizeof *w->val);
            memcpy(w->bits[r->row[k]], r->bits[k], sizeof *w->bits);
            w->defined[r->row[k]] = r->defined[k];
        }
        for (uint32_t k = 0; k < q->count; k++) {
            w->pred[q->row[k]] = (uint32_t)q->val[k][0];
            w->pred_defined[q->row[k]] = q->defined[k];
        }
    }
    /* Each thread's .local undefined again: its kernel frame, and whatever the CTA before wrote
     * (a frame left by exit inside a call, bytes past a variable). */
    Region *local = &b->mem.regions[p->local_region];
    uint64_t dirty = local->high > p->funcs[0].frame_size ? local->high : p->funcs[0].frame_size;
    dirty = dirty < local->size ? dirty : local->size;
    for (uint32_t t = 0; t < b->mem.copies && !b->fresh_local; t++)   /* fresh: zero, undefined */
        memset(local->shadow + (uint64_t)t * local->size, 0, dirty);
    b->fresh_local = false;
    local->high = 0;
    for (uint32_t i = 0; i < s->region_count; i++) {
        Region *r = &b->mem.regions[i];
        if (!s->data[i])
            continue;
        uint64_t n = block_region_bytes(&b->mem, r);
        memcpy(r->data, s->data[i], n);
        memcpy(r->shadow, s->shadow[i], n);
    }
}

static void free_rows(StartRows *s)
{
    free(s->row);
    free(s->val);
    free(s->bits);
    free(s->defined);
}

static void free_snapshot(Snapshot *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; i < MAX_WARPS; i++) {
        free_rows(&s->regs[i]);
        free_rows(&s->preds[i]);
    }
    for (uint32_t i = 0; i < s->region_count; i++) {
        free(s->data[i]);
        free(s->shadow[i]);
    }
    free(s->data);
    free(s->shadow);
    free(s);
}

/* ---- the block's shape ---- */

/* %total_smem_size: the static and dynamic .shared bytes (the layout's end), in multiples of the
 * target's allocation unit (PTX ISA: 256 bytes for sm_3x to sm_7x, else 128). */
static uint32_t total_smem_size(const Warp *w)
{
    const Region *dyn = &w->block->mem.regions[w->prog->dynamic_region];
    unsigned sm = w->prog->m->target_sm, unit = sm >= 30 && sm < 80 ? 256 : 128;
    return (uint32_t)((dyn->base + dyn->size + unit - 1) / unit * unit);
}

/* The rows of the kernel's .texref, .surfref and .samplerref parameters: the handle each holds in
 * the parameter buffer, the same in every lane (undefined where the buffer's bytes are). */
static void fill_handle_params(Warp *w)
{
    for (uint32_t i = 0; i < w->prog->fn->params.len; i++) {
        uint32_t row = w->prog->handle_rows[i];
        if (row == NO_SLOT)
            continue;
        uint8_t *shadow;
        uint32_t size;
        const uint8_t *data = block_param_bytes(w->block, i, &shadow, &size);
        uint64_t v = 0;
        bool defined = true;
        for (unsigned k = 0; k < 8 && k < size; k++) {
            v |= (uint64_t)data[k] << (8 * k);
            defined &= shadow[k] == 0xff;
        }
        for (int l = 0; l < WARP_SIZE; l++) {
            w->val[row][l] = v;
            w->bits[row][l] = 0;
        }
        w->defined[row] = defined ? ALL_LANES : 0;
    }
}

/* The special registers of every lane of w, from the block's shape and the CTA's place, and the
 * handles of the kernel's opaque parameters. */
static void fill_special_registers(Warp *w)
{
    fill_handle_params(w);
    const Block *b = w->block;
    w->pred[w->prog->pred_count - 1] = b->explicit_cluster ? ALL_LANES : 0;     /* %is_explicit_cluster */
    const uint32_t *ntid = b->ntid;
    uint64_t reserved = w->prog->reserved_region == NO_SLOT ? 0 : b->mem.regions[w->prog->reserved_region].base;
    /* Each lane's %tid: lane 0's by division, the next ones counting on from it (as t % ntid.x,
     * t / ntid.x % ntid.y, t / (ntid.x * ntid.y) give them, without a division per lane). */
    uint32_t xyz_of[WARP_SIZE][3];
    uint32_t t0 = w->thread_base, x = t0 % ntid[0], y = t0 / ntid[0] % ntid[1], z = t0 / (ntid[0] * ntid[1]);
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        xyz_of[l][0] = x, xyz_of[l][1] = y, xyz_of[l][2] = z;
        if (++x == ntid[0]) {
            x = 0;
            if (++y == ntid[1]) {
                y = 0;
                z++;
            }
        }
    }
    for (uint32_t u = 0; u < w->prog->sreg_used_count; u++) {
        int s = w->prog->sreg_used[u] / 4, c = w->prog->sreg_used[u] % 4;
        uint32_t row = w->prog->sreg_rows[s][c];
        for (uint32_t l = 0; l < WARP_SIZE; l++) {
            const uint32_t *xyz = xyz_of[l];
            uint64_t v = 0;
            switch (s) {
            case SREG_TID: v = c ? xyz[c - 1] : 0; break;
            case SREG_NTID: v = c ? ntid[c - 1] : 0; break;
            case SREG_CTAID: v = c ? b->ctaid[c - 1] : 0; break;
            case SREG_NCTAID: v = c ? b->nctaid[c - 1] : 0; break;
            case SREG_LANEID: v = l; break;
            case SREG_WARPID: v = w->index; break;
            case SREG_NWARPID: v = b->warp_count; break;
            case SREG_NSMID: v = 1; break;
            case SREG_LANEMASK_EQ: v = 1u << l; break;
            case SREG_LANEMASK_LT: v = (1u << l) - 1; break;
            case SREG_LANEMASK_LE: v = (uint32_t)((2ull << l) - 1); break;
            case SREG_LANEMASK_GT: v = (uint32_t)~((2ull << l) - 1); break;
            case SREG_LANEMASK_GE: v = (uint32_t)~((1u << l) - 1); break;
            case SREG_WARP_SZ: v = WARP_SIZE; break;
            case SREG_DYNAMIC_SMEM_SIZE: v = w->block->mem.regions[w->prog->dynamic_region].size; break;
            case SREG_TOTAL_SMEM_SIZE: v = total_smem_size(w); break;
            case SREG_AGGR_SMEM_SIZE: v = total_smem_size(w) + RESERVED_SMEM_BYTES; break;
            case SREG_RESERVED_SMEM_OFFSET_BEGIN: case SREG_RESERVED_SMEM_OFFSET_0: v = reserved; break;
            case SREG_RESERVED_SMEM_OFFSET_1: v = reserved + RESERVED_SMEM_BYTES / 2; break;
            case SREG_RESERVED_SMEM_OFFSET_END: v = reserved + RESERVED_SMEM_BYTES; break;
            case SREG_RESERVED_SMEM_OFFSET_CAP: v = RESERVED_SMEM_BYTES; break;
            /* The cluster's shape (Block.cluster; without one launched, each CTA is a cluster of
             * one: PTX ISA, Cluster of CTAs), the CTA's place in it (x fastest), the cluster's in the grid. */
            case SREG_CLUSTERID: v = c ? b->ctaid[c - 1] / b->cluster[c - 1] : 0; break;
            case SREG_NCLUSTERID: v = c ? b->nctaid[c - 1] / b->cluster[c - 1] : 0; break;
            case SREG_CLUSTER_CTAID: v = c ? b->ctaid[c - 1] % b->cluster[c - 1] : 0; break;
            case SREG_CLUSTER_NCTAID: v = c ? b->cluster[c - 1] : 0; break;
            case SREG_CLUSTER_CTARANK: v = cluster_ctarank(b); break;
            case SREG_CLUSTER_NCTARANK: v = cluster_nctarank(b); break;
            case SREG_IS_EXPLICIT_CLUSTER: v = b->explicit_cluster; break;
            case SREG_ENVREG1: v = b->grid_workspace >> 32; break;     /* a cooperative launch's (gang.c) */
            case SREG_ENVREG2: v = (uint32_t)b->grid_workspace; break;
            default: v = 0; break;     /* %smid, %gridid, %envregN, %pmN, %current_graph_exec: one SM,
                                        * one grid, no driver or counters */
            }
            w->val[row][l] = v;
        }
    }
}

/* Rows of zeroes for Warp.bits: mapped from the system when large, so that a page is given only
 * when a lane's value is first partly defined there (most rows never are: the CTAs of a gang
 * keep their warps at once). */
enum { MAPPED_ROWS = 16 << 10 };

void *block_bits_alloc(uint32_t rows)
{
#ifdef MAP_ANONYMOUS
    size_t bytes = (size_t)(rows ? rows : 1) * sizeof(uint64_t[WARP_SIZE]);
    if (bytes >= MAPPED_ROWS) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED)
            return p;
        util_out_of_memory(bytes);
    }
#endif
    return xcalloc_aligned(rows, sizeof(uint64_t[WARP_SIZE]), 64);
}

static void bits_free(void *p, uint32_t rows)
{
#ifdef MAP_ANONYMOUS
    size_t bytes = (size_t)(rows ? rows : 1) * sizeof(uint64_t[WARP_SIZE]);
    if (bytes >= MAPPED_ROWS) {
        munmap(p, bytes);
        return;
    }
#else
    (void)rows;
#endif
    free(p);
}

/* n zero bytes: from the gang's memory m (its rows slab), else malloc's. */
static void *zero_piece(GangMemory *m, size_t n)
{
    return m ? slab_zero(&m->rows, n) : xcalloc(1, n ? n : 1);
}

/* Warp `index` of the block: registers of its own (undefined), the immediate and special
 * register rows, the constant predicates. */
Warp *block_new_warp(Block *b, uint32_t index, GangMemory *m)
{
    const Program *p = &b->prog;
    Warp *w = zero_piece(m, sizeof *w);
    w->in_slab = m;
    w->block = b;
    w->prog = p;
    /* A gang's warps read immediates from the program's one copy (warp_src); a warp running alone
     * its own, always in the caches (the test in warp_src then always goes one way). */
    w->shared_from = m ? p->first_immediate : p->row_count;
    w->immediates = (const uint64_t (*)[WARP_SIZE])p->immediate_rows;
    w->index = index;
    w->thread_base = index * WARP_SIZE;
    /* In a gang's memory the small arrays a step reads follow the warp, on its pages (a CTA whose
     * turn comes again after all the others' finds fewer pages out of the processor's tables). */
    w->defined = zero_piece(m, (p->row_count ? p->row_count : 1) * sizeof *w->defined);
    w->pred = zero_piece(m, p->pred_count * sizeof *w->pred);
    w->pred_defined = zero_piece(m, p->pred_count * sizeof *w->pred_defined);
    w->active = zero_piece(m, p->func_count * sizeof *w->active);
    /* rows on cache lines: whole-vector moves */
    w->val = m ? slab_zero(&m->rows, p->row_count * sizeof *w->val) : xcalloc_aligned(p->row_count, sizeof *w->val, 64);
    w->bits = m ? slab_zero(&m->lazy, (p->row_count ? p->row_count : 1) * sizeof *w->bits) : block_bits_alloc(p->row_count);
    for (uint32_t i = p->first_immediate; i < p->row_count; i++) {
        for (int l = 0; l < WARP_SIZE; l++)
            w->val[i][l] = p->immediates[i - p->first_immediate];
        w->defined[i] = ALL_LANES;
    }
    for (uint32_t u = 0; u < p->sreg_used_count; u++)     /* special registers: always defined */
        w->defined[p->sreg_rows[p->sreg_used[u] / 4][p->sreg_used[u] % 4]] = ALL_LANES;
    w->pred[p->pred_count - 2] = ALL_LANES;       /* the constant true (false before it, %is_explicit_cluster after) */
    for (uint32_t q = p->pred_count - PRED_CONSTANTS; q < p->pred_count; q++)
        w->pred_defined[q] = ALL_LANES;
    warp_reset(w);
    return w;
}

static void free_warp_state(Warp *w)
{
    wgmma_release(w);
    if (!w->in_slab) {
        free(w->val);
        bits_free(w->bits, w->prog->row_count);
        free(w->defined);
        free(w->pred);
        free(w->pred_defined);
        free(w->active);
    }
    free(w->warnings.data);
    spin_free(w);
    for (uint32_t k = w->stacks_made; k; k &= k - 1) {     /* saves only in a call: on a stack */
        free(w->stack[__builtin_ctz(k)]);
        free(w->saves[__builtin_ctz(k)].data);
    }
}

/* Whether every thread's copy of the per-thread regions fits the memory limits. */
static bool thread_memory_fits(const Block *b, uint32_t copies, Msg *err)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < b->mem.count; i++) {
        const Region *r = &b->mem.regions[i];
        if (r->is_buffer)
            continue;
        uint64_t bytes = r->size * (r->per_lane ? copies : 1);
        if (bytes > MAX_VARIABLE_BYTES) {
            msg_set(err, "'%s' needs %llu bytes in each of the %u threads; ptxrun holds at most %d MiB "
                    "per variable (all threads' copies together)", r->name, (unsigned long long)r->size, copies,
                    MAX_VARIABLE_BYTES >> 20);
            return false;
        }
        if (!(r->per_lane && r->space == SPACE_PARAM))
            total += bytes;
    }
    if (total > MAX_MEMORY_BYTES) {
        msg_set(err, "with %u threads, the program's variables need more than the %d MiB ptxrun holds",
                copies, MAX_MEMORY_BYTES >> 20);
        return false;
    }
    return true;
}

bool block_fits(const Block *b, const uint32_t ntid[3], Msg *err)
{
    return thread_memory_fits(b, block_warps_for(ntid) * WARP_SIZE, err);
}

void block_set_shape(Block *b, const uint32_t ntid[3], uint32_t active)
{
    uint32_t threads = ntid[0] * ntid[1] * ntid[2];
    uint32_t warps = block_warps_for(ntid);
    mem_set_copies(&b->mem, warps * WARP_SIZE);
    while (b->warp_count > warps) {
        Warp *w = b->warps[--b->warp_count];
        free_warp_state(w);
        free(w);
        b->warps[b->warp_count] = NULL;
    }
    while (b->warp_count < warps) {
        b->warps[b->warp_count] = block_new_warp(b, b->warp_count, NULL);
        b->warp_count++;
    }
    memcpy(b->ntid, ntid, sizeof b->ntid);
    b->threads = threads;
    for (uint32_t i = 0; i < warps; i++) {
        Warp *w = b->warps[i];
        uint32_t count = threads - w->thread_base;
        uint32_t exists = count >= WARP_SIZE ? ALL_LANES : (1u << count) - 1;
        w->launched = exists & (i == 0 ? active : ALL_LANES);
        fill_special_registers(w);
    }
}

/* The CTA's dynamic .shared block gets its size (undefined bytes) and %dynamic_smem_size. */
void block_set_dynamic_shared(Block *b, uint32_t bytes)
{
    const Region *dyn = &b->mem.regions[b->prog.dynamic_region];
    bool grows = bytes > dyn->size;
    uint64_t end = dyn->base + bytes;
    if (!grows)
        mem_resize(&b->mem, b->prog.dynamic_region, bytes);
    if (b->prog.reserved_region != NO_SLOT)   /* the reserved bytes follow the dynamic block */
        mem_move(&b->mem, b->prog.reserved_region,
                 (end + RESERVED_SMEM_ALIGN - 1) / RESERVED_SMEM_ALIGN * RESERVED_SMEM_ALIGN);
    if (grows)
        mem_resize(&b->mem, b->prog.dynamic_region, bytes);
    for (uint32_t i = 0; i < b->warp_count; i++)
        fill_special_registers(b->warps[i]);
}

void block_set_grid(Block *b, const uint32_t nctaid[3])
{
    memcpy(b->nctaid, nctaid, sizeof b->nctaid);
}

Block *block_load(Module *m, Function *fn, Diag *diag, uint32_t stack_bytes)
{
    return block_load_fmad(m, fn, diag, stack_bytes, true);
}

Block *block_load_fmad(Module *m, Function *fn, Diag *diag, uint32_t stack_bytes, bool fmad)
{
    return block_load_placed(m, fn, diag, stack_bytes, fmad, NULL, NULL);
}

Block *block_load_placed(Module *m, Function *fn, Diag *diag, uint32_t stack_bytes, bool fmad,
                         void *(*place)(void *, const void *, const char *, int, uint64_t, uint32_t, bool *),
                         void *place_context)
{
    Block *b = xcalloc(1, sizeof *b);
    b->spare = xcalloc(1, sizeof *b->spare);
    b->diag = diag;
    b->mem.place = place;
    b->mem.place_context = place_context;
    if (!lower_program(&b->prog, &b->mem, m, fn, diag, stack_bytes, false, fmad)) {
        block_free(b);
        return NULL;
    }
    b->per_warp_barriers = m->target_sm && m->target_sm < 70;
    uint32_t full[3] = { WARP_SIZE, 1, 1 }, one[3] = { 1, 1, 1 };
    memcpy(b->cluster, one, sizeof b->cluster);
    b->mem.epoch = &b->own_epoch;
    block_set_grid(b, one);
    block_set_shape(b, full, ALL_LANES);
    return b;
}

uint8_t *block_param_bytes(Block *b, uint32_t i, uint8_t **shadow, uint32_t *size)
{
    const FrameSlot *p = &b->prog.funcs[0].params[i];
    *size = p->size;
    return mem_thread_bytes(&b->mem, b->prog.param_region, 0, p->offset, p->size, shadow);
}

void block_free(Block *b)
{
    if (!b)
        return;
    for (uint32_t i = 0; i < b->warp_count; i++) {
        free_warp_state(b->warps[i]);
        if (!b->warps[i]->in_slab)
            free(b->warps[i]);
    }
    for (uint32_t i = 0; i < MAX_WARPS; i++)
        if (b->kept[i]) {
            free_warp_state(b->kept[i]);
            free(b->kept[i]);
        }
    bool borrows = b->worker || b->gang;   /* a worker's program and start state are its block's */
    if (!borrows)
        free_snapshot(b->start);
    if (!borrows && !b->shares_program) {   /* a launch's program and images are its kernel's */
        lower_free(&b->prog);
        free(b->images);
        free(b->samplers);
        if (b->spare)
            gang_memory_free(atomic_load(&b->spare->kept));
        free(b->spare);
    }
    bulk_free(b);
    async_free(b);
    mem_free(&b->mem);
    spin_pool_free(&b->spin_pool);
    if (!b->in_slab)
        free(b);
}

void gang_memory_free(GangMemory *m)
{
    if (!m)
        return;
    slab_free(&m->rows);
    slab_free(&m->lazy);
    spin_pool_free(&m->spins);
    free(m);
}

/* The warp and lane of thread t of the block. */
Warp *block_thread_warp(const Block *b, uint32_t t, int *lane)
{
    *lane = (int)(t % WARP_SIZE);
    return b->warps[t / WARP_SIZE];
}

uint64_t block_add_image(Block *b, const Image *im)
{
    b->images = xrealloc(b->images, (b->image_count + 1) * sizeof *b->images);
    b->images[b->image_count] = *im;
    if (!im->levels)
        b->images[b->image_count].levels = 1;      /* level 0 alone */
    return IMAGE_HANDLE_BASE + b->image_count++;
}

uint64_t block_add_sampler(Block *b, const Sampler *s)
{
    b->samplers = xrealloc(b->samplers, (b->sampler_count + 1) * sizeof *b->samplers);
    b->samplers[b->sampler_count] = *s;
    return SAMPLER_HANDLE_BASE + b->sampler_count++;
}

/* ---- running ---- */

/* No thread can move: where each waits, and for whom. In a gang (gang.c), each CTA left says
 * where its threads wait, the first with the error. */
void block_report_deadlock(Block *b, bool first)
{
    if (b->worker) {                   /* the grid runs again on one thread, which reports it */
        b->abandoned = true;
        return;
    }
    Warp *w = NULL;
    for (uint32_t i = 0; i < b->warp_count && !w; i++)
        if (b->warps[i]->launched & ~b->warps[i]->exited)
            w = b->warps[i];
    uint32_t lane = (uint32_t)__builtin_ctz(w->launched & ~w->exited);
    Span at = w->prog->code[w->parked ? w->parked_pc : w->arrival[lane].pc].ir->stmt_at;
    if (first && b->gang && b->gang->count > 1)
        diag_at(w->block->diag, DIAG_ERROR, at, "deadlock: no thread of the %u CTAs that run together can move",
                b->gang->count);
    else if (first)
        diag_at(w->block->diag, DIAG_ERROR, at, "deadlock: no %s can move", b->warp_count > 1 ? "thread" : "lane");
    if (block_cta_count(b) > 1)
        diag_at(w->block->diag, DIAG_NOTE, at, "in CTA (%u, %u, %u)", b->ctaid[0], b->ctaid[1], b->ctaid[2]);
    w->faulted = true;
    for (uint32_t i = 0; i < b->warp_count; i++) {
        report_waits(b->warps[i]);
        spin_report(b->warps[i]);
    }
    barrier_report_waits(b);
}

/* One CTA, from the start: its warps take turns until every thread has ended. Returns false
 * when the run stops early (a fault, a deadlock, a --strict warning). */
static bool run_cta(Block *b, const ExecOptions *o)
{
    /* A grid's worker looks up between slices, in case another has stopped (grid.c). */
    uint64_t slice = b->warp_count > 1 ? SLICE_STEPS : b->worker ? WORKER_SLICE_STEPS : UINT64_MAX;
    if (b->progress && slice > PROGRESS_STEPS)     /* a warp of its own still comes back to tell */
        slice = PROGRESS_STEPS;
    for (;;) {
        if (b->progress)
            block_progress(b, o, false);
        if (b->worker && b->mem.track && atomic_load(&b->mem.track->stop)) {
            b->abandoned = true;
            return false;
        }
        bool alive = false, moved = false;
        for (uint32_t i = 0; i < b->warp_count; i++) {
            Warp *w = b->warps[i];
            if (!(w->launched & ~w->exited))
                continue;
            alive = true;
            if (warp_parked(w))
                continue;
            moved |= warp_run(w, o, slice);
            if (w->faulted || (o->strict && w->warnings.len))
                return false;
        }
        if (!alive)
            return true;
        if (!moved && !mbarrier_expire(b)) {    /* try_wait's time limit first */
            block_report_deadlock(b, true);
            return false;
        }
    }
}

/* Before the first CTA of a run: the state every CTA starts from, the counts at zero. */
void block_start(Block *b)
{
    free_snapshot(b->start);
    b->start = block_cta_count(b) > 1 ? take_snapshot(b) : NULL;
    b->steps = b->lane_steps = 0;
}

/* A copy of the CTA's final registers, predicates and lanes (for ExecOptions.keep_cta). */
static void keep_cta(Block *b)
{
    const Program *p = &b->prog;
    for (uint32_t i = 0; i < b->warp_count; i++) {
        const Warp *w = b->warps[i];
        if (!b->kept[i])
            b->kept[i] = block_new_warp(b, i, NULL);
        Warp *k = b->kept[i];
        memcpy(k->val, w->val, p->row_count * sizeof *w->val);
        memcpy(k->bits, w->bits, p->row_count * sizeof *w->bits);
        memcpy(k->defined, w->defined, p->row_count * sizeof *w->defined);
        memcpy(k->pred, w->pred, p->pred_count * sizeof *w->pred);
        memcpy(k->pred_defined, w->pred_defined, p->pred_count * sizeof *w->pred_defined);
        k->launched = w->launched;
        k->exited = w->exited;
    }
    b->has_kept = true;
    memcpy(b->kept_ctaid, b->ctaid, sizeof b->ctaid);
}

/* CTA number cta (x fastest) from the start state; false when it stops early (a fault, a
 * deadlock, a --strict warning; a worker: anything it would report). */
bool block_run_cta(Block *b, const ExecOptions *o, uint64_t cta)
{
    block_begin_cta(b, o, cta);
    bool ran = run_cta(b, o) && !b->abandoned;
    block_end_cta(b, o, cta);
    return ran;
}

/* CTA number cta (x fastest) from the start state, ready to run (gang.c runs its warps). */
void block_begin_cta(Block *b, const ExecOptions *o, uint64_t cta)
{
    b->ctaid[0] = (uint32_t)(cta % b->nctaid[0]);
    b->ctaid[1] = (uint32_t)(cta / b->nctaid[0] % b->nctaid[1]);
    b->ctaid[2] = (uint32_t)(cta / ((uint64_t)b->nctaid[0] * b->nctaid[1]));
    if (b->start)
        restore_snapshot(b, b->start);
    b->options = o;
    memset(b->barriers, 0, sizeof b->barriers);
    b->live_threads = NO_SLOT;
    b->cta_first_step = b->steps;
    if (b->async)
        async_state(b);                /* copies a CTA before never waited for: none pending now */
    for (uint32_t i = 0; i < b->warp_count; i++) {
        warp_reset(b->warps[i]);
        wgmma_release(b->warps[i]);            /* results a CTA before never waited for */
        fill_special_registers(b->warps[i]);
    }
}

/* After CTA number cta: its registers kept when ExecOptions.keep_cta names it. */
void block_end_cta(Block *b, const ExecOptions *o, uint64_t cta)
{
    bulk_cta_end(b);                /* the copies not waited for land as the CTA ends */
    b->options = NULL;
    if (o->keep_given && o->keep_cta == cta && !b->abandoned)
        keep_cta(b);
}

/* The warps show the kept CTA: its rows change places with the last one's. Warnings stay. */
void block_show_kept(Block *b)
{
    if (!b->has_kept)
        return;
    for (uint32_t i = 0; i < b->warp_count; i++) {
        Warp *w = b->warps[i], *k = b->kept[i], keep = *w;
        w->val = k->val, w->bits = k->bits, w->defined = k->defined;
        w->pred = k->pred, w->pred_defined = k->pred_defined;
        w->launched = k->launched, w->exited = k->exited;
        k->val = keep.val, k->bits = keep.bits, k->defined = keep.defined;
        k->pred = keep.pred, k->pred_defined = keep.pred_defined;
    }
    memcpy(b->ctaid, b->kept_ctaid, sizeof b->ctaid);
    b->has_kept = false;
}

void block_progress(Block *b, const ExecOptions *o, bool now)
{
    GridProgress *g = b->progress;
    if (!g || !o->progress || (!now && b->steps - b->steps_counted < PROGRESS_STEPS))
        return;
    atomic_fetch_add(&g->steps, b->steps - b->steps_counted);
    b->steps_counted = b->steps;
    if (b->tells_progress)
        o->progress(o->progress_context, atomic_load(&g->ctas_done), g->ctas, atomic_load(&g->steps));
}

/* After the last CTA: the warnings, and the run's exit status. */
int block_finish(Block *b, const ExecOptions *o, bool faulted)
{
    bool warned = false;
    for (uint32_t i = 0; i < b->warp_count; i++) {
        report_warnings(b->warps[i], o->strict);
        warned |= b->warps[i]->warnings.len > 0;
        faulted |= b->warps[i]->faulted;
    }
    return faulted || (o->strict && warned) ? EXEC_FAULT : EXEC_OK;
}

