/* async.h: asynchronous copies and mbarriers (asyncwrite.c, async.c, mbarrier.c).
 *
 * An asynchronous write (AsyncWrite) is bytes on their way into memory: an instruction reads
 * its source when it is issued (async_issue: the bytes and their definedness are copied into
 * the write), and the destination bytes become UNDEFINED then; at the write's completion point
 * they get the data and its definedness (async_land). A read in between reads undefined bytes,
 * so a missing wait shows as undefined values (and --strict stops the run).
 *
 * Where a write waits: every Block keeps one list of pending writes (AsyncState). A write
 * belongs to its issuing thread's async-groups (kind ASYNC_COPY for cp.async, ASYNC_BULK for
 * the bulk copies' bulk-groups), committed by async_commit and completed by async_wait; or it
 * is attached to an mbarrier's current phase (async_attach, or cp.async.mbarrier.arrive) and
 * lands when that phase completes. An attached write lives in the list of the mbarrier's CTA,
 * any other in its issuer's.
 *
 * For the bulk copies (bulk.c): make an AsyncWrite for each destination CTA (`to`: a multicast
 * gives each CTA of the cluster its own; the region must have shadow bytes, mem_shadow, before
 * the issue: asyncwrite.c calls nothing of mem.c), fill it with async_issue (the source's bytes
 * and shadow, or zeros; they become the write's, freed when it lands), then
 *   - mbarrier completion: m = mbarrier_at(w, x, lane, address, &owner) (NO_SLOT after a fault:
 *     no live mbarrier there), async_attach(owner, m, &wr), then mbarrier_tx(w, pc, lane, owner,
 *     m, -bytes) (complete-tx): the phase may complete at once, which lands the write;
 *   - bulk-group completion: async_add(issuer, &wr) with kind ASYNC_BULK, async_commit(b, thread,
 *     ASYNC_BULK) at cp.async.bulk.commit_group, async_wait(b, thread, ASYNC_BULK, n) at
 *     cp.async.bulk.wait_group n (.read: the sources were read at issue, nothing to wait for).
 * Every change another thread could see moves the memory epoch (async_changed: mem_changed, what
 * gang_changed does, without a call into gang.c). */
#ifndef PTXRUN_ASYNC_H
#define PTXRUN_ASYNC_H

#include "family.h"

enum { ASYNC_COPY, ASYNC_BULK, ASYNC_KINDS };

typedef struct AsyncWrite {
    Block *to;                 /* the CTA whose memory the bytes land in */
    uint32_t region;           /* the region of to->mem they land in */
    uint64_t offset;           /* where, in the region's bytes (a per-thread region: the thread's copy) */
    uint32_t size;
    uint8_t *data, *shadow;    /* size bytes each, the write's own (freed when it lands) */
    uint32_t thread;           /* the issuing thread, in its CTA */
    uint32_t pc;               /* the issuing instruction */
    uint8_t kind;              /* ASYNC_COPY, ASYNC_BULK */
    uint64_t group;            /* its async-group, counted from 1 per thread and kind; 0: not committed */
    uint32_t mbarrier;         /* attached: the mbarrier (an index in its CTA's table) whose phase
                                  completes it; NO_SLOT: none */
    uint64_t phase;            /* that phase */
} AsyncWrite;

/* An mbarrier object (mbarrier.c): 8 bytes of .shared, live from mbarrier.init to mbarrier.inval. */
typedef struct MBarrier {
    uint32_t region;           /* where: a .shared region of its CTA and the offset in it */
    uint64_t offset;
    uint32_t init_pc;          /* the mbarrier.init that made it */
    uint32_t expected;         /* arrivals each phase expects (arrive_drop lowers it) */
    uint32_t pending;          /* arrivals the current phase still waits for */
    int32_t tx;                /* tx-count */
    uint64_t phase;            /* phases completed */
    bool live;
} MBarrier;

