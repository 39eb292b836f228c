/* rttex.c: CUDA arrays, texture and surface objects on the driver's (cuda/drvtex.c): a
 * cudaArray_t is the driver's CUarray, a channel description its format and channels, a texture
 * description the driver's with readMode cudaReadModeElementType as CU_TRSF_READ_AS_INTEGER;
 * copies to and from arrays are the driver's 2D and 3D copies (an array's x in bytes there, in
 * elements in cudaMemcpy3D's positions and extent). Requires: rtstate.c, rterror.c. */
#include <string.h>

#include "rt.h"

/* The driver's format and channels of a channel description: every channel given has x's bits
 * (CUDA's arrays take 1, 2 or 4 channels of one type). */
static bool format_of(const struct cudaChannelFormatDesc *d, CUarray_format *f, unsigned *channels)
{
    if (!d)
        return false;
    int bits[4] = { d->x, d->y, d->z, d->w };
    unsigned n = 0;
    while (n < 4 && bits[n])
        n++;
    for (unsigned i = 0; i < 4; i++)
        if ((i < n && bits[i] != d->x) || (i >= n && bits[i]))
            return false;
    if (n != 1 && n != 2 && n != 4)
        return false;
    *channels = n;
    switch (d->f) {
    case cudaChannelFormatKindFloat:
        *f = d->x == 32 ? CU_AD_FORMAT_FLOAT : CU_AD_FORMAT_HALF;
        return d->x == 32 || d->x == 16;
    case cudaChannelFormatKindSigned:
    case cudaChannelFormatKindUnsigned: {
        bool s = d->f == cudaChannelFormatKindSigned;
        if (d->x == 8)
            *f = s ? CU_AD_FORMAT_SIGNED_INT8 : CU_AD_FORMAT_UNSIGNED_INT8;
        else if (d->x == 16)
            *f = s ? CU_AD_FORMAT_SIGNED_INT16 : CU_AD_FORMAT_UNSIGNED_INT16;
        else if (d->x == 32)
            *f = s ? CU_AD_FORMAT_SIGNED_INT32 : CU_AD_FORMAT_UNSIGNED_INT32;
        else
            return false;
        return true;
    }
    default: return false;
    }
}

static struct cudaChannelFormatDesc channel_desc(CUarray_format f, unsigned channels)
{
    int bits = f == CU_AD_FORMAT_UNSIGNED_INT8 || f == CU_AD_FORMAT_SIGNED_INT8 ? 8
             : f == CU_AD_FORMAT_UNSIGNED_INT16 || f == CU_AD_FORMAT_SIGNED_INT16 || f == CU_AD_FORMAT_HALF ? 16 : 32;
    cudaChannelFormatKind k = f == CU_AD_FORMAT_FLOAT || f == CU_AD_FORMAT_HALF ? cudaChannelFormatKindFloat
                            : f >= CU_AD_FORMAT_SIGNED_INT8 ? cudaChannelFormatKindSigned : cudaChannelFormatKindUnsigned;
    return (struct cudaChannelFormatDesc){ bits, channels > 1 ? bits : 0, channels > 2 ? bits : 0,
                                           channels > 2 ? bits : 0, k };
}

static unsigned element_bytes(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    struct cudaChannelFormatDesc c = channel_desc(d->Format, d->NumChannels);
    return (unsigned)c.x / 8 * d->NumChannels;
}

static cudaError_t make_array(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                              size_t height, size_t depth, unsigned flags)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    CUDA_ARRAY3D_DESCRIPTOR d = { width, height, depth, 0, 0, flags };
    if (!array)
        return rt_fail(cudaErrorInvalidValue);
    if (!format_of(desc, &d.Format, &d.NumChannels))
        return rt_fail(cudaErrorInvalidChannelDescriptor);
    return rt_return(cuArray3DCreate_v2(array, &d));
}

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height,
                            unsigned int flags)
{
    return make_array(array, desc, width, height, 0, flags);
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                              unsigned int flags)
{
    return make_array(array, desc, extent.width, extent.height, extent.depth, flags);
}

