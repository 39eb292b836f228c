/* drvmem.c: memory. Device memory is host memory: cuMemAlloc is a 256-byte aligned allocation,
 * zeroed (so a run never depends on what the heap held), whose device pointer is its host
 * address; host, managed and registered memory are the same, each kept in the driver's table
 * (drvstate.c), which every launch gives the kernel as its buffers; device memory's bytes start
 * undefined (DrvMem.shadow), and copies and sets keep their definedness. A device pointer a copy or a
 * set is given must lie, with all its bytes, in one live allocation (else CUDA_ERROR_INVALID_VALUE,
 * as a GPU's driver refuses a pointer it never gave); copies run at once, on the host, streams
 * being in order. Requires: cuda.h. */
#include <stdlib.h>
#include <string.h>

#include "cuda.h"

static void *ptr(CUdeviceptr p)
{
    return (void *)(uintptr_t)p;
}

/* size zeroed bytes, DRV_ALIGN-aligned, into the table as kind; NULL when the host has none. */
static void *allocate(DrvState *s, CUcontext ctx, size_t size, DrvMemKind kind, unsigned flags)
{
    void *p;
    if (size > SIZE_MAX - DRV_ALIGN || posix_memalign(&p, DRV_ALIGN, size))
        return NULL;
    /* device memory starts undefined, as a GPU's holds whatever it held (the host reaches it
     * only through copies, which keep its definedness); memory the host reaches is defined */
    uint8_t *shadow = kind == DRV_MEM_DEVICE ? calloc(size, 1) : NULL;
    if (kind == DRV_MEM_DEVICE && !shadow) {
        free(p);
        return NULL;
    }
    memset(p, 0, size);
    drv_mem_add(s, &(DrvMem){ .base = p, .size = size, .kind = kind, .ctx = ctx, .flags = flags, .shadow = shadow });
    return p;
}

static CUresult alloc_call(CUdeviceptr *out, size_t size, DrvMemKind kind, unsigned flags)
{
    DrvState *s;
    CUcontext ctx;
    CUresult r = drv_enter(&s, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    void *p = NULL;
    if (!out || !size)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (!(p = allocate(s, ctx, size, kind, flags)))
        r = CUDA_ERROR_OUT_OF_MEMORY;
    else
        *out = (CUdeviceptr)(uintptr_t)p;
    drv_unlock();
    return r;
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes)
{
    return alloc_call(dptr, bytes, DRV_MEM_DEVICE, 0);
}

/* Rows of width bytes, each starting DRV_ALIGN bytes after the last's start at least. */
CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pitch, size_t width, size_t height, unsigned element)
{
    if (!pitch || !width || !height || (element != 4 && element != 8 && element != 16))
        return CUDA_ERROR_INVALID_VALUE;
    if (width > SIZE_MAX - DRV_ALIGN)
        return CUDA_ERROR_INVALID_VALUE;
    size_t row = (width + DRV_ALIGN - 1) / DRV_ALIGN * DRV_ALIGN;
    if (height > SIZE_MAX / row)
        return CUDA_ERROR_OUT_OF_MEMORY;
    CUresult r = alloc_call(dptr, row * height, DRV_MEM_DEVICE, 0);
    if (r == CUDA_SUCCESS)
        *pitch = row;
    return r;
}

CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytes, unsigned flags)
{
    if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST) {
        DrvState *s;
        CUresult r = drv_enter(&s, NULL);
        if (r != CUDA_SUCCESS)
            return r;
        drv_unlock();
        return CUDA_ERROR_INVALID_VALUE;
    }
    return alloc_call(dptr, bytes, DRV_MEM_MANAGED, flags);
}

CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned flags)
{
    if (flags & ~(unsigned)(CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED)) {
        DrvState *s;
        CUresult r = drv_enter(&s, NULL);
        if (r != CUDA_SUCCESS)
            return r;
        drv_unlock();
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUdeviceptr d = 0;
    CUresult r = alloc_call(p ? &d : NULL, bytes, DRV_MEM_HOST, flags);
    if (r == CUDA_SUCCESS)
        *p = ptr(d);
    return r;
}

CUresult cuMemAllocHost_v2(void **p, size_t bytes)
{
    return cuMemHostAlloc(p, bytes, 0);
}

/* Frees the allocation of kind starting at p (kind DRV_MEM_DEVICE: device or managed memory). */
static CUresult free_call(uint64_t p, DrvMemKind kind)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    DrvMem *m = drv_mem_at(s, p, kind);
    if (!m && kind == DRV_MEM_DEVICE)
        m = drv_mem_at(s, p, DRV_MEM_MANAGED);
    if (m)
        drv_mem_remove(s, m);
    else if (p)
        r = CUDA_ERROR_INVALID_VALUE;
    drv_unlock();
    return r;
}

