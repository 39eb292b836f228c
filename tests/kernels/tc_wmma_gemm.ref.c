/* tc_wmma_gemm: D = A B + C and E = A2 B2 (stored col-major), 32 x 32 x 48, exact sums. */
#include "tc_ref.h"

#define M 32
#define N 32
#define K 48

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(3401);
    static double a[M][K], b[K][N], a2[M][K], b2[K][N];
    static float c[M][N], d[M][N], e[N][M];
    static uint16_t ha[M * K], hb[N * K], ha2[K * M], hb2[K * N];
    for (int m = 0; m < M; m++)
        for (int k = 0; k < K; k++) {
            a[m][k] = tc_dyadic(8, 4);
            ha[m * K + k] = tc_half_bits(a[m][k]);              /* row-major */
        }
    for (int n = 0; n < N; n++)
        for (int k = 0; k < K; k++) {
            b[k][n] = tc_dyadic(8, 4);
            hb[n * K + k] = tc_half_bits(b[k][n]);              /* col-major */
        }
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++)
            c[m][n] = (float)tc_dyadic(64, 8);
    for (int m = 0; m < M; m++)
        for (int k = 0; k < K; k++) {
            a2[m][k] = tc_dyadic(8, 4);
            ha2[k * M + m] = tc_half_bits(a2[m][k]);            /* col-major */
        }
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++) {
            b2[k][n] = tc_dyadic(8, 4);
            hb2[k * N + n] = tc_half_bits(b2[k][n]);            /* row-major */
        }
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            double s = c[m][n], s2 = 0;
            for (int k = 0; k < K; k++) {
                s += a[m][k] * b[k][n];
                s2 += a2[m][k] * b2[k][n];
            }
            d[m][n] = (float)s;
            e[n][m] = (float)s2;
            if ((double)d[m][n] != s || (double)e[n][m] != s2) {
                fprintf(stderr, "tc_wmma_gemm.ref: a sum is not exact in f32\n");
                return 1;
            }
        }
    FILE *f = lanes_begin(argv[1], 128);
    lanes_buf(f, "a", "b16", ha, M * K);
    lanes_buf(f, "b", "b16", hb, N * K);
    lanes_buf(f, "c", "f32", c, M * N);
    lanes_zero(f, "d", "f32", M * N);
    lanes_buf(f, "a2", "b16", ha2, M * K);
    lanes_buf(f, "b2", "b16", hb2, N * K);
    lanes_zero(f, "e", "f32", M * N);
    lanes_end(f, "\"@a\", \"@b\", \"@c\", \"@d\", \"@a2\", \"@b2\", \"@e\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "d", "f32", d, M * N);
    expect_buf(f, "e", "f32", e, M * N);
    expect_end(f);
    return 0;
}