cudaError_t cudaFreeArray(cudaArray_t array)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return array ? rt_return(cuArrayDestroy(array)) : cudaSuccess;
}

static cudaError_t describe(cudaArray_t array, CUDA_ARRAY3D_DESCRIPTOR *d)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return rt_return(cuArray3DGetDescriptor_v2(d, array));
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent, unsigned int *flags,
                             cudaArray_t array)
{
    CUDA_ARRAY3D_DESCRIPTOR d;
    cudaError_t e = describe(array, &d);
    if (e != cudaSuccess)
        return e;
    if (desc)
        *desc = channel_desc(d.Format, d.NumChannels);
    if (extent)
        *extent = (struct cudaExtent){ d.Width, d.Height, d.Depth };
    if (flags)
        *flags = d.Flags;
    return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_t array)
{
    if (!desc)
        return rt_fail(cudaErrorInvalidValue);
    return cudaArrayGetInfo(desc, NULL, NULL, array);
}

/* ---- copies */

/* The driver's memory type and pointer of the linear side of a copy of kind; false for a kind
 * that does not go this way (to_array: the linear side is the source). */
static bool linear_side(cudaMemcpyKind kind, bool to_array, CUmemorytype *type)
{
    switch (kind) {
    case cudaMemcpyHostToDevice: *type = CU_MEMORYTYPE_HOST; return to_array;
    case cudaMemcpyDeviceToHost: *type = CU_MEMORYTYPE_HOST; return !to_array;
    case cudaMemcpyDeviceToDevice: *type = CU_MEMORYTYPE_DEVICE; return true;
    case cudaMemcpyDefault: *type = CU_MEMORYTYPE_UNIFIED; return true;
    default: return false;
    }
}

/* height rows of width bytes between an array (byte x, row y, layer z) and pitched memory. */
static cudaError_t copy_2d(cudaArray_t array, size_t x, size_t y, void *p, size_t pitch, size_t width, size_t height,
                           cudaMemcpyKind kind, bool to_array, bool async, cudaStream_t stream)
{
    CUmemorytype type;
    if (!linear_side(kind, to_array, &type))
        return rt_fail(cudaErrorInvalidMemcpyDirection);
    if (!p || !array)
        return rt_fail(cudaErrorInvalidValue);
    if (!width || !height)
        return cudaSuccess;
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof c);
    c.WidthInBytes = width;
    c.Height = height;
    if (to_array) {
        c.srcMemoryType = type;
        c.srcHost = p;
        c.srcDevice = (CUdeviceptr)(uintptr_t)p;
        c.srcPitch = pitch;
        c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        c.dstArray = array;
        c.dstXInBytes = x;
        c.dstY = y;
    } else {
        c.dstMemoryType = type;
        c.dstHost = p;
        c.dstDevice = (CUdeviceptr)(uintptr_t)p;
        c.dstPitch = pitch;
        c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        c.srcArray = array;
        c.srcXInBytes = x;
        c.srcY = y;
    }
    return rt_return(async ? cuMemcpy2DAsync_v2(&c, rt_stream(stream)) : cuMemcpy2D_v2(&c));
}

/* cudaMemcpyToArray's and cudaMemcpyFromArray's count bytes from (wOffset bytes, row hOffset)
 * on, row after row: a part row, whole rows, a part row. */
