/* barrier.c: the sixteen barriers of a CTA (bar, barrier {.cta} .sync / .arrive / .red).
 * A thread arriving names a barrier (0-15) and, optionally, a thread count (a positive multiple
 * of 32); .sync and .red wait, .arrive does not. From sm_70 on each arriving thread counts one;
 * for .target sm_6x and below a warp's execution of the instruction counts 32 (the warp size),
 * whichever of its lanes take part. The lanes a CTA's last, partial warp lacks count too, as if
 * they arrived with the warp's first arriving lane (partial_warp), so 48 threads complete a
 * count of 64 as the H100 does (tests/h100_more/cases/barred_partial48). A barrier completes when its count is reached or, without a
 * count, when every non-exited thread of the CTA has arrived (threads exiting can complete it);
 * the waiting threads then continue, .red's result (.popc: the threads whose predicate holds,
 * .and, .or) written to each, and the barrier starts over. What PTX leaves undefined (a barrier
 * number or count that is out of range or undefined, arrivals that disagree on the count, .red
 * mixed with .sync/.arrive on one barrier) is a fault naming the lane and the place.
 * Requires: report.c (faults), block.c (the CTA). */
#include <stdlib.h>
#include <string.h>

#include "block.h"

static const char *count_text(char *buf, size_t size, uint32_t expected)
{
    if (expected)
        snprintf(buf, size, "%u threads", expected);
    else
        snprintf(buf, size, "all threads of the CTA");
    return buf;
}

/* The count that completes a barrier for all threads: the CTA's non-exited threads (per-warp
 * counting: 32 for each warp with a non-exited thread). Counted again only after threads exit. */
static uint32_t live_count(Block *b)
{
    if (b->live_threads != NO_SLOT)
        return b->live_threads;
    uint32_t n = 0;
    for (uint32_t i = 0; i < b->warp_count; i++) {
        uint32_t live = b->warps[i]->launched & ~b->warps[i]->exited;
        n += b->per_warp_barriers ? (live ? WARP_SIZE : 0) : (uint32_t)__builtin_popcount(live);
    }
    b->live_threads = n;
    return n;
}

static const char warn_partial_warp[] =
    "barrier with a thread count reached by a CTA's last, partial warp: the PTX ISA counts warps' "
    "arrivals (the count a multiple of 32) but does not say how a warp with fewer than 32 threads "
    "counts; ptxrun counts it as 32, as the H100 does";

/* The lanes a partial warp lacks, counted toward barrier br's thread count when the warp first
 * arrives there in this phase (per-thread counting; per-warp counting adds 32 anyway). */
static uint32_t partial_warp(const Warp *w, const Barrier *br, uint32_t count)
{
    if (w->block->per_warp_barriers || !count || br->warp_pc[w->index] || w->launched == ALL_LANES)
        return 0;
    return WARP_SIZE - (uint32_t)__builtin_popcount(w->launched);
}

/* Writes .red's result to one waiting lane. */
static void write_result(Warp *w, int lane, const Barrier *br)
{
    const XInstr *x = &w->prog->code[w->arrival[lane].pc];
    if (x->barrier != BARRIER_RED || x->dst_kind == DST_NONE)
        return;
    uint32_t bit = 1u << lane;
    if (x->dst_kind == DST_VALUE) {
        w->val[x->dst][lane] = br->red_true;
        warp_define(w, x->dst, bit, br->red_undefined ? 0 : bit);
        return;
    }
    bool value = x->red_op == BARRIER_RED_AND ? br->red_false == 0 : br->red_true > 0;
    w->pred[x->dst] = value ? w->pred[x->dst] | bit : w->pred[x->dst] & ~bit;
    w->pred_defined[x->dst] = br->red_undefined ? w->pred_defined[x->dst] & ~bit : w->pred_defined[x->dst] | bit;
}

