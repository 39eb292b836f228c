/* warpops.c: the instructions whose lanes read each other (shfl, shfl.sync, vote, vote.sync)
 * and the funnel shift. shfl follows the pseudo-code of ../shared/spec/ptx-shfl-sync.md to the
 * bit, with the readings of DECISIONS.md: only the low 5 bits of b and of c's two fields count,
 * .up computes j = lane - b as a signed number, p depends on lane, b and c alone, and every
 * source is read before any destination is written. A value read from a lane that did not
 * supply one (not completing the instruction, guard false, or undefined there) is undefined.
 * Each lane uses the operands of its own instruction (lanes may complete from different pcs).
 * A shfl whose b and c are immediates gets its sources worked out once, when lowered.
 * Requires: without `at`, sync.c has set arrival[lane].pc for every lane passed in. */
#include <string.h>

#include "family.h"
#include "tensor.h"

/* Where each lane reads (src) and whether it is in range (the result, one bit per lane), for
 * shfl mode `mode` with b and c as given in each lane. Lanes out of range read themselves. */
#define SHFL_MODE_LOOP(BVAL, CVAL, J, PVAL)                                              \
    for (int lane = 0; lane < WARP_SIZE; lane++) {                                       \
        int bval = (int)((BVAL) & 0x1f), cval = (int)((CVAL) & 0x1f);                   \
        int segmask = (int)(((CVAL) >> 8) & 0x1f);                                       \
        int max_lane = (lane & segmask) | (cval & ~segmask & 0x1f);                      \
        int j = (J);                                                                     \
        int pval = (PVAL);                                                               \
        (void)bval;                                                                      \
        src[lane] = (int8_t)(pval ? j : lane);                                           \
        in[lane] = (uint8_t)pval;                                                        \
    }
#define SHFL_MODES(BVAL, CVAL)                                                           \
    switch (mode) {                                                                      \
    case MOD_UP:   SHFL_MODE_LOOP(BVAL, CVAL, lane - bval, j >= max_lane) break;          \
    case MOD_DOWN: SHFL_MODE_LOOP(BVAL, CVAL, lane + bval, j <= max_lane) break;          \
    case MOD_BFLY: SHFL_MODE_LOOP(BVAL, CVAL, lane ^ bval, j <= max_lane) break;          \
    default:       SHFL_MODE_LOOP(BVAL, CVAL, (lane & segmask) | (bval & ~segmask & 0x1f), j <= max_lane) break; \
    }
uint32_t warpops_shfl_sources(int mode, const uint64_t *b, const uint64_t *c, bool uniform, int8_t src[WARP_SIZE])
{
    uint8_t in[WARP_SIZE];
    if (uniform) {                       /* b and c the same in every lane: immediates */
        uint64_t b0 = b[0], c0 = c[0];
        SHFL_MODES(b0, c0)
    } else {
        SHFL_MODES(b[lane], c[lane])
    }
    /* 32 bytes of 0 or 1 to 32 bits, eight at a time: byte i of v times the constant lands
     * in bit 56 + i alone. */
    uint32_t in_range = 0;
    for (int k = 0; k < WARP_SIZE / 8; k++) {
        uint64_t v;
        memcpy(&v, in + 8 * k, sizeof v);
        in_range |= (uint32_t)((v * 0x0102040810204080ull) >> 56) << (8 * k);
    }
    return in_range;
}
#undef SHFL_MODES
#undef SHFL_MODE_LOOP

/* All lanes at one instruction (converged code): the sources first, then straight loops. */
/* The lanes of `lanes` whose b and c are defined where they count: b's lane (bits 0-4), c's
 * clamp and segment mask (bits 0-4 and 8-12). */
/* Bit l: bit src[l] of s, the lanes' bits moved as the shuffle moves values (form, k: the
 * pattern of src, KSHFL_*). */
