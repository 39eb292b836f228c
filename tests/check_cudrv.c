/* check_cudrv.c: ptxrun's CUDA driver API (build/cuda/libcuda.so.1) through cudrv.h alone, as a
 * program loading PTX itself uses it. Each test runs in a process of its own (the driver's state
 * is the process's). The kernels are PTX written here; every expected value is computed here in
 * plain C, or is CUDA's documented answer (error codes, the device's figures). */
#define _GNU_SOURCE                  /* setenv, mkstemp */
#include <check.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudrv.h"

#include "drvtest.h"

/* cuInit and a context made current (drvtest.h). */
static CUcontext start(void)
{
    return drvtest_start("check_cudrv");
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
    char bus[32];
    OK(cuDeviceGetPCIBusId(bus, sizeof bus, 0));
    CUdevice same = -1;
    OK(cuDeviceGetByPCIBusId(&same, bus));
    ck_assert_int_eq(same, 0);
    FAILS(cuDeviceGetByPCIBusId(&same, "0000:41:00.0"), CUDA_ERROR_INVALID_VALUE);
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
    CUdeviceptr q;
    OK(cuMemAlloc_v2(&q, 64));
    OK(cuDevicePrimaryCtxRelease_v2(0));
    FAILS(cuDevicePrimaryCtxRelease_v2(0), CUDA_ERROR_INVALID_CONTEXT);
    OK(cuDevicePrimaryCtxRetain(&a, 0));
    FAILS(cuMemFree_v2(q), CUDA_ERROR_INVALID_VALUE);                 /* the last release freed it */
    OK(cuDevicePrimaryCtxRelease_v2(0));
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
    /* a unified copy (cudaMemcpyDefault's) is held to the allocation either side starts in: CUDA
     * refuses a range running past it, where a plain memmove would overwrite the host's heap */
    uint32_t *big = calloc(2 * N, sizeof *big);
    FAILS(cuMemcpy(a + 8, (CUdeviceptr)(uintptr_t)big, sizeof x), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuMemcpy((CUdeviceptr)(uintptr_t)big, a + 8, sizeof x), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuMemcpyAsync(a, b + 4, sizeof x, NULL), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemcpy((CUdeviceptr)(uintptr_t)big, a, sizeof x));
    ck_assert_uint_eq(big[0], 0xdeadbeef);
    CUDA_MEMCPY2D u = { .srcMemoryType = CU_MEMORYTYPE_UNIFIED, .srcDevice = (CUdeviceptr)(uintptr_t)big,
                        .srcPitch = 64, .dstMemoryType = CU_MEMORYTYPE_UNIFIED, .dstDevice = a + 64,
                        .dstPitch = 64, .WidthInBytes = 64, .Height = N * 4 / 64 };
    FAILS(cuMemcpy2D_v2(&u), CUDA_ERROR_INVALID_VALUE);
    u.Height--;
    OK(cuMemcpy2D_v2(&u));
    OK(cuMemHostRegister_v2(big, 64, 0));           /* the caller's host memory runs on past it */
    OK(cuMemcpy(a, (CUdeviceptr)(uintptr_t)big, sizeof x));
    OK(cuMemHostUnregister(big));
    free(big);
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
    /* the driver's pinned memory is registered already; device memory is no host memory to
     * register (either made a second, overlapping entry of the table) */
    void *pinned;
    OK(cuMemAllocHost_v2(&pinned, 64));
    FAILS(cuMemHostRegister_v2(pinned, 64, 0), CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    OK(cuMemFreeHost(pinned));
    CUdeviceptr dev;
    OK(cuMemAlloc_v2(&dev, 64));
    FAILS(cuMemHostRegister_v2((void *)(uintptr_t)(dev + 16), 16, 0), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree_v2(dev));
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
    /* layer 1 of the source (its rows 2 to 4) to layer 2 at row 1 of a second copy */
    CUdeviceptr p2;
    OK(cuMemAllocPitch_v2(&p2, &pitch, W, H * D, 4));
    OK(cuMemsetD8_v2(p2, 0, pitch * H * D));
    CUDA_MEMCPY3D part = c3;
    part.srcZ = 1;
    part.srcY = 2;
    part.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    part.dstDevice = p2;
    part.dstZ = 2;
    part.dstY = 1;
    part.Height = 3;
    part.Depth = 1;
    OK(cuMemcpy3D_v2(&part));
    for (int y = 0; y < 3; y++) {
        OK(cuMemcpyDtoH_v2(row, p2 + pitch * (1 + y + H * 2), W));
        ck_assert_mem_eq(row, src[1][2 + y], W);
    }
    OK(cuMemcpyDtoH_v2(row, p2 + pitch * (4 + H * 2), W));
    ck_assert_uint_eq(row[0], 0);
    part.Depth = 2;                                                   /* layer 3 of the copy: none */
    FAILS(cuMemcpy3DAsync_v2(&part, NULL), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree_v2(p2));
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
    c2.srcMemoryType = CU_MEMORYTYPE_ARRAY;                           /* no array given */
    FAILS(cuMemcpy2D_v2(&c2), CUDA_ERROR_INVALID_VALUE);
    /* sizes whose product wraps past 2^64 are past the allocation, never a wrapped small span */
    FAILS(cuMemsetD2D8_v2(p, (size_t)1 << 62, 0, 4, 5), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuMemsetD2D32_v2(p, 16, 0, 4, ((size_t)1 << 60) + 1), CUDA_ERROR_INVALID_VALUE);
    c2.srcPitch = (size_t)1 << 62;
    c2.Height = 5;
    FAILS(cuMemcpy2D_v2(&c2), CUDA_ERROR_INVALID_VALUE);
    c2.srcPitch = pitch;
    c2.srcY = (size_t)1 << 62;
    FAILS(cuMemcpy2D_v2(&c2), CUDA_ERROR_INVALID_VALUE);
    c2.srcY = 0;
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
    FAILS(cuModuleGetFunction(&f, NULL, "axpy"), CUDA_ERROR_INVALID_HANDLE);
    FAILS(cuModuleGetGlobal_v2(NULL, NULL, NULL, "x"), CUDA_ERROR_INVALID_VALUE);
    size_t gsize;
    FAILS(cuModuleGetGlobal_v2(NULL, &gsize, NULL, "x"), CUDA_ERROR_INVALID_HANDLE);
    FAILS(cuModuleUnload(NULL), CUDA_ERROR_INVALID_HANDLE);
    FAILS(cuEventRecord(NULL, NULL), CUDA_ERROR_INVALID_HANDLE);
    FAILS(cuEventSynchronize(NULL), CUDA_ERROR_INVALID_HANDLE);
    FAILS(cuStreamDestroy_v2(NULL), CUDA_ERROR_INVALID_HANDLE);
    FAILS(cuLinkDestroy(NULL), CUDA_ERROR_INVALID_HANDLE);
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
    /* a 32-bit parameter before a 64-bit one: 4 bytes of padding between them, as in C */
    static const char mix_ptx[] = HEADER
        ".visible .entry mix(.param .u32 a, .param .u64 p)\n"
        "{\n  .reg .b32 %r1;\n  .reg .b64 %rd1;\n  ld.param.u32 %r1, [a];\n  ld.param.u64 %rd1, [p];\n"
        "  st.global.u32 [%rd1], %r1;\n  ret;\n}\n";
    CUmodule mm;
    CUfunction mix;
    OK(cuModuleLoadData(&mm, mix_ptx));
    OK(cuModuleGetFunction(&mix, mm, "mix"));
    struct {
        uint32_t a;
        uint64_t p;
    } mixed = { 0xfeedf00d, dout };
    size_t mixed_size = sizeof mixed;
    ck_assert_uint_eq(mixed_size, 16);
    void *mixed_extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &mixed, CU_LAUNCH_PARAM_BUFFER_SIZE, &mixed_size,
                            CU_LAUNCH_PARAM_END };
    OK(cuLaunchKernel(mix, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, mixed_extra));
    OK(cuMemcpyDtoH_v2(out, dout, 4));
    ck_assert_uint_eq(out[0], 0xfeedf00d);
    OK(cuModuleUnload(mm));
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
    /* a module of variables alone: no kernel lowers it, so they are placed zeroed */
    static const char only_vars[] = HEADER ".visible .global .align 4 .u32 lonely[3];\n";
    CUmodule m3;
    CUdeviceptr lonely;
    OK(cuModuleLoadData(&m3, only_vars));
    OK(cuModuleGetGlobal_v2(&lonely, &size, m3, "lonely"));
    ck_assert_uint_eq(size, 12);
    OK(cuMemcpyDtoH_v2(u, lonely, 12));
    ck_assert_mem_eq(u, zero, 12);
    OK(cuModuleUnload(m3));
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

/* ---- streams and events ---- */

/* Each thread adds 1 to *p `loops` times (one thread: work that takes a while). */
static const char spin_ptx[] = HEADER
    ".visible .entry spin(.param .u64 p, .param .u32 loops)\n"
    "{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd1;\n  .reg .pred %p;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r1, [loops];\n  ld.global.u32 %r2, [%rd1];\n"
    "LOOP:\n  setp.eq.u32 %p, %r1, 0;\n  @%p bra DONE;\n  add.u32 %r2, %r2, 1;\n  sub.u32 %r1, %r1, 1;\n"
    "  bra LOOP;\nDONE:\n  st.global.u32 [%rd1], %r2;\n  ret;\n}\n";

START_TEST(test_streams_in_order)
{
    CUcontext c = start();
    CUmodule m;
    OK(cuModuleLoadData(&m, spin_ptx));
    CUfunction f;
    OK(cuModuleGetFunction(&f, m, "spin"));
    CUstream s1, s2;
    OK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
    OK(cuStreamCreateWithPriority(&s2, 0, -1));
    unsigned flags;
    OK(cuStreamGetFlags(s1, &flags));
    ck_assert_uint_eq(flags, CU_STREAM_NON_BLOCKING);
    FAILS(cuStreamCreate(&s1, 2), CUDA_ERROR_INVALID_VALUE);
    CUdeviceptr p;
    OK(cuMemAlloc_v2(&p, 4));
    uint32_t v = 100, loops = 1000;
    void *params[] = { &p, &loops };
    /* a copy in, a launch and a copy out queued on one stream: each sees the one before */
    OK(cuMemcpyHtoDAsync_v2(p, &v, 4, s1));
    OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s1, params, NULL));
    OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s2, params, NULL));
    v = 0;
    OK(cuMemcpyDtoHAsync_v2(&v, p, 4, s2));
    OK(cuStreamQuery(s1));
    OK(cuStreamSynchronize(s2));
    ck_assert_uint_eq(v, 100 + 2 * 1000);
    CUevent e;
    OK(cuEventCreate(&e, 0));
    OK(cuEventRecord(e, s1));
    OK(cuStreamWaitEvent(s2, e, 0));
    OK(cuStreamSynchronize(CU_STREAM_LEGACY));
    OK(cuStreamSynchronize(CU_STREAM_PER_THREAD));
    OK(cuEventDestroy_v2(e));
    FAILS(cuStreamWaitEvent(s2, e, 0), CUDA_ERROR_INVALID_HANDLE);
    OK(cuStreamDestroy_v2(s1));
    FAILS(cuStreamDestroy_v2(s1), CUDA_ERROR_INVALID_HANDLE);
    FAILS(cuStreamSynchronize(s1), CUDA_ERROR_INVALID_HANDLE);
    FAILS(cuMemcpyHtoDAsync_v2(p, &v, 4, s1), CUDA_ERROR_INVALID_HANDLE);
    FAILS(cuMemsetD8Async(p, 0, 4, s1), CUDA_ERROR_INVALID_HANDLE);
    OK(cuMemsetD32Async(p, 9, 1, s2));
    OK(cuMemcpyDtoH_v2(&v, p, 4));
    ck_assert_uint_eq(v, 9);
    OK(cuStreamDestroy_v2(s2));
    OK(cuMemFree_v2(p));
    OK(cuModuleUnload(m));
    finish(c);
}
END_TEST

