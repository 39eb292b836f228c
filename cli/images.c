/* images.c: the lanes file's "surfaces", "textures" and "samplers" (docs/lanes-format.md):
 * each image's shape, texels and sampling into the Block's images, each separate sampler into
 * its samplers, and the handle "@name" gives. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* One field of a description: the index of its string among names. */
static int image_word(json_t *v, const char *const *names, int count)
{
    for (int i = 0; json_is_string(v) && i < count; i++)
        if (!strcmp(json_string_value(v), names[i]))
            return i;
    return -1;
}

/* "filter", "address", "normalized_coords", "mipmap_filter", "min_lod", "max_lod": a texture's
 * own sampling or a separate sampler's. */
static bool parse_sampler(Sampler *sm, json_t *spec, const char *where, Msg *err)
{
    static const char *const filters[] = { "point", "linear" };
    static const char *const modes[] = { "clamp", "wrap", "mirror", "border" };
    json_t *f = json_object_get(spec, "filter"), *a = json_object_get(spec, "address");
    json_t *n = json_object_get(spec, "normalized_coords"), *mf = json_object_get(spec, "mipmap_filter");
    json_t *lo = json_object_get(spec, "min_lod"), *hi = json_object_get(spec, "max_lod");
    int filter = f ? image_word(f, filters, 2) : 0, mip = mf ? image_word(mf, filters, 2) : 0;
    if (filter < 0 || mip < 0 || (n && !json_is_boolean(n)) || (lo && !json_is_number(lo)) ||
        (hi && !json_is_number(hi))) {
        msg_set(err, "%s: expected \"filter\" and \"mipmap_filter\": \"point\" or \"linear\", "
                "\"normalized_coords\": true or false, \"min_lod\" and \"max_lod\": numbers", where);
        return false;
    }
    sm->linear = filter == 1;
    sm->mip_linear = mip == 1;
    sm->normalized_coords = n && json_is_true(n);
    static const char *const compares[] = { "never", "less", "equal", "lequal", "greater", "notequal", "gequal",
                                            "always" };
    json_t *cmp = json_object_get(spec, "compare");
    int compare = cmp ? image_word(cmp, compares, 8) : -1;
    if (cmp && compare < 0) {
        msg_set(err, "%s: \"compare\": expected \"never\", \"less\", \"equal\", \"lequal\", \"greater\", "
                "\"notequal\", \"gequal\" or \"always\"", where);
        return false;
    }
    sm->compare = cmp ? (uint8_t)(SAMPLER_NEVER + compare) : 0;
    sm->min_lod = lo ? (float)json_number_value(lo) : 0;
    sm->max_lod = hi ? (float)json_number_value(hi) : 1000;
    for (unsigned d = 0; d < 3; d++) {
        json_t *m = json_is_array(a) ? json_array_get(a, d < json_array_size(a) ? d : json_array_size(a) - 1) : a;
        int mode = m ? image_word(m, modes, 4) : ADDRESS_CLAMP;
        if (mode < 0 || (json_is_array(a) && !json_array_size(a))) {
            msg_set(err, "%s: \"address\": expected \"clamp\", \"wrap\", \"mirror\" or \"border\", or "
                    "an array of one a dimension", where);
            return false;
        }
        sm->address[d] = (uint8_t)mode;
    }
    return true;
}

/* Whether a sampler's settings go together (after a program's initializer joined them). */
static bool sampler_check(const Sampler *sm, const char *where, Msg *err)
{
    for (unsigned d = 0; d < 3; d++) {
        int mode = sm->address[d];
        if ((mode == ADDRESS_WRAP || mode == ADDRESS_MIRROR) && !sm->normalized_coords && !sm->texture_coords) {
            msg_set(err, "%s: %s addressing needs normalized coordinates (CUDA guide)", where,
                    mode == ADDRESS_WRAP ? "wrap" : "mirror");
            return false;
        }
    }
    return true;
}

static bool keys_known(json_t *spec, const char *const *keys, unsigned count, const char *where, Msg *err)
{
    const char *k;
    json_t *field;
    json_object_foreach(spec, k, field) {
        bool listed = false;
        for (unsigned i = 0; i < count; i++)
            listed |= !strcmp(k, keys[i]);
        if (!listed) {
            char *shown = demangle_cut(k, strlen(k), DEMANGLE_SHOWN);
            msg_set(err, "%s: unknown key \"%s\"", where, shown);
            free(shown);
            return false;
        }
    }
    return true;
}

