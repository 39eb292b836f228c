/* check_half.c: exec/half.c's narrow formats against computations that share nothing with it.
 * f16 add, sub and mul against the compiler's _Float16 (GCC and Clang on x86-64: the operation in
 * float, then one correct rounding to binary16, which is the exact result's rounding because float
 * has more than 2 * 11 + 2 bits); fma of f16 and bf16 against exact integer arithmetic (the
 * operands as integers times a power of two, the exact a * b + c in 128 bits, rounded by hand);
 * bf16 add, sub and mul against float arithmetic rounded to bf16 by bit manipulation (again
 * float keeps more than 2 * 8 + 2 bits). For each narrow type a case whose value would differ if
 * it were computed in f32 and kept or rounded a second time: those run through the executor. */
#include <math.h>

#include "testutil.h"

__extension__ typedef __int128 Int128;
__extension__ typedef _Float16 Half;

/* ck_assert_msg only where the condition fails: libcheck records every call it makes, which in
 * loops of a million cases costs more than the cases. */
#define EXPECT(cond, ...) do { if (!(cond)) ck_assert_msg(cond, __VA_ARGS__); } while (0)

/* A small deterministic generator (xorshift64). */
static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static uint16_t half_bits(Half h)
{
    uint16_t b;
    memcpy(&b, &h, sizeof b);
    return b;
}

static Half half_of(uint16_t b)
{
    Half h;
    memcpy(&h, &b, sizeof h);
    return h;
}

static uint32_t float_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static float float_of(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* bf16 as the top half of a float; a float rounded to bf16, to nearest even, on its bits. */
static float bf16_value(uint16_t b)
{
    return float_of((uint32_t)b << 16);
}

static uint16_t bf16_round(float f)
{
    uint32_t u = float_bits(f);
    if (isnan(f))
        return 0x7fff;
    return (uint16_t)((u + 0x7fff + (u >> 16 & 1)) >> 16);   /* carries into the exponent, up to inf */
}

/* A finite f16 or bf16 (frac fraction bits, exp exponent bits) as sign * mantissa * 2^shift. */
static void split(uint16_t v, unsigned frac, unsigned exp, Int128 *mant, int *shift)
{
    int bias = (1 << (exp - 1)) - 1;
    unsigned e = v >> frac & ((1u << exp) - 1);
    Int128 m = v & ((1u << frac) - 1);
    if (e)
        m |= (Int128)1 << frac;
    *shift = (e ? (int)e : 1) - bias - (int)frac;
    *mant = (v >> (frac + exp)) ? -m : m;
}

/* n * 2^-scale rounded to nearest even into the format: a hand-written rounding of an exact
 * integer (overflow to infinity). */
static uint16_t round_exact(Int128 n, int scale, unsigned frac, unsigned exp)
{
    int bias = (1 << (exp - 1)) - 1, emin = 1 - bias;
    uint16_t sign = n < 0 ? (uint16_t)(1u << (frac + exp)) : 0;
    Int128 a = n < 0 ? -n : n;
    if (a == 0)
        return sign;
    int msb = 127;
    while (!(a >> msb & 1))
        msb--;
    int e = msb - scale < emin ? emin : msb - scale;
    int drop = e - (int)frac + scale;                      /* bits of a below the format's last */
    Int128 q = a;
    if (drop > 0) {
        Int128 rest = a & (((Int128)1 << drop) - 1), half = (Int128)1 << (drop - 1);
        q = a >> drop;
        if (rest > half || (rest == half && (q & 1)))
            q++;
    } else {
        q = a << -drop;
    }
    if (q >> (frac + 1)) {
        q >>= 1;
        e++;
    }
    if (e > bias)
        return sign | (uint16_t)(((1u << exp) - 1) << frac);
    if (!(q >> frac))
        return sign | (uint16_t)q;                         /* subnormal */
    return sign | (uint16_t)((unsigned)(e + bias) << frac | (unsigned)(q & ((1u << frac) - 1)));
}

/* The exact a * b + c of three finite values, rounded once. */
static uint16_t exact_fma(uint16_t a, uint16_t b, uint16_t c, unsigned frac, unsigned exp)
{
    Int128 ma, mb, mc;
    int sa, sb, sc;
    split(a, frac, exp, &ma, &sa);
    split(b, frac, exp, &mb, &sb);
    split(c, frac, exp, &mc, &sc);
    Int128 p = ma * mb;
    int sp = sa + sb, low = sp < sc ? sp : sc;             /* common scale: the smaller exponent */
    Int128 n = p * ((Int128)1 << (sp - low)) + mc * ((Int128)1 << (sc - low));   /* no shift of a negative */
    return round_exact(n, -low, frac, exp);
}

static bool f16_nan(uint16_t v)
{
    return (v & 0x7fff) > 0x7c00;
}

static bool finite16(uint16_t v, unsigned frac)
{
    return (unsigned)(v & 0x7fff) >> frac != (frac == 10 ? 0x1fu : 0xffu);
}

START_TEST(f16_add_sub_mul_against_float16)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 1 << 21; i++) {
        uint64_t r = next(&s);
        uint16_t a = (uint16_t)r, b = (uint16_t)(r >> 16);
        Half x = half_of(a), y = half_of(b);
        Half sum = x + y, diff = x - y, prod = x * y;
        uint16_t want[3] = { half_bits(sum), half_bits(diff), half_bits(prod) };
        int ops[3] = { OP_ADD, OP_SUB, OP_MUL };
        for (int k = 0; k < 3; k++) {
            uint32_t got = half_op(ops[k], TYPE_F16, 0, a, b, 0);
            if (f16_nan(want[k]))
                EXPECT(got == 0x7fff, "op %d of %04x, %04x: %04x, want the canonical NaN", ops[k], a, b, got);
            else
                EXPECT(got == want[k], "op %d of %04x, %04x: %04x, want %04x", ops[k], a, b, got, want[k]);
        }
    }
}
END_TEST

