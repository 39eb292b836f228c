/* rtversion.c: what differs between libcudart.so.13 and libcudart.so.12, compiled once for each
 * (RT_CUDART_VERSION, set by the Makefile): the version cudaRuntimeGetVersion gives, 13000 (CUDA
 * 13.0) or 12080 (CUDA 12.8, the last 12.x whose ABI the .12 library follows). Which layout of
 * cudaDeviceProp each library gives is chosen by its version script (cuda/libcudart.map). */
#include "rt.h"

#ifndef RT_CUDART_VERSION
#error "RT_CUDART_VERSION must be set: 13000 or 12080"
#endif

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (!runtimeVersion)
        return rt_fail(cudaErrorInvalidValue);
    *runtimeVersion = RT_CUDART_VERSION;
    return cudaSuccess;
}
