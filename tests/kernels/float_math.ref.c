/* float_math: IEEE results computed on the host with the same rounding modes (fesetround
 * around volatile operands, so the operations happen at run time in the chosen mode).
 * Float-to-int conversions saturate (PTX cvt), so out-of-range inputs give INT_MAX etc.
 * A third argument gets the -G build's values (float_math.debug.expect.json). */
#include <fenv.h>
#include "ref_common.h"

#define RN FE_TONEAREST
#define RZ FE_TOWARDZERO
#define RU FE_UPWARD
#define RD FE_DOWNWARD

/* GPUs return the canonical NaN 0x7fffffff for a NaN result of an f32 operation */
static float canon(float v) { return isnan(v) ? u2f(0x7fffffffu) : v; }

static float fdiv(float a, float b, int m)
{ fesetround(m); volatile float x = a, y = b; volatile float r = x / y; fesetround(RN); return canon(r); }
static float fsqrt(float a, int m)
{ fesetround(m); volatile float x = a; volatile float r = sqrtf(x); fesetround(RN); return canon(r); }
static float fadd(float a, float b, int m)
{ fesetround(m); volatile float x = a, y = b; volatile float r = x + y; fesetround(RN); return canon(r); }
static float fmul(float a, float b, int m)
{ fesetround(m); volatile float x = a, y = b; volatile float r = x * y; fesetround(RN); return canon(r); }
static float ffma(float a, float b, float c, int m)
{ fesetround(m); volatile float x = a, y = b, z = c; volatile float r = fmaf(x, y, z); fesetround(RN); return canon(r); }
static float i2f(int32_t n, int m)
{ fesetround(m); volatile int32_t x = n; volatile float r = (float)x; fesetround(RN); return r; }
static float d2f(double d, int m)
{ fesetround(m); volatile double x = d; volatile float r = (float)x; fesetround(RN); return r; }
static double ddiv(double a, double b, int m)
{ fesetround(m); volatile double x = a, y = b; volatile double r = x / y; fesetround(RN); return r; }
static double dsqrt(double a, int m)
{ fesetround(m); volatile double x = a; volatile double r = sqrt(x); fesetround(RN); return r; }
static double dadd(double a, double b, int m)
{ fesetround(m); volatile double x = a, y = b; volatile double r = x + y; fesetround(RN); return r; }
/* float -> integer in a rounding mode: round to an integral value first (exact), then
 * convert; PTX's cvt to an integer type saturates out-of-range values (NaN gives 0) */
static double rint_mode(double v, int m)
{ fesetround(m); volatile double x = v; volatile double r = nearbyint(x); fesetround(RN); return r; }
static int32_t to_s32(double v, int m)
{
    double r = rint_mode(v, m);
    return isnan(r) ? 0 : r <= -2147483648.0 ? INT32_MIN : r >= 2147483647.0 ? INT32_MAX : (int32_t)r;
}
static uint32_t to_u32(double v, int m)
{
    double r = rint_mode(v, m);
    return isnan(r) || r <= 0 ? 0 : r >= 4294967295.0 ? UINT32_MAX : (uint32_t)r;
}
static int64_t to_s64(double v, int m)
{
    double r = rint_mode(v, m);
    return isnan(r) ? 0 : r <= -9223372036854775808.0 ? INT64_MIN
         : r >= 9223372036854775808.0 ? INT64_MAX : (int64_t)r;
}