START_TEST(f16_compares_against_float16)
{
    static const int cmps[] = { MOD_EQ, MOD_NE, MOD_LT, MOD_LE, MOD_GT, MOD_GE, MOD_EQU, MOD_NEU, MOD_LTU,
                                MOD_LEU, MOD_GTU, MOD_GEU, MOD_NUM, MOD_NAN };
    uint64_t s = 0x243f6a8885a308d3ull;
    for (int i = 0; i < 1 << 21; i++) {
        uint64_t r = next(&s);
        uint16_t a = (uint16_t)r, b = (i & 1) ? (uint16_t)(r >> 16) : a ^ (uint16_t)(r >> 16 & 0x8003);
        Half x = half_of(a), y = half_of(b);
        bool u = x != x || y != y;
        bool want[14] = { x == y, !u && x != y, x < y, x <= y, x > y, x >= y, u || x == y, x != y,
                          u || x < y, u || x <= y, u || x > y, u || x >= y, !u, u };
        for (int k = 0; k < 14; k++)
            EXPECT(half_compare(cmps[k], TYPE_F16, false, a, b) == want[k], "compare %d of %04x, %04x", k, a, b);
    }
}
END_TEST

START_TEST(f16_fma_against_exact)
{
    uint64_t s = 0xb7e151628aed2a6bull;
    for (int i = 0; i < 1 << 21; i++) {
        uint64_t r = next(&s);
        uint16_t a = (uint16_t)r, b = (uint16_t)(r >> 16), c = (uint16_t)(r >> 32);
        if (i & 1)                                         /* often c near the product, to cancel */
            c = (uint16_t)((c & 0x83ff) | ((((a >> 10 & 31) + (b >> 10 & 31) + (r >> 48 & 3)) - 15) & 31) << 10);
        if (!finite16(a, 10) || !finite16(b, 10) || !finite16(c, 10))
            continue;
        uint16_t want = exact_fma(a, b, c, 10, 5), got = (uint16_t)half_op(OP_FMA, TYPE_F16, 0, a, b, c);
        bool zero = (want & 0x7fff) == 0;                  /* an exact zero: its sign is IEEE's rule, checked below */
        EXPECT(got == want || (zero && (got & 0x7fff) == 0), "fma %04x %04x %04x: %04x, want %04x", a, b, c, got,
                      want);
    }
    /* -x + x is +0 in round to nearest; -0 * 1 + -0 is -0. */
    ck_assert_uint_eq(half_op(OP_FMA, TYPE_F16, 0, 0xbc00, 0x3c00, 0x3c00), 0x0000);
    ck_assert_uint_eq(half_op(OP_FMA, TYPE_F16, 0, 0x8000, 0x3c00, 0x8000), 0x8000);
}
END_TEST

