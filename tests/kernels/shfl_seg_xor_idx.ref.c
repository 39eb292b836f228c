/* shfl_seg_xor_idx: segmented shfl xor/idx, simulated with the PTX shfl pseudo-code. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(111);
    int32_t in[32], src[32], out[12 * 32];
    float fin[32], fout[2 * 32];
    for (int i = 0; i < 32; i++) {
        in[i] = rnd_range(-5000, 5000);
        fin[i] = rnd_float(8);
        src[i] = rnd_range(0, 63);
    }
    static const struct { int mode, arg, width; } rows[10] = {
        {SHFL_BFLY, 1, 2}, {SHFL_BFLY, 2, 4}, {SHFL_BFLY, 3, 4}, {SHFL_BFLY, 5, 8},
        {SHFL_BFLY, 12, 16}, {SHFL_BFLY, 8, 8}, {SHFL_IDX, 1, 2}, {SHFL_IDX, 3, 4},
        {SHFL_IDX, 6, 8}, {SHFL_IDX, 13, 16},
    };
    for (int r = 0; r < 10; r++)
        for (int i = 0; i < 32; i++)
            out[r * 32 + i] = in[cuda_shfl_src(rows[r].mode, i, (uint32_t)rows[r].arg, rows[r].width)];
    for (int i = 0; i < 32; i++) {
        /* idx with width w reads lane (i / w) * w + src % w */
        out[10 * 32 + i] = in[(i & ~7) | (src[i] & 7)];
        out[11 * 32 + i] = in[(i & ~15) | (src[i] & 15)];
        fout[0 * 32 + i] = fin[i ^ 4];
        fout[1 * 32 + i] = fin[(i & ~3) | 2];
    }
    /* the laneMask == width case: odd segments read the one below, even ones keep their own */
    for (int i = 0; i < 32; i++)
        if (out[5 * 32 + i] != in[(i & 8) ? i ^ 8 : i])
            return fprintf(stderr, "shfl_seg_xor_idx.ref: self-check failed\n"), 1;
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_buf(f, "fin", "f32", fin, 32);
    lanes_buf(f, "src", "s32", src, 32);
    lanes_zero(f, "out", "s32", 12 * 32);
    lanes_zero(f, "fout", "f32", 2 * 32);
    lanes_end(f, "\"@in\", \"@fin\", \"@src\", \"@out\", \"@fout\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "s32", out, 12 * 32);
    expect_buf(f, "fout", "f32", fout, 2 * 32);
    expect_end(f);
    return 0;
}
