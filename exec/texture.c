/* texture.c: textures (tex, tld4, txq) and istypep: what a lane reads, from which texture and
 * sampler, at which coordinates, level and layer; sample.c samples. What the documents leave
 * open is said in a warning: the rounding of a weight that is not a multiple of 1/256, the
 * precision of the filtered result, an 8- or 16-bit integer read as a normalized float that is
 * not exact in .f32, the nearest mipmap level half-way between two, the level of detail from
 * gradients, the numbers txq gives for enumerations; a channel the texture does not have, an
 * integer coordinate, a layer or a sample out of range and linear filtering across a cube's
 * faces are undefined. */
#include <math.h>
#include <string.h>

#include "family.h"

static uint32_t pc_of(const Warp *w, const XInstr *x)
{
    return (uint32_t)(x - w->prog->code);
}

static double float_at(const Warp *w, uint32_t row, int l)
{
    uint32_t b = (uint32_t)w->val[row][l];
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static void undefined_channel(Warp *w, const XInstr *x, int l, unsigned i)
{
    if (x->vec[i] == NO_SLOT)
        return;
    w->val[x->vec[i]][l] = 0;
    warp_define_bits(w, x->vec[i], l, 0, 64);
}

/* why: ends "(the documents leave the result open): undefined". */
static void undefined_result(Warp *w, const XInstr *x, int l, const char *why)
{
    report_warn(w, pc_of(w, x), 1u << l, why);
    for (unsigned i = 0; i < 4; i++)
        undefined_channel(w, x, l, i);
}

/* The sampler of lane l: the separate one its handle names, or the texture's own; NULL after a
 * fault. A .samplerref's normalizes coordinates as the texture says (unless it forces
 * unnormalized ones): that sampler is completed in *scratch. NULL also after an undefined
 * result (unnormalized coordinates where CUDA defines none). */
static const Sampler *sampler_for(Warp *w, const XInstr *x, const Image *im, int l, Sampler *scratch)
{
    if (!x->has_sampler)
        return &im->sampler;
    const Sampler *sm = sampler_of(w->block, warp_src(w, x->src[1])[l]);
    if (sm && sm->texture_coords) {
        *scratch = *sm;
        scratch->normalized_coords = im->sampler.normalized_coords && !sm->force_unnormalized;
        sm = scratch;
    }
    uint32_t pc = pc_of(w, x);
    if (!sm)
        report_fault(w, pc, "lane %d (pc %u): '%s' through 0x%llx, which is not the handle of a sampler", l, pc,
                     x->ir->mnemonic, (unsigned long long)warp_src(w, x->src[1])[l]);
    else if (sm->linear && im->type != TYPE_F32 && !im->normalized_float)
        report_fault(w, pc, "lane %d (pc %u): '%s': sampler '%s' filters linearly texture '%s', which does not "
                     "return floats", l, pc, x->ir->mnemonic, sm->name, im->name);
    else if ((sm->mip_linear && im->levels > 1 && im->type != TYPE_F32 && !im->normalized_float))
        report_fault(w, pc, "lane %d (pc %u): '%s': sampler '%s' blends mipmap levels of texture '%s', which "
                     "does not return floats", l, pc, x->ir->mnemonic, sm->name, im->name);
    else if (!sm->normalized_coords && x->geom != GEOM_CUBE && x->geom != GEOM_ACUBE &&
             (im->levels > 1 || sm->address[0] == ADDRESS_WRAP || sm->address[0] == ADDRESS_MIRROR ||
              (im->dims > 1 && (sm->address[1] == ADDRESS_WRAP || sm->address[1] == ADDRESS_MIRROR)) ||
              (im->dims > 2 && (sm->address[2] == ADDRESS_WRAP || sm->address[2] == ADDRESS_MIRROR))))
        /* A separate sampler (a .samplerref forcing unnormalized coordinates, or one on a texture
         * whose coordinates are not normalized; a lanes-file sampler) with wrap or mirror
         * addressing, or on a mipmapped texture: CUDA defines neither for unnormalized
         * coordinates (the lanes file refuses them on a texture's own sampling). */
        undefined_result(w, x, l, "texture read with unnormalized coordinates under wrap or mirror addressing, or "
                                  "of a mipmapped texture (the documents leave the result open): undefined");
    else
        return sm;
    return NULL;
}

/* A filtered value into the destination's format: .f32, .f16 or (packed) .f16x2, rounded to
 * nearest even; *inexact when it rounds. */
static uint32_t to_float(const XInstr *x, double v, bool *inexact)
{
    if (x->type == TYPE_F16 || x->type == TYPE_F16X2) {
        uint32_t h = half_encode(v, TYPE_F16, MOD_RN, false);
        *inexact |= !isnan(v) && half_decode(h, TYPE_F16) != v;
        return h;
    }
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    *inexact |= !isnan(v) && (double)f != v;
    return b;
}

static void write_result(Warp *w, const XInstr *x, const Image *im, int l, const TexSample *s)
{
    bool inexact = false;
    uint64_t out[4], dout[4];
    for (unsigned i = 0; i < 4; i++) {
        uint64_t bits = s->bits[i];
        if (i >= im->channels) {
            dout[i] = 0;                       /* a channel the texture lacks: the documents say nothing */
            out[i] = 0;
            continue;
        }
        if (x->type == TYPE_F16 || x->type == TYPE_F16X2 || (s->filtered && x->cls == 'f'))
            bits = to_float(x, s->value[i], &inexact);
        out[i] = bits;
        dout[i] = (s->dbits[i] & 0xffffffffu) == 0xffffffffu ? ~0ull : s->dbits[i];
    }
    if (inexact)
        report_warn(w, pc_of(w, x), 1u << l, x->cls == 'f' && x->bits == 32 && x->type == TYPE_F32
                    ? "texture result not exact in .f32 (the documents do not give the filter's precision): rounded "
                      "to nearest even"
                    : "texture result not exact in .f16 (the documents do not give the filter's precision or the "
                      "conversion): rounded to nearest even");
    if (x->type == TYPE_F16X2) {
        report_warn(w, pc_of(w, x), 1u << l, "tex .f16x2: the ISA does not say which half holds which channel: "
                                             "R and B in the lower halves, G and A in the upper");
        for (unsigned k = 0; k < 2; k++) {
            if (x->vec[k] == NO_SLOT)
                continue;
            w->val[x->vec[k]][l] = out[2 * k] | out[2 * k + 1] << 16;
            uint64_t d = ((dout[2 * k] == ~0ull ? 0xffffull : 0) | (dout[2 * k + 1] == ~0ull ? 0xffff0000ull : 0));
            warp_define_bits(w, x->vec[k], l, d == 0xffffffffull ? ~0ull : d, 64);
        }
        return;
    }
    for (unsigned i = 0; i < 4; i++) {
        if (x->vec[i] == NO_SLOT)
            continue;
        w->val[x->vec[i]][l] = out[i];
        warp_define_bits(w, x->vec[i], l, dout[i], 64);
    }
}

/* The level of detail of lane l: 0 (.base), the operand (.level) or from the gradients (.grad);
 * false after reporting an undefined result. */
static bool level_of_detail(Warp *w, const XInstr *x, const Image *im, const Sampler *sm, int l, double *lod)
{
    *lod = 0;
    if (x->mip == MOD_LEVEL) {
        *lod = float_at(w, x->src[2], l);
    } else if (x->mip == MOD_GRAD) {
        if (x->geom == GEOM_CUBE || x->geom == GEOM_ACUBE) {
            undefined_result(w, x, l, "tex.grad of a cubemap: the level of detail from the gradients of a direction (the documents leave the result open): undefined");
            return false;
        }
        double dx[3] = { 0, 0, 0 }, dy[3] = { 0, 0, 0 };
        for (unsigned d = 0; d < 3; d++) {
            dx[d] = x->grad[d] == NO_SLOT ? 0 : float_at(w, x->grad[d], l);
            dy[d] = x->grad[3 + d] == NO_SLOT ? 0 : float_at(w, x->grad[3 + d], l);
        }
        *lod = sample_grad_lod(im, sm, dx, dy);
        if (im->levels > 1)
            report_warn(w, pc_of(w, x), 1u << l, "tex.grad: neither the ISA nor the CUDA guide gives the level of "
                                                 "detail from the gradients: ptxrun takes log2 of the longer "
                                                 "gradient in texels of level 0 (OpenGL's rule)");
    }
    if (isnan(*lod)) {
        undefined_result(w, x, l, "texture read at a NaN level of detail (the documents leave the result open): undefined");
        return false;
    }
    return true;
}

/* Lane l's coordinates by the geometry: the layer (a cube's face included), the multisample
 * sample, and u (texels or normalized, addressed; a cube face's in [0, 1]); false after
 * reporting an undefined result. */
static bool coordinates_of(Warp *w, const XInstr *x, const Image *im, const Sampler *sm, int l, double u[3],
                           int64_t *layer, uint32_t *smp, bool *face)
{
    int g = x->geom;
    unsigned first = 0;
    *layer = 0;
    *smp = 0;
    *face = g == GEOM_CUBE || g == GEOM_ACUBE;
    if (g == GEOM_A1D || g == GEOM_A2D || g == GEOM_ACUBE || g == GEOM_A2DMS)
        *layer = (int64_t)(uint32_t)w->val[x->coord[first++]][l];
    if (g == GEOM_2DMS || g == GEOM_A2DMS)
        *smp = (uint32_t)w->val[x->coord[first++]][l];
    if (*layer >= (int64_t)(im->layers ? im->layers : 1)) {
        undefined_result(w, x, l, "texture read of a layer the texture lacks (the documents leave the result open): undefined");
        return false;
    }
    if (g == GEOM_A2DMS)
        report_warn(w, pc_of(w, x), 1u << l, "tex.a2dms: the ISA's text puts the sample first and the layer "
                                             "second, its example the other way: ptxrun follows the example "
                                             "({layer, sample, x, y})");
    if (im->samples && *smp >= im->samples) {
        undefined_result(w, x, l, "multisample texture read of a sample the texture lacks (the documents leave the result open): undefined");
        return false;
    }
    if (*face) {
        double v[3], uv[2];
        unsigned f;
        for (unsigned d = 0; d < 3; d++)
            v[d] = float_at(w, x->coord[first + d], l);
        if (isnan(v[0]) || isnan(v[1]) || isnan(v[2]) || isinf(v[0]) || isinf(v[1]) || isinf(v[2]) ||
            !sample_cube_face(v, uv, &f)) {
            undefined_result(w, x, l, "cubemap read in a NaN, infinite or zero direction, or one with two "
                                      "major axes of equal magnitude (the documents leave the result open): undefined");
            return false;
        }
        u[0] = uv[0];
        u[1] = uv[1];
        u[2] = 0;
        *layer = *layer * 6 + f;
        return true;
    }
    int32_t off[3] = { 0, 0, 0 };
    for (unsigned d = 0; d < 3; d++) {
        if (x->texel_offset[d] == NO_SLOT)
            continue;
        off[d] = (int32_t)w->val[x->texel_offset[d]][l];
        if (off[d] < -8 || off[d] > 7 || im->levels > 1) {
            undefined_result(w, x, l, off[d] < -8 || off[d] > 7
                             ? "texture read with an offset outside -8 to +7 (the ISA's range): undefined"
                             : "texture read with an offset on a mipmapped texture (the documents do not say in "
                               "which level's texels it counts): undefined");
            return false;
        }
    }
    if (x->src_type == TYPE_S32) {
        /* Integer coordinates: the texel itself, when the texture is read by unnormalized
         * nearest-point (multisample textures: always); otherwise, or out of range, the
         * documents say nothing. The offset is added to them. */
        bool inside = im->samples || (!sm->linear && !sm->normalized_coords);
        for (unsigned d = 0; d < im->dims; d++) {
            int64_t i = (int64_t)(int32_t)w->val[x->coord[first + d]][l] + off[d];
            inside &= i >= 0 && i < im->size[d];
            u[d] = (double)i;
        }
        if (!inside) {
            undefined_result(w, x, l, "texture read at integer coordinates out of range, or with linear filtering "
                                      "or normalized coordinates (the documents leave the result open): undefined");
            return false;
        }
        return true;
    }
    for (unsigned d = 0; d < im->dims; d++) {
        u[d] = float_at(w, x->coord[first + d], l);
        if (isnan(u[d]) || isinf(u[d])) {
            undefined_result(w, x, l, "texture read at a NaN or infinite coordinate (the documents leave the result open): undefined");
            return false;
        }
        /* The offset, in texels, is applied before the lookup (PTX ISA) and so before addressing. */
        u[d] += sm->normalized_coords ? off[d] / (double)im->size[d] : off[d];
        u[d] = sample_address(sm, d, u[d]);
    }
    return true;
}

/* The depth compare of tex or tld4 with an operand f (PTX ISA: each texel compared with f gives
 * 1.0 or 0.0, which are then filtered). The ISA names no comparison: the sampler's "compare"
 * in the lanes file gives it; without one, or into integer results, undefined with a warning. */
static bool depth_compare_of(Warp *w, const XInstr *x, const Sampler *sm, int l, TexSample *s)
{
    if (!sm->compare) {
        undefined_result(w, x, l, "depth compare: the ISA does not say which comparison (give the texture or "
                                  "sampler \"compare\" in the lanes file): undefined");
        return false;
    }
    if (x->cls != 'f') {
        undefined_result(w, x, l, "depth compare into integer results (the ISA gives 1.0 or 0.0, floats): undefined");
        return false;
    }
    s->compare = sm->compare;
    s->ref = float_at(w, x->depth_ref, l);
    return true;
}

/* tex: lane l. */
static void fetch(Warp *w, const XInstr *x, const Image *im, int l)
{
    uint32_t pc = pc_of(w, x);
    char want = im->normalized_float ? 'f' : type_info[im->type].cls;
    if (want != x->cls) {
        report_fault(w, pc, "lane %d (pc %u): '%s' reads texture '%s' of .%s texels%s: its result type must be %s",
                     l, pc, x->ir->mnemonic, im->name, type_info[im->type].name,
                     im->normalized_float ? " as normalized floats" : "",
                     want == 'f' ? ".f32, .f16 or .f16x2" : want == 's' ? ".s32" : ".u32");
        return;
    }
    Sampler scratch;
    const Sampler *sm = sampler_for(w, x, im, l, &scratch);
    double u[3] = { 0, 0, 0 }, lod;
    int64_t layer;
    uint32_t smp;
    bool face;
    if (!sm || !coordinates_of(w, x, im, sm, l, u, &layer, &smp, &face) || !level_of_detail(w, x, im, sm, l, &lod))
        return;
    TexSample s;
    memset(&s, 0, sizeof s);
    if (x->depth_ref != NO_SLOT && !depth_compare_of(w, x, sm, l, &s))
        return;
    sample_texture(w, im, sm, u, layer, smp, lod, face, &s);
    if (s.off_face) {
        undefined_result(w, x, l, "linear filtering of a cubemap across the edge of a face (the documents leave the result open): undefined");
        return;
    }
    if (s.warn_weight)
        report_warn(w, pc, 1u << l, "linear filtering weight not a multiple of 1/256 (the CUDA guide keeps it in 9-bit "
                                    "fixed point without saying how it rounds; mipmap blending weights likewise): "
                                    "rounded to nearest");
    if (s.warn_convert)
        report_warn(w, pc, 1u << l, "texel read as a normalized float not exact in .f32, or the most negative "
                                    "integer (the CUDA guide does not say how it rounds or maps): rounded to "
                                    "nearest, or -1");
    if (s.warn_level)
        report_warn(w, pc, 1u << l, "level of detail half-way between two mipmap levels (the documents do not say "
                                    "which the nearest is): the higher level");
    write_result(w, x, im, l, &s);
}

/* tld4: the component x->mode of the four texels a bilinear filter would weigh. */
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
    Sampler scratch;
    const Sampler *sm = sampler_for(w, x, im, l, &scratch);
    unsigned c = x->mode == MOD_R ? 0 : x->mode == MOD_G ? 1 : x->mode == MOD_B ? 2 : 3;
    double u[3] = { 0, 0, 0 };
    int64_t layer;
    uint32_t smp;
    bool face;
    if (!sm || !coordinates_of(w, x, im, sm, l, u, &layer, &smp, &face))
        return;
    uint64_t bits[4], dbits[4];
    if (c >= im->channels) {
        undefined_result(w, x, l, "tld4 of a channel the texture lacks (the documents leave the result open): undefined");
        return;
    }
    if (!sample_gather(w, im, sm, u, layer, face, c, bits, dbits)) {
        undefined_result(w, x, l, "tld4 of a cubemap across the edge of a face (the documents leave the result open): undefined");
        return;
    }
    TexSample depth;
    memset(&depth, 0, sizeof depth);
    if (x->depth_ref != NO_SLOT && !depth_compare_of(w, x, sm, l, &depth))
        return;
    for (unsigned k = 0; k < 4; k++) {
        if (x->vec[k] == NO_SLOT)
            continue;
        if (depth.compare)                     /* 1.0 or 0.0 where the texel passes */
            bits[k] = sample_depth_test(im, depth.compare, depth.ref, bits[k]) != 0 ? 0x3f800000u : 0;
        w->val[x->vec[k]][l] = bits[k];
        warp_define_bits(w, x->vec[k], l, (dbits[k] & 0xffffffffu) == 0xffffffffu ? ~0ull : dbits[k], 64);
    }
}

