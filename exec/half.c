/* half.c: the narrow floating-point formats: f16 and bf16 (alone and packed in pairs), tf32,
 * and the fp8 formats e4m3 and e5m2. Their arithmetic (add sub mul fma neg abs min max), their
 * compares (setp, set) and the rounding every conversion into them uses (convert.c).
 *
 * Each result is rounded once, from the exact value, to the narrow format: never computed as
 * f32 and stored. Why double is enough: every f16 and bf16 value is a double. A product of
 * two has at most 2 * 11 significant bits and an exponent inside double's normal range, so it
 * is exact. A sum (a + b, or the exact product + c) is rounded to nearest by the host, and
 * Knuth's two-sum gives its rounding error exactly, so s + e is the exact result; from the
 * two, to_odd makes the double rounded *to odd* (toward zero, then the last bit set if
 * anything was lost). Rounding to odd at 53 bits and then, once, to p <= 51 bits in any mode
 * gives the same value as rounding the exact result to p bits directly (Boldo and Melquiond,
 * "Emulation of FMA and correctly rounded sums: proved algorithms using rounding to odd",
 * IEEE Trans. Computers 2008): the odd last bit stands for everything below it, so no tie is
 * made or broken. f16 keeps 11 bits, bf16 8, fp8 4 or 3.
 *
 * NaN results are the canonical 0x7fff of each half, as on the H100 (../shared/hw/half).
 * .ftz (f16 only) reads subnormal operands as zeros of their sign and flushes results that are
 * tiny after rounding (half_tiny, as the H100); .sat clamps to [+0, 1] (NaN to +0); .relu makes
 * negative results +0 and keeps NaN canonical. Requires: an XInstr from lower.c, host doubles in round to nearest
 * (the executor's mode). */
#include <math.h>
#include <string.h>

#include "family.h"

/* The formats: fraction and exponent bits, and whether the top exponent means inf/NaN (IEEE)
 * or, as in e4m3, only S.1111.111 is NaN and the rest are numbers. */
typedef struct HalfFormat {
    unsigned frac, exp;
    bool ieee;
    uint32_t nan;              /* the canonical NaN */
} HalfFormat;

static HalfFormat format_of(int type)
{
    switch (type) {
    case TYPE_BF16: case TYPE_BF16X2: return (HalfFormat){ 7, 8, true, 0x7fff };
    case TYPE_TF32: return (HalfFormat){ 10, 8, true, 0x3ffff };          /* the top 19 bits of an f32 */
    case TYPE_E4M3: case TYPE_E4M3X2: return (HalfFormat){ 3, 4, false, 0x7f };
    case TYPE_E5M2: case TYPE_E5M2X2: return (HalfFormat){ 2, 5, true, 0x7f };
    default: return (HalfFormat){ 10, 5, true, 0x7fff };                  /* f16, f16x2 */
    }
}

static uint32_t sign_bit(const HalfFormat *f)
{
    return 1u << (f->frac + f->exp);
}

static bool is_nan(uint32_t v, const HalfFormat *f)
{
    uint32_t mag = v & (sign_bit(f) - 1), inf = ((1u << f->exp) - 1) << f->frac;
    return f->ieee ? mag > inf : mag == (inf | ((1u << f->frac) - 1));
}

/* Exact: NaN for a NaN. */
double half_decode(uint32_t v, int type)
{
    HalfFormat f = format_of(type);
    if (type == TYPE_TF32)
        v >>= 13;
    int bias = (1 << (f.exp - 1)) - 1;
    uint32_t exp = v >> f.frac & ((1u << f.exp) - 1), frac = v & ((1u << f.frac) - 1);
    double r;
    if (is_nan(v, &f))
        r = NAN;
    else if (f.ieee && exp == (1u << f.exp) - 1)
        r = INFINITY;
    else if (exp == 0)
        r = ldexp(frac, 1 - bias - (int)f.frac);
    else
        r = ldexp(frac | 1u << f.frac, (int)exp - bias - (int)f.frac);
    return (v & sign_bit(&f)) ? -r : r;
}

