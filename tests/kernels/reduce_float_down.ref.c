/* reduce_float_down: shfl_down tree sum / min of 32 floats; all lanes' final values. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(104);
    float in[32], s[32], mn[32];
    for (int i = 0; i < 32; i++)
        in[i] = rnd_float(20);
    memcpy(s, in, sizeof s);
    memcpy(mn, in, sizeof mn);
    for (int o = 16; o > 0; o >>= 1) {
        float ns[32], nn[32];
        for (int i = 0; i < 32; i++) {
            int j = i + o < 32 ? i + o : i;
            ns[i] = s[i] + s[j];
            nn[i] = fminf(mn[i], mn[j]);
        }
        memcpy(s, ns, sizeof s);
        memcpy(mn, nn, sizeof mn);
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "f32", in, 32);
    lanes_zero(f, "sum", "f32", 32);
    lanes_zero(f, "min", "f32", 32);
    lanes_end(f, "\"@in\", \"@sum\", \"@min\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "sum", "f32", s, 32);
    expect_buf(f, "min", "f32", mn, 32);
    expect_end(f);
    return 0;
}
