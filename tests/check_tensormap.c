/* check_tensormap.c: tensor maps (exec/tensormap.c): the checks CUDA's encoders make, ptxrun's
 * 128-byte encoding both ways, and every element's addresses of a tiled and an im2col copy
 * against scripts/tmap_model.py (tests/tmap_cases.h), a model written apart from tensormap.c. */
#include "testutil.h"

#include "tmap_cases.h"

static TensorMap map_of(const TmapCase *c)
{
    TensorMap t = { 0 };
    t.mode = c->mode;
    t.rank = c->rank;
    t.dtype = c->dtype;
    t.interleave = c->interleave;
    t.swizzle = c->swizzle;
    t.channels = c->channels;
    t.pixels = c->pixels;
    t.address = 0x10000;
    t.stride[0] = tensormap_element_bytes(c->dtype);
    for (unsigned i = 0; i < c->rank; i++) {
        t.dim[i] = c->dim[i];
        t.box[i] = c->box[i];
        t.estride[i] = c->estride[i];
        if (i)
            t.stride[i] = c->strides[i - 1];
    }
    for (unsigned i = 0; i < 3; i++) {
        t.lower[i] = c->lower[i];
        t.upper[i] = c->upper[i];
    }
    return t;
}

START_TEST(model_cases)
{
    for (size_t k = 0; k < sizeof tmap_cases / sizeof tmap_cases[0]; k++) {
        const TmapCase *c = &tmap_cases[k];
        TensorMap t = map_of(c);
        char why[200] = "";
        ck_assert_msg(tensormap_check(&t, why, sizeof why), "%s: %s", c->name, why);
        /* through the 128 bytes and back */
        uint8_t bytes[TMAP_BYTES];
        tensormap_encode(&t, bytes);
        TensorMap u;
        ck_assert_msg(tensormap_decode(bytes, &u, why, sizeof why), "%s: %s", c->name, why);
        ck_assert_uint_eq(tensormap_box_elements(&u), c->count);
        unsigned es = tensormap_element_bytes(c->dtype);
        int64_t pixels[1024][TMAP_MAX_RANK];
        if (u.mode == TMAP_IM2COL)
            tensormap_pixels(&u, c->coord, pixels);
        for (uint32_t e = 0; e < c->count; e++) {
            int64_t g[TMAP_MAX_RANK];
            bool inside = tensormap_element(&u, c->coord, c->offsets, (const int64_t (*)[TMAP_MAX_RANK])pixels, e, g);
            ck_assert_msg(inside == (c->expect[e][0] != 0), "%s: element %u inside %d", c->name, e, inside);
            ck_assert_msg(tensormap_global_address(&u, g) - u.address == (uint64_t)c->expect[e][1],
                          "%s: element %u at +%lld, the model +%lld", c->name, e,
                          (long long)(tensormap_global_address(&u, g) - u.address), (long long)c->expect[e][1]);
            uint64_t s = tensormap_swizzle(u.swizzle, c->shared + (uint64_t)e * es);
            ck_assert_msg(s == (uint64_t)c->expect[e][2], "%s: element %u in shared at 0x%llx, the model 0x%llx",
                          c->name, e, (unsigned long long)s, (unsigned long long)c->expect[e][2]);
        }
    }
}
END_TEST

/* The 128B swizzle by hand: byte 0x35 of row 5 of a 1024-byte-aligned tile (address 0x2b5) is
 * chunk 3 of row 5; chunk 3 ^ 5 = 6: 0x2e5. Rows 0 and 8 are not moved; 64B swizzles two bits
 * (chunk 3 ^ (5 & 3) = 2: 0x2a5), 32B one (3 ^ 1 = 2: 0x2a5). */
START_TEST(swizzle_by_hand)
{
    ck_assert_uint_eq(tensormap_swizzle(TMAP_SWIZZLE_128B, 0x2b5), 0x2e5);
    ck_assert_uint_eq(tensormap_swizzle(TMAP_SWIZZLE_128B, 0x035), 0x035);
    ck_assert_uint_eq(tensormap_swizzle(TMAP_SWIZZLE_128B, 0x435), 0x435);
    ck_assert_uint_eq(tensormap_swizzle(TMAP_SWIZZLE_64B, 0x2b5), 0x2a5);
    ck_assert_uint_eq(tensormap_swizzle(TMAP_SWIZZLE_32B, 0x2b5), 0x2a5);
    ck_assert_uint_eq(tensormap_swizzle(TMAP_SWIZZLE_NONE, 0x2b5), 0x2b5);
}
END_TEST

static TensorMap good(void)
{
    TensorMap t = { .mode = TMAP_TILED, .rank = 2, .dtype = TMAP_BFLOAT16, .swizzle = TMAP_SWIZZLE_128B,
                    .address = 0x1000, .dim = { 128, 64 }, .stride = { 2, 256 }, .box = { 64, 8 },
                    .estride = { 1, 1 } };
    return t;
}

static void refused(TensorMap t, const char *words)
{
    char why[200] = "";
    ck_assert(!tensormap_check(&t, why, sizeof why));
    ck_assert_msg(strstr(why, words), "'%s' does not say '%s'", why, words);
}

