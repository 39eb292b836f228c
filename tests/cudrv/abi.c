/* abi.c: a driver API program as CUDA's own header compiles it (regen.sh: cuda.h, linked against
 * CUDA's stub libcuda), run against ptxrun's build/cuda/libcuda.so.1 by run.sh: the names cuda.h
 * maps calls to (cuCtxCreate_v4, cuMemAlloc_v2, cuMemcpy2D_v2, ...; with
 * CUDA_API_PER_THREAD_DEFAULT_STREAM the _ptds/_ptsz ones) and its structure layouts must be what
 * the library gives. Self-checking: exit 0 when every result is the one computed here. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CK(x) check((x), CUDA_SUCCESS, #x, __LINE__)
#define EXPECT(x, want) check((x), (want), #x, __LINE__)
#define TRUE(c) do { if (!(c)) { printf("abi.c:%d: %s is false\n", __LINE__, #c); failures++; } } while (0)

static void check(CUresult got, CUresult want, const char *what, int line)
{
    if (got == want)
        return;
    const char *g = "?", *w = "?";
    cuGetErrorName(got, &g);
    cuGetErrorName(want, &w);
    printf("abi.c:%d: %s gave %s, not %s\n", line, what, g, w);
    failures++;
}

enum { N = 1000 };

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: abi KERNELS.ptx\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    static char ptx[1 << 20];
    ptx[fread(ptx, 1, sizeof ptx - 1, f)] = '\0';
    fclose(f);
    CUdevice d;
    CUcontext c;
    CK(cuInit(0));
    CK(cuDeviceGet(&d, 0));
    size_t total = 0, free_bytes = 0;
    CK(cuDeviceTotalMem(&total, d));
    TRUE(total == (size_t)80 << 30);
    CK(cuCtxCreate(&c, NULL, 0, d));
    CK(cuMemGetInfo(&free_bytes, &total));
    TRUE(free_bytes <= total);
    CUmodule m;
    CUfunction saxpy, stray;
    CK(cuModuleLoadData(&m, ptx));
    CK(cuModuleGetFunction(&saxpy, m, "saxpy"));
    CK(cuModuleGetFunction(&stray, m, "stray"));
    static float x[N], y[N], want[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.5f;
        y[i] = 1.0f + (float)i;
        want[i] = 3.0f * x[i] * 2.0f + y[i];       /* exact: small integers and halves */
    }
    CUdeviceptr dx, dy, hits, scale;
    size_t hits_size, scale_size;
    CK(cuMemAlloc(&dx, sizeof x));
    CK(cuMemAlloc(&dy, sizeof y));
    CK(cuMemcpyHtoD(dx, x, sizeof x));
    CK(cuMemcpyHtoD(dy, y, sizeof y));
    CK(cuModuleGetGlobal(&hits, &hits_size, m, "hits"));
    CK(cuModuleGetGlobal(&scale, &scale_size, m, "scale"));
    TRUE(hits_size == 4 && scale_size == 4);
    float s = 0;
    CK(cuMemcpyDtoH(&s, scale, 4));
    TRUE(s == 2.0f);
    CUstream stream;
    CUevent e0, e1;
    CK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    CK(cuEventCreate(&e0, 0));
    CK(cuEventCreate(&e1, 0));
    float a = 3.0f;
    int n = N;
    void *args[] = { &a, &dx, &dy, &n };
    CK(cuEventRecord(e0, stream));
    CK(cuLaunchKernel(saxpy, (N + 255) / 256, 1, 1, 256, 1, 1, 0, stream, args, NULL));
    CK(cuEventRecord(e1, stream));
    CK(cuStreamSynchronize(stream));
    float ms = -1;
    CK(cuEventElapsedTime(&ms, e0, e1));
    TRUE(ms >= 0);
    CK(cuMemcpyDtoHAsync(y, dy, sizeof y, stream));
    CK(cuStreamSynchronize(stream));
    TRUE(!memcmp(y, want, sizeof y));
    int h = 0;
    CK(cuMemcpyDtoH(&h, hits, 4));
    TRUE(h == N);
    /* cuLaunchKernelEx with cuda.h's CUlaunchConfig and CUlaunchAttribute: a completion event */
    CUlaunchAttribute attrs[2];
    memset(attrs, 0, sizeof attrs);
    attrs[0].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
    attrs[0].value.priority = -1;
    attrs[1].id = CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT;
    attrs[1].value.launchCompletionEvent.event = e1;
    CUlaunchConfig config = { (N + 255) / 256, 1, 1, 256, 1, 1, 0, stream, attrs, 2 };
    CK(cuEventRecord(e0, stream));
    CK(cuLaunchKernelEx(&config, saxpy, args, NULL));
    CK(cuEventElapsedTime(&ms, e0, e1));
    CK(cuMemcpyDtoH(&h, hits, 4));
    TRUE(h == 2 * N);
    /* a cooperative launch (every block runs together) runs; one larger than the device keeps
     * resident is refused: 256 threads a block, 8 a multiprocessor, cuDeviceGetAttribute's count */
    attrs[0].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    attrs[0].value.cooperative = 1;
    CK(cuLaunchKernelEx(&config, saxpy, args, NULL));
    CK(cuMemcpyDtoH(&h, hits, 4));
    TRUE(h == 3 * N);
    int sms, per_sm;
    CK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
    CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, saxpy, 256, 0));
    config.gridDimX = (unsigned)(sms * per_sm + 1);
    EXPECT(cuLaunchKernelEx(&config, saxpy, args, NULL), CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
    config.gridDimX = (N + 255) / 256;
    /* cuda.h's CUDA_MEMCPY2D and CUDA_MEMCPY3D */
    CUdeviceptr pitched;
    size_t pitch;
    CK(cuMemAllocPitch(&pitched, &pitch, 40, 8, 4));
    CK(cuMemsetD32(pitched, 0, pitch * 8 / 4));
    CUDA_MEMCPY2D c2;
    memset(&c2, 0, sizeof c2);
    c2.srcMemoryType = CU_MEMORYTYPE_HOST;
    c2.srcHost = y;
    c2.srcPitch = 40;
    c2.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c2.dstDevice = pitched;
    c2.dstPitch = pitch;
    c2.dstY = 1;
    c2.WidthInBytes = 40;
    c2.Height = 5;
    CK(cuMemcpy2D(&c2));
    float row[10];
    CK(cuMemcpyDtoH(row, pitched + pitch * 3, 40));
    TRUE(!memcmp(row, &y[20], 40));
    CUDA_MEMCPY3D c3;
    memset(&c3, 0, sizeof c3);
    c3.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c3.srcDevice = pitched;
    c3.srcPitch = pitch;
    c3.srcHeight = 4;
    c3.srcZ = 1;
    c3.dstMemoryType = CU_MEMORYTYPE_HOST;
    c3.dstHost = x;
    c3.dstPitch = 40;
    c3.dstHeight = 2;
    c3.WidthInBytes = 40;
    c3.Height = 2;
    c3.Depth = 1;
    CK(cuMemcpy3D(&c3));                             /* rows 4 and 5 of the pitched copy */
    TRUE(!memcmp(x, &y[30], 80));
    /* pointers, registered memory, managed memory's hints */
    CUcontext owner = NULL;
    CK(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, dx));
    TRUE(owner == c);
    static int mine[16];
    CUdeviceptr mine_d;
    CK(cuMemHostRegister(mine, sizeof mine, 0));
    CK(cuMemHostGetDevicePointer(&mine_d, mine, 0));
    CK(cuMemsetD32(mine_d, 7, 16));
    TRUE(mine[15] == 7);
    CK(cuMemHostUnregister(mine));
    CUdeviceptr managed;
    CK(cuMemAllocManaged(&managed, 4096, CU_MEM_ATTACH_GLOBAL));
    CUmemLocation here = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
    CK(cuMemAdvise(managed, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, here));
    CK(cuMemPrefetchAsync(managed, 4096, here, 0, stream));
    CK(cuMemFree(managed));
    /* a link of one PTX input */
    CUlinkState link;
    void *image;
    size_t image_size;
    CUmodule linked;
    CK(cuLinkCreate(0, NULL, NULL, &link));
    CK(cuLinkAddData(link, CU_JIT_INPUT_PTX, ptx, strlen(ptx) + 1, "kernels.ptx", 0, NULL, NULL));
    CK(cuLinkComplete(link, &image, &image_size));
    CK(cuModuleLoadData(&linked, image));
    CK(cuLinkDestroy(link));
    CK(cuModuleUnload(linked));
    /* a stray store: the context's sticky error from then on */
    CUdeviceptr p;
    CK(cuMemAlloc(&p, 16));
    void *stray_args[] = { &p };
    CK(cuLaunchKernel(stray, 1, 1, 1, 2, 1, 1, 0, NULL, stray_args, NULL));
    EXPECT(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    EXPECT(cuMemAlloc(&p, 16), CUDA_ERROR_ILLEGAL_ADDRESS);
    EXPECT(cuStreamSynchronize(stream), CUDA_ERROR_ILLEGAL_ADDRESS);
    CK(cuStreamDestroy(stream));
    CK(cuEventDestroy(e0));
    CK(cuEventDestroy(e1));
    CK(cuCtxDestroy(c));
    CUcontext primary;
    CK(cuDevicePrimaryCtxRetain(&primary, d));
    CK(cuDevicePrimaryCtxRelease(d));
    printf("%s: %d failure%s\n", argv[0], failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
