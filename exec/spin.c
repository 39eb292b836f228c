/* spin.c: a warp that spins. A warp whose ready lanes, all together at a backward branch, come
 * back to a state they were in there (the same pcs, registers, predicates, carries, waiting
 * lanes and calls) while nothing another thread could see has changed (Memory.epoch has not
 * moved: no write changed a byte, no barrier saw an arrival, no thread ended) would repeat that
 * iteration forever: each lane's values depend only on its registers and on memory, which stayed
 * the same. So it parks: it is not run, and the steps of the repeated iteration do not count
 * against --max-steps, until the epoch moves (block.c, gang.c resume it). Every warp parked or
 * waiting, nothing left to change: a deadlock.
 * Cheap where nothing spins: the warp looks at the epoch at each backward branch its ready lanes
 * take together; only when it has not moved since the warp's previous look does it compare its
 * state with the one it kept, and it keeps one at the 1st, 2nd, 4th, 8th, ... look since the
 * epoch last moved (Brent's cycle finding: a loop that comes back to a state after any number of
 * iterations is found), comparing first the row that differed the last time (a loop counter).
 * A short loop of 32-bit integer operations, compares and loads (a grid.sync() spin) keeps and
 * compares only the rows it writes: before any lane runs an instruction outside it, the other
 * rows, as they still are, join the kept state (spin_watch, spin_widen); the test is the same.
 * A loop that reads the clock or calls a builtin (printf) looks afresh each time: never parked.
 * Requires: block.h (the warp), report.c (the note of a deadlock). */
#include <stdlib.h>
#include <string.h>

#include "block.h"

enum { SPIN_MAX_DEPTH = 4,     /* deeper calls: not compared, never parked */
       SPIN_FIRST_KEEP = 1,    /* the first look kept: the 1st (then the 2nd, 4th, 8th, ...) */
       SPIN_LOOP_MAX = 64,     /* a loop's instructions looked at for the rows it writes */
       SPIN_WRITTEN_MAX = 32 };

typedef struct SpinState {
    Warp *owner;               /* the warp it was kept for; NULL: free */
    uint32_t rows, preds;      /* its room */
    uint64_t steps;            /* the warp's steps when it was kept */
    uint32_t hint;             /* the row that differed last */
    uint32_t pc[WARP_SIZE];
    uint32_t exited, waiting, at_barrier, carry, carry_defined, carry_by_sub;
    Arrival arrival[WARP_SIZE];
    uint32_t depth[WARP_SIZE], sp[WARP_SIZE], stack_ptr[WARP_SIZE], charged[WARP_SIZE];
    Frame frames[WARP_SIZE][SPIN_MAX_DEPTH];
    uint64_t (*val)[WARP_SIZE];
    uint64_t (*bits)[WARP_SIZE];
    uint32_t *defined, *pred, *pred_defined;
    bool partial;              /* only the rows of written[] kept (the others: the warp's, see keep) */
    uint32_t frozen;           /* lanes whose partly defined bits are not kept (same_bits) */
    uint32_t written_count, written[SPIN_WRITTEN_MAX];
} SpinState;

static bool frames_equal(const Frame *a, const Frame *b)
{
    return a->return_pc == b->return_pc && a->call_pc == b->call_pc && a->callee == b->callee &&
           a->caller_sp == b->caller_sp && a->caller_stack_ptr == b->caller_stack_ptr;
}

/* Whether the warp's state, its ready lanes (mask) at pc, can be kept: no lane too deep in
 * calls or with recursion's saved activations. */
static bool keepable(const Warp *w)
{
    for (uint32_t k = w->stacks_made; k; k &= k - 1) {   /* a lane in a call has made its stack */
        int l = __builtin_ctz(k);
        if (w->depth[l] > SPIN_MAX_DEPTH || (w->depth[l] && w->saves[l].len))   /* saves: in calls only */
            return false;
    }
    return true;
}

static uint32_t lane_pc(const Warp *w, uint32_t pc, uint32_t mask, int l)
{
    return (mask >> l & 1) ? pc : w->pc[l];
}

/* A row's values and definedness; its partly defined bits only where a lane is not wholly defined
 * (elsewhere Warp.bits means nothing, and keep() copies none), and not of the frozen lanes
 * (SpinState.frozen), which run nothing while the state is compared: those that waited when it
 * was kept (a waiting lane runs nothing until released, and same_state finds it still waiting
 * from the same arrival, Arrival.since, or the states differ), and, while only a loop's rows are
 * kept, those held outside the loop (one runs only after spin_widen, which keeps their bits).
 * (The bits of a row no lane made partly defined are pages the system has not given yet: read,
 * each costs a page fault, as a grid.sync() spin in lane 0 of each of 1,024 CTAs did.) */
