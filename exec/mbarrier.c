/* mbarrier.c: mbarrier objects (PTX ISA 9.7.13.15): init, inval, arrive, arrive_drop (with
 * .noComplete, .expect_tx, a count), expect_tx, complete_tx, test_wait, try_wait (.parity),
 * pending_count; lane by lane, lowest first. An object is 8 bytes of .shared from its init to
 * its inval; its state (expected and pending arrival counts, tx-count, the phases completed) is
 * kept in its CTA's table (AsyncState.bars), and its 8 bytes hold ptxrun's encoding of it,
 * undefined to a load (the PTX ISA calls them opaque): an ordinary store to them is found at the
 * next mbarrier instruction and is a fault. A phase completes when its pending count and its
 * tx-count are both zero: the phases completed go up by one, the pending count starts again at
 * the expected count, and the asynchronous writes attached to the phase land (asyncwrite.c).
 * The state an arrive returns and test_wait takes (docs/semantics.md, "mbarrier"):
 *     bit 63: 1 (a state), bit 62: from a .noComplete arrive, bits 20-61: the phases completed
 *     before the arrive (the phase it arrived in), bits 0-19: the pending count before it.
 * test_wait never blocks. try_wait is potentially blocking, and ptxrun's time limit is "while
 * anything else can move": a lane whose phase has not completed waits there (mbarrier_suspend,
 * at_barrier) until a phase of its CTA's mbarriers completes (it then tries again), or until no
 * thread of the run can move (mbarrier_expire: the time limit expires, it gets false). What the
 * PTX ISA leaves undefined is a fault naming the instruction and, where there is one, the init.
 * Requires: mem.c (mem_locate_in), asyncwrite.c (async_state, landing attached writes), cluster.c
 * (cluster_peer: the CTAs of the cluster, without a call into gang.c, which runs the warps). */
#include <stdarg.h>
#include <string.h>

#include "async.h"

enum { MBAR_MAX = (1 << 20) - 1 };
#define STATE_MARK (1ull << 63)
#define STATE_NOCOMPLETE (1ull << 62)
#define PHASE_MASK ((1ull << 42) - 1)

/* The 8 bytes ptxrun keeps for a live mbarrier: pending count (bits 0-19), expected count
 * (20-39), tx-count + 2^20 (40-60), the current phase's parity (63). */
static uint64_t object_bits(const MBarrier *m)
{
    return m->pending | (uint64_t)m->expected << 20 | (uint64_t)(m->tx + MBAR_MAX + 1) << 40 | (m->phase & 1) << 63;
}

static uint8_t *object_bytes(Block *owner, const MBarrier *m, uint8_t **shadow)
{
    Region *r = &owner->mem.regions[m->region];
    *shadow = mem_shadow(&owner->mem, r) + m->offset;
    return r->data + m->offset;
}

static void store_object(Block *owner, const MBarrier *m)
{
    uint8_t *shadow, *p = object_bytes(owner, m, &shadow);
    mem_write_bytes(p, object_bits(m), 8);
    memset(shadow, 0, 8);
    async_changed(owner);
}

static void note_init(Warp *w, Block *owner, const MBarrier *m)
{
    if (!w->block->worker && m->init_pc < owner->prog.code_len)
        diag_at(w->block->diag, DIAG_NOTE, owner->prog.code[m->init_pc].ir->stmt_at, "the mbarrier was initialised here");
}

/* The table entry at region and offset, live or not; NO_SLOT when there is none. */
static uint32_t entry_at(const AsyncState *s, uint32_t region, uint64_t offset)
{
    for (uint32_t i = 0; i < s->bar_count; i++)
        if (s->bars[i].region == region && s->bars[i].offset == offset)
            return i;
    return NO_SLOT;
}