/* Completes barrier id if its count is reached: its waiting lanes continue after it. */
static void complete_if_reached(Block *b, unsigned id)
{
    Barrier *br = &b->barriers[id];
    if (!br->arrived || br->arrived < (br->expected ? br->expected : live_count(b)))
        return;
    if (br->split_warps) {
        /* .aligned: a warp's threads must execute the same instruction; say where they did not. */
        for (uint32_t i = 0; i < b->warp_count; i++) {
            Warp *w = b->warps[i];
            if (!(br->split_warps >> i & 1))
                continue;
            for (uint32_t k = br->waiting[i]; k; k &= k - 1) {
                uint32_t pc = w->arrival[__builtin_ctz(k)].pc;
                if (w->prog->code[pc].aligned)
                    report_warn(w, pc, 1u << __builtin_ctz(k), "'.aligned' barrier (bar is barrier.aligned) that "
                              "a warp's lanes reach at different instructions, which PTX leaves undefined,");
            }
        }
    }
    for (uint32_t i = 0; i < b->warp_count; i++) {
        Warp *w = b->warps[i];
        uint32_t lanes = br->waiting[i];
        if (!br->red_op && !w->trace) {
            /* No .red result to write (every arrival agreed with the first on red_op), no trace:
             * the lanes just go on after the instruction each arrived from. */
            if (!lanes)
                continue;
            w->waiting &= ~lanes;
            w->at_barrier &= ~lanes;
            if (br->split_warps >> i & 1) {
                for (uint32_t k = lanes; k; k &= k - 1) {
                    int l = __builtin_ctz(k);
                    w->pc[l] = w->arrival[l].pc + 1;
                }
                continue;
            }
            /* All of the warp's arrivals came from one instruction, warp_pc[i] - 1. When these
             * lanes are the warp's ready lanes, the ones that ran last and the ones ready then,
             * warp_run's choose() would pick exactly them: the warp's loop may go on with them
             * at once (its fast path), as it does after a barrier its own arrival completes. */
            warp_advance(w, lanes, br->warp_pc[i]);
            if (lanes == w->last_mask && lanes == w->previous_ready && (w->launched & ~w->exited & ~w->waiting) == lanes)
                w->next_pc = br->warp_pc[i];
            continue;
        }
        for (uint32_t k = lanes; k; k &= k - 1)
            write_result(w, __builtin_ctz(k), br);
        warp_release(w, lanes);
    }
    memset(br, 0, sizeof *br);
}

void barrier_threads_exited(Block *b)
{
    mem_changed(&b->mem);              /* threads ended: a change others could see (spin.c) */
    b->live_threads = NO_SLOT;
    for (unsigned id = 0; id < BARRIER_COUNT; id++)
        if (b->barriers[id].arrived && !b->barriers[id].expected)
            complete_if_reached(b, id);
    cluster_threads_exited(b);
}

/* Checks one lane's barrier number and count; false after a fault. */
static bool lane_operands(Warp *w, uint32_t pc, int l, uint32_t *id, uint32_t *count)
{
    const XInstr *x = &w->prog->code[pc];
    const Block *b = w->block;
    bool defined = (w->defined[x->src[0]] & w->defined[x->src[1]]) >> l & 1;
    if (!defined) {
        report_fault(w, pc, "lane %d executes '%s' with an undefined barrier number or thread count", l, x->ir->mnemonic);
        return false;
    }
    *id = (uint32_t)warp_src(w, x->src[0])[l];
    *count = x->has_count ? (uint32_t)warp_src(w, x->src[1])[l] : 0;
    if (*id >= BARRIER_COUNT) {
        report_fault(w, pc, "lane %d executes '%s' on barrier %u; a CTA has barriers 0 to %d", l, x->ir->mnemonic, *id,
                   BARRIER_COUNT - 1);
        return false;
    }
    if (x->has_count && (*count == 0 || *count % WARP_SIZE)) {
        report_fault(w, pc, "lane %d executes '%s' with thread count %u, which is not a positive multiple of %d", l,
                   x->ir->mnemonic, *count, WARP_SIZE);
        return false;
    }
    if (*count > b->warp_count * WARP_SIZE) {      /* a partial warp counts 32: partial_warp */
        report_fault(w, pc, "lane %d executes '%s' with thread count %u, but the CTA has %u threads: the barrier "
                   "could never complete", l, x->ir->mnemonic, *count, b->threads);
        return false;
    }
    return true;
}

/* A whole warp's arrival at once: the common case of lanes that name one barrier and one count
 * (both defined), when the barrier cannot complete before the last of them has arrived. The
 * lowest lane's operands are checked as lane by lane (the same fault, if any); then the counts,
 * the reduction and the waiting lanes are updated for all of them together. False, having
 * changed nothing, when the lane-by-lane path must run: operands that differ among the lanes
 * or are undefined, arrivals that disagree with the barrier's earlier ones (a fault there), or
 * a thread count that these lanes would reach before their last one. */
