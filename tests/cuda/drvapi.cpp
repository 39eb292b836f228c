// drvapi.cpp: the driver API as the *Drv samples and PTX-loading libraries use it: cuInit, the
// device and its attributes, a context, cuModuleLoadData of PTX text written here, a kernel and a
// .global variable by name, memory, cuLaunchKernel with kernelParams and with the `extra` buffer,
// cuLinkCreate/cuLinkAddData/cuLinkComplete of the same PTX, and the errors a bad PTX, a missing
// name and a bad launch give. Host code only (nvcc -cudart none, linked against libcuda.so.1 alone).
#include <cuda.h>
#include <stdio.h>
#include <string.h>

static int passed, failed;
#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (cond) {                                                            \
            passed++;                                                          \
            printf("PASS ");                                                   \
        } else {                                                               \
            failed++;                                                          \
            printf("FAIL ");                                                   \
        }                                                                      \
        printf(__VA_ARGS__);                                                   \
        printf("\n");                                                          \
    } while (0)
#define CHECK_RES(call, want)                                                  \
    do {                                                                       \
        CUresult r_ = (call);                                                  \
        const char *name_ = "?";                                               \
        cuGetErrorName(r_, &name_);                                            \
        CHECK(r_ == (want), "%s -> %s", #call, name_);                         \
    } while (0)
#define CHECK_CU(call) CHECK_RES(call, CUDA_SUCCESS)

// y[i] = a * x[i] + bias for i < n; bias is the module's .global variable.
static const char ptx[] =
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".global .align 4 .f32 bias = 0f3F000000;\n"            // 0.5
    ".visible .entry scale_add(.param .u64 y, .param .u64 x, .param .f32 a, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p;\n"
    "  .reg .b32 %i, %n, %t, %c, %d;\n"
    "  .reg .f32 %a, %xv, %b, %r;\n"
    "  .reg .b64 %y, %x, %off;\n"
    "  ld.param.u64 %y, [y];\n"
    "  ld.param.u64 %x, [x];\n"
    "  ld.param.f32 %a, [a];\n"
    "  ld.param.u32 %n, [n];\n"
    "  mov.u32 %t, %tid.x;\n"
    "  mov.u32 %c, %ctaid.x;\n"
    "  mov.u32 %d, %ntid.x;\n"
    "  mad.lo.u32 %i, %c, %d, %t;\n"
    "  setp.ge.u32 %p, %i, %n;\n"
    "  @%p bra done;\n"
    "  cvta.to.global.u64 %y, %y;\n"
    "  cvta.to.global.u64 %x, %x;\n"
    "  mul.wide.u32 %off, %i, 4;\n"
    "  add.u64 %x, %x, %off;\n"
    "  add.u64 %y, %y, %off;\n"
    "  ld.global.f32 %xv, [%x];\n"
    "  ld.global.f32 %b, [bias];\n"
    "  mul.rn.f32 %r, %a, %xv;\n"
    "  add.rn.f32 %r, %r, %b;\n"
    "  st.global.f32 [%y], %r;\n"
    "done:\n"
    "  ret;\n"
    "}\n";

int main(void)
{
    enum { N = 200 };
    CHECK_CU(cuInit(0));
    int count = 0;
    CHECK_CU(cuDeviceGetCount(&count));
    CHECK(count == 1, "one device (%d)", count);
    CUdevice device;
    CHECK_CU(cuDeviceGet(&device, 0));
    char name[256] = "";
    CHECK_CU(cuDeviceGetName(name, sizeof name, device));
    CHECK(name[0] != 0, "a device name");
    int major = 0, minor = -1, warp = 0;
    CHECK_CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
    CHECK_CU(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device));
    CHECK_CU(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, device));
    printf("device: compute capability %d.%d\n", major, minor);
    CHECK(warp == 32, "warp size %d", warp);
    CUcontext context;
    CHECK_CU(cuCtxCreate(&context, NULL, 0, device));

    CUmodule module;
    CHECK_CU(cuModuleLoadData(&module, ptx));
    CUfunction kernel;
    CHECK_CU(cuModuleGetFunction(&kernel, module, "scale_add"));
    CUfunction missing;
    CHECK_RES(cuModuleGetFunction(&missing, module, "no_such_kernel"), CUDA_ERROR_NOT_FOUND);
    CUdeviceptr bias;
    size_t bias_size = 0;
    CHECK_CU(cuModuleGetGlobal(&bias, &bias_size, module, "bias"));
    CHECK(bias_size == 4, "cuModuleGetGlobal: size %zu", bias_size);
    float bias_value = 0;
    CHECK_CU(cuMemcpyDtoH(&bias_value, bias, sizeof bias_value));
    CHECK(bias_value == 0.5f, "the variable's initializer: %g", bias_value);

    float x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)i - 100.0f;
    CUdeviceptr dx, dy;
    CHECK_CU(cuMemAlloc(&dx, sizeof x));
    CHECK_CU(cuMemAlloc(&dy, sizeof y));
    CHECK_CU(cuMemcpyHtoD(dx, x, sizeof x));
    CHECK_CU(cuMemsetD32(dy, 0, N));
    float a = 3.0f;
    unsigned n = N;
    void *params[] = { &dy, &dx, &a, &n };
    CHECK_CU(cuLaunchKernel(kernel, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, params, NULL));
    CHECK_CU(cuCtxSynchronize());
    CHECK_CU(cuMemcpyDtoH(y, dy, sizeof y));
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += y[i] != 3.0f * x[i] + 0.5f;
    CHECK(wrong == 0, "cuLaunchKernel with kernelParams (%d wrong)", wrong);

    float new_bias = -4.0f;
    CHECK_CU(cuMemcpyHtoD(bias, &new_bias, sizeof new_bias));
    struct {
        CUdeviceptr y, x;
        float a;
        unsigned n;
    } packed = { dy, dx, -1.0f, N };
    size_t packed_size = sizeof packed;
    void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &packed_size,
                      CU_LAUNCH_PARAM_END };
    CHECK_CU(cuLaunchKernel(kernel, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, NULL, extra));
    CHECK_CU(cuCtxSynchronize());
    CHECK_CU(cuMemcpyDtoH(y, dy, sizeof y));
    wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += y[i] != -x[i] - 4.0f;
    CHECK(wrong == 0, "cuLaunchKernel with the extra buffer, the variable written by cuMemcpyHtoD (%d wrong)", wrong);

    CHECK_RES(cuLaunchKernel(kernel, 1, 1, 1, 2048, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);

    CUmodule bad;
    CHECK_RES(cuModuleLoadData(&bad, ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k() { frob; }\n"),
              CUDA_ERROR_INVALID_PTX);

    CUlinkState link;
    void *cubin = NULL;
    size_t cubin_size = 0;
    CHECK_CU(cuLinkCreate(0, NULL, NULL, &link));
    CHECK_CU(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)ptx, sizeof ptx, "scale_add.ptx", 0, NULL, NULL));
    CHECK_CU(cuLinkComplete(link, &cubin, &cubin_size));
    CUmodule linked;
    CHECK_CU(cuModuleLoadData(&linked, cubin));
    CUfunction linked_kernel;
    CHECK_CU(cuModuleGetFunction(&linked_kernel, linked, "scale_add"));
    a = 2.0f;
    CHECK_CU(cuLaunchKernel(linked_kernel, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, params, NULL));
    CHECK_CU(cuMemcpyDtoH(y, dy, sizeof y));
    wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += y[i] != 2.0f * x[i] + 0.5f;
    CHECK(wrong == 0, "a module from cuLinkComplete, with its own variable (%d wrong)", wrong);
    CHECK_CU(cuLinkDestroy(link));
    CHECK_CU(cuModuleUnload(linked));

    CHECK_CU(cuMemFree(dx));
    CHECK_CU(cuMemFree(dy));
    CHECK_CU(cuModuleUnload(module));
    CHECK_CU(cuCtxDestroy(context));
    printf("drvapi: %d passed, %d failed\n", passed, failed);
    return failed != 0 || passed == 0;
}
