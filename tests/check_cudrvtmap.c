/* check_cudrvtmap.c: the driver API's tensor maps (cuda/drvtmap.c) through cudrv.h alone:
 * cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col and cuTensorMapReplaceAddress, their
 * argument checks as CUDA 13's cuda.h documents them (each refusal CUDA_ERROR_INVALID_VALUE with
 * its reason on the report stream), and the 128 bytes in ptxrun's encoding as docs/semantics.md
 * lays them out ("Tensor maps"). Each test runs in a process of its own. */
#define _GNU_SOURCE                  /* setenv */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudrv.h"

#include "drvtest.h"

/* cuInit and a context made current (drvtest.h). */
static CUcontext start(void)
{
    return drvtest_start("check_cudrvtmap");
}

static uint64_t le(const CUtensorMap *m, unsigned at, unsigned n)
{
    const uint8_t *p = (const uint8_t *)m->opaque;
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[at + i] << 8 * i;
    return v;
}

/* A 2D bf16 tensor of 100 x 40 in rows of 256 bytes, boxes of 64 x 8, 128-byte swizzle. */
static _Alignas(64) uint8_t tensor[256 * 40 + 64];
static const cuuint64_t dim[2] = { 100, 40 }, strides[1] = { 256 };
static const cuuint32_t box[2] = { 64, 8 }, ones[5] = { 1, 1, 1, 1, 1 };

static CUresult tiled(CUtensorMap *m, void *at, const cuuint64_t *st, const cuuint32_t *bx, CUtensorMapSwizzle swz)
{
    return cuTensorMapEncodeTiled(m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, at, dim, st, bx, ones,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, swz, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

START_TEST(test_not_initialized)
{
    CUtensorMap m;
    FAILS(tiled(&m, tensor, strides, box, CU_TENSOR_MAP_SWIZZLE_128B), CUDA_ERROR_NOT_INITIALIZED);
}
END_TEST

/* The bytes as docs/semantics.md lays them out. */
START_TEST(test_tiled_encoding)
{
    CUcontext c = start();
    CUtensorMap m;
    memset(&m, 0xee, sizeof m);
    OK(tiled(&m, tensor, strides, box, CU_TENSOR_MAP_SWIZZLE_128B));
    ck_assert_uint_eq(le(&m, 0, 4), 0x6d787470);      /* "ptxm" */
    ck_assert_uint_eq(le(&m, 4, 1), 1);               /* tiled */
    ck_assert_uint_eq(le(&m, 5, 1), 2);               /* rank */
    ck_assert_uint_eq(le(&m, 6, 1), CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
    ck_assert_uint_eq(le(&m, 7, 1), 0);               /* interleave */
    ck_assert_uint_eq(le(&m, 8, 1), CU_TENSOR_MAP_SWIZZLE_128B);
    ck_assert_uint_eq(le(&m, 9, 1), CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
    ck_assert_uint_eq(le(&m, 10, 1), 0);
    ck_assert_uint_eq(le(&m, 16, 8), (uint64_t)(uintptr_t)tensor);
    ck_assert_uint_eq(le(&m, 24, 8), 256);
    ck_assert_uint_eq(le(&m, 56, 4), 99);
    ck_assert_uint_eq(le(&m, 60, 4), 39);
    ck_assert_uint_eq(le(&m, 76, 1), 63);
    ck_assert_uint_eq(le(&m, 77, 1), 7);
    ck_assert_uint_eq(le(&m, 81, 1), 1);
    for (unsigned i = 98; i < 128; i++)
        ck_assert_uint_eq(le(&m, i, 1), 0);
    /* the address replaced, the rest kept */
    OK(cuTensorMapReplaceAddress(&m, tensor + 32));
    ck_assert_uint_eq(le(&m, 16, 8), (uint64_t)(uintptr_t)(tensor + 32));
    ck_assert_uint_eq(le(&m, 24, 8), 256);
    finish(c);
}
END_TEST

/* Each of cuda.h's rules broken once: CUDA_ERROR_INVALID_VALUE and the reason reported. */
START_TEST(test_tiled_refusals)
{
    CUcontext c = start();
    CUtensorMap m;
    static _Alignas(64) uint8_t raw[128 + 64];
    const cuuint64_t odd[1] = { 200 }, huge[1] = { 1ull << 40 };
    const cuuint32_t wide[2] = { 72, 8 }, tall[2] = { 64, 257 }, narrow[2] = { 4, 8 };
    FAILS(tiled(&m, tensor + 8, strides, box, CU_TENSOR_MAP_SWIZZLE_128B), CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "cuTensorMapEncodeTiled: globalAddress"));
    ck_assert_ptr_nonnull(strstr(report(), "not 16-byte aligned"));
    FAILS(tiled(&m, tensor, odd, box, CU_TENSOR_MAP_SWIZZLE_128B), CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "globalStrides[0] is 200"));
    FAILS(tiled(&m, tensor, huge, box, CU_TENSOR_MAP_SWIZZLE_128B), CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "below 2^40"));
    FAILS(tiled(&m, tensor, strides, wide, CU_TENSOR_MAP_SWIZZLE_128B), CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "exceeds the 128-byte swizzle"));
    FAILS(tiled(&m, tensor, strides, box, CU_TENSOR_MAP_SWIZZLE_32B), CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "exceeds the 32-byte swizzle"));
    OK(tiled(&m, tensor, strides, wide, CU_TENSOR_MAP_SWIZZLE_NONE));     /* 144 bytes: 9 x 16 */
    FAILS(tiled(&m, tensor, strides, narrow, CU_TENSOR_MAP_SWIZZLE_NONE), CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "not a multiple of 16"));
    FAILS(tiled(&m, tensor, strides, tall, CU_TENSOR_MAP_SWIZZLE_128B), CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "boxDim[1] is 257"));
    FAILS(tiled(&m, tensor, strides, box, CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B), CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "compute capability 10.0"));
    FAILS(tiled((CUtensorMap *)(raw + 16), tensor, strides, box, CU_TENSOR_MAP_SWIZZLE_128B), CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "not 64-byte aligned"));
    FAILS(tiled(NULL, tensor, strides, box, CU_TENSOR_MAP_SWIZZLE_128B), CUDA_ERROR_INVALID_VALUE);
    FAILS(tiled(&m, tensor, strides, NULL, CU_TENSOR_MAP_SWIZZLE_128B), CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "NULL"));
    const cuuint32_t stride9[2] = { 1, 9 };
    FAILS(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, tensor, dim, strides, box, stride9,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "elementStrides[1] is 9"));
    const cuuint32_t box32[2] = { 32, 8 };
    FAILS(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, tensor, dim, strides, box32, ones,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA),
          CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "floating-point"));
    FAILS(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 6, tensor, dim, strides, box, ones,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "tensorRank 6"));
    /* an interleaved map: rank 3 or more; 32B needs 32-byte alignment and a 32B swizzle */
    const cuuint64_t dim3[3] = { 16, 4, 4 }, st3[2] = { 32, 128 };
    const cuuint32_t box3[3] = { 16, 4, 2 };
    OK(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_UINT16, 3, tensor, dim3, st3, box3, ones,
                              CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B,
                              CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    FAILS(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_UINT16, 3, tensor + 16, dim3, st3, box3, ones,
                                 CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "32-byte aligned"));
    FAILS(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_UINT16, 3, tensor, dim3, st3, box3, ones,
                                 CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_64B,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "needs swizzle 32B"));
    FAILS(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, tensor, dim, strides, box, ones,
                                 CU_TENSOR_MAP_INTERLEAVE_16B, CU_TENSOR_MAP_SWIZZLE_NONE,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "tensorRank 3 or more"));
    /* replacing the address: aligned as the map needs, into a map's bytes */
    OK(tiled(&m, tensor, strides, box, CU_TENSOR_MAP_SWIZZLE_128B));
    FAILS(cuTensorMapReplaceAddress(&m, tensor + 4), CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "cuTensorMapReplaceAddress: globalAddress"));
    memset(&m, 0, sizeof m);
    FAILS(cuTensorMapReplaceAddress(&m, tensor), CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "not a tensor map"));
    finish(c);
}
END_TEST

