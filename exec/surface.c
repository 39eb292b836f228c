/* surface.c: surfaces (suld.b, sust.b, sust.p, sured.b, suq), and what texture and surface instructions share:
 * their lowering (image_load, image_lower) and the image a lane's handle names (image_for). A surface is an Image of the block (block.h): its
 * texels in a .global region, row after row. suld.b and sust.b address a row by the byte (the
 * first coordinate is a byte offset, PTX ISA "suld"), the other coordinates by the texel; a
 * layered surface's layer comes first. Out of range, .trap is a fault, .zero reads zeros and
 * drops stores, and .clamp goes to "the nearest surface location (sized appropriately)", which
 * the ISA leaves open: each coordinate into its range, x to the last place where the whole
 * access fits, with a warning. */
#include <stdio.h>
#include <string.h>

#include "family.h"

/* The suffixes both families share: geometry, vector, out-of-range mode, query. */
void image_lower(XInstr *x, const Instr *in)
{
    x->out_of_range = MOD_TRAP;
    x->mode = 0;
    x->mip = 0;
    x->has_sampler = false;
    x->vec_count = in->op == OP_TEX || in->op == OP_TLD4 ? 4 : 1;
    x->src_type = in->op == OP_TEX ? in->types[1] : in->op == OP_TLD4 ? TYPE_F32 : TYPE_S32;
    for (unsigned i = 0; i < in->mod_count; i++) {
        Mod m = in->mods[i];
        switch (m) {
        case MOD_GEOM_1D: x->geom = GEOM_1D; x->coord_count = 1; break;
        case MOD_GEOM_2D: x->geom = GEOM_2D; x->coord_count = 2; break;
        case MOD_GEOM_3D: x->geom = GEOM_3D; x->coord_count = 4; break;
        case MOD_GEOM_A1D: x->geom = GEOM_A1D; x->coord_count = 2; break;
        case MOD_GEOM_A2D: x->geom = GEOM_A2D; x->coord_count = 4; break;
        case MOD_GEOM_CUBE: x->geom = GEOM_CUBE; x->coord_count = 4; break;
        case MOD_GEOM_ACUBE: x->geom = GEOM_ACUBE; x->coord_count = 4; break;
        case MOD_GEOM_2DMS: x->geom = GEOM_2DMS; x->coord_count = 4; break;
        case MOD_GEOM_A2DMS: x->geom = GEOM_A2DMS; x->coord_count = 4; break;
        case MOD_LEVEL: case MOD_GRAD: x->mip = (uint8_t)m; break;
        case MOD_TRAP: case MOD_CLAMP: case MOD_ZERO: x->out_of_range = (uint8_t)m; break;
        case MOD_V2: x->vec_count = 2; break;
        case MOD_V4: x->vec_count = 4; break;
        case MOD_WIDTH: case MOD_HEIGHT: case MOD_DEPTH: case MOD_ARRAY_SIZE: case MOD_NORMALIZED_COORDS:
        case MOD_CHANNEL_DATA_TYPE: case MOD_CHANNEL_ORDER: case MOD_FILTER_MODE: case MOD_ADDR_MODE_0:
        case MOD_ADDR_MODE_1: case MOD_ADDR_MODE_2: case MOD_NUM_MIPMAP_LEVELS: case MOD_NUM_SAMPLES:
        case MOD_MEMORY_LAYOUT: case MOD_FORCE_UNNORMALIZED_COORDS:
        case MOD_TEXREF: case MOD_SAMPLERREF: case MOD_SURFREF:
        case MOD_R: case MOD_G: case MOD_B: case MOD_A:
            if (in->op == OP_TLD4 || in->op == OP_TXQ || in->op == OP_SUQ || in->op == OP_ISTYPEP)
                x->mode = (uint8_t)m;          /* the query, the handle's kind, tld4's component */
            break;
        case MOD_P:
            x->formatted = in->op == OP_SUST || in->op == OP_SURED;
            break;
        case MOD_ADD: case MOD_MIN: case MOD_MAX: case MOD_AND: case MOD_OR:
            x->mode = (uint8_t)m;              /* sured's operation */
            break;
        default:
            break;
        }
    }
    x->clamp = false;
    if (in->op == OP_TXQ || in->op == OP_SUQ) {
        x->type = TYPE_B32;
        x->bits = 32;
    }
}

/* The PTX ISA's addressing words, clamp_to_edge and clamp_to_border as CUDA's clamp and border
 * (the CUDA guide's cudaAddressModeClamp, cudaAddressModeBorder); clamp_ogl, OpenGL's GL_CLAMP,
 * is not run. */