bool half_is_nan(uint32_t v, int type)
{
    HalfFormat f = format_of(type);
    return is_nan(type == TYPE_TF32 ? v >> 13 : v, &f);
}

/* Whether a significand q with the fraction rest (in [0, 1)) beyond it rounds up, in mode
 * (MOD_RN or 0, MOD_RZ, MOD_RM, MOD_RP, MOD_RNA). */
static bool rounds_up(uint64_t q, double rest, int mode, bool negative)
{
    switch (mode) {
    case MOD_RZ: return false;
    case MOD_RP: return rest > 0 && !negative;
    case MOD_RM: return rest > 0 && negative;
    case MOD_RNA: return rest >= 0.5;
    default: return rest > 0.5 || (rest == 0.5 && (q & 1));
    }
}

/* v (exact, or rounded to odd with at least two bits more than the format keeps) rounded to
 * the format in mode (MOD_RN, MOD_RZ, MOD_RM, MOD_RP, or MOD_RNA: to nearest, ties away), by
 * integer arithmetic on its significand. Overflow gives infinity or the largest finite value as
 * the mode says; .satfinite the largest finite value (e4m3 has no infinity: always that). NaN
 * gives the canonical NaN. tf32 comes back in an f32's layout, its low 13 bits zero. */
uint32_t half_encode(double v, int type, int mode, bool satfinite)
{
    HalfFormat f = format_of(type);
    int bias = (1 << (f.exp - 1)) - 1, emin = 1 - bias;
    uint32_t sign = signbit(v) ? sign_bit(&f) : 0, r;
    uint32_t top = ((1u << f.exp) - 1) << f.frac;         /* the all-ones exponent */
    uint32_t max_finite = f.ieee ? top - 1 : top | ((1u << f.frac) - 2);
    bool negative = sign != 0;
    if (isnan(v)) {
        r = f.nan;
    } else if (isinf(v)) {
        r = sign | (satfinite || !f.ieee ? max_finite : top);
    } else if (v == 0) {
        r = sign;
    } else {
        double a = fabs(v);
        int e = ilogb(a) < emin ? emin : ilogb(a);
        double scaled = ldexp(a, (int)f.frac - e);        /* exact: a power-of-two scaling */
        double whole = floor(scaled);
        uint64_t q = (uint64_t)whole;
        q += rounds_up(q, scaled - whole, mode, negative);
        if (q >> (f.frac + 1)) {                          /* rounded up into the next binade */
            q >>= 1;
            e++;
        }
        uint32_t code = q >> f.frac ? (uint32_t)(e + bias) << f.frac | (uint32_t)(q & ((1u << f.frac) - 1))
                                    : (uint32_t)q;        /* a subnormal: exponent field 0 */
        if (code > max_finite) {                          /* e4m3's top exponent holds numbers */
            bool to_inf = f.ieee && !satfinite && (mode == MOD_RN || mode == MOD_RNA || mode == 0 ||
                                                   (mode == MOD_RP && !negative) || (mode == MOD_RM && negative));
            code = to_inf ? top : max_finite;
        }
        r = sign | code;
    }
    return type == TYPE_TF32 ? r << 13 : r;
}

/* s + e, the exact value of a sum whose rounding to nearest is s, rounded to odd (see the top):
 * toward zero, then the last bit set when anything was lost. */
static double to_odd(double s, double e)
{
    if (e == 0 || isinf(s) || isnan(s))
        return s;
    uint64_t b;
    memcpy(&b, &s, sizeof b);
    if ((e < 0) != (s < 0))
        b--;                   /* |exact| < |s|: toward zero is the next smaller magnitude */
    b |= 1;
    memcpy(&s, &b, sizeof s);
    return s;
}

/* a + b rounded to odd, from Knuth's two-sum (host in round to nearest). */
double half_sum_to_odd(double a, double b)
{
    double s = a + b, bb = s - a, e = (a - (s - bb)) + (b - bb);
    return to_odd(s, e);
}

