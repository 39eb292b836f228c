/* rtunsupported.c: the runtime calls that need no device (cudaCreateChannelDesc), the hints that
 * change nothing on a host (the profiler's range), and the calls ptxrun does not do yet: each says so by name on the report
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
    X(cudaMallocMipmappedArray, "CUDA arrays") \
    X(cudaFreeMipmappedArray, "CUDA arrays") \
    X(cudaMemcpy2DArrayToArray, "CUDA arrays") \
    X(cudaMemcpyArrayToArray, "CUDA arrays") \
    X(cudaDeviceEnablePeerAccess, "peer access (one device)") \
    X(cudaDeviceDisablePeerAccess, "peer access (one device)") \
    X(cudaIpcGetMemHandle, "interprocess memory") \
    X(cudaIpcOpenMemHandle, "interprocess memory") \
    X(cudaIpcCloseMemHandle, "interprocess memory") \
    X(cudaIpcGetEventHandle, "interprocess events") \
    X(cudaIpcOpenEventHandle, "interprocess events") \
    X(cudaLaunchCooperativeKernelMultiDevice, "multi-device cooperative launches") \
    X(cudaMemPoolSetAccess, "memory pools") \
    X(cudaMemPoolGetAccess, "memory pools") \
    X(cudaImportExternalMemory, "external memory") \
    X(cudaImportExternalSemaphore, "external semaphores") \
    X(cudaGraphicsMapResources, "graphics interop") \
    X(cudaGraphicsUnmapResources, "graphics interop") \
    X(cudaGraphicsUnregisterResource, "graphics interop") \
    X(cudaGraphicsResourceGetMappedPointer, "graphics interop") \
    X(cudaUserObjectCreate, "graphs") \
    X(cudaLibraryLoadData, "libraries (cudaLibrary_t)") \
    X(cudaLibraryGetKernel, "libraries (cudaLibrary_t)")

#define RT_REFUSED(call, why) \
    RT_API cudaError_t call(void); \
    cudaError_t call(void) { return rt_not_supported(#call, why); }
RT_REFUSED_CALLS(RT_REFUSED)