static void write_expect(const char *path, const float *out, const double *dout, const int32_t *iout,
                         const int64_t *lout)
{
    FILE *f = expect_begin(path);
    expect_buf(f, "out", "f32", out, 19 * 32);
    expect_buf(f, "dout", "f64", dout, 7 * 32);
    expect_buf(f, "iout", "s32", iout, 6 * 32);
    expect_buf(f, "lout", "s64", lout, 2 * 32);
    expect_end(f);
}

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(131);
    float fa[32], fb[32], fc[32], out[19 * 32];
    double da[32], db[32], dout[7 * 32];
    int32_t ia[32], iout[6 * 32];
    int64_t lout[2 * 32];
    for (int i = 0; i < 32; i++) {
        fa[i] = rnd_float(30);
        fb[i] = rnd_float(30);
        fc[i] = rnd_float(30);
        da[i] = rnd_double(200);
        db[i] = rnd_double(200);
        ia[i] = (int32_t)rnd();
    }
    /* special lanes */
    fa[0] = 1.0f;            fb[0] = 3.0f;
    fa[1] = 2.0f;            fb[1] = 0.0f;          /* +inf */
    fa[2] = 0.0f;            fb[2] = 0.0f;          /* NaN */
    fa[3] = 1e-40f;          fb[3] = 7.0f;          /* subnormal in and out */
    fa[4] = -1.5f;           fb[4] = u2f(0x00000001u);  /* huge quotient: overflows to -inf */
    fa[5] = 1e30f;           fb[5] = 1e-30f;        /* overflow */
    fa[6] = 16777217.0f;     fb[6] = -1.0f;
    fa[7] = -2.5f;           fb[7] = 2.0f;          /* rn ties for int conversion */
    fa[8] = 3.5f;            fb[8] = -0.0f;
    fa[9] = 1e-7f;           fb[9] = 1e38f;         /* underflow to subnormal / zero */
    fc[3] = -0.0f;
    ia[0] = 16777217; ia[1] = -16777219; ia[2] = INT32_MAX; ia[3] = INT32_MIN; ia[4] = 0;
    da[0] = 1.0; db[0] = 3.0;
    da[1] = 2.5; db[1] = -0.5;
    da[2] = 3.4028235677973366e38;                 /* rounds to FLT_MAX or overflows */
    da[3] = 1e-46;                                 /* below the smallest float subnormal */
    da[4] = -2.5;
    for (int i = 0; i < 32; i++) {
        float a = fa[i], b = fb[i], c = fc[i], pa = fabsf(a);
        double x = da[i], y = db[i];
        out[0 * 32 + i] = fdiv(a, b, RN);
        out[1 * 32 + i] = fsqrt(pa, RN);
        out[2 * 32 + i] = fdiv(a, b, RZ);
        out[3 * 32 + i] = fdiv(a, b, RU);
        out[4 * 32 + i] = fdiv(a, b, RD);
        out[5 * 32 + i] = fsqrt(pa, RU);
        out[6 * 32 + i] = fsqrt(pa, RD);
        out[7 * 32 + i] = fadd(a, c, RD);
        out[8 * 32 + i] = fmul(a, b, RZ);
        out[9 * 32 + i] = ffma(a, b, c, RN);
        out[10 * 32 + i] = ffma(a, b, c, RN);      /* nvcc contracts a*b+c */
        out[11 * 32 + i] = fadd(fmul(a, b, RN), c, RN);
        out[12 * 32 + i] = fdiv(1.0f, b, RN);
        out[13 * 32 + i] = ffma(a, b, c, RU);
        out[14 * 32 + i] = i2f(ia[i], RN);
        out[15 * 32 + i] = i2f(ia[i], RZ);
        out[16 * 32 + i] = i2f(ia[i], RU);
        out[17 * 32 + i] = d2f(x, RN);
        out[18 * 32 + i] = d2f(x, RZ);
        dout[0 * 32 + i] = ddiv(x, y, RN);
        dout[1 * 32 + i] = dsqrt(fabs(x), RN);
        dout[2 * 32 + i] = ddiv(x, y, RZ);
        dout[3 * 32 + i] = dsqrt(fabs(x), RD);
        dout[4 * 32 + i] = dadd(x, y, RU);
        dout[5 * 32 + i] = fma(x, y, (double)c);
        dout[6 * 32 + i] = (double)a * (double)b;  /* exact */
        iout[0 * 32 + i] = to_s32(a, RZ);
        iout[1 * 32 + i] = to_s32(a, RN);
        iout[2 * 32 + i] = to_s32(a, RD);
        iout[3 * 32 + i] = to_s32(a, RU);
        iout[4 * 32 + i] = (int32_t)to_u32(pa, RN);
        iout[5 * 32 + i] = to_s32(x, RN);
        lout[0 * 32 + i] = to_s64(fmul(a, 1000.0f, RN), RD);
        lout[1 * 32 + i] = to_s64(x, RZ);
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "fa", "f32", fa, 32);
    lanes_buf(f, "fb", "f32", fb, 32);
    lanes_buf(f, "fc", "f32", fc, 32);
    lanes_buf(f, "da", "f64", da, 32);
    lanes_buf(f, "db", "f64", db, 32);
    lanes_buf(f, "ia", "s32", ia, 32);
    lanes_zero(f, "out", "f32", 19 * 32);
    lanes_zero(f, "dout", "f64", 7 * 32);
    lanes_zero(f, "iout", "s32", 6 * 32);
    lanes_zero(f, "lout", "s64", 2 * 32);
    lanes_end(f, "\"@fa\", \"@fb\", \"@fc\", \"@da\", \"@db\", \"@ia\", \"@out\", \"@dout\", \"@iout\", \"@lout\"", NULL);
    write_expect(argv[2], out, dout, iout, lout);
    if (argc > 3) {
        /* The -G build does not contract a*b+c: mul.f32 and add.f32, each rounded to nearest. */
        for (int i = 0; i < 32; i++)
            out[10 * 32 + i] = fadd(fmul(fa[i], fb[i], RN), fc[i], RN);
        write_expect(argv[3], out, dout, iout, lout);
    }
    return 0;
}
