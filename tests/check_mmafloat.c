/* check_mmafloat.c: the f16 / bf16 / tf32 tensor-core arithmetic (exec/mmafloat.c), one rule per
 * test, each expected value worked out by hand in its comment from the rule the H100 data shows
 * (../shared/hw/mma, scripts/mma_float_model.py): terms aligned to the largest exponent-field sum,
 * truncated 25 bits below it, added exactly, rounded once (f32 toward zero, f16 to nearest);
 * and where IEEE or another plausible model would give something else, that value is named. */
#include <math.h>

#include "testutil.h"

static const MmaForm f32_f16_k8 = { 16, 8, 8, MT_F16, MT_F16, MT_F32, MT_F32, 2, 1, 4, 4, 0, 0 };
static const MmaForm f16_f16_k8 = { 16, 8, 8, MT_F16, MT_F16, MT_F16, MT_F16, 2, 1, 2, 2, 0, 0 };
static const MmaForm f32_f16_k16 = { 16, 8, 16, MT_F16, MT_F16, MT_F32, MT_F32, 4, 2, 4, 4, 0, 0 };
static const MmaForm f32_bf16_k8 = { 16, 8, 8, MT_BF16, MT_BF16, MT_F32, MT_F32, 2, 1, 4, 4, 0, 0 };
static const MmaForm f32_tf32_k4 = { 16, 8, 4, MT_TF32, MT_TF32, MT_F32, MT_F32, 2, 1, 4, 4, 0, 0 };

/* D of a = {a0, a1, 0...}, b = {b0, b1, 0...} (zeros elsewhere) and c. */
static uint64_t dot2(const MmaForm *f, uint64_t a0, uint64_t b0, uint64_t a1, uint64_t b1, uint64_t c)
{
    uint64_t a[16] = { a0, a1 }, b[16] = { b0, b1 };
    return mmaf_dot(f, a, b, c, NULL);
}

/* Sixteen products 1 * 1 and C = 0.5: 16.5 exactly (0x41840000). */
START_TEST(exact_sums_stay_exact)
{
    uint64_t a[16], b[16];
    for (unsigned i = 0; i < 16; i++)
        a[i] = 0x3c00, b[i] = 0x3c00;
    ck_assert_uint_eq(mmaf_dot(&f32_f16_k16, a, b, 0x3f000000, NULL), 0x41840000);
}
END_TEST

/* C = 1 and the product 2^-12 * 1.5*2^-12 = 0.75 ulp of 1: f32 toward zero keeps 1 (0x3f800000;
 * to nearest would give 0x3f800001). C = 1 and -2^-13 * 2^-13 = -2^-26: the term is below 2^-25
 * (25 bits under C's exponent 0) and is truncated away: 1 (the exact 1 - 2^-26 toward zero would be
 * 0x3f7fffff). */
START_TEST(rounds_toward_zero_after_truncating_terms)
{
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x0c00, 0x0e00, 0, 0, 0x3f800000), 0x3f800000);
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x8800, 0x0800, 0, 0, 0x3f800000), 0x3f800000);
}
END_TEST

/* 1.5 * 1.5 - 1.5 * 1.5 + 2^-25: the products' exponent sum is 0 (not 1, their own exponent),
 * so C = 2^-25 stays (25 bits below 0) and D = 2^-25 (0x33000000); aligned at 1 it would be
 * truncated away, giving +0. */
START_TEST(aligns_to_the_exponent_sum)
{
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x3e00, 0x3e00, 0xbe00, 0x3e00, 0x33000000), 0x33000000);
}
END_TEST

/* A subnormal aligns by the smallest exponent: 2^-24 (f16 0x0001) * 1 aligns at -14, so C =
 * 2^-46 is under 2^-39 and truncated: D = 2^-24 (0x33800000); aligned at -24 it would stay:
 * 0x33800002. */
START_TEST(subnormals_align_by_the_smallest_exponent)
{
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x0001, 0x3c00, 0, 0, 0x28800000), 0x33800000);
}
END_TEST

/* f32 subnormal results, toward zero: bf16 2^-126 * 0.5 = 2^-127 (0x00400000); 1.5*2^-126 *
 * 2^-24 = 0.75 * 2^-149 becomes +0, its negative -0. */
START_TEST(subnormal_results)
{
    ck_assert_uint_eq(dot2(&f32_bf16_k8, 0x0080, 0x3f00, 0, 0, 0), 0x00400000);
    ck_assert_uint_eq(dot2(&f32_bf16_k8, 0x00c0, 0x3380, 0, 0, 0), 0);
    ck_assert_uint_eq(dot2(&f32_bf16_k8, 0x80c0, 0x3380, 0, 0, 0), 0x80000000);
}
END_TEST

