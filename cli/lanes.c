/* lanes.c: the warp's state in. Reads the --lanes JSON (jansson) into registers, predicates,
 * buffers and kernel parameters, with every value range-checked for its register's type, and
 * checks before running that every kernel parameter was given. Reading a value, a lane mask or
 * a register name, and the thread-to-lane mapping, are shared with dump.c and expect.c.
 * Requires: a Block from block_load. */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* ---- values ---- */

/* How many registers (or predicates) of f declared before the one at slot have its name: PTX
 * declares a name again in an inner { }, and "NAME@2" names the second (0: the first, "NAME"). */
uint32_t lanes_declared_before(const Function *f, bool pred, uint32_t slot)
{
    const Register *list = pred ? f->preds.data : f->regs.data;
    uint32_t n = 0;
    for (uint32_t i = 0; i < slot; i++)
        n += !list[i].upper && list[i].name && list[slot].name && !strcmp(list[i].name, list[slot].name);
    return n;
}

/* The register NAME or NAME@K (its K-th declaration, lanes_declared_before) names. */
static const Register *find_register(const Block *b, const char *name, bool *is_pred, uint32_t *slot)
{
    const Function *f = b->prog.fn;
    const char *at = strchr(name, '@');
    size_t len = at ? (size_t)(at - name) : strlen(name);
    char *end = NULL;
    unsigned long k = at ? strtoul(at + 1, &end, 10) : 1;
    if (at && (k < 2 || *end || !isdigit((unsigned char)at[1])))
        return NULL;
    for (int pass = 0; pass < 2; pass++) {
        const Register *list = pass ? f->preds.data : f->regs.data;
        uint32_t count = pass ? f->preds.len : f->regs.len, seen = 0;
        for (uint32_t i = 0; i < count; i++)
            if (!list[i].upper && list[i].name && !strncmp(list[i].name, name, len) && !list[i].name[len] &&
                ++seen == k) {
                *is_pred = pass == 1;
                *slot = i;
                return &list[i];
            }
    }
    return NULL;
}

typedef bool LaneSetter(Warp *w, uint32_t slot, int type, int lane, json_t *v, Msg *err);

static bool set_register_lane(Warp *w, uint32_t slot, int type, int lane, json_t *v, Msg *err)
{
    uint64_t bits, dbits;
    if (type == TYPE_B128) {                 /* two rows: the low 64 bits, then the high */
        uint64_t wide[2], wide_dbits[2];
        if (!b128_json_bits(v, wide, wide_dbits, err))
            return false;
        for (unsigned h = 0; h < 2; h++) {
            w->val[slot + h][lane] = wide[h];
            warp_define(w, slot + h, 1u << lane, 0);
            warp_define_bits(w, slot + h, lane, wide_dbits[h], 64);
        }
        return true;
    }
    if (!lanes_value_bits(v, type, &bits, &dbits, err))
        return false;
    w->val[slot][lane] = bits;
    warp_define(w, slot, 1u << lane, 0);
    warp_define_bits(w, slot, lane, dbits, type_info[type].bits);
    return true;
}

static bool set_pred_lane(Warp *w, uint32_t slot, int type, int lane, json_t *v, Msg *err)
{
    (void)type;
    bool value, defined;
    if (!lanes_pred_value(v, &value, &defined, err))
        return false;
    uint32_t bit = 1u << lane;
    w->pred[slot] = value ? w->pred[slot] | bit : w->pred[slot] & ~bit;
    w->pred_defined[slot] = defined ? w->pred_defined[slot] | bit : w->pred_defined[slot] & ~bit;
    return true;
}

/* How many values a register's array has: one per lane of a one-warp block (as many as its
 * threads also do), one per thread of a larger block. */
bool lanes_array_size_ok(const Block *b, size_t n)
{
    return n == b->threads || (b->warp_count == 1 && n == WARP_SIZE);
}

const char *lanes_array_size_text(const Block *b, char *buf, size_t size)
{
    if (b->warp_count == 1 && b->threads != WARP_SIZE)
        snprintf(buf, size, "%d values, one per lane, or %u, one per thread", WARP_SIZE, b->threads);
    else if (b->warp_count == 1)
        snprintf(buf, size, "%d values, one per lane", WARP_SIZE);
    else
        snprintf(buf, size, "%u values, one per thread of the block", b->threads);
    return buf;
}

