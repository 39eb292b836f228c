/* warp.c: one warp's loop. Runs the warp's 32 lanes of the lowered program with their own
 * program counters: each warp-step takes the ready lanes that share one pc, the lowest, and
 * executes one instruction for all of them at once; a lane at a reconvergence point waits there
 * while lanes that will come to it run. Synchronising instructions (shfl.sync, vote.sync,
 * bar.warp.sync, ...) make a lane whose guard holds wait until every non-exited lane of its
 * membermask has arrived at one of the same kind, qualifiers and mask (sync.c). block.c runs
 * the warps of a CTA and calls a deadlock when no lane of any warp can move.
 * step() hands each instruction to the executor of its family (ops.def): alu.c, bitops.c,
 * video.c, mathops.c, convert.c, mem.c, warpops.c, sync.c, barrier.c, call.c.
 * choose() is the rule, and looks at every lane; the loop asks it only where something it looks
 * at may have changed. While lanes stay together it knows the answer: all the ready lanes again
 * (converged code), or, from choose()'s last pick, the same lanes, or all, or the others
 * (follow(), parted(): the two arms of an if). run_straight() runs such steps in a row without
 * coming back to the loop, and last_run, which only choose() reads, is written late (Stamps). */
#include <stdlib.h>
#include <string.h>

#include "async.h"

enum {
    STARVE_STEPS = 256,        /* a ready lane left waiting this long runs next */
    HOLD_STEPS = 1 << 14,      /* and one held at a reconvergence point this long */
};