/* f16 D: to nearest even from the truncated sum. 1 + 1.5*2^-11 (0.75 ulp): 0x3c01 (toward zero
 * 0x3c00); 1 + 2^-11 (a tie): 0x3c00; 1 + 3 * 2^-11 (1.5 ulp, a tie): 0x3c02. */
START_TEST(f16_results_round_to_nearest_even)
{
    ck_assert_uint_eq(dot2(&f16_f16_k8, 0x1200, 0x3c00, 0, 0, 0x3c00), 0x3c01);
    ck_assert_uint_eq(dot2(&f16_f16_k8, 0x1000, 0x3c00, 0, 0, 0x3c00), 0x3c00);
    ck_assert_uint_eq(dot2(&f16_f16_k8, 0x1000, 0x3c00, 0x1400, 0x3c00, 0x3c00), 0x3c02);
    /* 65504 + 65504 (f16's largest, twice) overflows to inf */
    ck_assert_uint_eq(dot2(&f16_f16_k8, 0x7bff, 0x3c00, 0, 0, 0x7bff), 0x7c00);
}
END_TEST

/* tf32 drops an operand's low 13 bits: 0x3f803000 is read as 0x3f802000 (rounding it to tf32
 * would give 0x3f804000). Past the f32 range (tf32's largest * 2): inf, not f32's largest
 * although the rounding is toward zero, as the H100 gave it (mma_f32_tf32_k4_024). */
START_TEST(tf32_truncates_operands_and_overflows_to_inf)
{
    ck_assert_uint_eq(dot2(&f32_tf32_k4, 0x3f803000, 0x3f800000, 0, 0, 0), 0x3f802000);
    ck_assert_uint_eq(dot2(&f32_tf32_k4, 0x7f7fe000, 0x40000000, 0, 0, 0), 0x7f800000);
    ck_assert_uint_eq(dot2(&f32_tf32_k4, 0x7f7fe000, 0xc0000000, 0, 0, 0), 0xff800000);
}
END_TEST

/* Special values: NaN anywhere, inf * 0 and +inf - inf give the canonical NaN; an infinite
 * product or C gives infinity of its sign. */
START_TEST(specials)
{
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x7e01, 0x3c00, 0, 0, 0), 0x7fffffff);
    ck_assert_uint_eq(dot2(&f16_f16_k8, 0x3c00, 0x3c00, 0, 0, 0xfd00), 0x7fff);
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x7c00, 0x0000, 0, 0, 0), 0x7fffffff);
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x7c00, 0x3c00, 0, 0, 0xff800000), 0x7fffffff);
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x7c00, 0xbc00, 0, 0, 0x3f800000), 0xff800000);
    ck_assert_uint_eq(dot2(&f16_f16_k8, 0x3c00, 0x3c00, 0, 0, 0x7c00), 0x7c00);
}
END_TEST

/* Zero sums are +0: 1 - 1 + 0, and only zeros with C = -0. */
START_TEST(zero_sums_are_plus_zero)
{
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x3c00, 0x3c00, 0xbc00, 0x3c00, 0), 0);
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x8000, 0x3c00, 0, 0, 0x80000000), 0);
}
END_TEST

/* ---- The differential check: exec/mmafloat.c as it was before mma.c decoded each element once per
 * mma (main's after h-rfloat: per element decoding, a bit loop for the rounding, the unrecorded
 * choices each recomputed in full), kept here word for word in its arithmetic as the reference the
 * faster mmaf_terms + mmaf_dot_terms must equal bit for bit, its unrecorded flag included. */
typedef struct RefFormat { unsigned frac, exp; } RefFormat;

static RefFormat ref_format(unsigned type)
{
    switch (type) {
    case MT_BF16: return (RefFormat){ 7, 8 };
    case MT_TF32: return (RefFormat){ 10, 8 };
    case MT_F32: return (RefFormat){ 23, 8 };
    default: return (RefFormat){ 10, 5 };
    }
}

enum { REF_NUM, REF_INF, REF_NAN };
typedef struct RefValue { unsigned kind, sign; uint32_t sig; int align; } RefValue;

static RefValue ref_decode(uint64_t raw, unsigned type)
{
    RefFormat f = ref_format(type);
    uint32_t v = (uint32_t)raw;
    if (type == MT_TF32)
        v >>= 13;
    uint32_t expmax = (1u << f.exp) - 1, frac = v & ((1u << f.frac) - 1), e = v >> f.frac & expmax;
    RefValue x = { REF_NUM, v >> (f.frac + f.exp) & 1, frac, 0 };
    int bias = (int)(expmax >> 1);
    if (e == expmax)
        x.kind = frac ? REF_NAN : REF_INF;
    else if (e == 0)
        x.align = 1 - bias;
    else
        x.sig |= 1u << f.frac, x.align = (int)e - bias;
    return x;
}