CUresult cuMemFree_v2(CUdeviceptr dptr)
{
    return free_call(dptr, DRV_MEM_DEVICE);
}

CUresult cuMemFreeHost(void *p)
{
    return free_call((uint64_t)(uintptr_t)p, DRV_MEM_HOST);
}

CUresult cuMemHostRegister_v2(void *p, size_t bytes, unsigned flags)
{
    DrvState *s;
    CUcontext ctx;
    CUresult r = drv_enter(&s, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    unsigned known = CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP | CU_MEMHOSTREGISTER_IOMEMORY
                     | CU_MEMHOSTREGISTER_READ_ONLY;
    uint64_t at = (uint64_t)(uintptr_t)p;
    if (!p || !bytes || (flags & ~known) || at + bytes < at)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (flags & CU_MEMHOSTREGISTER_IOMEMORY)
        r = CUDA_ERROR_NOT_SUPPORTED;
    for (size_t i = 0; r == CUDA_SUCCESS && i < s->mem_count; i++) {
        uint64_t base = (uint64_t)(uintptr_t)s->mems[i].base;
        if (s->mems[i].kind == DRV_MEM_REGISTERED && at < base + s->mems[i].size && base < at + bytes)
            r = CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    }
    if (r == CUDA_SUCCESS)
        drv_mem_add(s, &(DrvMem){ .base = p, .size = bytes, .kind = DRV_MEM_REGISTERED, .ctx = ctx, .flags = flags });
    drv_unlock();
    return r;
}

CUresult cuMemHostUnregister(void *p)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    DrvMem *m = drv_mem_at(s, (uint64_t)(uintptr_t)p, DRV_MEM_REGISTERED);
    if (!p)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (!m)
        r = CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
    else
        drv_mem_remove(s, m);
    drv_unlock();
    return r;
}

/* The host allocation (cuMemHostAlloc's or registered) holding p, or NULL. */
static DrvMem *host_mem(DrvState *s, const void *p)
{
    DrvMem *m = drv_mem_find(s, (uint64_t)(uintptr_t)p);
    return m && (m->kind == DRV_MEM_HOST || m->kind == DRV_MEM_REGISTERED) ? m : NULL;
}

CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *dptr, void *p, unsigned flags)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!dptr || !p || flags || !host_mem(s, p))
        r = CUDA_ERROR_INVALID_VALUE;
    else
        *dptr = (CUdeviceptr)(uintptr_t)p;
    drv_unlock();
    return r;
}

CUresult cuMemHostGetFlags(unsigned *flags, void *p)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    DrvMem *m = p ? host_mem(s, p) : NULL;
    if (!flags || !m)
        r = CUDA_ERROR_INVALID_VALUE;
    else
        *flags = m->flags;
    drv_unlock();
    return r;
}

CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr dptr)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    DrvMem *m = drv_mem_find(s, dptr);
    if (!m || m->kind == DRV_MEM_HOST || m->kind == DRV_MEM_REGISTERED)
        r = CUDA_ERROR_NOT_FOUND;
    else {
        if (base)
            *base = (CUdeviceptr)(uintptr_t)m->base;
        if (size)
            *size = m->size;
    }
    drv_unlock();
    return r;
}

/* One attribute of the allocation m (NULL: a pointer the driver did not give) into data; false:
 * the attribute has no value for it. */
static bool pointer_attribute(const DrvMem *m, CUpointer_attribute a, void *data, CUdeviceptr p)
{
    bool host = m && (m->kind == DRV_MEM_HOST || m->kind == DRV_MEM_REGISTERED);
    switch (a) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: *(CUcontext *)data = m ? m->ctx : NULL; return m;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *(unsigned *)data = !m ? 0 : host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
        return m;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: *(CUdeviceptr *)data = m ? p : 0; return m;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        *(void **)data = m && (host || m->kind == DRV_MEM_MANAGED) ? ptr(p) : NULL;
        return m && (host || m->kind == DRV_MEM_MANAGED);
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: *(int *)data = 1; return m;   /* every copy is synchronous */
    case CU_POINTER_ATTRIBUTE_BUFFER_ID: *(unsigned long long *)data = m ? m->id : 0; return m;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        *(int *)data = m && (m->kind == DRV_MEM_MANAGED || (m->kind == DRV_MEM_SYMBOL && m->managed));
        return m;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = m ? 0 : -2; return m;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *(CUdeviceptr *)data = m ? (uintptr_t)m->base : 0; return m;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *(size_t *)data = m ? m->size : 0; return m;
    case CU_POINTER_ATTRIBUTE_MAPPED: *(int *)data = m != NULL; return m;
    }
    return false;
}

