/* rtdevice.c: the device: how many, which one, its attributes (the driver's, whose numbers
 * cudaDeviceAttr shares), its flags, limits and cache preference, synchronizing and resetting it.
 * Requires: rtstate.c, rterror.c. */
#include "rt.h"

/* The driver started (not the context: counting devices makes none). cuInit fails only on a bad
 * PTXRUN_* setting, which it has named on standard error: the runtime could not start. */
static cudaError_t driver_up(void)
{
    return cuInit(0) == CUDA_SUCCESS ? cudaSuccess : rt_fail(cudaErrorInitializationError);
}

/* The driver's device of a runtime ordinal (cudaErrorInvalidDevice when there is none). */
static cudaError_t device_of(int ordinal, CUdevice *dev)
{
    cudaError_t e = driver_up();
    if (e != cudaSuccess)
        return e;
    int n = 0;
    CUresult r = cuDeviceGetCount(&n);
    if (r != CUDA_SUCCESS)
        return rt_return(r);
    if (ordinal < 0 || ordinal >= n)
        return rt_fail(cudaErrorInvalidDevice);
    return rt_return(cuDeviceGet(dev, ordinal));
}

cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return rt_fail(cudaErrorInvalidValue);
    *count = 0;
    cudaError_t e = driver_up();
    if (e != cudaSuccess)
        return e;
    return rt_return(cuDeviceGetCount(count));
}

cudaError_t cudaSetDevice(int device)
{
    CUdevice dev;
    cudaError_t e = device_of(device, &dev);
    if (e != cudaSuccess)
        return e;
    rt_set_device(device);
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return rt_fail(cudaErrorInvalidValue);
    *device = rt_device();
    return cudaSuccess;
}

cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
    if (flags != 0)
        return rt_fail(cudaErrorInvalidValue);
    cudaError_t e = cudaSetDevice(device);
    if (e == cudaSuccess && deviceFlags)
        e = cudaSetDeviceFlags(deviceFlags);
    return e != cudaSuccess ? e : rt_enter();
}

/* The one device there is (ptxrun's driver has one) fits any properties as well as any could. */
cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    if (!device || !prop)
        return rt_fail(cudaErrorInvalidValue);
    CUdevice dev;
    cudaError_t e = device_of(0, &dev);
    if (e == cudaSuccess)
        *device = 0;
    return e;
}

cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device)
{
    if (!value)
        return rt_fail(cudaErrorInvalidValue);
    CUdevice dev;
    cudaError_t e = device_of(device, &dev);
    if (e != cudaSuccess)
        return e;
    return rt_return(cuDeviceGetAttribute(value, (CUdevice_attribute)attr, dev));
}

cudaError_t cudaDeviceSynchronize(void)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return rt_return(cuCtxSynchronize());
}

cudaError_t cudaDeviceReset(void)
{
    return rt_return(rt_reset());
}

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    if (flags & ~(unsigned)cudaDeviceMask)
        return rt_fail(cudaErrorInvalidValue);
    CUdevice dev;
    cudaError_t e = device_of(rt_device(), &dev);
    if (e != cudaSuccess)
        return e;
    e = rt_return(cuDevicePrimaryCtxSetFlags_v2(dev, flags & ~(unsigned)cudaDeviceMapHost));
    if (e == cudaSuccess)
        rt_set_device_flags(flags);
    return e;
}

/* Mapped host memory is always on (every host allocation is reachable from kernels). */
cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    if (!flags)
        return rt_fail(cudaErrorInvalidValue);
    *flags = rt_device_flags() | cudaDeviceMapHost;
    return cudaSuccess;
}