/* A texture's sampling (the lanes file's, then the program's .texref initializer of its name:
 * imageinit.c), "read", and its cubemap, multisample and mipmap shape. */
static bool texture_shape(const Block *b, Image *im, json_t *spec, const char *where, Msg *err)
{
    static const char *const reads[] = { "element", "normalized_float" };
    json_t *r = json_object_get(spec, "read"), *cube = json_object_get(spec, "cube");
    json_t *samples = json_object_get(spec, "samples"), *levels = json_object_get(spec, "levels");
    int read = r ? image_word(r, reads, 2) : 0;
    if (read < 0) {
        msg_set(err, "%s: expected \"read\": \"element\" or \"normalized_float\"", where);
        return false;
    }
    if (!parse_sampler(&im->sampler, spec, where, err) ||
        !image_initializer(b, im, json_object_get(spec, "filter") != NULL,
                           json_object_get(spec, "normalized_coords") != NULL, json_object_get(spec, "address") != NULL,
                           where, err) ||
        !sampler_check(&im->sampler, where, err))
        return false;
    im->normalized_float = read == 1;
    if (read == 1 && (type_info[im->type].cls == 'f' || type_info[im->type].bits > 16)) {
        msg_set(err, "%s: \"normalized_float\" reads 8- and 16-bit integer textures", where);
        return false;
    }
    bool floats = im->type == TYPE_F32 || im->normalized_float;
    if (im->sampler.linear && !floats) {
        msg_set(err, "%s: linear filtering needs a texture that returns floats (\"type\": \"f32\", or "
                "\"read\": \"normalized_float\")", where);
        return false;
    }
    if ((cube && !json_is_boolean(cube)) || (samples && (!json_is_integer(samples) ||
                                                         json_integer_value(samples) < 1 ||
                                                         json_integer_value(samples) > 32)) ||
        (levels && (!json_is_integer(levels) || json_integer_value(levels) < 1 ||
                    json_integer_value(levels) > IMAGE_MAX_LEVELS))) {
        msg_set(err, "%s: expected \"cube\": true or false, \"samples\": 1 to 32, \"levels\": 1 to %d", where,
                IMAGE_MAX_LEVELS);
        return false;
    }
    im->cube = cube && json_is_true(cube);
    im->samples = samples ? (uint32_t)json_integer_value(samples) : 0;
    im->levels = levels ? (uint32_t)json_integer_value(levels) : 1;
    if (im->cube && (im->dims != 2 || im->size[0] != im->size[1])) {
        msg_set(err, "%s: a cubemap's faces are square: \"dims\": [width, width]", where);
        return false;
    }
    if (im->samples && (im->dims != 2 || im->cube || im->levels > 1)) {
        msg_set(err, "%s: a multisample texture is 2D (or layered 2D), without mipmap levels", where);
        return false;
    }
    uint32_t largest = im->size[0] > im->size[1] ? im->size[0] : im->size[1];
    largest = largest > im->size[2] ? largest : im->size[2];
    unsigned most = 1;
    while (largest >> most)
        most++;
    if (im->levels > most) {
        msg_set(err, "%s: \"levels\": %u is more than the %u a %u-texel dimension halves into", where,
                im->levels, most, largest);
        return false;
    }
    if (im->levels > 1 && !im->sampler.normalized_coords) {
        msg_set(err, "%s: a mipmapped texture needs normalized coordinates (CUDA guide)", where);
        return false;
    }
    if (im->levels > 1 && im->sampler.mip_linear && !floats) {
        msg_set(err, "%s: \"mipmap_filter\": \"linear\" needs a texture that returns floats", where);
        return false;
    }
    return true;
}

/* "surfaces" and "textures": {"s": {"type": "u32", "channels": 1, "dims": [W, H], "layers": N,
 * "data": [...]}}, a texture with its sampling and shape too. Its texels go in a .global region
 * of its name, shown with the buffers; "@s" in "params" is its handle. */
