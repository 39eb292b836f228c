/* opaque.c: the initializers of .texref, .samplerref and .surfref variables,
 * `.global .samplerref s = { addr_mode_0 = clamp_to_edge, filter_mode = linear };`, decoded into
 * the declaration's OpaqueInit as the parser reads them. Which fields each type takes follows the
 * PTX ISA's tables of opaque-type fields ("Texture Sampler and Surface Types") as ptxas 13 reads
 * them: a .texref takes the sampling fields in the unified mode only (ptxas ignores them in the
 * independent mode, with a note; so does ptxrun, with a warning), a .samplerref only the
 * sampling fields and force_unnormalized_coords. */
#include <string.h>

#include "parse.h"

const char *const opaque_field_names[OPAQUE_FIELD_COUNT] = {
    "width", "height", "depth", "channel_data_type", "channel_order", "normalized_coords",
    "force_unnormalized_coords", "filter_mode", "addr_mode_0", "addr_mode_1", "addr_mode_2",
    "array_size", "num_mipmap_levels", "num_samples", "memory_layout",
};
const char *const opaque_addr_names[5] = { "wrap", "mirror", "clamp_ogl", "clamp_to_edge", "clamp_to_border" };
static const char *const filter_names[2] = { "nearest", "linear" };

#define BIT(f) (1u << (f))
#define SAMPLING (BIT(OPAQUE_FILTER_MODE) | BIT(OPAQUE_ADDR_MODE_0) | BIT(OPAQUE_ADDR_MODE_1) | BIT(OPAQUE_ADDR_MODE_2))
#define SIZES (BIT(OPAQUE_WIDTH) | BIT(OPAQUE_HEIGHT) | BIT(OPAQUE_DEPTH) | BIT(OPAQUE_CHANNEL_DATA_TYPE) | \
               BIT(OPAQUE_CHANNEL_ORDER) | BIT(OPAQUE_ARRAY_SIZE))

/* The fields each type takes (PTX ISA tables 10 and 11; ptxas names the same). */
static uint32_t fields_of(int space)
{
    switch (space) {
    case SPACE_TEX:
        return SIZES | SAMPLING | BIT(OPAQUE_NORMALIZED_COORDS) | BIT(OPAQUE_NUM_MIPMAP_LEVELS) |
               BIT(OPAQUE_NUM_SAMPLES);
    case SPACE_SAMPLER:
        return SAMPLING | BIT(OPAQUE_FORCE_UNNORMALIZED_COORDS);
    default:
        return SIZES | BIT(OPAQUE_MEMORY_LAYOUT);
    }
}

/* Fields whose meaning ptxrun does not run yet: the image's format and levels come from the
 * lanes file, which has no such settings. */
#define NOT_RUN (BIT(OPAQUE_CHANNEL_DATA_TYPE) | BIT(OPAQUE_CHANNEL_ORDER) | BIT(OPAQUE_NUM_MIPMAP_LEVELS) | \
                 BIT(OPAQUE_NUM_SAMPLES) | BIT(OPAQUE_MEMORY_LAYOUT))

static const char *type_word(int space)
{
    return space == SPACE_TEX ? ".texref" : space == SPACE_SAMPLER ? ".samplerref" : ".surfref";
}

