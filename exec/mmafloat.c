/* mmafloat.c: the H100 tensor core's arithmetic for mma with f16, bf16 or tf32 A and B and
 * f32 or f16 C and D (m16n8k4, m16n8k8, m16n8k16): one D element from a row of A, a column
 * of B and C, bit for bit as the H100 gives it (../shared/hw/mma; the rules and the evidence:
 * docs/semantics.md, "mma", and scripts/mma_float_model.py, which reproduces every recorded
 * output of these forms).
 *
 * The model: every term (C and each product a*b, exact) is aligned to the largest of exp(C)
 * and exp(a) + exp(b) over the non-zero terms, where exp is an operand's exponent field
 * (a subnormal's is the format's smallest, as a normal's of that binade) and not the
 * product's own exponent; each term is truncated toward zero to a multiple of 2^(that - 25);
 * the truncated terms are added exactly; the sum is rounded once: to f32 toward zero, or to
 * f16 to nearest even. A result beyond the format's range is infinity (also toward zero).
 * An exact zero sum, zero terms only included, is +0. Any NaN operand, inf * 0 or infinities
 * of both signs give the canonical NaN (0x7fffffff, 0x7fff); otherwise an infinite product or
 * C gives infinity of its sign. A tf32 operand is an f32 register whose low 13 bits are
 * dropped. Every term fits an int64 once truncated (below 2^36; 17 of them), so the sum is
 * exact in integers. Where no recording decides (a sum of -0 terms only, a subnormal f16 C above
 * every product, every term below 2^-133, an f16 D rounded from beyond f32's precision), ptxrun's
 * choice is the one above and mmaf_dot says when another would give other bits. Requires: an
 * MmaForm of these types (mma.c refuses the others). */
#include "exec.h"

/* Bits of the fraction and of the exponent of each format mmafloat reads or writes. */
typedef struct MmafFormat { unsigned frac, exp; } MmafFormat;

static MmafFormat mmaf_format(unsigned type)
{
    switch (type) {
    case MT_BF16: return (MmafFormat){ 7, 8 };
    case MT_TF32: return (MmafFormat){ 10, 8 };
    case MT_F32: return (MmafFormat){ 23, 8 };
    default: return (MmafFormat){ 10, 5 };                 /* MT_F16 */
    }
}

enum { MMAF_NUM, MMAF_INF, MMAF_NAN };

/* One operand: its value is (-1)^sign * sig * 2^(align - frac) with align the exponent the
 * tensor core aligns by (the exponent field, unbiased; a subnormal's is the smallest normal's). */
typedef struct MmafValue {
    unsigned kind, sign;
    uint32_t sig;
    int align;
} MmafValue;

static MmafValue mmaf_decode(uint64_t raw, unsigned type)
{
    MmafFormat f = mmaf_format(type);
    uint32_t v = (uint32_t)raw;
    if (type == MT_TF32)
        v >>= 13;                                           /* tf32: the low 13 bits are dropped */
    uint32_t expmax = (1u << f.exp) - 1, frac = v & ((1u << f.frac) - 1), e = v >> f.frac & expmax;
    MmafValue x = { MMAF_NUM, v >> (f.frac + f.exp) & 1, frac, 0 };
    int bias = (int)(expmax >> 1);
    if (e == expmax)
        x.kind = frac ? MMAF_NAN : MMAF_INF;
    else if (e == 0)
        x.align = 1 - bias;
    else
        x.sig |= 1u << f.frac, x.align = (int)e - bias;
    return x;
}

/* (-1)^neg * mag * 2^q rounded to f32 toward zero or to f16 to nearest even; beyond the
 * range: infinity. */
