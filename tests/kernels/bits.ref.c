/* bits: the CUDA integer intrinsics from their definitions in the CUDA Math API. */
#include "ref_common.h"

static uint32_t brev32(uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        if (x >> i & 1)
            r |= 1u << (31 - i);
    return r;
}

static uint64_t brev64(uint64_t x)
{
    return ((uint64_t)brev32((uint32_t)x) << 32) | brev32((uint32_t)(x >> 32));
}

static int clz64(uint64_t x)
{
    int n = 0;
    for (int i = 63; i >= 0 && !(x >> i & 1); i--)
        n++;
    return n;
}

static int ffs64(uint64_t x)
{
    for (int i = 0; i < 64; i++)
        if (x >> i & 1)
            return i + 1;
    return 0;
}

/* __byte_perm(x, y, s): result byte i = byte (s >> 4i) & 7 of the 8-byte value y:x */
static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
    uint64_t v = ((uint64_t)y << 32) | x;
    uint32_t r = 0;
    for (int i = 0; i < 4; i++) {
        uint32_t sel = (s >> (4 * i)) & 7;
        r |= (uint32_t)((v >> (8 * sel)) & 0xff) << (8 * i);
    }
    return r;
}

/* high 64 bits of a 64x64 product, from 32-bit pieces */
static uint64_t umul64hi(uint64_t a, uint64_t b)
{
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

static int64_t mul64hi(int64_t a, int64_t b)
{
    uint64_t h = umul64hi((uint64_t)a, (uint64_t)b);
    if (a < 0) h -= (uint64_t)b;
    if (b < 0) h -= (uint64_t)a;
    return (int64_t)h;
}

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(139);
    uint32_t a[32], b[32], out[17 * 32];
    uint64_t la[32], lb[32], lout[4 * 32];
    for (int i = 0; i < 32; i++) {
        a[i] = rnd() >> (rnd() % 32);
        b[i] = rnd();
        la[i] = rnd64() >> (rnd() % 64);
        lb[i] = rnd64();
    }
    a[0] = 0; la[0] = 0; a[1] = 0xffffffffu; b[1] = 0xffffffffu; a[2] = 0x80000000u;
    b[2] = 0x80000000u; la[1] = ~0ull; lb[1] = ~0ull; la[2] = 1ull << 63; lb[2] = 1ull << 63;
    for (int i = 0; i < 32; i++) {
        uint32_t x = a[i], y = b[i];
        int32_t sx = (int32_t)x, sy = (int32_t)y;
        out[0 * 32 + i] = brev32(x);
        out[1 * 32 + i] = (uint32_t)(clz64(x) - 32);
        out[2 * 32 + i] = (uint32_t)ffs64(x);
        out[3 * 32 + i] = (uint32_t)popc32(x);
        out[4 * 32 + i] = byte_perm(x, y, y & 0x7777u);
        out[5 * 32 + i] = (uint32_t)(((uint64_t)x * y) >> 32);
        out[6 * 32 + i] = (uint32_t)(int32_t)(((int64_t)sx * sy) >> 32);
        out[7 * 32 + i] = (uint32_t)(int32_t)(((int64_t)sx + sy) >> 1);
        out[8 * 32 + i] = (uint32_t)(int32_t)(((int64_t)sx + sy + 1) >> 1);
        out[9 * 32 + i] = (uint32_t)(((uint64_t)x + y) >> 1);
        out[10 * 32 + i] = (uint32_t)(((uint64_t)x + y + 1) >> 1);
        out[11 * 32 + i] = (x >> 7) & 0x3ffu;
        out[12 * 32 + i] = (uint32_t)((int32_t)(x << 9) >> 20);
        out[13 * 32 + i] = (x & ~(0xffu << 12)) | ((y & 0xffu) << 12);
        out[14 * 32 + i] = (uint32_t)clz64(la[i]);
        out[15 * 32 + i] = (uint32_t)ffs64(la[i]);
        out[16 * 32 + i] = (uint32_t)(popc32((uint32_t)la[i]) + popc32((uint32_t)(la[i] >> 32)));
        lout[0 * 32 + i] = brev64(la[i]);
        lout[1 * 32 + i] = umul64hi(la[i], lb[i]);
        lout[2 * 32 + i] = (uint64_t)mul64hi((int64_t)la[i], (int64_t)lb[i]);
        lout[3 * 32 + i] = la[i] * lb[i] + (lb[i] >> 3);
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "a", "b32", a, 32);
    lanes_buf(f, "b", "b32", b, 32);
    lanes_buf(f, "la", "b64", la, 32);
    lanes_buf(f, "lb", "b64", lb, 32);
    lanes_zero(f, "out", "u32", 17 * 32);
    lanes_zero(f, "lout", "b64", 4 * 32);
    lanes_end(f, "\"@a\", \"@b\", \"@la\", \"@lb\", \"@out\", \"@lout\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "u32", out, 17 * 32);
    expect_buf(f, "lout", "b64", lout, 4 * 32);
    expect_end(f);
    return 0;
}