/* cuda.h's rules for cuTensorMapEncodeTiled, one broken at a time. */
START_TEST(encoder_rules)
{
    char why[200];
    TensorMap t = good();
    ck_assert(tensormap_check(&t, why, sizeof why));
    t.rank = 6; refused(t, "tensorRank 6");
    t = good(); t.rank = 0; refused(t, "tensorRank 0");
    t = good(); t.address = 0x1008; refused(t, "16-byte aligned");
    t = good(); t.stride[1] = 264; refused(t, "globalStrides[0] is 264");
    t = good(); t.stride[1] = 1ull << 40; refused(t, "below 2^40");
    t = good(); t.box[1] = 257; refused(t, "boxDim[1] is 257");
    t = good(); t.box[0] = 72; refused(t, "exceeds the 128-byte swizzle");
    t = good(); t.swizzle = TMAP_SWIZZLE_64B; refused(t, "exceeds the 64-byte swizzle");
    t = good(); t.swizzle = 0; t.box[0] = 4; refused(t, "not a multiple of 16");
    t = good(); t.estride[1] = 9; refused(t, "elementStrides[1] is 9");
    t = good(); t.estride[0] = 0; refused(t, "elementStrides[0] is 0");
    t = good(); t.dim[1] = 0; refused(t, "globalDim[1] is 0");
    t = good(); t.dim[0] = (1ull << 32) + 1; refused(t, "globalDim[0]");
    t = good(); t.dtype = 13; refused(t, "compute capability 10.0");
    t = good(); t.dtype = 16; refused(t, "not a CUtensorMapDataType");
    t = good(); t.dtype = TMAP_INT32; t.box[0] = 32; t.oobfill = 1; refused(t, "floating-point");
    t = good(); t.interleave = TMAP_INTERLEAVE_16B; refused(t, "tensorRank 3 or more");
    t = good(); t.swizzle = 4; refused(t, "compute capability 10.0");
    t = good(); t.swizzle = 7; refused(t, "not a CUtensorMapSwizzle");
    t = good(); t.l2 = 4; refused(t, "l2Promotion");
    t = good(); t.rank = 3; t.dim[2] = 4; t.stride[2] = 256 * 64; t.box[2] = 1; t.estride[2] = 1;
    ck_assert(tensormap_check(&t, why, sizeof why));
    t.interleave = TMAP_INTERLEAVE_32B; t.swizzle = TMAP_SWIZZLE_32B; t.address = 0x1010;
    refused(t, "32-byte aligned");
    t.address = 0x1000; t.stride[1] = 272; refused(t, "multiple of 32");
    t.stride[1] = 256; t.swizzle = TMAP_SWIZZLE_64B; refused(t, "needs swizzle 32B");
}
END_TEST

START_TEST(im2col_rules)
{
    char why[200];
    TensorMap t = { .mode = TMAP_IM2COL, .rank = 4, .dtype = TMAP_FLOAT16, .address = 0x1000,
                    .dim = { 8, 5, 5, 2 }, .stride = { 2, 16, 80, 400 }, .estride = { 1, 1, 1, 1 },
                    .channels = 8, .pixels = 12, .lower = { -1, -1 }, .upper = { -1, -1 } };
    ck_assert(tensormap_check(&t, why, sizeof why));
    TensorMap u = t; u.rank = 2; refused(u, "3, 4 or 5");
    u = t; u.lower[0] = -129; refused(u, "[-128, 127]");
    u = t; u.upper[1] = 128; refused(u, "[-128, 127]");
    u = t; u.lower[0] = 4; u.upper[0] = -1; refused(u, "is empty");
    u = t; u.channels = 257; refused(u, "channelsPerPixel");
    u = t; u.pixels = 1025; refused(u, "pixelsPerColumn");
    u = t; u.swizzle = TMAP_SWIZZLE_32B; u.channels = 32; refused(u, "exceeds the 32-byte swizzle");
    u = t; u.rank = 5; u.dim[4] = 2; u.stride[4] = 800; u.estride[4] = 1; u.lower[2] = -17; refused(u, "[-16, 15]");
}
END_TEST

/* Bytes that are not a map: the magic, and a valid map's bytes made invalid. */
START_TEST(decode_refuses)
{
    uint8_t bytes[TMAP_BYTES] = { 0 };
    TensorMap t, g = good();
    char why[200];
    ck_assert(!tensormap_decode(bytes, &t, why, sizeof why));
    ck_assert(strstr(why, "not a tensor map"));
    tensormap_encode(&g, bytes);
    ck_assert(tensormap_decode(bytes, &t, why, sizeof why));
    ck_assert_uint_eq(t.address, 0x1000);
    ck_assert_uint_eq(t.stride[1], 256);
    ck_assert_uint_eq(t.box[0], 64);
    bytes[16] = 8;                 /* the address's low byte: misaligned */
    ck_assert(!tensormap_decode(bytes, &t, why, sizeof why));
    ck_assert(strstr(why, "16-byte aligned"));
}
END_TEST

START_TEST(fill_values)
{
    TensorMap t = good();
    ck_assert_uint_eq(tensormap_fill(&t), 0);
    t.oobfill = 1;
    ck_assert_uint_eq(tensormap_fill(&t), 0x7fff);
    t.dtype = TMAP_FLOAT32;
    ck_assert_uint_eq(tensormap_fill(&t), 0x7fffffff);
    t.dtype = TMAP_FLOAT64;
    ck_assert_uint_eq(tensormap_fill(&t), 0x7fffffffffffffffull);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tensormap");
    TCase *tc = tcase_create("tensormap");
    tcase_add_test(tc, model_cases);
    tcase_add_test(tc, swizzle_by_hand);
    tcase_add_test(tc, encoder_rules);
    tcase_add_test(tc, im2col_rules);
    tcase_add_test(tc, decode_refuses);
    tcase_add_test(tc, fill_values);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
