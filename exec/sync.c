/* sync.c: warp-level synchronising instructions (shfl.sync, vote.sync, match, redux, elect,
 * bar.warp.sync) and the way into CTA barriers. A lane whose guard holds waits at the
 * instruction until every non-exited lane of its membermask has arrived at one of the same
 * kind (XInstr.sync_kind: opcode, types and modifiers) and mask; then they complete together
 * and the exchange runs (warpops.c). Guard-false lanes do not take part: they go on to the next
 * instruction (DECISIONS 8). CTA barriers: barrier.c. */
#include <string.h>

#include "family.h"
#include "tensor.h"

static void exchange(Warp *w, const XInstr *x, const XInstr *at, uint32_t lanes, uint32_t guard_true);

/* Lanes whose guard was undefined took part as its bits said, but what they wrote is unknown. */
static void forget_if_guard_undefined(Warp *w, const XInstr *x, uint32_t lanes)
{
    if (!x->guard || !(lanes &= ~w->pred_defined[x->guard_pred]))
        return;
    if (x->dst_kind == DST_VALUE)
        warp_define(w, x->dst, lanes, 0);
    else if (x->dst_kind == DST_PRED)
        w->pred_defined[x->dst] &= ~lanes;
    if (x->dst_pred != NO_SLOT)
        w->pred_defined[x->dst_pred] &= ~lanes;
    for (unsigned i = 0; x->op == OP_LDMATRIX && i < x->elements; i++)
        warp_define(w, x->dsts[i], lanes, 0);
}

/* The lanes of cls, all waiting at instructions of one kind and mask, complete together. Only
 * lanes whose guard held arrived, so every one of them takes part. */
static void complete(Warp *w, uint32_t cls)
{
    uint32_t pc = w->arrival[__builtin_ctz(cls)].pc;
    const XInstr *x = &w->prog->code[pc];
    bool one_pc = true;
    for (uint32_t k = cls; k && one_pc; k &= k - 1)
        one_pc = w->arrival[__builtin_ctz(k)].pc == pc;
    exchange(w, x, one_pc ? x : NULL, cls, cls);
    for (uint32_t k = cls; k; k &= k - 1) {
        int lane = __builtin_ctz(k);
        const XInstr *own = &w->prog->code[w->arrival[lane].pc];
        forget_if_guard_undefined(w, own, 1u << lane);
        w->pc[lane] = w->arrival[lane].pc + 1;
        if (w->trace && (w->waiting >> lane & 1)) {
            if (!w->trace->released || w->arrival[lane].since < w->trace->waited_since)
                w->trace->waited_since = w->arrival[lane].since;
            w->trace->released |= 1u << lane;
        }
    }
    w->waiting &= ~cls;
}

/* Completes every set of waiting lanes whose membermask has all arrived (exited lanes never
 * block). Lanes waiting at instructions of another kind or mask are not counted as arrived. */
void sync_try_complete(Warp *w)
{
    uint32_t pending = w->waiting & ~w->at_barrier;
    uint32_t alive = w->launched & ~w->exited;
    while (pending) {
        int l = __builtin_ctz(pending);
        Arrival a = w->arrival[l];
        const XInstr *x = &w->prog->code[a.pc];
        uint32_t cls = 0;
        for (uint32_t k = w->waiting & ~w->at_barrier; k; k &= k - 1) {
            int lane = __builtin_ctz(k);
            if (w->arrival[lane].membermask == a.membermask && w->prog->code[w->arrival[lane].pc].sync_kind == x->sync_kind)
                cls |= 1u << lane;
        }
        pending &= ~cls;
        if ((a.membermask & alive & ~cls) == 0)
            complete(w, cls);
    }
}

/* The exchange itself, for lanes that complete together (at one instruction `at`, or each
 * at its own when `at` is NULL). */
static void exchange(Warp *w, const XInstr *x, const XInstr *at, uint32_t lanes, uint32_t guard_true)
{
    switch (x->op) {
    case OP_SHFL_SYNC: warpops_shfl(w, at, lanes, lanes, guard_true); break;
    case OP_VOTE_SYNC: warpops_vote(w, at, lanes, guard_true); break;
    case OP_MATCH: warpops_match(w, at, lanes, guard_true); break;
    case OP_REDUX_SYNC: warpops_redux(w, at, lanes, guard_true); break;
    case OP_ELECT_SYNC: warpops_elect(w, at, lanes, guard_true); break;
    case OP_LDMATRIX: matrix_ldmatrix(w, at, lanes); break;
    case OP_STMATRIX: matrix_stmatrix(w, at, lanes); break;
    case OP_MOVMATRIX: matrix_movmatrix(w, at, lanes); break;
    default: break;                       /* barriers: meeting is all they do */
    }
}

/* A membermask naming lanes past the block's last thread (a partial last warp; 0xffffffff in a
 * block of 48 threads): those lanes do not exist. The PTX ISA waits for the non-exited lanes of
 * membermask only and leaves a value read from an inactive lane undefined, so they take part as
 * exited lanes do (what one would supply is undefined, shown as such); a warning says so, as the
 * mask was most likely meant for a whole warp. */
