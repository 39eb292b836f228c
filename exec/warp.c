/* warp.c: one warp's loop. Runs the warp's 32 lanes of the lowered program with their own
 * program counters: each warp-step takes the ready lanes that share one pc, the lowest, and
 * executes one instruction for all of them at once; a lane at a reconvergence point waits there
 * while lanes that will come to it run. Synchronising instructions (shfl.sync, vote.sync,
 * bar.warp.sync, ...) make a lane whose guard holds wait until every non-exited lane of its
 * membermask has arrived at one of the same kind, qualifiers and mask (sync.c). block.c runs
 * the warps of a CTA and calls a deadlock when no lane of any warp can move.
 * step() hands each instruction to the executor of its family (ops.def): alu.c, bitops.c,
 * mathops.c, convert.c, mem.c, warpops.c, sync.c, barrier.c, call.c. */
#include <stdlib.h>
#include <string.h>

#include "exec.h"

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
        warp_advance(w, run, x->target);
        warp_advance(w, stay, pc + 1);
        return run == mask ? x->target : stay == mask ? pc + 1 : NO_SLOT;
    }
    case OP_EXIT:
    case OP_RET:
        if (undefined)
            report_warn(w, pc, undefined, "undefined guard predicate");
        warp_advance(w, mask & ~run, pc + 1);
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
        warp_advance(w, mask & ~run, pc + 1);
        call_enter(w, pc, run);
        return NO_SLOT;
    case OP_TRAP:
        if (undefined)
            report_warn(w, pc, undefined, "undefined guard predicate");
        warp_advance(w, mask & ~run, pc + 1);
        if (run) {
            char lanes[200];
            report_lanes(w, lanes, sizeof lanes, run);
            report_fault(w, pc, "'trap' executed by %s: the kernel is aborted", lanes);
            return NO_SLOT;
        }
        warp_advance(w, mask, pc + 1);
        return pc + 1;
    default:
        BUG("control op %d", x->op);
    }
}

/* Executes the instruction at pc for the lanes of mask. Returns the pc they all continue at,
 * or NO_SLOT when they part, wait or end (the scheduler then looks at every lane). */
static uint32_t step(Warp *w, uint32_t pc, uint32_t mask)
{
    const XInstr *x = &w->prog->code[pc];
    uint32_t undefined;
    uint32_t run = warp_guard_lanes(w, x, mask, &undefined);
    switch ((Family)x->family) {
    case FAM_CONTROL:
        return control(w, x, pc, mask, run, undefined);
    case FAM_SYNC:
    case FAM_BARRIER:
        sync_arrive(w, pc, mask);
        return w->waiting & mask ? NO_SLOT : pc + 1;
    case FAM_FENCE:
        break;                     /* every access is performed in program order already */
    case FAM_ATOMIC:
        mem_atomic(w, x, run);
        if (w->faulted)
            return NO_SLOT;
        break;
    case FAM_MEMORY:
        mem_execute(w, x, run);
        if (w->faulted)
            return NO_SLOT;
        break;
    case FAM_WARP:
        warpops_execute(w, x, mask, run);
        break;
    case FAM_CONVERT:
        convert_execute(w, x, run);
        break;
    case FAM_ALU:
        if (x->pack || x->unpack)
            alu_move_parts(w, x, run);
        else
            alu_execute(w, x, run);
        break;
    case FAM_BITOPS:
        bitops_execute(w, x, run);
        break;
    case FAM_MATHOPS:
        mathops_execute(w, x, run);
        break;
    case FAM_NONE:
    case FAM_COUNT:
        BUG("'%s' was loaded, but no part of the executor runs it", op_info[x->op].name);
    }
    if (undefined) {               /* written or not, nobody can say */
        if (x->dst_kind == DST_VALUE)
            w->defined[x->dst] &= ~undefined;
        else if (x->dst_kind == DST_PRED)
            w->pred_defined[x->dst] &= ~undefined;
        if (x->dst_pred != NO_SLOT)
            w->pred_defined[x->dst_pred] &= ~undefined;
    }
    warp_advance(w, mask, pc + 1);
    return pc + 1;
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

/* The lanes of `candidates` at the lowest pc among them; *pc_out gets the pc. */
static uint32_t lowest_group(const Warp *w, uint32_t candidates, uint32_t *pc_out)
{
    uint32_t lowest = NO_SLOT, mask = 0;
    for (int l = 0; l < WARP_SIZE; l++) {
        uint32_t pc = (candidates >> l & 1) ? w->pc[l] : NO_SLOT;
        lowest = pc < lowest ? pc : lowest;
    }
    for (int l = 0; l < WARP_SIZE; l++)
        mask |= (uint32_t)(w->pc[l] == lowest) << l;
    mask &= candidates;
    *pc_out = lowest;
    return mask;
}

/* The next lanes to run: those at the lowest pc among the ready lanes that are not held at a
 * reconvergence point, unless a ready lane has waited STARVE_STEPS or more (a held one
 * HOLD_STEPS), which then runs, with the lanes at its pc, first. */
static uint32_t choose(Warp *w, uint32_t ready, uint32_t *pc_out)
{
    uint32_t candidates = ready, mask = 0, lowest = NO_SLOT, starving = 0;
    while (candidates) {
        mask = lowest_group(w, candidates, &lowest);
        uint32_t held = held_at(w, mask, ready);
        if (mask & ~held) {
            mask &= ~held;
            break;
        }
        candidates &= ~mask;
    }
    if (mask == ready) {
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
        }
    }
    for (uint32_t k = mask; k; k &= k - 1)
        w->last_run[__builtin_ctz(k)] = w->steps + 1;
    *pc_out = lowest;
    return mask;
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
        w->charged[l] = 0;
        for (uint32_t k = 0; k < w->prog->func_count; k++)
            w->active[k][l] = 0;
    }
    w->exited = 0;
    w->waiting = 0;
    w->at_barrier = 0;
    w->carry = w->carry_defined = w->carry_by_sub = 0;
    w->steps = 0;
    w->previous_ready = 0;
    w->next_pc = NO_SLOT;
    w->last_mask = 0;
}