uint32_t mbarrier_find(Warp *w, uint32_t pc, int lane, Block *owner, uint32_t region, uint64_t offset)
{
    AsyncState *s = async_state(owner);
    uint32_t i = entry_at(s, region, offset);
    const char *op = w->prog->code[pc].ir->mnemonic;
    if (i == NO_SLOT || !s->bars[i].live) {
        report_fault(w, pc, "lane %d (pc %u): '%s' on 0x%llx in '%s', where no mbarrier is initialised%s (the PTX ISA "
                     "leaves that undefined)", lane, pc, op, (unsigned long long)offset + owner->mem.regions[region].base,
                     owner->mem.regions[region].name, i == NO_SLOT ? "" : " (it was invalidated)");
        return NO_SLOT;
    }
    MBarrier *m = &s->bars[i];
    uint8_t *shadow, *p = object_bytes(owner, m, &shadow);
    static const uint8_t zero[8];
    if (mem_read_bytes(p, 8) != object_bits(m) || memcmp(shadow, zero, 8)) {
        report_fault(w, pc, "lane %d (pc %u): '%s' on the mbarrier at 0x%llx, whose bytes an ordinary store has written "
                     "since its mbarrier.init at line %u (the PTX ISA leaves that undefined)", lane, pc, op,
                     (unsigned long long)m->offset + owner->mem.regions[region].base, owner->prog.code[m->init_pc].line);
        note_init(w, owner, m);
        return NO_SLOT;
    }
    return i;
}

/* The lanes of b waiting at a try_wait go on: to try again (a phase completed), or, when the time
 * limit expired, after it with the false they got. True if there were any. */
static bool release_waits(Block *b, bool expired)
{
    bool any = false;
    for (uint32_t i = 0; i < b->warp_count; i++) {
        Warp *w = b->warps[i];
        for (uint32_t k = w->waiting & w->at_barrier; k; k &= k - 1) {
            int l = __builtin_ctz(k);
            uint32_t pc = w->arrival[l].pc;
            if (w->prog->code[pc].op != OP_MBARRIER_TRY_WAIT)
                continue;                      /* a bar or barrier.cluster wait */
            w->waiting &= ~(1u << l);
            w->at_barrier &= ~(1u << l);
            w->pc[l] = expired ? pc + 1 : pc;
            any = true;
        }
    }
    return any;
}

/* The phase completes if its arrivals and transactions are all in. */
static void try_complete(Block *owner, uint32_t i)
{
    AsyncState *s = async_state(owner);
    MBarrier *m = &s->bars[i];
    if (m->pending || m->tx)
        return;
    uint64_t done = m->phase++;
    m->pending = m->expected;
    store_object(owner, m);
    async_land_phase(owner, i, done);
    release_waits(owner, false);
}

/* A fault at pc about the mbarrier m, naming its init: what (printf's format) the lane did. */
static void misuse(Warp *w, uint32_t pc, int lane, Block *owner, const MBarrier *m, const char *what, ...)
{
    char text[300];
    va_list ap;
    va_start(ap, what);
    vsnprintf(text, sizeof text, what, ap);
    va_end(ap);
    report_fault(w, pc, "lane %d (pc %u): '%s' %s, on the mbarrier initialised at line %u (the PTX ISA leaves that "
                 "undefined)", lane, pc, w->prog->code[pc].ir->mnemonic, text, owner->prog.code[m->init_pc].line);
    note_init(w, owner, m);
}

bool mbarrier_tx(Warp *w, uint32_t pc, int lane, Block *owner, uint32_t i, int64_t count)
{
    MBarrier *m = &async_state(owner)->bars[i];
    int64_t tx = m->tx + count;
    if (tx > MBAR_MAX || tx < -MBAR_MAX) {
        misuse(w, pc, lane, owner, m, "takes the tx-count to %lld, outside -(2^20 - 1)..2^20 - 1 (it was %d)",
               (long long)tx, m->tx);
        return false;
    }
    m->tx = (int32_t)tx;
    store_object(owner, m);
    if (count < 0)
        try_complete(owner, i);
    return true;
}