static bool set_lanes(Block *b, const char *where, uint32_t slot, int type, json_t *v, LaneSetter *set,
                      Msg *err)
{
    if (json_is_array(v)) {
        if (!lanes_array_size_ok(b, json_array_size(v))) {
            char msg[80];          /* "%u values, one per thread of the block" */
            msg_set(err, "%s: an array needs %s (this one has %zu)", where,
                    lanes_array_size_text(b, msg, sizeof msg), json_array_size(v));
            return false;
        }
        for (uint32_t t = 0; t < json_array_size(v); t++) {
            int lane;
            Warp *x = block_thread_warp(b, t, &lane);
            if (!set(x, slot, type, lane, json_array_get(v, t), err)) {
                msg_prefix(err, "%s[%u]: ", where, t);
                return false;
            }
        }
        return true;
    }
    for (uint32_t t = 0; t < b->warp_count * WARP_SIZE; t++) {
        int lane;
        Warp *x = block_thread_warp(b, t, &lane);
        if (!set(x, slot, type, lane, v, err)) {
            msg_prefix(err, "%s: ", where);
            return false;
        }
    }
    return true;
}

bool lanes_parse_mask(json_t *v, uint32_t *mask)
{
    if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= 0xffffffff) {
        *mask = (uint32_t)json_integer_value(v);
        return true;
    }
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        char *end;
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2]) {
            unsigned long long m = strtoull(s + 2, &end, 16);
            if (!*end && m <= 0xffffffffull) {
                *mask = (uint32_t)m;
                return true;
            }
        }
    }
    return false;
}

json_t *lanes_load_json(const char *path, Msg *err)
{
    json_error_t e;
    bool from_stdin = strcmp(path, "-") == 0;
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        msg_set(err, "cannot open '%s': %s", path, strerror(errno));
        if (f && !from_stdin)
            fclose(f);
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        msg_set(err, "cannot read '%s': %s", path, strerror(EISDIR));
        if (!from_stdin)
            fclose(f);
        return NULL;
    }
    json_t *root = values_load_json(f, &e);
    bool read_error = ferror(f);
    int read_errno = errno;
    if (!from_stdin)
        fclose(f);
    if (!root && read_error) {
        msg_set(err, "cannot read '%s': %s", path, strerror(read_errno));
        return NULL;
    }
    if (!root) {
        if (e.line > 0)
            msg_set(err, "%s:%d:%d: %s", path, e.line, e.column, e.text);
        else
            msg_set(err, "%s: %s", path, e.text);
        return NULL;
    }
    if (!json_is_object(root)) {
        msg_set(err, "%s: expected a JSON object {\"regs\": ..., \"preds\": ...}", path);
        json_decref(root);
        return NULL;
    }
    return root;
}

/* Looks up name for the "regs"/"preds" section; says what is wrong in err. */
bool lanes_lookup(const Block *b, const char *path, const char *section, const char *name, bool want_pred,
                  uint32_t *slot, int *type, Msg *err)
{
    bool is_pred;
    const Register *r = find_register(b, name, &is_pred, slot);
    char *shown = r && is_pred == want_pred ? NULL : demangle_cut(name, strlen(name), DEMANGLE_SHOWN);
    if (!r)
        msg_set(err, "%s: %s.%s: the program has no register '%s'", path, section, shown, shown);
    else if (is_pred != want_pred)
        msg_set(err, "%s: %s.%s: '%s' is a %s; put it under \"%s\"", path, section, shown, shown,
                is_pred ? "predicate" : "value register", is_pred ? "preds" : "regs");
    else
        *type = r->type;
    free(shown);
    return r && is_pred == want_pred;
}

/* "buffers": {"in": {"type": "f32", "data": [...]}, "out": {"type": "u32", "count": 32}}; "replicas":
 * K makes a multicast object of K copies (regions NAME, NAME@1, ...), "NAME@i" gives copy i's data. */