START_TEST(bf16_add_sub_mul_against_float)
{
    uint64_t s = 0x13198a2e03707344ull;
    for (int i = 0; i < 1 << 21; i++) {
        uint64_t r = next(&s);
        uint16_t a = (uint16_t)r, b = (uint16_t)(r >> 16);
        if (i & 1)                                         /* exponents close, so that bits meet */
            b = (uint16_t)((b & 0x80ff) | ((a & 0x7f00) ^ (r >> 32 & 0x0300)));
        float x = bf16_value(a), y = bf16_value(b);
        uint16_t want[3] = { bf16_round(x + y), bf16_round(x - y), bf16_round(x * y) };
        int ops[3] = { OP_ADD, OP_SUB, OP_MUL };
        for (int k = 0; k < 3; k++) {
            uint32_t got = half_op(ops[k], TYPE_BF16, 0, a, b, 0);
            EXPECT(got == want[k], "bf16 op %d of %04x, %04x: %04x, want %04x", ops[k], a, b, got, want[k]);
        }
    }
}
END_TEST

START_TEST(bf16_fma_against_exact)
{
    uint64_t s = 0xa4093822299f31d0ull;
    for (int i = 0; i < 1 << 21; i++) {
        uint64_t r = next(&s);
        /* exponents within 2^-30 .. 2^30, so that the exact sum fits in 128 bits */
        uint16_t a = (uint16_t)((r & 0x807f) | (uint16_t)((127 - 30 + (r >> 8 & 63)) << 7));
        uint16_t b = (uint16_t)((r >> 16 & 0x807f) | (uint16_t)((127 - 30 + (r >> 24 & 63)) << 7));
        uint16_t c = (uint16_t)((r >> 32 & 0x807f) | (uint16_t)((127 - 30 + (r >> 40 & 63)) << 7));
        uint16_t want = exact_fma(a, b, c, 7, 8), got = (uint16_t)half_op(OP_FMA, TYPE_BF16, 0, a, b, c);
        EXPECT(got == want || ((want & 0x7fff) == 0 && (got & 0x7fff) == 0),
                      "bf16 fma %04x %04x %04x: %04x, want %04x", a, b, c, got, want);
    }
}
END_TEST

