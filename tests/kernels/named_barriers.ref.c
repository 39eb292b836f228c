/* named_barriers: bar.arrive / bar.sync producer-consumer between warp pairs of a 128-block. */
#include "ref_common.h"

#define N 128

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(706);
    int32_t in[N], out[2 * N];
    for (int i = 0; i < N; i++)
        in[i] = rnd_range(-10000, 10000);
    for (int t = 0; t < N; t++) {
        if (t < 64)
            out[t] = in[64 + 63 - t] - 7;
        else
            out[t] = in[t - 64] * 3 + 1;
        int partner = t < 64 ? 63 - t : 191 - t;
        out[128 + t] = in[partner] ^ 0x55;
    }
    FILE *f = lanes_begin(argv[1], N);
    lanes_buf(f, "in", "s32", in, N);
    lanes_zero(f, "out", "s32", 2 * N);
    lanes_end(f, "\"@in\", \"@out\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "s32", out, 2 * N);
    expect_end(f);
    return 0;
}
