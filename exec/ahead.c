/* ahead.c: the memory a gang's next CTA will touch first, listed for the processor to fetch while
 * the CTA before it runs (Prefetch, block.h says why). gang.c calls ahead_fill as each CTA's turn
 * comes under its default schedule (CTA c, then c + 1); warp.c asks for two lines at each step.
 * Listing must cost little beside what it saves: the lines are those of CTA c + 1, whose block's
 * and warps' first lines were asked for while c - 1 ran (their pcs are read here), its block's
 * list of warps while c - 2 ran; the rows the instructions from a pc on touch are found once per
 * pc and kept (they are the program's, the same for every warp).
 * Requires: block.h (the gang, its blocks and warps). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"

enum { AHEAD_INSTRUCTIONS = 32,        /* the instructions from a lane's pc whose rows are listed */
       AHEAD_BYTES = 1024 };           /* at most, of an array listed whole (predicates, regions) */

Prefetch *ahead_new(const Program *p)
{
    Prefetch *a = xcalloc(1, sizeof *a);
    uint32_t rows = p->row_count ? p->row_count : 1;
    a->list_mark = xcalloc(rows, sizeof *a->list_mark);
    a->warp_mark = xcalloc(rows, sizeof *a->warp_mark);
    a->rows_at = xcalloc(p->code_len ? p->code_len : 1, sizeof *a->rows_at);
    return a;
}

void ahead_free(Prefetch *a)
{
    if (!a)
        return;
    free(a->list_mark);
    free(a->warp_mark);
    free(a->rows_at);
    free(a->rows);
    free(a);
}

static void lines(Prefetch *a, const void *at, size_t bytes)
{
    uintptr_t line = (uintptr_t)at & ~(uintptr_t)63, end = (uintptr_t)at + bytes;
    for (; line < end && a->count < PREFETCH_MAX; line += 64)
        a->line[a->count++] = (const void *)line;
}

/* A new mark for marks[] of `rows` (all of them cleared when the counter comes round). */
static uint32_t next_mark(uint32_t *counter, uint32_t *marks, uint32_t rows)
{
    if (++*counter == 0) {
        memset(marks, 0, rows * sizeof *marks);
        *counter = 1;
    }
    return *counter;
}

static void push_row(Prefetch *a, uint32_t v)
{
    if (a->rows_len == a->rows_cap) {
        a->rows_cap = a->rows_cap ? 2 * a->rows_cap : 256;
        a->rows = xrealloc(a->rows, a->rows_cap * sizeof *a->rows);
    }
    a->rows[a->rows_len++] = v;
}

static void list_row(Prefetch *a, const Program *p, uint32_t row, uint32_t mark)
{
    if (row < p->first_immediate && a->list_mark[row] != mark) {   /* immediates: one copy (warp_src) */
        a->list_mark[row] = mark;
        push_row(a, row);
    }
}

/* Where the list of the rows the instructions from pc on read and write begins in a->rows (its
 * length first), made the first time: up to the second CTA barrier from pc (a warp's turn in a
 * gang usually ends waiting at one: past it, the rows are another turn's). */
static uint32_t rows_from(Prefetch *a, const Program *p, uint32_t pc)
{
    if (a->rows_at[pc])
        return a->rows_at[pc] - 1;
    uint32_t mark = next_mark(&a->list_counter, a->list_mark, p->row_count), at = a->rows_len;
    push_row(a, 0);
    unsigned barriers = 0;
    for (uint32_t i = pc; i < pc + AHEAD_INSTRUCTIONS && i < p->code_len && barriers < 2; i++) {
        const XInstr *x = &p->code[i];
        barriers += x->family == FAM_BARRIER;
        if (x->dst_kind == DST_VALUE)
            list_row(a, p, x->dst, mark);
        for (uint32_t s = 0; s < x->src_count && s < sizeof x->src / sizeof *x->src; s++)
            if (!(x->src_pred >> s & 1))
                list_row(a, p, x->src[s], mark);
        for (uint32_t v = 0; v < VEC_MAX; v++) {
            if (v < x->vec_count && x->vec[v] != NO_SLOT)
                list_row(a, p, x->vec[v], mark);
            if (x->dsts[v] != NO_SLOT)
                list_row(a, p, x->dsts[v], mark);
        }
    }
    a->rows[at] = a->rows_len - at - 1;
    a->rows_at[pc] = at + 1;
    return at;
}

