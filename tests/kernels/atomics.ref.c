/* atomics: order-independent results of shared and global atomics. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(128);
    int32_t in[32], out[47], gsum[4] = {10, 20, 30, 40}, gmax[2] = {-5, 5};
    uint32_t gbits[3] = {0x80000000u, 0x12345678u, 0xffffffffu};
    float fout[1], gf[1] = {100.0f};
    for (int i = 0; i < 32; i++)
        in[i] = rnd_range(-100000, 100000);
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_zero(f, "out", "s32", 47);
    lanes_zero(f, "fout", "f32", 1);
    lanes_buf(f, "gsum", "s32", gsum, 4);
    lanes_buf(f, "gmax", "s32", gmax, 2);
    lanes_buf(f, "gbits", "b32", gbits, 3);
    lanes_buf(f, "gf", "f32", gf, 1);
    lanes_end(f, "\"@in\", \"@out\", \"@fout\", \"@gsum\", \"@gmax\", \"@gbits\", \"@gf\"", NULL);

    memset(out, 0, sizeof out);
    int32_t smax = INT32_MIN, smin = INT32_MAX;
    uint32_t scas = 0, sinc = 0;
    float fsum = 0;
    for (int i = 0; i < 32; i++) {
        int v = in[i];
        out[v & 7]++;
        out[8 + i] = i + 1;                       /* ticket i was drawn once */
        if (v > smax) smax = v;
        if (v < smin) smin = v;
        scas += (uint32_t)v;
        sinc = sinc >= 9 ? 0 : sinc + 1;
        fsum += (float)(v & 0xff) * 0.25f;        /* exact: small multiples of 1/4 */
        gsum[v & 3] += v;
        if (v > gmax[0]) gmax[0] = v;
        if (v < gmax[1]) gmax[1] = v;
        gbits[0] |= 1u << (v & 31);
        gbits[1] ^= (uint32_t)v;
        gbits[2] &= ~(1u << i) | 0x1u;
        gf[0] += (float)(v % 64) * 0.5f;          /* exact */
    }
    out[40] = smax; out[41] = smin; out[42] = (int32_t)scas; out[43] = 1; out[44] = 1;
    out[45] = (int32_t)sinc; out[46] = 32;
    fout[0] = fsum;
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "s32", out, 47);
    expect_buf(f, "fout", "f32", fout, 1);
    expect_buf(f, "gsum", "s32", gsum, 4);
    expect_buf(f, "gmax", "s32", gmax, 2);
    expect_buf(f, "gbits", "b32", gbits, 3);
    expect_buf(f, "gf", "f32", gf, 1);
    expect_end(f);
    return 0;
}