START_TEST(test_events_time_the_work)
{
    CUcontext c = start();
    CUmodule m;
    OK(cuModuleLoadData(&m, spin_ptx));
    CUfunction f;
    OK(cuModuleGetFunction(&f, m, "spin"));
    CUevent a, b, idle, untimed;
    OK(cuEventCreate(&a, CU_EVENT_DEFAULT));
    OK(cuEventCreate(&b, CU_EVENT_BLOCKING_SYNC));
    OK(cuEventCreate(&idle, 0));
    OK(cuEventCreate(&untimed, CU_EVENT_DISABLE_TIMING));
    float ms;
    FAILS(cuEventElapsedTime_v2(&ms, a, b), CUDA_ERROR_INVALID_HANDLE);   /* not recorded yet */
    OK(cuEventQuery(a));                                                  /* nothing to wait for */
    CUdeviceptr p;
    OK(cuMemAlloc_v2(&p, 4));
    uint32_t loops = 200000;
    void *params[] = { &p, &loops };
    OK(cuEventRecord(a, NULL));
    OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
    OK(cuEventRecord(b, NULL));
    OK(cuEventRecord(idle, NULL));
    OK(cuEventSynchronize(b));
    OK(cuEventQuery(b));
    float work, none;
    OK(cuEventElapsedTime_v2(&work, a, b));
    OK(cuEventElapsedTime_v2(&none, b, idle));
    ck_assert_float_gt(work, 0.0f);
    ck_assert_float_ge(none, 0.0f);
    ck_assert_float_gt(work, none);                    /* 200000 iterations took longer than nothing */
    OK(cuEventElapsedTime_v2(&ms, b, a));
    ck_assert_float_lt(ms, 0.0f);                      /* the other way round: negative */
    OK(cuEventRecord(untimed, NULL));
    FAILS(cuEventElapsedTime_v2(&ms, a, untimed), CUDA_ERROR_INVALID_HANDLE);
    FAILS(cuEventElapsedTime_v2(NULL, a, b), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuEventCreate(&a, 0x10), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuEventCreate(&a, CU_EVENT_INTERPROCESS), CUDA_ERROR_INVALID_VALUE);
    OK(cuEventDestroy_v2(untimed));
    FAILS(cuEventRecord(untimed, NULL), CUDA_ERROR_INVALID_HANDLE);
    FAILS(cuEventSynchronize(untimed), CUDA_ERROR_INVALID_HANDLE);
    FAILS(cuEventDestroy_v2(untimed), CUDA_ERROR_INVALID_HANDLE);
    uint32_t v;
    OK(cuMemcpyDtoH_v2(&v, p, 4));
    ck_assert_uint_eq(v, loops);
    OK(cuMemFree_v2(p));
    finish(c);                                         /* the events and the module go with it */
}
END_TEST

/* ---- kernel attributes and occupancy ---- */

static const char attrs_ptx[] = HEADER
    ".const .align 4 .u32 weights[4] = {1, 2, 3, 4};\n"
    ".visible .entry bounded(.param .u64 p) .maxntid 128, 1, 1\n"
    "{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n  .shared .align 4 .b8 sbuf[1000];\n"
    "  .local .align 4 .b8 lbuf[64];\n"
    "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n  st.shared.u32 [sbuf], %r1;\n  st.local.u32 [lbuf], %r1;\n"
    "  ld.local.u32 %r2, [lbuf];\n  ld.const.u32 %r3, [weights+12];\n  add.u32 %r2, %r2, %r3;\n"
    "  st.global.u32 [%rd1], %r2;\n  ret;\n}\n";

/* The occupancy model docs/cuda.md gives, written out again: an H100's SM. */
static int model_blocks(int block, int static_shared, int dynamic, int max_threads)
{
    if (block > max_threads)
        return 0;
    int warps = (block + 31) / 32, most = 32;
    int by_threads = 2048 / (warps * 32), by_regs = 65536 / (warps * 32 * 32);
    int by_shared = (228 * 1024) / (static_shared + dynamic + 1024);
    most = by_threads < most ? by_threads : most;
    most = by_regs < most ? by_regs : most;
    return by_shared < most ? by_shared : most;
}

