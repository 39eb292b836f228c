/* rtunsupported.c: the runtime calls that need no device (cudaCreateChannelDesc), the hints that
 * change nothing on a host (the profiler's range, no stream ever captured), and the calls ptxrun does not do yet: each says so by name on the report
 * stream and returns cudaErrorNotSupported, never a silent success. Their parameters are not read,
 * so each is defined without them (the caller's arguments are ignored, which the C calling
 * convention allows). Requires: rterror.c. */
#include "rt.h"

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f)
{
    return (struct cudaChannelFormatDesc){ x, y, z, w, f };
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

/* The per-thread default stream's names (rt.h). */
RT_SAME_AS(cudaStreamIsCapturing_ptsz, cudaStreamIsCapturing)

/* Each name, once: RT_REFUSED(call, why). */
#define RT_REFUSED_CALLS(X) \
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
    X(cudaGraphUpload_ptsz, "graphs") \
    X(cudaGraphLaunch_ptsz, "graphs") \
    X(cudaStreamBeginCapture_ptsz, "stream capture and graphs") \
    X(cudaStreamEndCapture_ptsz, "stream capture and graphs") \
    X(cudaStreamGetCaptureInfo_ptsz, "stream capture and graphs") \
    X(cudaStreamGetAttribute_ptsz, "stream attributes") \
    X(cudaMemcpy2DToArray_ptds, "CUDA arrays") \
    X(cudaMemcpy2DFromArray_ptds, "CUDA arrays") \
    X(cudaMemcpy2DToArrayAsync_ptsz, "CUDA arrays") \
    X(cudaMemcpy2DFromArrayAsync_ptsz, "CUDA arrays") \
    X(cudaMemcpyToArray_ptds, "CUDA arrays") \
    X(cudaMemcpyFromArray_ptds, "CUDA arrays") \
    X(cudaMallocFromPoolAsync_ptsz, "memory pools") \
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
    X(cudaMemPoolSetAccess, "memory pools") \
    X(cudaMemPoolGetAccess, "memory pools") \
    X(cudaDeviceSetMemPool, "memory pools") \
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
