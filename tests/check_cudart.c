/* check_cudart.c: ptxrun's CUDA runtime (build/cuda/libcudart.so.13) from plain C, through
 * cuda/cudart.h alone. The device code is tests/cudart/kernels.fatbin (nvcc's, from kernels.cu),
 * registered by hand as nvcc's static constructors do: the wrapper, each kernel by a host address
 * standing for its stub, each variable by its host shadow. Every value is checked against a C
 * computation of what the kernel does; errors against what CUDA documents. Each test runs in a
 * process of its own (libcheck's fork), so one test's fault never reaches the next; under
 * CK_FORK=no (valgrind) a faulting test resets the device before it ends. */
#include <check.h>
#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "cudart.h"

/* refused by the runtime (rtunsupported.c): its parameters are not read */
cudaError_t cudaMallocMipmappedArray(void);
/* nvcc --default-stream per-thread's names of two calls (rt.h's RT_SAME_AS) */
cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream);

/* ---- the registration nvcc's code makes, by hand */
static struct {
    uint32_t magic, version;
    const void *fatbin;
    const void *unused;
} wrapper = { 0x466243b1, 1, NULL, NULL };
static void **handle;
/* nvlink's wrapper (version 2, -rdc=true) of a fatbinary with no PTX: what ptxrun cannot load */
static struct {
    uint32_t magic, version;
    const void *fatbin;
    const void *unused;
} sass_wrapper = { 0x466243b1, 2, NULL, NULL };
static void **sass_handle;
static char sass_add_stub;
static int *sass_counter;
/* Stand-ins for the host stubs (only their addresses matter) and the variables' host shadows. */
static char add_stub, from_symbols_stub, count_stub, block_sum_stub, stray_stub, assert_stub, trap_stub;
static char not_registered_stub;
static int table_shadow[4], factor_shadow;
static int *counter;                          /* __managed__: its address is written at load */
static char *report_path;                     /* PTXRUN_REPORT: every diagnostic lands there */

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)n + 1);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    if (data)
        data[n] = 0;
    fclose(f);
    *size = (size_t)n;
    return data;
}

static char *root_path(const char *relative)
{
    const char *root = getenv("PTXRUN_ROOT");
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", root ? root : ".", relative);
    return path;
}

