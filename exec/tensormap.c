/* tensormap.c: tensor maps (CUDA's 128-byte CUtensorMap) as ptxrun encodes them, and the addresses
 * of a tensor copy (docs/semantics.md, "Tensor maps"): which tensor element each element of the
 * box is, whether it lies in the tensor, where it lands in shared memory (the swizzle patterns).
 * Pure functions: the driver shim (cuda/drvtmap.c), the lanes file and bulk.c use them, and
 * tests/check_tensormap.c holds them to an independent model (scripts/tmap_model.py). */
#include <stdio.h>
#include <string.h>

#include "family.h"

/* The 128 bytes, little-endian (NVIDIA's layout is not published; this one is ptxrun's own):
 *   0  u32 magic "ptxm"           4  u8 mode, rank, data type, interleave
 *   8  u8 swizzle, L2 promotion, OOB fill, 0
 *  12  u16 channelsPerPixel, u16 pixelsPerColumn (im2col)
 *  16  u64 global address        24  u64 globalStrides[0..3] (bytes)
 *  56  u32 globalDim[0..4] - 1   76  u8 boxDim[0..4] - 1   81  u8 elementStrides[0..4]
 *  86  s16 pixelBoxLowerCorner[0..2]   92  s16 pixelBoxUpperCorner[0..2]   98..127  zero */
enum { AT_MAGIC = 0, AT_MODE = 4, AT_SWIZZLE = 8, AT_CHANNELS = 12, AT_PIXELS = 14, AT_ADDRESS = 16,
       AT_STRIDES = 24, AT_DIMS = 56, AT_BOX = 76, AT_ESTRIDES = 81, AT_LOWER = 86, AT_UPPER = 92 };
#define TMAP_MAGIC 0x6d787470u     /* "ptxm" */

unsigned tensormap_element_bytes(int dtype)
{
    static const uint8_t bytes[TMAP_TYPE_COUNT] = { 1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4 };
    return dtype >= 0 && dtype < TMAP_TYPE_COUNT ? bytes[dtype] : 0;
}

bool tensormap_float(int dtype)
{
    return dtype >= TMAP_FLOAT16 && dtype < TMAP_TYPE_COUNT;
}

unsigned tensormap_swizzle_span(int swizzle)
{
    return swizzle == TMAP_SWIZZLE_32B ? 32 : swizzle == TMAP_SWIZZLE_64B ? 64 : swizzle == TMAP_SWIZZLE_128B ? 128 : 0;
}

#define WHY(...) (snprintf(why, size, __VA_ARGS__), false)