bool image_sampling_from_init(const OpaqueInit *o, Sampler *sm, OpaqueField *refused)
{
    static const int8_t address[] = { [ADDR_WRAP] = ADDRESS_WRAP, [ADDR_MIRROR] = ADDRESS_MIRROR,
                                      [ADDR_CLAMP_OGL] = -1, [ADDR_CLAMP_TO_EDGE] = ADDRESS_CLAMP,
                                      [ADDR_CLAMP_TO_BORDER] = ADDRESS_BORDER };
    if (o->given & 1u << OPAQUE_FILTER_MODE)
        sm->linear = o->value[OPAQUE_FILTER_MODE] == FILTER_LINEAR;
    if (o->given & 1u << OPAQUE_NORMALIZED_COORDS)
        sm->normalized_coords = o->value[OPAQUE_NORMALIZED_COORDS] != 0;
    if (o->given & 1u << OPAQUE_FORCE_UNNORMALIZED_COORDS)
        sm->force_unnormalized = o->value[OPAQUE_FORCE_UNNORMALIZED_COORDS] != 0;
    for (unsigned d = 0; d < 3; d++) {
        OpaqueField f = (OpaqueField)(OPAQUE_ADDR_MODE_0 + d);
        if (!(o->given & 1u << f))
            continue;
        if (address[o->value[f]] < 0) {
            *refused = f;
            return false;
        }
        sm->address[d] = (uint8_t)address[o->value[f]];
    }
    return true;
}

/* A register operand's width in bits, 0 for anything else. */
static unsigned register_bits(const Loader *ld, const Operand *o)
{
    return o->kind == OPND_REG ? type_info[ld->cur->fn->regs.data[o->u.slot].type].bits : 0;
}

static void wrong(Loader *ld, const Operand *o, const Instr *in, const char *what)
{
    diag_at(ld->diag, DIAG_ERROR, o->at, "'%s' takes %s here", in->mnemonic, what);
    ld->failed = true;
}

/* The handle: a 64-bit register (a .texref or .surfref variable is refused). */
/* The index among the module's globals of the variable o names, declared in space (a
 * .samplerref: SPACE_SAMPLER), or NO_SLOT. */
static uint32_t global_of(const Loader *ld, const Operand *o, int space)
{
    const Module *m = ld->p->m;
    for (uint32_t g = 0; g < m->globals.len; g++)
        if (m->globals.data[g].name == o->u.ref.name && m->globals.data[g].space == space && !o->u.ref.offset)
            return g;
    return NO_SLOT;
}

static bool load_handle(Loader *ld, const Instr *in, const Operand *h, XInstr *x)
{
    const Decl *d = NULL;
    const Module *m = ld->p->m;
    int space = SPACE_NONE;
    uint32_t row = operand_handle_param(ld, h, &space);
    if (row != NO_SLOT) {                  /* .param .texref t: the handle the parameter holds */
        bool surface = in->op == OP_SULD || in->op == OP_SUST || in->op == OP_SURED || in->op == OP_SUQ;
        if (surface ? space != SPACE_SURF : space != SPACE_TEX && (in->op != OP_TXQ || space != SPACE_SAMPLER)) {
            diag_at(ld->diag, DIAG_ERROR, h->at, "'%s' takes a %s here; '%s' is a %s parameter", in->mnemonic,
                    surface ? ".surfref" : in->op == OP_TXQ ? ".texref or .samplerref" : ".texref", h->u.ref.name,
                    space == SPACE_TEX ? ".texref" : space == SPACE_SURF ? ".surfref" : ".samplerref");
            ld->failed = true;
            return false;
        }
        x->src[0] = row;
        x->src_count = 1;
        return true;
    }
    for (uint32_t i = 0; h->kind == OPND_SYM && i < m->globals.len && !d; i++)
        d = m->globals.data[i].name == h->u.ref.name ? &m->globals.data[i] : NULL;
    if (d && (d->space == SPACE_TEX || d->space == SPACE_SURF) && d->type == TYPE_NONE && !h->u.ref.offset) {
        x->image_name = d->name;               /* .global .texref t: the lanes file's texture "t" */
        return true;
    }
    uint32_t g = h->kind == OPND_SYM && in->op == OP_TXQ ? global_of(ld, h, SPACE_SAMPLER) : NO_SLOT;
    if (g != NO_SLOT) {                    /* txq of a .samplerref variable: its handle */
        x->src[0] = operand_immediate_row(ld, OPAQUE_HANDLE_BASE + g);
        x->src_count = 1;
        return true;
    }
    if (h->kind == OPND_SYM) {
        operand_cannot(ld, in, "a texture or surface named by this variable (a .texref or .surfref, or a "
                       "handle in a 64-bit register, runs)");
        return false;
    }
    if (register_bits(ld, h) != 64) {
        wrong(ld, h, in, "a texture or surface handle, a 64-bit register,");
        return false;
    }
    x->src[0] = operand_source(ld, in, h, TYPE_U64, x, 0);
    x->src_count = 1;
    return true;
}

