/* rtmemory.c: allocations (device, pinned host, registered host, managed, pitched) and memset,
 * each the driver's call of the same meaning: device memory is host memory the driver keeps a
 * table of, so every kind is reachable from kernels and none but those. Requires: rtstate.c,
 * rterror.c. */
#include "rt.h"

/* The driver's address of a pointer. */
static CUdeviceptr address(const void *p)
{
    return (CUdeviceptr)(uintptr_t)p;
}

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!devPtr)
        return rt_fail(cudaErrorInvalidValue);
    *devPtr = NULL;
    if (size == 0)
        return cudaSuccess;
    CUdeviceptr p = 0;
    CUresult r = cuMemAlloc_v2(&p, size);
    if (r == CUDA_SUCCESS)
        *devPtr = (void *)(uintptr_t)p;
    return rt_return(r);
}

/* cudaFree(NULL) does nothing but make the context (a program's usual way to start CUDA). */
cudaError_t cudaFree(void *devPtr)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess || !devPtr)
        return e;
    return rt_return(cuMemFree_v2(address(devPtr)));
}

/* Stream-ordered allocation: the stream has finished everything before (each runs in order on the
 * host), so it is an allocation now. */
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    e = rt_return(cuStreamSynchronize(rt_stream(stream)));
    return e != cudaSuccess ? e : cudaMalloc(devPtr, size);
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    e = rt_return(cuStreamSynchronize(rt_stream(stream)));
    return e != cudaSuccess ? e : cudaFree(devPtr);
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!ptr)
        return rt_fail(cudaErrorInvalidValue);
    *ptr = NULL;
    return rt_return(cuMemAllocHost_v2(ptr, size));
}

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!pHost || (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined)))
        return rt_fail(cudaErrorInvalidValue);
    *pHost = NULL;
    return rt_return(cuMemHostAlloc(pHost, size, flags));
}

cudaError_t cudaFreeHost(void *ptr)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess || !ptr)
        return e;
    return rt_return(cuMemFreeHost(ptr));
}

cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!pDevice || flags != 0)
        return rt_fail(cudaErrorInvalidValue);
    CUdeviceptr p = 0;
    CUresult r = cuMemHostGetDevicePointer_v2(&p, pHost, 0);
    *pDevice = r == CUDA_SUCCESS ? (void *)(uintptr_t)p : NULL;
    return rt_return(r);
}

cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!pFlags)
        return rt_fail(cudaErrorInvalidValue);
    return rt_return(cuMemHostGetFlags(pFlags, pHost));
}

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return rt_return(cuMemHostRegister_v2(ptr, size, flags));
}

cudaError_t cudaHostUnregister(void *ptr)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return rt_return(cuMemHostUnregister(ptr));
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!devPtr || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
        return rt_fail(cudaErrorInvalidValue);
    *devPtr = NULL;
    CUdeviceptr p = 0;
    CUresult r = cuMemAllocManaged(&p, size, flags);
    if (r == CUDA_SUCCESS)
        *devPtr = (void *)(uintptr_t)p;
    return rt_return(r);
}

/* Pitched memory: the driver chooses the pitch (its rows aligned for any element up to 16 bytes). */
static cudaError_t pitched(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!devPtr || !pitch)
        return rt_fail(cudaErrorInvalidValue);
    *devPtr = NULL;
    *pitch = 0;
    if (width == 0 || height == 0)
        return cudaSuccess;
    CUdeviceptr p = 0;
    CUresult r = cuMemAllocPitch_v2(&p, pitch, width, height, 16);
    if (r == CUDA_SUCCESS)
        *devPtr = (void *)(uintptr_t)p;
    return rt_return(r);
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    return pitched(devPtr, pitch, width, height);
}

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
    if (!pitchedDevPtr)
        return rt_fail(cudaErrorInvalidValue);
    if (extent.depth && extent.height > SIZE_MAX / extent.depth)
        return rt_fail(cudaErrorMemoryAllocation);
    struct cudaPitchedPtr p = { NULL, 0, extent.width, extent.height };
    cudaError_t e = pitched(&p.ptr, &p.pitch, extent.width, extent.height * extent.depth);
    if (e == cudaSuccess)
        *pitchedDevPtr = p;
    return e;
}

