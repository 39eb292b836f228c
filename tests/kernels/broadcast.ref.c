/* broadcast: __shfl_sync from a parameter lane, lane 31 and per-lane (wrapping) indices. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(109);
    const int from = 9;
    int32_t in[32], src[32], o_param[32], o_last[32], o_src[32];
    float fin[32], o_float[32];
    for (int i = 0; i < 32; i++) {
        in[i] = (int32_t)rnd();
        fin[i] = rnd_float(10);
        src[i] = rnd_range(-40, 70);
    }
    src[0] = 32; src[1] = 33; src[2] = -1; src[3] = 31; src[4] = 0; src[5] = 64 + 7; src[6] = -32;
    for (int i = 0; i < 32; i++) {
        o_param[i] = in[cuda_shfl_src(SHFL_IDX, i, (uint32_t)from, 32)];
        o_float[i] = fin[cuda_shfl_src(SHFL_IDX, i, (uint32_t)(from + 3), 32)];
        o_last[i] = (int32_t)((uint32_t)in[31] * 2u + 1u);
        o_src[i] = in[(uint32_t)src[i] & 31u];
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_buf(f, "fin", "f32", fin, 32);
    lanes_buf(f, "src", "s32", src, 32);
    lanes_zero(f, "o_param", "s32", 32);
    lanes_zero(f, "o_float", "f32", 32);
    lanes_zero(f, "o_last", "s32", 32);
    lanes_zero(f, "o_src", "s32", 32);
    char params[256];
    snprintf(params, sizeof params,
             "\"@in\", \"@fin\", \"@src\", \"@o_param\", \"@o_float\", \"@o_last\", \"@o_src\", %d", from);
    lanes_end(f, params, NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "o_param", "s32", o_param, 32);
    expect_buf(f, "o_float", "f32", o_float, 32);
    expect_buf(f, "o_last", "s32", o_last, 32);
    expect_buf(f, "o_src", "s32", o_src, 32);
    expect_end(f);
    return 0;
}
