/* drvtex.c: CUDA arrays, texture objects and surface objects (docs/cuda.md, "Textures and
 * surfaces"). An array's texels are host memory in the driver's table (DRV_MEM_ARRAY), packed:
 * x fastest, then rows, then layers (a 3D array's slices, a layered array's layers, a cubemap's
 * faces +x -x +y -y +z -z), which is the layout of ptxrun's images (exec/block.h). An object is a
 * number, never given twice in a process; each launch gives the kernel every live object of its
 * context as an image named by that number (drvtex_launch), so a texture instruction through any
 * other number faults, as a GPU's does, never reading memory. Textures over linear and pitched
 * memory read a copy of it made as the launch begins. What ptxrun's images cannot hold (half
 * floats, sRGB, a border colour other than zero, mipmapped arrays, resource views, seamless
 * cubemaps) is refused by name, CUDA_ERROR_NOT_SUPPORTED. Requires: cuda.h. */
#include <stdlib.h>
#include <string.h>

#include "cuda.h"

typedef struct DrvTexObject {
    unsigned long long handle;
    CUcontext ctx;
    bool surface;
    CUDA_RESOURCE_DESC res;
    CUDA_TEXTURE_DESC tex;     /* a texture's, as given */
    Image image;               /* what a launch gives the kernel (texels and region the launch's) */
} DrvTexObject;

/* A format's channel type (ptxrun's TYPE_*), or TYPE_COUNT for one ptxrun's images do not hold. */
static int format_type(CUarray_format f)
{
    switch (f) {
    case CU_AD_FORMAT_UNSIGNED_INT8: return TYPE_U8;
    case CU_AD_FORMAT_UNSIGNED_INT16: return TYPE_U16;
    case CU_AD_FORMAT_UNSIGNED_INT32: return TYPE_U32;
    case CU_AD_FORMAT_SIGNED_INT8: return TYPE_S8;
    case CU_AD_FORMAT_SIGNED_INT16: return TYPE_S16;
    case CU_AD_FORMAT_SIGNED_INT32: return TYPE_S32;
    case CU_AD_FORMAT_FLOAT: return TYPE_F32;
    default: return TYPE_COUNT;
    }
}

/* Bytes of a channel of f: 0 for a format no array of ptxrun's holds. */
static unsigned format_bytes(CUarray_format f)
{
    return f == CU_AD_FORMAT_HALF ? 2 : format_type(f) == TYPE_COUNT ? 0 : type_info[format_type(f)].bits / 8;
}

/* Whether CUDA 13 names f (its packed, block-compressed, YUV and normalized formats besides
 * ptxrun's). */
static bool cuda_format(CUarray_format f)
{
    unsigned v = (unsigned)f;
    return format_bytes(f) || v == 0x50 || (v >= 0x91 && v <= 0x9f) || (v >= 0xa1 && v <= 0xa9) ||
           (v >= 0xb0 && v <= 0xb5) || (v >= 0xc0 && v <= 0xcb);
}

static bool channels_ok(unsigned n)
{
    return n == 1 || n == 2 || n == 4;
}

enum { KNOWN_FLAGS = CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP |
                     CUDA_ARRAY3D_TEXTURE_GATHER };

/* Whether d describes an array CUDA makes: 1D (Height 0, Depth 0), 2D, 3D, layered 1D or 2D
 * (Depth layers), cubemap (square faces, Depth 6) or layered cubemap (Depth a multiple of 6). */