bool tensormap_check(const TensorMap *t, char *why, size_t size)
{
    bool im2col = t->mode == TMAP_IM2COL;
    if (t->mode != TMAP_TILED && !im2col)
        return WHY("not a tensor map (mode %u)", t->mode);
    if (t->dtype >= TMAP_TYPE_COUNT)
        return t->dtype <= 15 ? WHY("tensorDataType %u (a packed 16U4/16U6 type) needs compute capability 10.0; "
                                    "this is an sm_90 device", t->dtype)
                              : WHY("tensorDataType %u is not a CUtensorMapDataType", t->dtype);
    unsigned es = tensormap_element_bytes(t->dtype);
    if (im2col ? t->rank < 3 || t->rank > 5 : t->rank < 1 || t->rank > 5)
        return WHY("tensorRank %u is not %s", t->rank, im2col ? "3, 4 or 5 (im2col)" : "1 to 5");
    if (t->interleave > TMAP_INTERLEAVE_32B)
        return WHY("interleave %u is not a CUtensorMapInterleave", t->interleave);
    if (t->interleave && t->rank < 3)
        return WHY("an interleaved layout needs tensorRank 3 or more (it is %u)", t->rank);
    if (t->swizzle > 6)
        return WHY("swizzle %u is not a CUtensorMapSwizzle", t->swizzle);
    if (t->swizzle > TMAP_SWIZZLE_128B)
        return WHY("swizzle %u (a 128B atom mode) needs compute capability 10.0; this is an sm_90 device", t->swizzle);
    if (t->l2 > 3)
        return WHY("l2Promotion %u is not a CUtensorMapL2promotion", t->l2);
    if (t->oobfill > 1)
        return WHY("oobFill %u is not a CUtensorMapFloatOOBfill", t->oobfill);
    if (t->oobfill && !tensormap_float(t->dtype))
        return WHY("oobFill NAN_REQUEST_ZERO_FMA needs a floating-point tensorDataType (it is %u)", t->dtype);
    unsigned align = t->interleave == TMAP_INTERLEAVE_32B ? 32 : 16;
    if (t->address % align)
        return WHY("globalAddress 0x%llx is not %u-byte aligned", (unsigned long long)t->address, align);
    for (unsigned i = 0; i < t->rank; i++)
        if (t->dim[i] == 0 || t->dim[i] > (1ull << 32))
            return WHY("globalDim[%u] is %llu, not 1 to 2^32", i, (unsigned long long)t->dim[i]);
    for (unsigned i = 1; i < t->rank; i++) {
        uint64_t s = t->stride[i];
        if (s % align || s >= (1ull << 40))
            return WHY("globalStrides[%u] is %llu, not a multiple of %u below 2^40", i - 1, (unsigned long long)s,
                       align);
    }
    for (unsigned i = 0; i < t->rank; i++)
        if (t->estride[i] == 0 || t->estride[i] > 8)
            return WHY("elementStrides[%u] is %u, not 1 to 8", i, t->estride[i]);
    unsigned span = tensormap_swizzle_span(t->swizzle);
    if (t->interleave == TMAP_INTERLEAVE_32B && t->swizzle != TMAP_SWIZZLE_32B)
        return WHY("interleave 32B needs swizzle 32B");
    uint64_t inner;
    if (im2col) {
        static const int limit[6] = { 0, 0, 0, 32768, 128, 16 };
        for (unsigned i = 0; i + 2 < t->rank; i++) {
            if (t->lower[i] < -limit[t->rank] || t->lower[i] >= limit[t->rank] || t->upper[i] < -limit[t->rank] ||
                t->upper[i] >= limit[t->rank])
                return WHY("pixelBox corner offsets of a rank-%u tensor must lie in [%d, %d]", t->rank,
                           -limit[t->rank], limit[t->rank] - 1);
            if ((int64_t)t->dim[i + 1] - 1 + t->upper[i] < t->lower[i])
                return WHY("the pixel box (lower corner %d, upper corner %d, globalDim[%u] %llu) is empty",
                           t->lower[i], t->upper[i], i + 1, (unsigned long long)t->dim[i + 1]);
        }
        if (t->channels == 0 || t->channels > 256)
            return WHY("channelsPerPixel is %u, not 1 to 256", t->channels);
        if (t->pixels == 0 || t->pixels > 1024)
            return WHY("pixelsPerColumn is %u, not 1 to 1024", t->pixels);
        inner = (uint64_t)t->channels * es;
    } else {
        for (unsigned i = 0; i < t->rank; i++)
            if (t->box[i] == 0 || t->box[i] > 256)
                return WHY("boxDim[%u] is %u, not 1 to 256", i, t->box[i]);
        inner = (uint64_t)t->box[0] * es;
        if (!t->interleave && inner % 16)
            return WHY("boxDim[0] * %u bytes = %llu, not a multiple of 16", es, (unsigned long long)inner);
    }
    if (!t->interleave && span && inner > span)
        return WHY("the box's inner dimension (%llu bytes) exceeds the %u-byte swizzle", (unsigned long long)inner,
                   span);
    return true;
}

static void put(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> 8 * i);
}

static uint64_t get(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << 8 * i;
    return v;
}

