/* rtversion.c: what differs between libcudart.so.13 and libcudart.so.12, compiled once for each
 * (RT_CUDART_VERSION, set by the Makefile): the version cudaRuntimeGetVersion gives, 13000 (CUDA
 * 13.0) or 12080 (CUDA 12.8, the 12.x whose ABI the .12 library follows), and the calls whose
 * parameters changed: CUDA 12's cudaMemPrefetchAsync and cudaMemAdvise name a device (-1: the
 * host), its _v2 and CUDA 13's plain names a location. Which layout of cudaDeviceProp each library
 * gives is chosen by its version script (cuda/libcudart.map). Requires: rtstate.c, rterror.c. */
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

/* Managed memory is where the host and the kernels both reach it: the driver checks the range
 * and moves nothing. */
static cudaError_t prefetch(const void *devPtr, size_t count, struct cudaMemLocation to, unsigned flags,
                            cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    CUmemLocation where = { (CUmemLocationType)to.type, to.id };
    return rt_return(cuMemPrefetchAsync_v2((CUdeviceptr)(uintptr_t)devPtr, count, where, flags, rt_stream(stream)));
}

static cudaError_t advise(const void *devPtr, size_t count, int advice, struct cudaMemLocation to)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    CUmemLocation where = { (CUmemLocationType)to.type, to.id };
    return rt_return(cuMemAdvise_v2((CUdeviceptr)(uintptr_t)devPtr, count, (CUmem_advise)advice, where));
}

#if RT_CUDART_VERSION >= 13000
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned int flags,
                                 cudaStream_t stream)
{
    return prefetch(devPtr, count, location, flags, stream);
}

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice, struct cudaMemLocation location)
{
    return advise(devPtr, count, advice, location);
}
#else
/* CUDA 12's device ordinal as a location: cudaCpuDeviceId (-1) is the host. */
static struct cudaMemLocation location_of(int device)
{
    return device == -1 ? (struct cudaMemLocation){ cudaMemLocationTypeHost, 0 }
                        : (struct cudaMemLocation){ cudaMemLocationTypeDevice, device };
}

RT_API cudaError_t cudaMemPrefetchAsync_v2(const void *devPtr, size_t count, struct cudaMemLocation location,
                                           unsigned int flags, cudaStream_t stream);
RT_API cudaError_t cudaMemAdvise_v2(const void *devPtr, size_t count, int advice, struct cudaMemLocation location);

cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream)
{
    return prefetch(devPtr, count, location_of(dstDevice), 0, stream);
}

cudaError_t cudaMemPrefetchAsync_v2(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned int flags,
                                    cudaStream_t stream)
{
    return prefetch(devPtr, count, location, flags, stream);
}

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice, int device)
{
    return advise(devPtr, count, advice, location_of(device));
}

cudaError_t cudaMemAdvise_v2(const void *devPtr, size_t count, int advice, struct cudaMemLocation location)
{
    return advise(devPtr, count, advice, location);
}

/* CUDA 12 still had the thread-named forms of the device calls (removed in 13) and the shared
 * memory bank configuration (a preference with no effect on a host: checked and kept). */
RT_API cudaError_t cudaThreadSynchronize(void);
RT_API cudaError_t cudaThreadExit(void);
RT_API cudaError_t cudaThreadGetLimit(size_t *pValue, cudaLimit limit);
RT_API cudaError_t cudaThreadSetLimit(cudaLimit limit, size_t value);
RT_API cudaError_t cudaThreadGetCacheConfig(cudaFuncCache *pCacheConfig);
RT_API cudaError_t cudaThreadSetCacheConfig(cudaFuncCache cacheConfig);
RT_API cudaError_t cudaDeviceGetSharedMemConfig(int *pConfig);
RT_API cudaError_t cudaDeviceSetSharedMemConfig(int config);
RT_API cudaError_t cudaFuncSetSharedMemConfig(const void *func, int config);

cudaError_t cudaThreadSynchronize(void)
{
    return cudaDeviceSynchronize();
}

cudaError_t cudaThreadExit(void)
{
    return cudaDeviceReset();
}

cudaError_t cudaThreadGetLimit(size_t *pValue, cudaLimit limit)
{
    return cudaDeviceGetLimit(pValue, limit);
}

cudaError_t cudaThreadSetLimit(cudaLimit limit, size_t value)
{
    return cudaDeviceSetLimit(limit, value);
}

cudaError_t cudaThreadGetCacheConfig(cudaFuncCache *pCacheConfig)
{
    return cudaDeviceGetCacheConfig(pCacheConfig);
}

cudaError_t cudaThreadSetCacheConfig(cudaFuncCache cacheConfig)
{
    return cudaDeviceSetCacheConfig(cacheConfig);
}

static int bank_config;     /* cudaSharedMemBankSizeDefault (0), FourByte (1), EightByte (2) */

cudaError_t cudaDeviceGetSharedMemConfig(int *pConfig)
{
    if (!pConfig)
        return rt_fail(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        *pConfig = bank_config;
    return e;
}

cudaError_t cudaDeviceSetSharedMemConfig(int config)
{
    if (config < 0 || config > 2)
        return rt_fail(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        bank_config = config;
    return e;
}

cudaError_t cudaFuncSetSharedMemConfig(const void *func, int config)
{
    if (config < 0 || config > 2)
        return rt_fail(cudaErrorInvalidValue);
    struct cudaFuncAttributes attr;
    return cudaFuncGetAttributes(&attr, func);
}
#endif

/* The per-thread default stream's names (rt.h). */
RT_SAME_AS(cudaMemPrefetchAsync_ptsz, cudaMemPrefetchAsync)