START_TEST(test_function_attributes)
{
    CUcontext c = start();
    CUmodule m;
    OK(cuModuleLoadData(&m, attrs_ptx));
    CUfunction f;
    OK(cuModuleGetFunction(&f, m, "bounded"));
    int v;
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
    ck_assert_int_eq(v, 128);
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
    ck_assert_int_eq(v, 1000);
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, f));
    ck_assert_int_eq(v, 16);
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f));
    ck_assert_int_ge(v, 64);
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    ck_assert_int_eq(v, 32);
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PTX_VERSION, f));
    ck_assert_int_eq(v, 90);
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_BINARY_VERSION, f));
    ck_assert_int_eq(v, 90);
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
    ck_assert_int_eq(v, 48 * 1024 - 1000);
    for (int a = 0; a <= CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE; a++)
        OK(cuFuncGetAttribute(&v, (CUfunction_attribute)a, f));
    FAILS(cuFuncGetAttribute(&v, (CUfunction_attribute)99, f), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuFuncGetAttribute(NULL, CU_FUNC_ATTRIBUTE_NUM_REGS, f), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, (CUfunction)(uintptr_t)&v), CUDA_ERROR_INVALID_HANDLE);
    const char *name;
    OK(cuFuncGetName(&name, f));
    ck_assert_str_eq(name, "bounded");
    CUdeviceptr p;
    OK(cuMemAlloc_v2(&p, 4));
    void *params[] = { &p };
    FAILS(cuLaunchKernel(f, 1, 1, 1, 129, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuLaunchKernel(f, 1, 1, 1, 128, 1, 1, 48 * 1024 - 999, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
    /* more dynamic .shared once opted in, up to 227 KiB with the static */
    FAILS(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 227 * 1024 - 999),
          CUDA_ERROR_INVALID_VALUE);
    OK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100000));
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
    ck_assert_int_eq(v, 100000);
    OK(cuLaunchKernel(f, 1, 1, 1, 128, 1, 1, 100000, NULL, params, NULL));
    uint32_t got;
    OK(cuMemcpyDtoH_v2(&got, p, 4));
    ck_assert_uint_lt(got - 4, 128);                  /* some thread's tid + weights[3] */
    OK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50));
    FAILS(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 101), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NUM_REGS, 8), CUDA_ERROR_INVALID_VALUE);
    OK(cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_SHARED));
    FAILS(cuFuncSetCacheConfig(f, (CUfunc_cache)9), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree_v2(p));
    finish(c);
}
END_TEST

static size_t shared_400_per_thread(int block)
{
    return (size_t)block * 400;
}

START_TEST(test_occupancy)
{
    CUcontext c = start();
    CUmodule m, b;
    OK(cuModuleLoadData(&m, axpy_ptx));
    OK(cuModuleLoadData(&b, attrs_ptx));
    CUfunction f, g;
    OK(cuModuleGetFunction(&f, m, "axpy"));
    OK(cuModuleGetFunction(&g, b, "bounded"));
    static const int sizes[] = { 1, 32, 33, 64, 96, 128, 256, 500, 512, 1000, 1024 };
    static const int dynamic[] = { 0, 1000, 20000, 50000, 100000 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (size_t j = 0; j < sizeof dynamic / sizeof dynamic[0]; j++) {
            int n;
            OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, sizes[i], (size_t)dynamic[j]));
            ck_assert_int_eq(n, model_blocks(sizes[i], 0, dynamic[j], 1024));
            OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, g, sizes[i], (size_t)dynamic[j]));
            ck_assert_int_eq(n, model_blocks(sizes[i], 1000, dynamic[j], 128));
        }
    int n;
    OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 256, 0));
    ck_assert_int_eq(n, 8);                           /* 2048 threads an SM */
    OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 64, 50000));
    ck_assert_int_eq(n, 4);                           /* 228 KiB over 50000 + 1024 bytes */
    int grid, block;
    OK(cuOccupancyMaxPotentialBlockSize(&grid, &block, f, NULL, 0, 0));
    ck_assert_int_eq(block, 1024);
    ck_assert_int_eq(grid, 2 * 132);
    OK(cuOccupancyMaxPotentialBlockSize(&grid, &block, f, NULL, 0, 200));
    ck_assert_int_eq(block, 128);                     /* 192 and 160 fill 1920 threads of 2048, 128 all */
    ck_assert_int_eq(grid, 16 * 132);
    OK(cuOccupancyMaxPotentialBlockSize(&grid, &block, f, shared_400_per_thread, 0, 0));
    ck_assert_int_eq(block, 576);                     /* 581 threads' 400 bytes each fit the 227 KiB a block */
    ck_assert_int_eq(grid, 132);                      /* may have: one block an SM */
    OK(cuOccupancyMaxPotentialBlockSize(&grid, &block, g, NULL, 0, 0));
    ck_assert_int_eq(block, 128);
    ck_assert_int_eq(grid, 16 * 132);
    FAILS(cuOccupancyMaxPotentialBlockSize(NULL, &block, f, NULL, 0, 0), CUDA_ERROR_INVALID_VALUE);
    finish(c);
}
END_TEST

/* ---- what ptxrun refuses ---- */

static const char two_kernels_ptx[] = HEADER
    ".extern .func (.param .b32 ret) host_side(.param .b32 x);\n"
    ".visible .entry fine(.param .u64 p)\n"
    "{\n  .reg .b64 %rd1;\n  .reg .b32 %r1;\n  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, 77;\n"
    "  st.global.u32 [%rd1], %r1;\n  ret;\n}\n"
    ".visible .entry refused()\n"
    "{\n  .reg .b32 %r<3>;\n  mov.u32 %r1, %laneid;\n"
    "  {\n  .param .b32 x;\n  .param .b32 ret;\n  st.param.b32 [x], %r1;\n  call.uni (ret), host_side, (x);\n"
    "  ld.param.b32 %r2, [ret];\n  }\n  ret;\n}\n";

