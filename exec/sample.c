/* sample.c: what a texture read samples, after the CUDA C Programming Guide's "Texture Fetching"
 * appendix. A coordinate x of a dimension of N texels (times N when the coordinates are
 * normalized) is sampled:
 *   nearest-point: T[floor(x)];
 *   linear: (1 - a) T[i] + a T[i+1] with i = floor(x - 0.5) and a = frac(x - 0.5), the weight
 *     held in 9-bit fixed point with 8 fractional bits (bilinear and trilinear likewise).
 * Normalized coordinates are first addressed: wrap takes frac(x), mirror frac(x) when floor(x)
 * is even and 1 - frac(x) when it is odd (the guide's formulas). A texel index then out of
 * range is clamped into it (clamp, mirror), wrapped (wrap) or reads zero (border). A cubemap's
 * direction picks a face by its major axis (the guide's cubemap table) and the two minor axes
 * become normalized face coordinates. Mipmaps: level l halves each dimension; the level of
 * detail picks one level, or blends two with a weight in 1/256 steps. What the documents leave
 * open the caller reports from the flags in TexSample. */
#include <math.h>
#include <string.h>

#include "family.h"

/* Channel c of texel (i, j, k), sample s of layer of level, as raw bits; the index is in range. */
static uint64_t texel_bits(const Warp *w, const Image *im, unsigned level, const int64_t idx[3], int64_t layer,
                           uint32_t s, unsigned c, uint64_t *dbits)
{
    const Region *r = &w->block->mem.regions[im->region];
    unsigned size = type_info[im->type].bits / 8;
    uint64_t n0 = image_level_size(im, level, 0), n1 = image_level_size(im, level, 1);
    uint64_t n2 = image_level_size(im, level, 2);
    uint64_t t = im->level_at[level] + (((uint64_t)layer * n2 + (uint64_t)idx[2]) * n1 + (uint64_t)idx[1]) * n0 +
                 (uint64_t)idx[0];
    if (im->samples)
        t = t * im->samples + s;
    uint64_t at = (t * im->channels + c) * size, v = 0, d = 0;
    for (unsigned b = 0; b < size; b++) {
        v |= (uint64_t)r->data[at + b] << 8 * b;
        d |= (uint64_t)r->shadow[at + b] << 8 * b;
    }
    *dbits = d | ~width_mask(size * 8);
    if (type_info[im->type].cls == 's')
        v = (uint64_t)(int64_t)(size == 1 ? (int8_t)v : size == 2 ? (int16_t)v : (int32_t)v);
    return v & 0xffffffffu;
}

/* A texel index of dimension d (n texels) under the addressing: false when it reads zero
 * (border, out of range). Mirror has already folded the coordinate: an index one beyond an
 * edge is the edge texel, as clamp gives it. */
static bool address_index(const Sampler *sm, unsigned d, int64_t n, int64_t *i)
{
    if (*i >= 0 && *i < n)
        return true;
    if (sm->address[d] == ADDRESS_BORDER)
        return false;
    if (sm->address[d] == ADDRESS_WRAP)
        *i = ((*i % n) + n) % n;
    else
        *i = *i < 0 ? 0 : n - 1;
    return true;
}

double sample_address(const Sampler *sm, unsigned d, double v)
{
    if (!sm->normalized_coords)
        return v;
    if (sm->address[d] == ADDRESS_WRAP)
        return v - floor(v);
    if (sm->address[d] == ADDRESS_MIRROR) {
        double f = v - floor(v);
        return fmod(floor(v), 2) != 0 ? 1 - f : f;
    }
    return v;
}

/* The value of a texel's channel as the filter weighs it. */
static double texel_value(const Image *im, uint64_t bits, TexSample *s)
{
    double v;
    if (type_info[im->type].cls == 'f') {
        float f;
        uint32_t b32 = (uint32_t)bits;
        memcpy(&f, &b32, sizeof f);
        v = f;
    } else {
        v = type_info[im->type].cls == 's' ? (double)(int32_t)bits : (double)bits;
    }
    if (im->normalized_float) {
        /* The integer's full range onto [0, 1] or [-1, 1] (CUDA guide: 0xff reads as 1). */
        unsigned n = type_info[im->type].bits;
        double top = type_info[im->type].cls == 's' ? (double)((1u << (n - 1)) - 1) : (double)((1u << n) - 1);
        s->warn_convert |= v < -top || (double)(float)(v / top) != v / top;
        v = v < -top ? -1.0 : v / top;
    }
    return v;
}

