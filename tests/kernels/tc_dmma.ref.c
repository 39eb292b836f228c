/* tc_dmma: D = A B + C in double, 16 x 16 x 32, exact sums. */
#include "tc_ref.h"

#define M 16
#define N 16
#define K 32

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(3405);
    static double a[M][K], b[K][N], c[M][N], d[M][N];
    for (int m = 0; m < M; m++)
        for (int k = 0; k < K; k++)
            a[m][k] = tc_dyadic(64, 16);
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++)
            b[k][n] = tc_dyadic(64, 16);
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++)
            c[m][n] = tc_dyadic(65536, 256);
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            double s = c[m][n];
            for (int k = 0; k < K; k++)
                s += a[m][k] * b[k][n];   /* multiples of 1/256 below 2^10: exact */
            d[m][n] = s;
        }
    FILE *f = lanes_begin(argv[1], 128);
    lanes_buf(f, "a", "f64", a, M * K);
    lanes_buf(f, "b", "f64", b, K * N);
    lanes_buf(f, "c", "f64", c, M * N);
    lanes_zero(f, "d", "f64", M * N);
    lanes_end(f, "\"@a\", \"@b\", \"@c\", \"@d\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "d", "f64", d, M * N);
    expect_end(f);
    return 0;
}