typedef struct AsyncState {
    uint64_t cta;              /* the CTA it belongs to (its first step): a new CTA starts afresh */
    AsyncWrite *writes;        /* pending */
    uint32_t count, capacity;
    uint64_t *groups[ASYNC_KINDS];   /* per thread: async-groups committed so far */
    MBarrier *bars;
    uint32_t bar_count, bar_capacity;
} AsyncState;

/* asyncwrite.c */
AsyncState *async_state(Block *b);                     /* b's, made (or started afresh) when needed */
void async_free(Block *b);                             /* block_free */
/* The write's data and shadow from the size bytes at src (their shadow src_shadow; NULL: all
 * defined; data NULL: zeros, all defined), and its destination's bytes undefined now. */
void async_issue(AsyncWrite *wr, const uint8_t *src, const uint8_t *src_shadow);
void async_add(Block *b, const AsyncWrite *wr);        /* into b's list */
void async_land(AsyncWrite *wr);                       /* its bytes into memory; frees them */
void async_commit(Block *b, uint32_t thread, int kind);
void async_wait(Block *b, uint32_t thread, int kind, uint64_t newest_pending);
void async_attach(Block *owner, uint32_t mbarrier, const AsyncWrite *wr);   /* to its current phase */
void async_land_phase(Block *owner, uint32_t mbarrier, uint64_t phase);    /* that phase completed */
void async_changed(Block *b);                          /* something another thread could see changed */
uint32_t async_region_of(const Block *b, const uint8_t *p);    /* the region of b's memory holding byte p, or NO_SLOT */

/* mbarrier.c */
/* The live mbarrier at `offset` of .shared region `region` of owner (an index in its table);
 * NO_SLOT after a fault naming the instruction at pc and the lane (none is live there). */
uint32_t mbarrier_find(Warp *w, uint32_t pc, int lane, Block *owner, uint32_t region, uint64_t offset);
/* expect-tx (count > 0) or complete-tx (count < 0) of |count| on mbarrier m of owner; false
 * after a fault (tx-count out of its range). A phase completed lands its writes. */
bool mbarrier_tx(Warp *w, uint32_t pc, int lane, Block *owner, uint32_t m, int64_t count);
/* The arrive-on operation of count arrivals; false after a fault (more than are pending). */
bool mbarrier_arrive_on(Warp *w, uint32_t pc, int lane, Block *owner, uint32_t m, uint32_t count);
/* The live mbarrier at the lane's address (in x's space: .shared, .shared::cluster or generic) and
 * *owner its CTA; NO_SLOT after a fault naming the lane and the instruction (no live mbarrier
 * there, an address outside .shared, another CTA's mbarrier for an instruction that cannot
 * reach one). */
uint32_t mbarrier_at(Warp *w, const XInstr *x, int lane, uint64_t address, Block **owner);
/* The CTA whose .shared holds byte p (b's own, or another CTA of its cluster: cluster_peer) and the
 * region there; NULL when none does. */
Block *mbarrier_owner(Block *b, const uint8_t *p, uint32_t *region);
/* Whether the pending count may go up by one (cp.async.mbarrier.arrive without .noinc); false
 * after a fault. */
bool mbarrier_room(Warp *w, uint32_t pc, int lane, Block *owner, uint32_t m);
void mbarrier_lower(Loader *ld, const Instr *in, XInstr *x);
void mbarrier_execute(Warp *w, const XInstr *x, uint32_t mask);
/* After a try_wait at pc ran for the lanes of run: those whose phase has not completed wait
 * (Warp.waiting and at_barrier, Warp.arrival) until one of their CTA's phases completes; returns them. */
uint32_t mbarrier_suspend(Warp *w, const XInstr *x, uint32_t pc, uint32_t run);
/* Nothing in the run can move: try_wait's time limit expires, its waiting lanes of b go on after
 * it with false. False when none waited. */
bool mbarrier_expire(Block *b);

/* async.c: cp.async, commit_group, wait_group, wait_all, cp.async.mbarrier.arrive */
void async_lower(Loader *ld, const Instr *in, XInstr *x);
void async_execute(Warp *w, const XInstr *x, uint32_t mask);

#endif