static uint64_t ref_round(bool neg, uint64_t mag, int q, unsigned type)
{
    RefFormat f = ref_format(type);
    int bias = (1 << (f.exp - 1)) - 1, emin = 1 - bias;
    uint64_t sign = (uint64_t)neg << (f.frac + f.exp), inf = sign | (uint64_t)((1u << f.exp) - 1) << f.frac;
    int top = q;
    for (uint64_t m = mag; m > 1; m >>= 1)
        top++;
    int grid = (top > emin ? top : emin) - (int)f.frac;
    int shift = grid - q;
    uint64_t r;
    if (shift <= 0) {
        r = mag << -shift;
    } else {
        r = shift < 64 ? mag >> shift : 0;
        if (type == MT_F16 && shift <= 64) {
            uint64_t rest = mag - (shift < 64 ? r << shift : 0), half = (uint64_t)1 << (shift - 1);
            if (rest > half || (rest == half && (r & 1)))
                r++;
        }
    }
    if (r >> (f.frac + 1))
        r >>= 1, grid++;
    int biased = grid + (int)f.frac + bias;
    if (biased >= (1 << f.exp) - 1)
        return inf;
    return sign | (((uint64_t)(biased - 1) << f.frac) + r);
}

/* The choices no H100 recording decides (docs/semantics.md, "mma"): ptxrun's are all false;
 * ref_dot tries the others when asked whether a result depends on them. */
typedef struct RefChoice {
    bool c_leading_bit;      /* a subnormal f16 C aligned by its leading bit, as an f32 C would be */
    bool floor;              /* the alignment exponent at least -133 (Khattak and Mikaitis's H100 model) */
    bool via_f32;            /* an f16 D rounded from the sum first rounded to f32 toward zero */
} RefChoice;

enum { REF_FLOOR = -133 };

/* What ref_dot needs to know of a sum to tell whether another choice could matter: the
 * alignment exponent before any floor (REF_FLOOR when there is none: a special or zero result)
 * and whether the sum is an f32 exactly. */
typedef struct RefSum {
    int top;
    bool f32_exact;
} RefSum;

/* D by the choices ch; *info as above. */
static uint64_t ref_compute(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c,
                             const RefChoice *ch, RefSum *info)
{
    info->top = REF_FLOOR, info->f32_exact = true;
    enum { ALIGN_BITS = 25 };                               /* terms truncated 25 bits below the top */
    RefFormat in = ref_format(f->a), out = ref_format(f->c);
    RefValue x[17], y[17];
    unsigned n = f->k, infs = 0;                            /* infs: bit 0 +inf met, bit 1 -inf */
    bool nan = false;
    for (unsigned i = 0; i < n; i++) {
        x[i] = ref_decode(a[i], f->a);
        y[i] = ref_decode(b[i], f->b);
        if (x[i].kind == REF_NAN || y[i].kind == REF_NAN)
            nan = true;
        else if (x[i].kind == REF_INF || y[i].kind == REF_INF) {
            const RefValue *other = x[i].kind == REF_INF ? &y[i] : &x[i];
            if (other->kind == REF_NUM && other->sig == 0)
                nan = true;                                 /* inf * 0 */
            else
                infs |= 1u << (x[i].sign ^ y[i].sign);
        }
    }
    RefValue z = ref_decode(c, f->c);
    if (z.kind == REF_NAN)
        nan = true;
    else if (z.kind == REF_INF)
        infs |= 1u << z.sign;
    RefFormat dfmt = ref_format(f->d);
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
    if (ch->floor && top < REF_FLOOR)
        top = REF_FLOOR;
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
        return ref_round(sum < 0, mag, q, f->d);
    RefValue r = ref_decode(ref_round(sum < 0, mag, q, MT_F32), MT_F32);
    if (r.kind == REF_INF)
        return (r.sign ? dsign : 0) | 0x7c00;
    return r.sig ? ref_round(r.sign, r.sig, r.align - 23, MT_F16) : (uint64_t)r.sign << 15;
}

static uint64_t ref_dot(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c, bool *unrecorded)
{
    static const RefChoice ptxrun = { false, false, false };
    RefSum sum, other;
    uint64_t d = ref_compute(f, a, b, c, &ptxrun, &sum);
    if (!unrecorded || *unrecorded)
        return d;
    /* Zero terms only, C -0 and every product -0 too: IEEE's sum would be -0. */
    RefValue z = ref_decode(c, f->c);
    bool all_negative_zeros = z.kind == REF_NUM && !z.sig && z.sign;
    for (unsigned i = 0; i < f->k && all_negative_zeros; i++) {
        RefValue x = ref_decode(a[i], f->a), y = ref_decode(b[i], f->b);
        all_negative_zeros = x.kind == REF_NUM && y.kind == REF_NUM && !(x.sig && y.sig) && (x.sign ^ y.sign);
    }
    static const RefChoice lead = { true, false, false }, floored = { false, true, false }, via = { false, false, true };
    *unrecorded = all_negative_zeros
        || (f->c == MT_F16 && z.kind == REF_NUM && z.sig && z.sig < 1u << 10 && ref_compute(f, a, b, c, &lead, &other) != d)
        || (sum.top < REF_FLOOR && ref_compute(f, a, b, c, &floored, &other) != d)
        || (f->d == MT_F16 && !sum.f32_exact && ref_compute(f, a, b, c, &via, &other) != d);
    return d;
}

