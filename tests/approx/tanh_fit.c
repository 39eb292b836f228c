/* tanh_fit.c: derives, from the H100's tanh.approx.f32 tables, the coefficients of the quadratic
 * that its MUFU.TANH evaluates on each segment, and prints exec/mufu_tanh.h.
 *   build/tanh_fit ../shared/hw/approx > exec/mufu_tanh.h
 *
 * The unit as found in the tables (approx.c's mufu_tanh evaluates it; the layout here must match):
 * |x| in a binade is cut into 2^seg_bits equal segments (seg_bits below); the next 17 mantissa bits
 * are the offset u (lower bits are not read), and the result is
 *     v = C0 + C1·u/2^17 + C2·sq(u)/2^34,   sq(u) = u² with the partial products below 2^19 dropped
 * (a folded squarer: b_i·b_i at 2^2i, b_i·b_k (i > k) twice at 2^(i+k+1); columns < 19 not summed),
 * summed exactly, then truncated to float. Per tabulated segment, the least-squares fit to the
 * H100's results gives C1 and C2 to within a unit; the integers next to them for which some C0
 * reproduces all 2^17 results are taken, and C0 is the smallest such (of the squarers dropping
 * the columns below 2^17 ... 2^21, only 2^19 reproduces them all). Every tabulated result is
 * then reproduced. The other binades were not tabulated: their coefficients here are the minimax
 * quadratic of tanh on the segment (absolute error), a guess at the H100's own (which lie near,
 * not on, the minimax ones where they are known), and their layout is inferred from the size of
 * the H100's error at scattered points (../shared/hw/float_approx). C0 is stored with C1 and C2,
 * each an integer in units of 2^unit_exp(e). */
#include "tables.h"

#define EMIN (-8)                 /* below 2^-8 the unit returns x */
#define EMAX 2                    /* from 8 on, 1 */
#define BINADES (EMAX - EMIN + 1)

static int seg_bits(int e) { return e < 0 ? 2 : e == 1 ? 4 : 3; }
/* Coefficients are integers in units of 2^unit_exp(e). */
static int unit_exp(int e) { return (e < -1 ? e : -1) - 25; }

/* u² with the partial products of weight below 2^19 dropped (see above). */
static int64_t square(uint32_t u)
{
    int64_t s = 0;
    for (int i = 0; i < 17; i++)
        if (u >> i & 1) {
            if (2 * i >= 19)
                s += (int64_t)1 << 2 * i;
            int lo = 18 - i;
            if (lo < i)
                s += (int64_t)(u & (((uint32_t)1 << i) - ((uint32_t)1 << lo))) << (i + 1);
        }
    return s;
}

typedef struct Seg { int64_t c[3]; bool from_hw; } Seg;

/* The value before truncation, in units of 2^(unit - 34). */
static int64_t poly(const int64_t c[3], uint32_t u)
{
    return c[0] * ((int64_t)1 << 34) + c[1] * (int64_t)u * 131072 + c[2] * square(u);
}

/* The feasible C0 (in units of 2^(unit-34)) for C1, C2 against 2^17 results y[]: [lo, hi). */
static bool feasible(const int64_t c[3], const float *y, int unit, int64_t *lo, int64_t *hi)
{
    *lo = INT64_MIN;
    *hi = INT64_MAX;
    int64_t c12[3] = { 0, c[1], c[2] };
    for (uint32_t u = 0; u < 131072; u++) {
        int64_t p = poly(c12, u);
        int64_t ylo = (int64_t)ldexp(y[u], 34 - unit);
        int64_t yhi = ylo + (int64_t)ldexp(1, ilogbf(y[u]) - 23 + 34 - unit);
        if (ylo - p > *lo)
            *lo = ylo - p;
        if (yhi - p < *hi)
            *hi = yhi - p;
    }
    return *lo < *hi;
}

/* One tabulated segment: y[u] the H100's results. */
static Seg from_table(const float *y, int unit, double x0)
{
    long double a[3][4] = { { 0 } };
    for (uint32_t u = 0; u < 131072; u++) {
        long double b[3] = { 1, u / 131072.0L, square(u) / 0x1p34L }, v = ldexpl(y[u], -unit);
        for (int r = 0; r < 3; r++) {
            for (int k = 0; k < 3; k++)
                a[r][k] += b[r] * b[k];
            a[r][3] += b[r] * v;
        }
    }
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            if (r != c) {
                long double f = a[r][c] / a[c][c];
                for (int k = 0; k < 4; k++)
                    a[r][k] -= f * a[c][k];
            }
    Seg s = { { 0, llroundl(a[1][3] / a[1][1]), llroundl(a[2][3] / a[2][2]) }, true };
    for (int d = 0; d < 49; d++) {
        int64_t c[3] = { 0, s.c[1] + d % 7 - 3, s.c[2] + d / 7 - 3 }, lo, hi;
        if (feasible(c, y, unit, &lo, &hi)) {
            int64_t one = (int64_t)1 << 34;
            c[0] = (lo + one - 1) >> 34;             /* the smallest whole C0 in [lo, hi) */
            if (c[0] * one < hi) {
                memcpy(s.c, c, sizeof c);
                return s;
            }
        }
    }
    fprintf(stderr, "tanh_fit: no quadratic reproduces the segment at %.9g\n", x0);
    exit(1);
}

