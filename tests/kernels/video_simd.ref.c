/* video_simd: the SIMD-in-a-word intrinsics from the CUDA Math API's definitions, and each video
 * instruction of the inline asm worked out from the PTX ISA's description of it, one at a time
 * (two where an H100 does otherwise, tests/h100_more/README.md: vsub .min, vabsdiff d.h1);
 * bmsk, szext and cvt.pack from their pseudo-code. */
#include "ref_common.h"

#define SLOTS 51

static uint32_t ub(uint32_t x, int i) { return x >> (8 * i) & 0xff; }
static int32_t sb(uint32_t x, int i) { return (int8_t)(uint8_t)ub(x, i); }
static uint32_t uh(uint32_t x, int i) { return x >> (16 * i) & 0xffff; }
static int32_t sh(uint32_t x, int i) { return (int16_t)(uint16_t)uh(x, i); }
static int64_t clamp(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }
static int64_t absl(int64_t v) { return v < 0 ? -v : v; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
/* (s + 1) >> 1 for a sum >= 0, else s >> 1 (rounding towards minus infinity) */
static int64_t average(int64_t s) { return s >= 0 ? (s + 1) / 2 : -((-s + 1) / 2); }

static uint32_t bmsk(uint32_t a, uint32_t b, int clamp_mode)
{
    uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
    uint32_t mask0 = 0xffffffffu << a1, mask1 = sum < 32 ? 0xffffffffu << sum : 0;
    int overflow = sum >= 32;
    if (clamp_mode && a >= 32) { overflow = 1; mask0 = 0; }
    if (clamp_mode && b >= 32) overflow = 1;
    if (overflow) mask1 = 0;
    else if (b1 == 0) mask1 = 0xffffffffu;
    return mask0 & ~mask1;
}

static uint32_t szext(uint32_t a, uint32_t b, int clamp_mode, int is_signed)
{
    uint32_t b1 = b & 0x1f;
    int too_large = b >= 32 && clamp_mode;
    uint32_t mask = too_large ? 0 : 0xffffffffu << b1;
    int sign_bit = (b1 == 0 || too_large || !is_signed) ? 0 : (a >> ((b1 - 1) & 0x1f)) & 1;
    return (a & ~mask) | (sign_bit ? mask : 0);
}

static void one_lane(uint32_t x, uint32_t y, uint32_t z, uint32_t *o)
{
    int k = 0;
    uint32_t r;
    /* the CUDA intrinsics */
    o[k++] = ((uh(x, 0) + uh(y, 0)) & 0xffff) | ((uh(x, 1) + uh(y, 1)) & 0xffff) << 16;        /* __vadd2 */
    r = 0;
    for (int i = 0; i < 4; i++) r |= ((ub(x, i) - ub(y, i)) & 0xff) << (8 * i);
    o[k++] = r;                                                                                 /* __vsub4 */
    r = 0;
    for (int i = 0; i < 4; i++) r |= (uint32_t)absl((int64_t)ub(x, i) - ub(y, i)) << (8 * i);
    o[k++] = r;                                                                                 /* __vabsdiffu4 */
    r = 0;
    for (int i = 0; i < 2; i++) r |= ((uint32_t)absl((int64_t)sh(x, i) - sh(y, i)) & 0xffff) << (16 * i);
    o[k++] = r;                                                                                 /* __vabsdiffs2 */
    r = 0;
    for (int i = 0; i < 2; i++) r |= ((uint32_t)max64(sh(x, i), sh(y, i)) & 0xffff) << (16 * i);
    o[k++] = r;                                                                                 /* __vmaxs2 */
    r = 0;
    for (int i = 0; i < 4; i++) r |= (uint32_t)min64(ub(x, i), ub(y, i)) << (8 * i);
    o[k++] = r;                                                                                 /* __vminu4 */
    r = 0;
    for (int i = 0; i < 4; i++) r |= (ub(x, i) > ub(y, i) ? 0xffu : 0) << (8 * i);
    o[k++] = r;                                                                                 /* __vcmpgtu4 */
    o[k++] = (uint32_t)(absl(sh(x, 0) - sh(y, 0)) + absl(sh(x, 1) - sh(y, 1)));                /* __vsads2 */
    r = 0;
    for (int i = 0; i < 4; i++) r += (uint32_t)absl((int64_t)ub(x, i) - ub(y, i));
    o[k++] = r;                                                                                 /* __vsadu4 */
    o[k++] = (uint32_t)(absl((int64_t)uh(x, 0) - uh(y, 0)) + absl((int64_t)uh(x, 1) - uh(y, 1)));  /* __vsadu2 */
    r = 0;
    for (int i = 0; i < 4; i++) r |= ((ub(x, i) + ub(y, i) + 1) >> 1) << (8 * i);
    o[k++] = r;                                                                                 /* __vavgu4 */
    o[k++] = ((uh(x, 0) + uh(y, 0)) >> 1) | ((uh(x, 1) + uh(y, 1)) >> 1) << 16;                /* __vhaddu2 */
    r = 0;
    for (int i = 0; i < 4; i++) r |= ((uint32_t)clamp(sb(x, i) + sb(y, i), -128, 127) & 0xff) << (8 * i);
    o[k++] = r;                                                                                 /* __vaddss4 */
    r = 0;
    for (int i = 0; i < 2; i++) r |= (uint32_t)clamp((int64_t)uh(x, i) - uh(y, i), 0, 0xffff) << (16 * i);
    o[k++] = r;                                                                                 /* __vsubus2 */
    r = 0;
    for (int i = 0; i < 4; i++) r |= (uint32_t)(ub(x, i) == ub(y, i)) << (8 * i);
    o[k++] = r;                                                                                 /* __vseteq4 */
    o[k++] = (uint32_t)(uh(x, 0) < uh(y, 0)) | (uint32_t)(uh(x, 1) < uh(y, 1)) << 16;          /* __vsetltu2 */

    /* vadd.s32.s32.u32.sat d, x.b1, y.h0 */
    o[k++] = (uint32_t)(sb(x, 1) + (int32_t)uh(y, 0));
    /* vsub.s32.u32.u32.min d, x, y, z: the smaller of the difference and z (signed); the H100
     * compares the difference wrapped to 32 bits (the PTX ISA: the exact difference) */
    o[k++] = (uint32_t)min64((int32_t)(x - y), (int32_t)z);
    /* vabsdiff.s32.s32.s32 d.h1, x.b3, y.b0, z: the H100 puts the upper half of the 32-bit result
     * (0 for a difference of bytes) above z's lower half (the PTX ISA: the result's lower half) */
    o[k++] = ((uint32_t)absl(sb(x, 3) - sb(y, 0)) & 0xffff0000u) | (z & 0xffff);
    /* vmin.s32.u32.s32.add d, x.h1, y.h0, z */
    o[k++] = (uint32_t)(min64(uh(x, 1), sh(y, 0)) + (int32_t)z);
    /* vmax.u32.s32.u32.sat d.b2, x.b0, y.b1, z: clamped to a byte 0-255, into byte 2 of z */
    o[k++] = ((uint32_t)clamp(max64(sb(x, 0), ub(y, 1)), 0, 255) << 16) | (z & 0xff00ffffu);
    /* vshl.u32.u32.u32.wrap d, x, y.b0 */
    o[k++] = (uint32_t)((uint64_t)x << (ub(y, 0) & 31));
    /* vshr.s32.s32.u32.clamp.add d, x, y.b1, z: the count at most 32 */
    {
        int64_t n = ub(y, 1) > 32 ? 32 : ub(y, 1), v = (int32_t)x;
        int64_t q = v >= 0 ? v / ((int64_t)1 << n) : -((-v + ((int64_t)1 << n) - 1) / ((int64_t)1 << n));
        o[k++] = (uint32_t)(q + (int32_t)z);
    }
    /* vmad.s32.s32.u32.sat.shr7 d, -x.h0, y.b2, z: z - x.h0 * y.b2, then >> 7 (floor), clamped */
    {
        int64_t v = (int64_t)(int32_t)z - (int64_t)sh(x, 0) * ub(y, 2);
        int64_t q = v >= 0 ? v / 128 : -((-v + 127) / 128);
        o[k++] = (uint32_t)clamp(q, INT32_MIN, INT32_MAX);
    }
    /* vmad.u32.u32.u32.po d, x.h1, y.h0, z: plus one */
    o[k++] = (uint32_t)((uint64_t)uh(x, 1) * uh(y, 0) + z + 1);
    /* vmad.s32.u32.u32 d, x, y, -z */
    o[k++] = (uint32_t)((uint64_t)x * y - z);
    /* vset.s32.u32.lt.add d, x.b1, y.b2, z */
    o[k++] = z + (uint32_t)(sb(x, 1) < (int32_t)ub(y, 2));
    /* vset.u32.u32.ne d.b2, x.h1, y.h1, z */
    o[k++] = (uint32_t)(uh(x, 1) != uh(y, 1)) << 16 | (z & 0xff00ffffu);
    /* vadd2.s32.s32.s32.sat */
    r = 0;
    for (int i = 0; i < 2; i++) r |= ((uint32_t)clamp(sh(x, i) + sh(y, i), -32768, 32767) & 0xffff) << (16 * i);
    o[k++] = r;
    /* vsub2.u32.u32.u32 d.h1: the upper half only, the lower from z */
    o[k++] = ((uh(x, 1) - uh(y, 1)) & 0xffff) << 16 | (z & 0xffff);
    /* vavrg2.s32.s32.s32 */
    r = 0;
    for (int i = 0; i < 2; i++) r |= ((uint32_t)average(sh(x, i) + sh(y, i)) & 0xffff) << (16 * i);
    o[k++] = r;
    /* vabsdiff2.u32.s32.s32.add */
    o[k++] = z + (uint32_t)(absl(sh(x, 0) - sh(y, 0)) + absl(sh(x, 1) - sh(y, 1)));
    /* vmin2.s32.u32.u32.add d.h10, x.h00, y.h22, z: both lanes min(x.h0, y.h0) */
    o[k++] = z + 2 * (uint32_t)min64(uh(x, 0), uh(y, 0));
    /* vmax2.u32.u32.u32 d.h0, x.h32, y.h10, z: lane 0 = max(y.h0, x.h0), lane 1 from z */
    o[k++] = (uint32_t)max64(uh(y, 0), uh(x, 0)) | (z & 0xffff0000u);
    /* vset2.u32.u32.gt.add */
    o[k++] = z + (uint32_t)(uh(x, 0) > uh(y, 0)) + (uint32_t)(uh(x, 1) > uh(y, 1));
    /* vadd4.u32.u32.u32.sat */
    r = 0;
    for (int i = 0; i < 4; i++) r |= (uint32_t)clamp(ub(x, i) + ub(y, i), 0, 255) << (8 * i);
    o[k++] = r;
    /* vsub4.s32.s32.s32.sat d.b0, x.b3210, y.b7654, z: byte 0 only */
    o[k++] = ((uint32_t)clamp(sb(x, 0) - sb(y, 0), -128, 127) & 0xff) | (z & 0xffffff00u);
    /* vavrg4.u32.u32.u32 */
    r = 0;
    for (int i = 0; i < 4; i++) r |= ((ub(x, i) + ub(y, i) + 1) >> 1) << (8 * i);
    o[k++] = r;
    /* vabsdiff4.s32.s32.s32 d.b31: bytes 1 and 3, bytes 0 and 2 from z */
    o[k++] = ((uint32_t)absl(sb(x, 1) - sb(y, 1)) & 0xff) << 8 | ((uint32_t)absl(sb(x, 3) - sb(y, 3)) & 0xff) << 24 |
             (z & 0x00ff00ffu);
    /* vmin4.s32.s32.s32.add */
    {
        int64_t s = (int32_t)z;
        for (int i = 0; i < 4; i++) s += min64(sb(x, i), sb(y, i));
        o[k++] = (uint32_t)s;
    }
    /* vmax4.u32.u32.u32 d, x.b7070, y.b2301: bytes of {y, x}: a picks x0 y3 x0 y3, b picks x1 x0 x3 x2 */
    o[k++] = (uint32_t)max64(ub(x, 0), ub(x, 1)) | (uint32_t)max64(ub(y, 3), ub(x, 0)) << 8 |
             (uint32_t)max64(ub(x, 0), ub(x, 3)) << 16 | (uint32_t)max64(ub(y, 3), ub(x, 2)) << 24;
    /* vset4.s32.s32.le */
    r = 0;
    for (int i = 0; i < 4; i++) r |= (uint32_t)(sb(x, i) <= sb(y, i)) << (8 * i);
    o[k++] = r;
    uint32_t pos = x & 63, len = y & 63;
    o[k++] = bmsk(pos, len, 1);
    o[k++] = bmsk(pos, len, 0);
    o[k++] = szext(z, len, 1, 1);
    o[k++] = szext(z, len, 0, 1);
    o[k++] = szext(z, len, 1, 0);
    o[k++] = szext(z, len, 0, 0);
    /* cvt.pack.sat: clamped to the type, the first source above the second, c's low bits above */
    int32_t sx = (int32_t)x >> (x & 15), sy = (int32_t)y >> (y & 15), sz = (int32_t)z >> 20;
    uint32_t lo = (uint32_t)clamp(sz, 0, 255) << 8 | (uint32_t)clamp(sy, 0, 255);
    o[k++] = lo << 16 | (uint32_t)clamp(sx, 0, 255) << 8 | (uint32_t)clamp(sz, 0, 255);
    o[k++] = ((uint32_t)clamp(sx, -32768, 32767) & 0xffff) << 16 | ((uint32_t)clamp(sy, -32768, 32767) & 0xffff);
    o[k++] = z << 8 | ((uint32_t)clamp(sy, -8, 7) & 0xf) << 4 | ((uint32_t)clamp(sz, -8, 7) & 0xf);
    if (k != SLOTS) {
        fprintf(stderr, "video_simd.ref: %d slots, not %d\n", k, SLOTS);
        exit(1);
    }
}

/* A word of bytes where signs and saturation turn, or a random one. */
static uint32_t edgy(void)
{
    static const uint8_t edges[] = { 0x00, 0x01, 0x7f, 0x80, 0x81, 0xff, 0x40, 0xc0 };
    uint32_t r = rnd(), v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)((r >> i & 1) ? edges[rnd() % 8] : (uint8_t)rnd()) << (8 * i);
    return v;
}

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(2013);
    /* bmsk/szext positions and widths (the low 6 bits of a and b) in the first lanes */
    static const uint32_t pos_len[][2] = { { 0, 0 }, { 0, 32 }, { 32, 4 }, { 1, 2 }, { 28, 8 }, { 31, 1 },
                                           { 0, 31 }, { 40, 40 }, { 33, 63 }, { 8, 33 } };
    uint32_t a[32], b[32], c[32], out[SLOTS * 32];
    for (int i = 0; i < 32; i++) {
        a[i] = i % 3 ? edgy() : rnd();
        b[i] = i % 4 ? edgy() : rnd();
        c[i] = i % 5 ? edgy() : rnd();
        if (i < 10) {
            a[i] = (a[i] & ~63u) | pos_len[i][0];
            b[i] = (b[i] & ~63u) | pos_len[i][1];
        }
    }
    for (int i = 0; i < 32; i++) {
        uint32_t o[SLOTS];
        one_lane(a[i], b[i], c[i], o);
        for (int s = 0; s < SLOTS; s++)
            out[s * 32 + i] = o[s];
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "a", "u32", a, 32);
    lanes_buf(f, "b", "u32", b, 32);
    lanes_buf(f, "c", "u32", c, 32);
    lanes_zero(f, "out", "u32", SLOTS * 32);
    lanes_end(f, "\"@a\", \"@b\", \"@c\", \"@out\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "u32", out, SLOTS * 32);
    expect_end_entry(f, "kernel");
    return 0;
}