static int word_index(const char *s, const char *const *names, int count)
{
    for (int i = 0; s && i < count; i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}

bool opaque_independent(const Module *m)
{
    for (uint32_t i = 0; i < m->target_option_count; i++)
        if (!strcmp(m->target_options[i], "texmode_independent"))
            return true;
    return false;
}

/* One `field = value`: its value into o, or an error at the place. */
static void decode_field(const Module *m, const Decl *d, const Init *f, OpaqueInit *o, Diag *diag)
{
    int field = word_index(f->name, opaque_field_names, OPAQUE_FIELD_COUNT);
    if (field < 0 || !(fields_of(d->space) & BIT(field))) {
        diag_at(diag, DIAG_ERROR, f->at, "'%s' is not a field of a %s (PTX ISA, \"Texture Sampler and Surface Types\")",
                f->name, type_word(d->space));
        return;
    }
    const Init *v = f->elems;
    int64_t value;
    if (field == OPAQUE_FILTER_MODE || (field >= OPAQUE_ADDR_MODE_0 && field <= OPAQUE_ADDR_MODE_2)) {
        bool filter = field == OPAQUE_FILTER_MODE;
        value = v->kind == INIT_SYM && !v->offset ? word_index(v->name, filter ? filter_names : opaque_addr_names,
                                                             filter ? 2 : 5) : -1;
        if (value < 0) {
            diag_at(diag, DIAG_ERROR, v->at, "%s is %s", f->name, filter ? "nearest or linear" :
                    "wrap, mirror, clamp_ogl, clamp_to_edge or clamp_to_border");
            return;
        }
    } else {
        bool flag = field == OPAQUE_NORMALIZED_COORDS || field == OPAQUE_FORCE_UNNORMALIZED_COORDS ||
                    field == OPAQUE_MEMORY_LAYOUT;
        if (v->kind != INIT_INT || v->negative || v->bits > (flag ? 1 : INT32_MAX)) {
            diag_at(diag, DIAG_ERROR, v->at, "%s is %s", f->name, flag ? "0 or 1" : "a count (an integer)");
            return;
        }
        value = (int64_t)v->bits;
    }
    if ((o->given & BIT(field)) && o->value[field] != value) {
        diag_at(diag, DIAG_ERROR, f->at, "%s is given twice, with different values (the PTX ISA does not say "
                "which counts)", f->name);
        return;
    }
    if (NOT_RUN & BIT(field)) {
        diag_at(diag, DIAG_ERROR, f->at, "ptxrun cannot execute the '%s' field of a %s initializer yet", f->name,
                type_word(d->space));
        return;
    }
    if (d->space == SPACE_TEX && (SAMPLING & BIT(field)) && opaque_independent(m)) {
        diag_at(diag, DIAG_WARNING, f->at, "%s is ignored in a .texref in the independent texturing mode (PTX ISA; "
                "a .samplerref gives the sampling)", f->name);
        return;
    }
    o->given |= BIT(field);
    o->value[field] = value;
    o->at[field] = f->at;
}

/* The initializer of d, if d is a .texref, .samplerref or .surfref: its fields into d->opaque. A
 * `field = value` list anywhere else is an error. */
void opaque_decode(Module *m, Decl *d, Diag *diag)
{
    const Init *init = d->init;
    bool fields = init->kind == INIT_LIST && init->count && init->elems[0].kind == INIT_FIELD;
    bool opaque = (d->space == SPACE_TEX || d->space == SPACE_SURF || d->space == SPACE_SAMPLER) &&
                  d->type == TYPE_NONE;
    for (uint32_t i = 0; init->kind == INIT_LIST && i < init->count; i++)
        fields &= init->elems[i].kind == INIT_FIELD;
    if (!opaque) {
        bool any = init->kind == INIT_FIELD;
        for (uint32_t i = 0; init->kind == INIT_LIST && i < init->count; i++)
            any |= init->elems[i].kind == INIT_FIELD;
        if (any)
            diag_at(diag, DIAG_ERROR, init->at, "'field = value' initializes .texref, .samplerref and .surfref "
                    "variables only");
        return;
    }
    if (!fields) {
        diag_at(diag, DIAG_ERROR, init->at, "a %s is initialized with { field = value, ... }", type_word(d->space));
        return;
    }
    OpaqueInit *o = arena_alloc(&m->arena, sizeof *o);
    memset(o, 0, sizeof *o);
    for (uint32_t i = 0; i < init->count; i++)
        decode_field(m, d, &init->elems[i], o, diag);
    d->opaque = o;
}