/* Solves the n×n system a·x = b in place (Gauss-Jordan with pivoting). */
static void solve(long double a[4][5], int n)
{
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabsl(a[r][c]) > fabsl(a[p][c]))
                p = r;
        for (int k = 0; k <= n; k++) {
            long double t = a[c][k];
            a[c][k] = a[p][k];
            a[p][k] = t;
        }
        for (int r = 0; r < n; r++)
            if (r != c) {
                long double f = a[r][c] / a[c][c];
                for (int k = 0; k <= n; k++)
                    a[r][k] -= f * a[c][k];
            }
    }
    for (int r = 0; r < n; r++)
        a[r][n] /= a[r][r];
}

/* The minimax quadratic of tanh(x0 + h·t), t in [0,1] (Remez). */
static Seg minimax(double x0, double h, int unit)
{
    long double t[4] = { 0, 0.25L, 0.75L, 1 }, c[3] = { 0 };
    for (int it = 0; it < 30; it++) {
        long double a[4][5];
        for (int r = 0; r < 4; r++) {
            a[r][0] = 1;
            a[r][1] = t[r];
            a[r][2] = t[r] * t[r];
            a[r][3] = r & 1 ? -1 : 1;
            a[r][4] = tanhl(x0 + h * t[r]);
        }
        solve(a, 4);
        for (int k = 0; k < 3; k++)
            c[k] = a[k][4];
        /* the new reference: the extremes of the error, one per sign change */
        enum { N = 4096 };
        long double err[N + 1];
        for (int k = 0; k <= N; k++) {
            long double v = (long double)k / N;
            err[k] = c[0] + v * (c[1] + v * c[2]) - tanhl(x0 + h * v);
        }
        int n = 0, best = 0;
        long double nt[4];
        for (int k = 1; k <= N + 1 && n < 4; k++) {
            if (k == N + 1 || (err[k] > 0) != (err[best] > 0)) {
                nt[n++] = (long double)best / N;
                best = k;
            } else if (fabsl(err[k]) > fabsl(err[best]))
                best = k;
        }
        if (n < 4)
            break;
        memcpy(t, nt, sizeof t);
    }
    Seg s = { { 0 }, false };
    for (int k = 0; k < 3; k++)
        s.c[k] = llroundl(ldexpl(c[k], -unit));
    return s;
}

static const struct { const char *stem; uint32_t first; } TABLES[] = {
    { "tanh.approx.f32_p0.125_0.25", 0x3e000000 },
    { "tanh.approx.f32_p0.5_1", 0x3f000000 },
    { "tanh.approx.f32_p1_2", 0x3f800000 },
};

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "../shared/hw/approx";
    static Seg segs[BINADES][16];
    for (int e = EMIN; e <= EMAX; e++) {
        int bits = seg_bits(e);
        double h = ldexp(1, e - bits);
        for (int s = 0; s < 1 << bits; s++)
            segs[e - EMIN][s] = minimax(ldexp(1, e) + s * h, h, unit_exp(e));
    }
    static float y[131072];
    for (size_t t = 0; t < sizeof TABLES / sizeof TABLES[0]; t++) {
        uint32_t *hw = tab_hw(dir, TABLES[t].stem, TABLES[t].first, tanh);
        if (!hw) {
            fprintf(stderr, "tanh_fit: cannot read %s/%s\n", dir, TABLES[t].stem);
            return 1;
        }
        int e = ilogbf(tab_f32(TABLES[t].first)), bits = seg_bits(e), low = 23 - bits - 17;
        for (int s = 0; s < 1 << bits; s++) {
            for (uint32_t u = 0; u < 131072; u++)
                y[u] = tab_f32(hw[((uint32_t)s << (23 - bits)) | u << low]);
            segs[e - EMIN][s] = from_table(y, unit_exp(e), ldexp(1, e) * (1 + s * ldexp(1, -bits)));
        }
        free(hw);
    }
    printf("/* mufu_tanh.h: generated by tests/approx/tanh_fit.c from the H100's tables in\n"
           " * ../shared/hw/approx: MUFU.TANH's segments (see there); do not edit. */\n\n");
    printf("#define TANH_EMIN %d\n#define TANH_EMAX %d\n\n", EMIN, EMAX);
    printf("/* Per binade 2^e (from TANH_EMIN): segment bits, unit of the coefficients (2^unit), first row. */\n");
    printf("static const struct { uint8_t seg_bits; int8_t unit; uint8_t first; } TANH_BINADES[%d] = {\n", BINADES);
    int row = 0;
    for (int e = EMIN; e <= EMAX; e++) {
        printf("    { %d, %d, %d },   /* [2^%d, 2^%d) */\n", seg_bits(e), unit_exp(e), row, e, e + 1);
        row += 1 << seg_bits(e);
    }
    printf("};\n\n/* C0, C1, C2 per segment; * marks those derived from the H100's tables, the others are\n"
           " * minimax quadratics. */\nstatic const int32_t TANH_COEF[%d][3] = {\n", row);
    for (int e = EMIN; e <= EMAX; e++)
        for (int s = 0; s < 1 << seg_bits(e); s++) {
            const Seg *g = &segs[e - EMIN][s];
            printf("    { %lld, %lld, %lld },%s\n", (long long)g->c[0], (long long)g->c[1], (long long)g->c[2],
                   g->from_hw ? "  /* * */" : "");
        }
    printf("};\n");
    return 0;
}
