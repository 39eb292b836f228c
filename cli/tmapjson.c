/* tmapjson.c: a tensor map described in the lanes file, {"tensormap": {...}} as a parameter's
 * value (docs/lanes-format.md): the map's 128 bytes in ptxrun's encoding (exec/tensormap.c),
 * checked by the rules CUDA's encoders apply. Requires: the lanes file's buffers, loaded first. */
#include <string.h>

#include <jansson.h>

#include "cli.h"

static const char *const type_names[TMAP_TYPE_COUNT] = { "u8", "u16", "u32", "s32", "u64", "s64", "f16", "f32",
                                                          "f64", "bf16", "f32_ftz", "tf32", "tf32_ftz" };

/* The index of v's string among names (count of them), or -1 (v absent: dflt). */
static int word(json_t *v, const char *const *names, int count, int dflt)
{
    if (!v)
        return dflt;
    const char *s = json_string_value(v);
    for (int i = 0; s && i < count; i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}

/* An array of 1 to max integers from lo to hi into out; its length, or 0 when it is not one. */
static unsigned numbers(json_t *v, unsigned max, int64_t lo, int64_t hi, int64_t *out)
{
    size_t n = json_array_size(v);
    if (!json_is_array(v) || n == 0 || n > max)
        return 0;
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(v, i);
        if (!json_is_integer(e) || json_integer_value(e) < lo || json_integer_value(e) > hi)
            return 0;
        out[i] = json_integer_value(e);
    }
    return (unsigned)n;
}

static bool integer(json_t *v, int64_t lo, int64_t hi, int64_t *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return false;
    *out = json_integer_value(v);
    return true;
}

static bool bad(Msg *err, const char *where, const char *what)
{
    msg_set(err, "%s: tensormap: %s", where, what);
    return false;
}