static bool load_buffers(Block *b, const char *path, json_t *v, Msg *err)
{
    if (!json_is_object(v)) {
        msg_set(err, "%s: buffers: expected an object of named buffers", path);
        return false;
    }
    enum { MAX_BUFFER_BYTES = 256 << 20, MAX_ALL_BUFFER_BYTES = 1 << 30 };
    uint64_t total = 0;
    const char *name;
    json_t *spec;
    /* Pass 0 checks every buffer and their total; pass 1 allocates and fills them; pass 2 fills
     * the copies that have data of their own. */
    for (int pass = 0; pass < 3; pass++)
    json_object_foreach(v, name, spec) {
        json_t *type_v = json_object_get(spec, "type"), *data = json_object_get(spec, "data");
        json_t *count_v = json_object_get(spec, "count"), *replicas_v = json_object_get(spec, "replicas");
        json_t *file_v = json_object_get(spec, "file");
        const char *at = strchr(name, '@');
        if ((pass == 2) != (at != NULL) && pass)
            continue;
        json_int_t replicas = !replicas_v ? 0 : json_is_integer(replicas_v) ? json_integer_value(replicas_v) : -1;
        if (replicas_v && (at || replicas < 1 || replicas > MEM_MAX_REPLICAS)) {
            msg_set(err, "%s: buffers.%s: \"replicas\" is a number of copies, 1 to %d%s", path, name,
                    MEM_MAX_REPLICAS, at ? ", for a buffer whose name has no '@'" : "");
            return false;
        }
        int type = json_is_string(type_v) ? type_lookup(json_string_value(type_v), strlen(json_string_value(type_v)))
                                          : TYPE_COUNT;
        if (!json_is_object(spec) || ((type_v || !file_v) && !npy_buffer_type_ok(type))) {
            msg_set(err, "%s: buffers.%s: expected {\"type\": \"u32\" (u8..u64, s8..s64, b8..b64, f16, bf16, "
                    "f32, f64), \"data\": [...] or \"count\": N} or {\"file\": \"x.npy\"}", path, name);
            return false;
        }
        if ((data != NULL) + (count_v != NULL) + (file_v != NULL) != 1 || (data && !json_is_array(data)) ||
            (file_v && !json_is_string(file_v)) ||
            (count_v && (!json_is_integer(count_v) || json_integer_value(count_v) < 1 ||
                         json_integer_value(count_v) > (1 << 26)))) {
            msg_set(err, "%s: buffers.%s: give one of \"data\": [values], \"count\": N (1 to 2^26) and "
                    "\"file\": \"x.npy\" (or \"x.bin\" with a \"type\")", path, name);
            return false;
        }
        uint64_t file_count = 0;
        if (file_v && !npy_read(json_string_value(file_v), type_v ? type : TYPE_COUNT, &type, &file_count, NULL, err)) {
            msg_prefix(err, "%s: buffers.%s: ", path, name);
            return false;
        }
        if (file_v && (file_count < 1 || file_count > (1 << 26))) {
            msg_set(err, "%s: buffers.%s: %s holds %llu elements; a buffer has 1 to 2^26", path, name,
                    json_string_value(file_v), (unsigned long long)file_count);
            return false;
        }
        if (!at && (mem_named(&b->mem, name, SPACE_GLOBAL) || mem_named(&b->mem, name, SPACE_CONST))) {
            msg_set(err, "%s: buffers.%s: the program already has a %s named '%s'", path, name,
                    mem_named(&b->mem, name, SPACE_GLOBAL) ? "global" : ".const variable", name);
            return false;
        }
        uint64_t count = data ? json_array_size(data) : file_v ? file_count : (uint64_t)json_integer_value(count_v);
        unsigned size = type_info[type].bits / 8;
        if (count * size > MAX_BUFFER_BYTES) {
            msg_set(err, "%s: buffers.%s: %llu bytes is more than the %d MiB a buffer may have", path, name,
                    (unsigned long long)(count * size), MAX_BUFFER_BYTES >> 20);
            return false;
        }
        total += pass == 0 ? count * size * (replicas ? (uint64_t)replicas : 1) : 0;
        if (total > MAX_ALL_BUFFER_BYTES) {
            msg_set(err, "%s: buffers.%s: with it, the buffers need more than the %d MiB they may have together",
                    path, name, MAX_ALL_BUFFER_BYTES >> 20);
            return false;
        }
        if (pass == 0)
            continue;
        Region *r = at ? mem_named(&b->mem, name, SPACE_GLOBAL) : NULL;
        if (at && (!r || !r->is_buffer || r->type != type || r->size != count * size || !(data || file_v))) {
            msg_set(err, "%s: buffers.%s: no copy of that name, type and size (a buffer '%.*s' with "
                    "\"replicas\" has copies %.*s@1, ...)", path, name, (int)(at - name), name, (int)(at - name), name);
            return false;
        }
        uint32_t first = b->mem.count;
        for (json_int_t i = 0; !at && i < (replicas ? replicas : 1); i++) {   /* copy i: NAME@i */
            size_t room = strlen(name) + 24;   /* the name whole, however long, and "@i" */
            char *copy = xmalloc(room);
            snprintf(copy, room, i ? "%s@%lld" : "%s", name, (long long)i);
            uint32_t index = mem_add(&b->mem, intern(&b->prog.m->names, copy, strlen(copy)), SPACE_GLOBAL,
                                     count * size, 256, type, false, replicas > 0);
            free(copy);
            b->mem.regions[index].is_buffer = true;
        }
        r = at ? r : &b->mem.regions[first];
        r->replicas = (uint16_t)replicas;
        if (file_v && !npy_read(json_string_value(file_v), type, &type, &count, r->data, err)) {
            msg_prefix(err, "%s: buffers.%s: ", path, name);
            return false;
        }
        if (file_v && (replicas || at))
            memset(r->shadow, 0xff, count * size);
        bool whole = true;                 /* every value defined */
        for (size_t i = 0; data && i < count; i++) {
            uint64_t bits, dbits;
            if (!lanes_value_bits(json_array_get(data, i), type, &bits, &dbits, err)) {
                msg_prefix(err, "%s: buffers.%s.data[%zu]: ", path, name, i);
                return false;
            }
            whole = whole && (dbits & width_mask(8 * size)) == width_mask(8 * size);
            for (unsigned k = 0; k < size; k++) {
                r->data[i * size + k] = (uint8_t)(bits >> (8 * k));
                r->shadow[i * size + k] = (uint8_t)(dbits >> (8 * k));
            }
        }
        if (!at && !replicas && whole)     /* no shadow bytes (mem.c): the zeros stay untouched pages */
            mem_all_defined(&b->mem, (uint32_t)(r - b->mem.regions));
        for (json_int_t i = 1; i < replicas; i++) {           /* every copy starts as copy 0 */
            memcpy(r[i].data, r->data, count * size);
            memcpy(r[i].shadow, r->shadow, count * size);
        }
    }
    return true;
}