static cudaError_t copy_run(cudaArray_t array, size_t w, size_t h, void *p, size_t count, cudaMemcpyKind kind,
                            bool to_array)
{
    CUDA_ARRAY3D_DESCRIPTOR d;
    cudaError_t e = describe(array, &d);
    if (e != cudaSuccess)
        return e;
    size_t row = d.Width * element_bytes(&d), rows = (d.Height ? d.Height : 1) * (d.Depth ? d.Depth : 1);
    if (w >= row || h >= rows || count > (rows - h) * row - w)
        return rt_fail(cudaErrorInvalidValue);
    uint8_t *at = p;
    while (count && e == cudaSuccess) {
        size_t n = w ? (row - w < count ? row - w : count) : count / row * row;
        n = n ? n : count;                         /* the last part row */
        size_t wide = n < row ? n : row, high = n < row ? 1 : n / row;
        e = copy_2d(array, w, h, at, row, wide, high, kind, to_array, false, NULL);
        at += wide * high;
        count -= wide * high;
        w = (w + wide * high) % row;
        h += w ? 0 : high;
    }
    return e;
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                              cudaMemcpyKind kind)
{
    return copy_run(dst, wOffset, hOffset, (void *)(uintptr_t)src, count, kind, true);
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_t src, size_t wOffset, size_t hOffset, size_t count,
                                cudaMemcpyKind kind)
{
    return copy_run(src, wOffset, hOffset, dst, count, kind, false);
}

static cudaError_t copy_2d_call(cudaArray_t array, size_t x, size_t y, void *p, size_t pitch, size_t width,
                                size_t height, cudaMemcpyKind kind, bool to_array, bool async, cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (height > 1 && pitch < width)
        return rt_fail(cudaErrorInvalidPitchValue);
    return copy_2d(array, x, y, p, pitch, width, height, kind, to_array, async, stream);
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                size_t width, size_t height, cudaMemcpyKind kind)
{
    return copy_2d_call(dst, wOffset, hOffset, (void *)(uintptr_t)src, spitch, width, height, kind, true, false, NULL);
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_t src, size_t wOffset, size_t hOffset,
                                  size_t width, size_t height, cudaMemcpyKind kind)
{
    return copy_2d_call(src, wOffset, hOffset, dst, dpitch, width, height, kind, false, false, NULL);
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                     size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream)
{
    return copy_2d_call(dst, wOffset, hOffset, (void *)(uintptr_t)src, spitch, width, height, kind, true, true,
                        stream);
}

cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_t src, size_t wOffset, size_t hOffset,
                                       size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream)
{
    return copy_2d_call(src, wOffset, hOffset, dst, dpitch, width, height, kind, false, true, stream);
}

/* One side of a 3D copy: an array (positions in elements) or a pitched pointer (in bytes). */
static cudaError_t side_3d(cudaArray_t array, struct cudaPos pos, struct cudaPitchedPtr ptr, CUmemorytype linear,
                           CUmemorytype *type, const void **host, CUdeviceptr *device, CUarray *arr, size_t *x,
                           size_t *y, size_t *z, size_t *pitch, size_t *height, unsigned *element)
{
    if (array) {
        CUDA_ARRAY3D_DESCRIPTOR d;
        cudaError_t e = describe(array, &d);
        if (e != cudaSuccess)
            return e;
        *element = element_bytes(&d);
        *type = CU_MEMORYTYPE_ARRAY;
        *arr = array;
        *x = pos.x <= SIZE_MAX / *element ? pos.x * *element : SIZE_MAX;   /* never wrapped into the array */
    } else {
        if (!ptr.ptr)
            return rt_fail(cudaErrorInvalidValue);
        *type = linear;
        *host = ptr.ptr;
        *device = (CUdeviceptr)(uintptr_t)ptr.ptr;
        *pitch = ptr.pitch;
        *height = ptr.ysize;
        *x = pos.x;
    }
    *y = pos.y;
    *z = pos.z;
    return cudaSuccess;
}

