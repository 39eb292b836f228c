/* reduce_double_down: shfl_down tree sum / max of 32 doubles; all lanes' final values. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(106);
    double in[32], s[32], mx[32];
    for (int i = 0; i < 32; i++)
        in[i] = rnd_double(40);
    memcpy(s, in, sizeof s);
    memcpy(mx, in, sizeof mx);
    for (int o = 16; o > 0; o >>= 1) {
        double ns[32], nx[32];
        for (int i = 0; i < 32; i++) {
            int j = i + o < 32 ? i + o : i;
            ns[i] = s[i] + s[j];
            nx[i] = fmax(mx[i], mx[j]);
        }
        memcpy(s, ns, sizeof s);
        memcpy(mx, nx, sizeof mx);
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "f64", in, 32);
    lanes_zero(f, "sum", "f64", 32);
    lanes_zero(f, "max", "f64", 32);
    lanes_end(f, "\"@in\", \"@sum\", \"@max\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "sum", "f64", s, 32);
    expect_buf(f, "max", "f64", mx, 32);
    expect_end(f);
    return 0;
}
