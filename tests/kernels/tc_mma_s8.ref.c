/* tc_mma_s8: D = A B + C (s8, wrapping never needed) and E = sat(sat(C' + A'B[k 0..31]) +
 * A'B[k 32..63]) (u8 x s8, each mma clamping its exact sum to the s32 range), 32 x 32 x 64. */
#include "tc_ref.h"

#define M 32
#define N 32
#define K 64

static int64_t clamp32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
}

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(3403);
    static int8_t a[M][K], b[K][N];
    static uint8_t au[M][K];
    static uint8_t ba[M * K], bau[M * K], bb[N * K];
    static int32_t c[M][N], c2[M][N], d[M][N], e[M][N];
    for (int m = 0; m < M; m++)
        for (int k = 0; k < K; k++) {
            a[m][k] = (int8_t)rnd_range(-128, 127);
            au[m][k] = (uint8_t)rnd_range(0, 255);
            ba[m * K + k] = (uint8_t)a[m][k];
            bau[m * K + k] = au[m][k];
        }
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++) {
            b[k][n] = (int8_t)rnd_range(-128, 127);
            bb[n * K + k] = (uint8_t)b[k][n];           /* col-major */
        }
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            c[m][n] = rnd_range(-100000, 100000);
            int32_t off = rnd_range(0, 400000);
            c2[m][n] = (rnd() & 1) ? INT32_MAX - off : INT32_MIN + off;
        }
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            int64_t s = c[m][n], t = c2[m][n];
            for (int k = 0; k < K; k++) {
                s += (int64_t)a[m][k] * b[k][n];
                t += (int64_t)au[m][k] * b[k][n];
                if (k == 31)
                    t = clamp32(t);
            }
            d[m][n] = (int32_t)s;
            e[m][n] = (int32_t)clamp32(t);
        }
    /* the words the kernel reads: 4 bytes of a row, the lowest-addressed in the low bits */
    static uint32_t wa[M * K / 4], wau[M * K / 4], wb[N * K / 4];
    for (int i = 0; i < M * K / 4; i++) {
        wa[i] = ba[4 * i] | (uint32_t)ba[4 * i + 1] << 8 | (uint32_t)ba[4 * i + 2] << 16 | (uint32_t)ba[4 * i + 3] << 24;
        wau[i] = bau[4 * i] | (uint32_t)bau[4 * i + 1] << 8 | (uint32_t)bau[4 * i + 2] << 16 | (uint32_t)bau[4 * i + 3] << 24;
    }
    for (int i = 0; i < N * K / 4; i++)
        wb[i] = bb[4 * i] | (uint32_t)bb[4 * i + 1] << 8 | (uint32_t)bb[4 * i + 2] << 16 | (uint32_t)bb[4 * i + 3] << 24;
    FILE *f = lanes_begin(argv[1], 128);
    lanes_buf(f, "a", "b32", wa, M * K / 4);
    lanes_buf(f, "au", "b32", wau, M * K / 4);
    lanes_buf(f, "b", "b32", wb, N * K / 4);
    lanes_buf(f, "c", "s32", c, M * N);
    lanes_buf(f, "c2", "s32", c2, M * N);
    lanes_zero(f, "d", "s32", M * N);
    lanes_zero(f, "e", "s32", M * N);
    lanes_end(f, "\"@a\", \"@au\", \"@b\", \"@c\", \"@c2\", \"@d\", \"@e\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "d", "s32", d, M * N);
    expect_buf(f, "e", "s32", e, M * N);
    expect_end(f);
    return 0;
}
