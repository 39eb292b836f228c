/* shfl_seg_updown: segmented shfl up/down, simulated with the PTX shfl pseudo-code. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(110);
    int32_t in[32], out[10 * 32];
    uint32_t delta[32];
    float fin[32], fout[2 * 32];
    for (int i = 0; i < 32; i++) {
        in[i] = rnd_range(-5000, 5000);
        fin[i] = rnd_float(8);
        delta[i] = (uint32_t)rnd_range(0, 12);
    }
    delta[0] = 0; delta[1] = 1; delta[17] = 16; delta[30] = 0;
    static const struct { int mode, delta, width; } rows[8] = {
        {SHFL_UP, 1, 2}, {SHFL_DOWN, 1, 2}, {SHFL_UP, 1, 4}, {SHFL_DOWN, 3, 4},
        {SHFL_UP, 2, 8}, {SHFL_DOWN, 5, 8}, {SHFL_UP, 7, 16}, {SHFL_DOWN, 4, 16},
    };
    for (int r = 0; r < 8; r++)
        for (int i = 0; i < 32; i++)
            out[r * 32 + i] = in[cuda_shfl_src(rows[r].mode, i, (uint32_t)rows[r].delta, rows[r].width)];
    for (int i = 0; i < 32; i++) {
        out[8 * 32 + i] = in[cuda_shfl_src(SHFL_UP, i, delta[i], 8)];
        out[9 * 32 + i] = in[cuda_shfl_src(SHFL_DOWN, i, delta[i], 16)];
        fout[0 * 32 + i] = fin[cuda_shfl_src(SHFL_UP, i, 3, 16)];
        fout[1 * 32 + i] = fin[cuda_shfl_src(SHFL_DOWN, i, 2, 4)];
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_buf(f, "fin", "f32", fin, 32);
    lanes_buf(f, "delta", "u32", delta, 32);
    lanes_zero(f, "out", "s32", 10 * 32);
    lanes_zero(f, "fout", "f32", 2 * 32);
    lanes_end(f, "\"@in\", \"@fin\", \"@delta\", \"@out\", \"@fout\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "s32", out, 10 * 32);
    expect_buf(f, "fout", "f32", fout, 2 * 32);
    expect_end(f);
    return 0;
}