START_TEST(f16_modifiers)
{
    /* .ftz: a subnormal operand is a zero of its sign; a result tiny after rounding (to 11 bits,
     * exponent unbounded: below 2^-14) is zero, as on the H100. */
    ck_assert_uint_eq(half_op(OP_ADD, TYPE_F16, HALF_FTZ, 0x0001, 0x0000, 0), 0x0000);
    ck_assert_uint_eq(half_op(OP_ADD, TYPE_F16, 0, 0x0001, 0x0000, 0), 0x0001);
    ck_assert_uint_eq(half_op(OP_MUL, TYPE_F16, HALF_FTZ, 0x2000, 0x8400, 0), 0x8000);  /* 2^-7 * -2^-14 */
    /* (1-2^-11) * 2^-14 = 2^-15 (2-2^-10) has 11 bits: tiny, though to nearest in the format it is
     * a tie that goes to 2^-14 (0x0400); the H100 gives 0 (../shared/hw/half/half_arith_092). */
    ck_assert_uint_eq(half_op(OP_MUL, TYPE_F16, HALF_FTZ, 0x3bff, 0x0400, 0), 0x0000);
    ck_assert_uint_eq(half_op(OP_MUL, TYPE_F16, 0, 0x3bff, 0x0400, 0), 0x0400);
    /* (1+2^-10) * 2^-13 (1-2^-11) - 2^-14 (1+2^-10) = 2^-14 - 2^-34: below 2^-14, but 11 bits round
     * it up to 2^-14, so it stays (issue 32: fma.rn.ftz.relu.f16x2 gave 0x0400 on the H100). */
    ck_assert_uint_eq(half_op(OP_FMA, TYPE_F16, HALF_FTZ, 0x3c01, 0x07ff, 0x8401), 0x0400);
    ck_assert_uint_eq(half_op(OP_FMA, TYPE_F16, HALF_FTZ | HALF_RELU, 0x3c01, 0x07ff, 0x8401), 0x0400);
    ck_assert_uint_eq(half_op(OP_FMA, TYPE_F16, HALF_FTZ, 0xbc01, 0x07ff, 0x0401), 0x8400);
    /* .sat: [+0, 1], NaN and -0 to +0. */
    ck_assert_uint_eq(half_op(OP_ADD, TYPE_F16, HALF_SAT, 0x3c00, 0x3c00, 0), 0x3c00);
    ck_assert_uint_eq(half_op(OP_SUB, TYPE_F16, HALF_SAT, 0x3c00, 0x4000, 0), 0x0000);
    ck_assert_uint_eq(half_op(OP_ADD, TYPE_F16, HALF_SAT, 0x7c00, 0xfc00, 0), 0x0000);
    /* .relu: negatives and -0 to +0, NaN stays the canonical NaN. */
    ck_assert_uint_eq(half_op(OP_FMA, TYPE_F16, HALF_RELU, 0x3c00, 0xbc00, 0x0000), 0x0000);
    ck_assert_uint_eq(half_op(OP_FMA, TYPE_F16, HALF_RELU, 0x7c00, 0x0000, 0x0000), 0x7fff);
    ck_assert_uint_eq(half_op(OP_FMA, TYPE_BF16, HALF_RELU, 0x3f80, 0x4000, 0xc080), 0x0000);   /* 2 - 4 */
    /* min/max: -0 < +0; a NaN gives the other operand, .NaN gives NaN; .xorsign.abs. */
    ck_assert_uint_eq(half_op(OP_MIN, TYPE_F16, 0, 0x0000, 0x8000, 0), 0x8000);
    ck_assert_uint_eq(half_op(OP_MAX, TYPE_F16, 0, 0x7e00, 0x3c00, 0), 0x3c00);
    ck_assert_uint_eq(half_op(OP_MAX, TYPE_F16, HALF_NAN, 0x7e00, 0x3c00, 0), 0x7fff);
    ck_assert_uint_eq(half_op(OP_MAX, TYPE_BF16, 0, 0x7fc1, 0xffc0, 0), 0x7fff);
    ck_assert_uint_eq(half_op(OP_MIN, TYPE_F16, HALF_XORSIGN, 0xc000, 0x3c00, 0), 0xbc00);   /* -2, 1: -1 */
    ck_assert_uint_eq(half_op(OP_MAX, TYPE_F16, HALF_XORSIGN, 0xc000, 0xbc00, 0), 0x4000);   /* -2, -1: +2 */
    /* neg and abs move the sign; a NaN becomes the canonical one. */
    ck_assert_uint_eq(half_op(OP_NEG, TYPE_BF16, 0, 0x3f80, 0, 0), 0xbf80);
    ck_assert_uint_eq(half_op(OP_ABS, TYPE_F16, 0, 0xfe01, 0, 0), 0x7fff);
    ck_assert_uint_eq(half_op(OP_NEG, TYPE_F16, HALF_FTZ, 0x8001, 0, 0), 0x0000);
}
END_TEST

/* Runs one instruction (registers h0-h3 .b16, r0-r3 .b32, f0-f3 .f32) on lane 0 with h1, r1, f1
 * = a, the 2s = b, the 3s = c; returns the register named kind (h, r or f) 0. */
static uint64_t run_named(const char *body, char kind, uint64_t a, uint64_t b, uint64_t c)
{
    char text[1024];
    snprintf(text, sizeof text,
             ".version 8.7\n.target sm_90\n.address_size 64\n.entry k()\n{\n"
             ".reg .b16 h<4>;\n.reg .b32 r<4>;\n.reg .f32 f<4>;\n%s\nret;\n}\n", body);
    Parsed *p = parse_ok(text);
    Block *blk = block_load(p->m, p->m->functions.data[0], &p->diag, DEFAULT_STACK_BYTES);
    ck_assert_msg(blk != NULL, "not loadable:\n%s", p->cap.text);
    Warp *w = blk->warps[0];
    Function *f = w->prog->fn;
    uint64_t in[3] = { a, b, c };
    uint32_t d = 0;
    for (uint32_t i = 0; i < f->regs.len; i++) {
        const char *n = f->regs.data[i].name;
        if (n[1] >= '1' && n[1] <= '3') {
            w->val[i][0] = in[n[1] - '1'];
            w->defined[i] = ALL_LANES;
        } else if (n[0] == kind && n[1] == '0') {
            d = i;
        }
    }
    ExecOptions o = { .max_steps = 1000 };
    ck_assert_int_eq(grid_run(blk, &o, (char[256]){ 0 }, 256), EXEC_OK);
    uint64_t v = w->val[d][0];
    block_free(blk);
    parsed_free(p);
    return v;
}

