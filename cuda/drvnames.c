/* drvnames.c: the plain names of calls cuda.h maps to a _v2 (cuCtxDestroy -> cuCtxDestroy_v2)
 * whose ABI is the _v2's (a program that looks a call up by name, with dlsym, may ask for either).
 * Names whose first version took 32-bit sizes or pointers (cuMemAlloc, cuMemcpyHtoD, ...) are not
 * given: a caller of those would be handed the wrong ABI. And the per-thread default stream's
 * names of the calls on streams (_ptds, _ptsz). Requires: cudrv.h. */
#include "cudrv.h"

CUDRV_API CUresult cuCtxDestroy(CUcontext ctx);
CUDRV_API CUresult cuCtxPushCurrent(CUcontext ctx);
CUDRV_API CUresult cuCtxPopCurrent(CUcontext *ctx);
CUDRV_API CUresult cuStreamDestroy(CUstream stream);
CUDRV_API CUresult cuEventDestroy(CUevent event);
CUDRV_API CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end);
CUDRV_API CUresult cuDevicePrimaryCtxRelease(CUdevice dev);
CUDRV_API CUresult cuDevicePrimaryCtxReset(CUdevice dev);
CUDRV_API CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned flags);
CUDRV_API CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUDRV_API CUresult cuMemHostRegister(void *p, size_t bytes, unsigned flags);
CUDRV_API CUresult cuLinkCreate(unsigned count, CUjit_option *options, void **values, CUlinkState *state);
CUDRV_API CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                                 unsigned count, CUjit_option *options, void **values);
CUDRV_API CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path, unsigned count,
                                 CUjit_option *options, void **values);

CUresult cuCtxDestroy(CUcontext ctx) { return cuCtxDestroy_v2(ctx); }
CUresult cuCtxPushCurrent(CUcontext ctx) { return cuCtxPushCurrent_v2(ctx); }
CUresult cuCtxPopCurrent(CUcontext *ctx) { return cuCtxPopCurrent_v2(ctx); }
CUresult cuStreamDestroy(CUstream stream) { return cuStreamDestroy_v2(stream); }
CUresult cuEventDestroy(CUevent event) { return cuEventDestroy_v2(event); }
CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end) { return cuEventElapsedTime_v2(ms, start, end); }
CUresult cuDevicePrimaryCtxRelease(CUdevice dev) { return cuDevicePrimaryCtxRelease_v2(dev); }
CUresult cuDevicePrimaryCtxReset(CUdevice dev) { return cuDevicePrimaryCtxReset_v2(dev); }
CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned flags) { return cuDevicePrimaryCtxSetFlags_v2(dev, flags); }
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev) { return cuDeviceGetUuid_v2(uuid, dev); }
CUresult cuMemHostRegister(void *p, size_t bytes, unsigned flags) { return cuMemHostRegister_v2(p, bytes, flags); }

CUresult cuLinkCreate(unsigned count, CUjit_option *options, void **values, CUlinkState *state)
{
    return cuLinkCreate_v2(count, options, values, state);
}

CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                       unsigned count, CUjit_option *options, void **values)
{
    return cuLinkAddData_v2(state, type, data, size, name, count, options, values);
}

CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path, unsigned count,
                       CUjit_option *options, void **values)
{
    return cuLinkAddFile_v2(state, type, path, count, options, values);
}

/* The names a program built with per-thread default streams (nvcc --default-stream per-thread,
 * CUDA_API_PER_THREAD_DEFAULT_STREAM) calls: _ptds and _ptsz. Every stream runs in order on the
 * host, so the per-thread default stream is the legacy one: the same calls. */
CUDRV_API CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    return cuMemcpy(dst, src, bytes);
}

CUDRV_API CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dst, const void *src, size_t bytes)
{
    return cuMemcpyHtoD_v2(dst, src, bytes);
}

CUDRV_API CUresult cuMemcpyDtoH_v2_ptds(void *dst, CUdeviceptr src, size_t bytes)
{
    return cuMemcpyDtoH_v2(dst, src, bytes);
}

CUDRV_API CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    return cuMemcpyDtoD_v2(dst, src, bytes);
}

CUDRV_API CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *copy)
{
    return cuMemcpy2D_v2(copy);
}

CUDRV_API CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *copy)
{
    return cuMemcpy2DUnaligned_v2(copy);
}

CUDRV_API CUresult cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *copy)
{
    return cuMemcpy3D_v2(copy);
}

CUDRV_API CUresult cuMemsetD8_v2_ptds(CUdeviceptr dst, unsigned char value, size_t count)
{
    return cuMemsetD8_v2(dst, value, count);
}

CUDRV_API CUresult cuMemsetD16_v2_ptds(CUdeviceptr dst, unsigned short value, size_t count)
{
    return cuMemsetD16_v2(dst, value, count);
}

CUDRV_API CUresult cuMemsetD32_v2_ptds(CUdeviceptr dst, unsigned value, size_t count)
{
    return cuMemsetD32_v2(dst, value, count);
}

CUDRV_API CUresult cuMemsetD2D8_v2_ptds(CUdeviceptr dst, size_t pitch, unsigned char value, size_t width,
                                        size_t height)
{
    return cuMemsetD2D8_v2(dst, pitch, value, width, height);
}