/* .ftz on the H100 flushes a result that is tiny *after rounding*, in IEEE 754's sense: v (exact,
 * or rounded to odd with at least two bits more than kept), rounded to frac + 1 significant bits
 * in mode with an unbounded exponent range, is below 2^emin. A value just below 2^emin that
 * rounds up to it is kept (float_320: fma.rn.ftz.f32 whose exact result is -2^-126 + 1.16 2^-208
 * gives -2^-126; and the f16 fma.rn.ftz.relu.f16x2 of issue 32); one whose bits fit the
 * precision below 2^emin is flushed although rounding to the format would reach 2^emin
 * (float_190 and float_356: mul.rn/.rm.ftz.f32 of 2^-126 and 1-2^-24 give 0 and -0;
 * half_arith_092: mul.ftz.f16 of 1-2^-11 and 2^-14 gives 0). */
bool half_tiny(double v, unsigned frac, int emin, int mode)
{
    double a = fabs(v);
    if (!(a < ldexp(1.0, emin)) || a == 0)               /* NaN and infinity too */
        return false;
    int e = ilogb(a);
    double scaled = ldexp(a, (int)frac - e), whole = floor(scaled);
    bool up = rounds_up((uint64_t)whole, scaled - whole, mode, signbit(v) != 0);
    return ldexp(whole + up, e - (int)frac) < ldexp(1.0, emin);
}

static uint32_t flush(uint32_t v, const HalfFormat *f, bool ftz)
{
    bool subnormal = (v >> f->frac & ((1u << f->exp) - 1)) == 0 && (v & ((1u << f->frac) - 1));
    return ftz && subnormal ? v & sign_bit(f) : v;
}

/* PTX min/max of numbers: -0 < +0. */
static double ordered(double a, double b, bool is_max)
{
    if (a == b)
        return (signbit(a) != 0) == is_max ? b : a;
    return (a < b) != is_max ? a : b;
}

/* The OOB-NaN as the H100 reads it in fma.oob: 0x7ff7 with either sign, as a or b, in f16 and
 * bf16 alike (tests/h100_more/cases3/fma_oob_scan: of every NaN of both formats, only these
 * give +0; as c they give 0x7fff like any other NaN). */
#define OOB_NAN 0x7ff7u

/* One 16-bit half (f16 or bf16, type) of op with flags (HALF_*), sources a, b, c. */
uint32_t half_op(int op, int type, unsigned flags, uint32_t a, uint32_t b, uint32_t c)
{
    HalfFormat f = format_of(type);
    bool ftz = flags & HALF_FTZ;
    if ((flags & HALF_OOB) && ((a & 0x7fff) == OOB_NAN || (b & 0x7fff) == OOB_NAN))
        return 0;
    a = flush(a & 0xffff, &f, ftz);
    b = flush(b & 0xffff, &f, ftz);
    c = flush(c & 0xffff, &f, ftz);
    double x = half_decode(a, type), y = half_decode(b, type), z = half_decode(c, type);
    double r;
    switch (op) {
    case OP_NEG:
        return is_nan(a, &f) ? f.nan : a ^ 0x8000;
    case OP_ABS:
        return is_nan(a, &f) ? f.nan : a & 0x7fff;
    case OP_MIN:
    case OP_MAX: {
        bool xorsign = flags & HALF_XORSIGN, negative = ((a ^ b) & 0x8000) != 0;
        if (xorsign) {
            x = fabs(x);
            y = fabs(y);
        }
        if (isnan(x) || isnan(y)) {
            if ((flags & HALF_NAN) || (isnan(x) && isnan(y)))
                return f.nan;
            r = isnan(x) ? y : x;
        } else {
            r = ordered(x, y, op == OP_MAX);
        }
        if (xorsign)
            r = negative ? -fabs(r) : fabs(r);
        return half_encode(r, type, MOD_RN, false);       /* one of the operands: exact */
    }
    case OP_ADD: r = half_sum_to_odd(x, y); break;
    case OP_SUB: r = half_sum_to_odd(x, -y); break;
    case OP_MUL: r = x * y; break;                        /* exact (see the top) */
    case OP_FMA: r = half_sum_to_odd(x * y, z); break;
    default: BUG("half op %d", op);
    }
    if (ftz && half_tiny(r, f.frac, 2 - (1 << (f.exp - 1)), MOD_RN))
        r = copysign(0.0, r);
    uint32_t v = half_encode(r, type, MOD_RN, false);
    if ((flags & HALF_SAT) && (is_nan(v, &f) || (v & 0x8000)))
        v = 0;
    else if ((flags & HALF_SAT) && half_decode(v, type) > 1)
        v = type == TYPE_BF16 ? 0x3f80 : 0x3c00;
    if ((flags & HALF_RELU) && (v & 0x8000) && !is_nan(v, &f))
        v = 0;
    return v;
}

