/* convert.c: cvt, every integer and float pair, f16 and bf16 included. Integer to integer:
 * the source read as its type (sign- or zero-extended from its width), then truncated to the
 * destination, or clamped with .sat. Float to integer: rounded by .rni/.rzi/.rmi/.rpi, clamped
 * to the destination's range (PTX: float-to-integer conversions saturate); NaN gives 0, or
 * 1 << (w-1) for an f64 source or a 64-bit destination (PTX ISA 9.0, and the H100). Integer to
 * float and float narrowing: rounded by .rn/.rz/.rm/.rp. Float to float of the same width with
 * .rni etc.: rounded to an integral value. A NaN keeps its sign and payload, quieted, as on the
 * H100. .ftz as for arithmetic; .sat clamps to [+0, 1] (NaN and -0 to +0). f16 and bf16 go
 * through double and are rounded to their 10 (7) fraction bits in the instruction's mode.
 * Built with -frounding-math (see Makefile). Requires: an XInstr from lower.c. */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "family.h"

static int host_mode(uint8_t rounding)
{
    switch (rounding) {
    case MOD_RZ: case MOD_RZI: return FE_TOWARDZERO;
    case MOD_RM: case MOD_RMI: return FE_DOWNWARD;
    case MOD_RP: case MOD_RPI: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

/* f16 (5 exponent bits, 10 fraction bits) and bf16 (8, 7) to double: exact. */
double convert_small_to_double(uint64_t bits, int type)
{
    int frac_bits = type == TYPE_F16 ? 10 : 7, exp_bits = type == TYPE_F16 ? 5 : 8;
    int bias = (1 << (exp_bits - 1)) - 1;
    uint32_t v = (uint32_t)bits & 0xffff;
    uint32_t sign = v >> 15, exp = (v >> frac_bits) & ((1u << exp_bits) - 1), frac = v & ((1u << frac_bits) - 1);
    double r;
    if (exp == (1u << exp_bits) - 1)
        r = frac ? NAN : INFINITY;
    else if (exp == 0)
        r = ldexp((double)frac, 1 - bias - frac_bits);
    else
        r = ldexp((double)(frac | (1u << frac_bits)), (int)exp - bias - frac_bits);
    return sign ? -r : r;
}

/* double to f16 or bf16, rounded in the current mode; canonical NaN 0x7fff. */
uint64_t convert_double_to_small(double v, int type)
{
    int frac_bits = type == TYPE_F16 ? 10 : 7, exp_bits = type == TYPE_F16 ? 5 : 8;
    int bias = (1 << (exp_bits - 1)) - 1, emin = 1 - bias, emax = bias;
    uint32_t sign = signbit(v) ? 0x8000u : 0;
    uint32_t inf = ((1u << exp_bits) - 1) << frac_bits;
    if (isnan(v))
        return 0x7fff;
    if (isinf(v))
        return sign | inf;
    if (v == 0)
        return sign;
    int e = ilogb(v);
    if (e < emin)
        e = emin;
    double quantum = ldexp(1.0, e - frac_bits);
    double r = nearbyint(v / quantum) * quantum;       /* rounds as fesetround says */
    if (fabs(r) >= ldexp(1.0, emax + 1)) {
        /* Overflow: infinity, or the largest finite value where the rounding goes toward zero. */
        int mode = fegetround();
        bool to_inf = mode == FE_TONEAREST || (mode == FE_UPWARD && !sign) || (mode == FE_DOWNWARD && sign);
        return sign | (to_inf ? inf : inf - 1);
    }
    double a = fabs(r);
    if (a == 0)
        return sign;
    int re = ilogb(a);
    if (re < emin)
        return sign | (uint32_t)(a / ldexp(1.0, emin - frac_bits));
    uint32_t frac = (uint32_t)(a / ldexp(1.0, re - frac_bits)) - (1u << frac_bits);
    return sign | (uint32_t)(re + bias) << frac_bits | frac;
}

/* The binary formats by type: fraction and exponent widths. */
static void float_format(int type, unsigned *frac_bits, unsigned *exp_bits)
{
    switch (type) {
    case TYPE_F16: *frac_bits = 10; *exp_bits = 5; break;
    case TYPE_BF16: *frac_bits = 7; *exp_bits = 8; break;
    case TYPE_F64: *frac_bits = 52; *exp_bits = 11; break;
    default: *frac_bits = 23; *exp_bits = 8; break;
    }
}

bool convert_is_nan(uint64_t bits, int type)
{
    unsigned f, e;
    float_format(type, &f, &e);
    uint64_t exp = bits >> f & width_mask(e), frac = bits & width_mask(f);
    return exp == width_mask(e) && frac != 0;
}

/* A NaN in another format, as the H100 converts it: same sign, quiet, the payload's top bits
 * kept (truncated when narrowing, zero-filled when widening). Also a same-format quieting. */
uint64_t convert_nan(uint64_t bits, int from, int to)
{
    unsigned ff, fe, tf, te;
    float_format(from, &ff, &fe);
    float_format(to, &tf, &te);
    uint64_t sign = bits >> (ff + fe) & 1, frac = bits & width_mask(ff);
    frac = tf >= ff ? frac << (tf - ff) : frac >> (ff - tf);
    frac |= (uint64_t)1 << (tf - 1);
    return sign << (tf + te) | width_mask(te) << tf | frac;
}

double float_from_bits(uint64_t bits, unsigned width, bool ftz)
{
    if (width == 32) {
        float f;
        uint32_t b = (uint32_t)bits;
        memcpy(&f, &b, sizeof f);
        if (ftz && fpclassify(f) == FP_SUBNORMAL)
            f = copysignf(0.0f, f);
        return f;
    }
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

uint64_t float_to_bits(double v, unsigned width, bool ftz)
{
    if (width == 32) {
        float f = (float)v;                      /* rounded in the current mode */
        if (ftz && fpclassify(f) == FP_SUBNORMAL)
            f = copysignf(0.0f, f);
        if (isnan(f))
            return 0x7fffffffu;
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        return b;
    }
    if (isnan(v))
        return 0x7fffffffffffffffull;
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

static int64_t sign_extend(uint64_t v, unsigned bits)
{
    unsigned shift = 64 - bits;
    return (int64_t)(v << shift) >> shift;
}

/* An integer of from bits as a double, rounded to odd where it has more than 53 significant
 * bits (the last bit kept set when any bit beyond it is): a later rounding to a format of at
 * most 51 bits of fraction is then the one rounding of the integer itself. */
static double int_to_double_odd(uint64_t bits, unsigned from, bool is_signed)
{
    bool negative = is_signed && sign_extend(bits, from) < 0;
    uint64_t m = negative ? 0 - (uint64_t)sign_extend(bits, from) : bits & width_mask(from);
    int shift = m >> 53 ? 64 - __builtin_clzll(m) - 53 : 0;
    uint64_t top = m >> shift;
    if (shift && (m & ((UINT64_C(1) << shift) - 1)))
        top |= 1;
    double d = ldexp((double)top, shift);
    return negative ? -d : d;
}

static uint64_t write_float(double v, unsigned width, bool ftz, bool sat)
{
    if (sat)
        v = isnan(v) || v <= 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;     /* -0.0 too gives +0.0 */
    return float_to_bits(v, width, ftz);
}

/* cvt of a NaN between float types, as the H100's conversion units give it
 * (../shared/hw/float and half, e.g. float_020, float_034, half_cvt_000..006): through f32 (and
 * from f16) the canonical NaN, 0x7fffffff or 0x7fff, except that bf16 -> f32 moves the bits;
 * from f64 and to f64 the payload is kept and quieted (f32 -> f64 with .ftz first makes it the
 * canonical f32 NaN). */
static uint64_t converted_nan(uint64_t bits, int from, int to, bool ftz)
{
    if (from == TYPE_BF16 && to == TYPE_F32)
        return (bits & 0xffff) << 16;
    if (from == TYPE_F64 || (to == TYPE_F64 && !(from == TYPE_F32 && ftz)))
        return convert_nan(bits, from, to);
    if (to == TYPE_F64)
        return convert_nan(0x7fffffff, TYPE_F32, TYPE_F64);
    return to == TYPE_F32 ? 0x7fffffff : 0x7fff;
}

/* A float to an integer type: rounded (in the current mode), clamped. NaN: see the top. */
static uint64_t float_to_int(double v, unsigned width, bool is_signed, unsigned from_width)
{
    if (isnan(v))
        return from_width == 64 || width == 64 ? (uint64_t)1 << (width - 1) : 0;
    v = nearbyint(v);
    if (is_signed) {
        double lo = -ldexp(1.0, (int)width - 1), hi = ldexp(1.0, (int)width - 1);
        if (v < lo)
            return (uint64_t)1 << (width - 1);   /* the most negative value, as bits */
        if (v >= hi)
            return width_mask(width - 1);
        return (uint64_t)(int64_t)v & width_mask(width);
    }
    if (v <= 0)
        return 0;
    if (v >= ldexp(1.0, (int)width))
        return width_mask(width);
    return (uint64_t)v;
}


/* An integer to an integer type, truncating or (.sat) clamping. */
static uint64_t int_to_int(uint64_t v, unsigned from, bool from_signed, unsigned to, bool to_signed, bool sat)
{
    if (!sat)
        return (from_signed ? (uint64_t)sign_extend(v, from) : v & width_mask(from)) & width_mask(to);
    if (from_signed) {
        int64_t s = sign_extend(v, from);
        int64_t lo = to_signed ? (to == 64 ? INT64_MIN : -(int64_t)((uint64_t)1 << (to - 1))) : 0;
        int64_t hi_s = to == 64 ? INT64_MAX : (int64_t)width_mask(to_signed ? to - 1 : to);
        if (!to_signed && to == 64)
            hi_s = INT64_MAX;
        if (s < lo)
            s = lo;
        if (s > hi_s)
            s = hi_s;
        return (uint64_t)s & width_mask(to);
    }
    uint64_t u = v & width_mask(from);
    uint64_t hi = width_mask(to_signed ? to - 1 : to);
    return (u > hi ? hi : u) & width_mask(to);
}

/* The conversions into and out of the narrow formats that convert_narrow runs (PTX ISA cvt, up
 * to sm_90): to f16 or bf16 from f32 with .relu or .satfinite; to f16x2 or bf16x2 from two
 * f32 (d, a, b); to tf32 from f32 (.rna with or without .satfinite, .rn or .rz with .relu or
 * .satfinite); to e4m3x2 or e5m2x2 (.rn.satfinite) from two f32 or from f16x2; to f16x2 (.rn)
 * from e4m3x2 or e5m2x2. The others (the sm_100 formats e2m1x2, e2m3x2, e3m2x2, ue8m0x2,
 * four-value packs, .rs) are refused by lower.c. */
bool convert_narrow_form(int to, int from, bool relu, bool satfinite, int rounding, unsigned operands)
{
    bool to_half = to == TYPE_F16 || to == TYPE_BF16, to_pair = to == TYPE_F16X2 || to == TYPE_BF16X2;
    bool to_fp8 = to == TYPE_E4M3X2 || to == TYPE_E5M2X2, from_fp8 = from == TYPE_E4M3X2 || from == TYPE_E5M2X2;
    bool rn_or_rz = rounding == MOD_RN || rounding == MOD_RZ;
    if (from == TYPE_F32 && to_half)
        return (relu || satfinite) && rn_or_rz && operands == 2;
    if (from == TYPE_F32 && to_pair)
        return rn_or_rz && operands == 3;
    if (from == TYPE_F32 && to == TYPE_TF32)
        return operands == 2 && (rounding == MOD_RNA ? !relu : rn_or_rz);
    if (to_fp8 && (from == TYPE_F32 || from == TYPE_F16X2))
        return rounding == MOD_RN && satfinite && operands == (from == TYPE_F32 ? 3u : 2u);
    if (to == TYPE_F16X2 && from_fp8)
        return rounding == MOD_RN && !satfinite && operands == 2;
    return false;
}

/* One value of a narrow conversion: v (exact) to the format `to` in x's rounding, with
 * .relu (a negative result +0, NaN the canonical NaN) and .satfinite. */
static uint32_t narrow_value(const XInstr *x, double v, int to)
{
    int part = to == TYPE_F16X2 ? TYPE_F16 : to == TYPE_BF16X2 ? TYPE_BF16 : to;
    if (x->relu && !isnan(v) && signbit(v))      /* -0 too (half_cvtx_028) */
        v = 0;
    return half_encode(v, part, x->rounding, x->satfinite);
}

static const char warn_tf32_nan[] =
    "cvt.rna.tf32.f32 of a NaN: the PTX ISA gives a NaN result, the H100 clears the NaN's low 13 "
    "bits (a payload only there leaves an infinity) and with .satfinite then steps an all-ones "
    "exponent down one tf32 unit (0x7f800001 -> 0x7f7fe000, 0x7fc00000 -> 0x7fbfe000); ptxrun "
    "follows the H100 (recorded only for NaNs with the quiet bit or a payload in the low 13 bits)";

/* cvt.rna{.satfinite}.tf32.f32 of an f32 NaN as the H100 gives it
 * (tests/h100_more/cases/cvt_rna{,_satfinite}_tf32_f32): the low 13 bits cleared, no rounding;
 * .satfinite then takes one tf32 unit (0x2000) off a result whose exponent is all ones, which
 * makes an infinity the largest finite value and 0x7fc00000 0x7fbfe000. */
static uint32_t tf32_rna_nan(uint32_t bits, bool satfinite)
{
    uint32_t r = bits & ~0x1fffu;
    if (satfinite && (r & 0x7f800000u) == 0x7f800000u)
        r -= 0x2000;
    return r;
}

/* cvt in one of convert_narrow_form's forms: with two sources, a goes to the upper part of d
 * and b to the lower; from a pair, each part converts on its own. Each part of d is defined
 * where the source part it comes from is. */
static void convert_narrow(Warp *w, const XInstr *x, uint32_t mask)
{
    bool from_pair = x->src_type == TYPE_F16X2 || x->src_type == TYPE_E4M3X2 || x->src_type == TYPE_E5M2X2;
    unsigned parts = x->src_count == 2 || from_pair ? 2 : 1, part_bits = x->bits / parts;
    unsigned src_part = from_pair ? type_info[x->src_type].bits / 2 : 32;
    int src_part_type = x->src_type == TYPE_F16X2 ? TYPE_F16 : x->src_type == TYPE_E4M3X2 ? TYPE_E4M3
                      : x->src_type == TYPE_E5M2X2 ? TYPE_E5M2 : TYPE_F32;
    uint64_t *d = w->val[x->dst];
    uint64_t r[WARP_SIZE], dbits[WARP_SIZE];
    uint32_t defined = mask, tf32_nan = 0;
    for (unsigned i = 0; i < x->src_count; i++)
        defined &= w->defined[x->src[i]];
    for (int l = 0; l < WARP_SIZE; l++) {
        if (!(mask >> l & 1))
            continue;
        r[l] = 0;
        dbits[l] = 0;
        for (unsigned p = 0; p < parts; p++) {
            /* part p of d (p = 1 the upper): from source a (src[0]) when two sources give it */
            uint32_t row = x->src_count == 2 ? x->src[1 - p] : x->src[0];
            unsigned shift = from_pair ? p * src_part : 0;
            uint64_t bits = w->val[row][l] >> shift & width_mask(src_part);
            double v = src_part_type == TYPE_F32 ? float_from_bits(bits, 32, false) : half_decode((uint32_t)bits, src_part_type);
            if (x->type == TYPE_TF32 && x->rounding == MOD_RNA && isnan(v)) {
                r[l] |= tf32_rna_nan((uint32_t)bits, x->satfinite);
                tf32_nan |= 1u << l;
            } else {
                r[l] |= (uint64_t)narrow_value(x, v, x->type) << (p * part_bits);
            }
            uint64_t need = width_mask(src_part) << shift;
            if ((warp_dbits(w, row, l) & need) == need)
                dbits[l] |= width_mask(part_bits) << (p * part_bits);
        }
    }
    if (tf32_nan & defined)
        report_warn(w, (uint32_t)(x - w->prog->code), tf32_nan & defined, warn_tf32_nan);
    if (x->dst_kind != DST_VALUE)
        return;
    for (int l = 0; l < WARP_SIZE; l++)
        if (mask >> l & 1)
            d[l] = r[l];
    warp_define(w, x->dst, mask, defined);
    for (uint32_t k = mask & ~defined; k; k &= k - 1)
        warp_define_bits(w, x->dst, __builtin_ctz(k), dbits[__builtin_ctz(k)], x->bits);
}

void convert_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    if (x->narrow) {
        convert_narrow(w, x, mask);
        return;
    }
    const uint64_t *a = warp_src(w, x->src[0]);
    unsigned to = x->bits, from = type_info[x->src_type].bits;
    char to_cls = x->cls, from_cls = type_info[x->src_type].cls;
    bool to_float = to_cls == 'f', from_float = from_cls == 'f';
    uint64_t r[WARP_SIZE];
    int saved = fegetround();
    bool directed = x->rounding && host_mode(x->rounding) != FE_TONEAREST;
    if (directed)
        fesetround(host_mode(x->rounding));
    bool small_from = x->src_type == TYPE_F16 || x->src_type == TYPE_BF16;
    bool small_to = x->type == TYPE_F16 || x->type == TYPE_BF16;
    for (int l = 0; l < WARP_SIZE; l++) {
        if (!(mask >> l & 1)) {
            r[l] = 0;
            continue;
        }
        if (from_float && to_float && convert_is_nan(a[l], x->src_type) && !x->sat) {
            r[l] = converted_nan(a[l], x->src_type, x->type, x->ftz);
            continue;
        }
        if (small_from || small_to) {
            /* Through double, which holds every f16, bf16, f32 and 32-bit integer exactly, and a
             * 64-bit integer rounded to odd: one rounding into f16 or bf16 all the same. */
            double v = small_from ? convert_small_to_double(a[l], x->src_type)
                     : from_float ? float_from_bits(a[l], from, x->ftz)
                     : int_to_double_odd(a[l], from, from_cls == 's');
            if (x->rounding == MOD_RNI || x->rounding == MOD_RZI || x->rounding == MOD_RMI || x->rounding == MOD_RPI)
                v = nearbyint(v);
            if (small_to && x->sat)             /* [+0, 1]; NaN and -0 to +0 */
                v = isnan(v) || v <= 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
            if (small_to)
                r[l] = convert_double_to_small(v, x->type);
            else if (to_float)
                r[l] = write_float(v, to, x->ftz, x->sat);
            else
                r[l] = float_to_int(v, to, to_cls == 's', from);
            continue;
        }
        if (from_float && to_float) {
            double v = float_from_bits(a[l], from, x->ftz);
            bool integral = x->rounding == MOD_RNI || x->rounding == MOD_RZI || x->rounding == MOD_RMI ||
                            x->rounding == MOD_RPI;
            if (integral)
                v = nearbyint(v);
            r[l] = write_float(v, to, x->ftz, x->sat);
        } else if (from_float) {
            r[l] = float_to_int(float_from_bits(a[l], from, x->ftz), to, to_cls == 's', from);
        } else if (to_float) {
            double v;
            if (from == 64 && to == 32) {       /* round once, straight to float */
                float f = from_cls == 's' ? (float)(int64_t)a[l] : (float)a[l];
                v = f;
            } else {
                v = from_cls == 's' ? (double)sign_extend(a[l], from) : (double)(a[l] & width_mask(from));
            }
            r[l] = write_float(v, to, x->ftz, x->sat);
        } else {
            r[l] = int_to_int(a[l], from, from_cls == 's', to, to_cls == 's', x->sat);
        }
    }
    if (directed)
        fesetround(saved);
    /* Integer truncation and extension keep the defined bits (an extended sign bit's copies are
     * defined as it is); anything else is defined only where the source is in every bit. */
    uint64_t dbits[WARP_SIZE];
    uint32_t partial = 0;
    bool sign_out = to_cls == 's' && x->dst_bits > to;
    if (!from_float && !to_float && !small_from && !small_to && !x->sat)
        for (uint32_t k = mask & ~w->defined[x->src[0]]; k; k &= k - 1) {
            int l = __builtin_ctz(k);
            dbits[l] = vbits_convert(warp_dbits(w, x->src[0], l), from, to, from_cls == 's');
            dbits[l] = sign_out ? vbits_convert(dbits[l], to, x->dst_bits, true) : dbits[l];
            partial |= 1u << l;
        }
    /* A destination register wider than the type gets the value sign- or zero-extended. */
    uint64_t *d = w->val[x->dst];
    for (int l = 0; l < WARP_SIZE; l++)
        if (mask >> l & 1)
            d[l] = sign_out ? (uint64_t)sign_extend(r[l], to) & width_mask(x->dst_bits) : r[l];
    warp_define(w, x->dst, mask, w->defined[x->src[0]]);
    for (; partial; partial &= partial - 1)
        warp_define_bits(w, x->dst, __builtin_ctz(partial), dbits[__builtin_ctz(partial)], x->dst_bits);
}