static uint64_t mmaf_round(bool neg, uint64_t mag, int q, unsigned type)
{
    MmafFormat f = mmaf_format(type);
    int bias = (1 << (f.exp - 1)) - 1, emin = 1 - bias;
    uint64_t sign = (uint64_t)neg << (f.frac + f.exp), inf = sign | (uint64_t)((1u << f.exp) - 1) << f.frac;
    int top = q;                                            /* floor(log2 |x|) */
    for (uint64_t m = mag; m > 1; m >>= 1)
        top++;
    int grid = (top > emin ? top : emin) - (int)f.frac;    /* the result's quantum, 2^grid */
    int shift = grid - q;
    uint64_t r;
    if (shift <= 0) {
        r = mag << -shift;                                  /* exact: r < 2^(frac + 1) */
    } else {
        r = shift < 64 ? mag >> shift : 0;
        if (type == MT_F16 && shift <= 64) {                /* to nearest, ties to even */
            uint64_t rest = mag - (shift < 64 ? r << shift : 0), half = (uint64_t)1 << (shift - 1);
            if (rest > half || (rest == half && (r & 1)))
                r++;
        }
    }
    if (r >> (f.frac + 1))                                  /* rounded up into the next binade */
        r >>= 1, grid++;
    int biased = grid + (int)f.frac + bias;                 /* >= 1; 1 for subnormals too */
    if (biased >= (1 << f.exp) - 1)
        return inf;
    return sign | (((uint64_t)(biased - 1) << f.frac) + r);
}

/* The choices no H100 recording decides (docs/semantics.md, "mma"): ptxrun's are all false;
 * mmaf_dot tries the others when asked whether a result depends on them. */
typedef struct MmafChoice {
    bool c_leading_bit;      /* a subnormal f16 C aligned by its leading bit, as an f32 C would be */
    bool floor;              /* the alignment exponent at least -133 (Khattak and Mikaitis's H100 model) */
    bool via_f32;            /* an f16 D rounded from the sum first rounded to f32 toward zero */
} MmafChoice;

enum { MMAF_FLOOR = -133 };

/* What mmaf_dot needs to know of a sum to tell whether another choice could matter: the
 * alignment exponent before any floor (MMAF_FLOOR when there is none: a special or zero result)
 * and whether the sum is an f32 exactly. */
typedef struct MmafSum {
    int top;
    bool f32_exact;
} MmafSum;

