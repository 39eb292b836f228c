/* texture.c: textures (tex, tld4, txq) and istypep, after the CUDA C Programming Guide's
 * "Texture Fetching" appendix. A coordinate x of a dimension of N texels (times N when the
 * texture's coordinates are normalized) is sampled:
 *   nearest-point: T[floor(x)];
 *   linear: (1 - a) T[i] + a T[i+1] with i = floor(x - 0.5) and a = frac(x - 0.5), the weight
 *     held in 9-bit fixed point with 8 fractional bits (bilinear and trilinear likewise).
 * A texel index out of range is clamped into it (clamp), or reads zero (border); wrap takes
 * the fraction of a normalized coordinate. What the documents leave open is said in a warning:
 * the rounding of a weight that is not a multiple of 1/256, the precision of the filtered sum,
 * an 8- or 16-bit integer read as a normalized float that is not exact in .f32,
 * a channel the texture does not have (undefined), an integer coordinate out of range
 * (undefined). */
#include <math.h>
#include <string.h>

#include "exec.h"

static uint32_t pc_of(const Warp *w, const XInstr *x)
{
    return (uint32_t)(x - w->prog->code);
}

/* Channel c of texel (i, j, k) of layer, as raw bits; the texel's index is in range. */
static uint64_t texel_bits(const Warp *w, const Image *im, int64_t i, int64_t j, int64_t k, int64_t layer,
                           unsigned c, uint64_t *dbits)
{
    const Region *r = &w->block->mem.regions[im->region];
    unsigned size = type_info[im->type].bits / 8;
    uint64_t t = (((uint64_t)layer * im->size[2] + (uint64_t)k) * im->size[1] + (uint64_t)j) * im->size[0] +
                 (uint64_t)i;
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

/* A texel index of dimension d under the texture's addressing: false when it reads zero
 * (border, out of range). */
static bool address_index(const Image *im, unsigned d, int64_t *i)
{
    int64_t n = im->size[d];
    if (*i >= 0 && *i < n)
        return true;
    if (im->address[d] == ADDRESS_BORDER)
        return false;
    if (im->address[d] == ADDRESS_WRAP)
        *i = ((*i % n) + n) % n;
    else
        *i = *i < 0 ? 0 : n - 1;
    return true;
}

/* Coordinate d of lane l in texels (scaled by the size when normalized; the fraction first
 * under wrap). */
static double texel_coordinate(const Warp *w, const XInstr *x, const Image *im, int l, unsigned row, unsigned d)
{
    uint32_t b = (uint32_t)w->val[x->coord[row]][l];
    float f;
    memcpy(&f, &b, sizeof f);
    double v = f;
    if (im->normalized_coords) {
        if (im->address[d] == ADDRESS_WRAP)
            v -= floor(v);
        v *= im->size[d];
    }
    return v;
}

typedef struct Sample {
    double value[4];           /* linear filtering */
    uint64_t bits[4];          /* nearest-point: the texel's bits */
    uint64_t dbits[4];         /* all ones: defined */
    bool warn_weight, warn_sum, warn_convert;
} Sample;

/* Sampling at texel coordinates u[0..dims), layer: the filtered value of each channel. */
static void sample(const Warp *w, const Image *im, const double u[3], int64_t layer, Sample *s)
{
    int64_t base[3] = { 0, 0, 0 };
    double weight[3] = { 0, 0, 0 };
    for (unsigned d = 0; d < im->dims; d++) {
        double p = im->linear ? u[d] - 0.5 : u[d];
        p = p < -1e15 ? -1e15 : p > 1e15 ? 1e15 : p;   /* far outside either way; floor stays in range */
        base[d] = (int64_t)floor(p);
        if (im->linear) {
            double a = (p - floor(p)) * 256;
            if (a != floor(a))
                s->warn_weight = true;
            weight[d] = nearbyint(a) / 256;    /* 9 bits, 8 of them fractional */
        }
    }
    unsigned corners = im->linear ? 1u << im->dims : 1;
    for (unsigned c = 0; c < im->channels; c++) {
        s->value[c] = 0;
        s->bits[c] = 0;
        s->dbits[c] = ~0ull;
    }
    for (unsigned k = 0; k < corners; k++) {
        int64_t idx[3] = { 0, 0, 0 };
        double wt = 1;
        bool zero = false;
        for (unsigned d = 0; d < im->dims; d++) {
            unsigned up = k >> d & 1;
            idx[d] = base[d] + up;
            if (im->linear)
                wt *= up ? weight[d] : 1 - weight[d];
            zero |= !address_index(im, d, &idx[d]);
        }
        if (zero || wt == 0)
            continue;
        for (unsigned c = 0; c < im->channels; c++) {
            uint64_t d;
            uint64_t bits = texel_bits(w, im, idx[0], idx[1], idx[2], layer, c, &d);
            s->dbits[c] &= d;
            s->bits[c] = bits;
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
            s->value[c] += wt * v;
        }
    }
    for (unsigned c = 0; c < im->channels && im->linear; c++)
        if ((double)(float)s->value[c] != s->value[c] && !isnan(s->value[c]))
            s->warn_sum = true;
}

static void write_channel(Warp *w, const XInstr *x, const Image *im, int l, unsigned i, const Sample *s)
{
    uint32_t row = x->vec[i];
    if (row == NO_SLOT)
        return;
    double v = s->value[i];
    uint64_t bits = s->bits[i], dbits = s->dbits[i];
    if (!im->linear && !im->normalized_float) {
        /* nearest-point: the texel as it is */
    } else if (type_info[im->type].cls == 'f' || im->normalized_float) {
        float f = (float)v;
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        bits = b;
    } else {
        bits = (uint64_t)(uint32_t)(int64_t)v;
    }
    w->val[row][l] = bits;
    warp_define_bits(w, row, l, (dbits & 0xffffffffu) == 0xffffffffu ? ~0ull : dbits, 64);
}

static void undefined_channel(Warp *w, const XInstr *x, int l, unsigned i)
{
    if (x->vec[i] == NO_SLOT)
        return;
    w->val[x->vec[i]][l] = 0;
    warp_define_bits(w, x->vec[i], l, 0, 64);
}

/* tex: lane l. */
static void fetch(Warp *w, const XInstr *x, const Image *im, int l)
{
    uint32_t pc = pc_of(w, x);
    char want = im->normalized_float ? 'f' : type_info[im->type].cls;
    if (want != x->cls) {
        report_fault(w, pc, "lane %d (pc %u): '%s' reads texture '%s' of .%s texels%s: its result type must be .%s",
                     l, pc, x->ir->mnemonic, im->name, type_info[im->type].name,
                     im->normalized_float ? " as normalized floats" : "",
                     want == 'f' ? "f32" : want == 's' ? "s32" : "u32");
        return;
    }
    bool layered = x->geom == GEOM_A1D || x->geom == GEOM_A2D;
    int64_t layer = layered ? (int64_t)(uint32_t)w->val[x->coord[0]][l] : 0;
    unsigned first = layered ? 1 : 0;
    Sample s;
    memset(&s, 0, sizeof s);
    if (layer >= (int64_t)(im->layers ? im->layers : 1)) {
        report_warn(w, pc, 1u << l, "texture read of a layer the texture lacks (the documents leave the result "
                                    "open): undefined");
        for (unsigned i = 0; i < 4; i++)
            undefined_channel(w, x, l, i);
        return;
    }
    if (x->src_type == TYPE_S32) {
        /* Integer coordinates: the texel itself, when the texture is read by unnormalized
         * nearest-point; otherwise, or out of range, the documents say nothing. */
        bool inside = !im->linear && !im->normalized_coords;
        double u[3] = { 0, 0, 0 };
        for (unsigned d = 0; d < im->dims; d++) {
            int64_t i = (int32_t)w->val[x->coord[first + d]][l];
            inside &= i >= 0 && i < im->size[d];
            u[d] = (double)i;
        }
        if (!inside) {
            report_warn(w, pc, 1u << l, "texture read at integer coordinates out of range, or with linear filtering "
                                        "or normalized coordinates (the ISA leaves the result open): undefined");
            for (unsigned i = 0; i < 4; i++)
                undefined_channel(w, x, l, i);
            return;
        }
        sample(w, im, u, layer, &s);
    } else {
        double u[3] = { 0, 0, 0 };
        for (unsigned d = 0; d < im->dims; d++) {
            u[d] = texel_coordinate(w, x, im, l, first + d, d);
            if (isnan(u[d]) || isinf(u[d])) {
                report_warn(w, pc, 1u << l, "texture read at a NaN or infinite coordinate (the documents leave "
                                            "the result open): undefined");
                for (unsigned i = 0; i < 4; i++)
                    undefined_channel(w, x, l, i);
                return;
            }
        }
        sample(w, im, u, layer, &s);
    }
    if (s.warn_weight)
        report_warn(w, pc, 1u << l, "linear filtering weight not a multiple of 1/256 (the CUDA guide keeps it in 9-bit "
                                    "fixed point without saying how it rounds): rounded to nearest");
    if (s.warn_convert)
        report_warn(w, pc, 1u << l, "texel read as a normalized float not exact in .f32, or the most negative "
                                    "integer (the CUDA guide does not say how it rounds or maps): rounded to "
                                    "nearest, or -1");
    if (s.warn_sum)
        report_warn(w, pc, 1u << l, "linear filtering result not exact in .f32 (the documents do not give the "
                                    "filter's precision): rounded to nearest");
    for (unsigned i = 0; i < 4; i++) {
        if (i < im->channels)
            write_channel(w, x, im, l, i, &s);
        else
            undefined_channel(w, x, l, i);     /* a channel the texture lacks: the documents say nothing */
    }
}

/* tld4: the four texels a bilinear filter would weigh, counter-clockwise from the lower left
 * (PTX ISA): (i, j+1), (i+1, j+1), (i+1, j), (i, j); channel x->mode of each. */
static void gather(Warp *w, const XInstr *x, const Image *im, int l)
{
    uint32_t pc = pc_of(w, x);
    char want = type_info[im->type].cls;
    if (want != x->cls) {
        report_fault(w, pc, "lane %d (pc %u): '%s' reads texture '%s' of .%s texels: its result type must be .%s", l,
                     pc, x->ir->mnemonic, im->name, type_info[im->type].name,
                     want == 'f' ? "f32" : want == 's' ? "s32" : "u32");
        return;
    }
    unsigned c = x->mode == MOD_R ? 0 : x->mode == MOD_G ? 1 : x->mode == MOD_B ? 2 : 3;
    bool layered = x->geom == GEOM_A2D;
    int64_t base[2], layer = layered ? (int64_t)(uint32_t)w->val[x->coord[0]][l] : 0;
    for (unsigned d = 0; d < 2; d++) {
        double u = texel_coordinate(w, x, im, l, d + layered, d);
        if (isnan(u) || isinf(u) || c >= im->channels || layer >= (int64_t)(im->layers ? im->layers : 1)) {
            report_warn(w, pc, 1u << l, "tld4 at a NaN or infinite coordinate, of a channel or a layer the texture "
                                        "lacks (the documents leave the result open): undefined");
            for (unsigned i = 0; i < 4; i++)
                undefined_channel(w, x, l, i);
            return;
        }
        u = u < -1e15 ? -1e15 : u > 1e15 ? 1e15 : u;
        base[d] = (int64_t)floor(u - 0.5);
    }
    static const int di[4] = { 0, 1, 1, 0 }, dj[4] = { 1, 1, 0, 0 };
    for (unsigned k = 0; k < 4; k++) {
        int64_t i = base[0] + di[k], j = base[1] + dj[k];
        if (x->vec[k] == NO_SLOT)
            continue;
        uint64_t d = ~0ull, bits = 0;          /* border: zero */
        if (address_index(im, 0, &i) && address_index(im, 1, &j))
            bits = texel_bits(w, im, i, j, 0, layer, c, &d);
        w->val[x->vec[k]][l] = bits;
        warp_define_bits(w, x->vec[k], l, (d & 0xffffffffu) == 0xffffffffu ? ~0ull : d, 64);
    }
}

static void query(Warp *w, const XInstr *x, const Image *im, int l)
{
    uint64_t v;
    bool known = image_query(x->mode, im, &v);
    if (x->dst_kind != DST_VALUE)
        return;
    w->val[x->dst][l] = v;
    warp_define_bits(w, x->dst, l, known ? ~0ull : 0, 64);   /* a size the texture lacks: undefined */
}

/* istypep: whether the handle names a texture (.texref) or a surface (.surfref). A texture
 * object carries its sampler, and the ISA does not say what .samplerref answers for one:
 * undefined, as for a handle that names nothing. A variable's handle (mov.u64 r, t) has its
 * declared type, with or without an image in the lanes file. */
static void istypep(Warp *w, const XInstr *x, uint32_t mask)
{
    uint32_t yes = 0, known = 0;
    for (uint32_t k = mask & w->defined[x->src[0]]; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        const Decl *d = opaque_of(w->block, w->val[x->src[0]][l]);
        if (d) {
            int space = x->mode == MOD_TEXREF ? SPACE_TEX : x->mode == MOD_SURFREF ? SPACE_SURF : SPACE_SAMPLER;
            known |= 1u << l;
            yes |= d->space == space ? 1u << l : 0;
            continue;
        }
        const Image *im = image_of(w->block, w->val[x->src[0]][l]);
        if (!im || x->mode == MOD_SAMPLERREF)
            continue;
        known |= 1u << l;
        yes |= (x->mode == MOD_SURFREF) == im->surface ? 1u << l : 0;
    }
    if (x->dst_kind != DST_PRED)
        return;
    w->pred[x->dst] = (w->pred[x->dst] & ~mask) | (yes & mask);
    w->pred_defined[x->dst] = (w->pred_defined[x->dst] & ~mask) | (known & mask);
}

void texture_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    if (x->op == OP_ISTYPEP) {
        istypep(w, x, mask);
        return;
    }
    for (uint32_t k = mask; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        const Image *im = image_for(w, x, l, false);
        if (!im)
            return;
        if (x->op == OP_TXQ)
            query(w, x, im, l);
        else if (x->op == OP_TLD4)
            gather(w, x, im, l);
        else
            fetch(w, x, im, l);
        if (w->faulted)
            return;
    }
}
