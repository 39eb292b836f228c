/* asyncwrite.c: asynchronous writes (async.h) between their issue and their completion point.
 * Each Block keeps the writes pending in it and its mbarrier table in an AsyncState, made at
 * its first use in a CTA and started afresh in the next CTA (a CTA's .shared begins again, and
 * so do its copies and mbarriers). A write's destination bytes are undefined from its issue;
 * when it lands they take its data and definedness. Writes land in the order they were issued.
 * Requires: report.c (the warning of a read before the wait); it calls nothing of mem.c, which
 * calls it, so a write's region must have its shadow bytes (mem_shadow) before it is issued. */
#include <stdlib.h>
#include <string.h>

#include "async.h"

static void free_writes(AsyncState *s, bool count)
{
    for (uint32_t i = 0; i < s->count; i++) {
        if (count)
            s->writes[i].to->mem.regions[s->writes[i].region].async_pending--;
        free(s->writes[i].data);
        free(s->writes[i].shadow);
    }
    s->count = 0;
}

AsyncState *async_state(Block *b)
{
    AsyncState *s = b->async;
    if (!s) {
        s = b->async = xcalloc(1, sizeof *s);
        for (int k = 0; k < ASYNC_KINDS; k++)
            s->groups[k] = xcalloc(MAX_BLOCK_THREADS, sizeof *s->groups[k]);
        s->cta = b->cta_first_step;
        return s;
    }
    if (s->cta != b->cta_first_step) {        /* a new CTA: nothing of the last one is pending */
        free_writes(s, true);
        s->bar_count = 0;
        for (int k = 0; k < ASYNC_KINDS; k++)
            memset(s->groups[k], 0, MAX_BLOCK_THREADS * sizeof *s->groups[k]);
        s->cta = b->cta_first_step;
    }
    return s;
}

void async_free(Block *b)
{
    AsyncState *s = b->async;
    if (!s)
        return;
    free_writes(s, false);                    /* the blocks they land in may be gone */
    free(s->writes);
    for (int k = 0; k < ASYNC_KINDS; k++)
        free(s->groups[k]);
    free(s->bars);
    free(s);
    b->async = NULL;
}

uint32_t async_region_of(const Block *b, const uint8_t *p)
{
    for (uint32_t i = 0; i < b->mem.count; i++) {
        const Region *r = &b->mem.regions[i];
        if (!r->per_lane && r->data && p >= r->data && p < r->data + r->size)
            return i;
    }
    return NO_SLOT;
}

void async_read_check(Warp *w, uint32_t pc, int lane, const uint8_t *shadow, unsigned size)
{
    for (unsigned i = 0; i < size; i++)
        if (shadow[i] != 0xff) {
            report_warn(w, pc, 1u << lane, "read of bytes an asynchronous copy has not written yet (their value is "
                        "undefined until its completion: cp.async.wait_group, cp.async.wait_all, or its mbarrier's "
                        "phase)");
            return;
        }
}

void async_changed(Block *b)
{
    mem_changed(&b->mem);                     /* gang.c's rule: a warp spinning on it may go on */
}

/* The bytes of wr's destination and their shadow. */
static uint8_t *destination(const AsyncWrite *wr, uint8_t **shadow)
{
    Region *r = &wr->to->mem.regions[wr->region];
    if (!r->shadow)
        BUG("an asynchronous write into '%s', which has no shadow bytes", r->name ? r->name : "?");
    *shadow = r->shadow + wr->offset;
    return r->data + wr->offset;
}

void async_issue(AsyncWrite *wr, const uint8_t *src, const uint8_t *src_shadow)
{
    wr->data = xmalloc(wr->size + 1);
    wr->shadow = xmalloc(wr->size + 1);
    if (src)
        memcpy(wr->data, src, wr->size);
    else
        memset(wr->data, 0, wr->size);
    if (src && src_shadow)
        memcpy(wr->shadow, src_shadow, wr->size);
    else
        memset(wr->shadow, 0xff, wr->size);
    uint8_t *shadow;
    destination(wr, &shadow);
    memset(shadow, 0, wr->size);              /* undefined until the write lands */
    async_changed(wr->to);
}

void async_add(Block *b, const AsyncWrite *wr)
{
    AsyncState *s = async_state(b);
    if (s->count == s->capacity) {
        s->capacity = s->capacity ? 2 * s->capacity : 64;
        s->writes = xrealloc(s->writes, s->capacity * sizeof *s->writes);
    }
    s->writes[s->count++] = *wr;
    wr->to->mem.regions[wr->region].async_pending++;
}

void async_land(AsyncWrite *wr)
{
    uint8_t *shadow, *p = destination(wr, &shadow);
    memcpy(p, wr->data, wr->size);
    memcpy(shadow, wr->shadow, wr->size);
    wr->to->mem.regions[wr->region].async_pending--;
    free(wr->data);
    free(wr->shadow);
    wr->data = wr->shadow = NULL;
    async_changed(wr->to);
}

/* Lands, in issue order, the writes of b's list that `due` picks, and keeps the others. */
#define LAND_WHERE(s, due)                                        \
    do {                                                          \
        uint32_t kept_ = 0;                                       \
        for (uint32_t i_ = 0; i_ < (s)->count; i_++) {            \
            AsyncWrite *wr = &(s)->writes[i_];                    \
            if (due)                                              \
                async_land(wr);                                   \
            else                                                  \
                (s)->writes[kept_++] = *wr;                       \
        }                                                         \
        (s)->count = kept_;                                       \
    } while (0)

void async_commit(Block *b, uint32_t thread, int kind)
{
    AsyncState *s = async_state(b);
    bool any = false;
    for (uint32_t i = 0; i < s->count; i++) {
        AsyncWrite *wr = &s->writes[i];
        if (wr->thread == thread && wr->kind == kind && !wr->group && (wr->mbarrier == NO_SLOT || kind == ASYNC_COPY)) {
            if (!any)
                s->groups[kind][thread]++;
            any = true;
            wr->group = s->groups[kind][thread];
        }
    }
    if (!any)                                 /* an empty group: complete already */
        s->groups[kind][thread]++;
}

void async_wait(Block *b, uint32_t thread, int kind, uint64_t newest_pending)
{
    AsyncState *s = async_state(b);
    uint64_t committed = s->groups[kind][thread];
    if (committed <= newest_pending)
        return;
    uint64_t last = committed - newest_pending;    /* groups 1..last complete */
    LAND_WHERE(s, wr->thread == thread && wr->kind == kind && wr->group && wr->group <= last);
}

void async_attach(Block *owner, uint32_t mbarrier, const AsyncWrite *wr)
{
    AsyncState *s = async_state(owner);
    AsyncWrite a = *wr;
    a.mbarrier = mbarrier;
    a.phase = s->bars[mbarrier].phase;
    async_add(owner, &a);
}

void async_land_phase(Block *owner, uint32_t mbarrier, uint64_t phase)
{
    AsyncState *s = async_state(owner);
    LAND_WHERE(s, wr->mbarrier == mbarrier && wr->phase == phase);
}