START_TEST(test_kernel_ptxrun_cannot_execute)
{
    CUcontext c = start();
    CUmodule m;
    OK(cuModuleLoadData(&m, two_kernels_ptx));        /* the module loads: CUDA would compile it */
    CUfunction fine, refused;
    OK(cuModuleGetFunction(&fine, m, "fine"));
    OK(cuModuleGetFunction(&refused, m, "refused"));
    unsigned count;
    OK(cuModuleGetFunctionCount(&count, m));
    ck_assert_uint_eq(count, 2);
    CUfunction all[3] = { NULL, NULL, NULL };
    OK(cuModuleEnumerateFunctions(all, 3, m));
    ck_assert_ptr_eq(all[0], fine);
    ck_assert_ptr_eq(all[1], refused);
    ck_assert_ptr_null(all[2]);
    CUmodule owner;
    OK(cuFuncGetModule(&owner, refused));
    ck_assert_ptr_eq(owner, m);
    ck_assert_ptr_null(strstr(report(), "cannot execute"));   /* said only at its launch */
    FAILS(cuLaunchKernel(refused, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_NOT_SUPPORTED);
    ck_assert_ptr_nonnull(strstr(report(), "in kernel 'refused'"));
    ck_assert_ptr_nonnull(strstr(report(), "cannot execute"));
    int v;
    FAILS(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, refused), CUDA_ERROR_NOT_SUPPORTED);
    OK(cuCtxSynchronize());                           /* not sticky */
    CUdeviceptr p;
    OK(cuMemAlloc_v2(&p, 4));
    void *params[] = { &p };
    OK(cuLaunchKernel(fine, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
    uint32_t got;
    OK(cuMemcpyDtoH_v2(&got, p, 4));
    ck_assert_uint_eq(got, 77);
    finish(c);
}
END_TEST

START_TEST(test_bad_ptx)
{
    CUcontext c = start();
    static const char bad[] = HEADER ".visible .entry k()\n{\n  mov.u32 %r1, 1;\n  ret;\n}\n";   /* %r1 undeclared */
    CUmodule m;
    FAILS(cuModuleLoadData(&m, bad), CUDA_ERROR_INVALID_PTX);
    ck_assert_ptr_nonnull(strstr(report(), "error:"));
    char log[4096] = "untouched", info[64] = "untouched";
    CUjit_option options[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER,
                               CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES };
    void *values[] = { log, (void *)(uintptr_t)sizeof log, info, (void *)(uintptr_t)sizeof info };
    FAILS(cuModuleLoadDataEx(&m, bad, 4, options, values), CUDA_ERROR_INVALID_PTX);
    ck_assert_ptr_nonnull(strstr(log, "%r1"));
    ck_assert_uint_eq((uintptr_t)values[1], strlen(log) + 1);
    ck_assert_str_eq(info, "");
    FAILS(cuModuleLoadData(&m, NULL), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuModuleLoadData(NULL, axpy_ptx), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuModuleLoad(&m, "/nonexistent/module.ptx"), CUDA_ERROR_FILE_NOT_FOUND);
    finish(c);
}
END_TEST

/* ---- fatbinaries, files, links ---- */

static uint8_t *read_whole(const char *name, size_t *size)
{
    const char *root = getenv("PTXRUN_ROOT");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root ? root : ".", name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    static uint8_t data[1 << 20];
    *size = fread(data, 1, sizeof data, f);
    fclose(f);
    return data;
}

/* scale(float *x, float a, int n): x[i] *= a (tests/fatbin/scale.cu, built for sm_80). */
static void run_scale(CUmodule m)
{
    CUfunction f;
    OK(cuModuleGetFunction(&f, m, "_Z5scalePffi"));
    float x[16], want[16];
    for (int i = 0; i < 16; i++) {
        x[i] = (float)i * 0.75f - 3.0f;
        want[i] = x[i] * 2.5f;
    }
    CUdeviceptr d;
    OK(cuMemAlloc_v2(&d, sizeof x));
    OK(cuMemcpyHtoD_v2(d, x, sizeof x));
    float a = 2.5f;
    int n = 16;
    void *params[] = { &d, &a, &n };
    OK(cuLaunchKernel(f, 1, 1, 1, 16, 1, 1, 0, NULL, params, NULL));
    OK(cuMemcpyDtoH_v2(x, d, sizeof x));
    ck_assert_mem_eq(x, want, sizeof x);
    OK(cuMemFree_v2(d));
}

START_TEST(test_fatbinary)
{
    CUcontext c = start();
    size_t size;
    const uint8_t *section = read_whole("tests/fatbin/sm80.fatbin", &size);
    /* nvlink's fatbinary comes first: only an sm_80 cubin, no PTX */
    CUmodule m;
    FAILS(cuModuleLoadData(&m, section), CUDA_ERROR_NO_BINARY_FOR_GPU);
    ck_assert_ptr_nonnull(strstr(report(), "PTX only"));
    ck_assert_ptr_nonnull(strstr(report(), "compute_90"));
    uint64_t first;
    memcpy(&first, section + 8, 8);
    const uint8_t *second = section + ((16 + first + 7) & ~(uint64_t)7);
    OK(cuModuleLoadData(&m, second));                 /* compute_80 PTX, zstd-compressed, for sm_90 */
    run_scale(m);
    OK(cuModuleUnload(m));
    OK(cuModuleLoadFatBinary(&m, second));
    OK(cuModuleUnload(m));
    struct {
        uint32_t magic, version;
        const void *fatbin;
        const void *other;
    } wrapper = { 0x466243b1, 1, second, NULL };
    OK(cuModuleLoadData(&m, &wrapper));
    run_scale(m);
    OK(cuModuleUnload(m));
    const uint8_t *elf = read_whole("tests/fatbin/sm80.elf", &size);
    FAILS(cuModuleLoadData(&m, elf), CUDA_ERROR_NO_BINARY_FOR_GPU);
    finish(c);
}
END_TEST

START_TEST(test_fatbinary_arch_below)
{
    setenv("PTXRUN_ARCH", "sm_75", 1);                /* compute_80's PTX does not fit a 7.5 device */
    CUcontext c = start();
    size_t size;
    const uint8_t *section = read_whole("tests/fatbin/sm80.fatbin", &size);
    uint64_t first;
    memcpy(&first, section + 8, 8);
    CUmodule m;
    FAILS(cuModuleLoadData(&m, section + ((16 + first + 7) & ~(uint64_t)7)), CUDA_ERROR_NO_BINARY_FOR_GPU);
    finish(c);
}
END_TEST

START_TEST(test_module_file_and_link)
{
    CUcontext c = start();
    char path[64];
    snprintf(path, sizeof path, "/tmp/check_cudrv.%d.ptx", (int)getpid());
    FILE *f = fopen(path, "w");
    fputs(axpy_ptx, f);
    fclose(f);
    CUmodule m;
    OK(cuModuleLoad(&m, path));
    CUfunction fn;
    OK(cuModuleGetFunction(&fn, m, "axpy"));
    OK(cuModuleUnload(m));
    CUlinkState link;
    OK(cuLinkCreate_v2(0, NULL, NULL, &link));
    void *image;
    size_t size;
    FAILS(cuLinkComplete(link, &image, &size), CUDA_ERROR_INVALID_IMAGE);    /* nothing added */
    OK(cuLinkAddFile_v2(link, CU_JIT_INPUT_PTX, path, 0, NULL, NULL));
    FAILS(cuLinkAddData_v2(link, CU_JIT_INPUT_PTX, (void *)spin_ptx, sizeof spin_ptx, "spin", 0, NULL, NULL),
          CUDA_ERROR_NOT_SUPPORTED);
    ck_assert_ptr_nonnull(strstr(report(), "one PTX module"));
    FAILS(cuLinkAddData_v2(link, CU_JIT_INPUT_LIBRARY, (void *)spin_ptx, 8, "libcudadevrt.a", 0, NULL, NULL),
          CUDA_ERROR_NOT_SUPPORTED);
    OK(cuLinkComplete(link, &image, &size));
    ck_assert_uint_eq(size, strlen(axpy_ptx) + 1);
    OK(cuModuleLoadData(&m, image));
    OK(cuModuleGetFunction(&fn, m, "axpy"));
    OK(cuLinkDestroy(link));
    FAILS(cuLinkDestroy(link), CUDA_ERROR_INVALID_HANDLE);
    OK(cuLinkCreate_v2(0, NULL, NULL, &link));
    OK(cuLinkAddData_v2(link, CU_JIT_INPUT_PTX, (void *)spin_ptx, sizeof spin_ptx, "spin", 0, NULL, NULL));
    OK(cuLinkComplete(link, &image, &size));
    CUmodule m2;
    OK(cuModuleLoadData(&m2, image));
    OK(cuModuleGetFunction(&fn, m2, "spin"));
    OK(cuLinkDestroy(link));
    unlink(path);
    finish(c);
}
END_TEST

/* ---- what a launch says ---- */

static const char print_ptx[] = HEADER
    ".extern .func (.param .b32 r) vprintf(.param .b64 fmt, .param .b64 args);\n"
    ".global .align 1 .b8 fmt[12] = {116, 104, 114, 101, 97, 100, 32, 37, 100, 10, 0, 0};\n"   /* "thread %d\n" */
    ".visible .entry hello()\n"
    "{\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<4>;\n  .local .align 8 .b8 buf[8];\n"
    "  mov.u32 %r1, %tid.x;\n  st.local.u32 [buf], %r1;\n  mov.u64 %rd1, fmt;\n  cvta.global.u64 %rd2, %rd1;\n"
    "  mov.u64 %rd3, buf;\n  cvta.local.u64 %rd3, %rd3;\n"
    "  {\n  .param .b64 p0;\n  .param .b64 p1;\n  .param .b32 r;\n  st.param.b64 [p0], %rd2;\n  st.param.b64 [p1], %rd3;\n"
    "  call.uni (r), vprintf, (p0, p1);\n  ld.param.b32 %r2, [r];\n  }\n  ret;\n}\n";

START_TEST(test_printf_to_stdout)
{
    char out_path[64];
    snprintf(out_path, sizeof out_path, "/tmp/check_cudrv.%d.out", (int)getpid());
    fflush(stdout);
    FILE *f = freopen(out_path, "w", stdout);
    ck_assert_ptr_nonnull(f);
    CUcontext c = start();
    CUmodule m;
    OK(cuModuleLoadData(&m, print_ptx));
    CUfunction fn;
    OK(cuModuleGetFunction(&fn, m, "hello"));
    printf("before\n");
    OK(cuLaunchKernel(fn, 1, 1, 1, 3, 1, 1, 0, NULL, NULL, NULL));
    OK(cuCtxSynchronize());
    printf("after\n");
    fflush(stdout);
    finish(c);
    FILE *in = fopen(out_path, "r");
    char text[256] = "";
    size_t n = fread(text, 1, sizeof text - 1, in);
    text[n] = '\0';
    fclose(in);
    unlink(out_path);
    ck_assert_str_eq(text, "before\nthread 0\nthread 1\nthread 2\nafter\n");
}
END_TEST

START_TEST(test_trace_file)
{
    char trace_path[64];
    snprintf(trace_path, sizeof trace_path, "/tmp/check_cudrv.%d.trace", (int)getpid());
    unlink(trace_path);
    setenv("PTXRUN_TRACE", trace_path, 1);
    CUcontext c = start();
    CUmodule m;
    OK(cuModuleLoadData(&m, store_ptx));
    CUfunction fn;
    OK(cuModuleGetFunction(&fn, m, "store"));
    CUdeviceptr p;
    OK(cuMemAlloc_v2(&p, 4));
    void *params[] = { &p };
    OK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
    OK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
    finish(c);
    FILE *in = fopen(trace_path, "r");
    ck_assert_ptr_nonnull(in);
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, in);
    text[n] = '\0';
    fclose(in);
    unlink(trace_path);
    char *first = strstr(text, "st.global.u32");
    ck_assert_ptr_nonnull(first);
    ck_assert_ptr_nonnull(strstr(first + 1, "st.global.u32"));   /* both launches, appended */
}
END_TEST

/* Branches on a register never written: undefined. */
static const char undefined_ptx[] = HEADER
    ".visible .entry leak(.param .u64 p)\n"
    "{\n  .reg .b64 %rd1;\n  .reg .b32 %r<3>;\n  .reg .pred %p1;\n  ld.param.u64 %rd1, [p];\n  add.u32 %r2, %r1, 1;\n"
    "  setp.eq.u32 %p1, %r2, 3;\n  @%p1 bra SKIP;\n  st.global.u32 [%rd1], %r2;\nSKIP:\n  ret;\n}\n";

static CUresult run_undefined(void)
{
    CUmodule m;
    OK(cuModuleLoadData(&m, undefined_ptx));
    CUfunction fn;
    OK(cuModuleGetFunction(&fn, m, "leak"));
    CUdeviceptr p;
    OK(cuMemAlloc_v2(&p, 4));
    void *params[] = { &p };
    OK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
    return cuCtxSynchronize();
}

START_TEST(test_undefined_warns)
{
    CUcontext c = start();
    OK(run_undefined());
    ck_assert_ptr_nonnull(strstr(report(), "warning:"));
    finish(c);
}
END_TEST

START_TEST(test_undefined_strict)
{
    setenv("PTXRUN_STRICT", "1", 1);
    CUcontext c = start();
    FAILS(run_undefined(), CUDA_ERROR_LAUNCH_FAILED);
    finish(c);
}
END_TEST

static const char assert_ptx[] = HEADER
    ".extern .func __assertfail(.param .b64 p0, .param .b64 p1, .param .b32 p2, .param .b64 p3, .param .b64 p4);\n"
    ".global .align 1 .b8 what[2] = {120, 0};\n"
    ".visible .entry checks()\n"
    "{\n  .reg .b64 %rd<3>;\n  .reg .b32 %r1;\n  mov.u64 %rd1, what;\n  cvta.global.u64 %rd2, %rd1;\n  mov.u32 %r1, 12;\n"
    "  {\n  .param .b64 p0;\n  .param .b64 p1;\n  .param .b32 p2;\n  .param .b64 p3;\n  .param .b64 p4;\n"
    "  st.param.b64 [p0], %rd2;\n  st.param.b64 [p1], %rd2;\n  st.param.b32 [p2], %r1;\n  st.param.b64 [p3], %rd2;\n"
    "  st.param.b64 [p4], 1;\n  call.uni __assertfail, (p0, p1, p2, p3, p4);\n  }\n  ret;\n}\n";

START_TEST(test_assert)
{
    ck_assert_ptr_nonnull(freopen("/dev/null", "w", stderr));     /* the assertion's message goes there */
    CUcontext c = start();
    CUmodule m;
    OK(cuModuleLoadData(&m, assert_ptx));
    CUfunction fn;
    OK(cuModuleGetFunction(&fn, m, "checks"));
    OK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
    FAILS(cuCtxSynchronize(), CUDA_ERROR_ASSERT);
    finish(c);
}
END_TEST

/* Another module's variable, and registered host memory, are buffers of every launch. */
START_TEST(test_every_allocation_reachable)
{
    CUcontext c = start();
    CUmodule vars;
    OK(cuModuleLoadData(&vars, vars_ptx));
    CUdeviceptr counter;
    OK(cuModuleGetGlobal_v2(&counter, NULL, vars, "counter"));
    launch_store("store", counter, 1);
    OK(cuCtxSynchronize());
    uint32_t v;
    OK(cuMemcpyDtoH_v2(&v, counter, 4));
    ck_assert_uint_eq(v, 5);
    static uint32_t mine[4];
    OK(cuMemHostRegister_v2(mine, sizeof mine, 0));
    launch_store("store", (uintptr_t)&mine[2], 1);
    OK(cuCtxSynchronize());
    ck_assert_uint_eq(mine[2], 5);
    OK(cuMemHostUnregister(mine));
    static uint32_t frozen[4];
    OK(cuMemHostRegister_v2(frozen, sizeof frozen, CU_MEMHOSTREGISTER_READ_ONLY));
    launch_store("store", (uintptr_t)&frozen[1], 1);
    FAILS(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    ck_assert_uint_eq(frozen[1], 0);
    finish(c);
}
END_TEST

START_TEST(test_jobs_same_result)
{
    setenv("PTXRUN_JOBS", "4", 1);
    CUcontext c = start();
    CUmodule m;
    OK(cuModuleLoadData(&m, axpy_ptx));
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
    uint32_t a = 12345, n = N;
    void *params[] = { &dout, &dx, &dy, &a, &n };
    OK(cuLaunchKernel(f, (N + 31) / 32, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
    OK(cuMemcpyDtoH_v2(out, dout, sizeof out));
    axpy_expect(want, x, y, a);
    ck_assert_mem_eq(out, want, sizeof out);
    finish(c);
}
END_TEST

/* ---- managed memory's hints, host functions on streams, per-thread names ---- */

static void count_call(void *data)
{
    ++*(int *)data;
}

static void stream_callback(CUstream stream, CUresult status, void *data)
{
    (void)stream;
    *(CUresult *)data = status;
}

START_TEST(test_stream_host_work)
{
    CUcontext c = start();
    int least = 9, greatest = 9;
    OK(cuCtxGetStreamPriorityRange(&least, &greatest));
    ck_assert_int_eq(least, 0);
    ck_assert_int_eq(greatest, -5);
    CUstream s;
    OK(cuStreamCreateWithPriority(&s, 0, -3));
    int priority;
    OK(cuStreamGetPriority(s, &priority));
    ck_assert_int_eq(priority, -3);
    CUcontext owner;
    OK(cuStreamGetCtx(s, &owner));
    ck_assert_ptr_eq(owner, c);
    int calls = 0;
    OK(cuLaunchHostFunc(s, count_call, &calls));
    ck_assert_int_eq(calls, 1);                          /* done when the call returns */
    FAILS(cuLaunchHostFunc(s, NULL, &calls), CUDA_ERROR_INVALID_VALUE);
    CUresult seen = CUDA_ERROR_UNKNOWN;
    OK(cuStreamAddCallback(s, stream_callback, &seen, 0));
    ck_assert_int_eq(seen, CUDA_SUCCESS);
    FAILS(cuStreamAddCallback(s, stream_callback, &seen, 1), CUDA_ERROR_INVALID_VALUE);
    /* after a fault the callback is told the error */
    CUdeviceptr p;
    OK(cuMemAlloc_v2(&p, 4));
    launch_store("store", p + 4, 1);
    OK(cuStreamAddCallback(s, stream_callback, &seen, 0));
    ck_assert_int_eq(seen, CUDA_ERROR_ILLEGAL_ADDRESS);
    FAILS(cuLaunchHostFunc(s, count_call, &calls), CUDA_ERROR_ILLEGAL_ADDRESS);
    ck_assert_int_eq(calls, 1);
    finish(c);
}
END_TEST

START_TEST(test_managed_hints)
{
    CUcontext c = start();
    CUdeviceptr m, d;
    OK(cuMemAllocManaged(&m, 4096, CU_MEM_ATTACH_GLOBAL));
    OK(cuMemAlloc_v2(&d, 4096));
    CUmemLocation dev = { CU_MEM_LOCATION_TYPE_DEVICE, 0 }, host = { CU_MEM_LOCATION_TYPE_HOST, 0 };
    CUmemLocation other = { CU_MEM_LOCATION_TYPE_DEVICE, 1 };
    OK(cuMemPrefetchAsync_v2(m, 4096, dev, 0, NULL));
    OK(cuMemPrefetchAsync_v2(m + 1024, 1024, host, 0, NULL));
    FAILS(cuMemPrefetchAsync_v2(m, 4097, dev, 0, NULL), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuMemPrefetchAsync_v2(d, 4096, dev, 0, NULL), CUDA_ERROR_INVALID_VALUE);     /* not managed */
    FAILS(cuMemPrefetchAsync_v2(m, 4096, other, 0, NULL), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuMemPrefetchAsync_v2(m, 4096, dev, 0, (CUstream)(uintptr_t)0x99), CUDA_ERROR_INVALID_HANDLE);
    OK(cuMemAdvise_v2(m, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, dev));
    OK(cuMemAdvise_v2(m, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, host));
    FAILS(cuMemAdvise_v2(m, 4096, (CUmem_advise)7, dev), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuMemAdvise_v2(d, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, dev), CUDA_ERROR_INVALID_VALUE);
    /* a __managed__ variable (.attribute(.managed)) is managed memory too */
    static const char managed_ptx[] = HEADER ".visible .global .attribute(.managed) .align 4 .u32 shared_count;\n";
    CUmodule mod;
    CUdeviceptr var;
    OK(cuModuleLoadData(&mod, managed_ptx));
    OK(cuModuleGetGlobal_v2(&var, NULL, mod, "shared_count"));
    int managed = 0;
    OK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, var));
    ck_assert_int_eq(managed, 1);
    OK(cuMemPrefetchAsync_v2(var, 4, dev, 0, NULL));
    finish(c);
}
END_TEST

/* The per-thread default stream's names (nvcc --default-stream per-thread). */
CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX,
                             unsigned blockY, unsigned blockZ, unsigned shared_bytes, CUstream stream, void **params,
                             void **extra);
CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dst, const void *src, size_t bytes);
CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dst, CUdeviceptr src, size_t bytes, CUstream stream);
CUresult cuStreamSynchronize_ptsz(CUstream stream);