/* The cache split is a preference with no effect on a host; it is kept and given back. */
static cudaFuncCache cache_preference;

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache cacheConfig)
{
    if ((unsigned)cacheConfig > cudaFuncCachePreferEqual)
        return rt_fail(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        cache_preference = cacheConfig;
    return e;
}

cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *pCacheConfig)
{
    if (!pCacheConfig)
        return rt_fail(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        *pCacheConfig = cache_preference;
    return e;
}

/* The stack a thread has, the printf FIFO and the malloc heap are the driver's (the stack applies
 * to fatbinaries loaded after, which the runtime loads at their first use). The others bind
 * nothing on a host (device-side launches, L2 fetches and persisting lines): kept here, from
 * CUDA's defaults, and given back. */
static size_t other_limits[] = { [cudaLimitDevRuntimeSyncDepth] = 2, [cudaLimitDevRuntimePendingLaunchCount] = 2048,
                                 [cudaLimitMaxL2FetchGranularity] = 64, [cudaLimitPersistingL2CacheSize] = 0 };

static bool driver_limit(cudaLimit limit)
{
    return limit == cudaLimitStackSize || limit == cudaLimitPrintfFifoSize || limit == cudaLimitMallocHeapSize;
}

cudaError_t cudaDeviceGetLimit(size_t *pValue, cudaLimit limit)
{
    if (!pValue)
        return rt_fail(cudaErrorInvalidValue);
    if ((unsigned)limit >= sizeof other_limits / sizeof other_limits[0])
        return rt_fail(cudaErrorUnsupportedLimit);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (driver_limit(limit))
        return rt_return(cuCtxGetLimit(pValue, (CUlimit)limit));
    *pValue = other_limits[limit];
    return cudaSuccess;
}

cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value)
{
    if ((unsigned)limit >= sizeof other_limits / sizeof other_limits[0])
        return rt_fail(cudaErrorUnsupportedLimit);
    if (limit == cudaLimitMaxL2FetchGranularity && value > 128)
        return rt_fail(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (driver_limit(limit))
        return rt_return(cuCtxSetLimit((CUlimit)limit, value));
    other_limits[limit] = value;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    int least = 0, greatest = 0;
    e = rt_return(cuCtxGetStreamPriorityRange(&least, &greatest));
    if (e == cudaSuccess && leastPriority)
        *leastPriority = least;
    if (e == cudaSuccess && greatestPriority)
        *greatestPriority = greatest;
    return e;
}

cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
    if (!pciBusId || len <= 0)
        return rt_fail(cudaErrorInvalidValue);
    CUdevice dev;
    cudaError_t e = device_of(device, &dev);
    return e != cudaSuccess ? e : rt_return(cuDeviceGetPCIBusId(pciBusId, len, dev));
}

cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
    if (!device || !pciBusId)
        return rt_fail(cudaErrorInvalidValue);
    cudaError_t e = driver_up();
    if (e != cudaSuccess)
        return e;
    CUdevice dev;
    e = rt_return(cuDeviceGetByPCIBusId(&dev, pciBusId));
    if (e == cudaSuccess)
        *device = (int)dev;
    return e;
}

/* The devices the runtime may choose from: each must exist; there is one to choose. */
cudaError_t cudaSetValidDevices(int *device_arr, int len)
{
    if (len < 0 || (len > 0 && !device_arr))
        return rt_fail(cudaErrorInvalidValue);
    for (int i = 0; i < len; i++) {
        CUdevice dev;
        cudaError_t e = device_of(device_arr[i], &dev);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

/* Persisting L2 lines: there is no L2 to reset. */
cudaError_t cudaCtxResetPersistingL2Cache(void)
{
    return rt_enter();
}

/* One device: no peer. */
cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    if (!canAccessPeer)
        return rt_fail(cudaErrorInvalidValue);
    CUdevice a, b;
    cudaError_t e = device_of(device, &a);
    if (e == cudaSuccess)
        e = device_of(peerDevice, &b);
    if (e == cudaSuccess)
        *canAccessPeer = 0;
    return e;
}

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return rt_fail(cudaErrorInvalidValue);
    return rt_return(cuDriverGetVersion(driverVersion));
}