/* A value given for a parameter or a field of one: "@buffer" is that buffer's address (a
 * 64-bit type only), anything else a value of the type. nvcc declares C int parameters .u32,
 * so a negative number is accepted for .u types too, as its two's complement. */
static bool param_value(Block *b, const char *where, int type, json_t *v, uint64_t *bits, uint64_t *dbits, Msg *err)
{
    *dbits = ~0ull;
    if (json_is_string(v) && json_string_value(v)[0] == '@') {
        const char *name = json_string_value(v) + 1;
        if (images_handle(b, name, bits)) {
            if (type_info[type].bits != 64) {
                msg_set(err, "%s: a texture, surface or sampler handle needs a 64-bit parameter, not .%s",
                        where, type_info[type].name);
                return false;
            }
            return true;
        }
        Region *buf = mem_named(&b->mem, name, SPACE_GLOBAL);
        if (!buf || !buf->is_buffer || strchr(name, '@')) {     /* a multicast copy has no address */
            char *shown = demangle_cut(name, strlen(name), DEMANGLE_SHOWN);
            msg_set(err, "%s: no buffer named '%s' in \"buffers\"", where, shown);
            free(shown);
            return false;
        }
        if (type_info[type].bits != 64) {
            msg_set(err, "%s: a buffer address needs a 64-bit parameter, not .%s", where,
                    type_info[type].name);
            return false;
        }
        *bits = mem_generic(SPACE_GLOBAL, buf->base);
        return true;
    }
    int as = type;
    if (type_info[type].cls == 'u' && json_is_integer(v) && json_integer_value(v) < 0)
        for (int t = 0; t < TYPE_COUNT; t++)
            if (type_info[t].cls == 'b' && type_info[t].bits == type_info[type].bits)
                as = t;
    if (!lanes_value_bits(v, as, bits, dbits, err)) {
        msg_prefix(err, "%s: ", where);
        return false;
    }
    return true;
}

static void put_bytes(uint8_t *data, uint8_t *shadow, uint64_t bits, unsigned size, uint64_t dbits)
{
    for (unsigned k = 0; k < size; k++) {
        data[k] = (uint8_t)(bits >> (8 * k));
        shadow[k] = (uint8_t)(dbits >> (8 * k));
    }
}

/* A parameter that is an array or a struct (.param .align 8 .b8 s[16]), or any parameter given
 * by its bytes: {"bytes": [0..255 or null, ...]} from its start, or {"fields": [["u32", 7], ["f32", 1.5], ["u64", "@buf"], ...]}
 * laid out as a C struct is (each field at its natural alignment). Bytes not given stay
 * undefined. */