static uint32_t shfl_moved_bits(uint32_t s, unsigned form, unsigned k, const int8_t *src)
{
    uint64_t below = k < WARP_SIZE ? (1ull << k) - 1 : ALL_LANES;
    switch (form) {
    case KSHFL_UP:                  /* lanes below k keep their own */
        return (uint32_t)(((uint64_t)s << k) | (s & below));
    case KSHFL_DOWN:                /* lanes from 32 - k keep their own */
        return (uint32_t)((s >> k) | (s & ~(uint32_t)(ALL_LANES >> k)));
    default: {
        uint32_t r = 0;
        for (int l = 0; l < WARP_SIZE; l++)
            r |= (s >> src[l] & 1) << l;
        return r;
    }
    }
}

static inline uint32_t shfl_control_defined(const Warp *w, const XInstr *x, uint32_t lanes)
{
    if ((w->defined[x->src[1]] & w->defined[x->src[2]] & lanes) == lanes)
        return lanes;
    return warp_defined_in(w, x->src[1], lanes, 0x1f) & warp_defined_in(w, x->src[2], lanes, 0x1f1f);
}

/* shfl_uniform's values when some lanes read a value not defined in every bit (ok: the lanes
 * that read a defined one, control: those whose b and c are defined, sent: the lanes that
 * supplied theirs): a source lane's value defined in some bits only brings those bits, moved
 * by the same shuffle as the values. Apart, so that the common case keeps a small frame. */
__attribute__((noinline)) static void shfl_partly_defined(Warp *w, const XInstr *x, unsigned form, unsigned k,
                                                          const int8_t *src, uint32_t write, uint32_t ok,
                                                          uint32_t control, uint32_t sent)
{
    static const uint64_t ones[WARP_SIZE] = {
        ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull,
        ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull,
    }, zeros[WARP_SIZE] = { 0 };
    const Kernels *kn = w->prog->kernels;
    uint32_t a = x->src[0];
    uint64_t supplied[WARP_SIZE], moved[WARP_SIZE];
    memcpy(supplied, w->bits[a], sizeof supplied);     /* what each lane offers: its bits if it took part */
    kn->select(supplied, ones, w->defined[a]);
    kn->select(supplied, zeros, ~sent);
    kn->shfl32(form, k, moved, supplied, src, ALL_LANES);
    kn->select(moved, zeros, ~control);
    kn->shfl32(form, k, w->val[x->dst], w->val[a], src, write);
    (void)ok;
    vbits_define_row(w, x->dst, write, moved, 32);
}

static void shfl_uniform(Warp *w, const XInstr *x, uint32_t lanes, uint32_t participants, uint32_t guard_true)
{
    const uint64_t *a = warp_src(w, x->src[0]), *b = warp_src(w, x->src[1]), *c = warp_src(w, x->src[2]);
    uint32_t supplied = w->defined[x->src[0]] & participants & guard_true;
    uint32_t control = ALL_LANES;              /* b and c immediates: defined */
    uint32_t first_immediate = w->prog->first_immediate;
    int8_t own[WARP_SIZE];
    const int8_t *src = own;
    uint32_t in_range;
    unsigned form = KSHFL_GATHER, k = 0;
    if (x->shfl_table != NO_SLOT) {
        const ShflTable *t = &w->prog->shfl_tables[x->shfl_table];
        src = t->src;
        in_range = t->in_range;
        form = t->form;
        k = t->k;
    } else {
        control = shfl_control_defined(w, x, ALL_LANES);
        in_range = warpops_shfl_sources(x->mode, b, c, x->src[1] >= first_immediate && x->src[2] >= first_immediate, own);
    }
    uint32_t ok = supplied == ALL_LANES ? ALL_LANES : shfl_moved_bits(supplied, form, k, src);
    uint32_t write = lanes & guard_true;
    if (w->trace) {
        for (int lane = 0; lane < WARP_SIZE; lane++)
            w->trace->source[lane] = (write >> lane & 1) ? src[lane] : SOURCE_NONE;
        w->trace->own |= write & ~in_range;
        w->trace->undefined |= write & ~(ok & control);
        w->trace->exchanged = true;
    }
    if (x->dst_kind == DST_VALUE && (write & control & ~ok)) {
        shfl_partly_defined(w, x, form, k, src, write, ok, control, participants & guard_true);
    } else if (x->dst_kind == DST_VALUE) {
        w->prog->kernels->shfl32(form, k, w->val[x->dst], a, src, write);
        warp_define(w, x->dst, write, ok & control);
    }
    if (x->dst_pred != NO_SLOT) {
        w->pred[x->dst_pred] = (w->pred[x->dst_pred] & ~write) | (in_range & write);
        w->pred_defined[x->dst_pred] = (w->pred_defined[x->dst_pred] & ~write) | (control & write);
    }
}

