/* vote_partial: a 20-thread block; votes and a guarded shfl_down sum; 12 lanes vote again. */
#include "ref_common.h"

#define N 20

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(115);
    int32_t in[N], sum[N], s[N];
    uint32_t out[6 * N];
    for (int i = 0; i < N; i++) {
        in[i] = rnd_range(-50, 50);
        if (in[i] == 0)
            in[i] = 3;
    }
    uint32_t act = (1u << N) - 1, bpos = 0, bneg12 = 0;
    for (int i = 0; i < N; i++) {
        if (in[i] > 0) bpos |= 1u << i;
        if (i < 12 && in[i] < 0) bneg12 |= 1u << i;
    }
    memcpy(s, in, sizeof s);
    for (int o = 16; o > 0; o >>= 1) {
        int32_t ns[N];
        for (int i = 0; i < N; i++)
            ns[i] = i + o < N ? s[i] + s[i + o] : s[i];
        memcpy(s, ns, sizeof s);
    }
    memcpy(sum, s, sizeof sum);
    memset(out, 0, sizeof out);
    for (int i = 0; i < N; i++) {
        out[0 * N + i] = act;
        out[1 * N + i] = bpos;
        out[2 * N + i] = 1;
        if (i < 12) {
            out[3 * N + i] = 0xfffu;
            out[4 * N + i] = bneg12;
            out[5 * N + i] = (uint32_t)in[11 - i];
        }
    }
    FILE *f = lanes_begin(argv[1], N);
    lanes_buf(f, "in", "s32", in, N);
    lanes_zero(f, "out", "b32", 6 * N);
    lanes_zero(f, "sum", "s32", N);
    lanes_end(f, "\"@in\", \"@out\", \"@sum\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "b32", out, 6 * N);
    expect_buf(f, "sum", "s32", sum, N);
    expect_end(f);
    return 0;
}
