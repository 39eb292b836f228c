/* reach.c: what a run of one kernel may reach, one way for the library and the command line:
 * the checker's refusals ("ptxrun cannot execute ... yet") are held while a module is checked
 * and said only for the functions the kernel reaches (lower_reached), which alone are given to
 * the lowering (m->functions narrowed to them until reach_release). A module with errors says
 * them all, as --check does. */
#include <stdlib.h>
#include <string.h>

#include "api.h"

static void hold(void *context, Diag *diag, DiagLevel level, Span at, const char *message)
{
    KernelReach *r = context;
    (void)diag, (void)level;
    if (r->len == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 16;
        r->items = xrealloc(r->items, r->cap * sizeof *r->items);
    }
    size_t len = strlen(message) + 1;
    r->items[r->len++] = (Refusal){ at, memcpy(xmalloc(len), message, len) };
}

void reach_hold(KernelReach *r, Source *src, CheckOptions *check)
{
    memset(r, 0, sizeof *r);
    diag_init(&r->refusals, src, NULL);
    r->refusals.max_errors = 0;                /* every one held: those said are counted where said */
    r->refusals.emit = hold;
    r->refusals.context = r;
    check->refusals = &r->refusals;
}

void reach_forget(KernelReach *r, uint32_t from)
{
    for (uint32_t i = from; i < r->len; i++)
        free(r->items[i].message);
    r->len = from < r->len ? from : r->len;
}

void reach_refuse_all(KernelReach *r, Diag *diag)
{
    for (uint32_t i = 0; i < r->len; i++)
        diag_at(diag, DIAG_ERROR, r->items[i].at, "%s", r->items[i].message);
    reach_forget(r, 0);
}

/* Where f's text that the checker may refuse starts: its name, or its results before it. */
static uint32_t function_start(const Function *f)
{
    uint32_t start = f->at.offset;
    for (uint32_t i = 0; i < f->returns.len; i++)
        start = f->returns.data[i].at.offset < start ? f->returns.data[i].at.offset : start;
    return start;
}

/* The function of m whose text holds offset: the last to start before it. */
static uint32_t function_at(const Module *m, uint32_t offset)
{
    uint32_t lo = 0, hi = m->functions.len;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        *(function_start(m->functions.data[mid]) <= offset ? &lo : &hi) = mid;
    }
    return lo;
}

Function **reach_of_kernel(const KernelReach *r, const Module *m, const Function *fn, Diag *diag, uint32_t *count)
{
    Function **reached = lower_reached(m, fn, count);
    bool *in = xcalloc(m->functions.len + 1, sizeof *in);
    for (uint32_t i = 0, k = 0; i < m->functions.len && k < *count; i++)     /* both in module order */
        if (m->functions.data[i] == reached[k]) {
            in[i] = true;
            k++;
        }
    for (uint32_t i = 0; i < r->len; i++)
        if (in[function_at(m, r->items[i].at.offset)])
            diag_at(diag, DIAG_ERROR, r->items[i].at, "%s", r->items[i].message);
    free(in);
    return reached;
}

void reach_narrow(KernelReach *r, Module *m, Function **reached, uint32_t count)
{
    r->all = m->functions.data;
    r->all_len = m->functions.len;
    m->functions.data = reached;
    m->functions.len = count;
}

void reach_restore(KernelReach *r, Module *m)
{
    if (!r->all)
        return;
    free(m->functions.data);
    m->functions.data = r->all;
    m->functions.len = r->all_len;
    r->all = NULL;
}

void reach_release(KernelReach *r, Module *m)
{
    reach_forget(r, 0);
    free(r->items);
    r->items = NULL;
    r->len = r->cap = 0;
    reach_restore(r, m);
}