cudaError_t cudaMemGetInfo(size_t *free, size_t *total)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!free || !total)
        return rt_fail(cudaErrorInvalidValue);
    return rt_return(cuMemGetInfo_v2(free, total));
}

/* What a GPU says of a pointer: device memory has no host alias (hostPointer NULL), pinned and
 * managed memory both; memory the driver does not know is "unregistered" (no error since CUDA 11):
 * the host's, which no kernel reaches (devicePointer NULL; the device's pageable memory access is 0). */
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!attributes)
        return rt_fail(cudaErrorInvalidValue);
    struct cudaPointerAttributes a = { .type = cudaMemoryTypeUnregistered, .device = -2, .hostPointer = (void *)ptr };
    unsigned type = 0;
    int managed = 0;
    CUresult r = cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, address(ptr));
    if (r == CUDA_SUCCESS)
        r = cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, address(ptr));
    if (r == CUDA_SUCCESS) {
        a.device = rt_device();
        if (managed) {
            a.type = cudaMemoryTypeManaged;
            a.devicePointer = a.hostPointer = (void *)ptr;
        } else if (type == CU_MEMORYTYPE_HOST) {
            CUdeviceptr d = 0;
            a.type = cudaMemoryTypeHost;
            a.hostPointer = (void *)ptr;
            if (cuPointerGetAttribute(&d, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, address(ptr)) == CUDA_SUCCESS)
                a.devicePointer = (void *)(uintptr_t)d;
        } else {
            a.type = cudaMemoryTypeDevice;
            a.devicePointer = (void *)ptr;
            a.hostPointer = NULL;
        }
    } else if (r != CUDA_ERROR_INVALID_VALUE) {
        return rt_return(r);
    }
    *attributes = a;
    return cudaSuccess;
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess || count == 0)
        return e;
    return rt_return(cuMemsetD8_v2(address(devPtr), (unsigned char)value, count));
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess || count == 0)
        return e;
    return rt_return(cuMemsetD8Async(address(devPtr), (unsigned char)value, count, rt_stream(stream)));
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess || width == 0 || height == 0)
        return e;
    if (width > pitch)
        return rt_fail(cudaErrorInvalidValue);
    return rt_return(cuMemsetD2D8_v2(address(devPtr), pitch, (unsigned char)value, width, height));
}

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess || width == 0 || height == 0)
        return e;
    if (width > pitch)
        return rt_fail(cudaErrorInvalidValue);
    return rt_return(cuMemsetD2D8Async(address(devPtr), pitch, (unsigned char)value, width, height,
                                       rt_stream(stream)));
}

/* A 3D memset is a 2D one per slice: slices are pitch * ysize bytes apart. */
cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr p, int value, struct cudaExtent extent, cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess || !extent.width || !extent.height || !extent.depth)
        return e;
    if (extent.width > p.pitch || extent.height > p.ysize)
        return rt_fail(cudaErrorInvalidValue);
    for (size_t z = 0; z < extent.depth; z++) {
        CUdeviceptr slice = address(p.ptr) + (CUdeviceptr)(z * p.pitch * p.ysize);
        CUresult r = cuMemsetD2D8Async(slice, p.pitch, (unsigned char)value, extent.width, extent.height,
                                       rt_stream(stream));
        if (r != CUDA_SUCCESS)
            return rt_return(r);
    }
    return cudaSuccess;
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    return cudaMemset3DAsync(pitchedDevPtr, value, extent, NULL);
}

/* The per-thread default stream's names (rt.h). */
RT_SAME_AS(cudaMemset_ptds, cudaMemset)
RT_SAME_AS(cudaMemset2D_ptds, cudaMemset2D)
RT_SAME_AS(cudaMemset3D_ptds, cudaMemset3D)
RT_SAME_AS(cudaMemsetAsync_ptsz, cudaMemsetAsync)
RT_SAME_AS(cudaMemset2DAsync_ptsz, cudaMemset2DAsync)
RT_SAME_AS(cudaMemset3DAsync_ptsz, cudaMemset3DAsync)
RT_SAME_AS(cudaMallocAsync_ptsz, cudaMallocAsync)
RT_SAME_AS(cudaFreeAsync_ptsz, cudaFreeAsync)