static uint64_t run3(const char *body, uint64_t a, uint64_t b, uint64_t c)
{
    return run_named(body, body[strcspn(body, " ") + 1], a, b, c);
}

/* The value bits of each narrow type: a result that one rounding to the type gives and a wider
 * computation (kept, or rounded again) would not. */
START_TEST(value_bits_are_the_narrow_types)
{
    /* f16: a = -(1 + 2^-7) 2^-11, b = 1 - 2^-7, c = 1 + 2^-10: a*b + c = 1 + 2^-11 + 2^-25, just
     * above the tie between 1 and 1 + 2^-10: 0x3c01. Through f32 (ulp 2^-23) it would be the tie
     * 1 + 2^-11, then 1.0 (0x3c00). */
    ck_assert_uint_eq(run3("fma.rn.f16 h0, h1, h2, h3;", 0x9008, 0x3bf0, 0x3c01), 0x3c01);
    ck_assert_uint_eq(exact_fma(0x9008, 0x3bf0, 0x3c01, 10, 5), 0x3c01);
    ck_assert_uint_eq(half_bits((Half)fmaf((float)half_of(0x9010), (float)half_of(0x3bf8), (float)half_of(0x3c01))), 0x3c00);
    /* f16x2: the same in the upper half, and 0.5 * 0.5 + 1 = 1.25 (0x3d00) in the lower one. */
    ck_assert_uint_eq(run3("fma.rn.f16x2 r0, r1, r2, r3;", 0x90083800, 0x3bf03800, 0x3c013c00), 0x3c013d00);
    /* bf16: (1 + 2^-7) + 2^-8 is the tie 1 + 3 * 2^-8, to even: 1 + 2^-6 (0x3f82); an f32 keeps
     * it (0x3f818000). */
    ck_assert_uint_eq(run3("add.rn.bf16 h0, h1, h2;", 0x3f81, 0x3b80, 0), 0x3f82);
    ck_assert_uint_eq(bf16_round(bf16_value(0x3f81) + bf16_value(0x3b80)), 0x3f82);
    /* bf16x2: the products (1 + 2^-7)^2 = 1 + 2^-6 + 2^-14 -> 0x3f82, and 3 * 3 = 9 (0x4110). */
    ck_assert_uint_eq(run3("mul.rn.bf16x2 r0, r1, r2;", 0x3f814040, 0x3f814040, 0), 0x3f824110);
    /* tf32 (.rna: ties away; .rn: to even): 1 + 2^-11 is half a tf32 ulp above 1. */
    ck_assert_uint_eq(run3("cvt.rna.tf32.f32 r0, f1;", 0x3f801000, 0, 0), (0x3f801000u + 0x1000) & ~0x1fffu);
    ck_assert_uint_eq(run3("cvt.rn.tf32.f32 r0, f1;", 0x3f801000, 0, 0), 0x3f800000);
    ck_assert_uint_eq(run3("cvt.rn.tf32.f32 r0, f1;", 0x3f803000, 0, 0), 0x3f804000);
    /* e4m3 (bias 7, 3 fraction bits, no infinity, largest 448): 1.0625 is the tie between 1 and
     * 1.125, to even 1.0 (0x38); 3 * 2^-10 the tie between 2^-9 (0x01) and 2^-8 (0x02), to even. */
    ck_assert_uint_eq(run3("cvt.rn.satfinite.e4m3x2.f32 h0, f1, f2;", 0x3f880000, 0x3b400000, 0), 0x3802);
    ck_assert_uint_eq(run3("cvt.rn.satfinite.e4m3x2.f32 h0, f1, f2;", 0x43fa0000, 0xff800000, 0), 0x7efe);  /* 500, -inf */
    ck_assert_uint_eq(run3("cvt.rn.satfinite.e4m3x2.f32 h0, f1, f2;", 0x43d7c000, 0x43d88000, 0), 0x7d7e);  /* 431.5, 433 */
    ck_assert_uint_eq(run3("cvt.rn.satfinite.e4m3x2.f32 h0, f1, f2;", 0x7fc00000, 0x3a800000, 0), 0x7f00);  /* NaN, 2^-10 */
    /* e5m2 (bias 15, 2 fraction bits, largest 57344): 1.125 is the tie between 1 and 1.25. */
    ck_assert_uint_eq(run3("cvt.rn.satfinite.e5m2x2.f32 h0, f1, f2;", 0x3f900000, 0x49742400, 0), 0x3c7b);  /* 1.125, 1e6 */
    ck_assert_uint_eq(run3("cvt.rn.satfinite.e5m2x2.f16x2 h0, r1;", 0x3c800001, 0, 0), 0x3c00);   /* 1.125, 2^-24 */
    /* Packed conversions: a goes to the upper half. */
    ck_assert_uint_eq(run3("cvt.rn.f16x2.f32 r0, f1, f2;", 0x3f800000, 0xc0000000, 0), 0x3c00c000);
    ck_assert_uint_eq(run3("cvt.rn.relu.bf16x2.f32 r0, f1, f2;", 0xbf800000, 0x3f808000, 0), 0x00003f80);
    ck_assert_uint_eq(run3("cvt.rn.satfinite.f16x2.f32 r0, f1, f2;", 0x47800000, 0xff800000, 0), 0x7bfffbff);
}
END_TEST