static bool known_attribute(CUpointer_attribute a)
{
    return a >= CU_POINTER_ATTRIBUTE_CONTEXT && a <= CU_POINTER_ATTRIBUTE_MAPPED && a != 5 && a != 10;
}

CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr p)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!data || !known_attribute(attribute))
        r = known_attribute(attribute) || !data ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_SUPPORTED;
    else if (!pointer_attribute(drv_mem_find(s, p), attribute, data, p))
        r = CUDA_ERROR_INVALID_VALUE;
    drv_unlock();
    return r;
}

/* Unlike cuPointerGetAttribute, a pointer the driver did not give is no error: its attributes
 * are their empty values. */
CUresult cuPointerGetAttributes(unsigned count, CUpointer_attribute *attributes, void **data, CUdeviceptr p)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!count || !attributes || !data)
        r = CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; r == CUDA_SUCCESS && i < count; i++)
        if (!known_attribute(attributes[i]) || !data[i])
            r = CUDA_ERROR_INVALID_VALUE;
    const DrvMem *m = drv_mem_find(s, p);
    for (unsigned i = 0; r == CUDA_SUCCESS && i < count; i++)
        pointer_attribute(m, attributes[i], data[i], p);
    drv_unlock();
    return r;
}

/* A copy of bytes to dst from src; each side device memory the table must hold (dev_dst,
 * dev_src) or host memory. */
static CUresult copy(void *dst, const void *src, size_t bytes, bool dev_dst, bool dev_src, CUstream stream,
                     bool async)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (async && !drv_stream_ok(s, stream))
        r = CUDA_ERROR_INVALID_HANDLE;
    else if (bytes && (!dst || !src))
        r = CUDA_ERROR_INVALID_VALUE;
    else if (bytes && ((dev_dst && !drv_mem_covers(s, (uintptr_t)dst, bytes))
                       || (dev_src && !drv_mem_covers(s, (uintptr_t)src, bytes))))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && bytes) {
        memmove(dst, src, bytes);
        drv_mem_written(s, (uintptr_t)dst, bytes, (uintptr_t)src);
    }
    drv_unlock();
    return r;
}

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    return copy(ptr(dst), ptr(src), bytes, false, false, NULL, false);
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream)
{
    return copy(ptr(dst), ptr(src), bytes, false, false, stream, true);
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes)
{
    return copy(ptr(dst), src, bytes, true, false, NULL, false);
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes)
{
    return copy(dst, ptr(src), bytes, false, true, NULL, false);
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    return copy(ptr(dst), ptr(src), bytes, true, true, NULL, false);
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes, CUstream stream)
{
    return copy(ptr(dst), src, bytes, true, false, stream, true);
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes, CUstream stream)
{
    return copy(dst, ptr(src), bytes, false, true, stream, true);
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream)
{
    return copy(ptr(dst), ptr(src), bytes, true, true, stream, true);
}

/* One side of a 2D or 3D copy: where its first byte is, whether the table must hold it. */
typedef struct Side {
    uint8_t *at;
    bool device;
    size_t pitch, height;      /* bytes from a row to the next, rows from a layer to the next */
} Side;

static CUresult side(CUmemorytype type, const void *host, CUdeviceptr device, CUarray array, size_t x, size_t y,
                     size_t z, size_t pitch, size_t height, Side *out)
{
    if (type == CU_MEMORYTYPE_ARRAY || array)
        return type == CU_MEMORYTYPE_ARRAY ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_VALUE;
    if (type != CU_MEMORYTYPE_HOST && type != CU_MEMORYTYPE_DEVICE && type != CU_MEMORYTYPE_UNIFIED)
        return CUDA_ERROR_INVALID_VALUE;
    uint8_t *base = type == CU_MEMORYTYPE_HOST ? (uint8_t *)(uintptr_t)host : ptr(device);
    if (!base)
        return CUDA_ERROR_INVALID_VALUE;
    *out = (Side){ base + x + pitch * (y + height * z), type == CU_MEMORYTYPE_DEVICE, pitch, height };
    return CUDA_SUCCESS;
}