bool mbarrier_room(Warp *w, uint32_t pc, int lane, Block *owner, uint32_t i)
{
    MBarrier *m = &async_state(owner)->bars[i];
    if (m->pending + 1u > MBAR_MAX) {
        misuse(w, pc, lane, owner, m, "raises the pending count past 2^20 - 1 (it is %u)", m->pending);
        return false;
    }
    return true;
}

bool mbarrier_arrive_on(Warp *w, uint32_t pc, int lane, Block *owner, uint32_t i, uint32_t count)
{
    MBarrier *m = &async_state(owner)->bars[i];
    if (count > m->pending) {
        misuse(w, pc, lane, owner, m, "arrives %u times where the current phase waits for only %u more", count,
               m->pending);
        return false;
    }
    m->pending -= count;
    store_object(owner, m);
    try_complete(owner, i);
    return true;
}

Block *mbarrier_owner(Block *b, const uint8_t *p, uint32_t *region)
{
    if ((*region = async_region_of(b, p)) != NO_SLOT)
        return b;
    for (uint32_t r = 0, n = cluster_nctarank(b); r < n; r++) {
        Block *peer = cluster_peer(b, r);
        if (peer && peer != b && (*region = async_region_of(peer, p)) != NO_SLOT)
            return peer;
    }
    return NULL;
}

/* Whether the instruction may reach another CTA's mbarrier (PTX ISA 9.7.13.15.8). */
static bool reaches_cluster(int op)
{
    return op == OP_MBARRIER_ARRIVE || op == OP_MBARRIER_ARRIVE_EXPECT_TX || op == OP_MBARRIER_ARRIVE_DROP ||
           op == OP_MBARRIER_ARRIVE_DROP_EXPECT_TX || op == OP_MBARRIER_EXPECT_TX || op == OP_MBARRIER_COMPLETE_TX;
}

/* The lane's mbarrier address (x's space: .shared, .shared::cluster or generic) as a CTA (its own,
 * or another of its cluster), a .shared region and an offset; NULL after a fault. */
static Block *locate(Warp *w, const XInstr *x, int l, uint32_t pc, uint64_t address, uint32_t *region,
                     uint64_t *offset)
{
    uint64_t in_space;
    if (x->space == SPACE_NONE && mem_space_of(address, &in_space) != SPACE_SHARED) {
        report_fault(w, pc, "lane %d (pc %u): '%s' of 0x%llx, which is not a .shared address (the PTX ISA leaves that "
                     "undefined)", l, pc, x->ir->mnemonic, (unsigned long long)address);
        return false;
    }
    uint8_t *shadow, *p = mem_locate_in(w, x, l, x->space == SPACE_NONE ? SPACE_NONE : SPACE_SHARED, address, 8, true,
                                        &shadow);
    if (!p)
        return NULL;
    Block *owner = mbarrier_owner(w->block, p, region);
    if (!owner)
        BUG("an mbarrier address in no CTA's .shared");
    if (owner != w->block && !reaches_cluster(x->op)) {
        report_fault(w, pc, "lane %d (pc %u): '%s' of 0x%llx, the shared memory of another CTA of the cluster: only "
                     "arrive, arrive_drop, expect_tx and complete_tx reach an mbarrier there (PTX ISA)", l, pc,
                     x->ir->mnemonic, (unsigned long long)address);
        return NULL;
    }
    *offset = (uint64_t)(p - owner->mem.regions[*region].data);
    return owner;
}

uint32_t mbarrier_at(Warp *w, const XInstr *x, int lane, uint64_t address, Block **owner)
{
    uint32_t pc = (uint32_t)(x - w->prog->code), region;
    uint64_t offset;
    *owner = locate(w, x, lane, pc, address, &region, &offset);
    return *owner ? mbarrier_find(w, pc, lane, *owner, region, offset) : NO_SLOT;
}

