/* reduce_sync: whole-warp add/min/max/and/or/xor reductions and per-half-warp ones. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(117);
    uint32_t uin[32], out[10 * 32];
    int32_t sin_[32];
    for (int i = 0; i < 32; i++) {
        uin[i] = rnd();
        sin_[i] = (int32_t)rnd() >> (rnd() % 20);
    }
    uint32_t add = 0, mn = 0xffffffffu, mx = 0, an = 0xffffffffu, o = 0, x = 0, sadd = 0;
    int32_t smn = INT32_MAX, smx = INT32_MIN;
    uint32_t lo_add = 0;
    int32_t hi_max = INT32_MIN;
    for (int i = 0; i < 32; i++) {
        add += uin[i];
        if (uin[i] < mn) mn = uin[i];
        if (uin[i] > mx) mx = uin[i];
        an &= uin[i] | 0x10000001u;
        o |= uin[i] & 0x0ff00ff0u;
        x ^= uin[i];
        sadd += (uint32_t)sin_[i];
        if (sin_[i] < smn) smn = sin_[i];
        if (sin_[i] > smx) smx = sin_[i];
        if (i < 16) lo_add += uin[i];
        else if (sin_[i] > hi_max) hi_max = sin_[i];
    }
    for (int i = 0; i < 32; i++) {
        out[0 * 32 + i] = add;
        out[1 * 32 + i] = mn;
        out[2 * 32 + i] = mx;
        out[3 * 32 + i] = sadd;
        out[4 * 32 + i] = (uint32_t)smn;
        out[5 * 32 + i] = (uint32_t)smx;
        out[6 * 32 + i] = an;
        out[7 * 32 + i] = o;
        out[8 * 32 + i] = x;
        out[9 * 32 + i] = i < 16 ? lo_add : (uint32_t)hi_max;
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "uin", "u32", uin, 32);
    lanes_buf(f, "sin", "s32", sin_, 32);
    lanes_zero(f, "out", "u32", 10 * 32);
    lanes_end(f, "\"@uin\", \"@sin\", \"@out\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "u32", out, 10 * 32);
    expect_end(f);
    return 0;
}