static void register_all(void)
{
    size_t size;
    wrapper.fatbin = read_file(root_path("tests/cudart/kernels.fatbin"), &size);
    if (!wrapper.fatbin) {
        fprintf(stderr, "check_cudart: cannot read tests/cudart/kernels.fatbin (set PTXRUN_ROOT)\n");
        exit(1);
    }
    handle = __cudaRegisterFatBinary(&wrapper);
    __cudaRegisterFunction(handle, &add_stub, "add", "add", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(handle, &from_symbols_stub, "from_symbols", "from_symbols", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(handle, &count_stub, "count", "count", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(handle, &block_sum_stub, "block_sum", "block_sum", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(handle, &stray_stub, "stray", "stray", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(handle, &assert_stub, "fails_assert", "fails_assert", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(handle, &trap_stub, "traps", "traps", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterVar(handle, (char *)table_shadow, "table", "table", 0, sizeof table_shadow, 0, 0);
    __cudaRegisterVar(handle, (char *)&factor_shadow, "factor", "factor", 0, sizeof factor_shadow, 1, 0);
    __cudaRegisterManagedVar(handle, (void **)&counter, "counter", "counter", 0, sizeof(int), 0, 0);
    __cudaRegisterFatBinaryEnd(handle);
    sass_wrapper.fatbin = read_file(root_path("tests/cudart/sass_only.fatbin"), &size);
    sass_handle = __cudaRegisterFatBinary(&sass_wrapper);
    __cudaRegisterFunction(sass_handle, &sass_add_stub, "add", "add", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterManagedVar(sass_handle, (void **)&sass_counter, "counter", "counter", 0, sizeof(int), 0, 0);
    __cudaRegisterFatBinaryEnd(sass_handle);
}

static dim3 d3(unsigned x, unsigned y, unsigned z)
{
    return (dim3){ x, y, z };
}

/* The report stream's text so far (a new string). */
static char *report(void)
{
    size_t size;
    char *text = read_file(report_path, &size);
    return text ? text : calloc(1, 1);
}

/* ---- launches */

START_TEST(launch_by_host_function)
{
    enum { N = 1000 };
    int a[N], b[N], out[N];
    for (int i = 0; i < N; i++)
        a[i] = i * 7 - 300, b[i] = 1000 - i * i;
    int *da, *db, *dout;
    ck_assert_int_eq(cudaMalloc((void **)&da, sizeof a), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&db, sizeof b), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&dout, sizeof out), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice), cudaSuccess);
    int n = N;
    void *args[] = { &dout, &da, &db, &n };
    ck_assert_int_eq(cudaLaunchKernel(&add_stub, d3((N + 127) / 128, 1, 1), d3(128, 1, 1), args, 0, NULL), cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(out[i], a[i] + b[i]);
    ck_assert_int_eq(cudaFree(da), cudaSuccess);
    ck_assert_int_eq(cudaFree(db), cudaSuccess);
    ck_assert_int_eq(cudaFree(dout), cudaSuccess);
}
END_TEST

/* <<<grid, block, shared, stream>>> as nvcc's code makes it: push, then the stub's pop, get, launch. */
START_TEST(launch_as_nvcc_does)
{
    enum { N = 256 };
    int in[N], sum = 0, got = -1;
    for (int i = 0; i < N; i++)
        in[i] = (i * 37) % 101 - 50, sum += in[i];
    int *din, *dout;
    ck_assert_int_eq(cudaMalloc((void **)&din, sizeof in), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&dout, sizeof(int)), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(din, in, sizeof in, cudaMemcpyDefault), cudaSuccess);
    ck_assert_uint_eq(__cudaPushCallConfiguration(d3(1, 1, 1), d3(N, 1, 1), N * sizeof(int), NULL), 0);
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream = (cudaStream_t)0x55;
    ck_assert_int_eq(__cudaPopCallConfiguration(&grid, &block, &shared, &stream), cudaSuccess);
    ck_assert_uint_eq(block.x, N);
    ck_assert_uint_eq(shared, N * sizeof(int));
    ck_assert_ptr_null(stream);
    ck_assert_int_eq(__cudaPopCallConfiguration(&grid, &block, &shared, &stream), cudaErrorMissingConfiguration);
    cudaKernel_t kernel = NULL;
    ck_assert_int_eq(__cudaGetKernel(&kernel, &block_sum_stub), cudaSuccess);
    ck_assert_ptr_nonnull(kernel);
    int n = N;
    void *args[] = { &din, &dout, &n };
    ck_assert_int_eq(__cudaLaunchKernel(kernel, grid, block, args, shared, stream), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(&got, dout, sizeof got, cudaMemcpyDefault), cudaSuccess);
    ck_assert_int_eq(got, sum);
    /* the handle names the kernel wherever a host stub would (cudaGetKernel: the public name) */
    cudaKernel_t same = NULL;
    ck_assert_int_eq(cudaGetKernel(&same, &block_sum_stub), cudaSuccess);
    ck_assert_ptr_eq(same, kernel);
    got = -1;
    ck_assert_int_eq(cudaLaunchKernel((const void *)kernel, grid, block, args, shared, NULL), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(&got, dout, sizeof got, cudaMemcpyDefault), cudaSuccess);
    ck_assert_int_eq(got, sum);
    ck_assert_int_eq(__cudaGetKernel(&kernel, &not_registered_stub), cudaErrorInvalidDeviceFunction);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidDeviceFunction);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
}
END_TEST

START_TEST(launch_errors)
{
    int *d;
    ck_assert_int_eq(cudaMalloc((void **)&d, 64), cudaSuccess);
    int n = 1;
    void *args[] = { &d, &d, &d, &n };
    ck_assert_int_eq(cudaLaunchKernel(&add_stub, d3(1, 1, 1), d3(2048, 1, 1), args, 0, NULL),
                     cudaErrorInvalidConfiguration);
    ck_assert_int_eq(cudaPeekAtLastError(), cudaErrorInvalidConfiguration);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidConfiguration);
    ck_assert_int_eq(cudaLaunchKernel(&add_stub, d3(0, 1, 1), d3(32, 1, 1), args, 0, NULL),
                     cudaErrorInvalidConfiguration);
    ck_assert_int_eq(cudaLaunchKernel(&add_stub, d3(1, 65536, 1), d3(32, 1, 1), args, 0, NULL),
                     cudaErrorInvalidConfiguration);
    ck_assert_int_eq(cudaLaunchKernel(&add_stub, d3(1, 1, 1), d3(32, 32, 2), args, 0, NULL),
                     cudaErrorInvalidConfiguration);
    /* more dynamic shared memory than a block has without opting in (48 KiB): the driver's "invalid argument" */
    ck_assert_int_eq(cudaLaunchKernel(&block_sum_stub, d3(1, 1, 1), d3(32, 1, 1), args, 64 * 1024, NULL),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaLaunchKernel(&not_registered_stub, d3(1, 1, 1), d3(32, 1, 1), args, 0, NULL),
                     cudaErrorInvalidDeviceFunction);
    /* a launch error is not sticky: the next call works */
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidDeviceFunction);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    ck_assert_int_eq(cudaLaunchKernel(&add_stub, d3(1, 1, 1), d3(1, 1, 1), args, 0, NULL), cudaSuccess);
    ck_assert_int_eq(cudaFree(d), cudaSuccess);
}
END_TEST

START_TEST(launch_ex_and_cooperative)
{
    enum { N = 64 };
    int a[N], out[N];
    for (int i = 0; i < N; i++)
        a[i] = 3 * i + 1;
    int *da, *dout;
    ck_assert_int_eq(cudaMalloc((void **)&da, sizeof a), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&dout, sizeof out), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice), cudaSuccess);
    int n = N;
    void *args[] = { &dout, &da, &da, &n };
    cudaLaunchAttribute attrs[2];
    memset(attrs, 0, sizeof attrs);
    attrs[0].id = cudaLaunchAttributePriority;
    attrs[0].val.priority = 1;
    attrs[1].id = cudaLaunchAttributeCooperative;
    attrs[1].val.cooperative = 1;
    cudaLaunchConfig_t config = { d3(1, 1, 1), d3(N, 1, 1), 0, NULL, attrs, 2 };
    ck_assert_int_eq(cudaLaunchKernelExC(&config, &add_stub, args), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(out[i], 2 * a[i]);
    /* a cooperative grid of several blocks runs (issue 37); one larger than an H100 keeps resident
     * (1,024 threads a block: 2 a multiprocessor, 132 of them) is refused as CUDA refuses it */
    config.gridDim = d3(2, 1, 1);
    config.blockDim = d3(32, 1, 1);
    ck_assert_int_eq(cudaLaunchKernelExC(&config, &add_stub, args), cudaSuccess);
    ck_assert_int_eq(cudaLaunchCooperativeKernel(&add_stub, d3(2, 1, 1), d3(32, 1, 1), args, 0, NULL), cudaSuccess);
    ck_assert_int_eq(cudaLaunchCooperativeKernel(&add_stub, d3(1, 1, 1), d3(32, 1, 1), args, 0, NULL), cudaSuccess);
    ck_assert_int_eq(cudaLaunchCooperativeKernel(&add_stub, d3(265, 1, 1), d3(1024, 1, 1), args, 0, NULL),
                     cudaErrorCooperativeLaunchTooLarge);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);
    config.blockDim = d3(N, 1, 1);
    attrs[1].id = cudaLaunchAttributeProgrammaticEvent;
    config.gridDim = d3(1, 1, 1);
    ck_assert_int_eq(cudaLaunchKernelExC(&config, &add_stub, args), cudaErrorNotSupported);
    /* a cluster of one block is any launch; of two, its CTAs run together; a grid that is no whole
     * number of clusters is refused, as CUDA refuses it */
    attrs[1].id = cudaLaunchAttributeClusterDimension;
    attrs[1].val.clusterDim.x = attrs[1].val.clusterDim.y = attrs[1].val.clusterDim.z = 1;
    ck_assert_int_eq(cudaLaunchKernelExC(&config, &add_stub, args), cudaSuccess);
    config.gridDim = d3(2, 1, 1);
    attrs[1].val.clusterDim.x = 2;
    ck_assert_int_eq(cudaLaunchKernelExC(&config, &add_stub, args), cudaSuccess);
    config.gridDim = d3(3, 1, 1);
    ck_assert_int_eq(cudaLaunchKernelExC(&config, &add_stub, args), cudaErrorInvalidValue);
    config.gridDim = d3(1, 1, 1);
    char *text = report();
    ck_assert_ptr_null(strstr(text, "cudaLaunchCooperativeKernel is not supported yet"));
    ck_assert_ptr_null(strstr(text, "clusters of 2 x 1 x 1 CTAs are not supported yet"));
    ck_assert_ptr_nonnull(strstr(text, "cudaLaunchKernelExC is not supported yet: the attribute "
                                       "cudaLaunchAttributeProgrammaticEvent"));
    free(text);
    cudaFree(da);
    cudaFree(dout);
}
END_TEST