START_TEST(test_per_thread_names)
{
    CUcontext c = start();
    CUmodule m;
    OK(cuModuleLoadData(&m, axpy_ptx));
    CUfunction f;
    OK(cuModuleGetFunction(&f, m, "axpy"));
    uint32_t x[N], y[N], out[N], want[N];
    fill(x, y);
    CUdeviceptr dx, dy, dout;
    OK(cuMemAlloc_v2(&dx, sizeof x));
    OK(cuMemAlloc_v2(&dy, sizeof y));
    OK(cuMemAlloc_v2(&dout, sizeof out));
    OK(cuMemcpyHtoD_v2_ptds(dx, x, sizeof x));
    OK(cuMemcpyHtoD_v2_ptds(dy, y, sizeof y));
    uint32_t a = 31, n = N;
    void *params[] = { &dout, &dx, &dy, &a, &n };
    OK(cuLaunchKernel_ptsz(f, (N + BLOCK - 1) / BLOCK, 1, 1, BLOCK, 1, 1, 0, CU_STREAM_PER_THREAD, params, NULL));
    OK(cuMemcpyDtoHAsync_v2_ptsz(out, dout, sizeof out, CU_STREAM_PER_THREAD));
    OK(cuStreamSynchronize_ptsz(CU_STREAM_PER_THREAD));
    axpy_expect(want, x, y, a);
    ck_assert_mem_eq(out, want, sizeof out);
    finish(c);
}
END_TEST