/* a CmpOp b (a Mod among the float compares) for one half, type f16 or bf16. */
bool half_compare(int cmp, int type, bool ftz, uint32_t a, uint32_t b)
{
    HalfFormat f = format_of(type);
    double x = half_decode(flush(a & 0xffff, &f, ftz), type), y = half_decode(flush(b & 0xffff, &f, ftz), type);
    return warp_compare_float(cmp, x, y);
}

bool half_type(int type)
{
    return type == TYPE_F16 || type == TYPE_F16X2 || type == TYPE_BF16 || type == TYPE_BF16X2;
}

static bool packed(int type)
{
    return type == TYPE_F16X2 || type == TYPE_BF16X2;
}

/* The defined bits of lane l's result: per 16-bit half, defined where that half of every
 * source is (the halves do not meet); a scalar where every source is. */
static uint64_t defined_halves(const Warp *w, const XInstr *x, int l, unsigned halves)
{
    uint64_t d = ~0ull;
    for (unsigned i = 0; i < x->src_count; i++)
        if (!(x->src_pred >> i & 1))
            d &= warp_dbits(w, x->src[i], l);
    uint64_t r = 0;
    for (unsigned h = 0; h < halves; h++)
        if ((d >> (16 * h) & 0xffff) == 0xffff)
            r |= 0xffffull << (16 * h);
    return r;
}

static unsigned flags_of(const XInstr *x)
{
    return (x->ftz ? HALF_FTZ : 0) | (x->sat ? HALF_SAT : 0) | (x->relu ? HALF_RELU : 0) |
           (x->nan_out ? HALF_NAN : 0) | (x->xorsign_abs ? HALF_XORSIGN : 0) | (x->oob ? HALF_OOB : 0);
}

static const char warn_folded_nan[] =
    "a NaN through a neg of a neg (or min/max of a value with itself): the PTX ISA gives some NaN, the "
    "H100 alone 0x7fff; ptxas makes it a move, so the H100 passes the NaN's bits unchanged, and ptxrun does";

/* A half neg of a neg, or min/max.f16 of a register with itself, that ptxas makes a move
 * (fold.c): d takes src[0]'s bits, a NaN's payload included. */
static void folded_move(Warp *w, const XInstr *x, uint32_t mask)
{
    const uint64_t *a = warp_src(w, x->src[0]);
    uint64_t *d = w->val[x->dst];
    unsigned halves = packed(x->type) ? 2 : 1;
    uint32_t defined = w->defined[x->src[0]] & mask, nan_lanes = 0;
    for (int l = 0; l < WARP_SIZE; l++) {
        if (!(mask >> l & 1))
            continue;
        for (unsigned h = 0; h < halves; h++)
            if (half_is_nan((uint32_t)(a[l] >> (16 * h)) & 0xffff, x->type))
                nan_lanes |= 1u << l;
    }
    if (nan_lanes & defined)
        report_warn(w, (uint32_t)(x - w->prog->code), nan_lanes & defined, warn_folded_nan);
    if (x->dst_kind != DST_VALUE)
        return;
    for (int l = 0; l < WARP_SIZE; l++)
        if (mask >> l & 1)
            d[l] = a[l] & width_mask(x->bits);
    warp_define(w, x->dst, mask, defined);
    for (uint32_t k = mask & ~defined; k; k &= k - 1)
        warp_define_bits(w, x->dst, __builtin_ctz(k), warp_dbits(w, x->src[0], __builtin_ctz(k)), x->bits);
}