static const char missing_lanes[] = "membermask names lanes past the block's end (its last warp is partial): "
                                    "they take part as exited lanes, and a value read from one is undefined;";

static void warn_missing_lanes(Warp *w, uint32_t pc, uint32_t membermask, uint32_t lanes)
{
    const Block *b = w->block;
    uint32_t have = b->threads - w->thread_base;
    const XInstr *x = &w->prog->code[pc];
    if (x->op == OP_LDMATRIX || x->op == OP_STMATRIX || x->op == OP_MOVMATRIX)
        return;                        /* no membermask: the whole warp, which is partial */
    if (have < WARP_SIZE && membermask >> have)
        report_warn(w, pc, lanes, missing_lanes);
}

/* The lanes of mask, all the warp's ready ones with none waiting, reach the warp-synchronising
 * instruction at pc: when those whose guard holds (defined everywhere) name just themselves (and
 * exited lanes) in one defined membermask, they complete at once and true is returned; every
 * lane of mask then goes on to pc + 1, and the caller moves their pcs. False, having done
 * nothing: sync_arrive must take them. */
bool sync_converged(Warp *w, uint32_t pc, uint32_t mask)
{
    const XInstr *x = &w->prog->code[pc];
    uint32_t guard_undefined;
    uint32_t run = warp_guard_lanes(w, x, mask, &guard_undefined);
    if (x->barrier || guard_undefined || w->waiting)
        return false;
    if (!run)
        return true;
    uint32_t row = x->src[x->src_count - 1];
    uint32_t membermask = (uint32_t)w->val[row][__builtin_ctz(run)];
    if (row < w->prog->first_immediate) {      /* a register (immediates are defined) */
        if ((run & w->defined[row]) != run && (run & ~warp_defined_in(w, row, run, w->launched)))
            return false;               /* a membermask counts the bits of lanes that exist */
        for (uint32_t k = run; k; k &= k - 1)
            if ((uint32_t)w->val[row][__builtin_ctz(k)] != membermask)
                return false;
    }
    if ((membermask & w->launched & ~w->exited) != run)
        return false;
    warn_missing_lanes(w, pc, membermask, run);
    exchange(w, x, x, run, run);
    return true;
}

/* Lanes of mask reach the synchronising instruction at pc. Those whose guard is false do not
 * execute it: they go on to the next instruction without arriving (ptxas branches around a
 * guarded warp-synchronous instruction), are not checked for their membermask bit, and meet
 * the others at their next instruction of the same kind. CTA barriers: barrier.c. */
void sync_arrive(Warp *w, uint32_t pc, uint32_t mask)
{
    const XInstr *x = &w->prog->code[pc];
    uint32_t guard_undefined;
    uint32_t run = warp_guard_lanes(w, x, mask, &guard_undefined);
    if (guard_undefined)
        report_warn(w, pc, guard_undefined, "undefined guard predicate");
    if (run != mask && run && (x->op == OP_LDMATRIX || x->op == OP_STMATRIX || x->op == OP_MOVMATRIX))
        report_warn(w, pc, mask & ~run, "guard false for some of the warp's lanes at a '.sync.aligned' instruction "
                    "(PTX leaves that undefined; they go on, the others wait until they exit or arrive),");
    if (run != mask)
        warp_advance(w, mask & ~run, pc + 1);
    if (x->barrier) {
        barrier_arrive(w, pc, run);
        return;
    }
    mask = run;
    if (!mask)
        return;
    uint32_t row = x->src[x->src_count - 1];
    uint32_t undefined = mask & ~warp_defined_in(w, row, mask, w->launched);   /* bits of lanes that exist */
    if (undefined)
        report_warn(w, pc, undefined, "undefined membermask");
    if (!w->waiting && !undefined) {
        /* Converged code: one membermask, naming exactly the lanes here (and exited ones):
         * they complete at once, without the bookkeeping of waiting. */
        uint32_t membermask = (uint32_t)w->val[row][__builtin_ctz(mask)], same = ALL_LANES;
        if (row < w->prog->first_immediate) {
            same = 0;
            for (int l = 0; l < WARP_SIZE; l++)
                same |= (uint32_t)((uint32_t)w->val[row][l] == membermask) << l;
        }
        if ((same & mask) == mask && (membermask & w->launched & ~w->exited) == mask) {
            warn_missing_lanes(w, pc, membermask, mask);
            exchange(w, x, x, mask, mask);
            forget_if_guard_undefined(w, x, mask);
            warp_advance(w, mask, pc + 1);
            return;
        }
    }
    for (uint32_t k = mask; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint32_t membermask = (uint32_t)w->val[row][l];
        if (!(membermask >> l & 1)) {
            report_fault(w, pc, "lane %d executes '%s' with membermask 0x%08x, which does not include "
                       "the lane itself", l, x->ir->mnemonic, membermask);
            return;
        }
        warn_missing_lanes(w, pc, membermask, 1u << l);
        w->arrival[l] = (Arrival){ pc, membermask, w->steps };
    }
    w->waiting |= mask;
    sync_try_complete(w);
    if (w->trace)
        w->trace->waiting |= mask & w->waiting;
}
