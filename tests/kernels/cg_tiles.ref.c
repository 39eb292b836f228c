/* cg_tiles: per-tile shuffles, votes, reductions and scans; coalesced group of odd values. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(136);
    int32_t in[32], out[9 * 32], s[32];
    for (int i = 0; i < 32; i++)
        in[i] = rnd_range(-500, 500);
    in[0] |= 1;
    /* tile-8 shfl_down sum: out-of-tile sources keep their own value */
    memcpy(s, in, sizeof s);
    for (int o = 4; o > 0; o >>= 1) {
        int32_t ns[32];
        for (int i = 0; i < 32; i++)
            ns[i] = s[i] + s[cuda_shfl_src(SHFL_DOWN, i, (uint32_t)o, 8)];
        memcpy(s, ns, sizeof s);
    }
    for (int i = 0; i < 32; i++)
        out[i] = s[i];
    for (int i = 0; i < 32; i++) {
        int b8 = i & ~7, b16 = i & ~15;
        int32_t mx = INT32_MIN, sum16 = 0, mx8 = INT32_MIN, scan = 0;
        int any = 0, all = 1;
        uint32_t bal = 0;
        for (int j = b16; j < b16 + 16; j++) {
            if (in[j] > mx) mx = in[j];
            sum16 += in[j];
            if (in[j] & 1) bal |= 1u << (j - b16);
        }
        for (int j = b8; j < b8 + 8; j++) {
            if (in[j] > 400) any = 1;
            if (!(in[j] > -400)) all = 0;
            if (in[j] > mx8) mx8 = in[j];
            if (j <= i) scan += in[j];
        }
        out[1 * 32 + i] = mx;
        out[2 * 32 + i] = in[b8 + 7 - (i - b8)];
        out[3 * 32 + i] = any | (all << 1);
        out[4 * 32 + i] = (int32_t)bal;
        out[5 * 32 + i] = sum16;
        out[6 * 32 + i] = mx8;
        out[7 * 32 + i] = scan;
    }
    int n = 0, first = -1;
    for (int i = 0; i < 32; i++)
        if (in[i] & 1) {
            if (first < 0) first = i;
            n++;
        }
    int rank = 0;
    for (int i = 0; i < 32; i++)
        out[8 * 32 + i] = (in[i] & 1) ? n * 1000 + (rank++) * 10 + (in[first] & 7) : -1;
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_zero(f, "out", "s32", 9 * 32);
    lanes_end(f, "\"@in\", \"@out\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "s32", out, 9 * 32);
    expect_end(f);
    return 0;
}
