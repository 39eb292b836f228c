/* reduce_int_xor: butterfly sum / max / min of 32 ints. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(101);
    int32_t in[32], s[32], mx[32], mn[32];
    for (int i = 0; i < 32; i++)
        in[i] = (int32_t)rnd();
    for (int i = 0; i < 32; i++)
        s[i] = mx[i] = mn[i] = in[i];
    for (int o = 16; o > 0; o >>= 1) {
        int32_t ns[32], nx[32], nn[32];
        for (int i = 0; i < 32; i++) {
            int j = i ^ o;
            ns[i] = (int32_t)((uint32_t)s[i] + (uint32_t)s[j]);
            nx[i] = mx[i] > mx[j] ? mx[i] : mx[j];
            nn[i] = mn[i] < mn[j] ? mn[i] : mn[j];
        }
        memcpy(s, ns, sizeof s);
        memcpy(mx, nx, sizeof mx);
        memcpy(mn, nn, sizeof mn);
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_zero(f, "sum", "s32", 32);
    lanes_zero(f, "max", "s32", 32);
    lanes_zero(f, "min", "s32", 32);
    lanes_end(f, "\"@in\", \"@sum\", \"@max\", \"@min\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "sum", "s32", s, 32);
    expect_buf(f, "max", "s32", mx, 32);
    expect_buf(f, "min", "s32", mn, 32);
    expect_end(f);
    return 0;
}
