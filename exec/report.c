/* report.c: what a run tells its user, at the bottom of the executor so that every part may
 * call it and it calls none of them: faults (an error at the instruction, with a note naming
 * the warp and CTA), warnings about undefined values (one per place and kind, collecting the
 * lanes), and for a deadlock, where each lane waiting at a warp-level synchronising
 * instruction waits and for whom. Everything goes to the block's Diag; nothing is printed. A
 * worker of a grid on several threads reports nothing: it gives up instead (grid.c). */
#include <stdarg.h>
#include <string.h>

#include "exec.h"

/* "0-3, 7" with separator ", " */
void report_lane_ranges(char *buf, size_t size, uint32_t lanes, const char *separator)
{
    size_t len = 0;
    buf[0] = '\0';
    bool first = true;
    for (int l = 0; l < WARP_SIZE && len < size; l++) {
        if (!(lanes >> l & 1))
            continue;
        int end = l;
        while (end + 1 < WARP_SIZE && (lanes >> (end + 1) & 1))
            end++;
        len += (size_t)snprintf(buf + len, size - len, "%s%d", first ? "" : separator, l);
        if (end > l && len < size)
            len += (size_t)snprintf(buf + len, size - len, "-%d", end);
        first = false;
        l = end;
    }
}

/* "lanes 0-3, 7", "lane 5"; in a CTA of several warps "warp 1 lanes 0-3". */
void report_lanes(const Warp *w, char *buf, size_t size, uint32_t lanes)
{
    int n = 0;
    if (w->block->warp_count > 1)
        n = snprintf(buf, size, "warp %u ", w->index);
    n += snprintf(buf + n, size - (size_t)n, "%s", __builtin_popcount(lanes) == 1 ? "lane " : "lanes ");
    report_lane_ranges(buf + n, size - (size_t)n, lanes, ", ");
}

/* A fault names the place; in a CTA of several warps or a grid, a note says which warp of
 * which CTA it was. */
void report_fault(Warp *w, uint32_t pc, const char *fmt, ...)
{
    if (w->block->worker) {            /* a grid's worker: the grid runs again on one thread */
        w->block->abandoned = true;
        w->faulted = true;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    Span at = pc < w->prog->code_len ? w->prog->code[pc].ir->stmt_at : (Span){ w->prog->m->src->len, 0 };
    diag_vat(w->block->diag, DIAG_ERROR, at, fmt, ap);
    va_end(ap);
    const Block *b = w->block;
    if (b->warp_count > 1 || block_cta_count(b) > 1)
        diag_at(w->block->diag, DIAG_NOTE, at, "in warp %u (threads %u-%u) of CTA (%u, %u, %u)", w->index, w->thread_base,
                w->thread_base + WARP_SIZE - 1, b->ctaid[0], b->ctaid[1], b->ctaid[2]);
    w->faulted = true;
}

/* Undefined values used where they decide something: one warning per place and kind,
 * collecting the lanes; with --strict, the first one stops the run. */
void report_warn(Warp *w, uint32_t pc, uint32_t lanes, const char *what)
{
    if (w->block->worker) {
        w->block->abandoned = true;
        w->faulted = true;
        return;
    }
    for (uint32_t i = 0; i < w->warnings.len; i++) {
        Warning *x = &w->warnings.data[i];
        if (x->pc == pc && x->what == what) {
            x->lanes |= lanes;
            return;
        }
    }
    if (w->warnings.len == w->warnings.cap) {   /* the warp's own (freed with it): the module's arena is shared */
        w->warnings.cap = w->warnings.cap ? 2 * w->warnings.cap : 8;
        w->warnings.data = xrealloc(w->warnings.data, w->warnings.cap * sizeof *w->warnings.data);
    }
    w->warnings.data[w->warnings.len++] = (Warning){ pc, lanes, what };
}

void report_warnings(Warp *w, bool strict)
{
    for (uint32_t i = 0; i < w->warnings.len; i++) {
        const Warning *x = &w->warnings.data[i];
        char lanes[200];
        report_lanes(w, lanes, sizeof lanes, x->lanes);
        diag_at(w->block->diag, strict ? DIAG_ERROR : DIAG_WARNING, w->prog->code[x->pc].ir->stmt_at,
                "%s in %s", x->what, lanes);
    }
}

/* For a deadlock: where each lane waiting at a warp-level synchronising instruction waits, and
 * for whom (barrier waits: barrier.c). */
void report_waits(Warp *w)
{
    uint32_t alive = w->launched & ~w->exited;
    uint32_t left = w->waiting & ~w->at_barrier;
    bool mismatch_told = false;
    while (left) {
        int l = __builtin_ctz(left);
        Arrival a = w->arrival[l];
        const XInstr *x = &w->prog->code[a.pc];
        uint32_t group = 0;
        for (int k = 0; k < WARP_SIZE; k++)
            if ((left >> k & 1) && w->arrival[k].pc == a.pc && w->arrival[k].membermask == a.membermask)
                group |= 1u << k;
        left &= ~group;
        uint32_t missing = a.membermask & alive & ~group;
        char who[200], whom[200];
        report_lanes(w, who, sizeof who, group);
        int n = snprintf(whom, sizeof whom, "%s", __builtin_popcount(missing) == 1 ? "lane " : "lanes ");
        report_lane_ranges(whom + n, sizeof whom - (size_t)n, missing, ", ");
        diag_at(w->block->diag, DIAG_NOTE, x->ir->stmt_at, "%s wait%s here (membermask 0x%08x) for %s", who,
                __builtin_popcount(group) == 1 ? "s" : "", a.membermask, whom);
        for (int k = 0; k < WARP_SIZE; k++) {
            if (!(missing >> k & 1))
                continue;
            const XInstr *y = &w->prog->code[w->arrival[k].pc];
            bool at_barrier = w->at_barrier >> k & 1;
            if (!mismatch_told && (at_barrier || x->sync_kind != y->sync_kind || w->arrival[k].membermask != a.membermask)) {
                mismatch_told = true;
                if (at_barrier)
                    diag_at(w->block->diag, DIAG_NOTE, y->ir->stmt_at, "lane %d waits at '%s' (a CTA barrier), so it "
                            "never arrives at '%s'", k, y->ir->mnemonic, x->ir->mnemonic);
                else
                    diag_at(w->block->diag, DIAG_NOTE, y->ir->stmt_at,
                            "lane %d waits at '%s' with membermask 0x%08x: a different instruction or mask "
                            "than '%s' with 0x%08x, so they never complete together", k, y->ir->mnemonic,
                            w->arrival[k].membermask, x->ir->mnemonic, a.membermask);
                break;
            }
        }
    }
}
