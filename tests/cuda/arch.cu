// arch.cu: which PTX the runtime chose. Built with PTX for compute_80 and compute_90 only (no
// cubin): a device of compute capability 9.0 or more must run the compute_90 PTX
// (__CUDA_ARCH__ 900), one of 8.x the compute_80 PTX (800), and an older one has no image
// (cudaErrorNoKernelImageForDevice at the launch), as the CUDA driver chooses.
#include "check.h"
#include <string.h>

__global__ void which_arch(int *out)
{
#ifdef __CUDA_ARCH__
    *out = __CUDA_ARCH__;
#endif
}

int main(void)
{
    cudaDeviceProp prop;
    memset(&prop, 0, sizeof prop);
    CHECK_OK(cudaGetDeviceProperties(&prop, 0));
    int cc = prop.major * 10 + prop.minor;
    printf("device: compute capability %d.%d\n", prop.major, prop.minor);
    int *d, got = -1;
    CHECK_OK(cudaMalloc(&d, sizeof(int)));
    CHECK_OK(cudaMemset(d, 0, sizeof(int)));
    which_arch<<<1, 1>>>(d);
    cudaError_t launch = cudaGetLastError();
    if (cc < 80) {
        CHECK(launch == cudaErrorNoKernelImageForDevice, "no PTX for compute capability %d: %s", cc,
              cudaGetErrorName(launch));
        CHECK_OK(cudaDeviceSynchronize());
    } else {
        int want = cc >= 90 ? 900 : 800;
        CHECK(launch == cudaSuccess, "launch: %s", cudaGetErrorName(launch));
        CHECK_OK(cudaMemcpy(&got, d, sizeof got, cudaMemcpyDeviceToHost));
        printf("__CUDA_ARCH__ %d\n", got);
        CHECK(got == want, "the compute_%d PTX ran on compute capability %d (__CUDA_ARCH__ %d)", want / 10, cc, got);
    }
    CHECK_OK(cudaFree(d));
    return check_report("arch");
}
