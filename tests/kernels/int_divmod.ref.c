/* int_divmod: C's truncating division and remainder (the same definition as CUDA's). */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(130);
    int32_t a[32], b[32], out[11 * 32];
    int64_t la[32], lb[32], lout[6 * 32];
    for (int i = 0; i < 32; i++) {
        a[i] = (int32_t)rnd();
        do
            b[i] = (int32_t)rnd() >> (rnd() % 31);
        while (b[i] == 0);
        la[i] = (int64_t)rnd64();
        do
            lb[i] = (int64_t)rnd64() >> (rnd() % 63);
        while (lb[i] == 0);
    }
    a[0] = INT32_MIN; b[0] = 3;
    a[1] = INT32_MAX; b[1] = -1;
    a[2] = -7; b[2] = 2;
    a[3] = 7; b[3] = -2;
    a[4] = -1; b[4] = -1;
    a[5] = 5; b[5] = INT32_MIN;
    la[0] = INT64_MIN; lb[0] = 7;
    la[1] = -9; lb[1] = 4;
    la[2] = INT64_MAX; lb[2] = -1;
    for (int i = 0; i < 32; i++) {
        int32_t x = a[i], y = b[i];
        uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
        int64_t lx = la[i], ly = lb[i];
        uint64_t ulx = (uint64_t)lx, uly = (uint64_t)ly;
        out[0 * 32 + i] = x / y;
        out[1 * 32 + i] = x % y;
        out[2 * 32 + i] = (int32_t)(ux / uy);
        out[3 * 32 + i] = (int32_t)(ux % uy);
        out[4 * 32 + i] = x / 7;
        out[5 * 32 + i] = x % 7;
        out[6 * 32 + i] = x / -3;
        out[7 * 32 + i] = x / 8;
        out[8 * 32 + i] = x % 8;
        out[9 * 32 + i] = (int32_t)(ux / 1000u);
        out[10 * 32 + i] = (int32_t)(ux % 1000u);
        lout[0 * 32 + i] = lx / ly;
        lout[1 * 32 + i] = lx % ly;
        lout[2 * 32 + i] = (int64_t)(ulx / uly);
        lout[3 * 32 + i] = (int64_t)(ulx % uly);
        lout[4 * 32 + i] = lx / 10;
        lout[5 * 32 + i] = (int64_t)(ulx % 1000000007ull);
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "a", "s32", a, 32);
    lanes_buf(f, "b", "s32", b, 32);
    lanes_buf(f, "la", "s64", la, 32);
    lanes_buf(f, "lb", "s64", lb, 32);
    lanes_zero(f, "out", "s32", 11 * 32);
    lanes_zero(f, "lout", "s64", 6 * 32);
    lanes_end(f, "\"@a\", \"@b\", \"@la\", \"@lb\", \"@out\", \"@lout\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "s32", out, 11 * 32);
    expect_buf(f, "lout", "s64", lout, 6 * 32);
    expect_end(f);
    return 0;
}
