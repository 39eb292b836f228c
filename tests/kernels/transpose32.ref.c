/* transpose32: out = transpose(in). */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(123);
    uint32_t in[1024], out[1024];
    for (int i = 0; i < 1024; i++)
        in[i] = ((uint32_t)(i / 32) << 16) | (uint32_t)(i % 32) | (rnd() & 0xff000000u);
    for (int r = 0; r < 32; r++)
        for (int c = 0; c < 32; c++)
            out[c * 32 + r] = in[r * 32 + c];
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "b32", in, 1024);
    lanes_zero(f, "out", "b32", 1024);
    lanes_end(f, "\"@in\", \"@out\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "b32", out, 1024);
    expect_end(f);
    return 0;
}