static bool warp_arrive(Warp *w, uint32_t pc, uint32_t lanes)
{
    Block *b = w->block;
    const XInstr *x = &w->prog->code[pc];
    uint32_t id_row = x->src[0], count_row = x->src[1];
    if (lanes & ~(w->defined[id_row] & w->defined[count_row]))
        return false;
    int first = __builtin_ctz(lanes);
    const uint64_t *ids = w->val[id_row], *counts = w->val[count_row];
    bool immediates = id_row >= w->prog->first_immediate && (!x->has_count || count_row >= w->prog->first_immediate);
    if (!immediates) {
        uint32_t differ = 0;
        for (uint32_t k = lanes; k; k &= k - 1) {
            int l = __builtin_ctz(k);
            differ |= (uint32_t)ids[l] ^ (uint32_t)ids[first];
            if (x->has_count)
                differ |= (uint32_t)counts[l] ^ (uint32_t)counts[first];
        }
        if (differ)
            return false;
    }
    uint32_t id, count;
    if (!lane_operands(w, pc, first, &id, &count))
        return true;                       /* every lane would fault alike; the first one did */
    Barrier *br = &b->barriers[id];
    uint32_t n = (uint32_t)__builtin_popcount(lanes);
    if (br->arrived && (br->expected != count || br->red_op != x->red_op))
        return false;
    uint32_t absent = partial_warp(w, br, count);
    if (!b->per_warp_barriers && count && br->arrived + absent + n > count)
        return false;                      /* completes before the last lane: one at a time */
    if (!br->arrived) {
        br->expected = count;
        br->first_pc = pc;
        br->red_op = x->red_op;
        br->first_warp = w->index;
    }
    if (absent) {
        br->arrived += absent;
        report_warn(w, pc, lanes & -lanes, warn_partial_warp);
    }
    if (br->warp_pc[w->index] && br->warp_pc[w->index] != pc + 1)
        br->split_warps |= 1u << w->index;
    br->warp_pc[w->index] = pc + 1;
    br->arrived += b->per_warp_barriers ? WARP_SIZE : n;
    if (x->barrier == BARRIER_RED) {
        uint32_t slot = x->src[2];
        uint32_t holds = w->pred[slot] ^ ((x->src_not >> 2 & 1) ? ALL_LANES : 0);
        uint32_t undefined = lanes & ~w->pred_defined[slot];
        if (undefined) {
            br->red_undefined = true;
            report_warn(w, pc, undefined, "undefined predicate");
        }
        br->red_true += (uint32_t)__builtin_popcount(lanes & ~undefined & holds);
        br->red_false += (uint32_t)__builtin_popcount(lanes & ~undefined & ~holds);
    }
    if (x->barrier == BARRIER_ARRIVE) {
        warp_advance(w, lanes, pc + 1);
    } else {
        for (uint32_t k = lanes; k; k &= k - 1)
            w->arrival[__builtin_ctz(k)] = (Arrival){ pc, 0, w->steps };
        w->waiting |= lanes;
        w->at_barrier |= lanes;
        br->waiting[w->index] |= lanes;
        if (w->trace)
            w->trace->waiting |= lanes;
    }
    complete_if_reached(b, id);
    return true;
}

void barrier_arrive(Warp *w, uint32_t pc, uint32_t lanes)
{
    Block *b = w->block;
    mem_changed(&b->mem);              /* an arrival: a change others could see (spin.c) */
    const XInstr *x = &w->prog->code[pc];
    uint32_t touched = 0;              /* barriers these lanes arrived at */
    if (x->barrier >= BARRIER_CLUSTER_ARRIVE) {
        cluster_barrier(w, pc, lanes);
        return;
    }
    if (lanes && warp_arrive(w, pc, lanes))
        return;
    /* Lane by lane, lowest first. */
    for (uint32_t k = lanes; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint32_t id, count;
        if (!lane_operands(w, pc, l, &id, &count))
            return;
        Barrier *br = &b->barriers[id];
        if (!br->arrived) {
            br->expected = count;
            br->first_pc = pc;
            br->red_op = x->red_op;
            br->first_warp = w->index;
        } else if (br->expected != count || br->red_op != x->red_op) {
            char a[64], c[64];
            const Warp *starter = b->warps[br->first_warp];
            report_fault(w, pc, "lane %d arrives at barrier %u with '%s' for %s, but its arrivals so far came from '%s' "
                       "(line %u) for %s: PTX leaves this undefined", l, id, x->ir->mnemonic,
                       count_text(a, sizeof a, count), starter->prog->code[br->first_pc].ir->mnemonic,
                       starter->prog->code[br->first_pc].line, count_text(c, sizeof c, br->expected));
            return;
        }
        uint32_t absent = partial_warp(w, br, count);
        if (absent) {
            br->arrived += absent;
            report_warn(w, pc, 1u << l, warn_partial_warp);
        }
        if (br->warp_pc[w->index] && br->warp_pc[w->index] != pc + 1)
            br->split_warps |= 1u << w->index;
        br->warp_pc[w->index] = pc + 1;
        if (!b->per_warp_barriers)
            br->arrived++;
        else if (!(touched >> id & 1))
            br->arrived += WARP_SIZE;
        touched |= 1u << id;
        if (x->barrier == BARRIER_RED) {
            uint32_t slot = x->src[2];
            bool holds = ((w->pred[slot] >> l) ^ (x->src_not >> 2)) & 1;
            if (!(w->pred_defined[slot] >> l & 1)) {
                br->red_undefined = true;
                report_warn(w, pc, 1u << l, "undefined predicate");
            } else if (holds) {
                br->red_true++;
            } else {
                br->red_false++;
            }
        }
        uint32_t bit = 1u << l;
        if (x->barrier == BARRIER_ARRIVE) {
            w->pc[l] = pc + 1;
        } else {
            w->arrival[l] = (Arrival){ pc, 0, w->steps };
            w->waiting |= bit;
            w->at_barrier |= bit;
            br->waiting[w->index] |= bit;
            if (w->trace)
                w->trace->waiting |= bit;
        }
        if (!b->per_warp_barriers && br->expected)
            complete_if_reached(b, id);       /* one thread at a time: a count is never overshot */
    }
    for (uint32_t k = touched; k; k &= k - 1)
        complete_if_reached(b, (unsigned)__builtin_ctz(k));
}