void tensormap_encode(const TensorMap *t, uint8_t out[TMAP_BYTES])
{
    memset(out, 0, TMAP_BYTES);
    put(out + AT_MAGIC, TMAP_MAGIC, 4);
    out[AT_MODE] = t->mode;
    out[AT_MODE + 1] = t->rank;
    out[AT_MODE + 2] = t->dtype;
    out[AT_MODE + 3] = t->interleave;
    out[AT_SWIZZLE] = t->swizzle;
    out[AT_SWIZZLE + 1] = t->l2;
    out[AT_SWIZZLE + 2] = t->oobfill;
    put(out + AT_CHANNELS, t->channels, 2);
    put(out + AT_PIXELS, t->pixels, 2);
    put(out + AT_ADDRESS, t->address, 8);
    for (unsigned i = 0; i < TMAP_MAX_RANK; i++) {
        if (i + 1 < TMAP_MAX_RANK)
            put(out + AT_STRIDES + 8 * i, i + 1 < t->rank ? t->stride[i + 1] : 0, 8);
        put(out + AT_DIMS + 4 * i, i < t->rank ? t->dim[i] - 1 : 0, 4);
        out[AT_BOX + i] = (uint8_t)(i < t->rank && t->box[i] ? t->box[i] - 1 : 0);
        out[AT_ESTRIDES + i] = (uint8_t)(i < t->rank ? t->estride[i] : 0);
        if (i < 3) {
            put(out + AT_LOWER + 2 * i, (uint16_t)t->lower[i], 2);
            put(out + AT_UPPER + 2 * i, (uint16_t)t->upper[i], 2);
        }
    }
}

bool tensormap_decode(const uint8_t in[TMAP_BYTES], TensorMap *t, char *why, size_t size)
{
    memset(t, 0, sizeof *t);
    if (get(in + AT_MAGIC, 4) != TMAP_MAGIC)
        return WHY("its 128 bytes are not a tensor map made by cuTensorMapEncode* or the lanes file");
    t->mode = in[AT_MODE];
    t->rank = in[AT_MODE + 1];
    t->dtype = in[AT_MODE + 2];
    t->interleave = in[AT_MODE + 3];
    t->swizzle = in[AT_SWIZZLE];
    t->l2 = in[AT_SWIZZLE + 1];
    t->oobfill = in[AT_SWIZZLE + 2];
    t->channels = (uint16_t)get(in + AT_CHANNELS, 2);
    t->pixels = (uint16_t)get(in + AT_PIXELS, 2);
    t->address = get(in + AT_ADDRESS, 8);
    t->stride[0] = tensormap_element_bytes(t->dtype);
    for (unsigned i = 0; i < TMAP_MAX_RANK && i < t->rank; i++) {
        if (i)
            t->stride[i] = get(in + AT_STRIDES + 8 * (i - 1), 8);
        t->dim[i] = get(in + AT_DIMS + 4 * i, 4) + 1;
        t->box[i] = t->mode == TMAP_TILED ? in[AT_BOX + i] + 1u : 0;
        t->estride[i] = in[AT_ESTRIDES + i];
    }
    for (unsigned i = 0; i < 3; i++) {
        t->lower[i] = (int16_t)get(in + AT_LOWER + 2 * i, 2);
        t->upper[i] = (int16_t)get(in + AT_UPPER + 2 * i, 2);
    }
    if (t->rank > TMAP_MAX_RANK)
        return WHY("tensorRank %u is not 1 to 5", t->rank);
    char inner[200];
    if (!tensormap_check(t, inner, sizeof inner))
        return WHY("its 128 bytes are not a valid tensor map: %s", inner);
    return true;
}

/* Elements the copy takes along dimension i of a tiled map: dimension 0 takes boxDim[0] unless
 * the layout is interleaved (elementStrides[0] is then ignored), the others ceil(box / stride). */
static uint32_t tile_extent(const TensorMap *t, unsigned i)
{
    if (i == 0 && !t->interleave)
        return t->box[0];
    return (t->box[i] + t->estride[i] - 1) / t->estride[i];
}

uint64_t tensormap_box_elements(const TensorMap *t)
{
    if (t->mode == TMAP_IM2COL)
        return (uint64_t)t->channels * t->pixels;
    uint64_t n = 1;
    for (unsigned i = 0; i < t->rank; i++)
        n *= tile_extent(t, i);
    return n;
}

