/* scan_float: inclusive / exclusive float scans in the kernel's exact order. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(108);
    float in[32], incl[32], excl[32], diff[32];
    for (int i = 0; i < 32; i++)
        in[i] = rnd_float(12);
    memcpy(incl, in, sizeof incl);
    for (int o = 1; o < 32; o <<= 1) {
        float nx[32];
        for (int i = 0; i < 32; i++)
            nx[i] = i >= o ? incl[i - o] + incl[i] : incl[i];
        memcpy(incl, nx, sizeof incl);
    }
    for (int i = 0; i < 32; i++) {
        excl[i] = i == 0 ? 0.0f : incl[i - 1];
        diff[i] = incl[i] - in[i];
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "f32", in, 32);
    lanes_zero(f, "incl", "f32", 32);
    lanes_zero(f, "excl", "f32", 32);
    lanes_zero(f, "diff", "f32", 32);
    lanes_end(f, "\"@in\", \"@incl\", \"@excl\", \"@diff\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "incl", "f32", incl, 32);
    expect_buf(f, "excl", "f32", excl, 32);
    expect_buf(f, "diff", "f32", diff, 32);
    expect_end(f);
    return 0;
}