CUDRV_API CUresult cuMemsetD2D16_v2_ptds(CUdeviceptr dst, size_t pitch, unsigned short value, size_t width,
                                         size_t height)
{
    return cuMemsetD2D16_v2(dst, pitch, value, width, height);
}

CUDRV_API CUresult cuMemsetD2D32_v2_ptds(CUdeviceptr dst, size_t pitch, unsigned value, size_t width, size_t height)
{
    return cuMemsetD2D32_v2(dst, pitch, value, width, height);
}

CUDRV_API CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream)
{
    return cuMemcpyAsync(dst, src, bytes, stream);
}

CUDRV_API CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dst, const void *src, size_t bytes, CUstream stream)
{
    return cuMemcpyHtoDAsync_v2(dst, src, bytes, stream);
}

CUDRV_API CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dst, CUdeviceptr src, size_t bytes, CUstream stream)
{
    return cuMemcpyDtoHAsync_v2(dst, src, bytes, stream);
}

CUDRV_API CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream)
{
    return cuMemcpyDtoDAsync_v2(dst, src, bytes, stream);
}

CUDRV_API CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *copy, CUstream stream)
{
    return cuMemcpy2DAsync_v2(copy, stream);
}

CUDRV_API CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *copy, CUstream stream)
{
    return cuMemcpy3DAsync_v2(copy, stream);
}

CUDRV_API CUresult cuMemsetD8Async_ptsz(CUdeviceptr dst, unsigned char value, size_t count, CUstream stream)
{
    return cuMemsetD8Async(dst, value, count, stream);
}

CUDRV_API CUresult cuMemsetD16Async_ptsz(CUdeviceptr dst, unsigned short value, size_t count, CUstream stream)
{
    return cuMemsetD16Async(dst, value, count, stream);
}

CUDRV_API CUresult cuMemsetD32Async_ptsz(CUdeviceptr dst, unsigned value, size_t count, CUstream stream)
{
    return cuMemsetD32Async(dst, value, count, stream);
}

CUDRV_API CUresult cuMemsetD2D8Async_ptsz(CUdeviceptr dst, size_t pitch, unsigned char value, size_t width,
                                          size_t height, CUstream stream)
{
    return cuMemsetD2D8Async(dst, pitch, value, width, height, stream);
}

CUDRV_API CUresult cuMemsetD2D16Async_ptsz(CUdeviceptr dst, size_t pitch, unsigned short value, size_t width,
                                           size_t height, CUstream stream)
{
    return cuMemsetD2D16Async(dst, pitch, value, width, height, stream);
}

CUDRV_API CUresult cuMemsetD2D32Async_ptsz(CUdeviceptr dst, size_t pitch, unsigned value, size_t width,
                                           size_t height, CUstream stream)
{
    return cuMemsetD2D32Async(dst, pitch, value, width, height, stream);
}

CUDRV_API CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr dptr, size_t bytes, CUmemLocation to, unsigned flags,
                                              CUstream stream)
{
    return cuMemPrefetchAsync_v2(dptr, bytes, to, flags, stream);
}

CUDRV_API CUresult cuStreamGetPriority_ptsz(CUstream stream, int *priority)
{
    return cuStreamGetPriority(stream, priority);
}

CUDRV_API CUresult cuStreamGetFlags_ptsz(CUstream stream, unsigned *flags)
{
    return cuStreamGetFlags(stream, flags);
}

CUDRV_API CUresult cuStreamGetCtx_ptsz(CUstream stream, CUcontext *ctx)
{
    return cuStreamGetCtx(stream, ctx);
}

CUDRV_API CUresult cuStreamWaitEvent_ptsz(CUstream stream, CUevent event, unsigned flags)
{
    return cuStreamWaitEvent(stream, event, flags);
}

CUDRV_API CUresult cuStreamAddCallback_ptsz(CUstream stream, CUstreamCallback callback, void *data, unsigned flags)
{
    return cuStreamAddCallback(stream, callback, data, flags);
}

CUDRV_API CUresult cuStreamQuery_ptsz(CUstream stream)
{
    return cuStreamQuery(stream);
}

CUDRV_API CUresult cuStreamSynchronize_ptsz(CUstream stream)
{
    return cuStreamSynchronize(stream);
}

CUDRV_API CUresult cuEventRecord_ptsz(CUevent event, CUstream stream)
{
    return cuEventRecord(event, stream);
}

CUDRV_API CUresult cuLaunchHostFunc_ptsz(CUstream stream, CUhostFn fn, void *data)
{
    return cuLaunchHostFunc(stream, fn, data);
}

CUDRV_API CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned gridX, unsigned gridY, unsigned gridZ,
                                       unsigned blockX, unsigned blockY, unsigned blockZ, unsigned shared_bytes,
                                       CUstream stream, void **params, void **extra)
{
    return cuLaunchKernel(f, gridX, gridY, gridZ, blockX, blockY, blockZ, shared_bytes, stream, params, extra);
}

CUDRV_API CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **params, void **extra)
{
    return cuLaunchKernelEx(config, f, params, extra);
}

CUDRV_API CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned gridX, unsigned gridY, unsigned gridZ,
                                                  unsigned blockX, unsigned blockY, unsigned blockZ,
                                                  unsigned shared_bytes, CUstream stream, void **params)
{
    return cuLaunchCooperativeKernel(f, gridX, gridY, gridZ, blockX, blockY, blockZ, shared_bytes, stream, params);
}