static uint64_t rng_next(uint64_t *s)          /* xorshift64* */
{
    *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dull;
}

/* A random element of a format of frac and exp bits (the tf32 ones shifted up 13, with random
 * low bits), drawn to hit every case: NaNs (quiet, signalling, of any payload), infinities,
 * zeros, subnormals, the extremes, and numbers of exponents near `centre` so that terms meet
 * at one alignment (ties, carries, cancellation) as often as far apart. */
static uint64_t random_element(uint64_t *s, unsigned frac, unsigned exp, int centre, unsigned low)
{
    uint64_t r = rng_next(s), sign = (r >> 60 & 1) << (frac + exp), fmask = (1ull << frac) - 1;
    uint64_t emax = (1ull << exp) - 1, v;
    switch (r >> 61) {
    case 0: v = emax << frac | ((r & fmask) | (r & 1 ? 0 : 1)); break;            /* NaN, any payload */
    case 1: v = (r & 3) == 0 ? emax << frac : (r & 3) == 1 ? 0 : (r & 3) == 2 ? 1 : fmask; break;  /* inf, 0, subnormal ends */
    case 2: v = r & fmask; break;                                                   /* subnormal or 0 */
    case 3: v = (r >> 8 & 1 ? emax - 1 : 1) << frac | (r & fmask); break;           /* the largest, smallest normals */
    case 4: v = r & ((1ull << (frac + exp)) - 1); break;                            /* any */
    default: {                                                                      /* near the centre */
        int e = centre + (int)(r >> 20 & 7) - 3;
        e = e < 1 ? 1 : e > (int)emax - 1 ? (int)emax - 1 : e;
        v = (uint64_t)e << frac | (r >> 30 & 1 ? r & fmask : (r & 1) ? fmask : 0);
        break;
    }
    }
    v |= sign;
    return low ? v << low | (rng_next(s) & ((1ull << low) - 1)) : v;
}

/* count random D elements of form f: mmaf_dot and mmaf_terms + mmaf_dot_terms against ref_dot, D's
 * bits and whether an unrecorded choice would change them. */
