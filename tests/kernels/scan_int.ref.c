/* scan_int: inclusive / exclusive sum scans and an inclusive max scan of 32 ints. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(107);
    int32_t in[32], incl[32], excl[32], mx[32];
    for (int i = 0; i < 32; i++)
        in[i] = rnd_range(-1000, 1000);
    memcpy(incl, in, sizeof incl);
    memcpy(mx, in, sizeof mx);
    for (int o = 1; o < 32; o <<= 1) {
        int32_t nx[32], nm[32];
        for (int i = 0; i < 32; i++) {
            nx[i] = incl[i];
            nm[i] = mx[i];
            if (i >= o) {
                nx[i] = incl[i] + incl[i - o];
                nm[i] = mx[i] > mx[i - o] ? mx[i] : mx[i - o];
            }
        }
        memcpy(incl, nx, sizeof incl);
        memcpy(mx, nm, sizeof mx);
    }
    for (int i = 0; i < 32; i++)
        excl[i] = i == 0 ? 0 : incl[i - 1];
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_zero(f, "incl", "s32", 32);
    lanes_zero(f, "excl", "s32", 32);
    lanes_zero(f, "maxscan", "s32", 32);
    lanes_end(f, "\"@in\", \"@incl\", \"@excl\", \"@maxscan\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "incl", "s32", incl, 32);
    expect_buf(f, "excl", "s32", excl, 32);
    expect_buf(f, "maxscan", "s32", mx, 32);
    expect_end(f);
    return 0;
}