/* One level: at coordinates u (normalized coordinates already addressed, texels otherwise),
 * weighted by scale into s->value. Cube faces: a corner off the face makes s->off_face. */
static void sample_level(const Warp *w, const Image *im, const Sampler *sm, unsigned level, const double u[3],
                         int64_t layer, uint32_t smp, double scale, bool face, TexSample *s)
{
    int64_t base[3] = { 0, 0, 0 }, n[3];
    double weight[3] = { 0, 0, 0 };
    unsigned dims = im->dims;
    for (unsigned d = 0; d < dims; d++) {
        n[d] = image_level_size(im, level, d);
        double p = sm->normalized_coords || face ? u[d] * (double)n[d] : u[d];
        p = sm->linear ? p - 0.5 : p;
        p = p < -1e15 ? -1e15 : p > 1e15 ? 1e15 : p;   /* far outside either way; floor stays in range */
        base[d] = (int64_t)floor(p);
        if (sm->linear) {
            double a = (p - floor(p)) * 256;
            if (a != floor(a))
                s->warn_weight = true;
            weight[d] = nearbyint(a) / 256;    /* 9 bits, 8 of them fractional */
        }
    }
    unsigned corners = sm->linear ? 1u << dims : 1;
    for (unsigned k = 0; k < corners; k++) {
        int64_t idx[3] = { 0, 0, 0 };
        double wt = scale;
        bool zero = false;
        for (unsigned d = 0; d < dims; d++) {
            unsigned up = k >> d & 1;
            idx[d] = base[d] + up;
            if (sm->linear)
                wt *= up ? weight[d] : 1 - weight[d];
            if (face && (idx[d] < 0 || idx[d] >= n[d]) && wt != 0 && sm->linear)
                s->off_face = true;
            if (face)
                idx[d] = idx[d] < 0 ? 0 : idx[d] >= n[d] ? n[d] - 1 : idx[d];
            else
                zero |= !address_index(sm, d, n[d], &idx[d]);
        }
        if (wt == 0)
            continue;
        if (zero) {                            /* a border texel: +0, which turns a -0 sum into +0 */
            for (unsigned c = 0; c < im->channels; c++)
                s->value[c] += 0.0;
            continue;
        }
        for (unsigned c = 0; c < im->channels; c++) {
            uint64_t d;
            uint64_t bits = texel_bits(w, im, level, idx, layer, smp, c, &d);
            s->dbits[c] &= d;
            s->bits[c] = bits;
            double v = texel_value(im, bits, s);
            s->value[c] += wt * (s->compare ? sample_depth_test(im, s->compare, s->ref, bits) : v);
        }
    }
}

/* The level or levels the level of detail lod picks, and the second one's weight. */
static unsigned pick_levels(const Image *im, const Sampler *sm, double lod, unsigned *second, double *weight,
                            TexSample *s)
{
    double top = (double)(im->levels - 1);
    lod = lod < sm->min_lod ? sm->min_lod : lod > sm->max_lod ? sm->max_lod : lod;
    lod = lod < 0 ? 0 : lod > top ? top : lod;
    if (!sm->mip_linear) {
        if (lod - floor(lod) == 0.5)
            s->warn_level = true;
        *second = (unsigned)floor(lod + 0.5);
        *weight = 0;
        return *second;
    }
    unsigned first = (unsigned)floor(lod);
    double a = (lod - first) * 256;
    if (a != floor(a))
        s->warn_weight = true;
    *weight = nearbyint(a) / 256;
    *second = first + 1 < im->levels ? first + 1 : first;
    return first;
}

void sample_texture(const Warp *w, const Image *im, const Sampler *sm, const double u[3], int64_t layer,
                    uint32_t smp, double lod, bool face, TexSample *s)
{
    for (unsigned c = 0; c < 4; c++) {
        s->value[c] = -0.0;                    /* the sum's identity: a -0 texel read alone stays -0 */
        s->bits[c] = 0;
        s->dbits[c] = ~0ull;
    }
    unsigned second = 0;
    double weight = 0;
    unsigned first = im->levels > 1 ? pick_levels(im, sm, lod, &second, &weight, s) : 0;
    sample_level(w, im, sm, first, u, layer, smp, 1 - weight, face, s);
    if (weight != 0) {
        sample_level(w, im, sm, second, u, layer, smp, weight, face, s);
        s->filtered = true;
    }
    s->filtered |= sm->linear || im->normalized_float || s->compare;
}