void tensormap_pixels(const TensorMap *t, const int32_t *coord, int64_t (*at)[TMAP_MAX_RANK])
{
    /* The pixels are walked from the instruction's coordinates through the pixel box (lower
     * corner to globalDim - 1 + upper corner in each spatial dimension), W fastest, then H, D,
     * and N, each step the dimension's elementStrides. */
    unsigned spatial = t->rank - 2;
    int64_t pos[TMAP_MAX_RANK];
    for (unsigned i = 0; i < t->rank; i++)
        pos[i] = coord[i];
    for (unsigned p = 0; p < t->pixels; p++) {
        memcpy(at[p], pos, sizeof pos);
        unsigned i = 1;
        for (; i <= spatial; i++) {
            pos[i] += t->estride[i];
            if (pos[i] <= (int64_t)t->dim[i] - 1 + t->upper[i - 1])
                break;
            pos[i] = t->lower[i - 1];
        }
        if (i > spatial)
            pos[t->rank - 1] += t->estride[t->rank - 1];
    }
}

bool tensormap_element(const TensorMap *t, const int32_t *coord, const uint16_t *offsets,
                       const int64_t (*pixels)[TMAP_MAX_RANK], uint64_t e, int64_t g[TMAP_MAX_RANK])
{
    if (t->mode == TMAP_TILED) {
        for (unsigned i = 0; i < t->rank; i++) {
            uint32_t n = tile_extent(t, i);
            uint32_t k = (uint32_t)(e % n);
            e /= n;
            uint32_t step = i == 0 && !t->interleave ? 1 : t->estride[i];
            g[i] = (int64_t)coord[i] + (int64_t)k * step;
        }
    } else {
        /* im2col: channel c of pixel p of the column, read at the pixel's place plus the im2col
         * offsets */
        const int64_t *at = pixels[e / t->channels];
        g[0] = (int64_t)coord[0] + (int64_t)(e % t->channels);
        for (unsigned i = 1; i + 1 < t->rank; i++)
            g[i] = at[i] + offsets[i - 1];
        g[t->rank - 1] = at[t->rank - 1];
    }
    for (unsigned i = 0; i < t->rank; i++)
        if (g[i] < 0 || (uint64_t)g[i] >= t->dim[i])
            return false;
    return true;
}

uint64_t tensormap_global_address(const TensorMap *t, const int64_t g[TMAP_MAX_RANK])
{
    uint64_t a = t->address;
    for (unsigned i = 0; i < t->rank; i++)
        a += (uint64_t)g[i] * t->stride[i];
    return a;
}

uint64_t tensormap_swizzle(int swizzle, uint64_t address)
{
    /* The 16-byte chunk's index within its span (address bits 4 and up) XORed with the same
     * number of bits from bit 7 up: the 128-byte row's index, the pattern repeating every
     * 256, 512 or 1024 bytes (CuTe's Swizzle<1,4,3>, <2,4,3>, <3,4,3>). */
    unsigned bits = swizzle == TMAP_SWIZZLE_32B ? 1 : swizzle == TMAP_SWIZZLE_64B ? 2 : swizzle == TMAP_SWIZZLE_128B ? 3 : 0;
    uint64_t mask = ((1ull << bits) - 1) << 4;
    return address ^ ((address >> 3) & mask);
}

uint64_t tensormap_fill(const TensorMap *t)
{
    if (!t->oobfill)
        return 0;
    /* NAN_REQUEST_ZERO_FMA: the NaN CUDA names has no published bits; ptxrun's is the canonical
     * quiet NaN of the element's format (docs/semantics.md). */
    switch (t->dtype) {
    case TMAP_FLOAT16: return 0x7fff;
    case TMAP_BFLOAT16: return 0x7fff;
    case TMAP_FLOAT64: return 0x7fffffffffffffffull;
    default: return 0x7fffffff;
    }
}