cudaError_t rttex_copy3d(const struct cudaMemcpy3DParms *p, bool async, cudaStream_t stream)
{
    CUmemorytype src_type = CU_MEMORYTYPE_UNIFIED, dst_type = CU_MEMORYTYPE_UNIFIED;
    switch (p->kind) {
    case cudaMemcpyHostToDevice: src_type = CU_MEMORYTYPE_HOST; dst_type = CU_MEMORYTYPE_DEVICE; break;
    case cudaMemcpyDeviceToHost: src_type = CU_MEMORYTYPE_DEVICE; dst_type = CU_MEMORYTYPE_HOST; break;
    case cudaMemcpyDeviceToDevice: src_type = dst_type = CU_MEMORYTYPE_DEVICE; break;
    case cudaMemcpyDefault: break;
    default: return rt_fail(cudaErrorInvalidMemcpyDirection);
    }
    if ((p->kind == cudaMemcpyHostToDevice && p->srcArray) || (p->kind == cudaMemcpyDeviceToHost && p->dstArray))
        return rt_fail(cudaErrorInvalidMemcpyDirection);
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    unsigned se = 0, de = 0;
    cudaError_t e = side_3d(p->srcArray, p->srcPos, p->srcPtr, src_type, &c.srcMemoryType, &c.srcHost, &c.srcDevice,
                            &c.srcArray, &c.srcXInBytes, &c.srcY, &c.srcZ, &c.srcPitch, &c.srcHeight, &se);
    if (e == cudaSuccess)
        e = side_3d(p->dstArray, p->dstPos, p->dstPtr, dst_type, &c.dstMemoryType, (const void **)&c.dstHost,
                    &c.dstDevice, &c.dstArray, &c.dstXInBytes, &c.dstY, &c.dstZ, &c.dstPitch, &c.dstHeight, &de);
    if (e != cudaSuccess)
        return e;
    if (se && de && se != de)
        return rt_fail(cudaErrorInvalidValue);
    /* the extent counts an array's elements */
    c.WidthInBytes = p->extent.width * (se ? se : de);
    c.Height = p->extent.height;
    c.Depth = p->extent.depth;
    if (!c.WidthInBytes || !c.Height || !c.Depth)
        return cudaSuccess;
    return rt_return(async ? cuMemcpy3DAsync_v2(&c, rt_stream(stream)) : cuMemcpy3D_v2(&c));
}

/* ---- objects */

