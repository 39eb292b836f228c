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
 * MmaForm of these types (mma.c refuses the others).
 *
 * Speed: mma.c decodes each element of A's rows and B's columns once per mma (mmaf_terms) and
 * works out every D element from those terms (mmaf_dot_terms, a branch-free sum; the other
 * choices recomputed only in the rare cases where they can matter); mmaf_dot, one element from
 * raw bits, is the same two steps. */
#include "tensor.h"

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

enum { MMAF_NUM, MMAF_INF, MMAF_NAN };                 /* MmafTerm.kind */
/* The align of a zero and of inf and NaN: far below and far above every number's (-126..127), so
 * that a sum of two aligns tells what met: below MMAF_NONE, a zero (or two); from MMAF_ODD up,
 * an infinity or NaN; otherwise two numbers (-252..254). */
enum { MMAF_ZERO = -512, MMAF_SPECIAL = 1024, MMAF_NONE = -384, MMAF_ODD = 512 };

/* One operand, decoded (MmafTerm, tensor.h): its value is (-1)^sign * sig * 2^(align - frac) with
 * align the exponent the tensor core aligns by (the exponent field, unbiased; a subnormal's is
 * the smallest normal's); sig is 0 for a zero (align MMAF_ZERO) and for inf and NaN (align
 * MMAF_SPECIAL). */
static MmafTerm mmaf_decode(uint32_t v, MmafFormat f, unsigned drop)
{
    v >>= drop;                                             /* tf32: the low 13 bits are dropped */
    uint32_t expmax = (1u << f.exp) - 1, frac = v & ((1u << f.frac) - 1), e = v >> f.frac & expmax;
    MmafTerm x = { frac, 0, (uint8_t)(v >> (f.frac + f.exp) & 1), MMAF_NUM };
    int bias = (int)(expmax >> 1);
    if (e == expmax)
        x.kind = frac ? MMAF_NAN : MMAF_INF, x.sig = 0, x.align = MMAF_SPECIAL;
    else if (e == 0)
        x.align = (int16_t)(frac ? 1 - bias : MMAF_ZERO);
    else
        x.sig |= 1u << f.frac, x.align = (int16_t)((int)e - bias);
    return x;
}

void mmaf_terms(unsigned type, const uint64_t *raw, unsigned count, MmafTerm *out)
{
    MmafFormat f = mmaf_format(type);
    unsigned drop = type == MT_TF32 ? 13 : 0;
    for (unsigned i = 0; i < count; i++)
        out[i] = mmaf_decode((uint32_t)raw[i], f, drop);
}

/* (-1)^neg * mag * 2^q (mag > 0) rounded to f32 toward zero or to f16 to nearest even; beyond
 * the range: infinity. */
