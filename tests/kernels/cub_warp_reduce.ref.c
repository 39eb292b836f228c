/* cub_warp_reduce: the documented results of the CUB calls (lane 0 / segment heads). */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(124);
    const int valid = 23;
    int32_t in[32], heads[32], out[5], seg[32];
    float fin[32], fout[1];
    for (int i = 0; i < 32; i++) {
        in[i] = rnd_range(-100000, 100000);
        heads[i] = rnd() % 5 == 0;
        fin[i] = (float)rnd_range(-4000, 4000) / 8.0f;
    }
    heads[0] = 0;          /* lane 0 starts a segment anyway */
    heads[31] = 1;
    int32_t sum = 0, mx = INT32_MIN, psum = 0, s16[2] = {0, 0};
    float fs = 0;
    for (int i = 0; i < 32; i++) {
        sum += in[i];
        if (in[i] > mx) mx = in[i];
        if (i < valid) psum += in[i];
        s16[i / 16] += in[i];
        fs += fin[i];
    }
    out[0] = sum; out[1] = mx; out[2] = psum; out[3] = s16[0]; out[4] = s16[1];
    fout[0] = fs;
    for (int i = 0; i < 32; i++) {
        seg[i] = 0;
        if (i == 0 || heads[i]) {
            int32_t s = 0;
            for (int j = i; j < 32 && (j == i || !heads[j]); j++)
                s += in[j];
            seg[i] = s;
        }
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_buf(f, "heads", "s32", heads, 32);
    lanes_buf(f, "fin", "f32", fin, 32);
    lanes_zero(f, "out", "s32", 5);
    lanes_zero(f, "seg", "s32", 32);
    lanes_zero(f, "fout", "f32", 1);
    char params[200];
    snprintf(params, sizeof params, "\"@in\", \"@heads\", \"@fin\", \"@out\", \"@seg\", \"@fout\", %d", valid);
    lanes_end(f, params, NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "s32", out, 5);
    expect_buf(f, "seg", "s32", seg, 32);
    expect_buf(f, "fout", "f32", fout, 1);
    expect_end_entry(f, "kernel");
    return 0;
}