/* The warp's rows the instructions from each live lane's pc on touch, each row once. */
static void warp_rows(Prefetch *a, const Warp *w, uint32_t live)
{
    const Program *p = w->prog;
    uint32_t mark = next_mark(&a->warp_counter, a->warp_mark, p->row_count);
    uintptr_t last_defined = 0;
    for (uint32_t pc = NO_SLOT; live; live &= live - 1) {      /* each lane's, once in a row */
        uint32_t at = w->pc[__builtin_ctz(live)];
        if (at == pc || at >= p->code_len)
            continue;
        pc = at;
        uint32_t from = rows_from(a, p, pc);
        for (uint32_t j = 1; j <= a->rows[from]; j++) {
            uint32_t row = a->rows[from + j];
            if (a->warp_mark[row] == mark)
                continue;
            a->warp_mark[row] = mark;
            lines(a, w->val[row], sizeof *w->val);
            uintptr_t defined = (uintptr_t)&w->defined[row] & ~(uintptr_t)63;
            if (defined != last_defined)   /* sixteen rows' a line: rows listed near together */
                lines(a, (const void *)defined, 1);
            last_defined = defined;
        }
    }
}

/* The list reordered: the first line of each page (4 KiB) first, so that the processor finds the
 * pages, each a walk of its tables, early; the other lines after them, in their order. (Pages
 * told apart by a small table: two that share a slot both count as first, which costs nothing.) */
static void pages_first(Prefetch *a)
{
    enum { SLOTS = 64 };
    uintptr_t seen[SLOTS] = { 0 };
    uint32_t first = 0, rest = 0;
    for (uint32_t i = 0; i < a->count; i++) {
        uintptr_t page = (uintptr_t)a->line[i] >> 12;
        uint32_t slot = (uint32_t)(page * 0x9e3779b1u) >> 26;    /* SLOTS = 2^6 */
        if (seen[slot] == page + 1)
            a->rest[rest++] = a->line[i];
        else
            seen[slot] = page + 1, a->line[first++] = a->line[i];
    }
    memcpy(&a->line[first], a->rest, rest * sizeof *a->rest);
}

void ahead_fill(Gang *g, uint32_t c)
{
    Prefetch *a = g->ahead;
    const Block *k3 = g->ctas[(c + 3) % g->count], *k2 = g->ctas[(c + 2) % g->count];
    uint32_t warps = g->ctas[c]->warp_count;  /* every CTA's: not read from k3, not in the caches */
    a->count = a->next = 0;
    lines(a, &k3->warps, warps * sizeof *k3->warps);
    for (uint32_t i = 0; i < warps; i++)
        lines(a, k2->warps[i], offsetof(Warp, pc) + sizeof k2->warps[i]->pc);
    lines(a, &k2->mem, offsetof(Block, barriers) + sizeof k2->barriers[0] - offsetof(Block, mem));
    lines(a, &k2->live_threads, offsetof(Block, kept) - offsetof(Block, live_threads));
    lines(a, &k2->gang, sizeof k2->gang + sizeof k2->gang_rank);

    const Block *k = g->ctas[(c + 1) % g->count];
    size_t regions = k->mem.count * sizeof *k->mem.regions;
    lines(a, k->mem.regions, regions < AHEAD_BYTES ? regions : AHEAD_BYTES);
    for (uint32_t i = 0; i < k->warp_count; i++) {
        const Warp *w = k->warps[i];
        uint32_t live = w->launched & ~w->exited;
        if (!live)
            continue;
        lines(a, w, offsetof(Warp, cluster));
        if (w->parked)                 /* spin.c compares its lanes' stacks */
            lines(a, &w->sp, offsetof(Warp, active) - offsetof(Warp, sp));
        size_t preds = w->prog->pred_count * sizeof *w->pred;
        lines(a, w->pred, preds < AHEAD_BYTES ? preds : AHEAD_BYTES);
        lines(a, w->pred_defined, preds < AHEAD_BYTES ? preds : AHEAD_BYTES);
        size_t immediates = (w->prog->row_count - w->prog->first_immediate) * sizeof *w->defined;
        lines(a, &w->defined[w->prog->first_immediate], immediates < AHEAD_BYTES ? immediates : AHEAD_BYTES);
        warp_rows(a, w, live);
    }
    pages_first(a);
}
