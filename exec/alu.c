/* alu.c: the lane-parallel instructions: mov, integer and floating-point arithmetic, logic,
 * shifts, setp and selp. Each computes all 32 lanes into a temporary (loops the compiler can
 * vectorise) and commits the lanes of the mask. A result is defined in a lane only where every
 * source it depends on is. Floats follow IEEE 754 with the instruction's rounding and NaNs
 * as the H100 gives them: f32 NaN results (abs, neg, min, max included) are the canonical
 * 0x7fffffff; f64 ones keep an input NaN's sign and payload, quieted. .ftz flushes f32
 * subnormal inputs, and results tiny after rounding (half_tiny), to a signed zero; .sat clamps to
 * [+0, 1] (NaN and -0 to +0). Built with -frounding-math (see Makefile).
 * Requires: an XInstr from lower.c. */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "family.h"

static inline int64_t sext(uint64_t v, unsigned bits)
{
    unsigned shift = 64 - bits;
    return (int64_t)(v << shift) >> shift;
}

static inline float as_f32(uint64_t v)
{
    float f;
    uint32_t b = (uint32_t)v;
    memcpy(&f, &b, sizeof f);
    return f;
}

static inline double as_f64(uint64_t v)
{
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

static inline uint64_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static inline uint64_t f64_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static void commit_pred(Warp *w, uint32_t slot, uint32_t value, uint32_t mask, uint32_t defined)
{
    w->pred[slot] = (w->pred[slot] & ~mask) | (value & mask);
    w->pred_defined[slot] = (w->pred_defined[slot] & ~mask) | (defined & mask);
}

/* A predicate source, with '!' applied. */
static uint32_t pred_source(const Warp *w, const XInstr *x, unsigned i, uint32_t *defined)
{
    uint32_t slot = x->src[i];
    *defined &= w->pred_defined[slot];
    uint32_t v = w->pred[slot];
    return (x->src_not >> i & 1) ? ~v : v;
}

/* ---- floating point ---- */

static int host_rounding(uint8_t mod)
{
    switch (mod) {
    case MOD_RZ: return FE_TOWARDZERO;
    case MOD_RM: return FE_DOWNWARD;
    case MOD_RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

static inline float flush_f32(float f)
{
    return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

/* .sat: [0, 1], NaN and -0.0 to +0.0 (the H100: ../shared/hw/float/float_014, float_066). */
static inline double saturate(double r)
{
    return isnan(r) || r <= 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
}

static uint64_t finish_f32(const XInstr *x, float r)
{
    if (x->ftz)
        r = flush_f32(r);
    if (x->sat)
        r = (float)saturate(r);
    return isnan(r) ? 0x7fffffffu : f32_bits(r);
}

static float in_f32(const XInstr *x, uint64_t v)
{
    float f = as_f32(v);
    return x->ftz ? flush_f32(f) : f;
}

/* f64 NaN results as the H100 gives them: an input NaN, quieted, with its sign and payload, or
 * 0xfff8000000000000 for an invalid operation on numbers (float_000: 0/0, float_048: sNaN
 * operands). Of two different input NaNs the H100 returns the one in the SASS operand slot ptxas
 * happened to choose, which PTX does not show: ptxrun returns the first, quieted (it agrees with
 * 223 of the 239 two-NaN values in ../shared/hw/float) and warns. */
static const uint64_t F64_INVALID = 0xfff8000000000000ull;

static bool f64_nan(uint64_t v)
{
    return (v & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

static uint64_t f64_propagate(const uint64_t *in, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (f64_nan(in[i]))
            return in[i] | 1ull << 51;
    return F64_INVALID;
}

/* Two input NaNs that differ once quieted: which one the H100 returns depends on ptxas. */
static bool f64_nan_choice(const uint64_t *in, unsigned n)
{
    uint64_t first = 0;
    for (unsigned i = 0; i < n; i++) {
        if (!f64_nan(in[i]))
            continue;
        if (first && (in[i] | 1ull << 51) != first)
            return true;
        first = in[i] | 1ull << 51;
    }
    return false;
}

static const char warn_nan_choice[] = "f64 operation on two different NaNs: the H100 returns one of them, "
                                      "by the operand order ptxas chooses; ptxrun returns the first, quieted";

/* PTX min/max of numbers: -0 < +0. */
static double ordered_min_max(double a, double b, bool is_max)
{
    if (a == b)
        return (signbit(a) != 0) == is_max ? b : a;
    return (a < b) != is_max ? a : b;
}

/* min/max.f32 with .NaN and .xorsign.abs: a NaN operand yields the other one, two NaNs (or one
 * with .NaN) the canonical NaN; .xorsign.abs compares magnitudes and gives the result the xor
 * of the operands' signs, unless it is NaN. */
static uint64_t min_max_f32(const XInstr *x, float a, float b)
{
    bool is_max = x->op == OP_MAX, sign = (signbit(a) != 0) != (signbit(b) != 0);
    if (x->xorsign_abs) {
        a = fabsf(a);
        b = fabsf(b);
    }
    float v;
    if (isnan(a) || isnan(b))
        v = x->nan_out || (isnan(a) && isnan(b)) ? NAN : isnan(a) ? b : a;
    else
        v = (float)ordered_min_max(a, b, is_max);
    if (x->xorsign_abs && !isnan(v))
        v = sign ? -v : v;
    return finish_f32(x, v);
}

static uint64_t min_max_f64(const XInstr *x, uint64_t a, uint64_t b)
{
    bool an = f64_nan(a), bn = f64_nan(b);
    if (an && bn) {
        uint64_t in[2] = { a, b };
        return f64_propagate(in, 2);
    }
    if (an || bn)
        return an ? b : a;
    return f64_bits(ordered_min_max(as_f64(a), as_f64(b), x->op == OP_MAX));
}

/* .ftz on the H100 flushes a result that is tiny after rounding (half_tiny: rounded to 24 bits
 * with an unbounded exponent, below 2^-126). The result in double is exact for mul, and rounded
 * to odd for add, sub and fma (the product of two floats is exact in double). */
static bool flushed_as_tiny(const XInstr *x, float a, float b, float c, double *sign)
{
    double e;
    switch (x->op) {
    case OP_ADD: e = half_sum_to_odd(a, b); break;
    case OP_SUB: e = half_sum_to_odd(a, -(double)b); break;
    case OP_MUL: e = (double)a * b; break;
    case OP_MAD: case OP_FMA: e = half_sum_to_odd((double)a * b, c); break;
    default: return false;
    }
    *sign = e;
    return half_tiny(e, 23, -126, x->rounding);
}

static const char warn_folded_nan[] =
    "a NaN through a neg of a neg (or min/max of a value with itself): the PTX ISA gives the canonical "
    "NaN (f32) or some NaN (f64); ptxas makes it a move, so the H100 passes the NaN's bits unchanged, and ptxrun does";

/* fma over 32 lanes. On x86-64 processors with FMA3 the loop is compiled for it (one vector
 * instruction for 8 lanes); elsewhere each lane calls the C library's fmaf. Both round once. */
#if defined(__GNUC__) && defined(__x86_64__)
__attribute__((target("fma"))) static void fma_lanes_fma3(const uint64_t *a, const uint64_t *b,
                                                          const uint64_t *c, Lanes r)
{
    for (int l = 0; l < WARP_SIZE; l++) {
        float v = __builtin_fmaf(as_f32(a[l]), as_f32(b[l]), as_f32(c[l]));
        r[l] = v != v ? 0x7fffffffu : f32_bits(v);
    }
}
#endif

static void fma_lanes(const uint64_t *a, const uint64_t *b, const uint64_t *c, Lanes r)
{
#if defined(__GNUC__) && defined(__x86_64__)
    if (__builtin_cpu_supports("fma")) {
        fma_lanes_fma3(a, b, c, r);
        return;
    }
#endif
    for (int l = 0; l < WARP_SIZE; l++) {
        float v = fmaf(as_f32(a[l]), as_f32(b[l]), as_f32(c[l]));
        r[l] = v != v ? 0x7fffffffu : f32_bits(v);
    }
}

/* The common case, f32 without .ftz/.sat in the default rounding, in straight lane loops. */
static bool float_op_fast(const XInstr *x, const uint64_t *a, const uint64_t *b, const uint64_t *c, Lanes r)
{
    if (x->bits != 32 || x->ftz || x->sat || (x->rounding && x->rounding != MOD_RN))
        return false;
#define F32_LOOP(expr)                                                               \
    for (int l = 0; l < WARP_SIZE; l++) {                                            \
        float v = (expr);                                                            \
        r[l] = v != v ? 0x7fffffffu : f32_bits(v);                                   \
    }
    switch (x->op) {
    case OP_ADD: F32_LOOP(as_f32(a[l]) + as_f32(b[l])); return true;
    case OP_SUB: F32_LOOP(as_f32(a[l]) - as_f32(b[l])); return true;
    case OP_MUL: F32_LOOP(as_f32(a[l]) * as_f32(b[l])); return true;
    case OP_MAD:
    case OP_FMA: fma_lanes(a, b, c, r); return true;
    default: return false;
    }
#undef F32_LOOP
}

/* One lane of an f32 operation other than the fast path's. */
static uint64_t float_lane_f32(const XInstr *x, uint64_t a, uint64_t b, uint64_t c)
{
    float fa = in_f32(x, a), fb = in_f32(x, b), fc = in_f32(x, c), v;
    double tiny;
    if (x->ftz && flushed_as_tiny(x, fa, fb, fc, &tiny))
        return finish_f32(x, signbit(tiny) ? -0.0f : 0.0f);
    switch (x->op) {
    case OP_ADD: v = fa + fb; break;
    case OP_SUB: v = fa - fb; break;
    case OP_MUL: v = fa * fb; break;
    case OP_MAD: case OP_FMA: v = fmaf(fa, fb, fc); break;
    case OP_MIN: case OP_MAX: return min_max_f32(x, fa, fb);
    case OP_NEG: return isnan(fa) ? 0x7fffffffu : f32_bits(fa) ^ 0x80000000u;    /* NaN: canonical */
    case OP_ABS: return isnan(fa) ? 0x7fffffffu : f32_bits(fa) & 0x7fffffffu;
    default: BUG("float op %d", x->op);
    }
    return finish_f32(x, v);
}

static uint64_t float_lane_f64(const XInstr *x, uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t in[3] = { a, b, c };
    double da = as_f64(a), db = as_f64(b), dc = as_f64(c), v;
    switch (x->op) {
    case OP_ADD: v = da + db; break;
    case OP_SUB: v = da - db; break;
    case OP_MUL: v = da * db; break;
    case OP_MAD: case OP_FMA: v = fma(da, db, dc); break;
    case OP_MIN: case OP_MAX: return min_max_f64(x, a, b);
    case OP_NEG: return f64_nan(a) ? a | 1ull << 51 : a ^ 0x8000000000000000ull;   /* a NaN keeps its sign */
    case OP_ABS: return f64_nan(a) ? a | 1ull << 51 : a & 0x7fffffffffffffffull;
    default: BUG("float op %d", x->op);
    }
    if (isnan(v))
        return f64_propagate(in, x->src_count);
    return f64_bits(x->sat ? saturate(v) : v);
}

/* A fused fma's negated operand (contract.c): each lane's value with its sign flipped, a NaN as
 * it is (as sub passes its NaN operand on). */
static const uint64_t *negated(const uint64_t *v, unsigned bits, uint64_t *out)
{
    for (int l = 0; l < WARP_SIZE; l++)
        out[l] = bits == 32 ? (isnan(as_f32(v[l])) ? v[l] : v[l] ^ 0x80000000u)
                            : (f64_nan(v[l]) ? v[l] : v[l] ^ 0x8000000000000000ull);
    return out;
}

static void float_op(Warp *w, const XInstr *x, uint32_t mask, Lanes r, uint32_t *defined)
{
    const uint64_t *a = warp_src(w, x->src[0]), *b = warp_src(w, x->src[1 < x->src_count ? 1 : 0]);
    const uint64_t *c = warp_src(w, x->src[2 < x->src_count ? 2 : 0]);
    uint64_t negated_a[WARP_SIZE], negated_c[WARP_SIZE];
    if (x->op == OP_FMA && (x->negate & 1))
        a = negated(a, x->bits, negated_a);
    if (x->op == OP_FMA && (x->negate & 4))
        c = negated(c, x->bits, negated_c);
    *defined = w->defined[x->src[0]];
    if (x->src_count > 1)
        *defined &= w->defined[x->src[1]];
    if (x->src_count > 2)
        *defined &= w->defined[x->src[2]];
    if (x->folded_move) {                     /* a neg of a neg, min/max of copies: fold.c */
        memcpy(r, a, sizeof(Lanes));
        uint32_t nan = 0;
        for (int l = 0; l < WARP_SIZE; l++)
            nan |= (uint32_t)((x->bits == 32 ? (a[l] & 0x7fffffffu) > 0x7f800000u : f64_nan(a[l])) && (mask >> l & 1)) << l;
        if (nan & *defined)
            report_warn(w, (uint32_t)(x - w->prog->code), nan & *defined, warn_folded_nan);
        return;
    }
    if (float_op_fast(x, a, b, c, r))
        return;
    bool directed = x->rounding && x->rounding != MOD_RN;
    int saved = directed ? fegetround() : FE_TONEAREST;
    if (directed)
        fesetround(host_rounding(x->rounding));
    for (int l = 0; l < WARP_SIZE; l++)
        r[l] = !(mask >> l & 1) ? 0 : x->bits == 32 ? float_lane_f32(x, a[l], b[l], c[l])
                                                    : float_lane_f64(x, a[l], b[l], c[l]);
    if (directed)
        fesetround(saved);
    if (x->bits == 64 && x->src_count > 1) {
        uint32_t choice = 0;
        for (int l = 0; l < WARP_SIZE; l++) {
            uint64_t in[3] = { a[l], b[l], c[l] };
            choice |= (uint32_t)f64_nan_choice(in, x->src_count) << l;
        }
        if (choice & mask & *defined)
            report_warn(w, (uint32_t)(x - w->prog->code), choice & mask & *defined, warn_nan_choice);
    }
}

/* ---- integers ---- */

/* High 64 bits of the 128-bit product, from 32-bit halves (ISO C has no 128-bit type).
 * Signed: the unsigned high half, less b when a < 0 and a when b < 0. */
static uint64_t mul_hi64(uint64_t a, uint64_t b, bool is_signed)
{
    uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32, b_lo = b & 0xffffffffu, b_hi = b >> 32;
    uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    uint64_t middle = (lo_lo >> 32) + (hi_lo & 0xffffffffu) + lo_hi;
    uint64_t hi = hi_hi + (hi_lo >> 32) + (middle >> 32);
    if (is_signed) {
        if ((int64_t)a < 0)
            hi -= b;
        if ((int64_t)b < 0)
            hi -= a;
    }
    return hi;
}

/* High half of the 2n-bit product of two n-bit values. */
static uint64_t mul_hi(uint64_t a, uint64_t b, unsigned bits, bool is_signed)
{
    if (bits == 64)
        return mul_hi64(a, b, is_signed);
    if (is_signed)
        return (uint64_t)((sext(a, bits) * sext(b, bits)) >> bits) & width_mask(bits);
    return ((a & width_mask(bits)) * (b & width_mask(bits))) >> bits;
}

/* The full 2n-bit product of two n-bit values (n <= 32). */
static uint64_t mul_wide(uint64_t a, uint64_t b, unsigned bits, bool is_signed)
{
    if (is_signed)
        return (uint64_t)(sext(a, bits) * sext(b, bits)) & width_mask(2 * bits);
    return (a & width_mask(bits)) * (b & width_mask(bits));
}

/* .sat of a 32-bit signed result computed in 64 bits. */
static uint64_t clamp_s32(int64_t v)
{
    return (uint64_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v) & 0xffffffffu;
}

/* add, sub, min, max on .u16x2/.s16x2: the two halves of each register separately. */
static uint64_t pair_op(const XInstr *x, uint64_t a, uint64_t b)
{
    bool is_signed = x->type == TYPE_S16X2;
    uint64_t r = 0;
    for (int half = 0; half < 2; half++) {
        int32_t p = (int32_t)(a >> (16 * half) & 0xffff), q = (int32_t)(b >> (16 * half) & 0xffff);
        if (is_signed) {
            p = (int16_t)p;
            q = (int16_t)q;
        }
        int32_t v;
        switch (x->op) {
        case OP_ADD: v = p + q; break;
        case OP_SUB: v = p - q; break;
        case OP_MIN: v = p < q ? p : q; break;
        default: v = p > q ? p : q; break;
        }
        if (x->relu && v < 0)          /* min/max.relu.s16x2: a negative half is 0 */
            v = 0;
        r |= (uint64_t)(v & 0xffff) << (16 * half);
    }
    return r;
}

static void int_op(Warp *w, const XInstr *x, Lanes r, uint32_t *defined)
{
    const uint64_t *a = warp_src(w, x->src[0]), *b = warp_src(w, x->src[1 < x->src_count ? 1 : 0]);
    const uint64_t *c = warp_src(w, x->src[2 < x->src_count ? 2 : 0]);
    *defined = w->defined[x->src[0]];
    if (x->src_count > 1)
        *defined &= w->defined[x->src[1]];
    if (x->src_count > 2)
        *defined &= w->defined[x->src[2]];
    unsigned bits = x->bits;
    uint64_t m = width_mask(bits);
    bool is_signed = x->cls == 's';
    if (x->type == TYPE_U16X2 || x->type == TYPE_S16X2) {
        for (int l = 0; l < WARP_SIZE; l++)
            r[l] = pair_op(x, a[l], b[l]);
        return;
    }
    switch (x->op) {
    case OP_MOV:
        for (int l = 0; l < WARP_SIZE; l++) r[l] = a[l] & m;
        break;
    case OP_ADD:
        if (x->sat) {                   /* add.sat.s32 */
            for (int l = 0; l < WARP_SIZE; l++)
                r[l] = clamp_s32(sext(a[l], 32) + sext(b[l], 32));
        } else {
            for (int l = 0; l < WARP_SIZE; l++) r[l] = (a[l] + b[l]) & m;
        }
        break;
    case OP_SUB:
        if (x->sat) {
            for (int l = 0; l < WARP_SIZE; l++)
                r[l] = clamp_s32(sext(a[l], 32) - sext(b[l], 32));
        } else {
            for (int l = 0; l < WARP_SIZE; l++) r[l] = (a[l] - b[l]) & m;
        }
        break;
    case OP_MUL:
        if (x->wide)
            for (int l = 0; l < WARP_SIZE; l++) r[l] = mul_wide(a[l], b[l], bits, is_signed);
        else if (x->hi)
            for (int l = 0; l < WARP_SIZE; l++) r[l] = mul_hi(a[l], b[l], bits, is_signed) & m;
        else
            for (int l = 0; l < WARP_SIZE; l++) r[l] = (a[l] * b[l]) & m;
        break;
    case OP_MAD:
        if (x->wide)
            for (int l = 0; l < WARP_SIZE; l++)
                r[l] = (mul_wide(a[l], b[l], bits, is_signed) + c[l]) & width_mask(2 * bits);
        else if (x->hi && x->sat)       /* mad.hi.sat.s32: the sum clamped to the s32 range */
            for (int l = 0; l < WARP_SIZE; l++)
                r[l] = clamp_s32(sext(mul_hi(a[l], b[l], 32, true), 32) + sext(c[l], 32));
        else if (x->hi)
            for (int l = 0; l < WARP_SIZE; l++) r[l] = (mul_hi(a[l], b[l], bits, is_signed) + c[l]) & m;
        else
            for (int l = 0; l < WARP_SIZE; l++) r[l] = (a[l] * b[l] + c[l]) & m;
        break;
    case OP_NEG:
        for (int l = 0; l < WARP_SIZE; l++) r[l] = (0 - a[l]) & m;
        break;
    case OP_ABS:
        for (int l = 0; l < WARP_SIZE; l++) {
            int64_t v = sext(a[l], bits);
            r[l] = (v < 0 ? 0 - (uint64_t)v : (uint64_t)v) & m;      /* abs(MIN) = MIN, no overflow */
        }
        break;
    case OP_MIN:
    case OP_MAX: {
        bool is_max = x->op == OP_MAX;
        for (int l = 0; l < WARP_SIZE; l++) {
            bool less = is_signed ? sext(a[l], bits) < sext(b[l], bits) : (a[l] & m) < (b[l] & m);
            r[l] = (less != is_max ? a[l] : b[l]) & m;
            if (x->relu && sext(r[l], bits) < 0)       /* .relu (s32): a negative result is 0 */
                r[l] = 0;
        }
        break;
    }
    case OP_AND: for (int l = 0; l < WARP_SIZE; l++) r[l] = a[l] & b[l] & m; break;
    case OP_OR:  for (int l = 0; l < WARP_SIZE; l++) r[l] = (a[l] | b[l]) & m; break;
    case OP_XOR: for (int l = 0; l < WARP_SIZE; l++) r[l] = (a[l] ^ b[l]) & m; break;
    case OP_NOT: for (int l = 0; l < WARP_SIZE; l++) r[l] = ~a[l] & m; break;
    case OP_CNOT: for (int l = 0; l < WARP_SIZE; l++) r[l] = (a[l] & m) == 0; break;
    case OP_SHL:
        for (int l = 0; l < WARP_SIZE; l++) {
            uint32_t n = (uint32_t)b[l];
            r[l] = n >= bits ? 0 : (a[l] << n) & m;
        }
        break;
    case OP_SHR:
        for (int l = 0; l < WARP_SIZE; l++) {
            uint32_t n = (uint32_t)b[l];
            if (is_signed)
                r[l] = (uint64_t)(sext(a[l], bits) >> (n >= bits ? bits - 1 : n)) & m;
            else
                r[l] = n >= bits ? 0 : ((a[l] & m) >> n);
        }
        break;
    default:
        BUG("integer op %d", x->op);
    }
}

/* add.cc addc sub.cc subc mad.cc madc: integer arithmetic through each lane's carry flag.
 * Subtraction is a + ~b + 1 as on the H100, whose carry out is "no borrow" (PTX ISA text: the
 * flag holds a borrow; both readings agree within a sub.cc/subc chain, and differ when an
 * add.cc feeds subc or a sub.cc feeds addc): sub.cc d = a - b, CF = (a >= b); subc
 * d = a + ~b + CF, CF = its carry. */
static const char warn_carry_mix[] = "carry flag of an addition used by subc, or of a subtraction by addc/madc: "
                                     "the PTX ISA reads sub.cc's flag as a borrow, the H100 as \"no borrow\"; "
                                     "ptxrun follows the H100";

static void carry_op(Warp *w, const XInstr *x, uint32_t mask)
{
    const uint64_t *a = warp_src(w, x->src[0]), *b = warp_src(w, x->src[1]);
    const uint64_t *c = x->src_count > 2 ? warp_src(w, x->src[2]) : a;
    unsigned bits = x->bits;
    uint64_t m = width_mask(bits);
    bool use_carry = x->op == OP_ADDC || x->op == OP_SUBC || x->op == OP_MADC;
    bool subtract = x->op == OP_SUB || x->op == OP_SUBC;
    bool multiply = x->op == OP_MAD || x->op == OP_MADC;
    uint32_t defined = w->defined[x->src[0]] & w->defined[x->src[1]];
    if (x->src_count > 2)
        defined &= w->defined[x->src[2]];
    if (use_carry)
        defined &= w->carry_defined;
    Lanes r;
    uint32_t carry = 0;
    for (int l = 0; l < WARP_SIZE; l++) {
        uint64_t cin = use_carry ? (w->carry >> l & 1) : 0;
        uint64_t lhs = a[l] & m, rhs = b[l] & m;
        if (multiply) {
            lhs = x->hi ? mul_hi(a[l], b[l], bits, x->cls == 's') & m : (a[l] * b[l]) & m;
            rhs = c[l] & m;
        }
        if (subtract) {
            rhs = ~rhs & m;
            cin = use_carry ? cin : 1;
        }
        uint64_t sum = (lhs + rhs) & m;
        uint64_t out = (sum + cin) & m;
        bool flag = sum < lhs || out < sum;
        r[l] = out;
        carry |= (uint32_t)flag << l;
    }
    warp_commit(w, x->dst, r, mask, defined);
    /* Where an add consumes a subtraction's flag or a subtraction an add's, the ISA's borrow
     * reading and the H100's gives different results: say so. */
    uint32_t mixed = use_carry ? (subtract ? ~w->carry_by_sub : w->carry_by_sub) & w->carry_defined & mask : 0;
    if (mixed)
        report_warn(w, (uint32_t)(x - w->prog->code), mixed, warn_carry_mix);
    if (x->carry_out) {
        w->carry = (w->carry & ~mask) | (carry & mask);
        w->carry_defined = (w->carry_defined & ~mask) | (defined & mask);
        w->carry_by_sub = (w->carry_by_sub & ~mask) | (subtract ? mask : 0);
    }
}

/* mul24/mad24 (.lo, .hi: bits 47..16 of the 48-bit product; mad24.hi.sat.s32 clamps the sum)
 * and sad (c + |a - b|). */
static void narrow_op(Warp *w, const XInstr *x, uint32_t mask)
{
    const uint64_t *a = warp_src(w, x->src[0]), *b = warp_src(w, x->src[1]);
    const uint64_t *c = x->src_count > 2 ? warp_src(w, x->src[2]) : a;
    uint32_t defined = w->defined[x->src[0]] & w->defined[x->src[1]];
    if (x->src_count > 2)
        defined &= w->defined[x->src[2]];
    bool is_signed = x->cls == 's';
    Lanes r;
    for (int l = 0; l < WARP_SIZE; l++) {
        if (x->op == OP_SAD) {          /* c + (a < b ? b - a : a - b), wrapping (the ISA's pseudo-code) */
            uint64_t m = width_mask(x->bits), ua = a[l] & m, ub = b[l] & m;
            bool less = is_signed ? sext(ua, x->bits) < sext(ub, x->bits) : ua < ub;
            r[l] = (c[l] + (less ? ub - ua : ua - ub)) & m;
            continue;
        }
        int64_t p = is_signed ? sext(a[l], 24) * sext(b[l], 24) : (int64_t)((a[l] & 0xffffff) * (b[l] & 0xffffff));
        uint64_t v = x->hi ? (uint64_t)(p >> 16) : (uint64_t)p;
        if (x->op == OP_MAD24 && x->sat) {
            r[l] = clamp_s32(sext(v, 32) + sext(c[l], 32));
            continue;
        }
        if (x->op == OP_MAD24)
            v += c[l];
        r[l] = v & 0xffffffffu;
    }
    warp_commit(w, x->dst, r, mask, defined);
}

/* ---- compare, select, predicates ---- */

static bool compare_int(uint8_t cmp, uint64_t a, uint64_t b, unsigned bits, bool is_signed)
{
    int64_t sa = sext(a, bits), sb = sext(b, bits);
    uint64_t ua = a & width_mask(bits), ub = b & width_mask(bits);
    switch (cmp) {
    case MOD_EQ: return ua == ub;
    case MOD_NE: return ua != ub;
    case MOD_LT: return is_signed ? sa < sb : ua < ub;
    case MOD_LE: return is_signed ? sa <= sb : ua <= ub;
    case MOD_GT: return is_signed ? sa > sb : ua > ub;
    case MOD_GE: return is_signed ? sa >= sb : ua >= ub;
    case MOD_LO: return ua < ub;
    case MOD_LS: return ua <= ub;
    case MOD_HI: return ua > ub;
    case MOD_HS: return ua >= ub;
    default: BUG("integer compare %d", cmp);
    }
}

static void setp(Warp *w, const XInstr *x, uint32_t mask)
{
    const uint64_t *a = warp_src(w, x->src[0]), *b = warp_src(w, x->src[1]);
    uint32_t defined = w->defined[x->src[0]] & w->defined[x->src[1]];
    uint32_t t = 0;
    for (int l = 0; l < WARP_SIZE; l++) {
        bool v;
        if (x->cls == 'f')
            v = x->bits == 32 ? warp_compare_float(x->mode, in_f32(x, a[l]), in_f32(x, b[l]))
                              : warp_compare_float(x->mode, as_f64(a[l]), as_f64(b[l]));
        else
            v = compare_int(x->mode, a[l], b[l], x->bits, x->cls == 's');
        t |= (uint32_t)v << l;
    }
    uint32_t c = 0, c_defined = ALL_LANES, t_defined = defined;
    if (x->boolop) {
        c = pred_source(w, x, 2, &c_defined);
        defined = warp_combine_defined(x->boolop, t, t_defined, c, c_defined);
    }
    if (x->op == OP_SET) {
        /* set: the compare as a value of the destination type, all ones or 1.0 when true. */
        uint32_t v = warp_combine(x->boolop, t, c);
        int dtype = x->src_type;
        uint64_t yes = dtype == TYPE_F32 ? 0x3f800000u : dtype == TYPE_F16 ? 0x3c00 : dtype == TYPE_BF16 ? 0x3f80
                     : width_mask(type_info[dtype].bits);
        Lanes r;
        for (int l = 0; l < WARP_SIZE; l++)
            r[l] = (v >> l & 1) ? yes : 0;
        warp_commit(w, x->dst, r, mask, defined);
        return;
    }
    if (x->dst_kind == DST_PRED)
        commit_pred(w, x->dst, warp_combine(x->boolop, t, c), mask, defined);
    if (x->dst_pred != NO_SLOT)       /* the complement's lanes, combined with c anew */
        commit_pred(w, x->dst_pred, warp_combine(x->boolop, ~t, c), mask,
                    x->boolop ? warp_combine_defined(x->boolop, ~t, t_defined, c, c_defined) : defined);
}

/* and.pred, or.pred: a lane whose defined side decides the result (false for and, true for or) is
 * defined though the other side is not, as and.b32's bits are (vbits.c). */
static void predicate_logic(Warp *w, const XInstr *x, uint32_t mask)
{
    uint32_t da = ALL_LANES, db = ALL_LANES;
    uint32_t a = pred_source(w, x, 0, &da);
    uint32_t b = x->src_count > 1 ? pred_source(w, x, 1, &db) : 0;
    uint32_t v, defined = da & db;
    switch (x->op) {
    case OP_MOV: v = a; break;
    case OP_AND: v = a & b; defined = warp_combine_defined(MOD_AND, a, da, b, db); break;
    case OP_OR: v = a | b; defined = warp_combine_defined(MOD_OR, a, da, b, db); break;
    case OP_XOR: v = a ^ b; break;
    case OP_NOT: v = ~a; break;
    default: BUG("predicate op %d", x->op);
    }
    commit_pred(w, x->dst, v, mask, defined);
}

static void selp(Warp *w, const XInstr *x, uint32_t mask)
{
    const uint64_t *a = warp_src(w, x->src[0]), *b = warp_src(w, x->src[1]);
    uint32_t cdef = ALL_LANES;
    uint32_t c = pred_source(w, x, 2, &cdef);
    Lanes r;
    for (int l = 0; l < WARP_SIZE; l++)
        r[l] = (c >> l & 1) ? a[l] : b[l];
    uint32_t defined = cdef & ((c & w->defined[x->src[0]]) | (~c & w->defined[x->src[1]]));
    uint64_t dbits[WARP_SIZE];                 /* a defined selector: the chosen value's bits */
    uint32_t partial = mask & cdef & ~defined;
    for (uint32_t k = partial; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        dbits[l] = warp_dbits(w, x->src[(c >> l & 1) ? 0 : 1], l);
    }
    warp_commit(w, x->dst, r, mask, defined);
    for (; partial; partial &= partial - 1)
        warp_define_bits(w, x->dst, __builtin_ctz(partial), dbits[__builtin_ctz(partial)], x->bits);
}

/* The kernel forms of x (lower.c): a 32-bit integer operation or compare that the Program's
 * Kernels run (KOP_NONE, KCMP_NONE: this file's loops). */
void alu_kernel_forms(XInstr *x)
{
    x->kop = KOP_NONE;
    x->kcmp = KCMP_NONE;
    bool integer = x->cls == 'u' || x->cls == 's' || x->cls == 'b';
    if (x->family != FAM_ALU || x->bits != 32 || x->pack || x->unpack || x->sat || x->hi || x->wide || x->relu ||
        x->carry_out || x->boolop || x->type == TYPE_U16X2 || x->type == TYPE_S16X2)
        return;
    bool s = x->cls == 's';
    if (x->op == OP_SETP && integer) {
        switch (x->mode) {
        case MOD_EQ: x->kcmp = KCMP_EQ; break;
        case MOD_NE: x->kcmp = KCMP_NE; break;
        case MOD_LT: x->kcmp = s ? KCMP_LT_S : KCMP_LT_U; break;
        case MOD_LE: x->kcmp = s ? KCMP_LE_S : KCMP_LE_U; break;
        case MOD_GT: x->kcmp = s ? KCMP_GT_S : KCMP_GT_U; break;
        case MOD_GE: x->kcmp = s ? KCMP_GE_S : KCMP_GE_U; break;
        case MOD_LO: x->kcmp = KCMP_LT_U; break;
        case MOD_LS: x->kcmp = KCMP_LE_U; break;
        case MOD_HI: x->kcmp = KCMP_GT_U; break;
        case MOD_HS: x->kcmp = KCMP_GE_U; break;
        default: break;
        }
        return;
    }
    if (x->dst_kind != DST_VALUE || !(integer || (x->op == OP_MOV && x->cls == 'f')))
        return;
    switch (x->op) {
    case OP_MOV: x->kop = KOP_MOV; break;
    case OP_ADD: x->kop = KOP_ADD; break;
    case OP_SUB: x->kop = KOP_SUB; break;
    case OP_MUL: x->kop = KOP_MUL; break;
    case OP_AND: x->kop = KOP_AND; break;
    case OP_OR: x->kop = KOP_OR; break;
    case OP_XOR: x->kop = KOP_XOR; break;
    case OP_SHL: x->kop = KOP_SHL; break;
    case OP_SHR: x->kop = s ? KOP_SHR_S : KOP_SHR_U; break;
    default: break;
    }
}

/* alu_kernel's kop for lanes of mask where a source is not defined in every bit: apart, so
 * that the common case keeps a small frame. */
__attribute__((noinline)) static void kernel_partly_defined(Warp *w, const XInstr *x, uint32_t mask, uint32_t defined)
{
    uint32_t a = x->src[0], b = x->src[x->src_count > 1];
    uint64_t dbits[WARP_SIZE];
    uint32_t partial = vbits_partial_results(w, x, mask, defined, dbits);
    w->prog->kernels->int32(x->kop, w->val[x->dst], warp_src(w, a), warp_src(w, b), mask);
    w->defined[x->dst] |= mask & defined;
    vbits_define_partial(w, x, partial, dbits);             /* every other lane of mask */
}

/* An instruction with a kernel form (kop or kcmp), for the lanes of mask. */
void alu_kernel(Warp *w, const XInstr *x, uint32_t mask)
{
    uint32_t a = x->src[0], b = x->src[x->src_count > 1];
    uint32_t defined = w->defined[a] & w->defined[b];
    if (x->kop && (mask & ~defined)) {
        kernel_partly_defined(w, x, mask, defined);
        return;
    }
    if (x->kop) {                               /* every source defined in every bit */
        w->prog->kernels->int32(x->kop, w->val[x->dst], warp_src(w, a), warp_src(w, b), mask);
        w->defined[x->dst] |= mask;
        return;
    }
    uint32_t t = w->prog->kernels->compare32(x->kcmp, warp_src(w, a), warp_src(w, b));
    if (x->dst_kind == DST_PRED)
        commit_pred(w, x->dst, t, mask, defined);
    if (x->dst_pred != NO_SLOT)
        commit_pred(w, x->dst_pred, ~t, mask, defined);
}

void alu_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    if (x->kop || x->kcmp) {
        alu_kernel(w, x, mask);
        return;
    }
    if (x->op == OP_SET) {
        setp(w, x, mask);
        return;
    }
    if (x->carry_out || x->op == OP_ADDC || x->op == OP_SUBC || x->op == OP_MADC) {
        carry_op(w, x, mask);
        return;
    }
    if (x->op == OP_MUL24 || x->op == OP_MAD24 || x->op == OP_SAD) {
        narrow_op(w, x, mask);
        return;
    }
    if (x->op == OP_SETP) {
        setp(w, x, mask);
        return;
    }
    if (x->op == OP_SELP) {
        selp(w, x, mask);
        return;
    }
    if (x->cls == 'p') {
        predicate_logic(w, x, mask);
        return;
    }
    Lanes r;
    uint32_t defined;
    if (x->cls == 'f' && x->op != OP_MOV) {
        float_op(w, x, mask, r, &defined);
        if (x->dst_kind == DST_VALUE)
            warp_commit(w, x->dst, r, mask, defined);
        return;
    }
    int_op(w, x, r, &defined);
    uint64_t dbits[WARP_SIZE];
    uint32_t partial = vbits_partial_results(w, x, mask, defined, dbits);
    if (x->dst_kind == DST_VALUE)
        warp_commit(w, x->dst, r, mask, defined);
    vbits_define_partial(w, x, partial, dbits);
}