static bool set_aggregate_param(Block *b, const char *where, uint8_t *data, uint8_t *shadow, uint32_t size, json_t *v,
                                Msg *err)
{
    json_t *bytes = json_object_get(v, "bytes"), *fields = json_object_get(v, "fields");
    if (!json_is_object(v) || (bytes != NULL) == (fields != NULL) || json_object_size(v) != 1 ||
        (bytes && !json_is_array(bytes)) || (fields && !json_is_array(fields))) {
        msg_set(err, "%s: a parameter of %u bytes takes {\"bytes\": [0..255, ...]} or "
                "{\"fields\": [[\"u32\", 7], [\"f32\", 1.5], ...]}", where, size);
        return false;
    }
    if (bytes) {
        if (json_array_size(bytes) > size) {
            msg_set(err, "%s: %zu bytes given; the parameter has %u", where, json_array_size(bytes), size);
            return false;
        }
        for (size_t i = 0; i < json_array_size(bytes); i++) {
            json_t *byte = json_array_get(bytes, i);
            if (json_is_null(byte))
                continue;
            if (!json_is_integer(byte) || json_integer_value(byte) < 0 || json_integer_value(byte) > 255) {
                msg_set(err, "%s: bytes[%zu]: expected 0 to 255 (or null: undefined)", where, i);
                return false;
            }
            put_bytes(data + i, shadow + i, (uint64_t)json_integer_value(byte), 1, ~0ull);
        }
        return true;
    }
    uint32_t at = 0;
    for (size_t i = 0; i < json_array_size(fields); i++) {
        json_t *f = json_array_get(fields, i), *t = json_array_get(f, 0);
        const char *tn = json_string_value(t);
        int type = tn ? type_lookup(tn, strlen(tn)) : TYPE_COUNT;
        if (!json_is_array(f) || json_array_size(f) != 2 || type == TYPE_COUNT || type == TYPE_PRED ||
            type_info[type].bits % 8 || type_info[type].bits > 64) {
            msg_set(err, "%s: fields[%zu]: expected [\"TYPE\", value] with TYPE one of u8..u64, s8..s64, "
                    "b8..b64, f16, bf16, f32, f64", where, i);
            return false;
        }
        unsigned n = type_info[type].bits / 8;
        at = (at + n - 1) / n * n;
        if (at + n > size) {
            msg_set(err, "%s: fields[%zu] ends at byte %u; the parameter has %u", where, i, at + n, size);
            return false;
        }
        Msg here = { 0 };
        msg_set(&here, "%s: fields[%zu]", where, i);
        uint64_t bits;
        uint64_t dbits;
        bool ok = param_value(b, here.text, type, json_array_get(f, 1), &bits, &dbits, err);
        msg_free(&here);
        if (!ok)
            return false;
        put_bytes(data + at, shadow + at, bits, n, dbits);
        at += n;
    }
    return true;
}

/* A .texref, .surfref or .samplerref parameter: the handle of a texture, a surface or a sampler of
 * the lanes file, "@name", and nothing else. */
static bool set_handle_param(Block *b, const char *where, int space, uint8_t *data, uint8_t *shadow, json_t *v,
                             Msg *err)
{
    uint64_t h = 0;
    const char *s = json_is_string(v) ? json_string_value(v) : NULL;
    bool found = s && s[0] == '@' && images_handle(b, s + 1, &h);
    const Image *im = found ? image_of(b, h) : NULL;
    bool fits = space == SPACE_SAMPLER ? found && sampler_of(b, h) : im && im->surface == (space == SPACE_SURF);
    if (!fits) {
        msg_set(err, "%s: a %s parameter takes the handle of a %s of \"%s\", \"@name\"", where,
                space == SPACE_TEX ? ".texref" : space == SPACE_SURF ? ".surfref" : ".samplerref",
                space == SPACE_TEX ? "texture" : space == SPACE_SURF ? "surface" : "sampler",
                space == SPACE_TEX ? "textures" : space == SPACE_SURF ? "surfaces" : "samplers");
        return false;
    }
    put_bytes(data, shadow, h, 8, ~0ull);
    return true;
}

