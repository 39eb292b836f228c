/* tc_mma_b1: D = C + popc(A xor B), E = popc(A and B), bit by bit, 32 x 32 x 512. */
#include "tc_ref.h"

#define M 32
#define N 32
#define K 512

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(3406);
    static uint8_t a[M][K], b[K][N];
    static uint32_t wa[M * K / 32], wb[N * K / 32];
    static int32_t c[M][N], d[M][N], e[M][N];
    /* rows of A with different densities of ones, so that the counts spread */
    for (int m = 0; m < M; m++)
        for (int k = 0; k < K; k++)
            a[m][k] = (rnd() % 32) < (uint32_t)m;
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++)
            b[k][n] = (rnd() % 32) < (uint32_t)(31 - n);
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++)
            c[m][n] = rnd_range(-1000, 1000);
    for (int m = 0; m < M; m++)
        for (int k = 0; k < K; k++)
            wa[m * (K / 32) + k / 32] |= (uint32_t)a[m][k] << (k % 32);
    for (int n = 0; n < N; n++)
        for (int k = 0; k < K; k++)
            wb[n * (K / 32) + k / 32] |= (uint32_t)b[k][n] << (k % 32);
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            int x = c[m][n], y = 0;
            for (int k = 0; k < K; k++) {
                x += a[m][k] != b[k][n];
                y += a[m][k] && b[k][n];
            }
            d[m][n] = x;
            e[m][n] = y;
        }
    FILE *f = lanes_begin(argv[1], 128);
    lanes_buf(f, "a", "b32", wa, M * K / 32);
    lanes_buf(f, "b", "b32", wb, N * K / 32);
    lanes_buf(f, "c", "s32", c, M * N);
    lanes_zero(f, "d", "s32", M * N);
    lanes_zero(f, "e", "s32", M * N);
    lanes_end(f, "\"@a\", \"@b\", \"@c\", \"@d\", \"@e\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "d", "s32", d, M * N);
    expect_buf(f, "e", "s32", e, M * N);
    expect_end(f);
    return 0;
}