/* tex.level: the level of detail (.f32), txq.level: the level (.b32), src[2]; tex.grad: the
 * gradients dPdx and dPdy, vectors of .f32 of the geometry's coordinates (four for .3d and the
 * cubes, the fourth ignored), into grad[]. */
static bool load_level(Loader *ld, const Instr *in, XInstr *x)
{
    bool cube = x->geom == GEOM_CUBE || x->geom == GEOM_ACUBE;
    if (x->geom == GEOM_2DMS || x->geom == GEOM_A2DMS) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s': a multisample texture has no mipmap levels", in->mnemonic);
        ld->failed = true;
        return false;
    }
    if (x->mip == MOD_LEVEL) {
        const Operand *e = &in->operands[2];
        int type = in->op == OP_TXQ ? TYPE_S32 : TYPE_F32;
        bool immediate = e->kind == OPND_INT || (e->kind == OPND_F32 && type == TYPE_F32);
        if (!immediate && register_bits(ld, e) != 32) {
            wrong(ld, e, in, in->op == OP_TXQ ? "a 32-bit level" : "a 32-bit level of detail");
            return false;
        }
        x->src[2] = operand_source(ld, in, e, type, x, 2);
        x->src_count = 3;
        return true;
    }
    unsigned n = x->geom == GEOM_1D || x->geom == GEOM_A1D ? 1 : x->geom == GEOM_2D || x->geom == GEOM_A2D ? 2 : 4;
    for (unsigned g = 0; g < 2; g++) {
        const Operand *v = &in->operands[2 + g];
        if (v->kind != OPND_VEC || v->count != n) {
            char what[64];
            snprintf(what, sizeof what, "a vector of %u .f32 gradients", n);
            wrong(ld, v, in, what);
            return false;
        }
        for (unsigned i = 0; i < 3; i++) {
            x->grad[3 * g + i] = NO_SLOT;
            if (i >= n || (i == 3 && !cube))
                continue;
            const Operand *e = &v->u.group.elems[i];
            if (e->kind != OPND_F32 && e->kind != OPND_INT && register_bits(ld, e) != 32) {
                wrong(ld, e, in, "32-bit gradients");
                return false;
            }
            x->grad[3 * g + i] = operand_source(ld, in, e, TYPE_F32, x, 2);
        }
    }
    return true;
}

/* tex and tld4 after their coordinates (and level of detail or gradients): the offset e, a
 * vector of .s32 texels, one a dimension (1d 1, 2d 2, 3d 4 with the last ignored; the ISA has
 * none for cubemaps), then the depth compare value f, an .f32 (PTX ISA, tex, tld4). */
static bool load_offset_depth(Loader *ld, const Instr *in, XInstr *x, unsigned first)
{
    unsigned i = first;
    const Operand *e = &in->operands[i];
    if (i < in->operand_count && e->kind == OPND_VEC) {
        unsigned n = x->geom == GEOM_1D || x->geom == GEOM_A1D ? 1 : x->geom == GEOM_3D ? 4 : 2;
        bool cube = x->geom == GEOM_CUBE || x->geom == GEOM_ACUBE;
        if (cube || e->count != n) {
            diag_at(ld->diag, DIAG_ERROR, e->at, cube ? "'%s': a cubemap read takes no offset (PTX ISA)"
                                                      : "'%s' takes an offset of %u .s32 values", in->mnemonic, n);
            ld->failed = true;
            return false;
        }
        for (unsigned k = 0; k < n && k < 3; k++) {
            const Operand *c = &e->u.group.elems[k];
            if (c->kind != OPND_INT && register_bits(ld, c) != 32) {
                wrong(ld, c, in, "an offset of .s32 values");
                return false;
            }
            x->texel_offset[k] = operand_source(ld, in, c, TYPE_S32, x, 2);
        }
        i++;
    }
    if (i < in->operand_count) {
        const Operand *f = &in->operands[i];
        if (f->kind != OPND_F32 && f->kind != OPND_INT && register_bits(ld, f) != 32) {
            wrong(ld, f, in, "a depth compare value, an .f32,");
            return false;
        }
        if (x->geom == GEOM_3D || x->geom == GEOM_2DMS || x->geom == GEOM_A2DMS) {
            diag_at(ld->diag, DIAG_ERROR, f->at, "'%s': a 3D or multisample read takes no depth compare value (PTX ISA)",
                    in->mnemonic);
            ld->failed = true;
            return false;
        }
        x->depth_ref = operand_source(ld, in, f, TYPE_F32, x, 2);
        i++;
    }
    if (i != in->operand_count) {
        diag_at(ld->diag, DIAG_ERROR, in->operands[i].at, "'%s': too many operands (an offset vector, then a depth "
                "compare value)", in->mnemonic);
        ld->failed = true;
        return false;
    }
    return true;
}

