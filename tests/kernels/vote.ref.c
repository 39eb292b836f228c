/* vote: ballot / any / all / activemask, converged and per branch arm. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(114);
    const int thr = 100;
    int32_t in[32];
    uint32_t out[10 * 32];
    for (int i = 0; i < 32; i++)
        in[i] = rnd_range(-1000, 1000);
    in[5] = 0;
    in[7] = 950;
    uint32_t b_thr = 0, b_odd = 0, any900 = 0, all_thr = 1, b_pos_lo = 0, b_neg_hi = 0;
    uint32_t b_odd_thr = 0, b_even_lt = 0, even_zero = 0;
    for (int i = 0; i < 32; i++) {
        if (in[i] > thr) b_thr |= 1u << i;
        if (in[i] & 1) b_odd |= 1u << i;
        if (in[i] > 900) any900 = 1;
        if (!(in[i] > thr)) all_thr = 0;
        if (i < 16 && in[i] > 0) b_pos_lo |= 1u << i;
        if (i >= 16 && in[i] < 0) b_neg_hi |= 1u << i;
    }
    for (int i = 0; i < 32; i++) {
        if ((in[i] & 1) && in[i] > thr) b_odd_thr |= 1u << i;
        if (!(in[i] & 1) && in[i] < thr) b_even_lt |= 1u << i;
        if (!(in[i] & 1) && in[i] == 0) even_zero = 1;
    }
    for (int i = 0; i < 32; i++) {
        out[0 * 32 + i] = b_thr;
        out[1 * 32 + i] = any900;
        out[2 * 32 + i] = 0;
        out[3 * 32 + i] = 1;
        out[4 * 32 + i] = all_thr;
        out[5 * 32 + i] = 0xffffffffu;
        if (in[i] & 1) {
            out[6 * 32 + i] = b_odd;
            out[7 * 32 + i] = b_odd_thr;
            out[8 * 32 + i] = 1;
        } else {
            out[6 * 32 + i] = ~~b_odd;        /* ~activemask of the even lanes */
            out[7 * 32 + i] = b_even_lt ^ 0x80000000u;
            out[8 * 32 + i] = even_zero;
        }
        out[9 * 32 + i] = i < 16 ? b_pos_lo : b_neg_hi;
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_zero(f, "out", "b32", 10 * 32);
    char params[64];
    snprintf(params, sizeof params, "\"@in\", \"@out\", %d", thr);
    lanes_end(f, params, NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "b32", out, 10 * 32);
    expect_end(f);
    return 0;
}
