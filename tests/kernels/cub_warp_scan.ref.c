/* cub_warp_scan: prefix sums and max scans as CUB documents them. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(125);
    const int32_t init = -50;
    int32_t in[32], out[6 * 32];
    float fin[32], fout[32];
    for (int i = 0; i < 32; i++) {
        in[i] = rnd_range(-100, 100);
        fin[i] = (float)rnd_range(-400, 400) / 4.0f;
    }
    int32_t s = 0, m = INT32_MIN, total = 0, hs[2] = {0, 0};
    float fs = 0;
    for (int i = 0; i < 32; i++)
        total += in[i];
    int32_t me = init;
    for (int i = 0; i < 32; i++) {
        out[1 * 32 + i] = s;              /* exclusive */
        out[4 * 32 + i] = me;             /* exclusive max from init */
        s += in[i];
        m = in[i] > m ? in[i] : m;
        me = in[i] > me ? in[i] : me;
        hs[i / 16] += in[i];
        fs += fin[i];
        out[0 * 32 + i] = s;
        out[2 * 32 + i] = total;
        out[3 * 32 + i] = m;
        out[5 * 32 + i] = hs[i / 16];
        fout[i] = fs;
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_buf(f, "fin", "f32", fin, 32);
    lanes_zero(f, "out", "s32", 6 * 32);
    lanes_zero(f, "fout", "f32", 32);
    char params[200];
    snprintf(params, sizeof params, "\"@in\", \"@fin\", \"@out\", \"@fout\", \"0x%08x\"", (unsigned)init);
    lanes_end(f, params, NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "s32", out, 6 * 32);
    expect_buf(f, "fout", "f32", fout, 32);
    expect_end_entry(f, "kernel");
    return 0;
}
