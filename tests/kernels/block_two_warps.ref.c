/* block_two_warps: per-warp shuffles, a cross-warp exchange through shared memory, bar.red. */
#include "ref_common.h"

#define N 64

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(701);
    int32_t in[N], out[10 * N];
    for (int i = 0; i < N; i++)
        in[i] = rnd_range(-500, 500);
    int32_t total[2] = { 0, 0 };
    for (int i = 0; i < N; i++)
        total[i / 32] += in[i];
    int count = 0, all_big = 1, any_12345 = 0, all_pos = 1;
    for (int i = 0; i < N; i++) {
        count += in[i] > 0;
        all_big &= in[i] > -1000;
        any_12345 |= in[i] == 12345;
        all_pos &= in[i] > 0;
    }
    for (int t = 0; t < N; t++) {
        int warp = t / 32, lane = t % 32, scan = 0;
        for (int k = warp * 32; k <= t; k++)
            scan += in[k];
        out[t] = total[warp];
        out[64 + t] = total[1 - warp];
        out[128 + t] = scan + (warp ? total[0] : 0);
        out[192 + t] = in[63 - t];
        out[256 + t] = in[warp * 32 + 31 - lane];
        out[320 + t] = count;
        out[384 + t] = all_big;
        out[448 + t] = any_12345;
        out[512 + t] = all_pos;
        out[576 + t] = 1;
    }
    FILE *f = lanes_begin(argv[1], N);
    lanes_buf(f, "in", "s32", in, N);
    lanes_zero(f, "out", "s32", 10 * N);
    lanes_end(f, "\"@in\", \"@out\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "s32", out, 10 * N);
    expect_end(f);
    return 0;
}
