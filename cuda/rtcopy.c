/* rtcopy.c: copies: 1D of each kind (the driver's call for that direction, which checks the
 * device side is memory it gave), 2D and 3D row by row, and to and from a module's variables
 * (__device__, __constant__) named by their host shadows. Streams run in order on the host, so an
 * Async copy is done when it returns. Requires: rtstate.c, rterror.c. */
#include "rt.h"

static CUdeviceptr address(const void *p)
{
    return (CUdeviceptr)(uintptr_t)p;
}

/* One contiguous copy; the caller has entered (rt_enter). stream: NULL for a synchronous call. */
static CUresult copy(void *dst, const void *src, size_t count, cudaMemcpyKind kind, bool async, CUstream stream)
{
    if (count == 0)
        return CUDA_SUCCESS;
    switch (kind) {
    case cudaMemcpyHostToHost:         /* the unified copy: either side may be the driver's (its
                                          definedness then follows the bytes) or the host's */
    case cudaMemcpyDefault:
        return async ? cuMemcpyAsync(address(dst), address(src), count, stream)
                     : cuMemcpy(address(dst), address(src), count);
    case cudaMemcpyHostToDevice:
        return async ? cuMemcpyHtoDAsync_v2(address(dst), src, count, stream) : cuMemcpyHtoD_v2(address(dst), src, count);
    case cudaMemcpyDeviceToHost:
        return async ? cuMemcpyDtoHAsync_v2(dst, address(src), count, stream) : cuMemcpyDtoH_v2(dst, address(src), count);
    case cudaMemcpyDeviceToDevice:
        return async ? cuMemcpyDtoDAsync_v2(address(dst), address(src), count, stream)
                     : cuMemcpyDtoD_v2(address(dst), address(src), count);
    }
    return CUDA_ERROR_INVALID_VALUE;
}

static bool valid_kind(cudaMemcpyKind kind)
{
    return (unsigned)kind <= cudaMemcpyDefault;
}

static cudaError_t copy1d(void *dst, const void *src, size_t count, cudaMemcpyKind kind, bool async,
                          cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!valid_kind(kind))
        return rt_fail(cudaErrorInvalidMemcpyDirection);
    if (count && (!dst || !src))
        return rt_fail(cudaErrorInvalidValue);
    return rt_return(copy(dst, src, count, kind, async, rt_stream(stream)));
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind)
{
    return copy1d(dst, src, count, kind, false, NULL);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind, cudaStream_t stream)
{
    return copy1d(dst, src, count, kind, true, stream);
}

cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess)
        return e;
    if (dstDevice < 0 || dstDevice >= n || srcDevice < 0 || srcDevice >= n)
        return rt_fail(cudaErrorInvalidDevice);
    return copy1d(dst, src, count, cudaMemcpyDefault, false, NULL);
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                cudaStream_t stream)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess)
        return e;
    if (dstDevice < 0 || dstDevice >= n || srcDevice < 0 || srcDevice >= n)
        return rt_fail(cudaErrorInvalidDevice);
    return copy1d(dst, src, count, cudaMemcpyDefault, true, stream);
}

/* A 2D copy: height rows of width bytes, pitches apart. */
static cudaError_t copy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                          cudaMemcpyKind kind, bool async, cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!valid_kind(kind))
        return rt_fail(cudaErrorInvalidMemcpyDirection);
    if (width == 0 || height == 0)
        return cudaSuccess;
    if (width > dpitch || width > spitch)
        return rt_fail(cudaErrorInvalidPitchValue);
    if (!dst || !src)
        return rt_fail(cudaErrorInvalidValue);
    for (size_t y = 0; y < height; y++) {
        CUresult r = copy((char *)dst + y * dpitch, (const char *)src + y * spitch, width, kind, async,
                          rt_stream(stream));
        if (r != CUDA_SUCCESS)
            return rt_return(r);
    }
    return cudaSuccess;
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind)
{
    return copy2d(dst, dpitch, src, spitch, width, height, kind, false, NULL);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              cudaMemcpyKind kind, cudaStream_t stream)
{
    return copy2d(dst, dpitch, src, spitch, width, height, kind, true, stream);
}

/* A 3D copy between pitched pointers (arrays are not supported): extent.width bytes by height rows
 * by depth slices, from srcPos in the source's rows (x in bytes) to dstPos. */