static CUresult array_shape_ok(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    if (!d->Width || !channels_ok(d->NumChannels))
        return CUDA_ERROR_INVALID_VALUE;
    if (!format_bytes(d->Format))
        return cuda_format(d->Format) ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_VALUE;
    if (d->Flags & ~(unsigned)KNOWN_FLAGS)
        return CUDA_ERROR_NOT_SUPPORTED;
    bool layered = d->Flags & CUDA_ARRAY3D_LAYERED, cube = d->Flags & CUDA_ARRAY3D_CUBEMAP;
    if (cube)
        return d->Width == d->Height && d->Depth && d->Depth % 6 == 0 && (layered || d->Depth == 6)
                   ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    if (layered)
        return d->Depth ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    if (!d->Height && d->Depth)
        return CUDA_ERROR_INVALID_VALUE;
    /* H100's largest: 1D 131072, 2D 131072 x 65536, 3D 16384 cubed */
    if (d->Depth ? d->Width > 16384 || d->Height > 16384 || d->Depth > 16384
                 : d->Width > 131072 || d->Height > 65536)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

static CUresult array_create(CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    if (!out || !d)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = array_shape_ok(d);
    if (r == CUDA_ERROR_NOT_SUPPORTED) {
        DrvState *s = drv_lock();
        drv_report(s, "ptxrun's libcuda: an array of format 0x%x with flags 0x%x is not supported yet",
                   (unsigned)d->Format, d->Flags);
        drv_unlock();
    }
    if (r != CUDA_SUCCESS)
        return r;
    DrvState *s;
    CUcontext ctx;
    if ((r = drv_enter(&s, &ctx)) != CUDA_SUCCESS)
        return r;
    size_t row = d->Width * format_bytes(d->Format) * d->NumChannels, rows = d->Height ? d->Height : 1;
    size_t layers = d->Depth ? d->Depth : 1, bytes = row * rows * layers;
    void *p = NULL;
    if (bytes > ((size_t)1 << 40) || posix_memalign(&p, DRV_ALIGN, bytes)) {
        drv_unlock();
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    memset(p, 0, bytes);
    struct CUarray_st *a = xcalloc(1, sizeof *a);
    *a = (struct CUarray_st){ ctx, *d, p, bytes, row, rows };
    drv_mem_add(s, &(DrvMem){ .base = p, .size = bytes, .kind = DRV_MEM_ARRAY, .ctx = ctx });
    drv_handle_add(s, DRV_ARRAY, a);
    *out = a;
    drv_unlock();
    return CUDA_SUCCESS;
}

CUresult cuArrayCreate_v2(CUarray *array, const CUDA_ARRAY_DESCRIPTOR *desc)
{
    if (!desc)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_ARRAY3D_DESCRIPTOR d = { desc->Width, desc->Height, 0, desc->Format, desc->NumChannels, 0 };
    return array_create(array, &d);
}

CUresult cuArray3DCreate_v2(CUarray *array, const CUDA_ARRAY3D_DESCRIPTOR *desc)
{
    return array_create(array, desc);
}

/* The state locked with a a live array; or the error, the lock not held. */
static CUresult enter_array(DrvState **s, CUarray a)
{
    CUresult r = drv_enter(s, NULL);
    if (r == CUDA_SUCCESS && (!a || !drv_handle_has(*s, DRV_ARRAY, a))) {
        drv_unlock();
        r = CUDA_ERROR_INVALID_HANDLE;
    }
    return r;
}

static void array_free(DrvState *s, CUarray a)
{
    DrvMem *m = drv_mem_at(s, (uintptr_t)a->base, DRV_MEM_ARRAY);
    if (m)
        drv_mem_remove(s, m);
    drv_handle_remove(s, a);
    free(a);
}

/* An array's objects stay (a launch then leaves them out: their use faults), as CUDA leaves
 * reading a destroyed array's object undefined. */
CUresult cuArrayDestroy(CUarray a)
{
    DrvState *s;
    CUresult r = enter_array(&s, a);
    if (r != CUDA_SUCCESS)
        return r;
    array_free(s, a);
    drv_unlock();
    return CUDA_SUCCESS;
}

CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *desc, CUarray a)
{
    DrvState *s;
    CUresult r = enter_array(&s, a);
    if (r != CUDA_SUCCESS)
        return r;
    if (desc)
        *desc = a->desc;
    drv_unlock();
    return desc ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *desc, CUarray a)
{
    DrvState *s;
    CUresult r = enter_array(&s, a);
    if (r != CUDA_SUCCESS)
        return r;
    if (desc)
        *desc = (CUDA_ARRAY_DESCRIPTOR){ a->desc.Width, a->desc.Height, a->desc.Format, a->desc.NumChannels };
    drv_unlock();
    return desc ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

bool drvtex_array_side(CUarray a, size_t x, size_t y, size_t z, uint8_t **at, size_t *pitch, size_t *rows)
{
    DrvState *s = drv_lock();
    bool ok = a && drv_handle_has(s, DRV_ARRAY, a) && x < a->row && y < a->rows &&
              z < (a->desc.Depth ? a->desc.Depth : 1);
    if (ok) {
        *at = a->base + x + a->row * (y + a->rows * z);
        *pitch = a->row;
        *rows = a->rows;
    }
    drv_unlock();
    return ok;
}

/* ---- objects */

static DrvTexObject *object_add(DrvState *s)
{
    if (s->texobj_count == s->texobj_cap) {
        s->texobj_cap = s->texobj_cap ? 2 * s->texobj_cap : 16;
        s->texobjs = xrealloc(s->texobjs, s->texobj_cap * sizeof *s->texobjs);
    }
    DrvTexObject *o = &s->texobjs[s->texobj_count++];
    memset(o, 0, sizeof *o);
    o->handle = ++s->next_texobj;
    return o;
}

static DrvTexObject *object_find(DrvState *s, unsigned long long handle, bool surface)
{
    for (size_t i = 0; i < s->texobj_count; i++)
        if (s->texobjs[i].handle == handle && s->texobjs[i].surface == surface)
            return &s->texobjs[i];
    return NULL;
}

static CUresult refuse(DrvState *s, const char *what)
{
    drv_report(s, "ptxrun's libcuda: %s is not supported yet", what);
    return CUDA_ERROR_NOT_SUPPORTED;
}

/* The image an array holds (its shape and texel type; sampling is the caller's). */
static CUresult image_of_array(DrvState *s, CUarray a, bool surface, Image *im)
{
    const CUDA_ARRAY3D_DESCRIPTOR *d = &a->desc;
    if (format_type(d->Format) == TYPE_COUNT)
        return refuse(s, "a texture or surface of half floats");
    if (surface && !(d->Flags & CUDA_ARRAY3D_SURFACE_LDST))
        return CUDA_ERROR_INVALID_VALUE;
    bool layered = d->Flags & CUDA_ARRAY3D_LAYERED, cube = d->Flags & CUDA_ARRAY3D_CUBEMAP;
    im->type = (uint8_t)format_type(d->Format);
    im->channels = (uint8_t)d->NumChannels;
    im->dims = !d->Height ? 1 : d->Depth && !layered && !cube ? 3 : 2;
    im->size[0] = (uint32_t)d->Width;
    im->size[1] = d->Height ? (uint32_t)d->Height : 1;
    im->size[2] = im->dims == 3 ? (uint32_t)d->Depth : 1;
    if (cube && !surface) {                     /* a surface reads a cubemap's faces as layers */
        im->cube = true;
        im->layers = layered ? (uint32_t)(d->Depth / 6) : 0;
    } else if (layered || cube)
        im->layers = (uint32_t)d->Depth;
    return CUDA_SUCCESS;
}

/* A resource's image shape: an array's, linear memory as a 1D texture, pitched memory as a 2D one
 * (whose texels each launch copies). */
static CUresult image_of_resource(DrvState *s, const CUDA_RESOURCE_DESC *res, bool surface, Image *im)
{
    memset(im, 0, sizeof *im);
    im->surface = surface;
    im->levels = 1;
    if (res->flags)
        return CUDA_ERROR_INVALID_VALUE;
    switch (res->resType) {
    case CU_RESOURCE_TYPE_ARRAY:
        if (!res->res.array.hArray || !drv_handle_has(s, DRV_ARRAY, res->res.array.hArray))
            return CUDA_ERROR_INVALID_HANDLE;
        return image_of_array(s, res->res.array.hArray, surface, im);
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: return refuse(s, "a mipmapped array's texture");
    case CU_RESOURCE_TYPE_LINEAR:
    case CU_RESOURCE_TYPE_PITCH2D: break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    if (surface)
        return CUDA_ERROR_INVALID_VALUE;        /* a surface object is an array's */
    bool linear = res->resType == CU_RESOURCE_TYPE_LINEAR;
    CUarray_format f = linear ? res->res.linear.format : res->res.pitch2D.format;
    unsigned channels = linear ? res->res.linear.numChannels : res->res.pitch2D.numChannels;
    CUdeviceptr p = linear ? res->res.linear.devPtr : res->res.pitch2D.devPtr;
    if (!channels_ok(channels) || !format_bytes(f) || !p)
        return CUDA_ERROR_INVALID_VALUE;
    if (format_type(f) == TYPE_COUNT)
        return refuse(s, "a texture of half floats");
    size_t texel = format_bytes(f) * channels;
    im->type = (uint8_t)format_type(f);
    im->channels = (uint8_t)channels;
    im->size[1] = im->size[2] = 1;
    if (linear) {
        size_t n = res->res.linear.sizeInBytes / texel;
        if (!n || n > (1u << 28) || !drv_mem_covers(s, p, res->res.linear.sizeInBytes))
            return CUDA_ERROR_INVALID_VALUE;
        im->dims = 1;
        im->size[0] = (uint32_t)n;
        return CUDA_SUCCESS;
    }
    size_t w = res->res.pitch2D.width, h = res->res.pitch2D.height, pitch = res->res.pitch2D.pitchInBytes;
    /* H100: rows 32-byte aligned (TEXTURE_PITCH_ALIGNMENT), at most 131072 x 65000 texels */
    if (!w || !h || w > 131072 || h > 65000 || pitch < w * texel || pitch % 32 ||
        !drv_mem_covers(s, p, pitch * (h - 1) + w * texel))
        return CUDA_ERROR_INVALID_VALUE;
    im->dims = 2;
    im->size[0] = (uint32_t)w;
    im->size[1] = (uint32_t)h;
    return CUDA_SUCCESS;
}

/* A texture's sampling from its description. Wrap and mirror addressing, which CUDA defines for
 * normalized coordinates only, clamp unnormalized ones (said on the report stream). */
static CUresult sampling(DrvState *s, const CUDA_TEXTURE_DESC *t, const CUDA_RESOURCE_DESC *res, Image *im)
{
    enum { FLAGS = CU_TRSF_READ_AS_INTEGER | CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SRGB |
                   CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION | CU_TRSF_SEAMLESS_CUBEMAP };
    if (t->flags & ~(unsigned)FLAGS || (unsigned)t->filterMode > CU_TR_FILTER_MODE_LINEAR)
        return CUDA_ERROR_INVALID_VALUE;
    if (t->flags & CU_TRSF_SRGB)
        return refuse(s, "an sRGB texture");
    if (t->flags & CU_TRSF_SEAMLESS_CUBEMAP)
        return refuse(s, "a seamless cubemap texture");
    Sampler *sm = &im->sampler;
    sm->linear = t->filterMode == CU_TR_FILTER_MODE_LINEAR;
    sm->normalized_coords = t->flags & CU_TRSF_NORMALIZED_COORDINATES;
    bool border = false, folded = false;
    for (unsigned d = 0; d < 3; d++) {
        static const uint8_t modes[] = { ADDRESS_WRAP, ADDRESS_CLAMP, ADDRESS_MIRROR, ADDRESS_BORDER };
        if ((unsigned)t->addressMode[d] > CU_TR_ADDRESS_MODE_BORDER)
            return CUDA_ERROR_INVALID_VALUE;
        sm->address[d] = modes[t->addressMode[d]];
        border |= d < im->dims && sm->address[d] == ADDRESS_BORDER;
        if (!sm->normalized_coords && (sm->address[d] == ADDRESS_WRAP || sm->address[d] == ADDRESS_MIRROR)) {
            sm->address[d] = ADDRESS_CLAMP;
            folded |= d < im->dims;
        }
    }
    if (res->resType == CU_RESOURCE_TYPE_LINEAR) {
        /* tex1Dfetch: texel indices, unfiltered, "only the border and clamp addressing modes"
         * (the guide) */
        border = sm->address[0] == ADDRESS_BORDER;
        memset(sm, 0, sizeof *sm);
        sm->address[0] = border ? ADDRESS_BORDER : ADDRESS_CLAMP;
        folded = false;
    }
    if (border && (t->borderColor[0] != 0 || t->borderColor[1] != 0 || t->borderColor[2] != 0 ||
                   t->borderColor[3] != 0))
        return refuse(s, "a border colour other than zero");
    char cls = type_info[im->type].cls;
    im->normalized_float = !(t->flags & CU_TRSF_READ_AS_INTEGER) && cls != 'f' && type_info[im->type].bits <= 16;
    if (sm->linear && cls != 'f' && !im->normalized_float)
        return CUDA_ERROR_INVALID_VALUE;           /* linear filtering gives floats */
    if (folded)
        drv_report(s, "ptxrun's libcuda: a texture with unnormalized coordinates and wrap or mirror addressing "
                      "(CUDA defines them for normalized coordinates only): ptxrun clamps its coordinates");
    return CUDA_SUCCESS;
}

CUresult cuTexObjectCreate(CUtexObject *object, const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *tex,
                           const CUDA_RESOURCE_VIEW_DESC *view)
{
    DrvState *s;
    CUcontext ctx;
    CUresult r = drv_enter(&s, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    Image im;
    if (!object || !res || !tex)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (view)
        r = refuse(s, "a texture object's resource view");
    else if ((r = image_of_resource(s, res, false, &im)) == CUDA_SUCCESS)
        r = sampling(s, tex, res, &im);
    if (r == CUDA_SUCCESS) {
        DrvTexObject *o = object_add(s);
        o->ctx = ctx;
        o->res = *res;
        o->tex = *tex;
        o->image = im;
        o->image.handle = o->handle;
        *object = o->handle;
    }
    drv_unlock();
    return r;
}

CUresult cuSurfObjectCreate(CUsurfObject *object, const CUDA_RESOURCE_DESC *res)
{
    DrvState *s;
    CUcontext ctx;
    CUresult r = drv_enter(&s, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    Image im;
    if (!object || !res || res->resType != CU_RESOURCE_TYPE_ARRAY)
        r = CUDA_ERROR_INVALID_VALUE;
    else
        r = image_of_resource(s, res, true, &im);
    if (r == CUDA_SUCCESS) {
        DrvTexObject *o = object_add(s);
        o->ctx = ctx;
        o->surface = true;
        o->res = *res;
        o->image = im;
        o->image.handle = o->handle;
        *object = o->handle;
    }
    drv_unlock();
    return r;
}

static CUresult destroy(unsigned long long handle, bool surface)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    DrvTexObject *o = object_find(s, handle, surface);
    if (o)
        *o = s->texobjs[--s->texobj_count];
    else
        r = CUDA_ERROR_INVALID_VALUE;
    drv_unlock();
    return r;
}

CUresult cuTexObjectDestroy(CUtexObject object)
{
    return destroy(object, false);
}

CUresult cuSurfObjectDestroy(CUsurfObject object)
{
    return destroy(object, true);
}

static CUresult describe(unsigned long long handle, bool surface, CUDA_RESOURCE_DESC *res, CUDA_TEXTURE_DESC *tex)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    DrvTexObject *o = object_find(s, handle, surface);
    if (!o || (!res && !tex))
        r = CUDA_ERROR_INVALID_VALUE;
    else if (res)
        *res = o->res;
    else
        *tex = o->tex;
    drv_unlock();
    return r;
}

CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *res, CUtexObject object)
{
    return res ? describe(object, false, res, NULL) : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *tex, CUtexObject object)
{
    return tex ? describe(object, false, NULL, tex) : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *res, CUsurfObject object)
{
    return res ? describe(object, true, res, NULL) : CUDA_ERROR_INVALID_VALUE;
}

/* ---- launches */

/* An object's texels now: an array's own bytes, or a copy of linear or pitched memory (NULL: the
 * memory or array is gone, and the object is left out). */
static uint8_t *texels_of(DrvState *s, const DrvTexObject *o, size_t *bytes, bool *copied)
{
    *copied = false;
    const CUDA_RESOURCE_DESC *res = &o->res;
    if (res->resType == CU_RESOURCE_TYPE_ARRAY) {
        CUarray a = res->res.array.hArray;
        if (!drv_handle_has(s, DRV_ARRAY, a))
            return NULL;
        *bytes = a->bytes;
        return a->base;
    }
    size_t texel = type_info[o->image.type].bits / 8 * o->image.channels;
    size_t row = o->image.size[0] * texel, rows = o->image.size[1];
    bool linear = res->resType == CU_RESOURCE_TYPE_LINEAR;
    size_t pitch = linear ? row : res->res.pitch2D.pitchInBytes;
    CUdeviceptr p = linear ? res->res.linear.devPtr : res->res.pitch2D.devPtr;
    if (!drv_mem_covers(s, p, pitch * (rows - 1) + row))
        return NULL;
    uint8_t *c = xmalloc(row * rows);
    for (size_t y = 0; y < rows; y++)
        memcpy(c + y * row, (const uint8_t *)(uintptr_t)p + y * pitch, row);
    *bytes = row * rows;
    *copied = true;
    return c;
}

void drvtex_launch(DrvState *s, CUcontext ctx, DrvTexLaunch *out)
{
    memset(out, 0, sizeof *out);
    if (!s->texobj_count)
        return;
    out->images = xcalloc(s->texobj_count, sizeof *out->images);
    out->copies = xcalloc(s->texobj_count, sizeof *out->copies);
    out->names = xcalloc(s->texobj_count, sizeof *out->names);
    for (size_t i = 0; i < s->texobj_count; i++) {
        const DrvTexObject *o = &s->texobjs[i];
        size_t bytes = 0;
        bool copied;
        uint8_t *t = o->ctx == ctx ? texels_of(s, o, &bytes, &copied) : NULL;
        if (!t)
            continue;
        LibraryImage *im = &out->images[out->count];
        im->image = o->image;
        snprintf(out->names[out->count], sizeof out->names[0], "%s object %llu",
                 o->surface ? "surface" : "texture", o->handle);
        im->image.name = out->names[out->count];
        im->texels = t;
        im->bytes = bytes;
        if (copied)
            out->copies[out->count] = t;
        out->count++;
    }
}

void drvtex_launch_free(DrvTexLaunch *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->copies[i]);
    free(l->images);
    free(l->copies);
    free(l->names);
    memset(l, 0, sizeof *l);
}

void drvtex_release(DrvState *s, CUcontext ctx)
{
    for (size_t i = s->texobj_count; i-- > 0;)
        if (s->texobjs[i].ctx == ctx)
            s->texobjs[i] = s->texobjs[--s->texobj_count];
    for (size_t i = s->handle_count; i-- > 0;)
        if (s->handles[i].kind == DRV_ARRAY && ((CUarray)s->handles[i].p)->ctx == ctx)
            array_free(s, s->handles[i].p);
}