/* ---- limits, targets, threads ---- */

/* A recursive .func of depth levels, each with 256 bytes of .local: the stack a thread needs grows
 * with it. */
static const char deep_ptx[] = HEADER
    ".func (.param .b32 r) down(.param .b32 n)\n"
    "{\n  .local .align 4 .b8 frame[256];\n  .reg .b32 %r<4>;\n  .reg .pred %p;\n  ld.param.b32 %r1, [n];\n"
    "  st.local.u32 [frame], %r1;\n  setp.eq.u32 %p, %r1, 0;\n  @%p bra BOTTOM;\n  sub.u32 %r2, %r1, 1;\n"
    "  {\n  .param .b32 a;\n  .param .b32 b;\n  st.param.b32 [a], %r2;\n  call (b), down, (a);\n  ld.param.b32 %r3, [b];\n  }\n"
    "  ld.local.u32 %r1, [frame];\n  add.u32 %r1, %r1, %r3;\n"
    "BOTTOM:\n  st.param.b32 [r], %r1;\n  ret;\n}\n"
    ".visible .entry deep(.param .u64 p, .param .u32 n)\n"
    "{\n  .reg .b32 %r<3>;\n  .reg .b64 %rd1;\n  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r1, [n];\n"
    "  {\n  .param .b32 a;\n  .param .b32 b;\n  st.param.b32 [a], %r1;\n  call (b), down, (a);\n  ld.param.b32 %r2, [b];\n  }\n"
    "  st.global.u32 [%rd1], %r2;\n  ret;\n}\n";

/* Runs deep(n) in a module loaded now; the launch's error at the next synchronisation. */
static CUresult run_deep(uint32_t n, uint32_t *sum)
{
    CUmodule m;
    OK(cuModuleLoadData(&m, deep_ptx));
    CUfunction f;
    OK(cuModuleGetFunction(&f, m, "deep"));
    CUdeviceptr p;
    OK(cuMemAlloc_v2(&p, 4));
    void *params[] = { &p, &n };
    OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
    CUresult r = cuCtxSynchronize();
    if (r == CUDA_SUCCESS)
        OK(cuMemcpyDtoH_v2(sum, p, 4));
    return r;
}

START_TEST(test_limits)
{
    CUcontext c = start();
    size_t v;
    OK(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
    ck_assert_uint_eq(v, 1024);
    OK(cuCtxGetLimit(&v, CU_LIMIT_PRINTF_FIFO_SIZE));
    OK(cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE));
    FAILS(cuCtxGetLimit(&v, CU_LIMIT_PERSISTING_L2_CACHE_SIZE), CUDA_ERROR_UNSUPPORTED_LIMIT);
    FAILS(cuCtxGetLimit(NULL, CU_LIMIT_STACK_SIZE), CUDA_ERROR_INVALID_VALUE);
    OK(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 4 << 20));
    OK(cuCtxGetLimit(&v, CU_LIMIT_PRINTF_FIFO_SIZE));
    ck_assert_uint_eq(v, 4 << 20);
    FAILS(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 0), CUDA_ERROR_INVALID_VALUE);
    /* 20 levels of 256 bytes do not fit 1 KiB of stack; they fit 16 KiB */
    uint32_t sum = 0;
    FAILS(run_deep(20, &sum), CUDA_ERROR_LAUNCH_FAILED);
    finish(c);
    c = start();
    OK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 16 << 10));
    OK(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
    ck_assert_uint_eq(v, 16 << 10);
    OK(run_deep(20, &sum));
    ck_assert_uint_eq(sum, 20 * 21 / 2);
    finish(c);
}
END_TEST

