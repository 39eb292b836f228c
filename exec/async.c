/* async.c: cp.async (the non-bulk asynchronous copy from .global to .shared), its async-groups
 * (cp.async.commit_group, cp.async.wait_group N, cp.async.wait_all) and
 * cp.async.mbarrier.arrive(.noinc). A copy reads its source when it is issued, lane by lane
 * (src-size bytes, the rest zeros; none under a true ignore-src), and its destination is
 * undefined from then until it lands (asyncwrite.c): at the wait_group that completes its
 * group, or when the phase of the mbarrier that cp.async.mbarrier.arrive attached it to
 * completes. A copy never waited for never lands: no instruction can make it visible, and its
 * bytes stay undefined (docs/semantics.md, "Asynchronous copies"). Waits never block: the copies
 * complete there. Faults as ld and st give them (mem_locate), naming the line.
 * Requires: mem.c (mem_locate_in), asyncwrite.c, mbarrier.c (cp.async.mbarrier.arrive). */
#include <string.h>

#include "async.h"

static void lowering_error(Loader *ld, const Operand *o, const char *what)
{
    diag_at(ld->diag, DIAG_ERROR, o->at, "%s", what);
    ld->failed = true;
}

/* cp.async [dst], [src], cp-size {, src-size | ignore-src} {, cache-policy}: src[0] and offset
 * the destination (.shared), src[1] and src_offset the source (.global), bits the cp-size's,
 * src[2] the src-size row or ignore-src slot (src_count 3). The other instructions of the family:
 * their address (cp.async.mbarrier.arrive), or wait_group's N in `offset`. */
void async_lower(Loader *ld, const Instr *in, XInstr *x)
{
    switch (in->op) {
    case OP_CP_ASYNC_COMMIT_GROUP:
    case OP_CP_ASYNC_WAIT_ALL:
        return;
    case OP_CP_ASYNC_WAIT_GROUP:
        if (in->operands[0].kind != OPND_INT) {
            lowering_error(ld, &in->operands[0], "cp.async.wait_group takes an integer constant (as ptxas does)");
            return;
        }
        x->offset = in->operands[0].u.bits;
        return;
    case OP_CP_ASYNC_MBARRIER_ARRIVE:
        if (x->space != SPACE_SHARED)
            x->space = SPACE_NONE;
        operand_address(ld, in, &in->operands[0], x);
        return;
    default:
        break;
    }
    XInstr from;
    memset(&from, 0, sizeof from);
    from.space = SPACE_GLOBAL;
    operand_address(ld, in, &in->operands[1], &from);
    x->space = SPACE_SHARED;
    operand_address(ld, in, &in->operands[0], x);
    x->src[1] = from.src[0];
    x->src_offset = from.offset;
    x->src_addr_bits = from.addr_bits;
    x->src_count = 2;
    const Operand *size = &in->operands[2];
    if (size->kind != OPND_INT || (size->u.bits != 4 && size->u.bits != 8 && size->u.bits != 16)) {
        lowering_error(ld, size, "cp.async copies 4, 8 or 16 bytes, an integer constant (as ptxas takes)");
        return;
    }
    if (ir_has_mod(in, MOD_CG) && size->u.bits != 16) {
        lowering_error(ld, size, "cp.async.cg copies 16 bytes (as ptxas takes)");
        return;
    }
    x->bits = (uint8_t)(8 * size->u.bits);      /* the cp-size */
    bool hint = false;
    for (unsigned i = 0; i < in->mod_count; i++)
        hint |= in->mods[i] == MOD_L2_CACHE_HINT;
    if (in->operand_count - 3 - hint == 1) {
        const Operand *o = &in->operands[3];
        if (o->kind == OPND_INT && o->u.bits > size->u.bits) {
            lowering_error(ld, o, "cp.async's src-size is at most its cp-size (ptxas refuses more)");
            return;
        }
        x->src[2] = operand_source(ld, in, o, o->kind == OPND_PRED ? TYPE_PRED : TYPE_U32, x, 2);
        x->src_count = 3;
    }
}

/* The bytes one lane's cp.async copies, with their definedness: src-size bytes of the source
 * and zeros after them, or zeros under ignore-src; false after a fault. */