/* depth layers of height rows of width bytes; pitches checked, device sides in the table. */
static CUresult copy_boxes(const Side *dst, const Side *src, size_t width, size_t height, size_t depth,
                           CUstream stream, bool async)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (async && !drv_stream_ok(s, stream))
        r = CUDA_ERROR_INVALID_HANDLE;
    const Side *sides[2] = { dst, src };
    for (int i = 0; i < 2 && r == CUDA_SUCCESS && width && height && depth; i++) {
        const Side *d = sides[i];
        if ((height > 1 || depth > 1) && d->pitch < width)
            r = CUDA_ERROR_INVALID_VALUE;
        else if (depth > 1 && d->height < height)
            r = CUDA_ERROR_INVALID_VALUE;
        else if (d->device) {
            size_t span = d->pitch * d->height * (depth - 1) + d->pitch * (height - 1) + width;
            if (!drv_mem_covers(s, (uintptr_t)d->at, span))
                r = CUDA_ERROR_INVALID_VALUE;
        }
    }
    for (size_t z = 0; r == CUDA_SUCCESS && z < depth; z++)
        for (size_t y = 0; y < height; y++) {
            uint8_t *to = dst->at + dst->pitch * (y + dst->height * z);
            const uint8_t *from = src->at + src->pitch * (y + src->height * z);
            memmove(to, from, width);
            drv_mem_written(s, (uintptr_t)to, width, (uintptr_t)from);
        }
    drv_unlock();
    return r;
}

static CUresult copy2d(const CUDA_MEMCPY2D *c, CUstream stream, bool async)
{
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    Side dst, src;
    CUresult r = side(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, c->dstXInBytes, c->dstY, 0,
                      c->dstPitch, c->Height, &dst);
    if (r == CUDA_SUCCESS)
        r = side(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcXInBytes, c->srcY, 0, c->srcPitch,
                 c->Height, &src);
    return r == CUDA_SUCCESS ? copy_boxes(&dst, &src, c->WidthInBytes, c->Height, 1, stream, async) : r;
}

CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *copy_)
{
    return copy2d(copy_, NULL, false);
}

CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *copy_)
{
    return copy2d(copy_, NULL, false);
}

CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *copy_, CUstream stream)
{
    return copy2d(copy_, stream, true);
}

static CUresult copy3d(const CUDA_MEMCPY3D *c, CUstream stream, bool async)
{
    if (!c || c->srcLOD || c->dstLOD || c->reserved0 || c->reserved1)
        return CUDA_ERROR_INVALID_VALUE;
    Side dst, src;
    CUresult r = side(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, c->dstXInBytes, c->dstY, c->dstZ,
                      c->dstPitch, c->dstHeight, &dst);
    if (r == CUDA_SUCCESS)
        r = side(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcXInBytes, c->srcY, c->srcZ,
                 c->srcPitch, c->srcHeight, &src);
    return r == CUDA_SUCCESS ? copy_boxes(&dst, &src, c->WidthInBytes, c->Height, c->Depth, stream, async) : r;
}

CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *copy_)
{
    return copy3d(copy_, NULL, false);
}

CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *copy_, CUstream stream)
{
    return copy3d(copy_, stream, true);
}

/* height rows of width elements of size bytes, pitch bytes apart, set to value. */
static CUresult set(CUdeviceptr dst, size_t pitch, uint32_t value, unsigned size, size_t width, size_t height,
                    CUstream stream, bool async)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    size_t row = width * size;
    if (async && !drv_stream_ok(s, stream))
        r = CUDA_ERROR_INVALID_HANDLE;
    else if (width > SIZE_MAX / size || dst % size || (height > 1 && pitch < row))
        r = CUDA_ERROR_INVALID_VALUE;
    else if (row && height && !drv_mem_covers(s, dst, pitch * (height - 1) + row))
        r = CUDA_ERROR_INVALID_VALUE;
    for (size_t y = 0; r == CUDA_SUCCESS && y < height && row; y++) {
        uint8_t *p = (uint8_t *)ptr(dst) + pitch * y;
        drv_mem_written(s, (uintptr_t)p, row, 0);
        if (size == 1)
            memset(p, (int)value, width);
        for (size_t i = 0; size == 2 && i < width; i++)
            memcpy(p + 2 * i, &(uint16_t){ (uint16_t)value }, 2);
        for (size_t i = 0; size == 4 && i < width; i++)
            memcpy(p + 4 * i, &value, 4);
    }
    drv_unlock();
    return r;
}

CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char value, size_t count)
{
    return set(dst, count, value, 1, count, 1, NULL, false);
}

CUresult cuMemsetD16_v2(CUdeviceptr dst, unsigned short value, size_t count)
{
    return set(dst, 2 * count, value, 2, count, 1, NULL, false);
}

CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned value, size_t count)
{
    return set(dst, 4 * count, value, 4, count, 1, NULL, false);
}

CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t count, CUstream stream)
{
    return set(dst, count, value, 1, count, 1, stream, true);
}

CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count, CUstream stream)
{
    return set(dst, 2 * count, value, 2, count, 1, stream, true);
}

CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t count, CUstream stream)
{
    return set(dst, 4 * count, value, 4, count, 1, stream, true);
}

CUresult cuMemsetD2D8_v2(CUdeviceptr dst, size_t pitch, unsigned char value, size_t width, size_t height)
{
    return set(dst, pitch, value, 1, width, height, NULL, false);
}

CUresult cuMemsetD2D16_v2(CUdeviceptr dst, size_t pitch, unsigned short value, size_t width, size_t height)
{
    return set(dst, pitch, value, 2, width, height, NULL, false);
}

CUresult cuMemsetD2D32_v2(CUdeviceptr dst, size_t pitch, unsigned value, size_t width, size_t height)
{
    return set(dst, pitch, value, 4, width, height, NULL, false);
}

CUresult cuMemsetD2D8Async(CUdeviceptr dst, size_t pitch, unsigned char value, size_t width, size_t height,
                           CUstream stream)
{
    return set(dst, pitch, value, 1, width, height, stream, true);
}

CUresult cuMemsetD2D16Async(CUdeviceptr dst, size_t pitch, unsigned short value, size_t width, size_t height,
                            CUstream stream)
{
    return set(dst, pitch, value, 2, width, height, stream, true);
}

CUresult cuMemsetD2D32Async(CUdeviceptr dst, size_t pitch, unsigned value, size_t width, size_t height,
                            CUstream stream)
{
    return set(dst, pitch, value, 4, width, height, stream, true);
}

/* The managed allocation holding all of [dptr, dptr + bytes), or NULL. */
static DrvMem *managed_range(DrvState *s, CUdeviceptr dptr, size_t bytes)
{
    DrvMem *m = drv_mem_find(s, dptr);
    bool managed = m && (m->kind == DRV_MEM_MANAGED || (m->kind == DRV_MEM_SYMBOL && m->managed));
    return managed && bytes && drv_mem_covers(s, dptr, bytes) ? m : NULL;
}

static bool location_ok(CUmemLocation l)
{
    return (l.type == CU_MEM_LOCATION_TYPE_DEVICE && l.id == 0) || l.type == CU_MEM_LOCATION_TYPE_HOST
           || l.type == CU_MEM_LOCATION_TYPE_HOST_NUMA || l.type == CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT;
}

/* Managed memory is where both the host and the kernels reach it already: nothing moves. */
CUresult cuMemPrefetchAsync_v2(CUdeviceptr dptr, size_t bytes, CUmemLocation to, unsigned flags, CUstream stream)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!drv_stream_ok(s, stream))
        r = CUDA_ERROR_INVALID_HANDLE;
    else if (flags || !location_ok(to) || !managed_range(s, dptr, bytes))
        r = CUDA_ERROR_INVALID_VALUE;
    drv_unlock();
    return r;
}

/* Advice about managed memory is taken and changes nothing here. */
CUresult cuMemAdvise_v2(CUdeviceptr dptr, size_t bytes, CUmem_advise advice, CUmemLocation where)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    bool needs_location = advice == CU_MEM_ADVISE_SET_PREFERRED_LOCATION || advice == CU_MEM_ADVISE_SET_ACCESSED_BY
                          || advice == CU_MEM_ADVISE_UNSET_ACCESSED_BY;
    if (advice < CU_MEM_ADVISE_SET_READ_MOSTLY || advice > CU_MEM_ADVISE_UNSET_ACCESSED_BY
        || (needs_location && !location_ok(where)) || !managed_range(s, dptr, bytes))
        r = CUDA_ERROR_INVALID_VALUE;
    drv_unlock();
    return r;
}