static const char warn_oob_nan[] =
    "fma.oob with a NaN operand: the PTX ISA gives +0 for the OOB-NaN without giving its bits; ptxrun "
    "follows the H100, where a or b of 0x7ff7 or 0xfff7 gives +0 and any other NaN 0x7fff";

/* add sub mul fma neg abs min max on f16, bf16, f16x2, bf16x2. fma.oob (PTX ISA: +0 where an
 * operand is the OOB-NaN that tensor loads fill out-of-bounds elements with, tested per half)
 * as the H100 does it (half_op); a lane with a NaN operand in a half is warned, since the ISA
 * does not say which NaN that is. */
static void arithmetic(Warp *w, const XInstr *x, uint32_t mask)
{
    unsigned halves = packed(x->type) ? 2 : 1, flags = flags_of(x);
    int op = x->op == OP_MAD ? OP_FMA : x->op;
    const uint64_t *a = warp_src(w, x->src[0]), *b = warp_src(w, x->src[x->src_count > 1]);
    const uint64_t *c = warp_src(w, x->src[x->src_count > 2 ? 2 : 0]);
    uint64_t *d = w->val[x->dst];
    uint64_t r[WARP_SIZE], dbits[WARP_SIZE];
    uint32_t defined = mask;
    for (unsigned i = 0; i < x->src_count; i++)
        defined &= w->defined[x->src[i]];
    uint32_t oob_lanes = 0;
    for (int l = 0; l < WARP_SIZE; l++) {
        if (!(mask >> l & 1))
            continue;
        r[l] = 0;
        for (unsigned h = 0; h < halves; h++) {
            uint32_t ha = (uint32_t)(a[l] >> (16 * h)) & 0xffff, hb = (uint32_t)(b[l] >> (16 * h)) & 0xffff;
            uint32_t hc = (uint32_t)(c[l] >> (16 * h)) & 0xffff;
            if ((x->negate & 1) && !half_is_nan(ha, x->type))     /* a fused fma (contract.c) */
                ha ^= 0x8000;
            if ((x->negate & 4) && !half_is_nan(hc, x->type))
                hc ^= 0x8000;
            r[l] |= (uint64_t)half_op(op, x->type, flags, ha, hb, hc) << (16 * h);
            if (x->oob && !x->sat && (half_is_nan(ha, x->type) || half_is_nan(hb, x->type) || half_is_nan(hc, x->type)))
                oob_lanes |= 1u << l;
        }
        if (!(defined >> l & 1))
            dbits[l] = defined_halves(w, x, l, halves);
    }
    oob_lanes &= defined;
    if (oob_lanes)
        report_warn(w, (uint32_t)(x - w->prog->code), oob_lanes, warn_oob_nan);
    if (x->dst_kind != DST_VALUE)
        return;
    for (int l = 0; l < WARP_SIZE; l++)
        if (mask >> l & 1)
            d[l] = r[l];
    warp_define(w, x->dst, mask, defined);
    for (uint32_t k = mask & ~defined; k; k &= k - 1)
        warp_define_bits(w, x->dst, __builtin_ctz(k), dbits[__builtin_ctz(k)], x->bits);
}

/* setp.cmp.f16/.bf16 p|q (q = !p), setp.cmp.f16x2/.bf16x2 p|q (p of the low halves, q of the
 * high ones), each combined with c under .and/.or/.xor; set.cmp.dtype.stype of halves: 1.0 of
 * a half type, or all ones of an integer type (0xffff per half when packed, as CUDA's
 * __hlt2_mask says). Other sources into a half type are alu.c's. */