double sample_depth_test(const Image *im, int compare, double ref, uint64_t bits)
{
    TexSample ignored;
    memset(&ignored, 0, sizeof ignored);
    double t = texel_value(im, bits, &ignored);
    bool pass;
    switch (compare) {
    case SAMPLER_NEVER: pass = false; break;
    case SAMPLER_LESS: pass = ref < t; break;
    case SAMPLER_EQUAL: pass = ref == t; break;
    case SAMPLER_LEQUAL: pass = ref <= t; break;
    case SAMPLER_GREATER: pass = ref > t; break;
    case SAMPLER_NOTEQUAL: pass = ref != t; break;
    case SAMPLER_GEQUAL: pass = ref >= t; break;
    default: pass = true; break;
    }
    return pass ? 1.0 : 0.0;
}

/* The CUDA guide's cubemap table: the face of direction (x, y, z) and the face coordinates
 * (s/m + 1)/2, (t/m + 1)/2 in [0, 1]; false for a tie between major axes (the table does not
 * say) or a zero direction. */
bool sample_cube_face(const double v[3], double uv[2], unsigned *face)
{
    double ax = fabs(v[0]), ay = fabs(v[1]), az = fabs(v[2]), m, sc, tc;
    if (ax > ay && ax > az) {
        *face = v[0] >= 0 ? 0 : 1;
        m = ax;
        sc = v[0] >= 0 ? -v[2] : v[2];
        tc = -v[1];
    } else if (ay > ax && ay > az) {
        *face = v[1] >= 0 ? 2 : 3;
        m = ay;
        sc = v[0];
        tc = v[1] >= 0 ? v[2] : -v[2];
    } else if (az > ax && az > ay) {
        *face = v[2] >= 0 ? 4 : 5;
        m = az;
        sc = v[2] >= 0 ? v[0] : -v[0];
        tc = -v[1];
    } else {
        return false;
    }
    uv[0] = (sc / m + 1) / 2;
    uv[1] = (tc / m + 1) / 2;
    return true;
}

/* .grad: log2 of the longer of the two gradients measured in texels of level 0 (OpenGL's
 * rule; the PTX ISA and the CUDA guide give none). */
double sample_grad_lod(const Image *im, const Sampler *sm, const double dx[3], const double dy[3])
{
    double lx = 0, ly = 0;
    for (unsigned d = 0; d < im->dims; d++) {
        double n = sm->normalized_coords ? (double)im->size[d] : 1;
        lx += dx[d] * n * dx[d] * n;
        ly += dy[d] * n * dy[d] * n;
    }
    double rho = sqrt(lx > ly ? lx : ly);
    return rho > 0 ? log2(rho) : -INFINITY;
}

/* tld4: channel c of the four texels a bilinear filter would weigh at u, counter-clockwise from
 * the lower left (PTX ISA): (i, j+1), (i+1, j+1), (i+1, j), (i, j); false when one lies off a
 * cube's face (the documents leave it open). A border texel is zero. */
bool sample_gather(const Warp *w, const Image *im, const Sampler *sm, const double u[2], int64_t layer, bool face,
                   unsigned c, uint64_t bits[4], uint64_t dbits[4])
{
    int64_t base[2], n[2];
    for (unsigned d = 0; d < 2; d++) {
        n[d] = im->size[d];
        double p = sm->normalized_coords || face ? u[d] * (double)n[d] : u[d];
        p = p < -1e15 ? -1e15 : p > 1e15 ? 1e15 : p;
        base[d] = (int64_t)floor(p - 0.5);
    }
    static const int di[4] = { 0, 1, 1, 0 }, dj[4] = { 1, 1, 0, 0 };
    for (unsigned k = 0; k < 4; k++) {
        int64_t idx[3] = { base[0] + di[k], base[1] + dj[k], 0 };
        bits[k] = 0;
        dbits[k] = ~0ull;
        if (face && (idx[0] < 0 || idx[0] >= n[0] || idx[1] < 0 || idx[1] >= n[1]))
            return false;
        if (address_index(sm, 0, n[0], &idx[0]) && address_index(sm, 1, n[1], &idx[1]))
            bits[k] = texel_bits(w, im, 0, idx, layer, 0, c, &dbits[k]);
    }
    return true;
}
