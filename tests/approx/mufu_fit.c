/* mufu_fit.c: fits, from the H100's .approx tables, the error curves exec/approx.c adds to the
 * exact functions (one cubic per segment, least squares), and prints exec/mufu_fits.h.
 *   build/mufu_fit ../shared/hw/approx > exec/mufu_fits.h
 * The domain mappings here must match approx.c's MUFU functions. */
#include "tables.h"

#define M_PI_HALF_TURN (TWO_PI / 2)

#define MAX_SEGS 512

#define TERMS 5                  /* 1, u, u^2, u^3, popcount(offset) */

typedef struct Fit {
    const char *name;
    unsigned seg_bits;
    unsigned pop_bits;                   /* the offset in a segment has this many bits; 0: no term */
    long double normal[MAX_SEGS][TERMS][TERMS + 1];  /* per segment: the normal equations */
} Fit;

static double rel_unit(double v) { return ldexp(1.0, ilogb(v) - 23); }

static void add_point(Fit *fit, double p, double err)
{
    double scaled = ldexp(p, (int)fit->seg_bits);
    int seg = (int)scaled;
    if (seg >= 1 << fit->seg_bits)
        seg = (1 << fit->seg_bits) - 1;
    long double u = 2 * (scaled - seg) - 1;
    unsigned long offset = (unsigned long)ldexp(scaled - seg, (int)fit->pop_bits);
    long double pw[TERMS] = { 1, u, u * u, u * u * u, __builtin_popcountl(offset) };
    int n = fit->pop_bits ? TERMS : 4;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            fit->normal[seg][i][j] += pw[i] * pw[j];
        fit->normal[seg][i][TERMS] += pw[i] * err;
    }
}

/* Gauss-Jordan with pivoting on one segment's system of n unknowns (the right-hand side in
 * column TERMS); zero where there were too few points. */
static void solve(long double a[TERMS][TERMS + 1], int n, long double out[TERMS])
{
    for (int i = 0; i < TERMS; i++)
        out[i] = 0;
    if (a[0][0] < 16)
        return;
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabsl(a[r][c]) > fabsl(a[p][c]))
                p = r;
        for (int k = 0; k <= TERMS; k++) {
            long double t = a[c][k];
            a[c][k] = a[p][k];
            a[p][k] = t;
        }
        for (int r = 0; r < n; r++)
            if (r != c) {
                long double f = a[r][c] / a[c][c];
                for (int k = 0; k <= TERMS; k++)
                    a[r][k] -= f * a[c][k];
            }
    }
    for (int i = 0; i < n; i++)
        out[i] = a[i][TERMS] / a[i][i];
}

/* Prints the coefficients in units of 2^-shift, the finest that int16_t holds. */
static void print_fit(Fit *fit)
{
    static long double c[MAX_SEGS][TERMS];
    long double biggest = 0;
    for (int s = 0; s < 1 << fit->seg_bits; s++) {
        solve(fit->normal[s], fit->pop_bits ? TERMS : 4, c[s]);
        for (int i = 0; i < TERMS; i++)
            biggest = fmaxl(biggest, fabsl(c[s][i]));
    }
    int shift = 14;
    while (shift > 0 && ldexpl(biggest, shift) > INT16_MAX - 1)
        shift--;
    printf("#define FIT_SHIFT_%s %d\n", fit->name, shift);
    printf("#define FIT_POP_%s %u\n", fit->name, fit->pop_bits);
    printf("static const int16_t fit_%s[%d][%d] = {\n", fit->name, 1 << fit->seg_bits, TERMS);
    for (int s = 0; s < 1 << fit->seg_bits; s++) {
        printf("%s{", s % 4 ? " " : "    ");
        for (int i = 0; i < TERMS; i++)
            printf("%ld%s", lroundl(ldexpl(c[s][i], shift)), i < TERMS - 1 ? ", " : "}");
        printf("%s", s % 4 == 3 ? ",\n" : ",");
    }
    printf("};\n\n");
}