static uint64_t mmaf_round(bool neg, uint64_t mag, int q, unsigned type)
{
    MmafFormat f = mmaf_format(type);
    int bias = (1 << (f.exp - 1)) - 1, emin = 1 - bias;
    uint64_t sign = (uint64_t)neg << (f.frac + f.exp), inf = sign | (uint64_t)((1u << f.exp) - 1) << f.frac;
    int top = q + 63 - __builtin_clzll(mag);                /* floor(log2 |x|) */
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

/* What NaN and infinity operands make D (the rules above): 0 when they take no part, else D's
 * bits. infs: bit 0 +inf met, bit 1 -inf. */
static uint64_t mmaf_special(const MmaForm *f, const MmafTerm *x, const MmafTerm *y, MmafTerm z)
{
    unsigned infs = 0;
    bool nan = false;
    for (unsigned i = 0; i < f->k; i++) {
        if (x[i].kind == MMAF_NAN || y[i].kind == MMAF_NAN)
            nan = true;
        else if (x[i].kind == MMAF_INF || y[i].kind == MMAF_INF) {
            const MmafTerm *other = x[i].kind == MMAF_INF ? &y[i] : &x[i];
            if (other->kind == MMAF_NUM && other->sig == 0)
                nan = true;                                 /* inf * 0 */
            else
                infs |= 1u << (x[i].sign ^ y[i].sign);
        }
    }
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
    return 0;
}

/* The choices no H100 recording decides (docs/semantics.md, "mma"): ptxrun's are the rules
 * above; the others are a subnormal f16 C aligned by its leading bit (as an f32 C would be), the
 * alignment exponent at least MMAF_FLOOR (Khattak and Mikaitis's H100 model) and an f16 D
 * rounded from the sum first rounded to f32 toward zero. mmaf_dot_terms tries one only where it
 * can give other bits. */
enum { MMAF_FLOOR = -133 };

/* D of the numbers x, y, z (no NaN or infinity) with every term aligned to 2^top, for the other
 * choices: the rules above, any shifts. */
static uint64_t mmaf_sum_at(const MmaForm *f, const MmafTerm *x, const MmafTerm *y, MmafTerm z, int top)
{
    int infrac = f->a == MT_BF16 ? 7 : 10, outfrac = f->c == MT_F32 ? 23 : 10, q = top - 25;
    int64_t sum = 0;
    for (unsigned i = 0; i <= f->k; i++) {
        uint64_t sig = i < f->k ? (uint64_t)x[i].sig * y[i].sig : z.sig;
        int e = i < f->k ? x[i].align + y[i].align - 2 * infrac : z.align - outfrac;
        unsigned sign = i < f->k ? x[i].sign ^ y[i].sign : z.sign;
        if (!sig)
            continue;                                       /* a zero term takes no part */
        int shift = e - q;                   /* <= 25 (a subnormal f16 C by its leading bit): below 2^36 */
        uint64_t t = shift >= 0 ? sig << shift : -shift < 64 ? sig >> -shift : 0;
        sum += sign ? -(int64_t)t : (int64_t)t;
    }
    return sum ? mmaf_round(sum < 0, sum < 0 ? (uint64_t)-sum : (uint64_t)sum, q, f->d) : 0;
}

/* Whether another choice gives other bits than d, ptxrun's D of the numbers x, y, z, whose terms
 * aligned to 2^top summed to (-1)^neg * mag * 2^(top - 25). Each recomputation runs only where
 * its choice can matter: a subnormal f16 C, a top below MMAF_FLOOR, an f16 D from a sum that is
 * not exactly an f32. Out of line: mmaf_dot_terms's loop stays as tight as without it. */
__attribute__((noinline)) static bool mmaf_unrecorded(const MmaForm *f, const MmafTerm *x, const MmafTerm *y, MmafTerm z, int top,
                            bool neg, uint64_t mag, uint64_t d)
{
    if (f->c == MT_F16 && z.sig && z.sig < 1u << 10) {      /* C subnormal: top by its leading bit */
        int lead = z.align - (10 - (31 - __builtin_clz(z.sig)));
        for (unsigned i = 0; i < f->k; i++)
            if (x[i].sig && y[i].sig && x[i].align + y[i].align > lead)
                lead = x[i].align + y[i].align;
        if (mmaf_sum_at(f, x, y, z, lead) != d)
            return true;
    }
    if (top < MMAF_FLOOR && mmaf_sum_at(f, x, y, z, MMAF_FLOOR) != d)
        return true;
    if (f->d != MT_F16 || !mag || ((mag >> __builtin_ctzll(mag)) < 1u << 24 && top - 25 + __builtin_ctzll(mag) >= -149))
        return false;                                       /* f32 D, or the sum exactly an f32 */
    MmafTerm r = mmaf_decode((uint32_t)mmaf_round(neg, mag, top - 25, MT_F32), (MmafFormat){ 23, 8 }, 0);
    uint64_t via = r.kind == MMAF_INF ? (uint64_t)r.sign << 15 | 0x7c00
                 : r.sig ? mmaf_round(r.sign, r.sig, r.align - 23, MT_F16) : (uint64_t)r.sign << 15;
    return via != d;
}

uint64_t mmaf_dot_terms(const MmaForm *f, const MmafTerm *x, const MmafTerm *y, uint64_t c, bool *unrecorded)
{
    enum { ALIGN_BITS = 25, HEAD = 11 };                    /* terms truncated 25 bits below the top */
    unsigned n = f->k;
    MmafFormat out = f->c == MT_F32 ? (MmafFormat){ 23, 8 } : (MmafFormat){ 10, 5 };
    MmafTerm z = mmaf_decode((uint32_t)c, out, 0);
    /* The products (sig * 2^(e - 2 frac), exactly) and the largest alignment exponent over the
     * non-zero terms (zeros take no part: their e is below every number's). */
    uint64_t sig[17];
    int e[17], top = z.align;
    for (unsigned i = 0; i < n; i++) {
        sig[i] = (uint64_t)x[i].sig * y[i].sig;
        e[i] = x[i].align + y[i].align;
        top = e[i] > top ? e[i] : top;
    }
    if (top >= MMAF_ODD)
        return mmaf_special(f, x, y, z);                    /* not 0: a NaN or infinity met */
    if (top < MMAF_NONE) {                                  /* no non-zero term: +0 */
        if (unrecorded && !*unrecorded && z.sign) {        /* IEEE's sum of -0 terms only: -0 */
            unsigned negative = 1;
            for (unsigned i = 0; i < n; i++)
                negative &= x[i].sign ^ y[i].sign;
            *unrecorded = negative;
        }
        return 0;
    }
    /* Term i is sig * 2^(e - 2 frac) truncated to a multiple of 2^q, q = top - 25: sig << HEAD
     * (below 2^33) shifted right by HEAD - (e - 2 frac - q), which is >= 0 (e <= top, frac >= 7);
     * a zero's, far right, is 0. */
    int q = top - ALIGN_BITS, base = HEAD + 2 * (f->a == MT_BF16 ? 7 : 10) + q;
    int64_t sum = 0;
    for (unsigned i = 0; i < n; i++) {
        int right = base - e[i];
        right = right > 63 ? 63 : right;
        int64_t t = (int64_t)((sig[i] << HEAD) >> right), s = x[i].sign ^ y[i].sign;
        sum += (t ^ -s) + s;                                /* t, or -t for a negative term */
    }
    if (z.sig) {
        int shift = z.align - (int)out.frac - q;
        uint64_t t = shift >= 0 ? (uint64_t)z.sig << shift : -shift < 64 ? (uint64_t)z.sig >> -shift : 0;
        sum += z.sign ? -(int64_t)t : (int64_t)t;
    }
    uint64_t mag = sum < 0 ? (uint64_t)-sum : (uint64_t)sum;
    uint64_t d = sum ? mmaf_round(sum < 0, mag, q, f->d) : 0;  /* an exact zero sum: +0 */
    if (unrecorded && !*unrecorded && (f->c == MT_F16 || f->d == MT_F16 || top < MMAF_FLOOR))
        *unrecorded = mmaf_unrecorded(f, x, y, z, top, sum < 0, mag, d);   /* f32 C, D: the floor only */
    return d;
}

uint64_t mmaf_dot(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c, bool *unrecorded)
{
    MmafTerm x[17], y[17];
    mmaf_terms(f->a, a, f->k, x);
    mmaf_terms(f->b, b, f->k, y);
    return mmaf_dot_terms(f, x, y, c, unrecorded);
}
