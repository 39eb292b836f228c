/* half_math: each result rounded once to its format, by hand or by the host compiler's _Float16
 * (binary16 in GCC and Clang on x86-64 and AArch64): f16 add, sub, mul from the float result
 * (float holds more than twice binary16's bits, so the second rounding is harmless), f16 fma
 * from the exact double fma (the inputs' exponents keep a*b+c exact in double), bf16 by
 * rounding a float's bits to nearest even (bf16 fma from fmaf, exact for these inputs), fp8
 * e4m3 and e5m2 by a rounding written out here. */
#include "ref_common.h"

typedef _Float16 half;

static uint16_t hbits(half h) { uint16_t u; memcpy(&u, &h, 2); return u; }
static half hval(uint16_t u) { half h; memcpy(&h, &u, 2); return h; }
static uint32_t pack(uint16_t lo, uint16_t hi) { return lo | (uint32_t)hi << 16; }

/* bf16 */
static float bval(uint16_t u) { return u2f((uint32_t)u << 16); }
static uint16_t bround(float f)
{
    uint32_t u = f2u(f);
    return (uint16_t)((u + 0x7fffu + (u >> 16 & 1)) >> 16);
}

/* A float to fp8 with .satfinite, to nearest even: frac fraction bits, bias, largest finite
 * magnitude code max_code (e4m3 0x7e = 448, e5m2 0x7b = 57344). */
static uint8_t fp8(float v, int frac, int bias, uint8_t max_code)
{
    uint8_t sign = signbit(v) ? 0x80 : 0;
    double a = fabs((double)v);
    int emin = 1 - bias;
    if (isinf(a))
        return sign | max_code;
    if (a == 0)
        return sign;
    int e;
    frexp(a, &e);
    e -= 1;                                    /* a = 1.m * 2^e */
    if (e < emin)
        e = emin;
    double q = ldexp(a, frac - e);             /* the significand in units of the last place */
    double whole = floor(q), rest = q - whole;
    long n = (long)whole + (rest > 0.5 || (rest == 0.5 && ((long)whole & 1)));
    if (n == 2L << frac) {
        n >>= 1;
        e++;
    }
    unsigned code = n < (1L << frac) ? (unsigned)n : (unsigned)(e + bias) << frac | (unsigned)(n - (1L << frac));
    return sign | (uint8_t)(code > max_code ? max_code : code);
}

/* e4m3 back to f16: exact */
static uint16_t e4m3_to_f16(uint8_t v)
{
    int e = v >> 3 & 15, m = v & 7;
    double a = e ? ldexp(8 + m, e - 7 - 3) : ldexp(m, -9);
    return hbits((half)((v & 0x80) ? -a : a));
}

/* an f16 (bf16) with a random sign, 10 (7) random fraction bits and exponent in [lo, hi] */
static uint16_t rnd_half(int lo, int hi) { return (uint16_t)((rnd() & 0x83ff) | (unsigned)(rnd_range(lo, hi) + 15) << 10); }
static uint16_t rnd_bf16(int lo, int hi) { return (uint16_t)((rnd() & 0x807f) | (unsigned)(rnd_range(lo, hi) + 127) << 7); }

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(1613);
    uint32_t h[3 * 32], b[3 * 32], out[16 * 32];
    float f[2 * 32];
    for (int i = 0; i < 3 * 32; i++) {
        h[i] = pack(rnd_half(-4, 4), rnd_half(-4, 4));
        b[i] = pack(rnd_bf16(-2, 1), rnd_bf16(-2, 1));
    }
    for (int i = 0; i < 2 * 32; i++)
        f[i] = rnd_float(12);
    /* special lanes: fp8 saturation and ties, f16 overflow and underflow */
    static const float special[][2] = {
        { 500.0f, -1e6f }, { 1.0f / 0.0f, -1.0f / 0.0f }, { 1e-4f, 0.0029296875f /* 3 * 2^-10 */ },
        { 1.0625f, 1.125f }, { 70000.0f, 65520.0f }, { 1e-8f, -2.98023223876953125e-8f /* 2^-25 */ },
        { -0.0f, 0.0f }, { 448.0f, 464.0f }, { 57344.0f, 61440.0f }, { 0.001953125f, -1.75f },
    };
    for (int i = 0; i < (int)(sizeof special / sizeof special[0]); i++) {
        f[2 * i] = special[i][0];
        f[2 * i + 1] = special[i][1];
    }
    for (int l = 0; l < 32; l++) {
        uint16_t xs[2], ys[2], zs[2], ps[2], qs[2], rs[2];
        for (int k = 0; k < 2; k++) {
            xs[k] = (uint16_t)(h[3 * l] >> (16 * k));
            ys[k] = (uint16_t)(h[3 * l + 1] >> (16 * k));
            zs[k] = (uint16_t)(h[3 * l + 2] >> (16 * k));
            ps[k] = (uint16_t)(b[3 * l] >> (16 * k));
            qs[k] = (uint16_t)(b[3 * l + 1] >> (16 * k));
            rs[k] = (uint16_t)(b[3 * l + 2] >> (16 * k));
        }
        uint16_t r[13][2];
        for (int k = 0; k < 2; k++) {
            half x = hval(xs[k]), y = hval(ys[k]), z = hval(zs[k]);
            float p = bval(ps[k]), q = bval(qs[k]), s = bval(rs[k]);
            r[0][k] = hbits((half)((float)x + (float)y));
            r[1][k] = hbits((half)((float)x - (float)y));
            r[2][k] = hbits((half)((float)x * (float)y));
            r[3][k] = hbits((half)fma((double)x, (double)y, (double)z));
            r[4][k] = (float)x > (float)y ? xs[k] : ys[k];
            r[5][k] = (float)x < (float)z ? xs[k] : zs[k];
            r[6][k] = (float)x < (float)y ? 0x3c00 : 0;
            r[8][k] = bround(p + q);
            r[9][k] = bround(p * q);
            r[10][k] = bround(fmaf(p, q, s));
            r[11][k] = hbits((half)f[2 * l + k]);
            r[12][k] = bround(f[2 * l + k]);
        }
        for (int j = 0; j < 13; j++)
            out[j * 32 + l] = pack(r[j][0], r[j][1]);
        out[7 * 32 + l] = (float)hval(xs[0]) > (float)hval(zs[1]);
        uint8_t e4[2], e5[2];
        for (int k = 0; k < 2; k++) {
            e4[k] = fp8(f[2 * l + k], 3, 7, 0x7e);
            e5[k] = fp8(f[2 * l + k], 2, 15, 0x7b);
        }
        out[13 * 32 + l] = e4[0] | (uint32_t)e4[1] << 8;
        out[14 * 32 + l] = e5[0] | (uint32_t)e5[1] << 8;
        out[15 * 32 + l] = pack(e4m3_to_f16(e4[0]), e4m3_to_f16(e4[1]));
    }
    FILE *fl = lanes_begin(argv[1], 32);
    lanes_buf(fl, "h", "u32", h, 3 * 32);
    lanes_buf(fl, "b", "u32", b, 3 * 32);
    lanes_buf(fl, "f", "f32", f, 2 * 32);
    lanes_zero(fl, "out", "u32", 16 * 32);
    lanes_end(fl, "\"@h\", \"@b\", \"@f\", \"@out\"", NULL);
    FILE *fe = expect_begin(argv[2]);
    expect_buf(fe, "out", "u32", out, 16 * 32);
    expect_end(fe);
    return 0;
}
