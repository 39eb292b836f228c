/* check_cudrv.c: ptxrun's CUDA driver API (build/cuda/libcuda.so.1) through cudrv.h alone, as a
 * program loading PTX itself uses it. Each test runs in a process of its own (the driver's state
 * is the process's). The kernels are PTX written here; every expected value is computed here in
 * plain C, or is CUDA's documented answer (error codes, the device's figures). */
#define _GNU_SOURCE                  /* setenv, mkstemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudrv.h"

#define OK(call) ck_assert_int_eq((call), CUDA_SUCCESS)
#define FAILS(call, error) ck_assert_int_eq((call), (error))

static char report_path[64];

/* cuInit and a context made current, the report stream going to a file of the test's own. */
static CUcontext start(void)
{
    snprintf(report_path, sizeof report_path, "/tmp/check_cudrv.%d.report", (int)getpid());
    unlink(report_path);
    setenv("PTXRUN_REPORT", report_path, 1);
    OK(cuInit(0));
    CUcontext c;
    OK(cuCtxCreate_v2(&c, 0, 0));
    return c;
}

/* What the report stream got so far (a static buffer). */
static const char *report(void)
{
    static char text[65536];
    FILE *f = fopen(report_path, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[n] = '\0';
    if (f)
        fclose(f);
    return text;
}

static void finish(CUcontext c)
{
    OK(cuCtxDestroy_v2(c));
    unlink(report_path);
}

/* ---- kernels ---- */

#define HEADER ".version 8.0\n.target sm_90\n.address_size 64\n"

/* out[i] = a * x[i] + y[i] (32-bit wrap-around) for i < n. */
static const char axpy_ptx[] = HEADER
    ".visible .entry axpy(.param .u64 out, .param .u64 x, .param .u64 y, .param .u32 a, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<10>;\n  .reg .b64 %rd<8>;\n  .reg .pred %p;\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n"
    "  mad.lo.u32 %r4, %r1, %r2, %r3;\n  ld.param.u32 %r5, [n];\n  setp.ge.u32 %p, %r4, %r5;\n  @%p bra DONE;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd2, [x];\n  ld.param.u64 %rd3, [y];\n  ld.param.u32 %r6, [a];\n"
    "  mul.wide.u32 %rd4, %r4, 4;\n"
    "  add.u64 %rd5, %rd2, %rd4;\n  ld.global.u32 %r7, [%rd5];\n"
    "  add.u64 %rd6, %rd3, %rd4;\n  ld.global.u32 %r8, [%rd6];\n"
    "  mad.lo.u32 %r9, %r6, %r7, %r8;\n"
    "  add.u64 %rd7, %rd1, %rd4;\n  st.global.u32 [%rd7], %r9;\n"
    "DONE:\n  ret;\n}\n";

enum { N = 1000, BLOCK = 128 };

static void axpy_expect(uint32_t *want, const uint32_t *x, const uint32_t *y, uint32_t a)
{
    for (int i = 0; i < N; i++)
        want[i] = a * x[i] + y[i];
}

static void fill(uint32_t *x, uint32_t *y)
{
    for (int i = 0; i < N; i++) {
        x[i] = (uint32_t)i * 2654435761u;
        y[i] = (uint32_t)(i ^ 0x5a5a) * 40503u;
    }
}

/* ---- initialisation, devices, errors ---- */

START_TEST(test_not_initialized)
{
    int n;
    CUdevice d;
    CUcontext c;
    CUdeviceptr p;
    FAILS(cuDeviceGetCount(&n), CUDA_ERROR_NOT_INITIALIZED);
    FAILS(cuDeviceGet(&d, 0), CUDA_ERROR_NOT_INITIALIZED);
    FAILS(cuCtxCreate_v2(&c, 0, 0), CUDA_ERROR_NOT_INITIALIZED);
    FAILS(cuMemAlloc_v2(&p, 16), CUDA_ERROR_NOT_INITIALIZED);
    FAILS(cuCtxSynchronize(), CUDA_ERROR_NOT_INITIALIZED);
    FAILS(cuInit(1), CUDA_ERROR_INVALID_VALUE);      /* flags must be 0 */
    OK(cuInit(0));
    OK(cuDeviceGetCount(&n));
    ck_assert_int_eq(n, 1);
    FAILS(cuMemAlloc_v2(&p, 16), CUDA_ERROR_INVALID_CONTEXT);   /* no context yet */
    int version;
    OK(cuDriverGetVersion(&version));
    ck_assert_int_eq(version, 13000);
}
END_TEST

START_TEST(test_bad_setting_fails_init)
{
    setenv("PTXRUN_ARCH", "hopper", 1);
    FAILS(cuInit(0), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuInit(0), CUDA_ERROR_INVALID_VALUE);      /* and stays failed */
    int n;
    FAILS(cuDeviceGetCount(&n), CUDA_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(test_bad_settings_each)
{
    static const char *bad[][2] = { { "PTXRUN_STRICT", "yes" }, { "PTXRUN_JOBS", "0" }, { "PTXRUN_JOBS", "4x" },
                                    { "PTXRUN_REPORT", "/nonexistent/dir/report" },
                                    { "PTXRUN_TRACE", "/nonexistent/dir/trace" }, { "PTXRUN_ARCH", "sm_9" } };
    setenv(bad[_i][0], bad[_i][1], 1);
    FAILS(cuInit(0), CUDA_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(test_device_h100)
{
    OK(cuInit(0));
    CUdevice d;
    OK(cuDeviceGet(&d, 0));
    FAILS(cuDeviceGet(&d, 1), CUDA_ERROR_INVALID_DEVICE);
    int v;
    /* every attribute CUDA 13.0 defines has a value */
    for (int a = 1; a < CU_DEVICE_ATTRIBUTE_MAX; a++)
        ck_assert_msg(cuDeviceGetAttribute(&v, (CUdevice_attribute)a, 0) == CUDA_SUCCESS, "attribute %d", a);
    FAILS(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX, 0), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 1), CUDA_ERROR_INVALID_DEVICE);
    FAILS(cuDeviceGetAttribute(NULL, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0), CUDA_ERROR_INVALID_VALUE);
    static const int want[][2] = {
        { CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 132 }, { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 9 },
        { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0 }, { CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024 },
        { CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 2048 },
        { CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, 32 },
        { CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 48 * 1024 },
        { CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 227 * 1024 },
        { CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 228 * 1024 },
        { CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, 65536 }, { CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32 },
        { CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 2147483647 }, { CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535 },
        { CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64 }, { CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 50 * 1024 * 1024 },
        { CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 1 }, { CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 1 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        OK(cuDeviceGetAttribute(&v, (CUdevice_attribute)want[i][0], 0));
        ck_assert_msg(v == want[i][1], "attribute %d: %d, not %d", want[i][0], v, want[i][1]);
    }
    size_t total;
    OK(cuDeviceTotalMem_v2(&total, 0));
    ck_assert_uint_eq(total, 80ull << 30);
    char name[64];
    OK(cuDeviceGetName(name, sizeof name, 0));
    ck_assert_ptr_nonnull(strstr(name, "sm_90"));
    int major, minor;
    OK(cuDeviceComputeCapability(&major, &minor, 0));
    ck_assert_int_eq(major * 10 + minor, 90);
}
END_TEST

START_TEST(test_device_a100)
{
    setenv("PTXRUN_ARCH", "sm_80", 1);
    OK(cuInit(0));
    static const int want[][2] = {
        { CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 108 }, { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 8 },
        { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0 },
        { CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 164 * 1024 },
        { CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 163 * 1024 },
        { CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 40 * 1024 * 1024 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int v;
        OK(cuDeviceGetAttribute(&v, (CUdevice_attribute)want[i][0], 0));
        ck_assert_msg(v == want[i][1], "attribute %d: %d, not %d", want[i][0], v, want[i][1]);
    }
}
END_TEST

START_TEST(test_error_names)
{
    const char *s;
    OK(cuGetErrorName(CUDA_ERROR_ILLEGAL_ADDRESS, &s));
    ck_assert_str_eq(s, "CUDA_ERROR_ILLEGAL_ADDRESS");
    OK(cuGetErrorName(CUDA_SUCCESS, &s));
    ck_assert_str_eq(s, "CUDA_SUCCESS");
    OK(cuGetErrorName(CUDA_ERROR_NOT_SUPPORTED, &s));
    ck_assert_str_eq(s, "CUDA_ERROR_NOT_SUPPORTED");
    OK(cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &s));
    ck_assert_ptr_nonnull(s);
    FAILS(cuGetErrorName((CUresult)12345, &s), CUDA_ERROR_INVALID_VALUE);
    ck_assert_ptr_null(s);
    FAILS(cuGetErrorString((CUresult)12345, &s), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuGetErrorName(CUDA_SUCCESS, NULL), CUDA_ERROR_INVALID_VALUE);
}
END_TEST

/* ---- contexts ---- */

START_TEST(test_contexts)
{
    CUcontext c = start(), cur, other, popped;
    OK(cuCtxGetCurrent(&cur));
    ck_assert_ptr_eq(cur, c);
    CUdevice d = -1;
    OK(cuCtxGetDevice(&d));
    ck_assert_int_eq(d, 0);
    unsigned v;
    OK(cuCtxGetApiVersion(NULL, &v));
    OK(cuCtxCreate_v4(&other, NULL, 0, 0));             /* pushed: current now */
    OK(cuCtxGetCurrent(&cur));
    ck_assert_ptr_eq(cur, other);
    OK(cuCtxPopCurrent_v2(&popped));
    ck_assert_ptr_eq(popped, other);
    OK(cuCtxGetCurrent(&cur));
    ck_assert_ptr_eq(cur, c);
    OK(cuCtxPushCurrent_v2(other));
    OK(cuCtxSetCurrent(c));                             /* replaces the top */
    OK(cuCtxGetCurrent(&cur));
    ck_assert_ptr_eq(cur, c);
    OK(cuCtxDestroy_v2(other));
    FAILS(cuCtxDestroy_v2(other), CUDA_ERROR_INVALID_CONTEXT);
    FAILS(cuCtxSetCurrent(other), CUDA_ERROR_INVALID_CONTEXT);
    FAILS(cuCtxCreate_v2(&other, 0, 3), CUDA_ERROR_INVALID_DEVICE);
    FAILS(cuCtxCreate_v2(NULL, 0, 0), CUDA_ERROR_INVALID_VALUE);
    OK(cuCtxSynchronize());
    finish(c);
    OK(cuCtxGetCurrent(&cur));
    ck_assert_ptr_null(cur);
    FAILS(cuCtxSynchronize(), CUDA_ERROR_INVALID_CONTEXT);
    FAILS(cuCtxPopCurrent_v2(&popped), CUDA_ERROR_INVALID_CONTEXT);
}
END_TEST

START_TEST(test_primary_context)
{
    OK(cuInit(0));
    CUcontext a, b;
    unsigned flags;
    int active;
    OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    ck_assert_int_eq(active, 0);
    OK(cuDevicePrimaryCtxRetain(&a, 0));
    OK(cuDevicePrimaryCtxRetain(&b, 0));
    ck_assert_ptr_eq(a, b);
    OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    ck_assert_int_eq(active, 1);
    OK(cuCtxSetCurrent(a));
    CUdeviceptr p;
    OK(cuMemAlloc_v2(&p, 64));
    FAILS(cuCtxDestroy_v2(a), CUDA_ERROR_INVALID_CONTEXT);   /* a primary context is released, not destroyed */
    OK(cuDevicePrimaryCtxRelease_v2(0));
    OK(cuMemFree_v2(p));                                   /* still retained once */
    OK(cuDevicePrimaryCtxRelease_v2(0));
    FAILS(cuDevicePrimaryCtxRelease_v2(0), CUDA_ERROR_INVALID_CONTEXT);
    OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    ck_assert_int_eq(active, 0);
}
END_TEST

/* ---- memory ---- */

START_TEST(test_memory_copies)
{
    CUcontext c = start();
    uint32_t x[N], y[N];
    fill(x, y);
    CUdeviceptr a, b;
    OK(cuMemAlloc_v2(&a, sizeof x));
    OK(cuMemAlloc_v2(&b, sizeof x));
    ck_assert_uint_eq(a % 256, 0);
    OK(cuMemcpyHtoD_v2(a, x, sizeof x));
    OK(cuMemcpyDtoD_v2(b, a, sizeof x));
    memset(y, 0, sizeof y);
    OK(cuMemcpyDtoH_v2(y, b, sizeof y));
    ck_assert_mem_eq(x, y, sizeof x);
    OK(cuMemsetD32_v2(a, 0xdeadbeef, N));
    OK(cuMemsetD16_v2(b, 0x1234, 3));
    OK(cuMemsetD8_v2(b + 6, 0xab, 3));
    OK(cuMemcpyDtoH_v2(y, a, sizeof y));
    for (int i = 0; i < N; i++)
        ck_assert_uint_eq(y[i], 0xdeadbeef);
    uint8_t bytes[12];
    OK(cuMemcpyDtoH_v2(bytes, b, sizeof bytes));
    static const uint8_t want[12] = { 0x34, 0x12, 0x34, 0x12, 0x34, 0x12, 0xab, 0xab, 0xab };
    const uint8_t *xb = (const uint8_t *)x;
    ck_assert_mem_eq(bytes, want, 9);
    ck_assert_mem_eq(bytes + 9, xb + 9, 3);
    FAILS(cuMemsetD32_v2(a + 2, 0, 1), CUDA_ERROR_INVALID_VALUE);   /* misaligned */
    FAILS(cuMemsetD16_v2(a + 1, 0, 1), CUDA_ERROR_INVALID_VALUE);
    /* out of the allocation, a pointer never given, a freed one */
    FAILS(cuMemcpyHtoD_v2(a + 8, x, sizeof x), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuMemcpyHtoD_v2((CUdeviceptr)(uintptr_t)x, y, 4), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuMemcpyHtoD_v2(a, NULL, 4), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemcpyHtoD_v2(a, NULL, 0));
    OK(cuMemFree_v2(a));
    FAILS(cuMemFree_v2(a), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuMemcpyHtoD_v2(a, x, 4), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuMemsetD8_v2(a, 0, 1), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuMemFree_v2(b + 4), CUDA_ERROR_INVALID_VALUE);            /* not its start */
    FAILS(cuMemAlloc_v2(&a, 0), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuMemAlloc_v2(NULL, 4), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree_v2(b));
    OK(cuMemFree_v2(0));
    finish(c);
}
END_TEST

START_TEST(test_memory_host_and_managed)
{
    CUcontext c = start();
    void *h;
    OK(cuMemAllocHost_v2(&h, 100));
    CUdeviceptr d;
    OK(cuMemHostGetDevicePointer_v2(&d, h, 0));
    ck_assert_uint_eq(d, (uintptr_t)h);
    unsigned flags;
    OK(cuMemHostGetFlags(&flags, h));
    void *h2;
    OK(cuMemHostAlloc(&h2, 64, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    OK(cuMemHostGetFlags(&flags, h2));
    ck_assert_uint_eq(flags, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
    FAILS(cuMemFree_v2(d), CUDA_ERROR_INVALID_VALUE);                 /* host memory: cuMemFreeHost */
    OK(cuMemFreeHost(h));
    OK(cuMemFreeHost(h2));
    FAILS(cuMemFreeHost(h), CUDA_ERROR_INVALID_VALUE);
    CUdeviceptr m;
    OK(cuMemAllocManaged(&m, 256, CU_MEM_ATTACH_GLOBAL));
    ((uint32_t *)(uintptr_t)m)[3] = 42;                               /* the host reaches it */
    uint32_t back;
    OK(cuMemcpyDtoH_v2(&back, m + 12, 4));
    ck_assert_uint_eq(back, 42);
    int managed = 0;
    OK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, m));
    ck_assert_int_eq(managed, 1);
    FAILS(cuMemAllocManaged(&m, 256, 0), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree_v2(m));
    static uint32_t mine[64];
    OK(cuMemHostRegister_v2(mine, sizeof mine, 0));
    FAILS(cuMemHostRegister_v2(mine + 4, 16, 0), CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    OK(cuMemHostGetDevicePointer_v2(&d, mine, 0));
    OK(cuMemsetD32_v2(d, 7, 64));
    ck_assert_uint_eq(mine[63], 7);
    OK(cuMemHostUnregister(mine));
    FAILS(cuMemHostUnregister(mine), CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
    finish(c);
}
END_TEST

START_TEST(test_pointer_attributes)
{
    CUcontext c = start();
    CUdeviceptr p, base;
    size_t size;
    OK(cuMemAlloc_v2(&p, 1000));
    OK(cuMemGetAddressRange_v2(&base, &size, p + 500));
    ck_assert_uint_eq(base, p);
    ck_assert_uint_eq(size, 1000);
    FAILS(cuMemGetAddressRange_v2(&base, &size, p + 1000), CUDA_ERROR_NOT_FOUND);
    unsigned type = 0;
    CUcontext owner = NULL;
    OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p + 4));
    ck_assert_uint_eq(type, CU_MEMORYTYPE_DEVICE);
    OK(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, p));
    ck_assert_ptr_eq(owner, c);
    void *host;
    FAILS(cuPointerGetAttribute(&host, CU_POINTER_ATTRIBUTE_HOST_POINTER, p), CUDA_ERROR_INVALID_VALUE);
    int local;
    FAILS(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (uintptr_t)&local), CUDA_ERROR_INVALID_VALUE);
    CUpointer_attribute which[3] = { CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_RANGE_SIZE,
                                     CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL };
    int ordinal = 5;
    size = 0;
    void *data[3] = { &type, &size, &ordinal };
    OK(cuPointerGetAttributes(3, which, data, p + 1));
    ck_assert_uint_eq(type, CU_MEMORYTYPE_DEVICE);
    ck_assert_uint_eq(size, 1000);
    ck_assert_int_eq(ordinal, 0);
    OK(cuPointerGetAttributes(3, which, data, (uintptr_t)&local));   /* not an error: empty values */
    ck_assert_uint_eq(type, 0);
    unsigned long long id1, id2;
    CUdeviceptr q;
    OK(cuMemAlloc_v2(&q, 8));
    OK(cuPointerGetAttribute(&id1, CU_POINTER_ATTRIBUTE_BUFFER_ID, p));
    OK(cuPointerGetAttribute(&id2, CU_POINTER_ATTRIBUTE_BUFFER_ID, q));
    ck_assert_uint_ne(id1, id2);
    size_t free_bytes, total;
    OK(cuMemGetInfo_v2(&free_bytes, &total));
    ck_assert_uint_eq(total, 80ull << 30);
    ck_assert_uint_le(free_bytes, total - 1008);
    OK(cuMemFree_v2(p));
    OK(cuMemFree_v2(q));
    finish(c);
}
END_TEST

START_TEST(test_memory_2d_3d)
{
    CUcontext c = start();
    enum { W = 10, H = 7, D = 3 };
    CUdeviceptr p;
    size_t pitch;
    OK(cuMemAllocPitch_v2(&p, &pitch, W, H * D, 4));
    ck_assert_uint_ge(pitch, W);
    ck_assert_uint_eq(pitch % 256, 0);
    uint8_t src[D][H][W], back[D][H][W];
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                src[z][y][x] = (uint8_t)(x + 16 * y + 117 * z);
    CUDA_MEMCPY3D c3 = { 0 };
    c3.srcMemoryType = CU_MEMORYTYPE_HOST;
    c3.srcHost = src;
    c3.srcPitch = W;
    c3.srcHeight = H;
    c3.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c3.dstDevice = p;
    c3.dstPitch = pitch;
    c3.dstHeight = H;
    c3.WidthInBytes = W;
    c3.Height = H;
    c3.Depth = D;
    OK(cuMemcpy3D_v2(&c3));
    /* row y of layer z is at p + pitch * (y + H * z) */
    uint8_t row[W];
    OK(cuMemcpyDtoH_v2(row, p + pitch * (4 + H * 2), W));
    ck_assert_mem_eq(row, src[2][4], W);
    CUDA_MEMCPY2D c2 = { 0 };
    c2.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c2.srcDevice = p;
    c2.srcPitch = pitch;
    c2.dstMemoryType = CU_MEMORYTYPE_HOST;
    c2.dstHost = back;
    c2.dstPitch = W;
    c2.WidthInBytes = W;
    c2.Height = H * D;
    OK(cuMemcpy2D_v2(&c2));
    ck_assert_mem_eq(back, src, sizeof src);
    /* a part: 3 bytes from x 2, rows 1 to 4 */
    memset(back, 0, sizeof back);
    c2.srcXInBytes = 2;
    c2.srcY = 1;
    c2.dstXInBytes = 5;
    c2.WidthInBytes = 3;
    c2.Height = 4;
    OK(cuMemcpy2DAsync_v2(&c2, NULL));
    for (int y = 0; y < 4; y++)
        ck_assert_mem_eq(&back[0][y][5], &src[0][y + 1][2], 3);
    c2.srcPitch = 2;                                                  /* narrower than the width */
    FAILS(cuMemcpy2D_v2(&c2), CUDA_ERROR_INVALID_VALUE);
    c2.srcPitch = pitch;
    c2.Height = H * D + 1;                                            /* past the allocation */
    FAILS(cuMemcpy2D_v2(&c2), CUDA_ERROR_INVALID_VALUE);
    c2.Height = 1;
    c2.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    FAILS(cuMemcpy2D_v2(&c2), CUDA_ERROR_NOT_SUPPORTED);
    OK(cuMemsetD2D32_v2(p, pitch, 0x01020304, 2, 3));
    uint32_t word;
    OK(cuMemcpyDtoH_v2(&word, p + pitch * 2 + 4, 4));
    ck_assert_uint_eq(word, 0x01020304);
    OK(cuMemcpyDtoH_v2(&word, p + pitch * 3, 4));                     /* row 3: not set */
    ck_assert_uint_eq(word, (uint32_t)src[0][3][0] | (uint32_t)src[0][3][1] << 8 | (uint32_t)src[0][3][2] << 16
                                | (uint32_t)src[0][3][3] << 24);
    OK(cuMemFree_v2(p));
    finish(c);
}
END_TEST

/* ---- modules and launches ---- */

START_TEST(test_launch_params)
{
    CUcontext c = start();
    CUmodule m;
    OK(cuModuleLoadData(&m, axpy_ptx));
    CUfunction f;
    OK(cuModuleGetFunction(&f, m, "axpy"));
    FAILS(cuModuleGetFunction(&f, m, "nothing"), CUDA_ERROR_NOT_FOUND);
    uint32_t x[N], y[N], out[N], want[N];
    fill(x, y);
    CUdeviceptr dx, dy, dout;
    OK(cuMemAlloc_v2(&dx, sizeof x));
    OK(cuMemAlloc_v2(&dy, sizeof y));
    OK(cuMemAlloc_v2(&dout, sizeof out));
    OK(cuMemcpyHtoD_v2(dx, x, sizeof x));
    OK(cuMemcpyHtoD_v2(dy, y, sizeof y));
    uint32_t a = 3000000019u, n = N;
    void *params[] = { &dout, &dx, &dy, &a, &n };
    OK(cuLaunchKernel(f, (N + BLOCK - 1) / BLOCK, 1, 1, BLOCK, 1, 1, 0, NULL, params, NULL));
    OK(cuCtxSynchronize());
    OK(cuMemcpyDtoH_v2(out, dout, sizeof out));
    axpy_expect(want, x, y, a);
    ck_assert_mem_eq(out, want, sizeof out);
    /* refused before the run: zero sizes, a block over 1024, no parameters, both forms */
    FAILS(cuLaunchKernel(f, 0, 1, 1, 1, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuLaunchKernel(f, 1, 1, 1, 1025, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    void *extra[] = { CU_LAUNCH_PARAM_END };
    FAILS(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, extra), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, (CUstream)(uintptr_t)0x1234, params, NULL),
          CUDA_ERROR_INVALID_HANDLE);
    FAILS(cuLaunchKernel(NULL, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_HANDLE);
    FAILS(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 64 << 10, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
    OK(cuCtxSynchronize());                                           /* none of them is sticky */
    OK(cuMemFree_v2(dx));
    OK(cuMemFree_v2(dy));
    OK(cuMemFree_v2(dout));
    OK(cuModuleUnload(m));
    FAILS(cuModuleUnload(m), CUDA_ERROR_INVALID_HANDLE);
    FAILS(cuModuleGetFunction(&f, m, "axpy"), CUDA_ERROR_INVALID_HANDLE);
    FAILS(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_HANDLE);
    finish(c);
}
END_TEST

START_TEST(test_launch_extra)
{
    CUcontext c = start();
    CUmodule m;
    OK(cuModuleLoadDataEx(&m, axpy_ptx, 0, NULL, NULL));
    CUfunction f;
    OK(cuModuleGetFunction(&f, m, "axpy"));
    uint32_t x[N], y[N], out[N], want[N];
    fill(x, y);
    CUdeviceptr dx, dy, dout;
    OK(cuMemAlloc_v2(&dx, sizeof x));
    OK(cuMemAlloc_v2(&dy, sizeof y));
    OK(cuMemAlloc_v2(&dout, sizeof out));
    OK(cuMemcpyHtoD_v2(dx, x, sizeof x));
    OK(cuMemcpyHtoD_v2(dy, y, sizeof y));
    /* the parameters laid out as a C struct of them: three pointers, then two 32-bit values */
    struct {
        uint64_t out, x, y;
        uint32_t a, n;
    } args = { dout, dx, dy, 77u, N };
    size_t size = sizeof args;
    void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &args, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END };
    OK(cuLaunchKernel(f, (N + BLOCK - 1) / BLOCK, 1, 1, BLOCK, 1, 1, 0, NULL, NULL, extra));
    OK(cuMemcpyDtoH_v2(out, dout, sizeof out));
    axpy_expect(want, x, y, 77u);
    ck_assert_mem_eq(out, want, sizeof out);
    size = sizeof args - 4;                                           /* n left out */
    FAILS(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra), CUDA_ERROR_INVALID_VALUE);
    void *bad[] = { (void *)0x7, &args, CU_LAUNCH_PARAM_END };
    FAILS(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, bad), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree_v2(dx));
    OK(cuMemFree_v2(dy));
    OK(cuMemFree_v2(dout));
    OK(cuModuleUnload(m));
    finish(c);
}
END_TEST


/* Module variables: .global and .const with initializers, written by the host before a launch,
 * by a kernel for the host; one no kernel reaches. */
static const char vars_ptx[] = HEADER
    ".visible .global .align 4 .u32 counter = 7;\n"
    ".visible .const .align 4 .u32 factor = 3;\n"
    ".visible .global .align 8 .u64 table[4] = {10, 20, 30, 40};\n"
    ".visible .global .align 4 .u32 unused[5];\n"
    ".visible .entry bump(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.global.u32 %r1, [counter];\n  ld.const.u32 %r2, [factor];\n"
    "  mul.lo.u32 %r3, %r1, %r2;\n  st.global.u32 [%rd1], %r3;\n"
    "  add.u32 %r4, %r1, 1;\n  st.global.u32 [counter], %r4;\n"
    "  ld.global.u64 %rd2, [table+24];\n  st.global.u64 [%rd1+8], %rd2;\n"
    "  mov.u64 %rd3, counter;\n  st.global.u64 [%rd1+16], %rd3;\n"
    "  ret;\n}\n";

START_TEST(test_module_variables)
{
    CUcontext c = start();
    CUmodule m;
    OK(cuModuleLoadData(&m, vars_ptx));
    CUdeviceptr counter, factor, table, unused;
    size_t size;
    OK(cuModuleGetGlobal_v2(&counter, &size, m, "counter"));
    ck_assert_uint_eq(size, 4);
    OK(cuModuleGetGlobal_v2(&factor, &size, m, "factor"));
    OK(cuModuleGetGlobal_v2(&table, &size, m, "table"));
    ck_assert_uint_eq(size, 32);
    OK(cuModuleGetGlobal_v2(&unused, &size, m, "unused"));
    ck_assert_uint_eq(size, 20);
    OK(cuModuleGetGlobal_v2(NULL, &size, m, "factor"));
    FAILS(cuModuleGetGlobal_v2(&unused, &size, m, "nothing"), CUDA_ERROR_NOT_FOUND);
    FAILS(cuModuleGetGlobal_v2(NULL, NULL, m, "counter"), CUDA_ERROR_INVALID_VALUE);
    /* the initializers are there before any launch */
    uint32_t v;
    uint64_t t[4], zero[5] = { 0 }, u[5];
    OK(cuMemcpyDtoH_v2(&v, counter, 4));
    ck_assert_uint_eq(v, 7);
    OK(cuMemcpyDtoH_v2(&v, factor, 4));
    ck_assert_uint_eq(v, 3);
    OK(cuMemcpyDtoH_v2(t, table, sizeof t));
    ck_assert_uint_eq(t[3], 40);
    OK(cuMemcpyDtoH_v2(u, unused, 20));
    ck_assert_mem_eq(u, zero, 20);
    /* the host's writes reach the kernel */
    v = 10;
    OK(cuMemcpyHtoD_v2(counter, &v, 4));
    v = 5;
    OK(cuMemcpyHtoD_v2(factor, &v, 4));
    uint64_t big = 0x123456789abcdefull;
    OK(cuMemcpyHtoD_v2(table + 24, &big, 8));
    CUfunction f;
    OK(cuModuleGetFunction(&f, m, "bump"));
    CUdeviceptr out;
    OK(cuMemAlloc_v2(&out, 24));
    void *params[] = { &out };
    OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
    uint64_t got[3];
    OK(cuMemcpyDtoH_v2(got, out, sizeof got));
    ck_assert_uint_eq((uint32_t)got[0], 10 * 5);
    ck_assert_uint_eq(got[1], big);
    ck_assert_uint_eq(got[2], counter);                 /* &counter in the kernel is the host's address */
    /* and the kernel's reach the host, and its next launch */
    OK(cuMemcpyDtoH_v2(&v, counter, 4));
    ck_assert_uint_eq(v, 11);
    OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
    OK(cuMemcpyDtoH_v2(&v, counter, 4));
    ck_assert_uint_eq(v, 12);
    /* a second load of the module has variables of its own */
    CUmodule m2;
    CUdeviceptr counter2;
    OK(cuModuleLoadData(&m2, vars_ptx));
    OK(cuModuleGetGlobal_v2(&counter2, NULL, m2, "counter"));
    ck_assert_uint_ne(counter2, counter);
    OK(cuMemcpyDtoH_v2(&v, counter2, 4));
    ck_assert_uint_eq(v, 7);
    OK(cuModuleUnload(m));
    FAILS(cuMemcpyDtoH_v2(&v, counter, 4), CUDA_ERROR_INVALID_VALUE);   /* freed with its module */
    OK(cuModuleUnload(m2));
    OK(cuMemFree_v2(out));
    finish(c);
}
END_TEST

/* A kernel storing to p[i] (a u32) for its one thread; used with bad addresses. */
static const char store_ptx[] = HEADER
    ".visible .entry store(.param .u64 p)\n"
    "{\n  .reg .b64 %rd1;\n  .reg .b32 %r1;\n  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, 5;\n"
    "  st.global.u32 [%rd1], %r1;\n  ret;\n}\n"
    ".visible .entry stop()\n{\n  trap;\n}\n"
    ".visible .entry stuck()\n"
    "{\n  .reg .b32 %r1;\n  .reg .pred %p;\n  mov.u32 %r1, %tid.x;\n  setp.lt.u32 %p, %r1, 32;\n"
    "  @%p bar.sync 0, 64;\n  @!%p bar.sync 1, 64;\n  ret;\n}\n";

/* Launches kernel name of store_ptx with p; the launch itself succeeds. */
static void launch_store(const char *name, CUdeviceptr p, unsigned threads)
{
    CUmodule m;
    OK(cuModuleLoadData(&m, store_ptx));
    CUfunction f;
    OK(cuModuleGetFunction(&f, m, name));
    void *params[] = { &p };
    OK(cuLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, NULL, strcmp(name, "store") ? NULL : params, NULL));
}

START_TEST(test_fault_is_sticky)
{
    CUcontext c = start();
    CUdeviceptr p;
    OK(cuMemAlloc_v2(&p, 64));
    launch_store("store", p + 64, 1);                   /* one past the end */
    ck_assert_ptr_nonnull(strstr(report(), "in kernel 'store'"));
    ck_assert_ptr_nonnull(strstr(report(), "outside every region"));
    FAILS(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    FAILS(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    uint32_t v;
    FAILS(cuMemcpyDtoH_v2(&v, p, 4), CUDA_ERROR_ILLEGAL_ADDRESS);
    CUdeviceptr q;
    FAILS(cuMemAlloc_v2(&q, 4), CUDA_ERROR_ILLEGAL_ADDRESS);
    CUmodule m;
    FAILS(cuModuleLoadData(&m, store_ptx), CUDA_ERROR_ILLEGAL_ADDRESS);
    CUstream s;
    FAILS(cuStreamCreate(&s, 0), CUDA_ERROR_ILLEGAL_ADDRESS);
    FAILS(cuStreamSynchronize(NULL), CUDA_ERROR_ILLEGAL_ADDRESS);
    /* another context is untouched */
    CUcontext other;
    OK(cuCtxCreate_v2(&other, 0, 0));
    OK(cuMemAlloc_v2(&q, 4));
    OK(cuCtxSynchronize());
    OK(cuCtxDestroy_v2(other));
    finish(c);
}
END_TEST

START_TEST(test_fault_kinds)
{
    static const struct {
        const char *kernel;
        unsigned offset, threads;
        CUresult error;
    } cases[] = {
        { "store", 2, 1, CUDA_ERROR_MISALIGNED_ADDRESS },
        { "store", 1 << 20, 1, CUDA_ERROR_ILLEGAL_ADDRESS },
        { "stop", 0, 1, CUDA_ERROR_LAUNCH_FAILED },
        { "stuck", 0, 64, CUDA_ERROR_LAUNCH_TIMEOUT },
    };
    CUcontext c = start();
    CUdeviceptr p;
    OK(cuMemAlloc_v2(&p, 64));
    launch_store(cases[_i].kernel, p + cases[_i].offset, cases[_i].threads);
    FAILS(cuCtxSynchronize(), cases[_i].error);
    finish(c);
}
END_TEST

/* A fault in a freed allocation: the memory is no longer the kernel's. */
START_TEST(test_fault_in_freed_memory)
{
    CUcontext c = start();
    CUdeviceptr p, keep;
    OK(cuMemAlloc_v2(&keep, 4096));
    OK(cuMemAlloc_v2(&p, 64));
    launch_store("store", p, 1);
    OK(cuCtxSynchronize());
    uint32_t v;
    OK(cuMemcpyDtoH_v2(&v, p, 4));
    ck_assert_uint_eq(v, 5);
    OK(cuMemFree_v2(p));
    launch_store("store", p, 1);
    FAILS(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    finish(c);
}
END_TEST

static Suite *cudrv_suite(void)
{
    Suite *s = suite_create("cudrv");
    TCase *t = tcase_create("init");
    tcase_add_test(t, test_not_initialized);
    tcase_add_test(t, test_bad_setting_fails_init);
    tcase_add_loop_test(t, test_bad_settings_each, 0, 6);
    tcase_add_test(t, test_device_h100);
    tcase_add_test(t, test_device_a100);
    tcase_add_test(t, test_error_names);
    tcase_add_test(t, test_contexts);
    tcase_add_test(t, test_primary_context);
    suite_add_tcase(s, t);
    t = tcase_create("memory");
    tcase_add_test(t, test_memory_copies);
    tcase_add_test(t, test_memory_host_and_managed);
    tcase_add_test(t, test_pointer_attributes);
    tcase_add_test(t, test_memory_2d_3d);
    suite_add_tcase(s, t);
    t = tcase_create("launch");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_launch_params);
    tcase_add_test(t, test_launch_extra);
    tcase_add_test(t, test_module_variables);
    tcase_add_test(t, test_fault_is_sticky);
    tcase_add_loop_test(t, test_fault_kinds, 0, 4);
    tcase_add_test(t, test_fault_in_freed_memory);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cudrv_suite());
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