static bool load_images(Block *b, const char *path, json_t *v, bool surface, Msg *where_msg, Msg *err)
{
    const char *key = surface ? "surfaces" : "textures", *name;
    json_t *spec;
    if (!json_is_object(v)) {
        msg_set(err, "%s: %s: expected an object of named %s", path, key, key);
        return false;
    }
    json_object_foreach(v, name, spec) {
        msg_set(where_msg, "%s: %s.%s", path, key, name);
        const char *where = where_msg->text;
        json_t *type_v = json_object_get(spec, "type"), *dims = json_object_get(spec, "dims");
        json_t *channels = json_object_get(spec, "channels"), *layers = json_object_get(spec, "layers");
        json_t *data = json_object_get(spec, "data");
        Image im;
        memset(&im, 0, sizeof im);
        im.surface = surface;
        im.levels = 1;
        int type = json_is_string(type_v) ? type_lookup(json_string_value(type_v), strlen(json_string_value(type_v)))
                                          : TYPE_COUNT;
        static const uint8_t texel_types[] = { TYPE_U8, TYPE_U16, TYPE_U32, TYPE_S8, TYPE_S16, TYPE_S32, TYPE_F32 };
        bool known = false;
        for (unsigned i = 0; i < sizeof texel_types; i++)
            known |= type == texel_types[i];
        im.channels = channels ? (uint8_t)json_integer_value(channels) : 1;
        size_t nd = json_is_array(dims) ? json_array_size(dims) : 0;
        if (!json_is_object(spec) || !known || (channels && !json_is_integer(channels)) ||
            (im.channels != 1 && im.channels != 2 && im.channels != 4) || nd < 1 || nd > 3 ||
            (layers && (!json_is_integer(layers) || json_integer_value(layers) < 1 || nd == 3 ||
                        json_integer_value(layers) > 2048)) ||
            (data && !json_is_array(data))) {
            msg_set(err, "%s: expected {\"type\": \"u8\" .. \"u32\", \"s8\" .. \"s32\" or \"f32\", "
                    "\"channels\": 1, 2 or 4, \"dims\": [width, height, depth] (1 to 3), \"layers\": N (1D and 2D), "
                    "\"data\": [...]}", where);
            return false;
        }
        im.type = (uint8_t)type;
        im.dims = (uint8_t)nd;
        im.layers = layers ? (uint32_t)json_integer_value(layers) : 0;
        for (unsigned d = 0; d < 3; d++) {
            json_t *e = json_array_get(dims, d);
            im.size[d] = d < nd ? (uint32_t)json_integer_value(e) : 1;
            if (d < nd && (!json_is_integer(e) || json_integer_value(e) < 1 || json_integer_value(e) > 65536)) {
                msg_set(err, "%s: dims[%u]: expected a size from 1 to 65536", where, d);
                return false;
            }
        }
        im.name = intern(&b->prog.m->names, name, strlen(name));
        if (surface ? !image_initializer(b, &im, false, false, false, where, err)
                    : !texture_shape(b, &im, spec, where, err))
            return false;
        /* level after level; in a level, layer (a cube's face) after layer */
        uint64_t slots = (uint64_t)(im.layers ? im.layers : 1) * (im.cube ? 6 : 1), texels = 0;
        for (unsigned l = 0; l < im.levels; l++) {
            im.level_at[l] = texels;
            texels += slots * image_level_size(&im, l, 0) * image_level_size(&im, l, 1) * image_level_size(&im, l, 2);
        }
        uint64_t count = texels * (im.samples ? im.samples : 1) * im.channels;
        unsigned size = type_info[type].bits / 8;
        if (count * size > (64u << 20) || (data && json_array_size(data) != count)) {
            msg_set(err, "%s: %s (%llu values: channels x samples x width x height x depth x layers (x 6 "
                    "faces), summed over the levels)", where,
                    count * size > (64u << 20) ? "more than 64 MiB" : "\"data\" has the wrong length",
                    (unsigned long long)count);
            return false;
        }
        static const char *const keys[] = { "type", "channels", "dims", "layers", "data", "filter", "address",
                                             "normalized_coords", "read", "cube", "samples", "levels",
                                             "mipmap_filter", "min_lod", "max_lod", "compare" };
        if (!keys_known(spec, keys, surface ? 5u : 16u, where, err))
            return false;
        if (mem_named(&b->mem, name, SPACE_GLOBAL) || mem_named(&b->mem, name, SPACE_CONST)) {
            msg_set(err, "%s: the program or the lanes file already has a global named '%s'", where, name);
            return false;
        }
        im.region = mem_add(&b->mem, im.name, SPACE_GLOBAL, count * size, 256, type, false, true);
        Region *r = &b->mem.regions[im.region];
        r->is_buffer = true;
        for (size_t i = 0; data && i < count; i++) {
            uint64_t bits, dbits;
            if (!lanes_value_bits(json_array_get(data, i), type, &bits, &dbits, err)) {
                msg_prefix(err, "%s.data[%zu]: ", where, i);
                return false;
            }
            for (unsigned k2 = 0; k2 < size; k2++) {
                r->data[i * size + k2] = (uint8_t)(bits >> (8 * k2));
                r->shadow[i * size + k2] = (uint8_t)(dbits >> (8 * k2));
            }
        }
        block_add_image(b, &im);
    }
    return true;
}
bool images_load(Block *b, const char *path, json_t *v, bool surface, Msg *err)
{
    Msg where = { 0 };         /* "path: textures.NAME" */
    bool ok = load_images(b, path, v, surface, &where, err);
    msg_free(&where);
    return ok;
}