static uint32_t *need(const char *dir, const char *stem, uint32_t first, double (*f)(double))
{
    uint32_t *hw = tab_hw(dir, stem, first, f);
    if (!hw) {
        fprintf(stderr, "mufu_fit: cannot read %s/%s\n", dir, stem);
        exit(1);
    }
    return hw;
}

/* A table whose input is the function's argument x: p = |x|·scale - p_offset. The unit reads x
 * with the mantissa bits in drop_mask cleared. */
static void fit_relative(Fit *fit, const char *dir, const char *stem, uint32_t first, double (*f)(double),
                         double scale, double p_offset, bool absolute, uint32_t drop_mask)
{
    uint32_t *hw = need(dir, stem, first, f);
    for (uint32_t i = 0; i < TABLE_ENTRIES; i++) {
        double x = tab_f32((first + i) & ~drop_mask), exact = f(x), h = tab_f32(hw[i]);
        double p = fabs(x) * scale - p_offset;
        add_point(fit, p, (h - exact) / (absolute ? 0x1p-24 : rel_unit(exact)));
    }
    free(hw);
}

static double ex2(double x) { return exp2(x); }

/* lg2 of x in [1,2), truncated by the unit: aim at the middle of the truncation interval. */
static void fit_lg2_unit(Fit *fit, const char *dir)
{
    uint32_t *hw = need(dir, "lg2.approx.f32_p1_2", 0x3f800000, log2);
    for (uint32_t i = 0; i < TABLE_ENTRIES; i++) {
        double x = tab_f32(0x3f800000 + i), h = tab_f32(hw[i]);
        if (h != 0)
            h += 0.5 * rel_unit(h);
        add_point(fit, x - 1, (h - log2(x)) / 0x1p-24);
    }
    free(hw);
}

/* lg2 with an exponent: log2(m) - 1 for x = m/2 in [0.5,1), truncated by the unit: aim at the
 * middle of the truncation interval; p = m - 1, absolute error. */
static void fit_lg2_exponent(Fit *fit, const char *dir)
{
    uint32_t *hw = need(dir, "lg2.approx.f32_p0.5_1", 0x3f000000, log2);
    for (uint32_t i = 0; i < TABLE_ENTRIES; i++) {
        double x = tab_f32(0x3f000000 + i), h = tab_f32(hw[i]);
        if (h != 0)
            h -= 0.5 * rel_unit(h);                   /* negative: truncation raised it */
        add_point(fit, 2 * x - 1, (h - log2(x)) / 0x1p-24);
    }
    free(hw);
}

/* ex2: the unit reads x in fixed point, truncated to 2^-23; p = the fraction's magnitude. */
static void fit_ex2(Fit *fit, const char *dir, const char *stem, uint32_t first)
{
    uint32_t *hw = need(dir, stem, first, ex2);
    for (uint32_t i = 0; i < TABLE_ENTRIES; i++) {
        double xq = trunc(ldexp(tab_f32(first + i), 23)) * 0x1p-23;
        double f = xq - trunc(xq), exact = exp2(f);
        add_point(fit, fabs(f), (tab_f32(hw[i]) * exp2(-trunc(xq)) - exact) / rel_unit(exact));
    }
    free(hw);
}
static double sin_x(double x) { return sin(x); }
static double cos_x(double x) { return cos(x); }

static float mul_rz(float a, float b)
{
    double p = (double)a * b;
    float r = (float)p;
    if (fabs((double)r) > fabs(p))
        r = nextafterf(r, 0.0f);
    return r;
}

/* sin/cos: the unit sees t = RZ(x · 1/2π) in turns, |t| truncated to q/2^25; cos is sin a
 * quarter turn on, and the second half turn the first negated: one curve on p = 2·(q mod 2^24)/2^25
 * in [0,1), i.e. half a turn, absolute error. */