/* txq: of a texture (its own sampler for the sampler's attributes) or of a separate sampler. */
static void query(Warp *w, const XInstr *x, const Image *im, const Sampler *sm, int l)
{
    uint64_t v;
    bool open;
    unsigned level = x->mip == MOD_LEVEL ? (unsigned)(int32_t)warp_src(w, x->src[2])[l] : 0;
    if (x->mip == MOD_LEVEL && (int32_t)warp_src(w, x->src[2])[l] < 0)
        level = ~0u;
    bool known = image_query(x->mode, im, sm, level, &v, &open);
    if (open)
        report_warn(w, pc_of(w, x), 1u << l, "txq: the ISA names no number for this attribute: ptxrun gives "
                                             "OpenCL's (channel_data_type, channel_order) or CUDA's (filter_mode, "
                                             "addr_mode: wrap 0, clamp 1, mirror 2, border 3)");
    if (!known)
        report_warn(w, pc_of(w, x), 1u << l, "txq of an attribute the texture or sampler lacks (a size it does not "
                                             "have, a level beyond its last): undefined");
    if (x->dst_kind != DST_VALUE)
        return;
    w->val[x->dst][l] = v;
    warp_define_bits(w, x->dst, l, known ? ~0ull : 0, 64);
}

/* istypep: whether the handle names a texture (.texref), a surface (.surfref) or a separate
 * sampler (.samplerref). A texture object carries its sampler, and the ISA does not say what
 * .samplerref answers for one: undefined, as for a handle that names nothing. A variable's
 * handle (mov.u64 r, t) has its declared type, with or without an image in the lanes file. */
