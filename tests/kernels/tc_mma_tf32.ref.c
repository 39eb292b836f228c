/* tc_mma_tf32: D = rna_tf32(A) rna_tf32(B) + C, 32 x 32 x 32, exact sums. */
#include "tc_ref.h"

#define M 32
#define N 32
#define K 32

/* an input: v (a multiple of 1/8, its 13 low mantissa bits zero) with noise that cvt.rna.tf32
 * takes away: added to the magnitude's low 12 bits (below half an ulp: rounds down), or taken
 * from it by 1 to 0x800 (the low 13 bits are then 0x1800 or more: rounds up, to v) */
static float noisy(float v)
{
    if (v == 0)
        return v;
    uint32_t u = f2u(v);
    if (rnd() & 1)
        u += rnd() & 0xfff;
    else
        u -= 1 + (rnd() & 0x7ff);
    return u2f(u);
}

/* cvt.rna.tf32.f32 of a finite value: round the magnitude to 10 mantissa bits, ties away */
static float rna_tf32(float x)
{
    uint32_t u = f2u(x);
    u += 0x1000;
    u &= ~0x1fffu;
    return u2f(u);
}

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(3404);
    static float a[M][K], b[K][N], c[M][N], d[M][N];
    static float av[M][K], bv[K][N];
    for (int m = 0; m < M; m++)
        for (int k = 0; k < K; k++) {
            av[m][k] = (float)tc_dyadic(16, 8);
            a[m][k] = noisy(av[m][k]);
        }
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++) {
            bv[k][n] = (float)tc_dyadic(16, 8);
            b[k][n] = noisy(bv[k][n]);
        }
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++)
            c[m][n] = (float)tc_dyadic(256, 64);
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            /* every partial sum is a multiple of 1/64 below 2^17 in magnitude: exact in f32 */
            double s = c[m][n], bound = fabs(c[m][n]);
            for (int k = 0; k < K; k++) {
                double p = (double)rna_tf32(a[m][k]) * rna_tf32(b[k][n]);
                if (rna_tf32(a[m][k]) != av[m][k] || rna_tf32(b[k][n]) != bv[k][n]) {
                    fprintf(stderr, "tc_mma_tf32.ref: noise not rounded away\n");
                    return 1;
                }
                s += p;
                bound += fabs(p);
            }
            if (bound * 64 >= 16777216.0) {
                fprintf(stderr, "tc_mma_tf32.ref: partial sums may round\n");
                return 1;
            }
            d[m][n] = (float)s;
        }
    FILE *f = lanes_begin(argv[1], 128);
    lanes_buf(f, "a", "f32", a, M * K);
    lanes_buf(f, "b", "f32", b, K * N);
    lanes_buf(f, "c", "f32", c, M * N);
    lanes_zero(f, "d", "f32", M * N);
    lanes_end(f, "\"@a\", \"@b\", \"@c\", \"@d\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "d", "f32", d, M * N);
    expect_end(f);
    return 0;
}