START_TEST(function_attributes)
{
    struct cudaFuncAttributes attr;
    memset(&attr, 0xff, sizeof attr);
    ck_assert_int_eq(cudaFuncGetAttributes(&attr, &block_sum_stub), cudaSuccess);
    ck_assert_int_eq(attr.maxThreadsPerBlock, 1024);
    ck_assert_uint_eq(attr.sharedSizeBytes, 0);       /* block_sum's shared memory is all dynamic */
    ck_assert_int_eq(attr.ptxVersion, 80);             /* the PTX of compute_80 */
    ck_assert_int_eq(cudaFuncGetAttributes(&attr, &not_registered_stub), cudaErrorInvalidDeviceFunction);
    const char *name = NULL;
    ck_assert_int_eq(cudaFuncGetName(&name, &from_symbols_stub), cudaSuccess);
    ck_assert_str_eq(name, "from_symbols");
    int blocks = 0;
    ck_assert_int_eq(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, &add_stub, 128, 0), cudaSuccess);
    ck_assert_int_gt(blocks, 0);
    ck_assert_int_eq(cudaFuncSetCacheConfig(&add_stub, cudaFuncCachePreferShared), cudaSuccess);
}
END_TEST

/* ---- variables */

START_TEST(symbols)
{
    int table[4] = { 3, -5, 7, 11 }, factor = 6;
    ck_assert_int_eq(cudaMemcpyToSymbol(table_shadow, table, sizeof table, 0, cudaMemcpyHostToDevice), cudaSuccess);
    ck_assert_int_eq(cudaMemcpyToSymbol(&factor_shadow, &factor, sizeof factor, 0, cudaMemcpyDefault), cudaSuccess);
    /* table[2] = 9 through an offset */
    int nine = 9;
    ck_assert_int_eq(cudaMemcpyToSymbol(table_shadow, &nine, sizeof nine, 2 * sizeof(int), cudaMemcpyHostToDevice),
                     cudaSuccess);
    table[2] = 9;
    int back = 0;
    ck_assert_int_eq(cudaMemcpyFromSymbol(&back, table_shadow, sizeof back, 3 * sizeof(int), cudaMemcpyDeviceToHost),
                     cudaSuccess);
    ck_assert_int_eq(back, 11);
    size_t size = 0;
    ck_assert_int_eq(cudaGetSymbolSize(&size, table_shadow), cudaSuccess);
    ck_assert_uint_eq(size, sizeof table);
    int *address = NULL, direct[4];
    ck_assert_int_eq(cudaGetSymbolAddress((void **)&address, table_shadow), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(direct, address, sizeof direct, cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_mem_eq(direct, table, sizeof table);

    enum { N = 50 };
    int out[N], *dout, n = N;
    ck_assert_int_eq(cudaMalloc((void **)&dout, sizeof out), cudaSuccess);
    void *args[] = { &dout, &n };
    ck_assert_int_eq(cudaLaunchKernel(&from_symbols_stub, d3(2, 1, 1), d3(32, 1, 1), args, 0, NULL), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(out[i], table[i % 4] * factor + i);

    /* past the end, an unknown symbol, a wrong direction */
    ck_assert_int_eq(cudaMemcpyToSymbol(table_shadow, table, 8, 12, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaMemcpyToSymbol(&back, table, 4, 0, cudaMemcpyHostToDevice), cudaErrorInvalidSymbol);
    ck_assert_int_eq(cudaMemcpyToSymbol(table_shadow, table, 4, 0, cudaMemcpyDeviceToHost),
                     cudaErrorInvalidMemcpyDirection);
    ck_assert_int_eq(cudaMemcpyFromSymbolAsync(&back, table_shadow, 4, 0, cudaMemcpyDeviceToHost, NULL), cudaSuccess);
    ck_assert_int_eq(back, 3);
    cudaFree(dout);
}
END_TEST

START_TEST(managed_variable)
{
    ck_assert_int_eq(__cudaInitModule(handle), 1);
    ck_assert_ptr_nonnull(counter);
    ck_assert_int_eq(*counter, 5);                     /* its initializer */
    ck_assert_int_eq(cudaLaunchKernel(&count_stub, d3(3, 1, 1), d3(64, 1, 1), NULL, 0, NULL), cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    ck_assert_int_eq(*counter, 5 + 3 * 64);
    *counter = -10;                                    /* the host writes it; the kernel sees that */
    ck_assert_int_eq(cudaLaunchKernel(&count_stub, d3(1, 1, 1), d3(10, 1, 1), NULL, 0, NULL), cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    ck_assert_int_eq(*counter, 0);
}
END_TEST

/* ---- memory */

START_TEST(host_memory_kinds)
{
    enum { N = 100 };
    int *pinned, *mapped, *managed, *dev_alias = NULL;
    ck_assert_int_eq(cudaMallocHost((void **)&pinned, N * sizeof(int)), cudaSuccess);
    ck_assert_int_eq(cudaHostAlloc((void **)&mapped, N * sizeof(int), cudaHostAllocMapped), cudaSuccess);
    ck_assert_int_eq(cudaHostGetDevicePointer((void **)&dev_alias, mapped, 0), cudaSuccess);
    ck_assert_ptr_eq(dev_alias, mapped);
    ck_assert_int_eq(cudaHostAlloc((void **)&dev_alias, 16, 0x40), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaMallocManaged((void **)&managed, N * sizeof(int), cudaMemAttachGlobal), cudaSuccess);
    int *registered = malloc(N * sizeof(int));
    ck_assert_int_eq(cudaHostRegister(registered, N * sizeof(int), cudaHostRegisterDefault), cudaSuccess);
    for (int i = 0; i < N; i++)
        pinned[i] = i, managed[i] = 1000 * i;
    /* a kernel reads pinned and managed memory and writes registered memory, all by their host addresses */
    int n = N;
    void *args[] = { &registered, &pinned, &managed, &n };
    ck_assert_int_eq(cudaLaunchKernel(&add_stub, d3(1, 1, 1), d3(128, 1, 1), args, 0, NULL), cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(registered[i], 1001 * i);

    struct cudaPointerAttributes attr;
    ck_assert_int_eq(cudaPointerGetAttributes(&attr, pinned), cudaSuccess);
    ck_assert_int_eq(attr.type, cudaMemoryTypeHost);
    ck_assert_ptr_eq(attr.hostPointer, pinned);
    ck_assert_int_eq(cudaPointerGetAttributes(&attr, managed + 3), cudaSuccess);
    ck_assert_int_eq(attr.type, cudaMemoryTypeManaged);
    int on_stack = 0;
    ck_assert_int_eq(cudaPointerGetAttributes(&attr, &on_stack), cudaSuccess);
    ck_assert_int_eq(attr.type, cudaMemoryTypeUnregistered);
    ck_assert_ptr_eq(attr.hostPointer, &on_stack);
    ck_assert_ptr_null(attr.devicePointer);
    int *dev;
    ck_assert_int_eq(cudaMalloc((void **)&dev, 64), cudaSuccess);
    ck_assert_int_eq(cudaPointerGetAttributes(&attr, dev), cudaSuccess);
    ck_assert_int_eq(attr.type, cudaMemoryTypeDevice);
    ck_assert_ptr_eq(attr.devicePointer, dev);
    ck_assert_ptr_null(attr.hostPointer);
    ck_assert_int_eq(attr.device, 0);

    struct cudaMemLocation gpu = { cudaMemLocationTypeDevice, 0 };
    ck_assert_int_eq(cudaMemPrefetchAsync(managed, N * sizeof(int), gpu, 0, NULL), cudaSuccess);
    ck_assert_int_eq(cudaMemAdvise(managed, N * sizeof(int), 1, gpu), cudaSuccess);   /* read mostly */
    ck_assert_int_eq(cudaMemPrefetchAsync(dev, 64, gpu, 0, NULL), cudaErrorInvalidValue);  /* not managed */
    ck_assert_int_eq(cudaHostUnregister(registered), cudaSuccess);
    ck_assert_int_eq(cudaHostUnregister(registered), cudaErrorHostMemoryNotRegistered);
    free(registered);
    ck_assert_int_eq(cudaFreeHost(pinned), cudaSuccess);
    ck_assert_int_eq(cudaFreeHost(mapped), cudaSuccess);
    ck_assert_int_eq(cudaFree(managed), cudaSuccess);
    ck_assert_int_eq(cudaFree(dev), cudaSuccess);
    ck_assert_int_eq(cudaFree(NULL), cudaSuccess);
    ck_assert_int_eq(cudaFree(&on_stack), cudaErrorInvalidValue);
    size_t free_bytes = 0, total = 0;
    ck_assert_int_eq(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
    ck_assert_uint_gt(total, 0);
    ck_assert_uint_le(free_bytes, total);
}
END_TEST

START_TEST(copies_2d_3d_and_memset)
{
    enum { W = 37, H = 5, D = 3 };
    unsigned char host[D][H][W], back[D][H][W];
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                host[z][y][x] = (unsigned char)(x + 7 * y + 31 * z);
    /* 2D: pitched rows, a copy in and out, a memset of a window */
    unsigned char *dev;
    size_t pitch = 0;
    ck_assert_int_eq(cudaMallocPitch((void **)&dev, &pitch, W, H), cudaSuccess);
    ck_assert_uint_ge(pitch, W);
    ck_assert_int_eq(cudaMemcpy2D(dev, pitch, host[0], W, W, H, cudaMemcpyHostToDevice), cudaSuccess);
    ck_assert_int_eq(cudaMemset2D(dev + pitch + 2, pitch, 0xab, 4, 2), cudaSuccess);
    memset(back, 0, sizeof back);
    ck_assert_int_eq(cudaMemcpy2D(back[0], W, dev, pitch, W, H, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            bool set = y >= 1 && y < 3 && x >= 2 && x < 6;
            ck_assert_uint_eq(back[0][y][x], (set ? 0xab : host[0][y][x]));
        }
    ck_assert_int_eq(cudaMemcpy2D(dev, pitch, host[0], W, pitch + 1, H, cudaMemcpyHostToDevice),
                     cudaErrorInvalidPitchValue);
    ck_assert_int_eq(cudaFree(dev), cudaSuccess);

    /* 3D: the whole block in; the middle slice's rows 1..2 out to a smaller box */
    struct cudaPitchedPtr p;
    ck_assert_int_eq(cudaMalloc3D(&p, (struct cudaExtent){ W, H, D }), cudaSuccess);
    ck_assert_uint_eq(p.xsize, W);
    ck_assert_uint_eq(p.ysize, H);
    struct cudaMemcpy3DParms in = { 0 };
    in.srcPtr = (struct cudaPitchedPtr){ host, W, W, H };
    in.dstPtr = p;
    in.extent = (struct cudaExtent){ W, H, D };
    in.kind = cudaMemcpyHostToDevice;
    ck_assert_int_eq(cudaMemcpy3D(&in), cudaSuccess);
    ck_assert_int_eq(cudaMemset3D(p, 0x11, (struct cudaExtent){ 3, 1, 2 }), cudaSuccess);
    unsigned char box[2][4];
    struct cudaMemcpy3DParms out = { 0 };
    out.srcPtr = p;
    out.srcPos = (struct cudaPos){ 1, 0, 0 };
    out.dstPtr = (struct cudaPitchedPtr){ box, 4, 4, 1 };   /* one row a slice */
    out.extent = (struct cudaExtent){ 4, 1, 2 };
    out.kind = cudaMemcpyDeviceToHost;
    ck_assert_int_eq(cudaMemcpy3D(&out), cudaSuccess);
    for (int z = 0; z < 2; z++)
        for (int x = 0; x < 4; x++)
            ck_assert_uint_eq(box[z][x], (x + 1 < 3 ? 0x11 : host[z][0][x + 1]));
    /* a row whose byte offset passes 2^64 is outside the allocation, not a row wrapped into it */
    out.srcPos = (struct cudaPos){ 0, (size_t)1 << 62, 0 };
    out.extent = (struct cudaExtent){ 4, 1, 1 };
    ck_assert_int_eq(cudaMemcpy3D(&out), cudaErrorInvalidValue);
    out.srcPos = (struct cudaPos){ SIZE_MAX, 0, 0 };                 /* x + width wraps */
    ck_assert_int_eq(cudaMemcpy3D(&out), cudaErrorInvalidPitchValue);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidPitchValue);
    ck_assert_int_eq(cudaFree(p.ptr), cudaSuccess);

    /* 1D memset and every direction */
    int *d1;
    int ints[8], got[8];
    ck_assert_int_eq(cudaMalloc((void **)&d1, sizeof ints), cudaSuccess);
    ck_assert_int_eq(cudaMemset(d1, 0x7f, sizeof ints), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(got, d1, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(got[i], 0x7f7f7f7f);
    for (int i = 0; i < 8; i++)
        ints[i] = i * i;
    int *d2;
    ck_assert_int_eq(cudaMalloc((void **)&d2, sizeof ints), cudaSuccess);
    ck_assert_int_eq(cudaMemcpyAsync(d1, ints, sizeof ints, cudaMemcpyHostToDevice, NULL), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(d2, d1, sizeof ints, cudaMemcpyDeviceToDevice), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(got, d2, sizeof got, cudaMemcpyDefault), cudaSuccess);
    ck_assert_mem_eq(got, ints, sizeof ints);
    ck_assert_int_eq(cudaMemsetAsync_ptsz(d2, 0, sizeof(int), NULL), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy_ptds(got, d2, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_int_eq(got[0], 0);
    ck_assert_int_eq(got[7], 49);
    ck_assert_int_eq(cudaMemcpy(got, d2, sizeof got, (cudaMemcpyKind)7), cudaErrorInvalidMemcpyDirection);
    cudaFree(d1);
    cudaFree(d2);
}
END_TEST

/* ---- the device */

/* Each line "field offset size" of a layout file, against our struct's offsets. */
static void check_layout(const char *file, const size_t *offsets, const char *const *names, size_t count,
                         size_t struct_size)
{
    size_t size;
    char *text = read_file(root_path(file), &size);
    ck_assert_msg(text != NULL, "cannot read %s", file);
    size_t seen = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char name[64];
        size_t at, bytes;
        if (sscanf(line, "sizeof %zu", &at) == 1) {
            ck_assert_uint_eq(at, struct_size);
            continue;
        }
        ck_assert_int_eq(sscanf(line, "%63s %zu %zu", name, &at, &bytes), 3);
        for (size_t i = 0; i < count; i++)
            if (strcmp(names[i], name) == 0) {
                ck_assert_msg(offsets[i] == at, "%s: %s at %zu in ours, %zu in CUDA's", file, name, offsets[i], at);
                seen++;
            }
    }
    ck_assert_uint_eq(seen, count);
    free(text);
}

#define PROP13(f) offsetof(struct cudaDeviceProp, f)
#define PROP12(f) offsetof(struct cudaDeviceProp12, f)
#define COMMON_FIELDS(X) X(name) X(uuid) X(luid) X(luidDeviceNodeMask) X(totalGlobalMem) X(sharedMemPerBlock) \
    X(regsPerBlock) X(warpSize) X(memPitch) X(maxThreadsPerBlock) X(maxThreadsDim) X(maxGridSize) X(totalConstMem) \
    X(major) X(minor) X(textureAlignment) X(texturePitchAlignment) X(multiProcessorCount) X(integrated) \
    X(canMapHostMemory) X(maxTexture1D) X(maxTexture1DMipmap) X(maxTexture2D) X(maxTexture2DMipmap) \
    X(maxTexture2DLinear) X(maxTexture2DGather) X(maxTexture3D) X(maxTexture3DAlt) X(maxTextureCubemap) \
    X(maxTexture1DLayered) X(maxTexture2DLayered) X(maxTextureCubemapLayered) X(maxSurface1D) X(maxSurface2D) \
    X(maxSurface3D) X(maxSurface1DLayered) X(maxSurface2DLayered) X(maxSurfaceCubemap) X(maxSurfaceCubemapLayered) \
    X(surfaceAlignment) X(concurrentKernels) X(ECCEnabled) X(pciBusID) X(pciDeviceID) X(pciDomainID) X(tccDriver) \
    X(asyncEngineCount) X(unifiedAddressing) X(memoryBusWidth) X(l2CacheSize) X(persistingL2CacheMaxSize) \
    X(maxThreadsPerMultiProcessor) X(streamPrioritiesSupported) X(globalL1CacheSupported) X(localL1CacheSupported) \
    X(sharedMemPerMultiprocessor) X(regsPerMultiprocessor) X(managedMemory) X(isMultiGpuBoard) \
    X(multiGpuBoardGroupID) X(hostNativeAtomicSupported) X(pageableMemoryAccess) X(concurrentManagedAccess) \
    X(computePreemptionSupported) X(canUseHostPointerForRegisteredMem) X(cooperativeLaunch) \
    X(sharedMemPerBlockOptin) X(pageableMemoryAccessUsesHostPageTables) X(directManagedMemAccessFromHost) \
    X(maxBlocksPerMultiProcessor) X(accessPolicyMaxWindowSize) X(reservedSharedMemPerBlock) \
    X(hostRegisterSupported) X(sparseCudaArraySupported) X(hostRegisterReadOnlySupported) \
    X(timelineSemaphoreInteropSupported) X(memoryPoolsSupported) X(gpuDirectRDMASupported) \
    X(gpuDirectRDMAFlushWritesOptions) X(gpuDirectRDMAWritesOrdering) X(memoryPoolSupportedHandleTypes) \
    X(deferredMappingCudaArraySupported) X(ipcEventSupported) X(clusterLaunch) X(unifiedFunctionPointers) \
    X(deviceNumaConfig) X(deviceNumaId) X(mpsEnabled) X(hostNumaId) X(gpuPciDeviceID) X(gpuPciSubsystemID) \
    X(hostNumaMultinodeIpcSupported) X(reserved)
#define ONLY12_FIELDS(X) X(clockRate) X(deviceOverlap) X(kernelExecTimeoutEnabled) X(computeMode) \
    X(maxTexture1DLinear) X(memoryClockRate) X(singleToDoublePrecisionPerfRatio) X(cooperativeMultiDeviceLaunch)
#define NAME(f) #f,
#define AT13(f) PROP13(f),
#define AT12(f) PROP12(f),

/* Our two layouts of cudaDeviceProp against CUDA 13's header (props13.txt, printed by
 * props_layout.cu) and CUDA 12's (props12.txt, props12.py's). */
START_TEST(props_layouts)
{
    static const char *const names13[] = { COMMON_FIELDS(NAME) };
    static const size_t at13[] = { COMMON_FIELDS(AT13) };
    check_layout("tests/cudart/props13.txt", at13, names13, sizeof at13 / sizeof at13[0], sizeof(struct cudaDeviceProp));
    static const char *const names12[] = { COMMON_FIELDS(NAME) ONLY12_FIELDS(NAME) };
    static const size_t at12[] = { COMMON_FIELDS(AT12) ONLY12_FIELDS(AT12) };
    check_layout("tests/cudart/props12.txt", at12, names12, sizeof at12 / sizeof at12[0],
                 sizeof(struct cudaDeviceProp12));
}
END_TEST

START_TEST(device_queries)
{
    int count = 0, device = -1, value = 0;
    ck_assert_int_eq(cudaGetDeviceCount(&count), cudaSuccess);
    ck_assert_int_ge(count, 1);
    ck_assert_int_eq(cudaSetDevice(count), cudaErrorInvalidDevice);
    ck_assert_int_eq(cudaSetDevice(0), cudaSuccess);
    ck_assert_int_eq(cudaGetDevice(&device), cudaSuccess);
    ck_assert_int_eq(device, 0);
    struct cudaDeviceProp p;
    memset(&p, 0x5a, sizeof p);
    ck_assert_int_eq(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    ck_assert_uint_gt(strlen(p.name), 0);
    /* an H100 by default (sm_90): CUDA's limits for compute capability 9.0 */
    ck_assert_int_eq(p.major, 9);
    ck_assert_int_eq(p.minor, 0);
    ck_assert_int_eq(p.warpSize, 32);
    ck_assert_int_eq(p.maxThreadsPerBlock, 1024);
    ck_assert_int_eq(p.maxThreadsDim[2], 64);
    ck_assert_int_eq(p.maxGridSize[0], 0x7fffffff);
    ck_assert_int_eq(p.maxGridSize[1], 65535);
    ck_assert_uint_eq(p.sharedMemPerBlock, 48 * 1024);
    ck_assert_int_eq(p.regsPerBlock, 65536);
    ck_assert_int_eq(p.reserved[0], 0);
    /* each field as cudaDeviceGetAttribute says */
    ck_assert_int_eq(cudaDeviceGetAttribute(&value, 16, 0), cudaSuccess);     /* multiprocessors */
    ck_assert_int_eq(value, p.multiProcessorCount);
    ck_assert_int_eq(cudaDeviceGetAttribute(&value, 81, 0), cudaSuccess);     /* shared memory per SM */
    ck_assert_uint_eq((size_t)value, p.sharedMemPerMultiprocessor);
    ck_assert_int_eq(cudaDeviceGetAttribute(&value, 38, 0), cudaSuccess);     /* L2 */
    ck_assert_int_eq(value, p.l2CacheSize);
    ck_assert_int_eq(cudaDeviceGetAttribute(&value, 16, count), cudaErrorInvalidDevice);
    ck_assert_int_eq(cudaGetDeviceProperties(&p, count), cudaErrorInvalidDevice);
    /* CUDA 12's layout, from libcudart.so.12 beside this test's libcudart.so.13: the same values
     * where its fields are */
    char exe[PATH_MAX], lib[PATH_MAX + 32];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    ck_assert_int_gt(len, 0);
    exe[len] = 0;
    *strrchr(exe, '/') = 0;
    snprintf(lib, sizeof lib, "%s/../cuda/libcudart.so.12", exe);
    void *rt12 = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    ck_assert_msg(rt12 != NULL, "%s", dlerror());
    ck_assert_ptr_null(dlsym(rt12, "cudaGetDeviceProperties"));    /* CUDA 13's layout is not there */
    cudaError_t (*props12)(struct cudaDeviceProp12 *, int);
    cudaError_t (*version12)(int *);
    *(void **)&props12 = dlsym(rt12, "cudaGetDeviceProperties_v2");   /* POSIX's way to a function */
    *(void **)&version12 = dlsym(rt12, "cudaRuntimeGetVersion");
    ck_assert(props12 != NULL && version12 != NULL);
    struct cudaDeviceProp12 q;
    memset(&q, 0x5a, sizeof q);
    ck_assert_int_eq(props12(&q, 0), cudaSuccess);
    ck_assert_str_eq(q.name, p.name);
    ck_assert_int_eq(q.major, 9);
    ck_assert_int_eq(q.multiProcessorCount, p.multiProcessorCount);
    ck_assert_int_eq(q.l2CacheSize, p.l2CacheSize);
    ck_assert_uint_eq(q.sharedMemPerBlockOptin, p.sharedMemPerBlockOptin);
    ck_assert_int_eq(q.hostNumaMultinodeIpcSupported, p.hostNumaMultinodeIpcSupported);
    ck_assert_int_eq(q.reserved[55], 0);
    ck_assert_int_eq(cudaDeviceGetAttribute(&value, 13, 0), cudaSuccess);     /* clock rate */
    ck_assert_int_eq(q.clockRate, value);
    int version = 0;
    ck_assert_int_eq(version12(&version), cudaSuccess);
    ck_assert_int_eq(version, 12080);
    cudaError_t (*thread_sync12)(void);
    *(void **)&thread_sync12 = dlsym(rt12, "cudaThreadSynchronize");   /* CUDA 12's, gone in 13 */
    ck_assert(thread_sync12 != NULL);
    ck_assert_int_eq(thread_sync12(), cudaSuccess);
    dlclose(rt12);
    ck_assert_int_eq(cudaRuntimeGetVersion(&version), cudaSuccess);
    ck_assert_int_eq(version, 13000);
    ck_assert_int_eq(cudaDriverGetVersion(&version), cudaSuccess);
    ck_assert_int_ge(version, 13000);
    char bus[32] = "";
    ck_assert_int_eq(cudaDeviceGetPCIBusId(bus, sizeof bus, 0), cudaSuccess);
    ck_assert_uint_gt(strlen(bus), 0);
    device = -1;
    ck_assert_int_eq(cudaDeviceGetByPCIBusId(&device, bus), cudaSuccess);
    ck_assert_int_eq(device, 0);
    ck_assert_int_eq(cudaDeviceGetPCIBusId(bus, sizeof bus, count), cudaErrorInvalidDevice);
    int valid[] = { 0 }, invalid[] = { 0, count };
    ck_assert_int_eq(cudaSetValidDevices(valid, 1), cudaSuccess);
    ck_assert_int_eq(cudaSetValidDevices(invalid, 2), cudaErrorInvalidDevice);
    ck_assert_int_eq(cudaChooseDevice(&device, &p), cudaSuccess);
    ck_assert_int_eq(device, 0);
    ck_assert_int_eq(cudaSetDeviceFlags(0x1000), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaSetDeviceFlags(cudaDeviceMapHost), cudaSuccess);
    unsigned flags = 0;
    ck_assert_int_eq(cudaGetDeviceFlags(&flags), cudaSuccess);
    ck_assert_uint_eq(flags & cudaDeviceMapHost, cudaDeviceMapHost);
    ck_assert_int_eq(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1), cudaSuccess);
    cudaFuncCache cache;
    ck_assert_int_eq(cudaDeviceGetCacheConfig(&cache), cudaSuccess);
    ck_assert_int_eq(cache, cudaFuncCachePreferL1);
    size_t limit = 0;
    ck_assert_int_eq(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 22), cudaSuccess);
    ck_assert_int_eq(cudaDeviceGetLimit(&limit, cudaLimitPrintfFifoSize), cudaSuccess);
    ck_assert_uint_eq(limit, 1 << 22);
    ck_assert_int_eq(cudaDeviceGetLimit(&limit, cudaLimitStackSize), cudaSuccess);
    ck_assert_uint_gt(limit, 0);
    ck_assert_int_eq(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 32), cudaSuccess);
    ck_assert_int_eq(cudaDeviceGetLimit(&limit, cudaLimitMaxL2FetchGranularity), cudaSuccess);
    ck_assert_uint_eq(limit, 32);
    ck_assert_int_eq(cudaDeviceGetLimit(&limit, (cudaLimit)9), cudaErrorUnsupportedLimit);
}
END_TEST

/* ---- streams and events */

static char order[16];
static size_t order_len;

static void callback(cudaStream_t stream, cudaError_t status, void *data)
{
    (void)stream;
    ck_assert_int_eq(status, cudaSuccess);
    order[order_len++] = *(const char *)data;
}

static void host_fn(void *data)
{
    order[order_len++] = *(const char *)data;
}

START_TEST(streams_and_events)
{
    cudaStream_t s;
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    unsigned flags = 0;
    ck_assert_int_eq(cudaStreamGetFlags(s, &flags), cudaSuccess);
    ck_assert_uint_eq(flags, cudaStreamNonBlocking);
    cudaEvent_t start, stop;
    ck_assert_int_eq(cudaEventCreate(&start), cudaSuccess);
    ck_assert_int_eq(cudaEventCreateWithFlags(&stop, cudaEventBlockingSync), cudaSuccess);
    enum { N = 4096 };
    int *d, *host;
    ck_assert_int_eq(cudaMalloc((void **)&d, N * sizeof(int)), cudaSuccess);
    ck_assert_int_eq(cudaMallocHost((void **)&host, N * sizeof(int)), cudaSuccess);
    for (int i = 0; i < N; i++)
        host[i] = i;
    ck_assert_int_eq(cudaEventRecord(start, s), cudaSuccess);
    ck_assert_int_eq(cudaMemcpyAsync(d, host, N * sizeof(int), cudaMemcpyHostToDevice, s), cudaSuccess);
    static const char a = 'a', b = 'b', c = 'c';
    ck_assert_int_eq(cudaStreamAddCallback(s, callback, (void *)&a, 0), cudaSuccess);
    int n = N;
    void *args[] = { &d, &d, &d, &n };
    ck_assert_int_eq(cudaLaunchKernel(&add_stub, d3(N / 256, 1, 1), d3(256, 1, 1), args, 0, s), cudaSuccess);
    ck_assert_int_eq(cudaLaunchHostFunc(s, host_fn, (void *)&b), cudaSuccess);
    ck_assert_int_eq(cudaStreamAddCallback(s, callback, (void *)&c, 0), cudaSuccess);
    ck_assert_int_eq(cudaEventRecord(stop, s), cudaSuccess);
    ck_assert_int_eq(cudaEventSynchronize(stop), cudaSuccess);
    ck_assert_int_eq(cudaEventQuery(stop), cudaSuccess);
    ck_assert_int_eq(cudaStreamQuery(s), cudaSuccess);
    int on = -1;
    ck_assert_int_eq(cudaStreamGetDevice(s, &on), cudaSuccess);
    ck_assert_int_eq(on, 0);
    ck_assert_int_eq(cudaMemcpyPeerAsync(host, 0, d, 0, sizeof(int), s), cudaSuccess);
    ck_assert_int_eq(host[0], 0);
    ck_assert_int_eq(cudaMemcpyPeerAsync(host, 1, d, 0, sizeof(int), s), cudaErrorInvalidDevice);
    float ms = -1;
    ck_assert_int_eq(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
    ck_assert_float_ge(ms, 0);
    ck_assert_uint_eq(order_len, 3);
    ck_assert_mem_eq(order, "abc", 3);
    ck_assert_int_eq(cudaMemcpyAsync(host, d, N * sizeof(int), cudaMemcpyDeviceToHost, s), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(s), cudaSuccess);
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(host[i], 2 * i);
    ck_assert_int_eq(cudaStreamWaitEvent(NULL, stop, 0), cudaSuccess);
    ck_assert_int_eq(cudaStreamDestroy(s), cudaSuccess);
    ck_assert_int_eq(cudaStreamDestroy(NULL), cudaErrorInvalidResourceHandle);
    int least = 1, greatest = 1, priority = 1;
    ck_assert_int_eq(cudaDeviceGetStreamPriorityRange(&least, &greatest), cudaSuccess);
    ck_assert_int_eq(least, 0);
    ck_assert_int_eq(greatest, -5);
    ck_assert_int_eq(cudaStreamCreateWithPriority(&s, 0, -3), cudaSuccess);
    ck_assert_int_eq(cudaStreamGetPriority(s, &priority), cudaSuccess);
    ck_assert_int_eq(priority, -3);
    ck_assert_int_eq(cudaStreamDestroy(s), cudaSuccess);
    ck_assert_int_eq(cudaEventDestroy(start), cudaSuccess);
    ck_assert_int_eq(cudaEventDestroy(stop), cudaSuccess);
    cudaStream_t dflt = cudaStreamPerThread;
    ck_assert_int_eq(cudaStreamSynchronize(dflt), cudaSuccess);
    cudaFree(d);
    cudaFreeHost(host);
}
END_TEST

/* ---- errors */

START_TEST(error_names_and_texts)
{
    static const struct { cudaError_t code; const char *name; } all[] = {
#define RT_ERROR(name, value, text) { name, #name },
#include "rterrors.def"
#undef RT_ERROR
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        ck_assert_str_eq(cudaGetErrorName(all[i].code), all[i].name);
        ck_assert_uint_gt(strlen(cudaGetErrorString(all[i].code)), 0);
    }
    ck_assert_uint_eq(sizeof all / sizeof all[0], 133);      /* every value of CUDA 13.0 but the API base */
    ck_assert_int_eq(cudaErrorIllegalAddress, 700);
    ck_assert_int_eq(cudaErrorNotSupported, 801);
    ck_assert_str_eq(cudaGetErrorName((cudaError_t)12345), "unrecognized error code");  /* the API reference */
    ck_assert_str_eq(cudaGetErrorString((cudaError_t)12345), "unrecognized error code");
    ck_assert_int_eq(cudaMalloc(NULL, 4), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaPeekAtLastError(), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
    ck_assert_int_eq(cudaMallocMipmappedArray(), cudaErrorNotSupported);
    char *text = report();
    ck_assert_ptr_nonnull(strstr(text, "cudaMallocMipmappedArray is not supported yet"));
    free(text);
    struct cudaChannelFormatDesc f = cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindUnsigned);
    ck_assert_int_eq(f.y, 8);
    ck_assert_int_eq(f.f, cudaChannelFormatKindUnsigned);
}
END_TEST

/* A fault is not the launch's error: it is the context's, from the next call on, for good, until
 * cudaDeviceReset. */
static void check_sticky(char *stub, void **args, cudaError_t fault)
{
    ck_assert_int_eq(cudaLaunchKernel(stub, d3(1, 1, 1), d3(1, 1, 1), args, 0, NULL), cudaSuccess);
    /* a kernel first launched now, before any call saw the fault: the fault, not "no such kernel" */
    struct cudaFuncAttributes attr;
    ck_assert_int_eq(cudaFuncGetAttributes(&attr, &block_sum_stub), fault);
    ck_assert_int_eq(cudaDeviceSynchronize(), fault);
    int *d = NULL;
    ck_assert_int_eq(cudaMalloc((void **)&d, 16), fault);
    ck_assert_int_eq(cudaGetLastError(), fault);
    ck_assert_int_eq(cudaGetLastError(), fault);
    ck_assert_int_eq(cudaStreamSynchronize(NULL), fault);
    ck_assert_int_eq(cudaDeviceReset(), cudaSuccess);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&d, 16), cudaSuccess);
    ck_assert_int_eq(cudaFree(d), cudaSuccess);
}

/* cudaSetDevice makes the device's primary context current to the thread (CUDA 12 on), so that a
 * driver call after it finds a context (cudaCompressibleMemory's cuCtxGetDevice). */
START_TEST(set_device_makes_context_current)
{
    void *driver = dlopen("libcuda.so.1", RTLD_NOW);
    ck_assert_ptr_nonnull(driver);
    int (*get_current)(void **);
    *(void **)&get_current = dlsym(driver, "cuCtxGetCurrent");
    ck_assert(get_current != NULL);
    void *after = NULL;
    ck_assert_int_eq(cudaSetDevice(0), cudaSuccess);   /* the process's first CUDA call */
    ck_assert_int_eq(get_current(&after), 0);
    ck_assert_ptr_nonnull(after);
    dlclose(driver);
}
END_TEST

START_TEST(sticky_illegal_address)
{
    int *d;
    ck_assert_int_eq(cudaMalloc((void **)&d, 64), cudaSuccess);
    void *args[] = { &d };
    check_sticky(&stray_stub, args, cudaErrorIllegalAddress);
    char *text = report();
    ck_assert_ptr_nonnull(strstr(text, "stray"));
    free(text);
    /* the modules load again after the reset: a kernel runs */
    enum { N = 32 };
    int a[N], out[N], *da, *dout, n = N;
    for (int i = 0; i < N; i++)
        a[i] = i - 9;
    ck_assert_int_eq(cudaMalloc((void **)&da, sizeof a), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&dout, sizeof out), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice), cudaSuccess);
    void *add_args[] = { &dout, &da, &da, &n };
    ck_assert_int_eq(cudaLaunchKernel(&add_stub, d3(1, 1, 1), d3(N, 1, 1), add_args, 0, NULL), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(out[i], 2 * a[i]);
    cudaFree(da);
    cudaFree(dout);
}
END_TEST

START_TEST(sticky_assert_and_trap)
{
    int one = 1;
    void *args[] = { &one };
    check_sticky(&assert_stub, args, cudaErrorAssert);
    check_sticky(&trap_stub, NULL, cudaErrorLaunchFailure);
}
END_TEST

/* A fatbinary with no PTX (here as -rdc=true's linked one): each use fails with the driver's
 * error and a message that says why; its managed variable is zeroed host memory, so that nvcc's
 * host code reading it does not dereference NULL. */
START_TEST(fatbinary_without_ptx)
{
    ck_assert_int_eq(__cudaInitModule(sass_handle), 0);
    ck_assert_ptr_nonnull(sass_counter);
    ck_assert_int_eq(*sass_counter, 0);
    int *d;
    ck_assert_int_eq(cudaMalloc((void **)&d, 64), cudaSuccess);
    int n = 1;
    void *args[] = { &d, &d, &d, &n };
    ck_assert_int_eq(cudaLaunchKernel(&sass_add_stub, d3(1, 1, 1), d3(1, 1, 1), args, 0, NULL),
                     cudaErrorNoKernelImageForDevice);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorNoKernelImageForDevice);
    /* the other fatbinary is not touched */
    ck_assert_int_eq(cudaLaunchKernel(&add_stub, d3(1, 1, 1), d3(1, 1, 1), args, 0, NULL), cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    char *text = report();
    ck_assert_ptr_nonnull(strstr(text, "built with -rdc=true"));
    ck_assert_ptr_nonnull(strstr(text, "could not be loaded (CUDA_ERROR_NO_BINARY_FOR_GPU); its __managed__ "
                                       "variables are host memory no kernel sees"));
    free(text);
    cudaFree(d);
}
END_TEST

/* A bad setting: the driver names it and cannot start, so the runtime cannot (only in a process
 * of its own, where nothing has started the driver yet). */
START_TEST(bad_setting)
{
    const char *fork_mode = getenv("CK_FORK");
    if (fork_mode && strcmp(fork_mode, "no") == 0)
        return;
    setenv("PTXRUN_ARCH", "sm_9x", 1);
    int *d = NULL, count = -1;
    ck_assert_int_eq(cudaMalloc((void **)&d, 16), cudaErrorInitializationError);
    ck_assert_int_eq(cudaGetDeviceCount(&count), cudaErrorInitializationError);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInitializationError);
    struct cudaDeviceProp p;
    ck_assert_int_eq(cudaGetDeviceProperties(&p, 0), cudaErrorInitializationError);
    /* nvcc's host code still finds its managed variable somewhere to read */
    ck_assert_int_eq(__cudaInitModule(handle), 0);
    ck_assert_ptr_nonnull(counter);
    unsetenv("PTXRUN_ARCH");
}
END_TEST

static Suite *cudart_suite(void)
{
    Suite *s = suite_create("cudart");
    TCase *t = tcase_create("runtime");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, launch_by_host_function);
    tcase_add_test(t, launch_as_nvcc_does);
    tcase_add_test(t, launch_errors);
    tcase_add_test(t, launch_ex_and_cooperative);
    tcase_add_test(t, function_attributes);
    tcase_add_test(t, symbols);
    tcase_add_test(t, managed_variable);
    tcase_add_test(t, host_memory_kinds);
    tcase_add_test(t, copies_2d_3d_and_memset);
    tcase_add_test(t, props_layouts);
    tcase_add_test(t, device_queries);
    tcase_add_test(t, streams_and_events);
    tcase_add_test(t, error_names_and_texts);
    tcase_add_test(t, fatbinary_without_ptx);
    tcase_add_test(t, bad_setting);
    tcase_add_test(t, sticky_illegal_address);
    tcase_add_test(t, set_device_makes_context_current);
    tcase_add_test(t, sticky_assert_and_trap);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    static char path[] = "/tmp/check_cudart_report_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    report_path = path;
    setenv("PTXRUN_REPORT", path, 1);
    unsetenv("PTXRUN_ARCH");
    register_all();
    SRunner *r = srunner_create(cudart_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    __cudaUnregisterFatBinary(handle);
    __cudaUnregisterFatBinary(sass_handle);
    free((void *)wrapper.fatbin);
    free((void *)sass_wrapper.fatbin);
    remove(path);
    return failed ? 1 : 0;
}