START_TEST(test_target_above_device)
{
    setenv("PTXRUN_ARCH", "sm_80", 1);
    CUcontext c = start();
    CUmodule m;
    FAILS(cuModuleLoadData(&m, axpy_ptx), CUDA_ERROR_INVALID_PTX);     /* .target sm_90 on an 8.0 device */
    ck_assert_ptr_nonnull(strstr(report(), "sm_90"));
    static const char sm80[] = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n  ret;\n}\n";
    OK(cuModuleLoadData(&m, sm80));
    finish(c);
}
END_TEST

/* Threads launching at once in one context, each on its own memory. */
typedef struct Worker {
    CUcontext ctx;
    CUfunction f;
    uint32_t a;
    int ok;
} Worker;

static void *work(void *arg)
{
    Worker *w = arg;
    uint32_t x[N], y[N], out[N], want[N];
    fill(x, y);
    CUdeviceptr dx, dy, dout;
    w->ok = cuCtxSetCurrent(w->ctx) == CUDA_SUCCESS && cuMemAlloc_v2(&dx, sizeof x) == CUDA_SUCCESS
            && cuMemAlloc_v2(&dy, sizeof y) == CUDA_SUCCESS && cuMemAlloc_v2(&dout, sizeof out) == CUDA_SUCCESS
            && cuMemcpyHtoD_v2(dx, x, sizeof x) == CUDA_SUCCESS && cuMemcpyHtoD_v2(dy, y, sizeof y) == CUDA_SUCCESS;
    for (int round = 0; w->ok && round < 5; round++) {
        uint32_t n = N;
        void *params[] = { &dout, &dx, &dy, &w->a, &n };
        w->ok = cuLaunchKernel(w->f, (N + BLOCK - 1) / BLOCK, 1, 1, BLOCK, 1, 1, 0, NULL, params, NULL) == CUDA_SUCCESS
                && cuMemcpyDtoH_v2(out, dout, sizeof out) == CUDA_SUCCESS;
        axpy_expect(want, x, y, w->a);
        w->ok = w->ok && !memcmp(out, want, sizeof out);
    }
    w->ok = w->ok && cuMemFree_v2(dx) == CUDA_SUCCESS && cuMemFree_v2(dy) == CUDA_SUCCESS
            && cuMemFree_v2(dout) == CUDA_SUCCESS;
    return NULL;
}