static int lane_count(uint32_t mask)
{
    mask = mask - ((mask >> 1) & 0x55555555u);
    mask = (mask & 0x33333333u) + ((mask >> 2) & 0x33333333u);
    return (int)((((mask + (mask >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

/* Each lane's bit, from a table: loops over the 32 lanes that test `mask & lane_bit[l]` compile
 * to vector code (a shift by the lane number would not). */
#define LANE_BITS4(l) 1u << (l), 1u << ((l) + 1), 1u << ((l) + 2), 1u << ((l) + 3)
static const uint32_t lane_bit[WARP_SIZE] = {
    LANE_BITS4(0), LANE_BITS4(4), LANE_BITS4(8), LANE_BITS4(12),
    LANE_BITS4(16), LANE_BITS4(20), LANE_BITS4(24), LANE_BITS4(28),
};

/* The lanes of mask go on at `next` (warp_advance, in vector code: the warp loop's hot path). */
static void move_lanes(Warp *w, uint32_t mask, uint32_t next)
{
    if (mask == ALL_LANES) {
        for (int l = 0; l < WARP_SIZE; l++)
            w->pc[l] = next;
        return;
    }
    for (int l = 0; l < WARP_SIZE; l++)
        w->pc[l] = (mask & lane_bit[l]) ? next : w->pc[l];
}

/* brx.idx: each lane of run to entry `index` of the list, the others on; an undefined index or
 * one past the list's end (the PTX ISA leaves the target undefined) is a fault. Returns what
 * step() returns. */
static uint32_t indexed_branch(Warp *w, const XInstr *x, uint32_t pc, uint32_t mask, uint32_t run, uint32_t undefined)
{
    if (undefined)
        report_warn(w, pc, undefined, "undefined guard predicate");
    const uint64_t *index = warp_src(w, x->src[0]);
    uint32_t bad = run & ~w->defined[x->src[0]];
    for (uint32_t k = run & ~bad; k; k &= k - 1)
        if ((uint32_t)index[__builtin_ctz(k)] >= x->target_count)
            bad |= k & -k;
    if (bad) {
        int l = __builtin_ctz(bad);
        if (w->defined[x->src[0]] >> l & 1)
            report_fault(w, pc, "lane %d: 'brx.idx' with index %u; its list has %u labels", l, (uint32_t)index[l],
                         x->target_count);
        else
            report_fault(w, pc, "lane %d: 'brx.idx' with an undefined index", l);
        return NO_SLOT;
    }
    const uint32_t *targets = w->prog->branch_targets + x->target;
    uint32_t first = run ? targets[(uint32_t)index[__builtin_ctz(run)]] : pc + 1, same = 0;
    for (uint32_t k = run; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        w->pc[l] = targets[(uint32_t)index[l]];
        same |= (uint32_t)(w->pc[l] == first) << l;
    }
    if (x->mode == MOD_UNI && same != run)
        report_warn(w, pc, run, "brx.idx.uni whose lanes disagree");
    move_lanes(w, mask & ~run, pc + 1);
    return run == mask && same == run ? first : !run ? pc + 1 : NO_SLOT;
}

/* Branches, calls, returns, exit and trap (FAM_CONTROL) for the lanes of mask at pc, run of them
 * with a true guard (undefined: with an undefined one). Returns what step() returns. */
static uint32_t control(Warp *w, const XInstr *x, uint32_t pc, uint32_t mask, uint32_t run, uint32_t undefined)
{
    switch (x->op) {
    case OP_BRA: {
        if (undefined)
            report_warn(w, pc, undefined, "undefined branch condition");
        uint32_t stay = mask & ~run;
        if (x->mode == MOD_UNI && run && stay)
            report_warn(w, pc, mask, "bra.uni whose lanes disagree");
        move_lanes(w, run, x->target);
        move_lanes(w, stay, pc + 1);
        return run == mask ? x->target : stay == mask ? pc + 1 : NO_SLOT;
    }
    case OP_BRX_IDX:
        return indexed_branch(w, x, pc, mask, run, undefined);
    case OP_EXIT:
    case OP_RET:
        if (undefined)
            report_warn(w, pc, undefined, "undefined guard predicate");
        move_lanes(w, mask & ~run, pc + 1);
        if (x->op == OP_EXIT) {
            w->exited |= run;
            for (uint32_t k = run; k; k &= k - 1)
                w->depth[__builtin_ctz(k)] = 0;
        } else {
            call_return(w, run);
        }
        if (run && w->waiting)
            sync_try_complete(w);
        if (run)
            barrier_threads_exited(w->block);
        return NO_SLOT;
    case OP_CALL:
        if (undefined)
            report_warn(w, pc, undefined, "undefined guard predicate");
        move_lanes(w, mask & ~run, pc + 1);
        if (w->prog->calls[x->target].builtin) {
            builtin_call(w, pc, run);            /* vprintf, __assertfail */
            w->spin_epoch = SPIN_AFRESH;         /* printing is a change: a loop that prints never parks */
        }
        else
            call_enter(w, pc, run);
        return NO_SLOT;
    case OP_NANOSLEEP:                           /* a warp-step of its own, nothing more */
    case OP_BRKPT:                               /* no debugger: --trace notes it */
        if (undefined)
            report_warn(w, pc, undefined, "undefined guard predicate");
        move_lanes(w, mask, pc + 1);
        return pc + 1;
    case OP_TRAP:
        if (undefined)
            report_warn(w, pc, undefined, "undefined guard predicate");
        move_lanes(w, mask & ~run, pc + 1);
        if (run) {
            char lanes[200], thread[64] = "";
            report_lanes(w, lanes, sizeof lanes, run);
            if (!(run & (run - 1))) {          /* one lane: its thread, as CUDA names threads */
                const Block *b = w->block;
                uint32_t t = w->thread_base + (uint32_t)__builtin_ctz(run);
                snprintf(thread, sizeof thread, " (thread [%u,%u,%u])", t % b->ntid[0], t / b->ntid[0] % b->ntid[1],
                         t / (b->ntid[0] * b->ntid[1]));
            }
            report_fault(w, pc, "'trap' executed by %s%s: the kernel is aborted", lanes, thread);
            return NO_SLOT;
        }
        move_lanes(w, mask, pc + 1);
        return pc + 1;
    default:
        BUG("control op %d", x->op);
    }
}

/* A source r+imm: its row for the lanes of run, in r's width; a lane's sum is defined where r
 * is wholly defined (a carry reaches every bit). */
static void warp_adjust(Warp *w, const XInstr *x, uint32_t run)
{
    uint64_t m = width_mask(x->adjust_bits);
    for (uint32_t k = run; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        w->val[x->adjust_row][l] = (w->val[x->adjust_from][l] + (uint64_t)x->adjust_by) & m;
    }
    uint32_t defined = w->defined[x->adjust_from] & run;
    w->defined[x->adjust_row] = (w->defined[x->adjust_row] & ~run) | defined;
    for (uint32_t k = run & ~defined; k; k &= k - 1)
        warp_define_bits(w, x->adjust_row, __builtin_ctz(k), 0, 64);
}

/* A mul whose operands a fused add reads after they are written (contract.c): a copy of them,
 * for the lanes of run, in rows of their own. */
static void warp_keep_operands(Warp *w, const XInstr *x, uint32_t run)
{
    for (unsigned s = 0; s < 2; s++) {
        uint32_t from = x->src[s], to = x->keep_row + s;
        for (uint32_t k = run; k; k &= k - 1) {
            int l = __builtin_ctz(k);
            w->val[to][l] = w->val[from][l];
            w->bits[to][l] = w->bits[from][l];
        }
        w->defined[to] = (w->defined[to] & ~run) | (w->defined[from] & run);
    }
}

/* Runs x, an instruction after which every lane of mask goes on to the next one (every family
 * but control flow and the synchronising ones), for them: run of them with a true guard
 * (undefined: with an undefined one). Moves no pc. False on a fault. */
static bool execute(Warp *w, const XInstr *x, uint32_t mask, uint32_t run, uint32_t undefined)
{
    if (x->adjust_bits)
        warp_adjust(w, x, run);
    if (x->keeps_operands)
        warp_keep_operands(w, x, run);
    switch ((Family)x->family) {
    case FAM_FENCE:
        break;                     /* every access is performed in program order already */
    case FAM_HINT:
        break;                     /* no caches, no counters, one grid */
    case FAM_STACK:
        call_stack(w, x, run);
        break;
    case FAM_ATOMIC:
        atomic_execute(w, x, run);
        break;
    case FAM_MULTIMEM:
        multimem_execute(w, x, run);
        break;
    case FAM_BULK:
        bulk_execute(w, x, run);
        break;
    case FAM_ASYNC:
        async_execute(w, x, run);
        break;
    case FAM_MBARRIER:
        mbarrier_execute(w, x, run);
        break;
    case FAM_MEMORY:
        if (x->op == OP_MAPA || x->op == OP_GETCTARANK)
            cluster_execute(w, x, run);
        else if (x->op == OP_ST_ASYNC || x->op == OP_RED_ASYNC)
            clusterasync_execute(w, x, run);
        else
            mem_execute(w, x, run);
        break;
    case FAM_WARP:
        warpops_execute(w, x, mask, run);
        break;
    case FAM_CONVERT:
        convert_execute(w, x, run);
        break;
    case FAM_ALU:
        if (x->pack || x->unpack || x->vmove)
            pack_execute(w, x, run);
        else
            alu_execute(w, x, run);
        break;
    case FAM_BITOPS:
        bitops_execute(w, x, run);
        break;
    case FAM_MATHOPS:
        mathops_execute(w, x, run);
        break;
    case FAM_VIDEO:
        video_execute(w, x, run);
        break;
    case FAM_SURFACE:
        surface_execute(w, x, run);
        break;
    case FAM_TEXTURE:
        texture_execute(w, x, run);
        break;
    case FAM_HALF:
        half_execute(w, x, run);
        break;
    case FAM_CONTROL:
    case FAM_SYNC:
    case FAM_BARRIER:
    case FAM_NONE:
    case FAM_COUNT:
        BUG("'%s' was loaded, but no part of the executor runs it", op_info[x->op].name);
    }
    if (w->faulted)
        return false;
    if (undefined) {               /* written or not, nobody can say */
        if (x->dst_kind == DST_VALUE)
            warp_define(w, x->dst, undefined, 0);
        if (x->dst_kind == DST_VALUE && x->bits == 128)   /* a .b128 register's high row (wide.c) */
            warp_define(w, x->dst + 1, undefined, 0);
        else if (x->dst_kind == DST_PRED)
            w->pred_defined[x->dst] &= ~undefined;
        if (x->dst_pred != NO_SLOT)
            w->pred_defined[x->dst_pred] &= ~undefined;
        bool parts = x->unpack || x->vmove || (x->family == FAM_MEMORY && x->op != OP_ST && x->op != OP_CVTA &&
                                                   x->op != OP_ST_ASYNC && x->op != OP_RED_ASYNC) ||
                     x->op == OP_SULD || x->op == OP_TEX || x->op == OP_TLD4;
        for (unsigned i = 0; parts && i < x->vec_count; i++)     /* mov {a, b}, ld.v2 {a, b}: every part */
            if (x->vec[i] != NO_SLOT)
                warp_define(w, x->vec[i], undefined, 0);
        for (unsigned i = 0; i < x->elements; i++)      /* atom.v4 {a, b, c, d}, ... */
            if (x->dsts[i] != NO_SLOT)
                warp_define(w, x->dsts[i], undefined, 0);
    }
    return true;
}

/* Executes the instruction at pc for the lanes of mask. Returns the pc they all continue at,
 * or NO_SLOT when they part, wait or end (the scheduler then looks at every lane). */
static uint32_t step(Warp *w, uint32_t pc, uint32_t mask)
{
    const XInstr *x = &w->prog->code[pc];
    uint32_t undefined;
    uint32_t run = warp_guard_lanes(w, x, mask, &undefined);
    if (w->wgmma_inflight)
        wgmma_check_reads(w, pc, mask);        /* D of a wgmma.mma_async read before its wait */
    if (x->reads_clock) {
        builtin_clock(w);
        w->spin_epoch = SPIN_AFRESH;             /* a loop that reads the clock never parks */
    }
    switch ((Family)x->family) {
    case FAM_CONTROL:
        return control(w, x, pc, mask, run, undefined);
    case FAM_SYNC:
    case FAM_BARRIER:
        sync_arrive(w, pc, mask);
        return w->waiting & mask ? NO_SLOT : pc + 1;
    default:
        if (!execute(w, x, mask, run, undefined))
            return NO_SLOT;
        if (x->op == OP_MBARRIER_TRY_WAIT) {   /* potentially blocking (mbarrier.c) */
            uint32_t waits = mbarrier_suspend(w, x, pc, run);
            if (waits) {
                move_lanes(w, mask & ~waits, pc + 1);
                return NO_SLOT;
            }
        }
        move_lanes(w, mask, pc + 1);
        return pc + 1;
    }
}

static void count_steps(Warp *w, uint32_t mask, uint64_t steps)
{
    w->steps += steps;
    w->block->steps += steps;
    w->block->lane_steps += steps * (uint64_t)lane_count(mask);
}

/* Whether run_straight() can run x: it takes the lanes to one next instruction or is a branch. */
static bool straight(const XInstr *x)
{
    return x->family == FAM_CONTROL ? x->op == OP_BRA
                                    : x->family != FAM_SYNC && x->family != FAM_BARRIER && x->op != OP_MBARRIER_TRY_WAIT;
}

/* Runs the lanes of mask, all at pc and the ones to run now, on through instructions that take
 * them together to one next instruction: those execute() runs, and branches on which they agree.
 * It stops before a step at or past `until`, at a pc at or past `limit`, at a reconvergence
 * point when `divergent`, and after a fault; the caller has checked that at each step before
 * that, warp_run would pick these same lanes. Their pcs are written once, at the end (nothing
 * that runs here reads them). Returns how many steps ran, 0 when the instruction at pc is not
 * one of those; *next gets where the lanes go on, NO_SLOT after a fault. */
static uint64_t run_straight(Warp *w, uint32_t pc, uint32_t mask, uint32_t limit, bool divergent, uint64_t until,
                             uint32_t *next)
{
    const XInstr *code = w->prog->code;
    uint64_t steps = 0, last = until > w->steps ? until - w->steps : 1;   /* this one runs anyway */
    Prefetch *ahead = w->block->gang ? w->block->gang->ahead : NULL;
    *next = pc;
    for (;;) {
        const XInstr *x = &code[pc];
        if (ahead)
            prefetch_some(ahead);
        if (x->reads_clock)
            break;                              /* step() sets the clock first */
        if (w->wgmma_inflight)
            wgmma_check_reads(w, pc, mask);
        if (x->family == FAM_SYNC && !divergent && !w->waiting) {
            /* All the ready lanes at a warp-synchronising instruction, none waiting: it
             * completes at once when its membermask names just them (sync_arrive's converged
             * path), and they go on together; otherwise they stop here as step() leaves them. */
            if (!sync_converged(w, pc, mask)) {
                move_lanes(w, mask, pc);
                sync_arrive(w, pc, mask);
            }
            steps++;
            /* None waiting: each went on to pc + 1 (guard false, completed at once or with the others). */
            if (w->faulted || (w->waiting & mask)) {
                *next = NO_SLOT;
                count_steps(w, mask, steps);
                return steps;
            }
            pc++;
            *next = pc;
            if (steps >= last || pc >= limit)
                break;
            continue;
        }
        if (!straight(x))
            break;
        uint32_t undefined, run = warp_guard_lanes(w, x, mask, &undefined), to = pc + 1;
        if (x->family == FAM_CONTROL) {
            if (undefined || (run && run != mask))
                break;                      /* a branch that parts them, or warns: step() */
            to = run ? x->target : pc + 1;
            spin_watch(w, to);
            if (to <= pc && warp_spins(w, pc, mask))
                break;                      /* parked at the branch, or held lanes go first (spin.c) */
        } else if ((x->kop || x->kcmp) && !undefined) {
            alu_kernel(w, x, run);          /* the commonest, without execute()'s switch */
        } else if (!execute(w, x, mask, run, undefined)) {
            steps++;
            *next = NO_SLOT;
            break;
        }
        steps++;
        pc = to;
        *next = pc;
        if (steps >= last || pc >= limit || (divergent && code[pc].reconverge))
            break;
    }
    if (steps) {
        move_lanes(w, mask, *next == NO_SLOT ? pc : *next);
        count_steps(w, mask, steps);
    }
    return steps;
}

/* Where lane m is, seen from the function activation lane l is in: its pc when it is in the
 * same one, the call it made from there when it is deeper, NO_SLOT when it is elsewhere. */
static uint32_t position_seen_by(const Warp *w, int m, int l)
{
    unsigned depth = w->depth[l];
    if (w->depth[m] < depth)
        return NO_SLOT;
    for (unsigned d = 0; d < depth; d++)
        if (w->stack[m][d].call_pc != w->stack[l][d].call_pc || w->stack[m][d].callee != w->stack[l][d].callee)
            return NO_SLOT;
    return w->depth[m] == depth ? w->pc[m] : w->stack[m][depth].call_pc;
}

/* Whether lane l's pc is inside its function (not run off its end). */
static bool inside_function(const Warp *w, int l)
{
    const FuncLayout *f = &w->prog->funcs[w->depth[l] ? w->stack[l][w->depth[l] - 1].callee : 0];
    return w->pc[l] - f->code_base < f->fn->code.len;
}

/* The lanes of `group`, all at one pc, that wait there because it is a reconvergence point: a
 * lane there waits while another ready lane of the same activation is at an instruction the
 * point post-dominates (one that will come to it). So lanes that leave a loop early wait at
 * its exit for the others, as the lanes of an if/else meet after it. Lanes waiting at
 * synchronising instructions are not ready, and hold nobody. */
static uint32_t held_at(const Warp *w, uint32_t group, uint32_t ready)
{
    int first = __builtin_ctz(group);
    uint32_t p = w->pc[first], held = 0;
    if (!(ready & ~group) || p >= w->prog->code_len || !w->prog->code[p].reconverge || !inside_function(w, first))
        return 0;
    while (group) {
        int l = __builtin_ctz(group);
        uint32_t same = 1u << l;
        if (w->depth[l] == 0)              /* lanes of the kernel at one pc: the same answer */
            for (uint32_t k = group & (group - 1); k; k &= k - 1)
                same |= (uint32_t)(w->depth[__builtin_ctz(k)] == 0) << __builtin_ctz(k);
        group &= ~same;
        for (uint32_t k = ready & ~same; k; k &= k - 1) {
            int m = __builtin_ctz(k);
            uint32_t q = position_seen_by(w, m, l);
            if (q != NO_SLOT && q != p && (q != w->pc[m] || inside_function(w, m)) && cfg_postdominates(w->prog->code, p, q)) {
                held |= same;
                break;
            }
        }
    }
    return held;
}

/* The lanes of `group` (all at one pc) in the same function activation as lane `first`:
 * called through the same call sites. Lanes that reach one function from two calls (the two
 * arms of a branch calling it) run it apart, as an H100 does, so that activemask inside
 * says one arm. */
static uint32_t one_activation(const Warp *w, uint32_t group, int first)
{
    unsigned depth = w->depth[first];
    uint32_t same = 0;
    for (uint32_t k = group; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        bool ok = w->depth[l] == depth;
        for (unsigned d = 0; ok && d < depth; d++)
            ok = w->stack[l][d].call_pc == w->stack[first][d].call_pc;
        same |= (uint32_t)ok << l;
    }
    return same;
}

/* The lanes of `candidates` at the lowest pc among them, in one activation; *pc_out gets the
 * pc. */
static uint32_t lowest_group(const Warp *w, uint32_t candidates, uint32_t *pc_out)
{
    uint32_t lowest = NO_SLOT, mask = 0, deep = 0;
    for (int l = 0; l < WARP_SIZE; l++) {
        uint32_t pc = (candidates >> l & 1) ? w->pc[l] : NO_SLOT;
        lowest = pc < lowest ? pc : lowest;
        deep |= w->depth[l];
    }
    for (int l = 0; l < WARP_SIZE; l++)
        mask |= (uint32_t)(w->pc[l] == lowest) << l;
    mask &= candidates;
    *pc_out = lowest;
    return deep && mask ? one_activation(w, mask, __builtin_ctz(mask)) : mask;
}

/* Writes last_run[l] = step for the lanes of `lanes`. */
static void stamp(Warp *w, uint32_t lanes, uint64_t step)
{
    for (uint32_t k = lanes; k; k &= k - 1)
        w->last_run[__builtin_ctz(k)] = step;
}

/* Values of last_run that warp_run has not written yet, oldest first, on lanes apart (a newer
 * one takes its lanes from the older). choose() is the only reader: warp_run writes them first,
 * and before it returns. */
typedef struct Stamps {
    uint32_t lanes[2];
    uint64_t step[2];
} Stamps;

/* last_run[l] = step for the lanes of `lanes`, later. */
static void stamp_later(Warp *w, Stamps *s, uint32_t lanes, uint64_t step)
{
    s->lanes[0] &= ~lanes;
    s->lanes[1] &= ~lanes;
    if (s->lanes[0] && s->lanes[1])            /* no room: the oldest is written now */
        stamp(w, s->lanes[0], s->step[0]);
    if (s->lanes[1] || !s->lanes[0]) {
        s->lanes[0] = s->lanes[1];
        s->step[0] = s->step[1];
    }
    s->lanes[1] = lanes;
    s->step[1] = step;
}

static void stamp_deferred(Warp *w, Stamps *s)
{
    stamp(w, s->lanes[0], s->step[0]);
    stamp(w, s->lanes[1], s->step[1]);
    s->lanes[0] = s->lanes[1] = 0;
}

/* What choose() knew when it picked `lanes` among `ready` in the ordinary way (the lowest group
 * not held, no lane starved), enough to tell its next picks while only those lanes move
 * (follow()): the ready lanes it did not pick stand still meanwhile, and so do their pcs,
 * activations and last_run. lanes == 0: no pick to follow. */
typedef struct Pick {
    uint32_t lanes;            /* the lanes picked; they ran at the last step */
    uint32_t ready;            /* the ready lanes then; the pick is void when they change */
    uint32_t others_pc;        /* the lowest pc of the others (ready & ~lanes) */
    bool others_together;      /* the others are all at others_pc */
    uint64_t until;            /* while w->steps is below this, none of the others is starved */
} Pick;

/* The lanes of mask that may starve first: the step before which none of them is starved. A
 * lane l is starved at step s when last_run[l] + STARVE_STEPS <= s, or HOLD_STEPS for a lane
 * held at a reconvergence point. The lanes of `holders` do not move, so a lane that they alone
 * hold (held_at with ready = holders) stays held; any other lane is counted as not held. */
static uint64_t starve_bound(const Warp *w, uint32_t mask, uint32_t holders)
{
    uint64_t oldest = UINT64_MAX;
    for (uint32_t k = mask; k; k &= k - 1)
        oldest = w->last_run[__builtin_ctz(k)] < oldest ? w->last_run[__builtin_ctz(k)] : oldest;
    if (oldest + STARVE_STEPS > w->steps + 1)
        return oldest + STARVE_STEPS;
    uint64_t until = UINT64_MAX;
    for (uint32_t left = mask; left;) {
        uint32_t pc, group = lowest_group(w, left, &pc);
        uint32_t held = held_at(w, group, holders);
        for (uint32_t k = group; k; k &= k - 1) {
            int l = __builtin_ctz(k);
            uint64_t bound = w->last_run[l] + ((held >> l & 1) ? HOLD_STEPS : STARVE_STEPS);
            until = bound < until ? bound : until;
        }
        left &= ~group;
    }
    return until;
}

/* The next lanes to run: those at the lowest pc among the ready lanes that are not held at a
 * reconvergence point, unless a ready lane has waited STARVE_STEPS or more (a held one
 * HOLD_STEPS), which then runs, with the lanes at its pc, first. An ordinary pick of some of the
 * ready lanes is described in *pick (pick->lanes = 0 otherwise). */
static uint32_t choose(Warp *w, uint32_t ready, uint32_t *pc_out, Pick *pick)
{
    uint32_t candidates = ready, mask = 0, lowest = NO_SLOT, starving = 0;
    pick->lanes = 0;
    if (w->hurry & ready) {                /* held while the others spun (spin.c): each runs a step now */
        mask = lowest_group(w, w->hurry & ready, &lowest);
        w->hurry &= ready & ~mask;
        for (uint32_t k = mask; k; k &= k - 1)
            w->last_run[__builtin_ctz(k)] = w->steps + 1;
        *pc_out = lowest;
        return mask;
    }
    while (candidates) {
        mask = lowest_group(w, candidates, &lowest);
        uint32_t held = held_at(w, mask, ready);
        if (mask & ~held) {
            mask &= ~held;
            pick->lanes = mask;
            break;
        }
        candidates &= ~mask;
    }
    if (mask == ready) {
        pick->lanes = 0;
        *pc_out = lowest;
        return mask;
    }
    if (w->steps >= STARVE_STEPS) {
        uint64_t due = w->steps - STARVE_STEPS;
        for (int l = 0; l < WARP_SIZE; l++)
            starving |= (uint32_t)(w->last_run[l] <= due) << l;
        starving &= ready;
    }
    if (starving) {                        /* rare: only now does it pay to know who is held */
        uint32_t held = 0;
        for (uint32_t left = ready; left;) {
            uint32_t pc, group = lowest_group(w, left, &pc);
            held |= held_at(w, group, ready);
            left &= ~group;
        }
        uint64_t oldest = w->steps;
        int starved = -1;
        for (uint32_t k = starving; k; k &= k - 1) {
            int l = __builtin_ctz(k);
            uint64_t patience = (held >> l & 1) ? HOLD_STEPS : STARVE_STEPS;
            if (w->last_run[l] + patience <= w->steps && w->last_run[l] < oldest) {
                oldest = w->last_run[l];
                starved = l;
            }
        }
        if (starved >= 0) {
            lowest = w->pc[starved];
            mask = 0;
            for (int l = 0; l < WARP_SIZE; l++)
                mask |= (uint32_t)((ready >> l & 1) && w->pc[l] == lowest) << l;
            mask = one_activation(w, mask, starved);
            pick->lanes = 0;
        }
    }
    for (uint32_t k = mask; k; k &= k - 1)
        w->last_run[__builtin_ctz(k)] = w->steps + 1;
    if (pick->lanes) {
        uint32_t others = ready & ~mask;
        pick->ready = ready;
        pick->others_together = lowest_group(w, others, &pick->others_pc) == others;
        pick->until = starve_bound(w, others, others);
    }
    *pc_out = lowest;
    return mask;
}

/* The pick choose() would make now, found from the last one: the lanes of pick->lanes ran the
 * last step (their last_run is w->steps, in effect: *fast) and went on together to `to`; the
 * ready lanes are still pick->ready. Going on below the others, not at a reconvergence point,
 * they are picked again; coming to the others, all at one pc, they all run together; passing
 * them, all at one pc, the others are picked. Each only while no lane can be starved. Returns
 * false when it cannot say (then choose() decides, looking at every lane). */
static bool follow(Warp *w, Pick *pick, Stamps *later, uint32_t to, uint32_t *pc_out, uint32_t *mask_out, bool *fast)
{
    const Program *prog = w->prog;
    if (w->steps >= pick->until)
        return false;
    if (to < pick->others_pc) {
        if (to >= prog->code_len || prog->code[to].reconverge)
            return false;
        *pc_out = to;
        *mask_out = pick->lanes;
        *fast = true;
        return true;
    }
    if (!pick->others_together || (to == pick->others_pc && one_activation(w, pick->ready, __builtin_ctz(pick->lanes)) !=
                                                                pick->ready))
        return false;
    uint32_t moved = pick->lanes;
    if (to == pick->others_pc) {               /* every ready lane at one pc: none is held */
        *pc_out = to;
        *mask_out = pick->ready;
        pick->lanes = 0;
    } else {
        uint32_t at = pick->others_pc;
        if (at >= prog->code_len || prog->code[at].reconverge)
            return false;
        *pc_out = at;
        *mask_out = pick->lanes = pick->ready & ~moved;
        pick->others_pc = to;
        pick->until = w->steps + STARVE_STEPS;   /* the lanes that ran, last_run = w->steps */
    }
    stamp_later(w, later, moved, w->steps);    /* what warp_run does when it leaves the fast path */
    *fast = pick->lanes != 0;
    return true;
}

/* Whether the lanes of mask, all the ready ones, at a backward branch they all take (its guard
 * defined), park there (spin.c). */
static int spins_here(Warp *w, uint32_t pc, uint32_t mask)
{
    const XInstr *x = &w->prog->code[pc];
    if (x->op != OP_BRA || x->target > pc)
        return SPIN_ON;
    uint32_t undefined, run = warp_guard_lanes(w, x, mask, &undefined);
    return run == mask && !undefined ? warp_spins(w, pc, mask) : SPIN_ON;
}

/* Gets the warp ready to run from the start of the kernel. */
void warp_reset(Warp *w)
{
    for (int l = 0; l < WARP_SIZE; l++) {
        w->pc[l] = 0;
        w->last_run[l] = 0;
        w->depth[l] = 0;
        w->saves[l].len = 0;
        w->sp[l] = w->prog->funcs[0].frame_size;
        w->stack_ptr[l] = MEM_ALLOCA_TOP;
        w->charged[l] = 0;
        for (uint32_t k = 0; k < w->prog->func_count; k++)
            w->active[k][l] = 0;
    }
    w->exited = 0;
    w->waiting = 0;
    w->at_barrier = 0;
    memset(&w->cluster, 0, sizeof w->cluster);
    w->carry = w->carry_defined = w->carry_by_sub = 0;
    w->steps = 0;
    w->previous_ready = 0;
    w->next_pc = NO_SLOT;
    w->last_mask = 0;
    w->spin_epoch = SPIN_AFRESH;
    w->spin_checks = 0;
    w->spin_skip = w->parked = w->spin_kept = w->spin_read = w->spin_partial = false;
    w->uncounted = 0;
    w->hurry = 0;
}

/* After the lanes of mask, all the ready ones, last_run w->steps in effect (they ran in the fast
 * path), parted at the branch at pc: the pick to follow as if the lanes that went higher had run
 * alone, ahead of those at the lower pc, which choose() picks next unless they are held at a
 * reconvergence point (then it is asked). Stamps last_run as leaving the fast path does (the
 * caller clears it), later; *last_mask gets the lanes that went higher. Returns their pc, NO_SLOT when
 * the step was no branch that parted the lanes between two pcs. */
static uint32_t parted(Warp *w, uint32_t pc, uint32_t mask, Pick *pick, Stamps *later, uint32_t *last_mask)
{
    const XInstr *x = &w->prog->code[pc];
    if (x->op != OP_BRA || x->target == pc + 1 || w->faulted)
        return NO_SLOT;
    uint32_t undefined, taken = warp_guard_lanes(w, x, mask, &undefined);   /* bra writes no predicate */
    uint32_t high = x->target > pc ? x->target : pc + 1;
    stamp_later(w, later, mask, w->steps);
    pick->lanes = *last_mask = x->target > pc ? taken : mask & ~taken;
    pick->ready = mask;
    pick->others_pc = x->target > pc ? pc + 1 : x->target;
    pick->others_together = true;
    pick->until = w->steps + STARVE_STEPS;
    return high;
}

/* Runs the warp's ready lanes for at most `slice` warp-steps; stops early when none is ready
 * (all ended, or all wait), on a fault, or at --max-steps of its own. Returns whether any lane
 * was ready. The lanes picked at each step are those choose() picks (which looks at every lane),
 * found faster where nothing it looks at has changed: the lanes that ran stayed together and are
 * all the ready ones (the fast path), or follow() can tell from the last pick; and lanes picked
 * again and again run without coming back here (run_straight). */
bool warp_run(Warp *w, const ExecOptions *o, uint64_t slice)
{
    Block *b = w->block;
    uint32_t next_pc = w->next_pc, last_mask = w->last_mask;
    uint64_t end = slice > UINT64_MAX - w->steps ? UINT64_MAX : w->steps + slice;
    bool moved = false, fast = true;           /* fast: lanes may have run without last_run kept */
    bool batch = !o->trace && !o->strict;      /* steps may run without being traced one by one */
    bool followed = false;                     /* follow() picked some of the ready lanes */
    Pick pick = { 0 };
    Stamps later = { { 0, 0 }, { 0, 0 } };
    uint64_t max_steps = o->max_steps > UINT64_MAX - w->uncounted ? UINT64_MAX : o->max_steps + w->uncounted;
    while (!w->faulted && !w->parked && w->steps < end) {
        uint32_t ready = w->launched & ~w->exited & ~w->waiting;
        uint32_t pc, mask;
        if (next_pc != NO_SLOT && ready == last_mask) {
            /* The lanes that just ran are all the ready ones and stayed together. */
            pc = next_pc;
            mask = ready;
            fast = true;
            pick.lanes = 0;
            goto run;
        }
        if (next_pc != NO_SLOT && pick.lanes && pick.lanes == last_mask && pick.ready == ready &&
            follow(w, &pick, &later, next_pc, &pc, &mask, &fast)) {
            followed = mask != ready;
            goto run;
        }
        if (!ready)
            break;
        stamp_deferred(w, &later);
        if (fast) {                             /* the lanes of the fast path ran until now */
            stamp(w, last_mask, w->steps);
            fast = false;
        }
        if (ready != w->previous_ready) {       /* lanes joined: none of them is starved */
            for (int l = 0; l < WARP_SIZE; l++)
                if ((ready & ~w->previous_ready) >> l & 1)
                    w->last_run[l] = w->steps;
            w->previous_ready = ready;
        }
        mask = choose(w, ready, &pc, &pick);
    run:;
        moved = true;
        spin_watch(w, pc);
        int first = __builtin_ctz(mask);
        const FuncLayout *in_fn = &w->prog->funcs[w->depth[first] ? w->stack[first][w->depth[first] - 1].callee : 0];
        uint32_t fn_end = in_fn->code_base + in_fn->fn->code.len;
        if (pc >= fn_end && followed) {         /* no step: last_run as choose() leaves it */
            stamp_deferred(w, &later);
            stamp(w, fast ? last_mask : 0, w->steps);
            stamp(w, mask, w->steps + 1);
            fast = false;
        }
        followed = false;
        if (pc >= fn_end && in_fn != w->prog->funcs) {
            call_return(w, mask);                       /* fell off the end of a function: return */
            next_pc = NO_SLOT;
            continue;
        }
        if (pc >= fn_end) {                             /* fell off the kernel: the lanes end */
            w->exited |= mask;
            if (w->waiting)
                sync_try_complete(w);
            barrier_threads_exited(b);
            next_pc = NO_SLOT;
            continue;
        }
        if (w->steps >= max_steps) {
            report_fault(w, pc, "warp %u stopped after %llu warp-steps of its own (--max-steps counts each warp's); "
                         "lanes still running: 0x%08x", w->index, (unsigned long long)(w->steps - w->uncounted), ready);
            break;
        }
        if (batch && straight(&w->prog->code[pc])) {
            /* Steps after this one pick the same lanes while they stay together: all the ready
             * ones, or those of an ordinary pick while follow() would keep them (below the
             * others, not at a reconvergence point, none starved). */
            uint64_t until = max_steps < end ? max_steps : end;
            uint32_t limit = fn_end;
            if (mask != ready && pick.lanes != mask) {
                limit = 0;                      /* a pick of another kind: this step only */
            } else if (mask != ready) {
                limit = pick.others_pc < limit ? pick.others_pc : limit;
                until = pick.until < until ? pick.until : until;
            }
            uint64_t ran = run_straight(w, pc, mask, limit, mask != ready, until, &next_pc);
            if (ran || w->parked || w->hurry) {
                if (ran > 1 || mask != ready)
                    fast = true;                /* as the fast path or follow() would have set it */
                last_mask = mask;
                if (w->hurry)                   /* choose() picks the held lanes next */
                    next_pc = NO_SLOT, pick.lanes = 0;
                continue;
            }
        }
        int spin = spins_here(w, pc, mask);
        if (spin == SPIN_PARKED) {
            next_pc = pc;
            last_mask = mask;
            break;
        }
        if (spin == SPIN_HURRY) {              /* the held lanes first: choose() picks them */
            next_pc = NO_SLOT;
            pick.lanes = 0;
            last_mask = mask;
            continue;
        }
        w->steps++;
        b->steps++;
        b->lane_steps += (uint64_t)lane_count(mask);
        if (o->trace) {
            StepTrace t;
            memset(&t, 0, sizeof t);
            memset(t.source, SOURCE_NONE, sizeof t.source);
            w->trace = &t;
            next_pc = step(w, pc, mask);
            trace_step(o->trace, w, o, pc, mask);
            w->trace = NULL;
            if (ferror(o->trace))                  /* the trace cannot be written: stop; the driver says so */
                w->faulted = true;
        } else {
            next_pc = step(w, pc, mask);
        }
        last_mask = mask;
        if (next_pc == NO_SLOT && mask == ready && fast && (next_pc = parted(w, pc, mask, &pick, &later, &last_mask)) != NO_SLOT)
            fast = false;
        if (o->strict && w->warnings.len)
            break;
    }
    stamp_deferred(w, &later);
    w->next_pc = next_pc;
    w->last_mask = last_mask;
    return moved;
}
