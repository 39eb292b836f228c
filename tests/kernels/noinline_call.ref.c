/* noinline_call: sums, sums of squares, min/max pairs, a*x+y rounded twice. */
#include "ref_common.h"

static int32_t tri(int n) { return n * (n + 1) * (2 * n + 1) / 6; }

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(132);
    const float alpha = 1.25f;
    int32_t in[32], in2[32], out[7 * 32];
    float fx[32], fout[32];
    for (int i = 0; i < 32; i++) {
        in[i] = rnd_range(-10000, 10000);
        in2[i] = rnd_range(-10000, 10000);
        fx[i] = rnd_float(10);
    }
    int32_t sum = 0, mixed = 0;
    for (int i = 0; i < 32; i++) {
        sum += in[i];
        mixed += (i & 1) ? in[i] : -in[i];   /* what each arm supplied */
    }
    for (int i = 0; i < 32; i++) {
        out[0 * 32 + i] = sum;
        out[1 * 32 + i] = (i & 1) ? mixed + 1 : mixed;
        out[2 * 32 + i] = i < 20 ? tri(i) : -tri(i - 20);
        out[3 * 32 + i] = in[i] < in2[i] ? in[i] : in2[i];
        out[4 * 32 + i] = in[i] > in2[i] ? in[i] : in2[i];
        out[5 * 32 + i] = in[i] ^ in2[i];
        out[6 * 32 + i] = (in[i] ^ in2[i]) * 2;
        float prod = alpha * fx[i];
        fout[i] = prod + (float)i;
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_buf(f, "in2", "s32", in2, 32);
    lanes_buf(f, "fx", "f32", fx, 32);
    lanes_zero(f, "out", "s32", 7 * 32);
    lanes_zero(f, "fout", "f32", 32);
    char params[200];
    snprintf(params, sizeof params, "\"@in\", \"@in2\", \"@fx\", \"@out\", \"@fout\", %.17g", (double)alpha);
    lanes_end(f, params, NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "s32", out, 7 * 32);
    expect_buf(f, "fout", "f32", fout, 32);
    expect_end(f);
    return 0;
}