static cudaError_t copy3d(const struct cudaMemcpy3DParms *p, bool async, cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!p)
        return rt_fail(cudaErrorInvalidValue);
    if (p->srcArray || p->dstArray)
        return rt_not_supported("cudaMemcpy3D", "CUDA arrays");
    if (!valid_kind(p->kind))
        return rt_fail(cudaErrorInvalidMemcpyDirection);
    const struct cudaExtent x = p->extent;
    if (!x.width || !x.height || !x.depth)
        return cudaSuccess;
    const struct cudaPitchedPtr s = p->srcPtr, d = p->dstPtr;
    if (p->srcPos.x + x.width > s.pitch || p->dstPos.x + x.width > d.pitch)
        return rt_fail(cudaErrorInvalidPitchValue);
    if (!s.ptr || !d.ptr)
        return rt_fail(cudaErrorInvalidValue);
    for (size_t z = 0; z < x.depth; z++)
        for (size_t y = 0; y < x.height; y++) {
            size_t srow = ((p->srcPos.z + z) * s.ysize + p->srcPos.y + y) * s.pitch + p->srcPos.x;
            size_t drow = ((p->dstPos.z + z) * d.ysize + p->dstPos.y + y) * d.pitch + p->dstPos.x;
            CUresult r = copy((char *)d.ptr + drow, (const char *)s.ptr + srow, x.width, p->kind, async,
                              rt_stream(stream));
            if (r != CUDA_SUCCESS)
                return rt_return(r);
        }
    return cudaSuccess;
}

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    return copy3d(p, false, NULL);
}

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    return copy3d(p, true, stream);
}

/* A symbol's bytes [offset, offset + count), found by its host shadow. */
static cudaError_t symbol_range(const void *symbol, size_t count, size_t offset, CUdeviceptr *at)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    size_t size = 0;
    e = rt_var_find(symbol, at, &size);
    if (e != cudaSuccess)
        return e;
    if (offset > size || count > size - offset)
        return rt_fail(cudaErrorInvalidValue);
    *at += offset;
    return cudaSuccess;
}

static cudaError_t to_symbol(const void *symbol, const void *src, size_t count, size_t offset, cudaMemcpyKind kind,
                             bool async, cudaStream_t stream)
{
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return rt_fail(cudaErrorInvalidMemcpyDirection);
    CUdeviceptr at = 0;
    cudaError_t e = symbol_range(symbol, count, offset, &at);
    if (e != cudaSuccess)
        return e;
    return copy1d((void *)(uintptr_t)at, src, count, kind, async, stream);
}

static cudaError_t from_symbol(void *dst, const void *symbol, size_t count, size_t offset, cudaMemcpyKind kind,
                               bool async, cudaStream_t stream)
{
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return rt_fail(cudaErrorInvalidMemcpyDirection);
    CUdeviceptr at = 0;
    cudaError_t e = symbol_range(symbol, count, offset, &at);
    if (e != cudaSuccess)
        return e;
    return copy1d(dst, (const void *)(uintptr_t)at, count, kind, async, stream);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset, cudaMemcpyKind kind)
{
    return to_symbol(symbol, src, count, offset, kind, false, NULL);
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                    cudaMemcpyKind kind, cudaStream_t stream)
{
    return to_symbol(symbol, src, count, offset, kind, true, stream);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset, cudaMemcpyKind kind)
{
    return from_symbol(dst, symbol, count, offset, kind, false, NULL);
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset, cudaMemcpyKind kind,
                                      cudaStream_t stream)
{
    return from_symbol(dst, symbol, count, offset, kind, true, stream);
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    if (!devPtr)
        return rt_fail(cudaErrorInvalidValue);
    CUdeviceptr at = 0;
    cudaError_t e = symbol_range(symbol, 0, 0, &at);
    if (e == cudaSuccess)
        *devPtr = (void *)(uintptr_t)at;
    return e;
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!size)
        return rt_fail(cudaErrorInvalidValue);
    CUdeviceptr at = 0;
    return rt_var_find(symbol, &at, size);
}

/* The per-thread default stream's names (rt.h). */
RT_SAME_AS(cudaMemcpy_ptds, cudaMemcpy)
RT_SAME_AS(cudaMemcpyToSymbol_ptds, cudaMemcpyToSymbol)
RT_SAME_AS(cudaMemcpyFromSymbol_ptds, cudaMemcpyFromSymbol)
RT_SAME_AS(cudaMemcpy2D_ptds, cudaMemcpy2D)
RT_SAME_AS(cudaMemcpy3D_ptds, cudaMemcpy3D)
RT_SAME_AS(cudaMemcpyAsync_ptsz, cudaMemcpyAsync)
RT_SAME_AS(cudaMemcpyToSymbolAsync_ptsz, cudaMemcpyToSymbolAsync)
RT_SAME_AS(cudaMemcpyFromSymbolAsync_ptsz, cudaMemcpyFromSymbolAsync)
RT_SAME_AS(cudaMemcpy2DAsync_ptsz, cudaMemcpy2DAsync)
RT_SAME_AS(cudaMemcpy3DAsync_ptsz, cudaMemcpy3DAsync)