static void differ(const MmaForm *f, unsigned count, uint64_t seed)
{
    unsigned afrac = f->a == MT_BF16 ? 7 : 10, aexp = f->a == MT_F16 ? 5 : 8, low = f->a == MT_TF32 ? 13 : 0;
    unsigned cfrac = f->c == MT_F32 ? 23 : 10, cexp = f->c == MT_F32 ? 8 : 5;
    int abias = (1 << (aexp - 1)) - 1, cbias = (1 << (cexp - 1)) - 1;
    uint64_t s = seed;
    unsigned mismatches = 0, seen[5] = { 0 };      /* D: NaN, infinity, zero, subnormal, normal */
    unsigned dfrac = f->d == MT_F32 ? 23 : 10, dexp = f->d == MT_F32 ? 8 : 5;
    for (unsigned t = 0; t < count; t++) {
        uint64_t a[16], b[16], r = rng_next(&s);
        int centre = abias + (int)(r % 9) - 4;
        if ((r >> 21 & 7) == 0)                    /* products near the smallest normal: subnormal sums */
            centre = (abias + 1) / 2 + (int)(r % 5) - 4;
        bool plain = (r >> 7 & 7) != 0;            /* 7 in 8: no NaN or infinity in A and B */
        bool wide = (r >> 21 & 7) == 1;            /* 1 in 8: each element near its own exponent */
        for (unsigned i = 0; i < f->k; i++) {
            int at = wide ? 1 + (int)(rng_next(&s) % (unsigned)(abias + abias / 2)) : centre;
            do
                a[i] = random_element(&s, afrac, aexp, at, low);
            while (plain && (a[i] >> low >> afrac & ((1ull << aexp) - 1)) == (1ull << aexp) - 1);
            do
                b[i] = random_element(&s, afrac, aexp, at, low);
            while (plain && (b[i] >> low >> afrac & ((1ull << aexp) - 1)) == (1ull << aexp) - 1);
        }
        if (r >> 9 & 1)                            /* cancellation: product 2i + 1 is -(product 2i) */
            for (unsigned i = 0; i + 1 < f->k; i += 2) {
                a[i + 1] = a[i] ^ (1ull << (afrac + aexp + low));
                b[i + 1] = b[i];
            }
        int cshift = (int)(r >> 10 & 63) - 32;     /* C near the products' exponent, or far */
        int ce = cbias + 2 * (centre - abias) + (r >> 16 & 1 ? cshift / 4 : cshift);
        uint64_t c = r >> 17 & 1 ? random_element(&s, cfrac, cexp, ce < 1 ? 1 : ce, 0)
                                 : ((uint64_t)(ce < 1 ? 1 : ce > (int)(2 * cbias) ? (int)(2 * cbias) : ce) << cfrac |
                                    (rng_next(&s) & ((1ull << cfrac) - 1))) | (r >> 18 & 1) << (cfrac + cexp);
        if (plain && (c >> cfrac & ((1u << cexp) - 1)) == (1u << cexp) - 1 && (r >> 20 & 1))
            c ^= 1ull << (cfrac + cexp - 1);       /* mostly a finite C there too */
        if (f->c == MT_F32 && (r >> 19 & 3) == 0)
            c = rng_next(&s) & 0xffffffffu;       /* any f32 */
        bool want_u = false, got_u = false, terms_u = false;
        uint64_t want = ref_dot(f, a, b, c, &want_u), de = want >> dfrac & ((1u << dexp) - 1);
        seen[de == (1u << dexp) - 1 ? (want & ((1ull << dfrac) - 1) ? 0 : 1) : de ? 4 : want << 1 >> 1 ? 3 : 2]++;
        MmafTerm x[16], y[16];
        mmaf_terms(f->a, a, f->k, x);
        mmaf_terms(f->b, b, f->k, y);
        uint64_t got = mmaf_dot(f, a, b, c, &got_u), got_terms = mmaf_dot_terms(f, x, y, c, &terms_u);
        if ((got != want || got_terms != want || got_u != want_u || terms_u != want_u) && mismatches++ < 5) {
            fprintf(stderr, "k%u a %u c %u: D 0x%llx, from terms 0x%llx, reference 0x%llx; unrecorded %d %d, "
                    "reference %d; a, b:", f->k, f->a, f->c, (unsigned long long)got, (unsigned long long)got_terms,
                    (unsigned long long)want, got_u, terms_u, want_u);
            for (unsigned i = 0; i < f->k; i++)
                fprintf(stderr, " %llx*%llx", (unsigned long long)a[i], (unsigned long long)b[i]);
            fprintf(stderr, " c %llx\n", (unsigned long long)c);
        }
    }
    ck_assert_uint_eq(mismatches, 0);
    /* every kind of result met, normals most (f16 products never make a subnormal f32) */
    for (unsigned i = 0; i < 5; i++)
        if (i != 3 || f->d == MT_F16 || f->a != MT_F16)
            ck_assert_uint_gt(seen[i], i == 4 ? count / 4 : i == 3 ? count / 10000 : count / 1000);
}

/* 8 forms x 150,000 elements: 1.2 million D elements, each compared bit for bit. */
enum { DIFFER_COUNT = 150000 };
static const MmaForm f16_f16_k16 = { 16, 8, 16, MT_F16, MT_F16, MT_F16, MT_F16, 4, 2, 2, 2, 0, 0 };
static const MmaForm f32_bf16_k16 = { 16, 8, 16, MT_BF16, MT_BF16, MT_F32, MT_F32, 4, 2, 4, 4, 0, 0 };
static const MmaForm f32_tf32_k8 = { 16, 8, 8, MT_TF32, MT_TF32, MT_F32, MT_F32, 4, 2, 4, 4, 0, 0 };
START_TEST(same_bits_as_before_f32_f16) { differ(&f32_f16_k8, DIFFER_COUNT, 1); differ(&f32_f16_k16, DIFFER_COUNT, 2); }
END_TEST
START_TEST(same_bits_as_before_f16_f16) { differ(&f16_f16_k8, DIFFER_COUNT, 3); differ(&f16_f16_k16, DIFFER_COUNT, 4); }
END_TEST
START_TEST(same_bits_as_before_bf16) { differ(&f32_bf16_k8, DIFFER_COUNT, 5); differ(&f32_bf16_k16, DIFFER_COUNT, 6); }
END_TEST
START_TEST(same_bits_as_before_tf32) { differ(&f32_tf32_k4, DIFFER_COUNT, 7); differ(&f32_tf32_k8, DIFFER_COUNT, 8); }
END_TEST

/* Elements near the bottom of the range (every element its own exponent, C too), where the choices
 * no recording decides meet: mmaf_dot_terms's unrecorded flag and bits against ref_dot's. */
