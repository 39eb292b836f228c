/* mathops.c: floating-point division, reciprocal, roots and the transcendental functions,
 * copysign, testp and slct. IEEE-rounded forms (.rn .rz .rm .rp) are exact as IEEE 754 asks,
 * with the H100's NaN results; the .approx and .full forms are approx.c's models of the H100.
 * Built with -frounding-math (see Makefile).
 * Requires: an XInstr from lower.c. */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "family.h"

static int host_mode(uint8_t rounding)
{
    switch (rounding) {
    case MOD_RZ: return FE_TOWARDZERO;
    case MOD_RM: return FE_DOWNWARD;
    case MOD_RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

#define F64_QUIET 0x0008000000000000ull
#define F64_DEFAULT_NAN 0xfff8000000000000ull   /* the H100's result of an invalid f64 operation */

static bool f64_is_nan(uint64_t v) { return (v & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }

/* The H100's f64 NaN result: an input NaN quieted, sign and payload kept (of two, the first
 * even where only the second signals: float_174 t46), or the default NaN where the operation
 * itself was invalid. */
static uint64_t f64_nan(uint64_t a, uint64_t b, unsigned inputs)
{
    bool a_nan = f64_is_nan(a), b_nan = inputs > 1 && f64_is_nan(b);
    if (a_nan)
        return a | F64_QUIET;
    if (b_nan)
        return b | F64_QUIET;
    return F64_DEFAULT_NAN;
}

/* An IEEE operation in the width of the instruction, so that it rounds once. */
static uint64_t ieee(const XInstr *x, double a, double b, uint64_t a_bits, uint64_t b_bits)
{
    if (x->bits == 32) {
        float fa = (float)a, fb = (float)b, r;
        switch (x->op) {
        case OP_DIV: r = fa / fb; break;
        case OP_RCP: r = 1.0f / fa; break;
        default: r = sqrtf(fa); break;
        }
        return float_to_bits(r, 32, x->ftz);
    }
    double r = x->op == OP_DIV ? a / b : x->op == OP_RCP ? 1.0 / a : sqrt(a);
    if (isnan(r))
        return f64_nan(a_bits, b_bits, x->op == OP_DIV ? 2 : 1);
    return float_to_bits(r, 64, false);
}

/* slct: c >= 0 takes a, else b; c of the second type; NaN takes b (the H100, float_016). */
static bool take_first(const XInstr *x, uint64_t c)
{
    return type_info[x->src_type].cls == 'f' ? float_from_bits(c, 32, x->ftz) >= 0 : (int32_t)c >= 0;
}

void mathops_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    const uint64_t *a = warp_src(w, x->src[0]);
    const uint64_t *b = x->src_count > 1 ? warp_src(w, x->src[1]) : a;
    const uint64_t *c = x->src_count > 2 ? warp_src(w, x->src[2]) : a;
    uint32_t defined = w->defined[x->src[0]];
    for (unsigned s = 1; s < x->src_count; s++)
        defined &= w->defined[x->src[s]];
    unsigned width = x->bits;
    bool approx = x->mode == MOD_APPROX || x->mode == MOD_FULL;
    int saved = fegetround();
    bool directed = !approx && x->rounding && host_mode(x->rounding) != FE_TONEAREST;
    if (directed)
        fesetround(host_mode(x->rounding));
    uint64_t r[WARP_SIZE];
    uint32_t pred = 0;
    for (int l = 0; l < WARP_SIZE; l++) {
        double va = float_from_bits(a[l], width, x->ftz), vb = float_from_bits(b[l], width, x->ftz);
        switch (x->op) {
        case OP_DIV:
        case OP_RCP:
        case OP_SQRT:
        case OP_RSQRT:
        case OP_SIN:
        case OP_COS:
        case OP_LG2:
        case OP_EX2:
        case OP_TANH:
            if (half_type(x->type)) {                 /* ex2, tanh of halves: each on its own */
                unsigned halves = x->bits / 16;
                int half = x->type == TYPE_F16 || x->type == TYPE_F16X2 ? TYPE_F16 : TYPE_BF16;
                r[l] = 0;
                for (unsigned h = 0; h < halves; h++)
                    r[l] |= (uint64_t)approx_half(x->op, half, x->ftz, (uint32_t)(a[l] >> (16 * h))) << (16 * h);
            } else if (!approx)
                r[l] = ieee(x, va, vb, a[l], b[l]);
            else if (width == 32)
                r[l] = approx_f32(x->op, x->mode == MOD_FULL, x->ftz, (uint32_t)a[l], (uint32_t)b[l]);
            else
                r[l] = approx_f64(x->op, x->ftz, a[l]);
            break;
        case OP_COPYSIGN: {                           /* |b| with the sign of a */
            uint64_t sign = width == 32 ? 0x80000000u : 0x8000000000000000ull;
            r[l] = (b[l] & ~sign & width_mask(width)) | (a[l] & sign);
            break;
        }
        case OP_SLCT:
            r[l] = take_first(x, c[l]) ? a[l] : b[l];
            break;
        case OP_TESTP: {
            /* Classified in the operand's own format: an f32 subnormal is subnormal, and +-0
             * is normal (the PTX ISA; the H100: float_000, float_036). */
            uint64_t exp = width == 32 ? a[l] >> 23 & 0xff : a[l] >> 52 & 0x7ff;
            uint64_t frac = a[l] & width_mask(width == 32 ? 23 : 52);
            bool subnormal = exp == 0 && frac != 0;
            bool v;
            switch (x->mode) {
            case MOD_FINITE: v = isfinite(va); break;
            case MOD_INFINITE: v = isinf(va); break;
            case MOD_NUMBER: v = !isnan(va); break;
            case MOD_NOTANUMBER: v = isnan(va); break;
            case MOD_NORMAL: v = isfinite(va) && !subnormal; break;
            default: v = subnormal; break;
            }
            pred |= (uint32_t)v << l;
            r[l] = 0;
            break;
        }
        default: BUG("math op %d", x->op);
        }
    }
    if (directed)
        fesetround(saved);
    if (x->op == OP_TESTP) {
        w->pred[x->dst] = (w->pred[x->dst] & ~mask) | (pred & mask);
        w->pred_defined[x->dst] = (w->pred_defined[x->dst] & ~mask) | (defined & mask);
        return;
    }
    /* slct with a defined selector (an integer's sign bit, a float's every bit): the chosen
     * source's defined bits. */
    uint64_t dbits[WARP_SIZE];
    uint32_t selector = type_info[x->src_type].cls == 'f' ? w->defined[x->src[2]]
                      : warp_defined_in(w, x->src[2], mask, 0x80000000u);   /* an integer c: its sign */
    uint32_t partial = x->op == OP_SLCT ? mask & ~defined & selector : 0;
    for (uint32_t k = partial; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        dbits[l] = warp_dbits(w, x->src[take_first(x, c[l]) ? 0 : 1], l);
    }
    uint64_t *d = w->val[x->dst];
    for (int l = 0; l < WARP_SIZE; l++)
        if (mask >> l & 1)
            d[l] = r[l];
    warp_define(w, x->dst, mask, defined);
    for (; partial; partial &= partial - 1)
        warp_define_bits(w, x->dst, __builtin_ctz(partial), dbits[__builtin_ctz(partial)], x->bits);
}
