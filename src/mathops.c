/* mathops.c: floating-point division, reciprocal, roots and the transcendental functions,
 * copysign, testp and slct. IEEE-rounded forms (.rn .rz .rm .rp) are exact as IEEE 754 asks;
 * the .approx and .full forms are computed with the C library in double precision and rounded
 * once, which is within the error bounds the PTX ISA gives for them (docs/semantics.md), but
 * need not equal a GPU's bits. Built with -frounding-math (see Makefile).
 * Requires: an XInstr from exec.c. */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "ptxrun.h"

static int host_mode(uint8_t rounding)
{
    switch (rounding) {
    case MOD_RZ: return FE_TOWARDZERO;
    case MOD_RM: return FE_DOWNWARD;
    case MOD_RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

/* An IEEE operation in the width of the instruction, so that it rounds once. */
static uint64_t ieee(const XInstr *x, double a, double b)
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
    return float_to_bits(r, 64, false);
}

void mathops_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    const uint64_t *a = w->val[x->src[0]];
    const uint64_t *b = x->src_count > 1 ? w->val[x->src[1]] : a;
    const uint64_t *c = x->src_count > 2 ? w->val[x->src[2]] : a;
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
            r[l] = approx ? float_to_bits(x->op == OP_DIV ? va / vb : x->op == OP_RCP ? 1.0 / va : sqrt(va), width, x->ftz)
                          : ieee(x, va, vb);
            break;
        case OP_RSQRT: r[l] = float_to_bits(1.0 / sqrt(va), width, x->ftz); break;
        case OP_SIN: r[l] = float_to_bits(sin(va), width, x->ftz); break;
        case OP_COS: r[l] = float_to_bits(cos(va), width, x->ftz); break;
        case OP_LG2: r[l] = float_to_bits(log2(va), width, x->ftz); break;
        case OP_EX2: r[l] = float_to_bits(exp2(va), width, x->ftz); break;
        case OP_TANH: r[l] = float_to_bits(tanh(va), width, x->ftz); break;
        case OP_COPYSIGN: {                           /* |b| with the sign of a */
            uint64_t sign = width == 32 ? 0x80000000u : 0x8000000000000000ull;
            r[l] = (b[l] & ~sign & width_mask(width)) | (a[l] & sign);
            break;
        }
        case OP_SLCT: {                               /* c >= 0 ? a : b, c of the second type */
            bool take_a = type_info[x->src_type].cls == 'f' ? !(float_from_bits(c[l], 32, x->ftz) < 0) : (int32_t)c[l] >= 0;
            r[l] = take_a ? a[l] : b[l];
            break;
        }
        case OP_TESTP: {
            int cls = fpclassify(va);
            bool v;
            switch (x->mode) {
            case MOD_FINITE: v = isfinite(va); break;
            case MOD_INFINITE: v = isinf(va); break;
            case MOD_NUMBER: v = !isnan(va); break;
            case MOD_NOTANUMBER: v = isnan(va); break;
            case MOD_NORMAL: v = cls == FP_NORMAL; break;
            default: v = cls == FP_SUBNORMAL; break;
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
    uint64_t *d = w->val[x->dst];
    for (int l = 0; l < WARP_SIZE; l++)
        if (mask >> l & 1)
            d[l] = r[l];
    w->defined[x->dst] = (w->defined[x->dst] & ~mask) | (defined & mask);
}