/* e4m3 and e5m2 to f16x2: every byte against the formats' definitions, decoded by hand. */
START_TEST(fp8_to_f16_every_value)
{
    for (unsigned v = 0; v < 256; v++) {
        unsigned sign = v >> 7, e4 = v >> 3 & 15, m3 = v & 7, e5 = v >> 2 & 31, m2 = v & 3;
        double x4 = e4 ? ldexp(8 + m3, (int)e4 - 7 - 3) : ldexp(m3, -9);
        double x5 = e5 ? ldexp(4 + m2, (int)e5 - 15 - 2) : ldexp(m2, -16);
        uint16_t w4 = (e4 == 15 && m3 == 7) ? 0x7fff : half_bits((Half)(sign ? -x4 : x4));
        uint16_t w5 = e5 == 31 ? (m2 ? 0x7fff : (uint16_t)(sign ? 0xfc00 : 0x7c00)) : half_bits((Half)(sign ? -x5 : x5));
        EXPECT(half_encode(half_decode(v, TYPE_E4M3), TYPE_F16, MOD_RN, false) == w4, "e4m3 %02x", v);
        /* and back: every value that is a number is its own rounding, in every mode */
        static const int modes[] = { MOD_RN, MOD_RZ, MOD_RM, MOD_RP };
        for (int k = 0; k < 4; k++) {
            if (!(e4 == 15 && m3 == 7))
                EXPECT(half_encode(sign ? -x4 : x4, TYPE_E4M3, modes[k], true) == v, "e4m3 %02x back", v);
            if (e5 != 31)
                EXPECT(half_encode(sign ? -x5 : x5, TYPE_E5M2, modes[k], true) == v, "e5m2 %02x back", v);
        }
        EXPECT(half_encode(half_decode(v, TYPE_E5M2), TYPE_F16, MOD_RN, false) == w5, "e5m2 %02x", v);
        if (v % 37 == 0) {                                 /* and some through the executor, packed */
            ck_assert_uint_eq(run3("cvt.rn.f16x2.e4m3x2 r0, h1;", v << 8 | 0x38, 0, 0), (uint32_t)w4 << 16 | 0x3c00);
            ck_assert_uint_eq(run3("cvt.rn.f16x2.e5m2x2 r0, h1;", v, 0, 0), w5);
        }
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("half");
    TCase *tc = tcase_create("narrow");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, f16_add_sub_mul_against_float16);
    tcase_add_test(tc, f16_compares_against_float16);
    tcase_add_test(tc, f16_fma_against_exact);
    tcase_add_test(tc, bf16_add_sub_mul_against_float);
    tcase_add_test(tc, bf16_fma_against_exact);
    tcase_add_test(tc, f16_modifiers);
    tcase_add_test(tc, value_bits_are_the_narrow_types);
    tcase_add_test(tc, fp8_to_f16_every_value);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