/* A 32-bit operand of the lane (a count); false after a fault when it is undefined. */
static bool operand(Warp *w, const XInstr *x, int l, uint32_t pc, unsigned i, uint64_t *v)
{
    *v = warp_src(w, x->src[i])[l];
    if (w->defined[x->src[i]] >> l & 1)
        return true;
    report_fault(w, pc, "lane %d (pc %u): '%s' with an undefined %s", l, pc, x->ir->mnemonic,
                 x->op == OP_MBARRIER_TEST_WAIT || x->op == OP_MBARRIER_TRY_WAIT ? (x->mode == MOD_PARITY ? "phase parity"
                 : "state") : x->op == OP_MBARRIER_PENDING_COUNT ? "state" : "count");
    return false;
}

static bool init(Warp *w, const XInstr *x, int l, uint32_t pc, uint32_t region, uint64_t offset)
{
    Block *b = w->block;
    AsyncState *s = async_state(b);
    uint64_t count;
    if (!operand(w, x, l, pc, 1, &count))
        return false;
    uint32_t i = entry_at(s, region, offset);
    const MBarrier *old = i != NO_SLOT && s->bars[i].live ? &s->bars[i] : NULL;
    if (old && !old->phase && old->expected == (uint32_t)count && old->pending == old->expected && !old->tx) {
        /* Threads initialising one barrier alike before anyone uses it: NVIDIA's
         * globalToShmemAsyncCopy sample does (16 threads with threadIdx.x == 0). */
        report_warn(w, pc, 1u << l, "mbarrier.init of a live mbarrier that this init would leave as it is (the PTX "
                    "ISA leaves an init without mbarrier.inval undefined; ptxrun changes nothing),");
        return true;
    }
    if (old) {
        misuse(w, pc, l, b, old, "on a live mbarrier, not invalidated since");
        return false;
    }
    if ((uint32_t)count < 1 || (uint32_t)count > MBAR_MAX) {
        report_fault(w, pc, "lane %d (pc %u): 'mbarrier.init' with count %u, outside 1..2^20 - 1 (the PTX ISA leaves that "
                     "undefined)", l, pc, (uint32_t)count);
        return false;
    }
    if (i == NO_SLOT) {
        if (s->bar_count == s->bar_capacity) {
            s->bar_capacity = s->bar_capacity ? 2 * s->bar_capacity : 8;
            s->bars = xrealloc(s->bars, s->bar_capacity * sizeof *s->bars);
        }
        i = s->bar_count++;
    }
    s->bars[i] = (MBarrier){ .region = region, .offset = offset, .init_pc = pc, .expected = (uint32_t)count,
                             .pending = (uint32_t)count, .live = true };
    store_object(b, &s->bars[i]);
    return true;
}

/* test_wait, try_wait: whether the phase the state (or parity) names has completed. */
static bool wait_test(Warp *w, const XInstr *x, int l, uint32_t pc, const MBarrier *m, bool *done)
{
    uint64_t v;
    if (!operand(w, x, l, pc, 1, &v))
        return false;
    if (x->mode == MOD_PARITY) {
        if ((uint32_t)v > 1) {
            misuse(w, pc, l, w->block, m, "with phase parity %u (0 or 1)", (uint32_t)v);
            return false;
        }
        *done = (uint32_t)v != (m->phase & 1);       /* the current phase's parity: not complete */
        return true;
    }
    uint64_t phase = v >> 20 & PHASE_MASK, now = m->phase & PHASE_MASK;
    if (!(v & STATE_MARK) || (phase != now && ((phase + 1) & PHASE_MASK) != now)) {
        if (v & STATE_MARK)
            misuse(w, pc, l, w->block, m, "with the state of phase %llu, but the mbarrier is in phase %llu: only the "
                   "current phase and the one before may be tested", (unsigned long long)phase, (unsigned long long)now);
        else
            misuse(w, pc, l, w->block, m, "with 0x%016llx, which no mbarrier.arrive returned", (unsigned long long)v);
        return false;
    }
    *done = phase != now;
    return true;
}