void warpops_shfl(Warp *w, const XInstr *at, uint32_t lanes, uint32_t participants, uint32_t guard_true)
{
    if (at) {
        shfl_uniform(w, at, lanes, participants, guard_true);
        return;
    }

    uint64_t source[WARP_SIZE] = { 0 }, source_bits[WARP_SIZE] = { 0 };
    uint32_t supplied = 0;               /* lanes whose SourceA is defined */
    for (uint32_t k = lanes & guard_true; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        const XInstr *x = &w->prog->code[w->arrival[l].pc];
        source[l] = warp_src(w, x->src[0])[l] & 0xffffffffu;
        source_bits[l] = (participants >> l & 1) ? warp_dbits(w, x->src[0], l) & 0xffffffffu : 0;
        supplied |= (w->defined[x->src[0]] >> l & 1) << l;
    }
    supplied &= participants & guard_true;

    uint64_t result[WARP_SIZE], result_bits[WARP_SIZE];
    uint32_t result_defined = 0, in_range = 0;
    for (uint32_t k = lanes & guard_true; k; k &= k - 1) {
        int lane = __builtin_ctz(k);
        const XInstr *x = &w->prog->code[w->arrival[lane].pc];
        uint32_t bval = (uint32_t)warp_src(w, x->src[1])[lane] & 0x1f;
        uint32_t c = (uint32_t)warp_src(w, x->src[2])[lane];
        uint32_t cval = c & 0x1f, segmask = (c >> 8) & 0x1f;
        int max_lane = (int)((lane & segmask) | (cval & ~segmask & 0x1f));
        int min_lane = (int)(lane & segmask);
        int j;
        bool pval;
        switch (x->mode) {
        case MOD_UP:   j = lane - (int)bval; pval = j >= max_lane; break;
        case MOD_DOWN: j = lane + (int)bval; pval = j <= max_lane; break;
        case MOD_BFLY: j = lane ^ (int)bval; pval = j <= max_lane; break;
        default:       j = min_lane | (int)(bval & ~segmask & 0x1f); pval = j <= max_lane; break;
        }
        if (!pval)
            j = lane;
        result[lane] = source[j];
        result_bits[lane] = shfl_control_defined(w, x, 1u << lane) ? source_bits[j] : 0;
        if (w->trace) {
            w->trace->source[lane] = (int8_t)j;
            w->trace->exchanged = true;
            w->trace->own |= (uint32_t)!pval << lane;
        }
        uint32_t ok = supplied >> j & 1;
        uint32_t control_defined = shfl_control_defined(w, x, 1u << lane);
        result_defined |= (ok & (control_defined >> lane)) << lane;
        in_range |= (uint32_t)pval << lane;
        if (w->trace && !((ok & (control_defined >> lane)) & 1))
            w->trace->undefined |= 1u << lane;
    }
    for (uint32_t k = lanes & guard_true; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        const XInstr *x = &w->prog->code[w->arrival[l].pc];
        uint32_t bit = 1u << l;
        if (x->dst_kind == DST_VALUE) {
            w->val[x->dst][l] = result[l];
            warp_define(w, x->dst, bit, result_defined);
            if (!(result_defined & bit) && result_bits[l])    /* a partly defined source's bits travel */
                warp_define_bits(w, x->dst, l, result_bits[l], 32);
        }
        if (x->dst_pred != NO_SLOT) {
            uint32_t control_defined = shfl_control_defined(w, x, bit);
            w->pred[x->dst_pred] = (w->pred[x->dst_pred] & ~bit) | (in_range & bit);
            w->pred_defined[x->dst_pred] = (w->pred_defined[x->dst_pred] & ~bit) | (control_defined & bit);
        }
    }
}

