/* divergent_halves: per-arm shuffles with the arms' own masks. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(118);
    int32_t in[32], out[3 * 32], s[32];
    for (int i = 0; i < 32; i++)
        in[i] = rnd_range(-500, 500);
    in[3] |= 1;          /* both value groups are non-empty */
    in[4] &= ~1;
    /* (1) */
    memcpy(s, in, sizeof s);
    for (int o = 8; o > 0; o >>= 1) {
        int32_t ns[32];
        for (int i = 0; i < 32; i++) {
            if (i < 16)
                ns[i] = s[i] + s[i ^ o];
            else {
                int j = i + o <= 31 ? i + o : i;
                ns[i] = s[i] > s[j] ? s[i] : s[j];
            }
        }
        memcpy(s, ns, sizeof s);
    }
    for (int i = 0; i < 32; i++)
        out[i] = s[i];
    /* (2) */
    for (int i = 0; i < 32; i++) {
        int j;
        if (i < 8)
            j = i >= 1 ? i - 1 : i;
        else if (i < 16)
            j = i + 1 <= 15 ? i + 1 : i;
        else
            j = i ^ 5;
        out[32 + i] = in[j];
    }
    /* (3) */
    int first_odd = -1, last_even = -1;
    for (int i = 0; i < 32; i++) {
        if ((in[i] & 1) && first_odd < 0) first_odd = i;
        if (!(in[i] & 1)) last_even = i;
    }
    int rank = 0;
    for (int i = 0; i < 32; i++) {
        if (in[i] & 1)
            out[64 + i] = in[first_odd] + rank++;
        else
            out[64 + i] = in[last_even] - i;
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