/* One kernel parameter, i of the kernel's, in the parameter buffer. */
static bool set_param(Block *b, const char *path, uint32_t i, json_t *v, Msg *err)
{
    const Decl *d = &b->prog.fn->params.data[i];
    uint8_t *shadow;
    uint32_t size;
    uint8_t *data = block_param_bytes(b, i, &shadow, &size);
    Msg where = { 0 };
    char *shown = demangle_shown(d->name);
    msg_set(&where, "%s: params.%s", path, shown);
    free(shown);
    bool ok;
    uint64_t bits;
    uint64_t dbits;
    if (d->handle_space)
        ok = set_handle_param(b, where.text, d->handle_space, data, shadow, v, err);
    else if (json_is_object(v) || d->dim_count || d->type == TYPE_NONE || d->vector || type_info[d->type].bits > 64)
        ok = set_aggregate_param(b, where.text, data, shadow, size, v, err);
    else if ((ok = param_value(b, where.text, d->type, v, &bits, &dbits, err))) {
        uint32_t n = (uint32_t)(type_info[d->type].bits + 7) / 8;
        put_bytes(data, shadow, bits, n < size ? n : size, dbits);
    }
    msg_free(&where);
    return ok;
}

/* "params": [v0, v1, ...] by position, or {"name": v} by name. */
static bool load_params(Block *b, const char *path, json_t *v, Msg *err)
{
    const Function *f = b->prog.fn;
    if (json_is_array(v)) {
        if (json_array_size(v) != f->params.len) {
            char *kernel = demangle_shown(f->name);
            msg_set(err, "%s: params: '%s' takes %u parameters, the array has %zu", path, kernel,
                    f->params.len, json_array_size(v));
            free(kernel);
            return false;
        }
        for (uint32_t i = 0; i < f->params.len; i++)
            if (!set_param(b, path, i, json_array_get(v, i), err))
                return false;
        return true;
    }
    if (!json_is_object(v)) {
        msg_set(err, "%s: params: expected [values in order] or {\"name\": value}", path);
        return false;
    }
    const char *name;
    json_t *value;
    json_object_foreach(v, name, value) {
        const Decl *d = NULL;
        for (uint32_t i = 0; i < f->params.len && !d; i++)
            if (strcmp(f->params.data[i].name, name) == 0)
                d = &f->params.data[i];
        if (!d) {
            char *kernel = demangle_shown(f->name), *shown = demangle_shown(name);
            msg_set(err, "%s: params.%s: '%s' has no parameter of that name", path, shown, kernel);
            free(kernel);
            free(shown);
            return false;
        }
        if (!set_param(b, path, (uint32_t)(d - f->params.data), value, err))
            return false;
    }
    return true;
}

static bool load_dynamic_shared(Block *b, const char *path, json_t *v, Msg *err)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > (1 << 20)) {
        msg_set(err, "%s: dynamic_shared: expected a number of bytes (0 to 1 MiB)", path);
        return false;
    }
    block_set_dynamic_shared(b, (uint32_t)json_integer_value(v));
    return true;
}

/* "block": [x, y, z] or "grid": [x, y, z], one to three numbers; false (err set) if not. */
static bool parse_dims(const char *path, const char *key, json_t *v, uint32_t dims[3], const uint32_t most[3],
                       Msg *err)
{
    size_t n = json_array_size(v);
    if (!json_is_array(v) || n < 1 || n > 3) {
        msg_set(err, "%s: %s: expected [x, y, z] (one to three numbers)", path, key);
        return false;
    }
    dims[0] = dims[1] = dims[2] = 1;
    for (size_t i = 0; i < n; i++) {
        json_t *d = json_array_get(v, i);
        if (!json_is_integer(d) || json_integer_value(d) < 1 || json_integer_value(d) > most[i]) {
            msg_set(err, "%s: %s[%zu]: expected an integer from 1 to %u", path, key, i, most[i]);
            return false;
        }
        dims[i] = (uint32_t)json_integer_value(d);
    }
    return true;
}

/* "cluster": [x, y, z] (the grid a whole number of them, at most 16 CTAs in one) and "cooperative":
 * true, the CTAs that run together; false (err set) if not. */