/* vote: lanes whose guard is false do not contribute (a ballot bit of 0, no say in all, any,
 * uni); a contributing lane whose predicate is undefined makes the result undefined. */
void warpops_vote(Warp *w, const XInstr *at, uint32_t lanes, uint32_t guard_true)
{
    uint32_t voters = lanes & guard_true, yes = 0, known = ALL_LANES;
    for (uint32_t k = voters; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        const XInstr *x = at ? at : &w->prog->code[w->arrival[l].pc];
        uint32_t p = w->pred[x->src[0]];
        if (x->src_not & 1)
            p = ~p;
        yes |= p & (1u << l);
        if (!(w->pred_defined[x->src[0]] >> l & 1))
            known = 0;
    }
    for (uint32_t k = voters; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        const XInstr *x = at ? at : &w->prog->code[w->arrival[l].pc];
        uint32_t bit = 1u << l;
        if (x->dst_kind == DST_VALUE) {           /* .ballot.b32 */
            w->val[x->dst][l] = yes;
            warp_define(w, x->dst, bit, known);
        } else if (x->dst_kind == DST_PRED) {
            bool v = x->mode == MOD_ALL ? yes == voters
                   : x->mode == MOD_ANY ? yes != 0
                   : (yes == voters || yes == 0);
            w->pred[x->dst] = (w->pred[x->dst] & ~bit) | (v ? bit : 0);
            w->pred_defined[x->dst] = (w->pred_defined[x->dst] & ~bit) | (known & bit);
        }
    }
}

/* shf: n = min(c, 32) (.clamp) or c & 31 (.wrap); the shift is done on the 64-bit b:a. The
 * amount counts in every bit with .clamp, in bits 0-4 with .wrap. */
void warpops_shf(Warp *w, const XInstr *x, uint32_t mask)
{
    const uint64_t *a = warp_src(w, x->src[0]), *b = warp_src(w, x->src[1]), *c = warp_src(w, x->src[2]);
    uint32_t amount_defined = warp_defined_in(w, x->src[2], ALL_LANES, x->clamp ? 0xffffffffu : 0x1f);
    uint32_t undefined_amount = mask & ~amount_defined;
    if (undefined_amount)
        report_warn(w, (uint32_t)(x - w->prog->code), undefined_amount, "undefined shift amount");
    uint64_t r[WARP_SIZE];
    bool left = x->mode == MOD_L;
    for (int l = 0; l < WARP_SIZE; l++) {
        uint32_t cv = (uint32_t)c[l];
        uint32_t n = x->clamp ? (cv < 32 ? cv : 32) : cv & 0x1f;
        uint64_t v = (b[l] & 0xffffffffu) << 32 | (a[l] & 0xffffffffu);
        r[l] = left ? (v << n) >> 32 : (v >> n) & 0xffffffffu;
    }
    uint32_t defined = w->defined[x->src[0]] & w->defined[x->src[1]] & amount_defined;
    /* A defined amount moves a's and b's defined bits as it moves their bits. */
    uint64_t dbits[WARP_SIZE];
    uint32_t partial = mask & ~defined & amount_defined;
    for (uint32_t k = partial; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint32_t cv = (uint32_t)c[l];
        uint32_t n = x->clamp ? (cv < 32 ? cv : 32) : cv & 0x1f;
        uint64_t v = (warp_dbits(w, x->src[1], l) & 0xffffffffu) << 32 | (warp_dbits(w, x->src[0], l) & 0xffffffffu);
        dbits[l] = left ? (v << n | ((1ull << n) - 1)) >> 32 : (v >> n) & 0xffffffffu;
    }
    if (x->dst_kind == DST_VALUE) {
        for (int l = 0; l < WARP_SIZE; l++)
            if (mask >> l & 1)
                w->val[x->dst][l] = r[l];
        warp_define(w, x->dst, mask, defined);
        for (; partial; partial &= partial - 1)
            warp_define_bits(w, x->dst, __builtin_ctz(partial), dbits[__builtin_ctz(partial)], 32);
    }
}