static bool copy_lane(Warp *w, const XInstr *x, int l, uint32_t pc)
{
    unsigned size = x->bits / 8u, from = size;
    bool unknown = false;
    if (x->src_count > 2) {
        uint32_t s = x->src[2];
        if (x->src_pred >> 2 & 1) {
            bool ignore = ((w->pred[s] >> l) ^ (x->src_not >> 2)) & 1;
            unknown = !(w->pred_defined[s] >> l & 1);
            from = ignore ? 0 : size;
        } else {
            uint64_t n = (uint32_t)w->val[s][l];
            unknown = !(w->defined[s] >> l & 1);
            if (!unknown && n > size) {
                report_fault(w, pc, "lane %d: 'cp.async' with src-size %llu, more than its %u bytes (the PTX ISA "
                             "leaves that undefined)", l, (unsigned long long)n, size);
                return false;
            }
            from = unknown ? size : (unsigned)n;
        }
        if (unknown)
            report_warn(w, pc, 1u << l, x->src_pred >> 2 & 1 ? "undefined ignore-src predicate (the copied bytes "
                        "are undefined)" : "undefined src-size (the copied bytes are undefined)");
    }
    if (unknown)
        from = 0;
    uint64_t dst = mem_lane_address(w, x, l);
    uint64_t src = (warp_src(w, x->src[1])[l] + (uint64_t)x->src_offset) & width_mask(x->src_addr_bits);
    if (from && !(w->defined[x->src[1]] >> l & 1)) {
        report_fault(w, pc, "lane %d (pc %u): 'cp.async' uses an undefined source address", l, pc);
        return false;
    }
    uint8_t data[16] = { 0 }, shadow[16];
    memset(shadow, unknown ? 0 : 0xff, sizeof shadow);
    if (from && src % size) {             /* aligned to cp-size, whatever src-size reads */
        report_fault(w, pc, "lane %d (pc %u): 'cp.async' reads %u bytes at 0x%llx, which is not %u-byte aligned", l, pc,
                     size, (unsigned long long)src, size);
        return false;
    }
    /* The src-size bytes read, in aligned pieces (a source near its buffer's end reads no more). */
    for (unsigned at = 0, piece; at < from; at += piece) {
        for (piece = 16; piece > from - at || at % piece; piece /= 2)
            ;
        uint8_t *ss, *sp = mem_locate_in(w, x, l, SPACE_GLOBAL, src + at, piece, false, &ss);
        if (!sp)
            return false;
        memcpy(data + at, sp, piece);
        memcpy(shadow + at, ss, piece);
    }
    uint8_t *ds, *dp = mem_locate_in(w, x, l, SPACE_SHARED, dst, size, true, &ds);
    if (!dp)
        return false;
    Block *b = w->block;
    uint32_t at = async_region_of(b, dp);
    if (at == NO_SLOT)
        BUG("cp.async: a destination in no region of its CTA");
    Region *r = &b->mem.regions[at];
    AsyncWrite wr = { .to = b, .region = (uint32_t)(r - b->mem.regions), .offset = (uint64_t)(dp - r->data),
                      .size = size, .thread = w->thread_base + (uint32_t)l, .pc = pc, .kind = ASYNC_COPY,
                      .mbarrier = NO_SLOT };
    async_issue(&wr, data, shadow);
    async_add(b, &wr);
    return true;
}

/* cp.async.mbarrier.arrive: the lane's copies (committed or not, none attached yet) are attached
 * to the mbarrier's current phase; then the arrive-on their completion triggers, at once (the
 * copies land when the phase completes, which cannot be before it): with .noinc one arrival of
 * the phase, without it none (the pending count goes up by one first, which the arrival takes
 * back; the count must have room for it). False after a fault. */
static bool mbarrier_arrive_lane(Warp *w, const XInstr *x, int l, uint32_t pc)
{
    Block *b = w->block;
    uint64_t address = mem_lane_address(w, x, l);
    uint8_t *shadow;
    uint8_t *p = mem_locate_in(w, x, l, x->space == SPACE_NONE ? SPACE_NONE : SPACE_SHARED, address, 8, false,
                               &shadow);
    if (!p)
        return false;
    uint32_t region;
    if (mbarrier_owner(b, p, &region) != b || b->mem.regions[region].space != SPACE_SHARED) {
        report_fault(w, pc, "lane %d (pc %u): 'cp.async.mbarrier.arrive' of 0x%llx, which is not in this CTA's .shared "
                     "(the PTX ISA leaves that undefined)", l, pc, (unsigned long long)address);
        return false;
    }
    uint32_t m = mbarrier_find(w, pc, l, b, region, (uint64_t)(p - b->mem.regions[region].data));
    if (m == NO_SLOT)
        return false;
    AsyncState *s = async_state(b);
    uint32_t thread = w->thread_base + (uint32_t)l;
    for (uint32_t i = 0; i < s->count; i++) {
        AsyncWrite *wr = &s->writes[i];
        if (wr->thread == thread && wr->kind == ASYNC_COPY && wr->mbarrier == NO_SLOT) {
            wr->mbarrier = m;
            wr->phase = s->bars[m].phase;
        }
    }
    if (x->mode != MOD_NOINC)
        return mbarrier_room(w, pc, l, b, m);   /* + 1, then the arrival's - 1 */
    return mbarrier_arrive_on(w, pc, l, b, m, 1);
}

void async_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    uint32_t pc = (uint32_t)(x - w->prog->code);
    switch (x->op) {
    case OP_CP_ASYNC_COMMIT_GROUP:
        for (uint32_t k = mask; k; k &= k - 1)
            async_commit(w->block, w->thread_base + (uint32_t)__builtin_ctz(k), ASYNC_COPY);
        return;
    case OP_CP_ASYNC_WAIT_GROUP:
    case OP_CP_ASYNC_WAIT_ALL:
        for (uint32_t k = mask; k; k &= k - 1) {
            uint32_t thread = w->thread_base + (uint32_t)__builtin_ctz(k);
            if (x->op == OP_CP_ASYNC_WAIT_ALL)
                async_commit(w->block, thread, ASYNC_COPY);
            async_wait(w->block, thread, ASYNC_COPY, x->op == OP_CP_ASYNC_WAIT_ALL ? 0 : (uint64_t)x->offset);
        }
        return;
    default:
        break;
    }
    if (!mem_address_defined(w, x, mask, pc))
        return;
    for (uint32_t k = mask; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        if (!(x->op == OP_CP_ASYNC ? copy_lane(w, x, l, pc) : mbarrier_arrive_lane(w, x, l, pc)))
            return;
    }
}
