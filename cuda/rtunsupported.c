/* rtunsupported.c: the runtime calls that need no device (cudaCreateChannelDesc), the hints that
 * change nothing when device memory is host memory (prefetching and advice on managed memory, the
 * profiler's range), and the calls ptxrun does not do yet: each says so by name on the report
 * stream and returns cudaErrorNotSupported, never a silent success. Their parameters are not read,
 * so each is defined without them (the caller's arguments are ignored, which the C calling
 * convention allows). Requires: rterror.c. */
#include "rt.h"

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f)
{
    return (struct cudaChannelFormatDesc){ x, y, z, w, f };
}

/* Managed memory is where the host and the kernels both reach it: nothing to move. location is
 * CUDA 13's struct cudaMemLocation (8 bytes, by value) or CUDA 12's device ordinal. */
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, uint64_t location, unsigned int flags,
                                 cudaStream_t stream)
{
    (void)location, (void)flags, (void)stream;
    if (!devPtr || count == 0)
        return rt_fail(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice, uint64_t location)
{
    (void)location;
    if (!devPtr || count == 0 || advice < 1 || advice > 6)
        return rt_fail(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaProfilerStart(void)
{
    return cudaSuccess;
}

cudaError_t cudaProfilerStop(void)
{
    return cudaSuccess;
}

/* No stream is ever being captured (capture is not supported): the answer is "none" (0), and the
 * thread's capture mode is kept and given back. */
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, int *pCaptureStatus)
{
    (void)stream;
    if (!pCaptureStatus)
        return rt_fail(cudaErrorInvalidValue);
    *pCaptureStatus = 0;
    return cudaSuccess;
}

static _Thread_local int capture_mode;

cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode)
{
    if (!mode || (unsigned)*mode > 2)
        return rt_fail(cudaErrorInvalidValue);
    int old = capture_mode;
    capture_mode = *mode;
    *mode = old;
    return cudaSuccess;
}

/* Each name, once: RT_REFUSED(call, why). */
#define RT_REFUSED_CALLS(X) \
    X(cudaStreamGetPriority, "a stream's priority (the driver keeps none to give back)") \
    X(cudaMallocArray, "CUDA arrays") \
    X(cudaMalloc3DArray, "CUDA arrays") \
    X(cudaMallocMipmappedArray, "CUDA arrays") \
    X(cudaFreeArray, "CUDA arrays") \
    X(cudaFreeMipmappedArray, "CUDA arrays") \
    X(cudaArrayGetInfo, "CUDA arrays") \
    X(cudaMemcpyToArray, "CUDA arrays") \
    X(cudaMemcpyFromArray, "CUDA arrays") \
    X(cudaMemcpy2DToArray, "CUDA arrays") \
    X(cudaMemcpy2DFromArray, "CUDA arrays") \
    X(cudaMemcpy2DToArrayAsync, "CUDA arrays") \
    X(cudaMemcpy2DFromArrayAsync, "CUDA arrays") \
    X(cudaMemcpy2DArrayToArray, "CUDA arrays") \
    X(cudaMemcpyArrayToArray, "CUDA arrays") \
    X(cudaCreateTextureObject, "texture objects") \
    X(cudaDestroyTextureObject, "texture objects") \
    X(cudaGetTextureObjectResourceDesc, "texture objects") \
    X(cudaCreateSurfaceObject, "surface objects") \
    X(cudaDestroySurfaceObject, "surface objects") \
    X(cudaGetChannelDesc, "CUDA arrays") \
    X(cudaStreamBeginCapture, "stream capture and graphs") \
    X(cudaStreamEndCapture, "stream capture and graphs") \
    X(cudaGraphCreate, "graphs") \
    X(cudaGraphInstantiate, "graphs") \
    X(cudaGraphInstantiateWithFlags, "graphs") \
    X(cudaGraphLaunch, "graphs") \
    X(cudaGraphUpload, "graphs") \
    X(cudaStreamGetAttribute, "stream attributes") \
    X(cudaGraphDestroy, "graphs") \
    X(cudaGraphExecDestroy, "graphs") \
    X(cudaGraphAddKernelNode, "graphs") \
    X(cudaGraphAddMemcpyNode, "graphs") \
    X(cudaGraphAddMemsetNode, "graphs") \
    X(cudaGraphAddHostNode, "graphs") \
    X(cudaGraphAddDependencies, "graphs") \
    X(cudaGraphGetNodes, "graphs") \
    X(cudaDeviceEnablePeerAccess, "peer access (one device)") \
    X(cudaDeviceDisablePeerAccess, "peer access (one device)") \
    X(cudaIpcGetMemHandle, "interprocess memory") \
    X(cudaIpcOpenMemHandle, "interprocess memory") \
    X(cudaIpcCloseMemHandle, "interprocess memory") \
    X(cudaIpcGetEventHandle, "interprocess events") \
    X(cudaIpcOpenEventHandle, "interprocess events") \
    X(cudaLaunchCooperativeKernelMultiDevice, "multi-device cooperative launches") \
    X(cudaMemPoolCreate, "memory pools") \
    X(cudaMemPoolDestroy, "memory pools") \
    X(cudaMallocFromPoolAsync, "memory pools") \
    X(cudaDeviceGetDefaultMemPool, "memory pools") \
    X(cudaDeviceGetMemPool, "memory pools") \
    X(cudaMemPoolSetAttribute, "memory pools") \
    X(cudaMemPoolGetAttribute, "memory pools") \
    X(cudaMemPoolTrimTo, "memory pools") \
    X(cudaImportExternalMemory, "external memory") \
    X(cudaImportExternalSemaphore, "external semaphores") \
    X(cudaGraphicsMapResources, "graphics interop") \
    X(cudaGraphicsUnmapResources, "graphics interop") \
    X(cudaGraphicsUnregisterResource, "graphics interop") \
    X(cudaGraphicsResourceGetMappedPointer, "graphics interop") \
    X(cudaStreamGetCaptureInfo, "stream capture and graphs") \
    X(cudaUserObjectCreate, "graphs") \
    X(cudaLibraryLoadData, "libraries (cudaLibrary_t)") \
    X(cudaLibraryGetKernel, "libraries (cudaLibrary_t)")

#define RT_REFUSED(call, why) \
    RT_API cudaError_t call(void); \
    cudaError_t call(void) { return rt_not_supported(#call, why); }
RT_REFUSED_CALLS(RT_REFUSED)