static bool same_bits(const Warp *w, const SpinState *s, uint32_t r)
{
    for (uint32_t k = ~w->defined[r] & ~s->frozen; k; k &= k - 1)
        if (w->bits[r][__builtin_ctz(k)] != s->bits[r][__builtin_ctz(k)])
            return false;
    return true;
}

static bool same_row(const Warp *w, const SpinState *s, uint32_t r)
{
    return w->defined[r] == s->defined[r] && !memcmp(w->val[r], s->val[r], sizeof *w->val) && same_bits(w, s, r);
}

/* Every row the same (one comparison of all values, the common case, then row by row only for the
 * partly defined bits); when one differs, s->hint is the first that does. */
static bool same_rows(const Warp *w, SpinState *s)
{
    uint32_t n = w->prog->first_immediate;
    bool same = !memcmp(w->defined, s->defined, n * sizeof *w->defined) && !memcmp(w->val, s->val, n * sizeof *w->val);
    for (uint32_t r = 0; r < n && same; r++)
        same = w->defined[r] == ALL_LANES || same_bits(w, s, r);
    for (uint32_t r = 0; r < n && !same; r++)
        if (!same_row(w, s, r)) {
            s->hint = r;
            return false;
        }
    return true;
}

/* Whether the warp, its ready lanes at the backward branch pc, can keep only the rows the loop
 * [target, pc] writes (s->written): each of its instructions writes no row but those its fields
 * name; a lane runs an instruction outside it (one that left by not taking the branch, one held
 * elsewhere) only after warp.c's spin_watch has kept the other rows, unchanged until then; no lane
 * waits at an instruction that writes a row when another warp completes it (its waiting lanes are
 * at CTA barriers without results), and no wgmma results are still to land. */
static bool loop_rows(const Warp *w, SpinState *s, uint32_t pc)
{
    const Program *p = w->prog;
    const XInstr *bra = &p->code[pc];
    uint32_t lo = bra->target, alive = w->launched & ~w->exited;
    if (w->wgmma || bra->op != OP_BRA || lo > pc || pc - lo >= SPIN_LOOP_MAX)
        return false;
    for (int l = 0; l < WARP_SIZE; l++)
        if ((w->waiting & alive) >> l & 1) {
            const XInstr *x = &p->code[w->arrival[l].pc];
            if (x->family != FAM_BARRIER || x->dst_kind == DST_VALUE)
                return false;
        }
    s->written_count = 0;
    for (uint32_t i = lo; i < pc; i++) {
        const XInstr *x = &p->code[i];
        if (x->family == FAM_FENCE || x->family == FAM_HINT)
            continue;
        bool known = x->kop != KOP_NONE || x->kcmp != KCMP_NONE || (x->op == OP_LD && x->vec_count <= 1 && x->dst_bits <= 64);
        if (!known || x->reads_clock)
            return false;
        uint32_t rows[1 + 2 * VEC_MAX], n = 0;   /* predicates: all compared (same_state) */
        if (x->dst_kind == DST_VALUE)
            rows[n++] = x->dst;
        for (unsigned v = 0; v < VEC_MAX; v++) {
            if (v < x->vec_count)
                rows[n++] = x->vec[v];
            rows[n++] = x->dsts[v];
        }
        for (uint32_t k = 0; k < n; k++) {
            uint32_t r = rows[k], j = 0;
            while (j < s->written_count && s->written[j] != r)
                j++;
            if (r >= p->first_immediate || j < s->written_count)
                continue;
            if (s->written_count == SPIN_WRITTEN_MAX)
                return false;
            s->written[s->written_count++] = r;
        }
    }
    return true;
}

static void keep_bits(SpinState *s, const Warp *w, uint32_t r)
{
    for (uint32_t k = ~w->defined[r] & ~s->frozen; k; k &= k - 1)
        s->bits[r][__builtin_ctz(k)] = w->bits[r][__builtin_ctz(k)];
}

static void keep_row(SpinState *s, const Warp *w, uint32_t r)
{
    memcpy(s->val[r], w->val[r], sizeof *w->val);
    s->defined[r] = w->defined[r];
    keep_bits(s, w, r);
}

/* The warp leaves the loop whose written rows alone its state kept: the other rows, as they were
 * when it was kept (no instruction it ran since writes them), join it. A state no longer compared
 * (the epoch moved, or held lanes were hurried: only keep() makes one compared again) needs none. */