static unsigned differ_low(const MmaForm *f, unsigned count, uint64_t seed)
{
    unsigned afrac = f->a == MT_BF16 ? 7 : 10, aexp = f->a == MT_F16 ? 5 : 8, low = f->a == MT_TF32 ? 13 : 0;
    unsigned cfrac = f->c == MT_F32 ? 23 : 10, cexp = f->c == MT_F32 ? 8 : 5;
    int abias = (1 << (aexp - 1)) - 1, cbias = (1 << (cexp - 1)) - 1;
    uint64_t s = seed;
    unsigned mismatches = 0, flagged = 0;
    for (unsigned t = 0; t < count; t++) {
        uint64_t a[16], b[16], r = rng_next(&s);
        int top = 2 + (int)(r % (unsigned)abias);  /* exponent fields 1..top: products below 2^(2 top - 2 bias) */
        for (unsigned i = 0; i < f->k; i++) {
            a[i] = random_element(&s, afrac, aexp, 1 + (int)(rng_next(&s) % (unsigned)top), low);
            b[i] = random_element(&s, afrac, aexp, 1 + (int)(rng_next(&s) % (unsigned)top), low);
        }
        int ce = 1 + (int)(rng_next(&s) % (unsigned)cbias);
        uint64_t c = r >> 40 & 1 ? rng_next(&s) & (r >> 41 & 1 ? 0x803ffu : 0x3ffu) : random_element(&s, cfrac, cexp, ce, 0);
        bool want_u = false, got_u = false;
        MmafTerm x[16], y[16];
        mmaf_terms(f->a, a, f->k, x);
        mmaf_terms(f->b, b, f->k, y);
        uint64_t want = ref_dot(f, a, b, c, &want_u), got = mmaf_dot_terms(f, x, y, c, &got_u);
        flagged += want_u;
        if ((got != want || got_u != want_u) && mismatches++ < 5)
            fprintf(stderr, "low k%u a %u c %u: D 0x%llx unrecorded %d, reference 0x%llx %d\n", f->k, f->a, f->c,
                    (unsigned long long)got, got_u, (unsigned long long)want, want_u);
    }
    ck_assert_uint_eq(mismatches, 0);
    return flagged;
}

START_TEST(same_unrecorded_as_before)
{
    static const MmaForm *forms[8] = { &f32_f16_k8, &f32_f16_k16, &f16_f16_k8, &f16_f16_k16,
                                       &f32_bf16_k8, &f32_bf16_k16, &f32_tf32_k4, &f32_tf32_k8 };
    unsigned flagged = 0;                          /* elements the reference says are unrecorded */
    for (unsigned i = 0; i < 8; i++)
        flagged += differ_low(forms[i], DIFFER_COUNT / 2, 11 + i);
    ck_assert_uint_gt(flagged, 10);                /* 28 with these seeds: the flag was compared */
}
END_TEST

/* exec/mmafp8.c's mma8_dot as it was (commit fac9598c): each fp8 element to f16, two HMMA by
 * register halves (ref_dot above), then C added; the reference for mma8_terms + mma8_dot_terms. */
static uint64_t ref8_to_f16(uint64_t raw, unsigned type)
{
    uint32_t x = (uint32_t)raw & 0xff, sign = (x & 0x80) << 8;
    if (type == MT_E5M2)
        return (uint64_t)x << 8;
    uint32_t e = x >> 3 & 15, m = x & 7;
    if (e == 15 && m == 7)
        return 0x7fff;
    if (e == 0) {
        if (m == 0)
            return sign;
        unsigned p = m >= 4 ? 2 : m >= 2 ? 1 : 0;
        return sign | (p + 6) << 10 | (m - (1u << p)) << (10 - p);
    }
    return sign | (e + 8) << 10 | m << 7;
}

static uint64_t ref8_dot(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c)
{
    MmaForm h = { .m = 16, .n = 8, .k = (uint16_t)(f->k / 2), .a = MT_F16, .b = MT_F16, .c = f->c, .d = f->d };
    uint64_t ha[2][16], hb[2][16];
    unsigned n[2] = { 0, 0 };
    for (unsigned k = 0; k < f->k && k < 32; k++) {
        unsigned half = (k & 3) >= 2;
        ha[half][n[half]] = ref8_to_f16(a[k], f->a);
        hb[half][n[half]++] = ref8_to_f16(b[k], f->b);
    }
    uint64_t d1 = ref_dot(&h, ha[0], hb[0], 0, NULL);
    uint64_t d2 = ref_dot(&h, ha[1], hb[1], d1, NULL);
    if (f->d == MT_F16)
        return half_op(OP_ADD, TYPE_F16, 0, (uint32_t)d2, (uint32_t)c, 0);
    uint32_t ua = (uint32_t)d2, ub = (uint32_t)c, ur;
    float fa, fb, fr;
    memcpy(&fa, &ua, sizeof fa);
    memcpy(&fb, &ub, sizeof fb);
    fr = fa + fb;
    if (isnan(fr))
        return 0x7fffffff;
    memcpy(&ur, &fr, sizeof ur);
    return ur;
}

