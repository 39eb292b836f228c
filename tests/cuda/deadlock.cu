// deadlock.cu: kernels that never finish on a GPU; the program must see an error, not hang.
//   deadlock barrier   warp 0 waits at __syncthreads (barrier 0) while warp 1 waits at the named
//                      barrier 1 for both warps: neither can ever go on
//   deadlock spin      one thread spins on a flag that nothing ever sets
// Either way cudaDeviceSynchronize gives cudaErrorLaunchTimeout, as a GPU's watchdog would, and
// standard error names the kernel.
#include "check.h"
#include <string.h>

__global__ void two_barriers(int *out)
{
    if (threadIdx.x < 32)
        __syncthreads();
    else
        asm volatile("bar.sync 1, 64;");
    out[threadIdx.x] = 1;
}

__global__ void spin(volatile int *flag, int *out)
{
    while (*flag == 0)
        ;
    out[threadIdx.x] = 1;
}

int main(int argc, char **argv)
{
    int barrier = argc > 1 && !strcmp(argv[1], "barrier");
    int *flag, *out;
    CHECK_OK(cudaMalloc(&flag, sizeof(int)));
    CHECK_OK(cudaMalloc(&out, 64 * sizeof(int)));
    CHECK_OK(cudaMemset(flag, 0, sizeof(int)));
    if (barrier)
        two_barriers<<<1, 64>>>(out);
    else
        spin<<<1, 1>>>(flag, out);
    cudaError_t launch = cudaGetLastError();
    CHECK(launch == cudaSuccess || launch == cudaErrorLaunchTimeout, "the launch itself: %s",
          cudaGetErrorName(launch));
    CHECK_ERR(cudaDeviceSynchronize(), cudaErrorLaunchTimeout);
    return check_report(barrier ? "deadlock barrier" : "deadlock spin");
}