/* One lane's mbarrier instruction; false after a fault. */
static bool lane(Warp *w, const XInstr *x, int l, uint32_t pc)
{
    Block *b = w->block;
    uint64_t v = 0, token;
    if (x->op == OP_MBARRIER_PENDING_COUNT) {
        if (!operand(w, x, l, pc, 0, &v))
            return false;
        if ((v & (STATE_MARK | STATE_NOCOMPLETE)) != (STATE_MARK | STATE_NOCOMPLETE)) {
            report_fault(w, pc, "lane %d (pc %u): 'mbarrier.pending_count' of 0x%016llx, not a state from "
                         "mbarrier.arrive.noComplete or arrive_drop.noComplete (the PTX ISA leaves that undefined)", l, pc,
                         (unsigned long long)v);
            return false;
        }
        w->val[x->dst][l] = v & MBAR_MAX;
        w->defined[x->dst] |= 1u << l;
        return true;
    }
    uint32_t region;
    uint64_t offset;
    Block *owner = locate(w, x, l, pc, mem_lane_address(w, x, l), &region, &offset);
    if (!owner)
        return false;
    if (x->op == OP_MBARRIER_INIT)
        return init(w, x, l, pc, region, offset);
    uint32_t i = mbarrier_find(w, pc, l, owner, region, offset);
    if (i == NO_SLOT)
        return false;
    b = owner;                                 /* the mbarrier's CTA: this one, or another of its cluster */
    MBarrier *m = &async_state(b)->bars[i];
    switch (x->op) {
    case OP_MBARRIER_INVAL: {
        m->live = false;
        uint8_t *shadow;
        object_bytes(b, m, &shadow);
        memset(shadow, 0, 8);                  /* ordinary memory again, its contents undefined */
        async_changed(b);
        return true;
    }
    case OP_MBARRIER_EXPECT_TX:
    case OP_MBARRIER_COMPLETE_TX:
        if (!operand(w, x, l, pc, 1, &v))
            return false;
        if (!mbarrier_tx(w, pc, l, b, i, x->op == OP_MBARRIER_EXPECT_TX ? (int64_t)(uint32_t)v : -(int64_t)(uint32_t)v))
            return false;
        try_complete(b, i);                    /* an expect_tx may bring a negative tx-count back to 0 */
        return true;
    case OP_MBARRIER_TEST_WAIT:
    case OP_MBARRIER_TRY_WAIT: {
        bool done;
        w->spin_read = true;                   /* a loop of waits may spin on the mbarrier (spin.c) */
        if (!wait_test(w, x, l, pc, m, &done))
            return false;
        w->pred[x->dst] = done ? w->pred[x->dst] | 1u << l : w->pred[x->dst] & ~(1u << l);
        w->pred_defined[x->dst] |= 1u << l;
        return true;
    }
    default:
        break;
    }
    /* arrive, arrive_drop, their .expect_tx and .noComplete forms */
    bool tx = x->op == OP_MBARRIER_ARRIVE_EXPECT_TX || x->op == OP_MBARRIER_ARRIVE_DROP_EXPECT_TX;
    bool drop = x->op == OP_MBARRIER_ARRIVE_DROP || x->op == OP_MBARRIER_ARRIVE_DROP_EXPECT_TX;
    uint64_t count = 1;
    if (x->src_count > 1 && !operand(w, x, l, pc, 1, tx ? &v : &count))
        return false;
    if ((uint32_t)count < 1 || (uint32_t)count > MBAR_MAX) {
        misuse(w, pc, l, b, m, "with count %u, outside 1..2^20 - 1", (uint32_t)count);
        return false;
    }
    token = STATE_MARK | (x->mode == MOD_NOCOMPLETE ? STATE_NOCOMPLETE : 0) | (m->phase & PHASE_MASK) << 20 | m->pending;
    if (tx && !mbarrier_tx(w, pc, l, b, i, (int64_t)(uint32_t)v))
        return false;
    if (drop) {
        if ((uint32_t)count > m->expected) {
            misuse(w, pc, l, b, m, "drops %u arrivals from an expected count of %u", (uint32_t)count, m->expected);
            return false;
        }
        m->expected -= (uint32_t)count;
    }
    if (x->mode == MOD_NOCOMPLETE && m->pending == (uint32_t)count && !m->tx) {
        misuse(w, pc, l, b, m, "with .noComplete completes the phase (%u arrivals were pending)", m->pending);
        return false;
    }
    if (!mbarrier_arrive_on(w, pc, l, b, i, (uint32_t)count))
        return false;
    if (x->dst_kind == DST_VALUE) {            /* another CTA's mbarrier returns nothing: undefined */
        w->val[x->dst][l] = token;
        warp_define(w, x->dst, 1u << l, b == w->block ? 1u << l : 0);
    }
    return true;
}