static bool load_together(Block *b, const char *path, json_t *root, const uint32_t nctaid[3], Msg *err)
{
    static const uint32_t most[3] = { MAX_CLUSTER_CTAS, MAX_CLUSTER_CTAS, MAX_CLUSTER_CTAS };
    json_t *cluster = json_object_get(root, "cluster"), *coop = json_object_get(root, "cooperative");
    uint32_t c[3];
    if (cluster && !parse_dims(path, "cluster", cluster, c, most, err))
        return false;
    if (cluster && (uint64_t)c[0] * c[1] * c[2] > MAX_CLUSTER_CTAS) {
        msg_set(err, "%s: cluster: %u x %u x %u is %llu CTAs; an H100's cluster has at most %d", path, c[0], c[1],
                c[2], (unsigned long long)c[0] * c[1] * c[2], MAX_CLUSTER_CTAS);
        return false;
    }
    for (int d = 0; cluster && d < 3; d++)
        if (nctaid[d] % c[d]) {
            msg_set(err, "%s: cluster: the grid's %c (%u) is not a whole number of clusters of %u", path, "xyz"[d],
                    nctaid[d], c[d]);
            return false;
        }
    if (coop && !json_is_boolean(coop)) {
        msg_set(err, "%s: cooperative: expected true or false", path);
        return false;
    }
    if (cluster)
        block_set_cluster(b, c);
    block_set_cooperative(b, coop && json_is_true(coop));
    return true;
}

int lanes_load(Block *b, const char *path, const Launch *cli, Msg *err)
{
    static const Launch none;
    cli = cli ? cli : &none;
    json_t *root = path ? lanes_load_json(path, err) : json_object();
    if (!root)
        return -1;
    int rc = -1;
    Msg where = { 0 };         /* "path: regs.NAME" */
    char label[300];           /* the path's last 200 bytes at most, and " with the command line" */
    bool merged = launch_given(cli);
    size_t path_len = path ? strlen(path) : 0;            /* a long path keeps its end: the file's name */
    const char *cut = path_len > 200 ? "..." : "", *end = path_len > 200 ? path + path_len - 197 : path;
    snprintf(label, sizeof label, !path ? "the command line" : merged ? "%s%s with the command line" : "%s%s",
             cut, end);
    if (!launch_merge(b, root, path, cli, err))
        goto out;
    path = label;
    uint32_t ntid[3] = { WARP_SIZE, 1, 1 }, nctaid[3] = { 1, 1, 1 }, active = ALL_LANES;
    const char *key;
    json_t *v;
    /* The shape first (it makes the warps), then buffers before parameters, which may name them. */
    json_t *block = json_object_get(root, "block"), *grid = json_object_get(root, "grid");
    json_t *mask = json_object_get(root, "active");
    static const uint32_t block_most[3] = { MAX_BLOCK_THREADS, MAX_BLOCK_THREADS, MAX_BLOCK_Z };   /* CUDA's */
    static const uint32_t grid_most[3] = { MAX_GRID_X, MAX_GRID_YZ, MAX_GRID_YZ };    /* CUDA's */
    if (block && !parse_dims(path, "block", block, ntid, block_most, err))
        goto out;
    if ((uint64_t)ntid[0] * ntid[1] * ntid[2] > MAX_BLOCK_THREADS) {
        msg_set(err, "%s: block: %u x %u x %u is %llu threads; a block has at most %d", path, ntid[0], ntid[1],
                ntid[2], (unsigned long long)ntid[0] * ntid[1] * ntid[2], MAX_BLOCK_THREADS);
        goto out;
    }
    if (grid && !parse_dims(path, "grid", grid, nctaid, grid_most, err))
        goto out;
    if (!load_together(b, path, root, nctaid, err))
        goto out;
    if (mask && !lanes_parse_mask(mask, &active)) {
        msg_set(err, "%s: active: expected a lane mask such as \"0xffffffff\"", path);
        goto out;
    }
    if (mask && ntid[0] * ntid[1] * ntid[2] > WARP_SIZE) {
        msg_set(err, "%s: active: a lane mask applies to a block of one warp; this one has %u threads",
                path, ntid[0] * ntid[1] * ntid[2]);
        goto out;
    }
    uint32_t threads = ntid[0] * ntid[1] * ntid[2];
    if (mask && threads < WARP_SIZE && active >> threads) {   /* lanes that do not exist would run nothing */
        msg_set(err, "%s: active: 0x%08x names lanes the block of %u threads does not have (lanes 0 to %u)",
                path, active, threads, threads - 1);
        goto out;
    }
    if (!block_fits(b, ntid, err)) {
        msg_prefix(err, "%s: block: ", path);
        goto out;
    }
    block_set_shape(b, ntid, active);
    block_set_grid(b, nctaid);
    json_t *buffers = json_object_get(root, "buffers"), *params = json_object_get(root, "params");
    json_t *dynamic = json_object_get(root, "dynamic_shared");
    json_t *surfaces = json_object_get(root, "surfaces"), *textures = json_object_get(root, "textures");
    json_t *samplers = json_object_get(root, "samplers");
    if ((buffers && !load_buffers(b, path, buffers, err)) ||
        (surfaces && !images_load(b, path, surfaces, true, err)) ||
        (textures && !images_load(b, path, textures, false, err)) ||
        (samplers && !images_load_samplers(b, path, samplers, err)) ||
        !images_program_samplers(b, path, err) ||
        (params && !load_params(b, path, params, err)) ||
        (dynamic && !load_dynamic_shared(b, path, dynamic, err)))
        goto out;
    json_object_foreach(root, key, v) {
        if (!strcmp(key, "regs") || !strcmp(key, "preds")) {
            bool preds = key[0] == 'p';
            if (!json_is_object(v)) {
                msg_set(err, "%s: %s: expected an object of register names", path, key);
                goto out;
            }
            const char *name;
            json_t *value;
            json_object_foreach(v, name, value) {
                uint32_t slot;
                int type;
                if (!lanes_lookup(b, path, key, name, preds, &slot, &type, err))
                    goto out;
                msg_set(&where, "%s: %s.%s", path, key, name);
                if (!set_lanes(b, where.text, slot, type, value, preds ? set_pred_lane : set_register_lane, err))
                    goto out;
            }
        } else if (strcmp(key, "buffers") && strcmp(key, "params") && strcmp(key, "dynamic_shared") &&
                   strcmp(key, "surfaces") && strcmp(key, "textures") && strcmp(key, "samplers") &&
                   strcmp(key, "block") && strcmp(key, "grid") && strcmp(key, "active") && strcmp(key, "exited") &&
                   strcmp(key, "steps") && strcmp(key, "warnings") && strcmp(key, "cta") && strcmp(key, "stdout") &&
                   strcmp(key, "ctas") && strcmp(key, "cluster") && strcmp(key, "cooperative")) {
            char *shown = demangle_cut(key, strlen(key), DEMANGLE_SHOWN);
            msg_set(err, "%s: unknown key \"%s\" (expected block, grid, cluster, cooperative, active, regs, preds, buffers, "
                    "params, dynamic_shared, surfaces, textures, samplers)", path, shown);
            free(shown);
            goto out;
        }
    }
    rc = block || b->prog.fn->is_snippet ? 0 : 1;
out:
    msg_free(&where);
    json_decref(root);
    return rc;
}