/* The warp instructions that do not synchronise (FAM_WARP), for the lanes executing together;
 * guard_true: those of them whose guard holds. */
void warpops_execute(Warp *w, const XInstr *x, uint32_t lanes, uint32_t guard_true)
{
    switch (x->op) {
    case OP_SHFL:
        warpops_shfl(w, x, lanes, lanes, guard_true);
        break;
    case OP_VOTE:
        warpops_vote(w, x, lanes, guard_true);
        break;
    case OP_ACTIVEMASK:
        for (int l = 0; l < WARP_SIZE; l++)
            if (guard_true >> l & 1)
                w->val[x->dst][l] = lanes;
        w->defined[x->dst] |= guard_true;
        break;
    case OP_SHF:
        warpops_shf(w, x, guard_true);
        break;
    case OP_MMA:
        mma_execute(w, x, lanes, guard_true);
        break;
    case OP_MMA_SP:
    case OP_MMA_SP_ORDERED:
        mmasp_execute(w, x, lanes, guard_true);
        break;
    case OP_WMMA_LOAD: case OP_WMMA_STORE: case OP_WMMA_MMA:
        wmma_execute(w, x, lanes, guard_true);
        break;
    case OP_WGMMA_MMA_ASYNC: case OP_WGMMA_FENCE: case OP_WGMMA_COMMIT_GROUP: case OP_WGMMA_WAIT_GROUP:
        wgmma_execute(w, x, lanes, guard_true);
        break;
    default:
        BUG("warp op %d", x->op);
    }
}

/* The lanes that contribute to match/redux/elect: those completing it whose guard holds. */
static const XInstr *instr_of(const Warp *w, const XInstr *at, int lane)
{
    return at ? at : &w->prog->code[w->arrival[lane].pc];
}

static void write_value(Warp *w, const XInstr *x, int lane, uint64_t v, bool defined)
{
    if (x->dst_kind != DST_VALUE)
        return;
    uint32_t bit = 1u << lane;
    w->val[x->dst][lane] = v;
    warp_define(w, x->dst, bit, defined ? bit : 0);
}

static void write_pred(Warp *w, uint32_t slot, int lane, bool v, bool defined)
{
    if (slot == NO_SLOT)
        return;
    uint32_t bit = 1u << lane;
    w->pred[slot] = v ? w->pred[slot] | bit : w->pred[slot] & ~bit;
    w->pred_defined[slot] = defined ? w->pred_defined[slot] | bit : w->pred_defined[slot] & ~bit;
}

/* match.any: the lanes whose a equals mine; match.all: all of them if every a is equal (p
 * true), else 0 (p false). Over the guard-true lanes completing together. */
void warpops_match(Warp *w, const XInstr *at, uint32_t lanes, uint32_t guard_true)
{
    uint32_t voters = lanes & guard_true, known = ALL_LANES;
    uint64_t value[WARP_SIZE] = { 0 };
    for (uint32_t k = voters; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        const XInstr *x = instr_of(w, at, l);
        value[l] = warp_src(w, x->src[0])[l] & width_mask(x->bits);
        if (!(w->defined[x->src[0]] >> l & 1))
            known = 0;
    }
    for (uint32_t k = voters; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        const XInstr *x = instr_of(w, at, l);
        uint32_t same = 0;
        for (uint32_t m = voters; m; m &= m - 1)
            same |= (uint32_t)(value[__builtin_ctz(m)] == value[l]) << __builtin_ctz(m);
        if (x->mode == MOD_ALL) {
            bool all = same == voters;
            write_value(w, x, l, all ? voters : 0, known != 0);
            write_pred(w, x->dst_pred, l, all, known != 0);
        } else {
            write_value(w, x, l, same, known != 0);
        }
    }
}