bool tmapjson_bytes(Block *b, const char *where, json_t *d, uint8_t out[TMAP_BYTES], Msg *err)
{
    static const char *const keys[] = { "buffer", "offset", "mode", "type", "dims", "strides", "box",
                                        "element_strides", "interleave", "swizzle", "l2_promotion", "oob_fill",
                                        "channels", "pixels", "lower", "upper" };
    if (!json_is_object(d))
        return bad(err, where, "expected an object");
    const char *key;
    json_t *v;
    json_object_foreach(d, key, v) {
        bool known = false;
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            known |= !strcmp(key, keys[i]);
        if (!known) {
            msg_set(err, "%s: tensormap: unknown key \"%s\"", where, key);
            return false;
        }
    }
    TensorMap t;
    memset(&t, 0, sizeof t);
    const char *name = json_string_value(json_object_get(d, "buffer"));
    Region *buf = name ? mem_named(&b->mem, name, SPACE_GLOBAL) : NULL;
    if (!buf || !buf->is_buffer || strchr(name, '@'))
        return bad(err, where, "\"buffer\" names no buffer of \"buffers\"");
    int64_t offset = 0;
    if (json_object_get(d, "offset") && !integer(json_object_get(d, "offset"), 0, (int64_t)buf->size, &offset))
        return bad(err, where, "\"offset\" is a byte offset within the buffer");
    t.address = mem_generic(SPACE_GLOBAL, buf->base) + (uint64_t)offset;
    static const char *const modes[] = { "tiled", "im2col" };
    int mode = word(json_object_get(d, "mode"), modes, 2, 0);
    if (mode < 0)
        return bad(err, where, "\"mode\" is \"tiled\" or \"im2col\"");
    t.mode = mode ? TMAP_IM2COL : TMAP_TILED;
    int type = word(json_object_get(d, "type"), type_names, TMAP_TYPE_COUNT, -1);
    if (type < 0)
        return bad(err, where, "\"type\" is one of u8 u16 u32 s32 u64 s64 f16 f32 f64 bf16 f32_ftz tf32 tf32_ftz");
    t.dtype = (uint8_t)type;
    int64_t dims[TMAP_MAX_RANK], strides[TMAP_MAX_RANK], box[TMAP_MAX_RANK], es[TMAP_MAX_RANK];
    unsigned rank = numbers(json_object_get(d, "dims"), TMAP_MAX_RANK, 1, 1ll << 32, dims);
    if (!rank)
        return bad(err, where, "\"dims\" is 1 to 5 sizes (elements), dimension 0 first");
    t.rank = (uint8_t)rank;
    t.stride[0] = tensormap_element_bytes(type);
    json_t *sv = json_object_get(d, "strides");
    if (sv && (rank == 1 || numbers(sv, rank - 1, 0, INT64_MAX, strides) != rank - 1))
        return bad(err, where, "\"strides\" is the byte stride of each dimension after the first (rank - 1 of them)");
    for (unsigned i = 0; i < rank; i++) {
        t.dim[i] = (uint64_t)dims[i];
        if (i)
            t.stride[i] = sv ? (uint64_t)strides[i - 1] : t.stride[i - 1] * t.dim[i - 1];
        t.estride[i] = 1;
    }
    json_t *ev = json_object_get(d, "element_strides");
    if (ev && numbers(ev, rank, 0, 255, es) != rank)
        return bad(err, where, "\"element_strides\" is one traversal stride a dimension");
    for (unsigned i = 0; ev && i < rank; i++)
        t.estride[i] = (uint32_t)es[i];
    static const char *const interleaves[] = { "none", "16B", "32B" }, *const swizzles[] = { "none", "32B", "64B", "128B" };
    static const char *const promotions[] = { "none", "64B", "128B", "256B" }, *const fills[] = { "zero", "nan" };
    int il = word(json_object_get(d, "interleave"), interleaves, 3, 0);
    int sw = word(json_object_get(d, "swizzle"), swizzles, 4, 0);
    int l2 = word(json_object_get(d, "l2_promotion"), promotions, 4, 0);
    int fill = word(json_object_get(d, "oob_fill"), fills, 2, 0);
    if (il < 0 || sw < 0 || l2 < 0 || fill < 0)
        return bad(err, where, "\"interleave\" is none, 16B or 32B; \"swizzle\" none, 32B, 64B or 128B; "
                               "\"l2_promotion\" none, 64B, 128B or 256B; \"oob_fill\" zero or nan");
    t.interleave = (uint8_t)il, t.swizzle = (uint8_t)sw, t.l2 = (uint8_t)l2, t.oobfill = (uint8_t)fill;
    if (t.mode == TMAP_TILED) {
        if (numbers(json_object_get(d, "box"), rank, 0, 1 << 16, box) != rank)
            return bad(err, where, "a tiled map's \"box\" is one size a dimension");
        for (unsigned i = 0; i < rank; i++)
            t.box[i] = (uint32_t)box[i];
    } else {
        int64_t ch, px, lo[3], hi[3];
        if (!integer(json_object_get(d, "channels"), 0, 1 << 16, &ch) ||
            !integer(json_object_get(d, "pixels"), 0, 1 << 16, &px))
            return bad(err, where, "an im2col map needs \"channels\" and \"pixels\"");
        t.channels = (uint16_t)ch, t.pixels = (uint16_t)px;
        if (rank < 3 || numbers(json_object_get(d, "lower"), 3, -32768, 32767, lo) != rank - 2 ||
            numbers(json_object_get(d, "upper"), 3, -32768, 32767, hi) != rank - 2)
            return bad(err, where, "an im2col map needs \"lower\" and \"upper\" corners, one offset a spatial "
                                   "dimension (rank - 2)");
        for (unsigned i = 0; i + 2 < rank; i++)
            t.lower[i] = (int32_t)lo[i], t.upper[i] = (int32_t)hi[i];
    }
    char why[200];
    if (!tensormap_check(&t, why, sizeof why))
        return bad(err, where, why);
    tensormap_encode(&t, out);
    return true;
}
