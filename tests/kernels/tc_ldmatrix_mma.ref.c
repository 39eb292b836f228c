/* tc_ldmatrix_mma: D = A B + C, 32 x 32 x 32, exact sums; B given col-major and row-major. */
#include "tc_ref.h"

#define M 32
#define N 32
#define K 32

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(3402);
    static double a[M][K], b[K][N];
    static float c[M][N], d[M][N];
    static uint16_t ha[M * K], hbt[N * K], hb[K * N];
    for (int m = 0; m < M; m++)
        for (int k = 0; k < K; k++) {
            a[m][k] = tc_dyadic(8, 4);
            ha[m * K + k] = tc_half_bits(a[m][k]);
        }
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++) {
            b[k][n] = tc_dyadic(8, 4);
            hbt[n * K + k] = tc_half_bits(b[k][n]);
            hb[k * N + n] = tc_half_bits(b[k][n]);
        }
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++)
            c[m][n] = (float)tc_dyadic(64, 8);
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            double s = c[m][n];
            for (int k = 0; k < K; k++)
                s += a[m][k] * b[k][n];
            d[m][n] = (float)s;
            if ((double)d[m][n] != s) {
                fprintf(stderr, "tc_ldmatrix_mma.ref: a sum is not exact in f32\n");
                return 1;
            }
        }
    FILE *f = lanes_begin(argv[1], 128);
    lanes_buf(f, "a", "b16", ha, M * K);
    lanes_buf(f, "bt", "b16", hbt, N * K);
    lanes_buf(f, "b", "b16", hb, K * N);
    lanes_buf(f, "c", "f32", c, M * N);
    lanes_zero(f, "d", "f32", M * N);
    lanes_end(f, "\"@a\", \"@bt\", \"@b\", \"@c\", \"@d\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "d", "f32", d, M * N);
    expect_end(f);
    return 0;
}
