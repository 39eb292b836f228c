/* funnelshift: the four CUDA funnel shifts, from their CUDA definitions on hi:lo. */
#include "ref_common.h"

static uint32_t fl(uint32_t lo, uint32_t hi, uint32_t n)   /* n in 0..32 */
{
    uint64_t x = ((uint64_t)hi << 32) | lo;
    return (uint32_t)((n == 0 ? x : x << n) >> 32);
}

static uint32_t fr(uint32_t lo, uint32_t hi, uint32_t n)
{
    uint64_t x = ((uint64_t)hi << 32) | lo;
    return (uint32_t)(x >> n);
}

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(112);
    uint32_t lo[32], hi[32], sh[32], out[8 * 32];
    static const uint32_t special[] = {0, 31, 32, 33, 255, 0xffffffffu, 1, 16, 63, 64, 65, 0x80000000u, 0x20u + 0x100u};
    for (int i = 0; i < 32; i++) {
        lo[i] = rnd();
        hi[i] = rnd();
        sh[i] = i < 13 ? special[i] : rnd() % 300;
    }
    for (int i = 0; i < 32; i++) {
        uint32_t s = sh[i], c = s < 32 ? s : 32;
        out[0 * 32 + i] = fl(lo[i], hi[i], s & 31);
        out[1 * 32 + i] = fr(lo[i], hi[i], s & 31);
        out[2 * 32 + i] = fl(lo[i], hi[i], c);
        out[3 * 32 + i] = fr(lo[i], hi[i], c);
        out[4 * 32 + i] = fl(lo[i], hi[i], 40 & 31);
        out[5 * 32 + i] = fr(lo[i], hi[i], 32);
        out[6 * 32 + i] = fl(lo[i], hi[i], 7);
        out[7 * 32 + i] = fr(lo[i], hi[i], 31);
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "lo", "b32", lo, 32);
    lanes_buf(f, "hi", "b32", hi, 32);
    lanes_buf(f, "sh", "u32", sh, 32);
    lanes_zero(f, "out", "b32", 8 * 32);
    lanes_end(f, "\"@lo\", \"@hi\", \"@sh\", \"@out\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "b32", out, 8 * 32);
    expect_end(f);
    return 0;
}