/* tex tld4 suld: d, [h, {coordinates}]; sust: [h, {coordinates}], c; txq suq: d, [h]; istypep:
 * p, h. The handle becomes src[0], the coordinates coord[], the data registers vec[]. ops.def
 * gives them no operand shape: they are checked here (lower_check_all runs this for --check). */
void image_load(Loader *ld, const Instr *in, XInstr *x)
{
    image_lower(x, in);
    ld->p->uses_images = true;
    bool store = in->op == OP_SUST || in->op == OP_SURED;
    unsigned operands = 2 + (x->mip == MOD_LEVEL) + 2 * (x->mip == MOD_GRAD);
    for (unsigned i = 0; i < 3; i++)
        x->texel_offset[i] = NO_SLOT;
    x->depth_ref = NO_SLOT;
    if ((in->op == OP_TEX || in->op == OP_TLD4) && in->operand_count > operands &&
        !load_offset_depth(ld, in, x, operands))
        return;
    if (in->op != OP_TEX && in->op != OP_TLD4 && in->operand_count != operands) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' takes %u operands, not %u", in->mnemonic, operands,
                in->operand_count);
        ld->failed = true;
        return;
    }
    const Operand *addr = &in->operands[store ? 0 : 1], *data = &in->operands[store ? 1 : 0];
    if (in->op == OP_ISTYPEP) {
        if (data->kind != OPND_PRED)
            wrong(ld, data, in, "a predicate");
        else if (addr->kind != OPND_REG)
            wrong(ld, addr, in, "a handle in a 64-bit register (as ptxas does)");
        else if (load_handle(ld, in, addr, x))
            operand_destination(ld, in, data, x);
        return;
    }
    if (x->formatted && in->op == OP_SUST && x->type != TYPE_B32) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s': sust.p stores .b32 elements", in->mnemonic);
        ld->failed = true;
        return;
    }
    if (x->formatted && in->op == OP_SURED && x->type != TYPE_B32 &&
        (x->type != TYPE_B64 || (x->mode != MOD_MIN && x->mode != MOD_MAX))) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s': sured.p takes .b32, or .b64 with .min and .max (PTX ISA)",
                in->mnemonic);
        ld->failed = true;
        return;
    }
    if (!x->formatted && in->op == OP_SURED && x->type == TYPE_B64) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s': sured.b takes .u32, .u64, .s32, .b32 or .s64 (PTX ISA)",
                in->mnemonic);
        ld->failed = true;
        return;
    }
    unsigned want = x->coord_count ? 2 : 1;
    if (addr->kind == OPND_ADDR && addr->count == want + 1 && (in->op == OP_TEX || in->op == OP_TLD4) &&
        !addr->u.group.offset) {
        const Operand *smp = &addr->u.group.elems[1];
        uint32_t g = smp->kind == OPND_SYM ? global_of(ld, smp, SPACE_SAMPLER) : NO_SLOT;
        int space = SPACE_NONE;
        uint32_t row = g == NO_SLOT ? operand_handle_param(ld, smp, &space) : NO_SLOT;
        if (g != NO_SLOT) {                /* a .samplerref variable: its handle */
            x->src[1] = operand_immediate_row(ld, OPAQUE_HANDLE_BASE + g);
        } else if (row != NO_SLOT && space == SPACE_SAMPLER) {
            x->src[1] = row;               /* a .samplerref parameter: the handle it holds */
        } else if (row != NO_SLOT) {
            wrong(ld, smp, in, "a sampler, not a .texref or .surfref parameter,");
            return;
        } else if (register_bits(ld, smp) != 64) {
            wrong(ld, smp, in, "a sampler, a .samplerref variable or a handle in a 64-bit register,");
            return;
        } else {
            x->src[1] = operand_source(ld, in, smp, TYPE_U64, x, 1);
        }
        x->has_sampler = true;
        want++;
    }
    if (addr->kind != OPND_ADDR || addr->count != want || addr->u.group.offset) {
        wrong(ld, addr, in, want == 2 ? "[handle, {coordinates}]" : "[handle]");
        return;
    }
    if (!load_handle(ld, in, &addr->u.group.elems[0], x))
        return;
    if (!x->has_sampler)
        x->src[1] = x->src[0];
    x->src_count = 2;
    if (want >= 2) {
        const Operand *c = &addr->u.group.elems[want - 1];
        unsigned n = c->kind == OPND_VEC ? c->count : 1;
        if (n != x->coord_count) {
            diag_at(ld->diag, DIAG_ERROR, c->at, "'%s' takes %u coordinates, not %u", in->mnemonic,
                    x->coord_count, n);
            ld->failed = true;
            return;
        }
        for (unsigned i = 0; i < n; i++) {
            bool layer = (i == 0 && (x->geom == GEOM_A1D || x->geom == GEOM_A2D || x->geom == GEOM_ACUBE ||
                                     x->geom == GEOM_2DMS || x->geom == GEOM_A2DMS)) ||
                         (i == 1 && x->geom == GEOM_A2DMS);
            const Operand *e = c->kind == OPND_VEC ? &c->u.group.elems[i] : c;
            bool immediate = e->kind == OPND_INT || (e->kind == OPND_F32 && !layer && x->src_type == TYPE_F32);
            if (!immediate && register_bits(ld, e) != 32) {
                wrong(ld, e, in, "32-bit coordinates");
                return;
            }
            x->coord[i] = operand_source(ld, in, e, layer ? TYPE_U32 : x->src_type, x, 1);
        }
    }
    if (x->mip && !load_level(ld, in, x))
        return;
    if (in->op == OP_TXQ || in->op == OP_SUQ) {
        if (register_bits(ld, data) != 32)
            wrong(ld, data, in, "a 32-bit destination");
        else
            operand_destination(ld, in, data, x);
        return;
    }
    if (data->kind == OPND_PAIR) {             /* d|p: p, whether the texels are resident */
        const Operand *p = &data->u.group.elems[1];
        if (p->kind != OPND_PRED && p->kind != OPND_SINK) {
            wrong(ld, p, in, "a predicate after '|'");
            return;
        }
        x->dst_pred = p->kind == OPND_PRED ? ld->cur->pred_base + p->u.slot : NO_SLOT;
        data = &data->u.group.elems[0];
    }
    unsigned n = data->kind == OPND_VEC ? data->count : 1;
    if (n != x->vec_count) {
        diag_at(ld->diag, DIAG_ERROR, data->at, "'%s' moves %u registers, not %u", in->mnemonic, x->vec_count, n);
        ld->failed = true;
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        const Operand *e = data->kind == OPND_VEC ? &data->u.group.elems[i] : data;
        if (e->kind == OPND_SINK && !store) {
            x->vec[i] = NO_SLOT;
        } else if (register_bits(ld, e) >= x->bits) {
            x->vec[i] = ld->cur->row_base + e->u.slot;
        } else if (store && (e->kind == OPND_INT || e->kind == OPND_F32 || e->kind == OPND_F64)) {
            x->vec[i] = operand_immediate_row(ld, operand_immediate_bits(e, x->type));
        } else {
            char what[64];
            snprintf(what, sizeof what, "registers of at least %u bits", x->bits);
            wrong(ld, e, in, what);
            return;
        }
    }
}

