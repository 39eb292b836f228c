/* drvnames.c: the plain names of calls cuda.h maps to a _v2 (cuCtxDestroy -> cuCtxDestroy_v2)
 * whose ABI is the _v2's (a program that looks a call up by name, with dlsym, may ask for either).
 * Names whose first version took 32-bit sizes or pointers (cuMemAlloc, cuMemcpyHtoD, ...) are not
 * given: a caller of those would be handed the wrong ABI. Requires: cudrv.h. */
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