void spin_widen(Warp *w)
{
    SpinState *s = w->spin;
    w->spin_partial = false;
    if (!s || !s->partial || !w->spin_kept)
        return;
    s->partial = false;
    uint32_t held = s->frozen & ~s->waiting;   /* not run since kept: their bits as they were */
    for (uint32_t k = 0; k < s->written_count; k++)
        for (uint32_t m = held & ~w->defined[s->written[k]]; m; m &= m - 1)
            s->bits[s->written[k]][__builtin_ctz(m)] = w->bits[s->written[k]][__builtin_ctz(m)];
    s->frozen = s->waiting;
    for (uint32_t r = 0; r < w->prog->first_immediate; r++) {
        uint32_t j = 0;
        while (j < s->written_count && s->written[j] != r)
            j++;
        if (j == s->written_count)
            keep_row(s, w, r);
    }
}

static bool same_state(const Warp *w, SpinState *s, uint32_t pc, uint32_t mask)
{
    const Program *p = w->prog;
    uint32_t alive = w->launched & ~w->exited;
    if (w->exited != s->exited || w->waiting != s->waiting || w->at_barrier != s->at_barrier)
        return false;
    for (int l = 0; l < WARP_SIZE; l++)
        if ((alive >> l & 1) && lane_pc(w, pc, mask, l) != s->pc[l])
            return false;
    for (uint32_t k = 0; k < s->written_count && s->partial; k++)  /* the others: unchanged since kept */
        if (!same_row(w, s, s->written[k])) {
            s->hint = s->written[k];
            return false;
        }
    if (!s->partial && s->hint < p->first_immediate && !same_row(w, s, s->hint))
        return false;
    if (!s->partial && !same_rows(w, s))
        return false;
    uint32_t preds = p->pred_count - 2;
    if (memcmp(w->pred, s->pred, preds * sizeof *w->pred) || memcmp(w->pred_defined, s->pred_defined, preds * sizeof *w->pred))
        return false;
    if (w->carry != s->carry || w->carry_defined != s->carry_defined || w->carry_by_sub != s->carry_by_sub)
        return false;
    /* Whole arrays: a lane not alive (exited, the same ones as when kept; never launched) changed none. */
    if (memcmp(w->depth, s->depth, sizeof s->depth) || memcmp(w->sp, s->sp, sizeof s->sp) ||
        memcmp(w->stack_ptr, s->stack_ptr, sizeof s->stack_ptr) || memcmp(w->charged, s->charged, sizeof s->charged))
        return false;
    for (uint32_t k = w->waiting & alive; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        if (w->arrival[l].pc != s->arrival[l].pc || w->arrival[l].since != s->arrival[l].since ||
            w->arrival[l].membermask != s->arrival[l].membermask)
            return false;
    }
    for (uint32_t k = w->stacks_made & alive; k; k &= k - 1) {   /* frames: lanes in calls only */
        int l = __builtin_ctz(k);
        for (uint32_t d = 0; d < w->depth[l]; d++)
            if (!frames_equal(&w->stack[l][d], &s->frames[l][d]))
                return false;
    }
    return true;
}

/* A state of the pool for w: its own, a free one, or the one taken longest ago (whose owner
 * loses it, and looks afresh: it parks later, never wrongly). */
static SpinState *take(Warp *w)
{
    if (w->spin)
        return w->spin;
    const Program *p = w->prog;
    uint32_t rows = p->first_immediate ? p->first_immediate : 1, preds = p->pred_count;
    SpinPool *pool = w->block->gang ? w->block->gang->spin_pool : &w->block->spin_pool;
    SpinState **at = &pool->slot[pool->next++ % SPIN_POOL];
    if (*at && ((*at)->rows < rows || (*at)->preds < preds)) {
        if ((*at)->owner)
            (*at)->owner->spin = NULL;
        free(*at);
        *at = NULL;
    }
    if (!*at) {
        size_t bytes = sizeof(SpinState) + 2 * (size_t)rows * sizeof *w->val + (rows + 2 * (size_t)preds) * sizeof(uint32_t);
        SpinState *s = xcalloc(1, bytes);
        s->rows = rows, s->preds = preds;
        s->val = (void *)(s + 1);
        s->bits = s->val + rows;
        s->defined = (uint32_t *)(s->bits + rows);
        s->pred = s->defined + rows;
        s->pred_defined = s->pred + preds;
        *at = s;
    }
    if ((*at)->owner)
        (*at)->owner->spin = NULL, (*at)->owner->spin_kept = (*at)->owner->spin_partial = false;
    (*at)->owner = w;
    (*at)->partial = false;
    w->spin_kept = w->spin_partial = false;
    return w->spin = *at;
}

void spin_pool_free(SpinPool *p)
{
    for (int i = 0; i < SPIN_POOL; i++) {
        if (p->slot[i] && p->slot[i]->owner)
            p->slot[i]->owner->spin = NULL;
        free(p->slot[i]);
        p->slot[i] = NULL;
    }
}