/* D by the choices ch; *info as above. */
static uint64_t mmaf_compute(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c,
                             const MmafChoice *ch, MmafSum *info)
{
    info->top = MMAF_FLOOR, info->f32_exact = true;
    enum { ALIGN_BITS = 25 };                               /* terms truncated 25 bits below the top */
    MmafFormat in = mmaf_format(f->a), out = mmaf_format(f->c);
    MmafValue x[17], y[17];
    unsigned n = f->k, infs = 0;                            /* infs: bit 0 +inf met, bit 1 -inf */
    bool nan = false;
    for (unsigned i = 0; i < n; i++) {
        x[i] = mmaf_decode(a[i], f->a);
        y[i] = mmaf_decode(b[i], f->b);
        if (x[i].kind == MMAF_NAN || y[i].kind == MMAF_NAN)
            nan = true;
        else if (x[i].kind == MMAF_INF || y[i].kind == MMAF_INF) {
            const MmafValue *other = x[i].kind == MMAF_INF ? &y[i] : &x[i];
            if (other->kind == MMAF_NUM && other->sig == 0)
                nan = true;                                 /* inf * 0 */
            else
                infs |= 1u << (x[i].sign ^ y[i].sign);
        }
    }
    MmafValue z = mmaf_decode(c, f->c);
    if (z.kind == MMAF_NAN)
        nan = true;
    else if (z.kind == MMAF_INF)
        infs |= 1u << z.sign;
    MmafFormat dfmt = mmaf_format(f->d);
    uint64_t dsign = (uint64_t)1 << (dfmt.frac + dfmt.exp);
    if (nan || infs == 3)
        return dsign - 1;                                   /* canonical NaN: 0x7fffffff, 0x7fff */
    if (infs)
        return (infs == 2 ? dsign : 0) | (uint64_t)((1u << dfmt.exp) - 1) << dfmt.frac;

    /* The largest alignment exponent over the non-zero terms (zeros take no part). */
    bool any = z.sig != 0;
    int top = z.align;
    if (ch->c_leading_bit && any && z.sig < 1u << out.frac)
        for (uint32_t m = z.sig << 1; m < 1u << (out.frac + 1); m <<= 1)
            top--;                                          /* a subnormal C's leading bit */
    for (unsigned i = 0; i < n; i++)
        if (x[i].sig && y[i].sig) {
            int e = x[i].align + y[i].align;
            if (!any || e > top)
                top = e;
            any = true;
        }
    if (!any)
        return 0;                                           /* +0 */
    info->top = top;
    if (ch->floor && top < MMAF_FLOOR)
        top = MMAF_FLOOR;
    int q = top - ALIGN_BITS;
    int64_t sum = 0;
    for (unsigned i = 0; i <= n; i++) {
        uint64_t sig;
        int e;                                              /* the term is sig * 2^e, exactly */
        unsigned sign;
        if (i < n) {
            sig = (uint64_t)x[i].sig * y[i].sig;
            e = x[i].align + y[i].align - 2 * (int)in.frac;
            sign = x[i].sign ^ y[i].sign;
        } else {
            sig = z.sig, e = z.align - (int)out.frac, sign = z.sign;
        }
        if (!sig)
            continue;
        int shift = e - q;               /* <= 25 (a subnormal f16 C by its leading bit): below 2^36 */
        uint64_t t = shift >= 0 ? sig << shift : -shift < 64 ? sig >> -shift : 0;
        sum += sign ? -(int64_t)t : (int64_t)t;
    }
    if (sum == 0)
        return 0;                                           /* +0 */
    uint64_t mag = sum < 0 ? (uint64_t)-sum : (uint64_t)sum, odd = mag;
    int low = q;                                            /* the sum's lowest set bit: 2^low */
    for (; !(odd & 1); odd >>= 1)
        low++;
    info->f32_exact = odd < 1u << 24 && low >= -149;
    if (!ch->via_f32 || f->d != MT_F16)
        return mmaf_round(sum < 0, mag, q, f->d);
    MmafValue r = mmaf_decode(mmaf_round(sum < 0, mag, q, MT_F32), MT_F32);
    if (r.kind == MMAF_INF)
        return (r.sign ? dsign : 0) | 0x7c00;
    return r.sig ? mmaf_round(r.sign, r.sig, r.align - 23, MT_F16) : (uint64_t)r.sign << 15;
}

uint64_t mmaf_dot(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c, bool *unrecorded)
{
    static const MmafChoice ptxrun = { false, false, false };
    MmafSum sum, other;
    uint64_t d = mmaf_compute(f, a, b, c, &ptxrun, &sum);
    if (!unrecorded || *unrecorded)
        return d;
    /* Zero terms only, C -0 and every product -0 too: IEEE's sum would be -0. */
    MmafValue z = mmaf_decode(c, f->c);
    bool all_negative_zeros = z.kind == MMAF_NUM && !z.sig && z.sign;
    for (unsigned i = 0; i < f->k && all_negative_zeros; i++) {
        MmafValue x = mmaf_decode(a[i], f->a), y = mmaf_decode(b[i], f->b);
        all_negative_zeros = x.kind == MMAF_NUM && y.kind == MMAF_NUM && !(x.sig && y.sig) && (x.sign ^ y.sign);
    }
    static const MmafChoice lead = { true, false, false }, floor = { false, true, false }, via = { false, false, true };
    *unrecorded = all_negative_zeros
        || (f->c == MT_F16 && z.kind == MMAF_NUM && z.sig && z.sig < 1u << 10 && mmaf_compute(f, a, b, c, &lead, &other) != d)
        || (sum.top < MMAF_FLOOR && mmaf_compute(f, a, b, c, &floor, &other) != d)
        || (f->d == MT_F16 && !sum.f32_exact && mmaf_compute(f, a, b, c, &via, &other) != d);
    return d;
}