uint32_t mbarrier_suspend(Warp *w, const XInstr *x, uint32_t pc, uint32_t run)
{
    uint32_t waits = run & w->pred_defined[x->dst] & ~w->pred[x->dst];
    for (uint32_t k = waits; k; k &= k - 1)
        w->arrival[__builtin_ctz(k)] = (Arrival){ pc, 0, w->steps };
    w->waiting |= waits;
    w->at_barrier |= waits;
    if (w->trace)
        w->trace->waiting |= waits;
    return waits;
}

bool mbarrier_expire(Block *b)
{
    return release_waits(b, true);
}

void mbarrier_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    uint32_t pc = (uint32_t)(x - w->prog->code);
    for (uint32_t k = mask; k; k &= k - 1)
        if (!lane(w, x, __builtin_ctz(k), pc))
            return;
}

/* The operands: the address in src[0] (space, offset), a count, txCount, state or parity in
 * src[1] (pending_count: the state in src[0]); the destination (state, predicate, count). */
void mbarrier_lower(Loader *ld, const Instr *in, XInstr *x)
{
    unsigned first = 0;
    if (x->space != SPACE_SHARED)
        x->space = SPACE_NONE;
    switch (in->op) {
    case OP_MBARRIER_PENDING_COUNT:
        operand_destination(ld, in, &in->operands[0], x);
        x->src[0] = operand_source(ld, in, &in->operands[1], TYPE_B64, x, 0);
        x->src_count = 1;
        return;
    case OP_MBARRIER_INIT: case OP_MBARRIER_INVAL: case OP_MBARRIER_EXPECT_TX: case OP_MBARRIER_COMPLETE_TX:
        break;
    default:
        operand_destination(ld, in, &in->operands[0], x);
        first = 1;
    }
    operand_address(ld, in, &in->operands[first], x);
    if (in->operand_count > first + 1) {
        bool state = (in->op == OP_MBARRIER_TEST_WAIT || in->op == OP_MBARRIER_TRY_WAIT) && x->mode != MOD_PARITY;
        x->src[1] = operand_source(ld, in, &in->operands[first + 1], state ? TYPE_B64 : TYPE_U32, x, 1);
        x->src_count = 2;                      /* try_wait's time limit is not read: it never waits */
    }
    bool sem = false, scope = false, cluster_scope = false;
    for (unsigned i = 0; i < in->mod_count; i++) {
        Mod m = in->mods[i];
        sem |= m == MOD_RELEASE || m == MOD_RELAXED || m == MOD_ACQUIRE;
        scope |= m == MOD_CTA || m == MOD_CLUSTER;
        cluster_scope |= m == MOD_CLUSTER;
    }
    if (sem != scope) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s': .sem and .scope go together (PTX ISA; as ptxas takes)", in->mnemonic);
        ld->failed = true;
    }
    if (x->mode == MOD_NOCOMPLETE && (cluster_scope || ir_has_mod(in, MOD_RELAXED))) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s': .noComplete goes with .release.cta only (as ptxas takes)",
                in->mnemonic);
        ld->failed = true;
    }
    if (x->cluster_space && x->dst_kind == DST_VALUE) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' on .shared::cluster returns nothing: its destination is '_' (as "
                "ptxas takes)", in->mnemonic);
        ld->failed = true;
    }
    if (x->mode == MOD_NOCOMPLETE && x->src_count < 2) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' takes a count with .noComplete (as ptxas does)", in->mnemonic);
        ld->failed = true;
    }
}