static void fit_turns(Fit *fit, const char *dir, const char *stem, uint32_t first, bool cosine)
{
    uint32_t *hw = need(dir, stem, first, cosine ? cos_x : sin_x);
    for (uint32_t i = 0; i < TABLE_ENTRIES; i++) {
        float x = tab_f32(first + i);
        double q = floor(ldexp(fabsf(mul_rz(x, 0x1.45f306p-3f)), 25)) + (cosine ? 0x1p23 : 0);
        q = fmod(q, 0x1p25);
        bool negate = (q >= 0x1p24) != (!cosine && x < 0);
        double p = ldexp(fmod(q, 0x1p24), -24);
        double h = tab_f32(hw[i]);
        h = negate ? -h : h;
        if (h > 0)                                    /* the unit truncates: aim at the middle */
            h += 0.5 * rel_unit(h);
        add_point(fit, p, (h - sin(M_PI_HALF_TURN * p)) / 0x1p-24);
    }
    free(hw);
}

static Fit *new_fit(const char *name, unsigned seg_bits, unsigned pop_bits)
{
    Fit *fit = calloc(1, sizeof *fit);
    fit->name = name;
    fit->seg_bits = seg_bits;
    fit->pop_bits = pop_bits;
    return fit;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "../shared/hw/approx";
    printf("/* mufu_fits.h: generated by tests/approx/mufu_fit.c from the H100's tables in\n"
           " * ../shared/hw/approx: the fitted error curves of approx.c; do not edit. */\n\n");
    Fit *f;
    f = new_fit("rcp", 7, 16);
    fit_relative(f, dir, "rcp.approx.f32_p1_2", 0x3f800000, tab_rcp, 1, 1, false, 0);
    print_fit(f);
    f = new_fit("sqrt_lo", 7, 16);
    fit_relative(f, dir, "sqrt.approx.f32_p1_2", 0x3f800000, sqrt, 1, 1, false, 0);
    print_fit(f);
    f = new_fit("sqrt_hi", 7, 16);
    fit_relative(f, dir, "sqrt.approx.f32_p2_4", 0x40000000, sqrt, 0.5, 1, false, 0);
    print_fit(f);
    f = new_fit("rsq_lo", 7, 16);
    fit_relative(f, dir, "rsqrt.approx.f32_p1_2", 0x3f800000, tab_rsqrt, 1, 1, false, 0);
    print_fit(f);
    f = new_fit("rsq_hi", 7, 16);
    fit_relative(f, dir, "rsqrt.approx.f32_p2_4", 0x40000000, tab_rsqrt, 0.5, 1, false, 0);
    print_fit(f);
    f = new_fit("ex2_pos", 7, 16);
    fit_ex2(f, dir, "ex2.approx.f32_p1_2", 0x3f800000);
    fit_ex2(f, dir, "ex2.approx.f32_p0.5_1", 0x3f000000);
    print_fit(f);
    f = new_fit("ex2_neg", 7, 16);
    fit_ex2(f, dir, "ex2.approx.f32_m0.5_1", 0xbf000000);
    print_fit(f);
    f = new_fit("lg2", 7, 16);
    fit_lg2_unit(f, dir);
    print_fit(f);
    f = new_fit("lg2_exp", 7, 16);
    fit_lg2_exponent(f, dir);
    print_fit(f);
    f = new_fit("sin", 7, 17);
    fit_turns(f, dir, "sin.approx.f32_p0.5_1", 0x3f000000, false);
    fit_turns(f, dir, "sin.approx.f32_p1_2", 0x3f800000, false);
    fit_turns(f, dir, "sin.approx.f32_p2_4", 0x40000000, false);
    fit_turns(f, dir, "sin.approx.f32_m1_2", 0xbf800000, false);
    fit_turns(f, dir, "cos.approx.f32_p0.5_1", 0x3f000000, true);
    fit_turns(f, dir, "cos.approx.f32_p1_2", 0x3f800000, true);
    fit_turns(f, dir, "cos.approx.f32_p2_4", 0x40000000, true);
    print_fit(f);
    return 0;
}
