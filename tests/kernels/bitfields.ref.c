/* bitfields: the fields of each lane's struct, a ballot of kind > 3 and each lane's partner's
 * count (lane ^ 1), from their definitions. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(4242);
    int32_t in[32], out[64];
    for (int i = 0; i < 32; i++)
        in[i] = (int32_t)(rnd() & 0x7fffffff);
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_zero(f, "out", "s32", 64);
    lanes_end(f, "\"@in\", \"@out\"", NULL);

    uint32_t kind[32], count[32], mask = 0;
    for (int i = 0; i < 32; i++) {
        kind[i] = (uint32_t)in[i] & 7;
        count[i] = ((uint32_t)in[i] >> 3) & 511;
        if (kind[i] > 3)
            mask |= 1u << i;
    }
    for (int i = 0; i < 32; i++) {
        out[i] = (int32_t)(kind[i] + count[i] * 8 + count[i ^ 1] * 4096 + (1u << 30));
        out[32 + i] = (int32_t)mask;
    }
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "s32", out, 64);
    expect_end(f);
    return 0;
}