static void keep(Warp *w, uint32_t pc, uint32_t mask)
{
    const Program *p = w->prog;
    SpinState *s = take(w);
    s->steps = w->steps;
    w->spin_kept = true;
    for (int l = 0; l < WARP_SIZE; l++)
        s->pc[l] = lane_pc(w, pc, mask, l);
    memcpy(s->arrival, w->arrival, sizeof s->arrival);
    memcpy(s->depth, w->depth, sizeof s->depth);
    memcpy(s->sp, w->sp, sizeof s->sp);
    memcpy(s->stack_ptr, w->stack_ptr, sizeof s->stack_ptr);
    memcpy(s->charged, w->charged, sizeof s->charged);
    for (uint32_t k = w->stacks_made; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        for (uint32_t d = 0; d < w->depth[l]; d++)
            s->frames[l][d] = w->stack[l][d];
    }
    s->exited = w->exited, s->waiting = w->waiting, s->at_barrier = w->at_barrier;
    s->carry = w->carry, s->carry_defined = w->carry_defined, s->carry_by_sub = w->carry_by_sub;
    s->partial = w->spin_partial = loop_rows(w, s, pc);
    s->frozen = w->waiting;
    if (s->partial) {                  /* the loop's rows; the others when it leaves (spin_widen) */
        w->spin_lo = p->code[pc].target, w->spin_hi = pc;
        for (uint32_t held = w->launched & ~w->exited & ~w->waiting & ~mask; held; held &= held - 1) {
            uint32_t at = w->pc[__builtin_ctz(held)];
            if (at < w->spin_lo || at > w->spin_hi)
                s->frozen |= held & -held;
        }
        for (uint32_t k = 0; k < s->written_count; k++)
            keep_row(s, w, s->written[k]);
    } else {
        s->written_count = 0;
        memcpy(s->val, w->val, p->first_immediate * sizeof *w->val);
        memcpy(s->defined, w->defined, p->first_immediate * sizeof *w->defined);
        for (uint32_t r = 0; r < p->first_immediate; r++)
            keep_bits(s, w, r);
    }
    memcpy(s->pred, w->pred, (p->pred_count - 2) * sizeof *w->pred);
    memcpy(s->pred_defined, w->pred_defined, (p->pred_count - 2) * sizeof *w->pred);
}

void spin_moved(Warp *w, uint64_t epoch)
{
    w->spin_epoch = epoch;
    w->spin_checks = 0;
    w->spin_kept = false;
}

int spin_check(Warp *w, uint32_t pc, uint32_t mask)
{
    if (w->spin_skip) {                /* the branch it was parked at: it runs now */
        w->spin_skip = false;
        return SPIN_ON;
    }
    if (!keepable(w)) {
        spin_moved(w, w->spin_epoch);
        return SPIN_ON;
    }
    uint32_t n = ++w->spin_checks;
    if (w->spin && w->spin_kept && same_state(w, w->spin, pc, mask)) {
        w->uncounted += w->steps - w->spin->steps;
        uint32_t held = w->launched & ~w->exited & ~w->waiting & ~mask;
        if (held) {
            /* Other ready lanes wait at a reconvergence point for these, which repeat with
             * nothing changing: the held lanes would run once starved (warp.c, HOLD_STEPS);
             * they run now, and the warp looks afresh. */
            w->hurry = held;
            spin_moved(w, w->spin_epoch);
            return SPIN_HURRY;
        }
        w->parked = true;
        w->parked_pc = pc;
        return SPIN_PARKED;
    }
    if ((n & (n - 1)) == 0 && n >= SPIN_FIRST_KEEP)
        keep(w, pc, mask);
    return SPIN_ON;
}

/* The epoch moved while it was parked: it runs again from the branch, and parks again at once
 * if the iteration brings it back to the same state with nothing changed meanwhile. */
void spin_resume(Warp *w)
{
    w->parked = false;
    w->spin_epoch = *w->block->mem.epoch;
    w->spin_checks = 1;
    w->spin_skip = true;
    w->spin_read = true;               /* the look after the branch compares with the parked state */
    if (w->spin)                       /* kept still (not taken by another warp meanwhile) */
        w->spin->steps = w->steps;
}

/* For a deadlock: where the parked warp spins. */
void spin_report(Warp *w)
{
    if (!w->parked)
        return;
    char lanes[200];
    uint32_t spinning = w->launched & ~w->exited & ~w->waiting;
    bool one = !(spinning & (spinning - 1));
    report_lanes(w, lanes, sizeof lanes, spinning);
    diag_at(w->block->diag, DIAG_NOTE, w->prog->code[w->parked_pc].ir->stmt_at,
            "%s spin%s in a loop here that comes back to the same state, and nothing %s can change", lanes,
            one ? "s" : "", one ? "it reads" : "they read");
}

void spin_free(Warp *w)
{
    if (w->spin)
        w->spin->owner = NULL;         /* the pool's, freed with it */
    w->spin = NULL;
    w->spin_partial = false;
}