static uint32_t pc_of(const Warp *w, const XInstr *x)
{
    return (uint32_t)(x - w->prog->code);
}

static const char *geom_name(int geom)
{
    static const char *const names[] = { "", "1d", "2d", "3d", "a1d", "a2d", "cube", "acube", "2dms", "a2dms" };
    return names[geom];
}

/* The image lane l's handle names, of the kind the instruction needs (a surface or a texture),
 * with the geometry it says; NULL after reporting a fault. */
const Image *image_for(Warp *w, const XInstr *x, int l, bool surface)
{
    uint32_t pc = pc_of(w, x);
    const Image *im = NULL;
    uint64_t h = 0;
    if (x->image_name) {
        for (uint32_t i = 0; i < w->block->image_count && !im; i++)
            im = w->block->images[i].name == x->image_name ? &w->block->images[i] : NULL;
        if (!im) {
            report_fault(w, pc, "lane %d (pc %u): '%s' reads '%s', to which the lanes file gives no %s", l, pc,
                         x->ir->mnemonic, x->image_name, surface ? "surface" : "texture");
            return NULL;
        }
        h = IMAGE_HANDLE_BASE + (uint64_t)(im - w->block->images);
    } else if (!(w->defined[x->src[0]] >> l & 1)) {
        report_fault(w, pc, "lane %d (pc %u): '%s' through an undefined handle", l, pc, x->ir->mnemonic);
        return NULL;
    } else {
        h = warp_src(w, x->src[0])[l];
        im = image_of(w->block, h);
    }
    const Decl *var = x->image_name ? NULL : opaque_of(w->block, h);
    if (!im && var) {
        report_fault(w, pc, "lane %d (pc %u): '%s' through the handle of '%s', to which the lanes file gives no %s",
                     l, pc, x->ir->mnemonic, var->name, surface ? "surface" : "texture");
        return NULL;
    }
    if (!im || im->surface != surface) {
        report_fault(w, pc, "lane %d (pc %u): '%s' through 0x%llx, which is not the handle of a %s%s%s", l, pc,
                     x->ir->mnemonic, (unsigned long long)h, surface ? "surface" : "texture",
                     im ? ": it is the " : "", im ? (im->surface ? "surface's" : "texture's") : "");
        return NULL;
    }
    if (x->geom) {
        int g = x->geom;
        bool layered = g == GEOM_A1D || g == GEOM_A2D || g == GEOM_ACUBE || g == GEOM_A2DMS;
        bool cube = g == GEOM_CUBE || g == GEOM_ACUBE, ms = g == GEOM_2DMS || g == GEOM_A2DMS;
        unsigned dims = g == GEOM_A1D ? 1 : g == GEOM_3D ? 3 : g == GEOM_1D ? 1 : 2;
        if (layered != (im->layers != 0) || dims != im->dims || cube != im->cube || ms != (im->samples != 0)) {
            report_fault(w, pc, "lane %d (pc %u): '%s' (.%s) on '%s', a %s%uD %s%s%s", l, pc, x->ir->mnemonic,
                         geom_name(x->geom), im->name, im->layers ? "layered " : "", im->dims,
                         im->cube ? "cubemap " : "", im->samples ? "multisample " : "",
                         surface ? "surface" : "texture");
            return NULL;
        }
    }
    bool undefined = false;
    for (unsigned i = x->has_sampler ? 1 : 2; i < x->src_count; i++)
        undefined |= !(w->defined[x->src[i]] >> l & 1);
    for (unsigned g = 0; g < 6 && x->mip == MOD_GRAD; g++)
        undefined |= x->grad[g] != NO_SLOT && !(w->defined[x->grad[g]] >> l & 1);
    if (undefined) {
        report_fault(w, pc, "lane %d (pc %u): '%s' with an undefined sampler, level or gradient", l, pc,
                     x->ir->mnemonic);
        return NULL;
    }
    for (unsigned i = 0; i < x->coord_count; i++) {
        if (x->coord_count == 4 && i == 3 && (x->geom == GEOM_3D || x->geom == GEOM_CUBE || x->geom == GEOM_2DMS))
            break;                             /* the fourth element is ignored (PTX ISA) */
        if (!(w->defined[x->coord[i]] >> l & 1)) {
            report_fault(w, pc, "lane %d (pc %u): '%s' at an undefined coordinate", l, pc, x->ir->mnemonic);
            return NULL;
        }
    }
    return im;
}