/* The lanes of `lanes` that wait at the same instruction as the lowest of them (*pc). */
static uint32_t place_of(const Warp *w, int l)   /* where it waits; a lane not waiting (parked): its pc */
{
    return (w->waiting >> l & 1) ? w->arrival[l].pc : w->pc[l];
}

static uint32_t waiting_together(const Warp *w, uint32_t lanes, uint32_t *pc)
{
    *pc = place_of(w, __builtin_ctz(lanes));
    uint32_t group = 0;
    for (uint32_t k = lanes; k; k &= k - 1)
        if (place_of(w, __builtin_ctz(k)) == *pc)
            group |= 1u << __builtin_ctz(k);
    return group;
}

/* For a deadlock: which lanes wait at which barrier, how far its count is, and where the threads
 * it still waits for are. */
void barrier_report_waits(Block *b)
{
    cluster_report_waits(b);
    for (unsigned id = 0; id < BARRIER_COUNT; id++) {
        const Barrier *br = &b->barriers[id];
        if (!br->arrived)
            continue;
        char count[64];
        count_text(count, sizeof count, br->expected);
        for (uint32_t i = 0; i < b->warp_count; i++) {
            Warp *w = b->warps[i];
            for (uint32_t left = br->waiting[i]; left;) {
                uint32_t pc, group = waiting_together(w, left, &pc);
                left &= ~group;
                char who[200];
                report_lanes(w, who, sizeof who, group);
                diag_at(w->block->diag, DIAG_NOTE, w->prog->code[pc].ir->stmt_at, "%s wait%s here at barrier %u for %s; "
                        "%u %s arrived", who, __builtin_popcount(group) == 1 ? "s" : "", id, count, br->arrived,
                        br->arrived == 1 ? "has" : "have");
            }
        }
        /* The threads that have not arrived: where they wait instead, or that they exited. */
        char elsewhere[1000];
        size_t len = 0;
        elsewhere[0] = '\0';
        for (uint32_t i = 0; i < b->warp_count && len < sizeof elsewhere - 200; i++) {
            Warp *w = b->warps[i];
            uint32_t exited = w->launched & w->exited;
            uint32_t others = w->launched & ~w->exited & ~br->waiting[i];
            char who[200];
            if (exited && br->expected) {
                report_lanes(w, who, sizeof who, exited);
                len += (size_t)snprintf(elsewhere + len, sizeof elsewhere - len, "%s%s exited", len ? "; " : "", who);
            }
            for (uint32_t left = others; left && len < sizeof elsewhere - 200;) {
                uint32_t pc, group = waiting_together(w, left, &pc);
                left &= ~group;
                report_lanes(w, who, sizeof who, group);
                len += (size_t)snprintf(elsewhere + len, sizeof elsewhere - len, "%s%s at line %u ('%s')",
                                        len ? "; " : "", who, w->prog->code[pc].line, w->prog->code[pc].ir->mnemonic);
            }
        }
        if (len) {
            const Warp *starter = b->warps[br->first_warp];
            diag_at(starter->block->diag, DIAG_NOTE, starter->prog->code[br->first_pc].ir->stmt_at,
                    "barrier %u never completes: %s", id, elsewhere);
        }
    }
}
