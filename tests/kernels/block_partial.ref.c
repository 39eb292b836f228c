/* block_partial: a 48-thread block (warp 1 has 16 threads): activemask, shuffle sums, shared. */
#include "ref_common.h"

#define N 48

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(704);
    int32_t in[N], out[5 * N];
    uint32_t masks[N];
    for (int i = 0; i < N; i++)
        in[i] = rnd_range(-1000, 1000);
    int total = 0, odd = 0;
    for (int i = 0; i < N; i++) {
        total += in[i];
        odd += in[i] & 1;
    }
    for (int t = 0; t < N; t++) {
        int warp = t / 32, lane = t % 32, size = warp ? N - 32 : 32;
        masks[t] = size == 32 ? 0xffffffffu : (1u << size) - 1;
        /* shfl_down tree: lane keeps adding lane+o while it is in the warp's own threads */
        int s[32];
        for (int k = 0; k < size; k++)
            s[k] = in[warp * 32 + k];
        for (int o = 16; o > 0; o >>= 1)
            for (int k = 0; k < size; k++)
                if (k + o < size)
                    s[k] += s[k + o];
        out[t] = s[lane];
        out[48 + t] = total;
        out[96 + t] = in[47 - t];
        out[144 + t] = odd;
        out[192 + t] = N * 1000 + t;
    }
    FILE *f = lanes_begin(argv[1], N);
    lanes_buf(f, "in", "s32", in, N);
    lanes_zero(f, "mask_out", "b32", N);
    lanes_zero(f, "out", "s32", 5 * N);
    lanes_end(f, "\"@in\", \"@mask_out\", \"@out\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "mask_out", "b32", masks, N);
    expect_buf(f, "out", "s32", out, 5 * N);
    expect_end(f);
    return 0;
}