/* Runs the warp's ready lanes for at most `slice` warp-steps; stops early when none is ready
 * (all ended, or all wait), on a fault, or at the block's --max-steps. Returns whether any lane
 * was ready. */
bool warp_run(Warp *w, const ExecOptions *o, uint64_t slice)
{
    Block *b = w->block;
    uint32_t next_pc = w->next_pc, last_mask = w->last_mask;
    uint64_t end = slice > UINT64_MAX - w->steps ? UINT64_MAX : w->steps + slice;
    bool moved = false, fast = true;           /* fast: lanes may have run without last_run kept */
    while (!w->faulted && w->steps < end) {
        uint32_t ready = w->launched & ~w->exited & ~w->waiting;
        uint32_t pc, mask;
        if (next_pc != NO_SLOT && ready == last_mask) {
            /* The lanes that just ran are all the ready ones and stayed together. */
            pc = next_pc;
            mask = ready;
            fast = true;
            goto run;
        }
        if (!ready)
            break;
        if (fast) {                             /* the lanes of the fast path ran until now */
            for (uint32_t k = last_mask; k; k &= k - 1)
                w->last_run[__builtin_ctz(k)] = w->steps;
            fast = false;
        }
        if (ready != w->previous_ready) {       /* lanes joined: none of them is starved */
            for (int l = 0; l < WARP_SIZE; l++)
                if ((ready & ~w->previous_ready) >> l & 1)
                    w->last_run[l] = w->steps;
            w->previous_ready = ready;
        }
        mask = choose(w, ready, &pc);
    run:;
        moved = true;
        int first = __builtin_ctz(mask);
        const FuncLayout *in_fn = &w->prog->funcs[w->depth[first] ? w->stack[first][w->depth[first] - 1].callee : 0];
        if (pc >= in_fn->code_base + in_fn->fn->code.len && in_fn != w->prog->funcs) {
            call_return(w, mask);                       /* fell off the end of a function: return */
            next_pc = NO_SLOT;
            continue;
        }
        if (pc >= in_fn->code_base + in_fn->fn->code.len) {   /* fell off the kernel: the lanes end */
            w->exited |= mask;
            if (w->waiting)
                sync_try_complete(w);
            barrier_threads_exited(b);
            next_pc = NO_SLOT;
            continue;
        }
        if (b->steps >= o->max_steps) {
            report_fault(w, pc, "stopped after %llu warp-steps (--max-steps); lanes still running: 0x%08x",
                       (unsigned long long)b->steps, ready);
            break;
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
        } else {
            next_pc = step(w, pc, mask);
        }
        last_mask = mask;
        if (o->strict && w->warnings.len)
            break;
    }
    w->next_pc = next_pc;
    w->last_mask = last_mask;
    return moved;
}