/* count random D elements of each fp8 form (k32 and k16, e4m3 and e5m2 in all four pairings,
 * f32 and f16 C/D): mma8_dot and mma8_terms + mma8_dot_terms against ref8_dot. Elements: any
 * byte, or numbers of exponents near one another (alignment, cancellation). */
START_TEST(same_bits_as_before_fp8)
{
    static const uint8_t types[2] = { MT_E4M3, MT_E5M2 };
    uint64_t s = 99;
    unsigned mismatches = 0, finite = 0, total = 0;
    for (unsigned form = 0; form < 16; form++) {
        unsigned k = form & 1 ? 16 : 32, ta = types[form >> 1 & 1], tb = types[form >> 2 & 1];
        unsigned cd = form & 8 ? MT_F16 : MT_F32;
        MmaForm f = { 16, 8, (uint16_t)k, (uint8_t)ta, (uint8_t)tb, (uint8_t)cd, (uint8_t)cd, 4, 2, 4, 4, 0, 0 };
        for (unsigned t = 0; t < DIFFER_COUNT / 8; t++) {
            uint64_t a[32], b[32], r = rng_next(&s);
            unsigned centre = (unsigned)(r % 10) + 3;                  /* an exponent field, both types */
            bool any = r >> 8 & 1;
            for (unsigned i = 0; i < k; i++) {
                uint64_t u = rng_next(&s), v = rng_next(&s);
                a[i] = any && (u >> 40 & 7) == 0 ? u & 0xff
                     : ta == MT_E4M3 ? (u >> 8 & 0x80) | (centre + (u >> 12 & 3) - 1) << 3 | (u & 7)
                                     : (u >> 8 & 0x80) | (centre + (u >> 12 & 3) - 1) << 2 | (u & 3);
                b[i] = any && (v >> 40 & 7) == 0 ? v & 0xff
                     : tb == MT_E4M3 ? (v >> 8 & 0x80) | (centre + (v >> 12 & 3) - 1) << 3 | (v & 7)
                                     : (v >> 8 & 0x80) | (centre + (v >> 12 & 3) - 1) << 2 | (v & 3);
                if ((r >> 9 & 1) && (i & 1))           /* cancellation: product i = -(product i - 1) */
                    a[i] = a[i - 1] ^ 0x80, b[i] = b[i - 1];
            }
            uint64_t c = rng_next(&s);
            c = cd == MT_F16 ? (r >> 10 & 1 ? c & 0xffff : (c & 0x83ff) | (uint64_t)(r >> 11 & 31) << 10)
                             : (r >> 10 & 1 ? c & 0xffffffffu : (c & 0x807fffffu) | (uint64_t)(100 + (r >> 11 & 63)) << 23);
            uint64_t want = ref8_dot(&f, a, b, c);
            MmafTerm x[32], y[32];
            mma8_terms(f.a, a, k, x);
            mma8_terms(f.b, b, k, y);
            uint64_t got = mma8_dot(&f, a, b, c), got_terms = mma8_dot_terms(&f, x, y, c);
            unsigned ebits = cd == MT_F16 ? 0x7c00 : 0x7f800000;
            finite += (want & ebits) != ebits && (want & ebits) != 0;
            total++;
            if ((got != want || got_terms != want) && mismatches++ < 5)
                fprintf(stderr, "fp8 form %u: D 0x%llx, from terms 0x%llx, reference 0x%llx\n", form,
                        (unsigned long long)got, (unsigned long long)got_terms, (unsigned long long)want);
        }
    }
    ck_assert_uint_eq(mismatches, 0);
    ck_assert_uint_gt(finite, total / 2);              /* mostly normal results, not only NaNs */
}
END_TEST

/* D of dot2's operands, and whether mmaf_dot says another unrecorded choice gives other bits. */
static uint64_t dot2u(const MmaForm *f, uint64_t a0, uint64_t b0, uint64_t a1, uint64_t b1, uint64_t c, bool *u)
{
    uint64_t a[16] = { a0, a1 }, b[16] = { b0, b1 };
    *u = false;
    return mmaf_dot(f, a, b, c, u);
}

/* The cases no recording decides are named. Every product -0 (-0 * 0) and C = -0: ptxrun +0,
 * IEEE's sum -0; with C = +0 or a +0 product there is no other answer. */
