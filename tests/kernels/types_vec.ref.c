/* types_vec: vector components and narrow integer conversions as C defines them. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(138);
    int32_t v4[128], o4[128], oi[4 * 32];
    float f2[64], of2[64];
    int8_t c4[128], sc[32], ob[32];
    int16_t s2[64], ss[32], os[32];
    uint8_t uc[32], oub[32];
    uint16_t us[32];
    for (int i = 0; i < 128; i++) {
        v4[i] = (int32_t)rnd();
        c4[i] = (int8_t)(rnd() & 0xff);
    }
    for (int i = 0; i < 64; i++) {
        f2[i] = rnd_float(6);
        s2[i] = (int16_t)(rnd() & 0xffff);
    }
    for (int i = 0; i < 32; i++) {
        sc[i] = (int8_t)(rnd() & 0xff);
        uc[i] = (uint8_t)(rnd() & 0xff);
        ss[i] = (int16_t)(rnd() & 0xffff);
        us[i] = (uint16_t)(rnd() & 0xffff);
    }
    for (int i = 0; i < 32; i++) {
        const int32_t *a = v4 + 4 * i;
        o4[4 * i + 0] = v4[4 * (i ^ 1) + 1];
        o4[4 * i + 1] = (int32_t)((uint32_t)a[2] + (uint32_t)a[3]);
        o4[4 * i + 2] = v4[4 * (i + 2 < 32 ? i + 2 : i) + 0];
        o4[4 * i + 3] = a[0] ^ a[3];
        of2[2 * i + 0] = f2[2 * i + 1] - f2[2 * i];
        of2[2 * i + 1] = f2[0];
        const int8_t *c = c4 + 4 * i;
        oi[0 * 32 + i] = c[0] + c[1] * 2 + c[2] * 3 + c[3] * 4;
        oi[1 * 32 + i] = s2[2 * i] * 5 - s2[2 * i + 1];
        oi[2 * 32 + i] = sc[31 - i];
        oi[3 * 32 + i] = uc[i] + us[i] * 3;
        os[i] = (int16_t)(uint16_t)(uint32_t)(ss[i] * 3 + us[i]);
        ob[i] = (int8_t)(uint8_t)(uint32_t)(uc[i] + sc[i]);
        oub[i] = uc[i >= 1 ? i - 1 : i];
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "v4", "s32", v4, 128);
    lanes_buf(f, "f2", "f32", f2, 64);
    lanes_buf(f, "c4", "s8", c4, 128);
    lanes_buf(f, "s2", "s16", s2, 64);
    lanes_buf(f, "sc", "s8", sc, 32);
    lanes_buf(f, "uc", "u8", uc, 32);
    lanes_buf(f, "ss", "s16", ss, 32);
    lanes_buf(f, "us", "u16", us, 32);
    lanes_zero(f, "o4", "s32", 128);
    lanes_zero(f, "of2", "f32", 64);
    lanes_zero(f, "oi", "s32", 4 * 32);
    lanes_zero(f, "os", "s16", 32);
    lanes_zero(f, "ob", "s8", 32);
    lanes_zero(f, "oub", "u8", 32);
    lanes_end(f, "\"@v4\", \"@f2\", \"@c4\", \"@s2\", \"@sc\", \"@uc\", \"@ss\", \"@us\", "
                 "\"@o4\", \"@of2\", \"@oi\", \"@os\", \"@ob\", \"@oub\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "o4", "s32", o4, 128);
    expect_buf(f, "of2", "f32", of2, 64);
    expect_buf(f, "oi", "s32", oi, 4 * 32);
    expect_buf(f, "os", "s16", os, 32);
    expect_buf(f, "ob", "s8", ob, 32);
    expect_buf(f, "oub", "u8", oub, 32);
    expect_end(f);
    return 0;
}