static void istypep(Warp *w, const XInstr *x, uint32_t mask)
{
    uint32_t yes = 0, known = 0;
    for (uint32_t k = mask & w->defined[x->src[0]]; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        const Decl *d = opaque_of(w->block, warp_src(w, x->src[0])[l]);
        if (d) {
            int space = x->mode == MOD_TEXREF ? SPACE_TEX : x->mode == MOD_SURFREF ? SPACE_SURF : SPACE_SAMPLER;
            known |= 1u << l;
            yes |= d->space == space ? 1u << l : 0;
            continue;
        }
        const Image *im = image_of(w->block, warp_src(w, x->src[0])[l]);
        if (sampler_of(w->block, warp_src(w, x->src[0])[l])) {
            known |= 1u << l;
            yes |= x->mode == MOD_SAMPLERREF ? 1u << l : 0;
            continue;
        }
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
        if (x->op == OP_TXQ && !x->image_name && (w->defined[x->src[0]] >> l & 1)) {
            const Sampler *sm = sampler_of(w->block, warp_src(w, x->src[0])[l]);
            if (sm) {
                query(w, x, NULL, sm, l);
                continue;
            }
        }
        const Image *im = image_for(w, x, l, false);
        if (!im)
            return;
        if (x->op == OP_TXQ)
            query(w, x, im, &im->sampler, l);
        else if (x->op == OP_TLD4)
            gather(w, x, im, l);
        else
            fetch(w, x, im, l);
        if (w->faulted)
            return;
        if (x->op != OP_TXQ && x->dst_pred != NO_SLOT) {   /* d|p: the lanes file's textures are resident */
            w->pred[x->dst_pred] |= 1u << l;
            w->pred_defined[x->dst_pred] |= 1u << l;
        }
    }
}
