/* loop_activemask: iterate the shrinking groups of lanes; per-case group broadcasts. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(137);
    int32_t in[32], out[3 * 32], acc[32];
    for (int i = 0; i < 32; i++)
        in[i] = rnd_range(0, 100000);
    in[9] = 7;                                   /* some lane loops 7 times */
    for (int i = 0; i < 32; i++)
        acc[i] = 0;
    for (int it = 0; it < 8; it++) {
        uint32_t m = 0, b = 0;
        for (int i = 0; i < 32; i++)
            if ((in[i] & 7) > it)
                m |= 1u << i;
        if (!m)
            break;
        for (int i = 0; i < 32; i++)
            if ((m >> i & 1) && ((in[i] >> (it + 3)) & 1))
                b |= 1u << i;
        int leader = ctz32(m);
        int pop = popc32(m);
        for (int i = 0; i < 32; i++)
            if (m >> i & 1) {
                acc[i] = acc[i] * 3 + pop;
                acc[i] ^= (int32_t)b;
                acc[i] += leader * 10 + it;
            }
    }
    for (int i = 0; i < 32; i++) {
        out[i] = acc[i];
        int key = i % 5, first = key;          /* lane `key` is the group's first lane */
        uint32_t grp = 0;
        for (int j = key; j < 32; j += 5)
            grp |= 1u << j;
        int32_t r;
        switch (key) {
        case 0: r = in[first] * 2; break;
        case 1: r = (in[first] ^ 0x3c) + 1; break;
        case 2: r = in[first] - in[i]; break;
        case 3: r = (in[first] + first) ^ i; break;
        default: r = -in[first]; break;
        }
        out[32 + i] = r;
        out[64 + i] = (int32_t)grp;
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_zero(f, "out", "s32", 3 * 32);
    lanes_end(f, "\"@in\", \"@out\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "s32", out, 3 * 32);
    expect_end(f);
    return 0;
}
