/* drvtmap.c: tensor maps, cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col and
 * cuTensorMapReplaceAddress (docs/cuda.md, "Tensor maps"). Each checks its arguments as cuda.h
 * documents them for an sm_90 device (exec/tensormap.c's tensormap_check), says why it refuses
 * one on the report stream, CUDA_ERROR_INVALID_VALUE, and writes the 128 bytes in ptxrun's own
 * encoding (docs/semantics.md, "Tensor maps"), which the copies read. Requires: cuda.h. */
#include <stdint.h>
#include <string.h>

#include "cuda.h"

/* Says why call refuses its arguments, and lets the lock go. */
static CUresult refuse(DrvState *s, const char *call, const char *why)
{
    drv_report(s, "ptxrun's libcuda: %s: %s", call, why);
    drv_unlock();
    return CUDA_ERROR_INVALID_VALUE;
}

/* The fields the two encoders share into t, checked, and the 128 bytes written; missing: an array
 * argument of the encoder's own is NULL. */
static CUresult encode(const char *call, CUtensorMap *map, TensorMap *t, const cuuint64_t *dim,
                       const cuuint64_t *strides, const cuuint32_t *element_strides, unsigned rank, bool missing)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!map || !dim || !element_strides || (rank > 1 && !strides) || missing)
        return refuse(s, call, "a pointer argument is NULL");
    if ((uintptr_t)map % 64)
        return refuse(s, call, "the CUtensorMap is not 64-byte aligned");
    if (rank >= 1 && rank <= TMAP_MAX_RANK) {
        t->stride[0] = tensormap_element_bytes(t->dtype);
        for (unsigned i = 0; i < rank; i++) {
            t->dim[i] = dim[i];
            t->estride[i] = element_strides[i];
            if (i)
                t->stride[i] = strides[i - 1];
        }
    }
    char why[200];
    if (!tensormap_check(t, why, sizeof why))
        return refuse(s, call, why);
    tensormap_encode(t, (uint8_t *)map->opaque);
    drv_unlock();
    return CUDA_SUCCESS;
}

CUresult cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *address,
                                const cuuint64_t *dim, const cuuint64_t *strides, const cuuint32_t *box,
                                const cuuint32_t *element_strides, CUtensorMapInterleave interleave,
                                CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill fill)
{
    TensorMap t = { .mode = TMAP_TILED, .rank = (uint8_t)(rank > 255 ? 255 : rank), .dtype = (uint8_t)(type > 255 ? 255 : type),
                    .interleave = (uint8_t)(interleave > 255 ? 255 : interleave),
                    .swizzle = (uint8_t)(swizzle > 255 ? 255 : swizzle), .l2 = (uint8_t)(l2 > 255 ? 255 : l2),
                    .oobfill = (uint8_t)(fill > 255 ? 255 : fill), .address = (uint64_t)(uintptr_t)address };
    if (box && rank >= 1 && rank <= TMAP_MAX_RANK)
        for (unsigned i = 0; i < rank; i++)
            t.box[i] = box[i];
    return encode("cuTensorMapEncodeTiled", map, &t, dim, strides, element_strides, rank, !box);
}

CUresult cuTensorMapEncodeIm2col(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *address,
                                 const cuuint64_t *dim, const cuuint64_t *strides, const int *lower, const int *upper,
                                 cuuint32_t channels, cuuint32_t pixels, const cuuint32_t *element_strides,
                                 CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                 CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill fill)
{
    TensorMap t = { .mode = TMAP_IM2COL, .rank = (uint8_t)(rank > 255 ? 255 : rank), .dtype = (uint8_t)(type > 255 ? 255 : type),
                    .interleave = (uint8_t)(interleave > 255 ? 255 : interleave),
                    .swizzle = (uint8_t)(swizzle > 255 ? 255 : swizzle), .l2 = (uint8_t)(l2 > 255 ? 255 : l2),
                    .oobfill = (uint8_t)(fill > 255 ? 255 : fill), .address = (uint64_t)(uintptr_t)address,
                    .channels = (uint16_t)(channels > 0xffff ? 0xffff : channels),
                    .pixels = (uint16_t)(pixels > 0xffff ? 0xffff : pixels) };
    for (unsigned i = 0; lower && upper && rank <= TMAP_MAX_RANK && i + 2 < rank; i++) {
        t.lower[i] = lower[i];
        t.upper[i] = upper[i];
    }
    return encode("cuTensorMapEncodeIm2col", map, &t, dim, strides, element_strides, rank,
                  rank >= 3 && (!lower || !upper));
}

CUresult cuTensorMapReplaceAddress(CUtensorMap *map, void *address)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!map)
        return refuse(s, "cuTensorMapReplaceAddress", "the CUtensorMap is NULL");
    TensorMap t;
    char why[200];
    if (!tensormap_decode((const uint8_t *)map->opaque, &t, why, sizeof why))
        return refuse(s, "cuTensorMapReplaceAddress", why);
    t.address = (uint64_t)(uintptr_t)address;
    if (!tensormap_check(&t, why, sizeof why))
        return refuse(s, "cuTensorMapReplaceAddress", why);
    tensormap_encode(&t, (uint8_t *)map->opaque);
    drv_unlock();
    return CUDA_SUCCESS;
}