START_TEST(negative_zeros_only_are_unrecorded)
{
    uint64_t a[8], b[8];
    bool u = false;
    for (unsigned i = 0; i < 8; i++)
        a[i] = 0x8000, b[i] = 0;
    ck_assert_uint_eq(mmaf_dot(&f32_f16_k8, a, b, 0x80000000, &u), 0);
    ck_assert(u);
    u = false;
    ck_assert_uint_eq(mmaf_dot(&f32_f16_k8, a, b, 0, &u), 0);
    ck_assert(!u);
    ck_assert_uint_eq(dot2u(&f32_f16_k8, 0x8000, 0, 0, 0, 0x80000000, &u), 0);   /* 0 * 0 products: +0 */
    ck_assert(!u);
}
END_TEST

/* f16 C = 2^-24 (subnormal), products 2^-12 * 2^-13 = 2^-25 and -2^-24 * 2^-24 = -2^-48. C aligned
 * at -14 (ptxrun): the top is -14, -2^-48 is under 2^-39 and dropped, the sum 1.5 * 2^-24 is a tie
 * of f16's subnormal grid, to even: 2^-23 (0x0002). C aligned by its leading bit (-24, as an f32 C
 * would be; Khattak and Mikaitis's model): -2^-48 stays, the sum is under the tie: 0x0001. */
START_TEST(subnormal_f16_c_is_unrecorded)
{
    bool u;
    ck_assert_uint_eq(dot2u(&f16_f16_k8, 0x0c00, 0x0800, 0x8001, 0x0001, 0x0001, &u), 0x0002);
    ck_assert(u);
    ck_assert_uint_eq(dot2u(&f16_f16_k8, 0x0c00, 0x0800, 0, 0, 0x0001, &u), 0x0002);   /* no -2^-48 */
    ck_assert(!u);
}
END_TEST

/* bf16 2^-70 * 2^-70 = 2^-140 and -2^-80 * 2^-80 = -2^-160, C = 0: aligned at -140 both stay; the
 * sum 2^-140 - 2^-160 toward zero on f32's subnormal grid (2^-149) is 511 * 2^-149 (0x1ff). With
 * the alignment exponent raised to -133 (Khattak and Mikaitis's H100 model) -2^-160 is under
 * 2^-158 and dropped: 2^-140 (0x200). */
START_TEST(terms_below_the_floor_are_unrecorded)
{
    bool u;
    ck_assert_uint_eq(dot2u(&f32_bf16_k8, 0x1c80, 0x1c80, 0x9780, 0x1780, 0, &u), 0x1ff);
    ck_assert(u);
    ck_assert_uint_eq(dot2u(&f32_bf16_k8, 0x1c80, 0x1c80, 0, 0, 0, &u), 0x200);
    ck_assert(!u);
}
END_TEST

/* f16 C = 1, products 2^-11 * 1 and 2^-12 * 2^-12: the sum 1 + 2^-11 + 2^-24 is above the tie
 * between 1 and 1 + 2^-10, so to nearest: 0x3c01; first toward zero to f32 (ulp 2^-23) it would
 * be the tie 1 + 2^-11, to even: 0x3c00. Without the 2^-24 both give 0x3c00. */
START_TEST(f16_d_beyond_f32_precision_is_unrecorded)
{
    bool u;
    ck_assert_uint_eq(dot2u(&f16_f16_k8, 0x1000, 0x3c00, 0x0c00, 0x0c00, 0x3c00, &u), 0x3c01);
    ck_assert(u);
    ck_assert_uint_eq(dot2u(&f16_f16_k8, 0x1000, 0x3c00, 0, 0, 0x3c00, &u), 0x3c00);
    ck_assert(!u);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mmafloat");
    TCase *tc = tcase_create("mmafloat");
    tcase_add_test(tc, exact_sums_stay_exact);
    tcase_add_test(tc, rounds_toward_zero_after_truncating_terms);
    tcase_add_test(tc, aligns_to_the_exponent_sum);
    tcase_add_test(tc, subnormals_align_by_the_smallest_exponent);
    tcase_add_test(tc, subnormal_results);
    tcase_add_test(tc, f16_results_round_to_nearest_even);
    tcase_add_test(tc, tf32_truncates_operands_and_overflows_to_inf);
    tcase_add_test(tc, specials);
    tcase_add_test(tc, zero_sums_are_plus_zero);
    tcase_set_timeout(tc, 120);                     /* the differential checks, under sanitizers too */
    tcase_add_test(tc, same_bits_as_before_f32_f16);
    tcase_add_test(tc, same_bits_as_before_f16_f16);
    tcase_add_test(tc, same_bits_as_before_bf16);
    tcase_add_test(tc, same_bits_as_before_tf32);
    tcase_add_test(tc, same_bits_as_before_fp8);
    tcase_add_test(tc, same_unrecorded_as_before);
    tcase_add_test(tc, negative_zeros_only_are_unrecorded);
    tcase_add_test(tc, subnormal_f16_c_is_unrecorded);
    tcase_add_test(tc, terms_below_the_floor_are_unrecorded);
    tcase_add_test(tc, f16_d_beyond_f32_precision_is_unrecorded);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
