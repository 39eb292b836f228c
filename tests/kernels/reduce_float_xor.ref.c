/* reduce_float_xor: butterfly sum / max of 32 floats, same tree as the kernel. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(103);
    float in[32], s[32], mx[32];
    for (int i = 0; i < 32; i++)
        in[i] = rnd_float(20);
    memcpy(s, in, sizeof s);
    memcpy(mx, in, sizeof mx);
    for (int o = 16; o > 0; o >>= 1) {
        float ns[32], nx[32];
        for (int i = 0; i < 32; i++) {
            int j = i ^ o;
            ns[i] = s[i] + s[j];
            nx[i] = fmaxf(mx[i], mx[j]);
        }
        memcpy(s, ns, sizeof s);
        memcpy(mx, nx, sizeof mx);
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "f32", in, 32);
    lanes_zero(f, "sum", "f32", 32);
    lanes_zero(f, "max", "f32", 32);
    lanes_end(f, "\"@in\", \"@sum\", \"@max\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "sum", "f32", s, 32);
    expect_buf(f, "max", "f32", mx, 32);
    expect_end(f);
    return 0;
}