START_TEST(test_threads)
{
    CUcontext c = start();
    CUmodule m;
    OK(cuModuleLoadData(&m, axpy_ptx));
    CUfunction f;
    OK(cuModuleGetFunction(&f, m, "axpy"));
    enum { THREADS = 4 };
    pthread_t t[THREADS];
    Worker w[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (Worker){ c, f, 1000u + (uint32_t)i, 0 };
        ck_assert_int_eq(pthread_create(&t[i], NULL, work, &w[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        ck_assert_msg(w[i].ok, "thread %d", i);
    }
    CUcontext cur;
    OK(cuCtxGetCurrent(&cur));                          /* each thread has its own current context */
    ck_assert_ptr_eq(cur, c);
    finish(c);
}
END_TEST

/* A launch that says it started (a store to mapped host memory), then runs a while; and one
 * that decides on a word (undefined: a fault under PTXRUN_STRICT). */
static const char started_ptx[] = HEADER
    ".visible .entry started_spin(.param .u64 flag, .param .u32 n)\n"
    "{\n  .reg .b64 %rd1;\n  .reg .b32 %r<3>;\n  .reg .pred %p1;\n  ld.param.u64 %rd1, [flag];\n"
    "  ld.param.u32 %r1, [n];\n  mov.u32 %r2, 1;\n  st.volatile.global.u32 [%rd1], %r2;\n"
    "LOOP:\n  sub.u32 %r1, %r1, 1;\n  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra LOOP;\n  ret;\n}\n"
    ".visible .entry decide(.param .u64 p)\n"
    "{\n  .reg .b64 %rd1;\n  .reg .b32 %r1;\n  .reg .pred %p1;\n  ld.param.u64 %rd1, [p];\n"
    "  ld.global.u32 %r1, [%rd1];\n  setp.eq.u32 %p1, %r1, 7;\n  @%p1 bra DONE;\n  st.global.u32 [%rd1], %r1;\n"
    "DONE:\n  ret;\n}\n";

typedef struct Spinner {
    CUcontext ctx;
    CUfunction f;
    CUdeviceptr flag;
    CUresult r;
} Spinner;

static void *started_launch(void *arg)
{
    Spinner *w = arg;
    uint32_t n = 1000000;
    void *params[] = { &w->flag, &n };
    w->r = cuCtxSetCurrent(w->ctx);
    if (w->r == CUDA_SUCCESS)
        w->r = cuLaunchKernel(w->f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL);
    return NULL;
}

/* A copy made by another thread while a launch runs stays made: the launch, which gives every
 * allocation's definedness to the run and takes it back, must not write back what it saw at its
 * start (it did: the word copied read as undefined, LAUNCH_FAILED under PTXRUN_STRICT; and a
 * free in between had its shadow written after the free). */
START_TEST(test_threads_copy_during_launch)
{
    setenv("PTXRUN_STRICT", "1", 1);
    CUcontext c = start();
    CUmodule m;
    OK(cuModuleLoadData(&m, started_ptx));
    Spinner w = { c, NULL, 0, CUDA_ERROR_UNKNOWN };
    OK(cuModuleGetFunction(&w.f, m, "started_spin"));
    CUfunction decide;
    OK(cuModuleGetFunction(&decide, m, "decide"));
    volatile uint32_t *flag;
    OK(cuMemHostAlloc((void **)&flag, 4, CU_MEMHOSTALLOC_DEVICEMAP));
    *flag = 0;
    w.flag = (CUdeviceptr)(uintptr_t)flag;
    CUdeviceptr d;
    OK(cuMemAlloc_v2(&d, 8));                                         /* undefined */
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, started_launch, &w), 0);
    while (!*flag)
        ;
    uint32_t seven = 7;
    OK(cuMemcpyHtoD_v2(d, &seven, 4));                                /* its first word only */
    pthread_join(t, NULL);
    OK(w.r);
    void *params[] = { &d };
    OK(cuLaunchKernel(decide, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
    OK(cuCtxSynchronize());
    OK(cuMemFreeHost((void *)flag));
    finish(c);
}
END_TEST

START_TEST(test_launch_ex)
{
    CUcontext c = start();
    CUmodule m;
    OK(cuModuleLoadData(&m, axpy_ptx));
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
    uint32_t a = 99, n = N;
    void *params[] = { &dout, &dx, &dy, &a, &n };
    CUevent done, before;
    OK(cuEventCreate(&done, 0));
    OK(cuEventCreate(&before, 0));
    CUlaunchAttribute attrs[4];
    memset(attrs, 0, sizeof attrs);
    attrs[0].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
    attrs[0].value.priority = -2;
    attrs[1].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attrs[1].value.clusterDim.x = attrs[1].value.clusterDim.y = attrs[1].value.clusterDim.z = 1;
    attrs[2].id = CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT;
    attrs[2].value.launchCompletionEvent.event = done;
    attrs[3].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    attrs[3].value.cooperative = 0;
    CUlaunchConfig config = { (N + BLOCK - 1) / BLOCK, 1, 1, BLOCK, 1, 1, 0, NULL, attrs, 4 };
    ck_assert_uint_eq(sizeof(CUlaunchAttribute), 72);
    OK(cuEventRecord(before, NULL));
    OK(cuLaunchKernelEx(&config, f, params, NULL));
    OK(cuMemcpyDtoH_v2(out, dout, sizeof out));
    axpy_expect(want, x, y, a);
    ck_assert_mem_eq(out, want, sizeof out);
    float ms;
    OK(cuEventElapsedTime_v2(&ms, before, done));      /* the completion event was recorded */
    ck_assert_float_ge(ms, 0.0f);
    /* A cooperative launch runs (issue 37); one larger than the device keeps resident at once is
     * refused as CUDA refuses it: 256 threads a block, 8 blocks a multiprocessor (2,048 threads),
     * 132 multiprocessors: 1,056 blocks at most. */
    attrs[3].value.cooperative = 1;
    memset(out, 0, sizeof out);
    OK(cuMemcpyHtoD_v2(dout, out, sizeof out));
    OK(cuLaunchKernelEx(&config, f, params, NULL));
    OK(cuMemcpyDtoH_v2(out, dout, sizeof out));
    ck_assert_mem_eq(out, want, sizeof out);
    int per_sm;
    OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, 256, 0));
    ck_assert_int_eq(per_sm, 8);
    config.blockDimX = 256;
    config.gridDimX = 132 * 8 + 1;
    FAILS(cuLaunchKernelEx(&config, f, params, NULL), CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
    FAILS(cuLaunchCooperativeKernel(f, 132 * 8 + 1, 1, 1, 256, 1, 1, 0, NULL, params),
          CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
    OK(cuLaunchCooperativeKernel(f, (N + BLOCK - 1) / BLOCK, 1, 1, BLOCK, 1, 1, 0, NULL, params));
    int can;
    OK(cuDeviceGetAttribute(&can, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, 0));
    ck_assert_int_eq(can, 1);
    OK(cuDeviceGetAttribute(&can, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH, 0));
    ck_assert_int_eq(can, 1);                  /* an H100's: clusters run */
    config.blockDimX = BLOCK;
    config.gridDimX = (N + BLOCK - 1) / BLOCK;
    attrs[3].value.cooperative = 0;
    attrs[1].value.clusterDim.x = 2;
    OK(cuLaunchKernelEx(&config, f, params, NULL));            /* 8 CTAs in clusters of 2 */
    attrs[1].value.clusterDim.x = 3;
    FAILS(cuLaunchKernelEx(&config, f, params, NULL), CUDA_ERROR_INVALID_VALUE);   /* 8 is no whole number of 3s */
    attrs[1].value.clusterDim.x = 1;
    attrs[0].id = (CUlaunchAttributeID)99;
    FAILS(cuLaunchKernelEx(&config, f, params, NULL), CUDA_ERROR_INVALID_VALUE);
    attrs[0].id = CU_LAUNCH_ATTRIBUTE_IGNORE;
    OK(cuEventDestroy_v2(done));
    FAILS(cuLaunchKernelEx(&config, f, params, NULL), CUDA_ERROR_INVALID_HANDLE);
    config.numAttrs = 0;
    config.blockDimX = 0;
    FAILS(cuLaunchKernelEx(&config, f, params, NULL), CUDA_ERROR_INVALID_VALUE);
    FAILS(cuLaunchKernelEx(NULL, f, params, NULL), CUDA_ERROR_INVALID_VALUE);
    OK(cuCtxSynchronize());
    finish(c);
}
END_TEST

/* ---- the definedness of device memory ---- */

static const char definedness_ptx[] = HEADER
    ".visible .entry branchy(.param .u64 p)\n"          /* decides on p[0]: a warning when undefined */
    "{\n  .reg .b64 %rd1;\n  .reg .b32 %r1;\n  .reg .pred %p1;\n  ld.param.u64 %rd1, [p];\n"
    "  ld.global.u32 %r1, [%rd1];\n  setp.eq.u32 %p1, %r1, 7;\n  @%p1 bra DONE;\nDONE:\n  ret;\n}\n"
    ".visible .entry spoil(.param .u64 p)\n"            /* stores a register never written into p[0] */
    "{\n  .reg .b64 %rd1;\n  .reg .b32 %r<2>;\n  ld.param.u64 %rd1, [p];\n  st.global.u32 [%rd1], %r1;\n"
    "  ret;\n}\n";

/* Launches kernel name of the module on p; whether the report stream got a new warning. */
static bool warns(CUmodule m, const char *name, CUdeviceptr p)
{
    CUfunction f;
    OK(cuModuleGetFunction(&f, m, name));
    size_t before = strlen(report());
    void *params[] = { &p };
    OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
    OK(cuCtxSynchronize());
    return strstr(report() + before, "warning:") != NULL;
}

START_TEST(test_device_memory_starts_undefined)
{
    CUcontext c = start();
    CUmodule m;
    OK(cuModuleLoadData(&m, definedness_ptx));
    CUdeviceptr p, q, managed;
    OK(cuMemAlloc_v2(&p, 64));
    OK(cuMemAlloc_v2(&q, 64));
    ck_assert(warns(m, "branchy", p));                  /* cuMemAlloc's bytes: never written */
    OK(cuMemsetD32_v2(p, 7, 1));
    ck_assert(!warns(m, "branchy", p));
    uint32_t v = 3;
    OK(cuMemcpyHtoD_v2(q + 4, &v, 4));                  /* a part: q[0] still undefined */
    ck_assert(warns(m, "branchy", q));
    OK(cuMemcpyHtoD_v2(q, &v, 4));
    ck_assert(!warns(m, "branchy", q));
    /* a kernel's undefined store stays undefined for the next launch, and through a copy */
    ck_assert(!warns(m, "spoil", p));
    ck_assert(warns(m, "branchy", p));
    OK(cuMemcpyDtoD_v2(q, p, 64));
    ck_assert(warns(m, "branchy", q));
    OK(cuMemcpyHtoD_v2(p, &v, 4));
    ck_assert(!warns(m, "branchy", p));
    OK(cuMemsetD32_v2(p, 7, 16));                       /* all of it defined, then spoilt again */
    ck_assert(!warns(m, "spoil", p));
    ck_assert(warns(m, "branchy", p));
    /* memory the host reaches is defined: the host may have written it */
    OK(cuMemAllocManaged(&managed, 64, CU_MEM_ATTACH_GLOBAL));
    ck_assert(!warns(m, "branchy", managed));
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
    tcase_add_test(t, test_launch_ex);
    tcase_add_test(t, test_module_variables);
    tcase_add_test(t, test_fault_is_sticky);
    tcase_add_loop_test(t, test_fault_kinds, 0, 4);
    tcase_add_test(t, test_fault_in_freed_memory);
    tcase_add_test(t, test_device_memory_starts_undefined);
    tcase_add_test(t, test_every_allocation_reachable);
    tcase_add_test(t, test_jobs_same_result);
    tcase_add_test(t, test_kernel_ptxrun_cannot_execute);
    tcase_add_test(t, test_bad_ptx);
    tcase_add_test(t, test_printf_to_stdout);
    tcase_add_test(t, test_trace_file);
    tcase_add_test(t, test_undefined_warns);
    tcase_add_test(t, test_undefined_strict);
    tcase_add_test(t, test_assert);
    suite_add_tcase(s, t);
    t = tcase_create("modules");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_fatbinary);
    tcase_add_test(t, test_fatbinary_arch_below);
    tcase_add_test(t, test_module_file_and_link);
    tcase_add_test(t, test_limits);
    tcase_add_test(t, test_target_above_device);
    tcase_add_test(t, test_threads);
    tcase_add_test(t, test_threads_copy_during_launch);
    suite_add_tcase(s, t);
    t = tcase_create("streams");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_streams_in_order);
    tcase_add_test(t, test_events_time_the_work);
    tcase_add_test(t, test_stream_host_work);
    tcase_add_test(t, test_managed_hints);
    tcase_add_test(t, test_per_thread_names);
    suite_add_tcase(s, t);
    t = tcase_create("functions");
    tcase_add_test(t, test_function_attributes);
    tcase_add_test(t, test_occupancy);
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