/* Whether parameter i has any byte given (a parameter of no bytes needs none). */
static bool param_given(Block *b, uint32_t i)
{
    uint8_t *shadow;
    uint32_t size;
    block_param_bytes(b, i, &shadow, &size);
    for (uint32_t k = 0; k < size; k++)
        if (shadow[k])
            return true;
    return size == 0;
}

/* Kernel parameters the lanes file and --param left out: an error before running, not undefined
 * loads. Every one is listed, with its index, type and the --param that gives it. */
bool lanes_params_given(Block *b, FILE *err_out)
{
    const Function *f = b->prog.fn;
    uint32_t missing = 0;
    for (uint32_t i = 0; i < f->params.len; i++)
        missing += !param_given(b, i);
    if (!missing)
        return true;
    char *kernel = demangle_shown(f->name);
    fprintf(err_out, "ptxrun: error: kernel '%s' needs a value for %s%u parameter%s:\n", kernel,
            missing == f->params.len && missing > 1 ? "each of its " : "", missing, missing == 1 ? "" : "s");
    free(kernel);
    for (uint32_t i = 0; i < f->params.len; i++) {
        if (param_given(b, i))
            continue;
        const Decl *d = &f->params.data[i];
        char *shown = demangle_shown(launch_param_short(f, d->name)), type[32];
        bool bytes = d->dim_count || d->type == TYPE_NONE;
        uint8_t *shadow;
        uint32_t size;
        block_param_bytes(b, i, &shadow, &size);
        if (bytes)
            snprintf(type, sizeof type, ".b8[%u]", size);
        else
            snprintf(type, sizeof type, ".%s", type_info[d->type].name);
        fprintf(err_out, "  parameter %u (%s): --param %s=%s\n", i, type, shown,
                d->handle_space ? "@NAME" : bytes ? "'{\"bytes\": [...]}'" : "VALUE");
        free(shown);
    }
    fprintf(err_out, "(or \"params\" in the lanes file: docs/lanes-format.md)\n");
    return false;
}