/* "samplers": {"s": {"filter": ..., "address": ..., "normalized_coords": ...}}: separate
 * samplers (the independent texturing mode); "@s" in "params" is its handle. */
static bool load_samplers(Block *b, const char *path, json_t *v, Msg *where_msg, Msg *err)
{
    const char *name;
    json_t *spec;
    if (!json_is_object(v)) {
        msg_set(err, "%s: samplers: expected an object of named samplers", path);
        return false;
    }
    json_object_foreach(v, name, spec) {
        msg_set(where_msg, "%s: samplers.%s", path, name);
        const char *where = where_msg->text;
        static const char *const keys[] = { "filter", "address", "normalized_coords", "mipmap_filter", "min_lod",
                                             "max_lod", "compare" };
        Sampler sm;
        memset(&sm, 0, sizeof sm);
        if (!json_is_object(spec)) {
            msg_set(err, "%s: expected an object", where);
            return false;
        }
        if (!keys_known(spec, keys, 7, where, err) || !parse_sampler(&sm, spec, where, err) ||
            !sampler_check(&sm, where, err))
            return false;
        for (uint32_t i = 0; i < b->image_count; i++)
            if (!strcmp(b->images[i].name, name)) {
                msg_set(err, "%s: a texture or surface is named '%s' too", where, name);
                return false;
            }
        sm.name = intern(&b->prog.m->names, name, strlen(name));
        block_add_sampler(b, &sm);
    }
    return true;
}
bool images_load_samplers(Block *b, const char *path, json_t *v, Msg *err)
{
    Msg where = { 0 };         /* "path: samplers.NAME" */
    bool ok = load_samplers(b, path, v, &where, err);
    msg_free(&where);
    return ok;
}

/* The program's .samplerref variables with an initializer (texmode_independent): each a sampler
 * of its name, point-sampled and clamped where it says nothing, its coordinates normalized as
 * the texture's normalized_coords says unless force_unnormalized_coords = 1 (PTX ISA, "Texture
 * Sampler and Surface Types"). The lanes file may not give one of the same name too. */
bool images_program_samplers(Block *b, const char *path, Msg *err)
{
    const Module *m = b->prog.m;
    for (uint32_t g = 0; g < m->globals.len; g++) {
        const Decl *d = &m->globals.data[g];
        if (d->space != SPACE_SAMPLER || !d->opaque)
            continue;
        for (uint32_t i = 0; i < b->sampler_count; i++)
            if (b->samplers[i].name == d->name) {
                msg_set(err, "%s: samplers.%s: the program's .samplerref '%s' has an initializer: give its "
                        "settings in one place", path, d->name, d->name);
                return false;
            }
        Sampler sm;
        memset(&sm, 0, sizeof sm);
        sm.name = d->name;
        sm.texture_coords = true;
        sm.max_lod = 1000;
        OpaqueField refused;
        if (!image_sampling_from_init(d->opaque, &sm, &refused)) {
            uint32_t line, column;
            source_position(m->src, d->opaque->at[refused].offset, &line, &column);
            msg_set(err, "%s:%u:%u: ptxrun cannot execute %s = %s yet", m->src->name, line, column,
                    opaque_field_names[refused], opaque_addr_names[d->opaque->value[refused]]);
            return false;
        }
        block_add_sampler(b, &sm);
    }
    return true;
}

/* The handle "@name" gives when name is an image or a sampler. */
bool images_handle(const Block *b, const char *name, uint64_t *handle)
{
    for (uint32_t i = 0; i < b->image_count; i++)
        if (!strcmp(b->images[i].name, name)) {
            *handle = IMAGE_HANDLE_BASE + i;
            return true;
        }
    for (uint32_t i = 0; i < b->sampler_count; i++)
        if (!strcmp(b->samplers[i].name, name)) {
            *handle = SAMPLER_HANDLE_BASE + i;
            return true;
        }
    return false;
}