START_TEST(test_im2col)
{
    CUcontext c = start();
    CUtensorMap m;
    /* NHWC 8 x 5 x 5 x 2 f16, a 3 x 3 filter's corners with padding 1 */
    const cuuint64_t d4[4] = { 8, 5, 5, 2 }, s4[3] = { 16, 80, 400 };
    const int lower[2] = { -1, -1 }, upper[2] = { -1, -1 }, far[2] = { -129, -1 };
    OK(cuTensorMapEncodeIm2col(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, tensor, d4, s4, lower, upper, 8, 12, ones,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA));
    ck_assert_uint_eq(le(&m, 4, 1), 2);               /* im2col */
    ck_assert_uint_eq(le(&m, 10, 1), 1);              /* NaN fill */
    ck_assert_uint_eq(le(&m, 12, 2), 8);
    ck_assert_uint_eq(le(&m, 14, 2), 12);
    ck_assert_uint_eq(le(&m, 86, 2), 0xffff);         /* -1 */
    ck_assert_uint_eq(le(&m, 92, 2), 0xffff);
    ck_assert_uint_eq(le(&m, 40, 8), 400);            /* globalStrides[2] */
    FAILS(cuTensorMapEncodeIm2col(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, tensor, d4, s4, far, upper, 8, 12, ones,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "cuTensorMapEncodeIm2col: pixelBox corner offsets"));
    FAILS(cuTensorMapEncodeIm2col(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, tensor, d4, s4, lower, upper, 8, 12, ones,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "3, 4 or 5"));
    FAILS(cuTensorMapEncodeIm2col(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, tensor, d4, s4, lower, upper, 8, 1025, ones,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(report(), "pixelsPerColumn is 1025"));
    FAILS(cuTensorMapEncodeIm2col(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, tensor, d4, s4, NULL, upper, 8, 12, ones,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          CUDA_ERROR_INVALID_VALUE);
    finish(c);
}
END_TEST

/* A tensor map made by cuTensorMapEncodeTiled, passed by value to a kernel (as CUDA passes a
 * __grid_constant__ CUtensorMap), read by cp.async.bulk.tensor: a 4 x 16 box of a 20 x 12 f32
 * tensor in rows of 128 bytes, at (8, 10): columns 20.. and rows 12.. lie outside, filled with
 * zeros (or NaN, 0x7fffffff in ptxrun, with NAN_REQUEST_ZERO_FMA). Expected values computed here. */
static const char tload_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry tload(.param .align 64 .b8 map[128], .param .u64 out, .param .u32 x, .param .u32 y)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n  .reg .f32 %f;\n  .reg .pred %p;\n"
    "  .shared .align 128 .b8 tile[256];\n  .shared .align 8 .b64 bar;\n"
    "  mbarrier.init.shared::cta.b64 [bar], 1;\n"
    "  mov.b64 %rd1, map;\n  cvta.param.u64 %rd2, %rd1;\n"
    "  ld.param.u32 %r1, [x];\n  ld.param.u32 %r2, [y];\n"
    "  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [tile], [%rd2, {%r1, %r2}], [bar];\n"
    "  mbarrier.arrive.expect_tx.shared::cta.b64 %rd3, [bar], 256;\n"
    "WAIT:\n  mbarrier.try_wait.shared::cta.b64 %p, [bar], %rd3;\n  @!%p bra WAIT;\n"
    "  ld.param.u64 %rd4, [out];\n  mov.u32 %r3, 0;\n  mov.u32 %r4, tile;\n"
    "COPY:\n  ld.shared.f32 %f, [%r4];\n  st.global.f32 [%rd4], %f;\n"
    "  add.u32 %r4, %r4, 4;\n  add.u64 %rd4, %rd4, 4;\n  add.u32 %r3, %r3, 1;\n"
    "  setp.lt.u32 %p, %r3, 64;\n  @%p bra COPY;\n  ret;\n}\n";

START_TEST(test_launch_with_map)
{
    CUcontext c = start();
    CUmodule mod;
    CUfunction f;
    OK(cuModuleLoadData(&mod, tload_ptx));
    OK(cuModuleGetFunction(&f, mod, "tload"));
    enum { W = 20, H = 12, PITCH = 32 };
    float host[PITCH * H], out[64];
    for (int i = 0; i < PITCH * H; i++)
        host[i] = (float)(i % PITCH < W ? 100 * (i / PITCH) + i % PITCH : -1);
    CUdeviceptr g, dout;
    OK(cuMemAlloc_v2(&g, sizeof host));
    OK(cuMemAlloc_v2(&dout, sizeof out));
    OK(cuMemcpyHtoD_v2(g, host, sizeof host));
    const cuuint64_t d[2] = { W, H }, st[1] = { PITCH * 4 };
    const cuuint32_t bx[2] = { 16, 4 };
    for (int nan = 0; nan < 2; nan++) {
        CUtensorMap map;
        OK(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)(uintptr_t)g, d, st, bx, ones,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                  nan ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                                      : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
        uint32_t x = 8, y = 10;
        void *params[] = { &map, &dout, &x, &y };
        OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
        OK(cuCtxSynchronize());
        OK(cuMemcpyDtoH_v2(out, dout, sizeof out));
        for (int e = 0; e < 64; e++) {
            /* the 64-byte swizzle: the 16-byte chunk k of 128-byte row r of the box moves to k ^ (r % 4);
             * the box's rows are 64 bytes, so element e's byte 4e is at 4e ^ ((4e >> 7) & 3) << 4 */
            int at = 4 * e, moved = at ^ (((at >> 7) & 3) << 4), k = moved / 4;
            int col = 8 + k % 16, row = 10 + k / 16;
            uint32_t bits, want = 0;
            memcpy(&bits, &out[e], 4);
            if (col < W && row < H) {
                float v = (float)(100 * row + col);
                memcpy(&want, &v, 4);
            } else if (nan) {
                want = 0x7fffffff;
            }
            ck_assert_msg(bits == want, "nan fill %d: element %d: 0x%08x, expected 0x%08x", nan, e, bits, want);
        }
    }
    finish(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cudrvtmap");
    TCase *t = tcase_create("tensormap");
    tcase_add_test(t, test_not_initialized);
    tcase_add_test(t, test_tiled_encoding);
    tcase_add_test(t, test_tiled_refusals);
    tcase_add_test(t, test_im2col);
    tcase_add_test(t, test_launch_with_map);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