/* redux.sync: add (wrapping to 32 bits), min and max (.s32 or .u32), and, or, xor. */
void warpops_redux(Warp *w, const XInstr *at, uint32_t lanes, uint32_t guard_true)
{
    uint32_t voters = lanes & guard_true;
    if (!voters)
        return;
    const XInstr *first = instr_of(w, at, __builtin_ctz(voters));
    bool is_signed = first->cls == 's', known = true;
    uint64_t acc = 0;
    bool started = false;
    for (uint32_t k = voters; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        const XInstr *x = instr_of(w, at, l);
        uint32_t v = (uint32_t)warp_src(w, x->src[0])[l];
        known &= (w->defined[x->src[0]] >> l & 1) != 0;
        if (!started) {
            acc = v;
            started = true;
            continue;
        }
        switch (first->mode) {
        case MOD_ADD: acc = (uint32_t)(acc + v); break;
        case MOD_AND: acc &= v; break;
        case MOD_OR: acc |= v; break;
        case MOD_XOR: acc ^= v; break;
        case MOD_MIN: acc = is_signed ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
        default: acc = is_signed ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
        }
    }
    for (uint32_t k = voters; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        write_value(w, instr_of(w, at, l), l, acc & 0xffffffffu, known);
    }
}

/* elect.sync: the lowest lane of those completing together leads; d = its lane number,
 * p = whether this lane is it. */
void warpops_elect(Warp *w, const XInstr *at, uint32_t lanes, uint32_t guard_true)
{
    uint32_t voters = lanes & guard_true;
    if (!voters)
        return;
    int leader = __builtin_ctz(lanes);
    for (uint32_t k = voters; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        const XInstr *x = instr_of(w, at, l);
        write_value(w, x, l, (uint64_t)leader, true);
        write_pred(w, x->dst_pred, l, l == leader, true);
    }
}

/* The pattern of a shfl table that Kernels.shfl32 runs as whole-row moves: .up, .down or .bfly
 * by some k over the whole warp (what c = 0 or 31 without segments gives). */
static void shfl_form(ShflTable *t)
{
    t->form = KSHFL_GATHER;
    t->k = 0;
    for (int k = 1; k < WARP_SIZE; k++) {
        bool up = true, down = true, bfly = true;
        for (int l = 0; l < WARP_SIZE; l++) {
            up = up && t->src[l] == (l >= k ? l - k : l);
            down = down && t->src[l] == (l + k < WARP_SIZE ? l + k : l);
            bfly = bfly && t->src[l] == (l ^ k);
        }
        if (up || down || bfly) {
            t->form = up ? KSHFL_UP : down ? KSHFL_DOWN : KSHFL_BFLY;
            t->k = (uint8_t)k;
            return;
        }
    }
}

/* A shfl whose b and c are immediates reads the same lanes every time: its table. */
void warpops_shfl_tables(Program *p)
{
    for (uint32_t i = 0; i < p->code_len; i++) {
        XInstr *x = &p->code[i];
        x->shfl_table = NO_SLOT;
        if ((x->op != OP_SHFL && x->op != OP_SHFL_SYNC) || x->src[1] < p->first_immediate ||
            x->src[2] < p->first_immediate)
            continue;
        uint64_t b = p->immediates[x->src[1] - p->first_immediate], c = p->immediates[x->src[2] - p->first_immediate];
        if (p->shfl_table_count % 64 == 0)
            p->shfl_tables = xrealloc(p->shfl_tables, (p->shfl_table_count + 64) * sizeof *p->shfl_tables);
        ShflTable *t = &p->shfl_tables[p->shfl_table_count];
        t->in_range = warpops_shfl_sources(x->mode, &b, &c, true, t->src);
        shfl_form(t);
        x->shfl_table = p->shfl_table_count++;
    }
}
