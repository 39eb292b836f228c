/* reduce_int_down: shfl_down tree sum / max of 32 ints; all lanes' final values. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(102);
    int32_t in[32], s[32], mx[32];
    for (int i = 0; i < 32; i++)
        in[i] = rnd_range(-100000, 100000);
    memcpy(s, in, sizeof s);
    memcpy(mx, in, sizeof mx);
    for (int o = 16; o > 0; o /= 2) {
        int32_t ns[32], nx[32];
        for (int i = 0; i < 32; i++) {
            int j = i + o < 32 ? i + o : i;      /* out of range: own value */
            ns[i] = s[i] + s[j];
            nx[i] = mx[i] > mx[j] ? mx[i] : mx[j];
        }
        memcpy(s, ns, sizeof s);
        memcpy(mx, nx, sizeof mx);
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_zero(f, "sum", "s32", 32);
    lanes_zero(f, "max", "s32", 32);
    lanes_end(f, "\"@in\", \"@sum\", \"@max\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "sum", "s32", s, 32);
    expect_buf(f, "max", "s32", mx, 32);
    expect_end(f);
    return 0;
}
