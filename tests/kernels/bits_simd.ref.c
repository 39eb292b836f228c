/* bits_simd: sad, mul24, dp4a/dp2a, fns and SIMD-in-a-word ops from their definitions. */
#include "ref_common.h"

static uint32_t byte(uint32_t x, int i) { return (x >> (8 * i)) & 0xff; }
static int32_t sbyte(uint32_t x, int i) { return (int32_t)(int8_t)(uint8_t)byte(x, i); }

/* __fns(mask, base, offset): the position of the offset-th set bit counting from base
 * (offset > 0 upwards, offset < 0 downwards, offset == 0: base itself if set), or 0xffffffff */
static uint32_t fns(uint32_t mask, uint32_t base, int offset)
{
    if (offset == 0)
        return (mask >> base & 1) ? base : 0xffffffffu;
    if (offset > 0) {
        for (int i = (int)base; i < 32; i++)
            if (mask >> i & 1 && --offset == 0)
                return (uint32_t)i;
    } else {
        for (int i = (int)base; i >= 0; i--)
            if (mask >> i & 1 && ++offset == 0)
                return (uint32_t)i;
    }
    return 0xffffffffu;
}

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(140);
    uint32_t a[32], b[32], c[32], out[12 * 32];
    for (int i = 0; i < 32; i++) {
        a[i] = rnd();
        b[i] = rnd();
        c[i] = rnd();
    }
    for (int i = 0; i < 32; i++) {
        uint32_t x = a[i], y = b[i], z = c[i];
        int32_t sx = (int32_t)x, sy = (int32_t)y;
        out[0 * 32 + i] = z + (uint32_t)(sx > sy ? (int64_t)sx - sy : (int64_t)sy - sx);
        out[1 * 32 + i] = z + (x > y ? x - y : y - x);
        /* __mul24: low 32 bits of the product of the sign-extended low 24 bits */
        int64_t s24x = (int32_t)(x << 8) >> 8, s24y = (int32_t)(y << 8) >> 8;
        out[2 * 32 + i] = (uint32_t)(uint64_t)(s24x * s24y);
        out[3 * 32 + i] = (uint32_t)((uint64_t)(x & 0xffffff) * (y & 0xffffff));
        int32_t d = (int32_t)z;
        uint32_t ud = z;
        for (int k = 0; k < 4; k++) {
            d = (int32_t)((uint32_t)d + (uint32_t)(sbyte(x, k) * sbyte(y, k)));
            ud += byte(x, k) * byte(y, k);
        }
        out[4 * 32 + i] = (uint32_t)d;
        out[5 * 32 + i] = ud;
        /* __dp2a_lo: two signed 16-bit halves of x times the signed low two bytes of y */
        int32_t d2 = (int32_t)z;
        for (int k = 0; k < 2; k++)
            d2 = (int32_t)((uint32_t)d2 + (uint32_t)((int32_t)(int16_t)(uint16_t)(x >> (16 * k)) * sbyte(y, k)));
        out[6 * 32 + i] = (uint32_t)d2;
        out[7 * 32 + i] = fns(x, (uint32_t)i, (int)(z % 7) - 3);
        uint32_t v4 = 0, v2 = 0, ad = 0, gt = 0;
        for (int k = 0; k < 4; k++) {
            v4 |= ((byte(x, k) + byte(y, k)) & 0xff) << (8 * k);
            uint32_t p = byte(x, k), q = byte(y, k);
            ad |= (p > q ? p - q : q - p) << (8 * k);
            gt |= (p > q ? 0xffu : 0u) << (8 * k);
        }
        for (int k = 0; k < 2; k++)
            v2 |= (((x >> (16 * k)) - (y >> (16 * k))) & 0xffff) << (16 * k);
        out[8 * 32 + i] = v4;
        out[9 * 32 + i] = v2;
        out[10 * 32 + i] = ad;
        out[11 * 32 + i] = gt;
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "a", "b32", a, 32);
    lanes_buf(f, "b", "b32", b, 32);
    lanes_buf(f, "c", "b32", c, 32);
    lanes_zero(f, "out", "b32", 12 * 32);
    lanes_end(f, "\"@a\", \"@b\", \"@c\", \"@out\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "b32", out, 12 * 32);
    expect_end(f);
    return 0;
}