static void compare(Warp *w, const XInstr *x, uint32_t mask)
{
    bool is_set = x->op == OP_SET;
    int stype = x->type, dtype = is_set ? x->src_type : TYPE_PRED;
    const uint64_t *a = warp_src(w, x->src[0]), *b = warp_src(w, x->src[1]);
    uint32_t t[2] = { 0, 0 }, def[2] = { mask, mask };
    unsigned halves = packed(stype) ? 2 : 1;
    for (unsigned h = 0; h < halves; h++)
        for (int l = 0; l < WARP_SIZE; l++) {
            bool v = half_compare(x->mode, stype, x->ftz, (uint32_t)(a[l] >> (16 * h)), (uint32_t)(b[l] >> (16 * h)));
            t[h] |= (uint32_t)v << l;
            uint64_t need = packed(stype) ? 0xffffull << (16 * h) : width_mask(x->bits);
            if (!(w->defined[x->src[0]] >> l & 1) && (warp_dbits(w, x->src[0], l) & need) != need)
                def[h] &= ~(1u << l);
            if (!(w->defined[x->src[1]] >> l & 1) && (warp_dbits(w, x->src[1], l) & need) != need)
                def[h] &= ~(1u << l);
        }
    uint32_t c = 0;
    if (x->boolop) {
        uint32_t slot = x->src[2];
        c = w->pred[slot];
        c = (x->src_not >> 2 & 1) ? ~c : c;
        def[0] &= w->pred_defined[slot];
        def[1] &= w->pred_defined[slot];
    }
    if (!is_set) {
        bool pair = halves == 2;
        uint32_t p = warp_combine(x->boolop, t[0], c), q = warp_combine(x->boolop, pair ? t[1] : ~t[0], c);
        uint32_t pdef = def[0], qdef = pair ? def[1] : def[0];
        if (x->dst_kind == DST_PRED) {
            w->pred[x->dst] = (w->pred[x->dst] & ~mask) | (p & mask);
            w->pred_defined[x->dst] = (w->pred_defined[x->dst] & ~mask) | (pdef & mask);
        }
        if (x->dst_pred != NO_SLOT) {
            w->pred[x->dst_pred] = (w->pred[x->dst_pred] & ~mask) | (q & mask);
            w->pred_defined[x->dst_pred] = (w->pred_defined[x->dst_pred] & ~mask) | (qdef & mask);
        }
        return;
    }
    /* The true value of each half of the destination (or of the whole, for a scalar type). */
    unsigned dhalves = packed(dtype) || (halves == 2 && type_info[dtype].bits == 32) ? 2 : 1;
    uint64_t yes = dtype == TYPE_F16 || dtype == TYPE_F16X2 ? 0x3c00 : dtype == TYPE_BF16 || dtype == TYPE_BF16X2 ? 0x3f80
                 : dtype == TYPE_F32 ? 0x3f800000 : width_mask(dhalves == 2 ? 16 : type_info[dtype].bits);
    if (dhalves == 2 && halves == 1)
        BUG("set of a scalar into a pair");
    uint32_t v[2] = { warp_combine(x->boolop, t[0], c), warp_combine(x->boolop, t[1], c) };
    uint64_t *d = w->val[x->dst];
    uint32_t defined = def[0] & (dhalves == 2 ? def[1] : ALL_LANES);
    for (int l = 0; l < WARP_SIZE; l++) {
        if (!(mask >> l & 1))
            continue;
        uint64_t r = 0;
        for (unsigned h = 0; h < dhalves; h++)
            r |= (v[h] >> l & 1) ? yes << (16 * h) : 0;
        d[l] = r;
    }
    warp_define(w, x->dst, mask, defined);
    for (uint32_t k = mask & ~defined; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint64_t dbits = (def[0] >> l & 1 ? 0xffffull : 0) | (dhalves == 2 && (def[1] >> l & 1) ? 0xffff0000ull : 0);
        warp_define_bits(w, x->dst, l, dhalves == 2 ? dbits : 0, type_info[dtype].bits);
    }
}

bool half_executes(const XInstr *x)
{
    return half_type(x->type) && x->op != OP_MOV && x->op != OP_SELP;   /* set: x->type is the compared type */
}

void half_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    if (x->op == OP_SETP || x->op == OP_SET)
        compare(w, x, mask);
    else if (x->folded_move)
        folded_move(w, x, mask);
    else
        arithmetic(w, x, mask);
}