/* Lane l's coordinates: c[0] x, c[1] y, c[2] z, c[3] the layer (0 where absent). */
static void coordinates(const Warp *w, const XInstr *x, int l, int64_t c[4])
{
    int64_t v[4] = { 0, 0, 0, 0 };
    for (unsigned i = 0; i < x->coord_count && i < 3; i++)
        v[i] = x->geom == GEOM_A1D || x->geom == GEOM_A2D ? (i ? (int32_t)w->val[x->coord[i]][l]
                                                               : (int64_t)(uint32_t)w->val[x->coord[i]][l])
                                                          : (int32_t)w->val[x->coord[i]][l];
    bool layered = x->geom == GEOM_A1D || x->geom == GEOM_A2D;
    c[3] = layered ? v[0] : 0;
    c[0] = layered ? v[1] : v[0];
    c[1] = x->geom == GEOM_A2D ? v[2] : x->geom == GEOM_A1D ? 0 : v[1];
    c[2] = x->geom == GEOM_3D ? v[2] : 0;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* sured: the new value of a surface word from the old one and the lane's operand, compared as
 * signed where sign says so. */
static uint64_t reduce(const XInstr *x, bool sign, uint64_t old, uint64_t v)
{
    uint64_t m = width_mask(x->bits);
    unsigned shift = 64 - x->bits;
    int64_t so = (int64_t)(old << shift) >> shift, sv = (int64_t)(v << shift) >> shift;
    switch (x->mode) {
    case MOD_ADD: return (old + v) & m;
    case MOD_MIN: return (sign ? so < sv : (old & m) < (v & m)) ? old & m : v & m;
    case MOD_MAX: return (sign ? so > sv : (old & m) > (v & m)) ? old & m : v & m;
    case MOD_AND: return old & v & m;
    default: return (old | v) & m;
    }
}

/* suld.b, sust.b for lane l: the offset of its access in the surface's region; false when it
 * is out of range under .zero (nothing to move) or after a fault. */
static bool surface_offset(Warp *w, const XInstr *x, int l, const Image *im, uint64_t *offset)
{
    uint32_t pc = pc_of(w, x);
    int64_t c[4];
    coordinates(w, x, l, c);
    uint64_t texel = (uint64_t)type_info[im->type].bits / 8 * im->channels;
    int64_t row = (int64_t)(texel * im->size[0]);
    int64_t access = (int64_t)x->bits / 8 * x->vec_count;
    if (x->formatted) {                        /* sust.p: x counts samples; the whole sample is written */
        c[0] *= (int64_t)texel;
        access = (int64_t)texel;
    }
    int64_t layers = im->layers ? im->layers : 1;
    bool inside = c[0] >= 0 && c[0] + access <= row && c[1] >= 0 && c[1] < im->size[1] && c[2] >= 0 &&
                  c[2] < im->size[2] && c[3] < layers;
    if (!inside) {
        if (x->out_of_range == MOD_ZERO)
            return false;
        if (x->out_of_range == MOD_TRAP || access > row) {
            char layer_text[48] = "";
            if (im->layers)
                snprintf(layer_text, sizeof layer_text, ", layer %lld of %u", (long long)c[3], im->layers);
            report_fault(w, pc, "lane %d (pc %u): '%s' at byte x=%lld, y=%lld, z=%lld%s: outside surface '%s' "
                         "(%u x %u x %u texels, %lld bytes a row)%s", l, pc, x->ir->mnemonic, (long long)c[0],
                         (long long)c[1], (long long)c[2], layer_text, im->name, im->size[0], im->size[1],
                         im->size[2], (long long)row, x->out_of_range == MOD_TRAP ? " under .trap" : "");
            return false;
        }
        report_warn(w, pc, 1u << l, "surface access out of range under .clamp (the ISA leaves the nearest "
                                    "location open: each coordinate was clamped into its range)");
        c[0] = clamp64(c[0], 0, (row - access) / access * access);
        c[1] = clamp64(c[1], 0, im->size[1] - 1);
        c[2] = clamp64(c[2], 0, im->size[2] - 1);
        c[3] = clamp64(c[3], 0, layers - 1);
    }
    if (c[0] % access) {
        report_fault(w, pc, "lane %d (pc %u): '%s' of %lld bytes at byte x=%lld of surface '%s', which is not "
                     "%lld-byte aligned", l, pc, x->ir->mnemonic, (long long)access, (long long)c[0], im->name,
                     (long long)access);
        return false;
    }
    uint64_t line = ((uint64_t)c[3] * im->size[2] + (uint64_t)c[2]) * im->size[1] + (uint64_t)c[1];
    *offset = line * (uint64_t)row + (uint64_t)c[0];
    return true;
}

static void surface_query(Warp *w, const XInstr *x, int l, const Image *im)
{
    uint64_t v;
    bool open;
    bool known = image_query(x->mode, im, NULL, 0, &v, &open);
    if (open)
        report_warn(w, pc_of(w, x), 1u << l, "suq: the ISA names no number for this attribute: ptxrun gives "
                                             "OpenCL's (channel_data_type, channel_order) or 1 for a layered "
                                             "surface (memory_layout)");
    if (x->dst_kind != DST_VALUE)
        return;
    w->val[x->dst][l] = v;
    warp_define_bits(w, x->dst, l, known ? ~0ull : 0, 64);   /* a size the image lacks: undefined */
}

/* sust.p: the source's elements are the sample's R, G, B, A in order (PTX ISA), read as .u32 or
 * .s32 after the surface's format (UINT for ptxrun's u8 u16 u32 surfaces, SINT for s8 s16 s32)
 * or .f32 (FLOAT: f32), then "converted ... to the surface sample format": a 32-bit channel
 * takes the element's bits; an 8- or 16-bit channel the value itself when the channel holds it
 * (any conversion keeps such a value). How a value the channel cannot hold converts (saturated?
 * truncated?) the ISA does not say: those bytes become undefined, with a warning. A channel
 * the source does not give is "unpredictable": undefined. */
static void store_formatted(Warp *w, const XInstr *x, int l, const Image *im, Region *r, uint64_t at)
{
    unsigned size = type_info[im->type].bits / 8;
    bool sign = type_info[im->type].cls == 's';
    for (unsigned k = 0; k < im->channels; k++) {
        uint64_t v = 0, d = 0;
        if (k < x->vec_count) {
            v = warp_src(w, x->vec[k])[l];
            d = warp_dbits(w, x->vec[k], l);
        }
        if (k < x->vec_count && size < 4) {
            int64_t value = sign ? (int64_t)(int32_t)v : (int64_t)(uint32_t)v;
            int64_t lo = sign ? -(1ll << (8 * size - 1)) : 0;
            int64_t hi = sign ? (1ll << (8 * size - 1)) - 1 : (1ll << 8 * size) - 1;
            bool whole = (d & 0xffffffffu) == 0xffffffffu;
            if (whole && (value < lo || value > hi)) {
                report_warn(w, pc_of(w, x), 1u << l, "sust.p of a value an 8- or 16-bit channel cannot hold (the "
                                                     "ISA does not say how it is converted): undefined");
                d = 0;
            } else {
                d = whole ? ~0ull : 0;     /* a value not wholly defined converts to an undefined one */
            }
        }
        for (unsigned b = 0; b < size; b++) {
            r->data[at + k * size + b] = (uint8_t)(v >> 8 * b);
            r->shadow[at + k * size + b] = (uint8_t)(d >> 8 * b);
        }
    }
}

/* sured.p: a reduction on the sample (its x counts samples), its operand read as .u32 or .s32
 * (.u64 or .s64) after the surface's format, UINT or SINT (PTX ISA). The ISA defines it for a
 * sample of one channel of the operand's width: ptxrun's u32 and s32 surfaces for .b32. Any
 * other sample (float, narrower channels, several channels) the ISA leaves open: it becomes
 * undefined, with a warning. */
static void reduce_formatted(Warp *w, const XInstr *x, int l, const Image *im, Region *r, uint64_t at)
{
    unsigned size = type_info[im->type].bits / 8 * im->channels;
    char cls = type_info[im->type].cls;
    if (im->channels != 1 || type_info[im->type].bits != x->bits || (cls != 'u' && cls != 's')) {
        report_warn(w, pc_of(w, x), 1u << l, "sured.p on a sample that is not one integer channel of the "
                                             "operand's width (the ISA defines it for UINT and SINT samples only): "
                                             "undefined");
        memset(r->shadow + at, 0, size);
        return;
    }
    uint64_t old = 0, od = 0, v = warp_src(w, x->vec[0])[l];
    for (unsigned b = 0; b < size; b++) {
        old |= (uint64_t)r->data[at + b] << 8 * b;
        od |= (uint64_t)r->shadow[at + b] << 8 * b;
    }
    uint64_t d = vbits_whole(od, warp_dbits(w, x->vec[0], l), x->bits);
    v = reduce(x, cls == 's', old, v);
    for (unsigned b = 0; b < size; b++) {
        r->data[at + b] = (uint8_t)(v >> 8 * b);
        r->shadow[at + b] = (uint8_t)(d >> 8 * b);
    }
}

void surface_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    if (x->op == OP_SUST || x->op == OP_SURED)
        mem_changed(&w->block->mem);       /* a write another thread could see (gang.c) */
    for (uint32_t k = mask; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        const Image *im = image_for(w, x, l, true);
        if (!im)
            return;
        if (x->op == OP_SUQ) {
            surface_query(w, x, l, im);
            continue;
        }
        Region *r = &w->block->mem.regions[im->region];
        unsigned size = x->bits / 8;
        uint64_t at = 0;
        bool moves = surface_offset(w, x, l, im, &at);
        if (w->faulted)
            return;
        if (x->formatted) {
            if (moves && x->op == OP_SUST)
                store_formatted(w, x, l, im, r, at);
            else if (moves)
                reduce_formatted(w, x, l, im, r, at);
            continue;
        }
        for (unsigned i = 0; i < x->vec_count; i++) {
            uint32_t row = x->vec[i];
            if (x->op == OP_SUST || x->op == OP_SURED) {
                if (!moves)
                    continue;                  /* .zero: a store out of range is dropped */
                uint64_t v = w->val[row][l], d = warp_dbits(w, row, l);
                if (x->op == OP_SURED) {
                    uint64_t old = 0, od = 0;
                    for (unsigned b = 0; b < size; b++) {
                        old |= (uint64_t)r->data[at + b] << 8 * b;
                        od |= (uint64_t)r->shadow[at + b] << 8 * b;
                    }
                    v = reduce(x, x->cls == 's', old, v);
                    d = vbits_whole(od, d, x->bits);
                }
                for (unsigned b = 0; b < size; b++) {
                    r->data[at + i * size + b] = (uint8_t)(v >> 8 * b);
                    r->shadow[at + i * size + b] = (uint8_t)(d >> 8 * b);
                }
                continue;
            }
            if (row == NO_SLOT)
                continue;
            uint64_t v = 0, d = ~0ull;
            if (moves) {
                d = ~width_mask(x->bits);      /* the zero-extended bits above the data are defined */
                for (unsigned b = 0; b < size; b++) {
                    v |= (uint64_t)r->data[at + i * size + b] << 8 * b;
                    d |= (uint64_t)r->shadow[at + i * size + b] << 8 * b;
                }
            }
            w->val[row][l] = v;
            warp_define_bits(w, row, l, d, 64);
        }
    }
}