static cudaError_t resource_of(const struct cudaResourceDesc *r, CUDA_RESOURCE_DESC *out)
{
    memset(out, 0, sizeof *out);
    out->resType = (CUresourcetype)r->resType;
    out->flags = r->flags;
    switch (r->resType) {
    case cudaResourceTypeArray: out->res.array.hArray = r->res.array.array; return cudaSuccess;
    case cudaResourceTypeMipmappedArray: out->res.mipmap.hMipmappedArray = r->res.mipmap.mipmap; return cudaSuccess;
    case cudaResourceTypeLinear:
        out->res.linear.devPtr = (CUdeviceptr)(uintptr_t)r->res.linear.devPtr;
        out->res.linear.sizeInBytes = r->res.linear.sizeInBytes;
        return format_of(&r->res.linear.desc, &out->res.linear.format, &out->res.linear.numChannels)
                   ? cudaSuccess : cudaErrorInvalidChannelDescriptor;
    case cudaResourceTypePitch2D:
        out->res.pitch2D.devPtr = (CUdeviceptr)(uintptr_t)r->res.pitch2D.devPtr;
        out->res.pitch2D.width = r->res.pitch2D.width;
        out->res.pitch2D.height = r->res.pitch2D.height;
        out->res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
        return format_of(&r->res.pitch2D.desc, &out->res.pitch2D.format, &out->res.pitch2D.numChannels)
                   ? cudaSuccess : cudaErrorInvalidChannelDescriptor;
    default: return cudaErrorInvalidValue;
    }
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *object, const struct cudaResourceDesc *res,
                                    const struct cudaTextureDesc *tex, const struct cudaResourceViewDesc *view)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!object || !res || !tex || (unsigned)tex->readMode > cudaReadModeNormalizedFloat)
        return rt_fail(cudaErrorInvalidValue);
    CUDA_RESOURCE_DESC r;
    if ((e = resource_of(res, &r)) != cudaSuccess)
        return rt_fail(e);
    CUDA_TEXTURE_DESC t;
    memset(&t, 0, sizeof t);
    for (int i = 0; i < 3; i++)
        t.addressMode[i] = (CUaddress_mode)tex->addressMode[i];
    t.filterMode = (CUfilter_mode)tex->filterMode;
    t.flags = (tex->readMode == cudaReadModeElementType ? CU_TRSF_READ_AS_INTEGER : 0) |
              (tex->normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0) | (tex->sRGB ? CU_TRSF_SRGB : 0) |
              (tex->disableTrilinearOptimization ? CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION : 0) |
              (tex->seamlessCubemap ? CU_TRSF_SEAMLESS_CUBEMAP : 0);
    t.maxAnisotropy = tex->maxAnisotropy;
    t.mipmapFilterMode = (CUfilter_mode)tex->mipmapFilterMode;
    t.mipmapLevelBias = tex->mipmapLevelBias;
    t.minMipmapLevelClamp = tex->minMipmapLevelClamp;
    t.maxMipmapLevelClamp = tex->maxMipmapLevelClamp;
    memcpy(t.borderColor, tex->borderColor, sizeof t.borderColor);
    return rt_return(cuTexObjectCreate(object, &r, &t, (const CUDA_RESOURCE_VIEW_DESC *)view));
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t object)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return rt_return(cuTexObjectDestroy(object));
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *res, cudaTextureObject_t object)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    CUDA_RESOURCE_DESC r;
    if (!res)
        return rt_fail(cudaErrorInvalidValue);
    CUresult cr = cuTexObjectGetResourceDesc(&r, object);
    if (cr != CUDA_SUCCESS)
        return rt_return(cr);
    memset(res, 0, sizeof *res);
    res->resType = (cudaResourceType)r.resType;
    res->flags = r.flags;
    switch (r.resType) {
    case CU_RESOURCE_TYPE_ARRAY: res->res.array.array = r.res.array.hArray; break;
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: res->res.mipmap.mipmap = r.res.mipmap.hMipmappedArray; break;
    case CU_RESOURCE_TYPE_LINEAR:
        res->res.linear.devPtr = (void *)(uintptr_t)r.res.linear.devPtr;
        res->res.linear.desc = channel_desc(r.res.linear.format, r.res.linear.numChannels);
        res->res.linear.sizeInBytes = r.res.linear.sizeInBytes;
        break;
    case CU_RESOURCE_TYPE_PITCH2D:
        res->res.pitch2D.devPtr = (void *)(uintptr_t)r.res.pitch2D.devPtr;
        res->res.pitch2D.desc = channel_desc(r.res.pitch2D.format, r.res.pitch2D.numChannels);
        res->res.pitch2D.width = r.res.pitch2D.width;
        res->res.pitch2D.height = r.res.pitch2D.height;
        res->res.pitch2D.pitchInBytes = r.res.pitch2D.pitchInBytes;
        break;
    }
    return cudaSuccess;
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *object, const struct cudaResourceDesc *res)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!object || !res)
        return rt_fail(cudaErrorInvalidValue);
    CUDA_RESOURCE_DESC r;
    if ((e = resource_of(res, &r)) != cudaSuccess)
        return rt_fail(e);
    return rt_return(cuSurfObjectCreate(object, &r));
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t object)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return rt_return(cuSurfObjectDestroy(object));
}

/* nvcc --default-stream per-thread's names: the same calls, streams being in order on the host */
RT_SAME_AS(cudaMemcpy2DToArray_ptds, cudaMemcpy2DToArray)
RT_SAME_AS(cudaMemcpy2DFromArray_ptds, cudaMemcpy2DFromArray)
RT_SAME_AS(cudaMemcpy2DToArrayAsync_ptsz, cudaMemcpy2DToArrayAsync)
RT_SAME_AS(cudaMemcpy2DFromArrayAsync_ptsz, cudaMemcpy2DFromArrayAsync)
RT_SAME_AS(cudaMemcpyToArray_ptds, cudaMemcpyToArray)
RT_SAME_AS(cudaMemcpyFromArray_ptds, cudaMemcpyFromArray)
