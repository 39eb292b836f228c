/* lanes.c: the warp's state in and out. Reads the --lanes JSON (jansson) into registers and
 * predicates, with every value range-checked for its register's type; prints the final state
 * as a table (one row per lane, a column per register, values in their type) or as JSON that
 * is itself valid --lanes input; compares the state with an --expect file.
 * Requires: a Warp from exec_load. */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ptxrun.h"

enum { TABLE_WIDTH = 100 };

/* ---- values ---- */

static const Register *find_register(const Warp *w, const char *name, bool *is_pred, uint32_t *slot)
{
    const Function *f = w->fn;
    for (uint32_t i = 0; i < f->regs.len; i++)
        if (f->regs.data[i].name && strcmp(f->regs.data[i].name, name) == 0) {
            *is_pred = false;
            *slot = i;
            return &f->regs.data[i];
        }
    for (uint32_t i = 0; i < f->preds.len; i++)
        if (f->preds.data[i].name && strcmp(f->preds.data[i].name, name) == 0) {
            *is_pred = true;
            *slot = i;
            return &f->preds.data[i];
        }
    return NULL;
}


/* One JSON value as the bits of a register of the given type. Returns false with a message. */
static bool value_bits(json_t *v, int type, uint64_t *bits, bool *defined, char *err, size_t errlen)
{
    unsigned width = type_info[type].bits;
    char cls = type_info[type].cls;
    *defined = true;
    if (json_is_null(v)) {
        *defined = false;
        *bits = 0;
        return true;
    }
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        if (cls == 'f' && (!strcmp(s, "nan") || !strcmp(s, "inf") || !strcmp(s, "-inf"))) {
            double d = s[0] == 'n' ? NAN : s[0] == '-' ? -INFINITY : INFINITY;
            if (width == 16) {
                *bits = convert_double_to_small(d, type);
            } else if (width == 32) {
                float f = (float)d;
                uint32_t b;
                memcpy(&b, &f, sizeof b);
                *bits = s[0] == 'n' ? 0x7fffffffu : b;
            } else {
                *bits = s[0] == 'n' ? 0x7fffffffffffffffull : 0;
                if (s[0] != 'n')
                    memcpy(bits, &d, sizeof d);
            }
            return true;
        }
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2]) {
            char *end;
            unsigned long long b = strtoull(s + 2, &end, 16);
            if (*end || strlen(s + 2) > 16) {
                snprintf(err, errlen, "\"%s\" is not a hex number", s);
                return false;
            }
            if (b & ~width_mask(width)) {
                snprintf(err, errlen, "%s does not fit in %u bits", s, width);
                return false;
            }
            *bits = b;
            return true;
        }
        snprintf(err, errlen, "\"%s\" is not a value (use a number, \"0x...\" bits%s, or null)", s,
                 cls == 'f' ? ", \"nan\", \"inf\", \"-inf\"" : "");
        return false;
    }
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (cls == 'f') {
            if (width == 16) {                 /* f16, bf16: rounded to nearest even */
                *bits = convert_double_to_small((double)i, type);
            } else if (width == 32) {
                float f = (float)i;
                uint32_t b;
                memcpy(&b, &f, sizeof b);
                *bits = b;
            } else {
                double d = (double)i;
                memcpy(bits, &d, sizeof d);
            }
            return true;
        }
        bool fits;
        if (width >= 64)
            fits = cls != 'u' || i >= 0;
        else if (cls == 's')
            fits = i >= -(1ll << (width - 1)) && i < (1ll << (width - 1));
        else if (cls == 'u')
            fits = i >= 0 && (uint64_t)i <= width_mask(width);
        else                               /* .b: either reading */
            fits = i >= -(1ll << (width - 1)) && (i < 0 || (uint64_t)i <= width_mask(width));
        if (!fits) {
            snprintf(err, errlen, "%" JSON_INTEGER_FORMAT " does not fit in .%s", i, type_info[type].name);
            return false;
        }
        *bits = (uint64_t)i & width_mask(width);
        return true;
    }
    if (width == 16 && cls == 'f' && (json_is_real(v) || json_is_integer(v))) {
        *bits = convert_double_to_small(json_number_value(v), type);
        return true;
    }
    if (json_is_real(v)) {
        if (cls != 'f') {
            snprintf(err, errlen, "%g is a real, but the register is .%s", json_real_value(v), type_info[type].name);
            return false;
        }
        double d = json_real_value(v);
        if (width == 32) {
            float f = (float)d;               /* rounded to nearest */
            uint32_t b;
            memcpy(&b, &f, sizeof b);
            *bits = b;
        } else {
            memcpy(bits, &d, sizeof d);
        }
        return true;
    }
    snprintf(err, errlen, "expected a number, a string or null");
    return false;
}

static bool pred_value(json_t *v, bool *value, bool *defined, char *err, size_t errlen)
{
    *defined = !json_is_null(v);
    *value = json_is_true(v);
    if (json_is_boolean(v) || json_is_null(v))
        return true;
    if (json_is_integer(v) && (json_integer_value(v) == 0 || json_integer_value(v) == 1)) {
        *value = json_integer_value(v) == 1;
        return true;
    }
    snprintf(err, errlen, "expected true, false or null");
    return false;
}

/* Reads value (an array of 32 or a single value) into lanes; calls back per lane. */
typedef bool LaneSetter(Warp *w, uint32_t slot, int type, int lane, json_t *v, char *err, size_t errlen);

static bool set_register_lane(Warp *w, uint32_t slot, int type, int lane, json_t *v, char *err, size_t errlen)
{
    uint64_t bits;
    bool defined;
    if (!value_bits(v, type, &bits, &defined, err, errlen))
        return false;
    w->val[slot][lane] = bits;
    uint32_t bit = 1u << lane;
    w->defined[slot] = defined ? w->defined[slot] | bit : w->defined[slot] & ~bit;
    return true;
}

static bool set_pred_lane(Warp *w, uint32_t slot, int type, int lane, json_t *v, char *err, size_t errlen)
{
    (void)type;
    bool value, defined;
    if (!pred_value(v, &value, &defined, err, errlen))
        return false;
    uint32_t bit = 1u << lane;
    w->pred[slot] = value ? w->pred[slot] | bit : w->pred[slot] & ~bit;
    w->pred_defined[slot] = defined ? w->pred_defined[slot] | bit : w->pred_defined[slot] & ~bit;
    return true;
}

/* How many values a register's array has: one per lane of a one-warp block (as many as its
 * threads also do), one per thread of a larger block. */
static bool array_size_ok(const Warp *w, size_t n)
{
    const Block *b = w->block;
    return n == b->threads || (b->warp_count == 1 && n == WARP_SIZE);
}

static const char *array_size_text(const Warp *w, char *buf, size_t size)
{
    const Block *b = w->block;
    if (b->warp_count == 1 && b->threads != WARP_SIZE)
        snprintf(buf, size, "%d values, one per lane, or %u, one per thread", WARP_SIZE, b->threads);
    else if (b->warp_count == 1)
        snprintf(buf, size, "%d values, one per lane", WARP_SIZE);
    else
        snprintf(buf, size, "%u values, one per thread of the block", b->threads);
    return buf;
}

/* The warp and lane of thread t of the block. */
static Warp *thread_warp(const Warp *w, uint32_t t, int *lane)
{
    *lane = (int)(t % WARP_SIZE);
    return w->block->warps[t / WARP_SIZE];
}

static bool set_lanes(Warp *w, const char *where, uint32_t slot, int type, json_t *v, LaneSetter *set,
                      char *err, size_t errlen)
{
    char msg[256];
    if (json_is_array(v)) {
        if (!array_size_ok(w, json_array_size(v))) {
            snprintf(err, errlen, "%s: an array needs %s (this one has %zu)", where,
                     array_size_text(w, msg, sizeof msg), json_array_size(v));
            return false;
        }
        for (uint32_t t = 0; t < json_array_size(v); t++) {
            int lane;
            Warp *x = thread_warp(w, t, &lane);
            if (!set(x, slot, type, lane, json_array_get(v, t), msg, sizeof msg)) {
                snprintf(err, errlen, "%s[%u]: %s", where, t, msg);
                return false;
            }
        }
        return true;
    }
    for (uint32_t t = 0; t < w->block->warp_count * WARP_SIZE; t++) {
        int lane;
        Warp *x = thread_warp(w, t, &lane);
        if (!set(x, slot, type, lane, v, msg, sizeof msg)) {
            snprintf(err, errlen, "%s: %s", where, msg);
            return false;
        }
    }
    return true;
}

static bool parse_mask(json_t *v, uint32_t *mask)
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

static json_t *load_json(const char *path, char *err, size_t errlen)
{
    json_error_t e;
    bool from_stdin = strcmp(path, "-") == 0;
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        if (f && !from_stdin)
            fclose(f);
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(EISDIR));
        if (!from_stdin)
            fclose(f);
        return NULL;
    }
    json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &e);
    bool read_error = ferror(f);
    int read_errno = errno;
    if (!from_stdin)
        fclose(f);
    if (!root && read_error) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(read_errno));
        return NULL;
    }
    if (!root) {
        if (e.line > 0)
            snprintf(err, errlen, "%s:%d:%d: %s", path, e.line, e.column, e.text);
        else
            snprintf(err, errlen, "%s: %s", path, e.text);
        return NULL;
    }
    if (!json_is_object(root)) {
        snprintf(err, errlen, "%s: expected a JSON object {\"regs\": ..., \"preds\": ...}", path);
        json_decref(root);
        return NULL;
    }
    return root;
}

/* Looks up name for the "regs"/"preds" section; says what is wrong in err. */
static bool lookup(const Warp *w, const char *path, const char *section, const char *name, bool want_pred,
                   uint32_t *slot, int *type, char *err, size_t errlen)
{
    bool is_pred;
    const Register *r = find_register(w, name, &is_pred, slot);
    if (!r) {
        snprintf(err, errlen, "%s: %s.%s: the program has no register '%s'", path, section, name, name);
        return false;
    }
    if (is_pred != want_pred) {
        snprintf(err, errlen, "%s: %s.%s: '%s' is a %s; put it under \"%s\"", path, section, name, name,
                 is_pred ? "predicate" : "value register", is_pred ? "preds" : "regs");
        return false;
    }
    *type = r->type;
    return true;
}

/* "buffers": {"in": {"type": "f32", "data": [...]}, "out": {"type": "u32", "count": 32}} */
static bool load_buffers(Warp *w, const char *path, json_t *v, char *err, size_t errlen)
{
    if (!json_is_object(v)) {
        snprintf(err, errlen, "%s: buffers: expected an object of named buffers", path);
        return false;
    }
    enum { MAX_BUFFER_BYTES = 256 << 20, MAX_ALL_BUFFER_BYTES = 1 << 30 };
    uint64_t total = 0;
    const char *name;
    json_t *b;
    /* Pass 0 checks every buffer and their total; pass 1 allocates and fills them. */
    for (int pass = 0; pass < 2; pass++)
    json_object_foreach(v, name, b) {
        json_t *type_v = json_object_get(b, "type"), *data = json_object_get(b, "data");
        json_t *count_v = json_object_get(b, "count");
        int type = json_is_string(type_v) ? type_lookup(json_string_value(type_v), strlen(json_string_value(type_v)))
                                          : TYPE_COUNT;
        if (!json_is_object(b) || type == TYPE_COUNT || type == TYPE_PRED || type_info[type].bits % 8 ||
            type_info[type].bits > 64 || (type_info[type].cls == 'f' && type_info[type].bits < 32)) {
            snprintf(err, errlen, "%s: buffers.%s: expected {\"type\": \"u32\" (u8..u64, s8..s64, b8..b64, f32, f64), "
                     "\"data\": [...] or \"count\": N}", path, name);
            return false;
        }
        if ((data != NULL) == (count_v != NULL) || (data && !json_is_array(data)) ||
            (count_v && (!json_is_integer(count_v) || json_integer_value(count_v) < 1 ||
                         json_integer_value(count_v) > (1 << 26)))) {
            snprintf(err, errlen, "%s: buffers.%s: give either \"data\": [values] or \"count\": N (1 to 2^26)", path, name);
            return false;
        }
        if (mem_named(w->mem, name, SPACE_GLOBAL) || mem_named(w->mem, name, SPACE_CONST)) {
            snprintf(err, errlen, "%s: buffers.%s: the program already has a %s named '%s'", path, name,
                     mem_named(w->mem, name, SPACE_GLOBAL) ? "global" : ".const variable", name);
            return false;
        }
        uint64_t count = data ? json_array_size(data) : (uint64_t)json_integer_value(count_v);
        unsigned size = type_info[type].bits / 8;
        if (count * size > MAX_BUFFER_BYTES) {
            snprintf(err, errlen, "%s: buffers.%s: %llu bytes is more than the %d MiB a buffer may have", path, name,
                     (unsigned long long)(count * size), MAX_BUFFER_BYTES >> 20);
            return false;
        }
        total += pass == 0 ? count * size : 0;
        if (total > MAX_ALL_BUFFER_BYTES) {
            snprintf(err, errlen, "%s: buffers.%s: with it, the buffers need more than the %d MiB they may have together",
                     path, name, MAX_ALL_BUFFER_BYTES >> 20);
            return false;
        }
        if (pass == 0)
            continue;
        const char *interned = intern(&w->m->names, name, strlen(name));
        uint32_t index = mem_add(w->mem, interned, SPACE_GLOBAL, count * size, 256, type, false, true);
        Region *r = &w->mem->regions[index];
        r->is_buffer = true;
        for (size_t i = 0; data && i < count; i++) {
            uint64_t bits;
            bool defined;
            char msg[200];
            if (!value_bits(json_array_get(data, i), type, &bits, &defined, msg, sizeof msg)) {
                snprintf(err, errlen, "%s: buffers.%s.data[%zu]: %s", path, name, i, msg);
                return false;
            }
            for (unsigned k = 0; k < size; k++) {
                r->data[i * size + k] = (uint8_t)(bits >> (8 * k));
                r->shadow[i * size + k] = defined;
            }
        }
    }
    return true;
}

/* A value given for a parameter or a field of one: "@buffer" is that buffer's address (a
 * 64-bit type only), anything else a value of the type. nvcc declares C int parameters .u32,
 * so a negative number is accepted for .u types too, as its two's complement. */
static bool param_value(Warp *w, const char *where, int type, json_t *v, uint64_t *bits, bool *defined, char *err,
                        size_t errlen)
{
    char msg[200];
    *defined = true;
    if (json_is_string(v) && json_string_value(v)[0] == '@') {
        const char *name = json_string_value(v) + 1;
        Region *b = mem_named(w->mem, name, SPACE_GLOBAL);
        if (!b || !b->is_buffer) {
            snprintf(err, errlen, "%s: no buffer named '%s' in \"buffers\"", where, name);
            return false;
        }
        if (type_info[type].bits != 64) {
            snprintf(err, errlen, "%s: a buffer address needs a 64-bit parameter, not .%s", where,
                     type_info[type].name);
            return false;
        }
        *bits = mem_generic(SPACE_GLOBAL, b->base);
        return true;
    }
    int as = type;
    if (type_info[type].cls == 'u' && json_is_integer(v) && json_integer_value(v) < 0)
        for (int t = 0; t < TYPE_COUNT; t++)
            if (type_info[t].cls == 'b' && type_info[t].bits == type_info[type].bits)
                as = t;
    if (!value_bits(v, as, bits, defined, msg, sizeof msg)) {
        snprintf(err, errlen, "%s: %s", where, msg);
        return false;
    }
    return true;
}

static void put_bytes(uint8_t *data, uint8_t *shadow, uint64_t bits, unsigned size, bool defined)
{
    for (unsigned k = 0; k < size; k++) {
        data[k] = (uint8_t)(bits >> (8 * k));
        shadow[k] = defined;
    }
}

/* A parameter that is an array or a struct (.param .align 8 .b8 s[16]), or any parameter given
 * by its bytes: {"bytes": [0..255 or null, ...]} from its start, or {"fields": [["u32", 7], ["f32", 1.5], ["u64", "@buf"], ...]}
 * laid out as a C struct is (each field at its natural alignment). Bytes not given stay
 * undefined. */
static bool set_aggregate_param(Warp *w, const char *where, uint8_t *data, uint8_t *shadow, uint32_t size, json_t *v,
                                char *err, size_t errlen)
{
    json_t *bytes = json_object_get(v, "bytes"), *fields = json_object_get(v, "fields");
    if (!json_is_object(v) || (bytes != NULL) == (fields != NULL) || json_object_size(v) != 1 ||
        (bytes && !json_is_array(bytes)) || (fields && !json_is_array(fields))) {
        snprintf(err, errlen, "%s: a parameter of %u bytes takes {\"bytes\": [0..255, ...]} or "
                 "{\"fields\": [[\"u32\", 7], [\"f32\", 1.5], ...]}", where, size);
        return false;
    }
    if (bytes) {
        if (json_array_size(bytes) > size) {
            snprintf(err, errlen, "%s: %zu bytes given; the parameter has %u", where, json_array_size(bytes), size);
            return false;
        }
        for (size_t i = 0; i < json_array_size(bytes); i++) {
            json_t *b = json_array_get(bytes, i);
            if (json_is_null(b))
                continue;
            if (!json_is_integer(b) || json_integer_value(b) < 0 || json_integer_value(b) > 255) {
                snprintf(err, errlen, "%s: bytes[%zu]: expected 0 to 255 (or null: undefined)", where, i);
                return false;
            }
            put_bytes(data + i, shadow + i, (uint64_t)json_integer_value(b), 1, true);
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
            snprintf(err, errlen, "%s: fields[%zu]: expected [\"TYPE\", value] with TYPE one of u8..u64, s8..s64, "
                     "b8..b64, f16, bf16, f32, f64", where, i);
            return false;
        }
        unsigned n = type_info[type].bits / 8;
        at = (at + n - 1) / n * n;
        if (at + n > size) {
            snprintf(err, errlen, "%s: fields[%zu] ends at byte %u; the parameter has %u", where, i, at + n, size);
            return false;
        }
        char here[340];
        snprintf(here, sizeof here, "%.300s: fields[%zu]", where, i);
        uint64_t bits;
        bool defined;
        if (!param_value(w, here, type, json_array_get(f, 1), &bits, &defined, err, errlen))
            return false;
        put_bytes(data + at, shadow + at, bits, n, defined);
        at += n;
    }
    return true;
}

/* One kernel parameter, i of the kernel's, in the parameter buffer. */
static bool set_param(Warp *w, const char *path, uint32_t i, json_t *v, char *err, size_t errlen)
{
    const Decl *d = &w->fn->params.data[i];
    uint8_t *shadow;
    uint32_t size;
    uint8_t *data = exec_param_bytes(w, i, &shadow, &size);
    char where[300];
    snprintf(where, sizeof where, "%s: params.%s", path, d->name);
    if (json_is_object(v) || d->dim_count || d->type == TYPE_NONE || d->vector || type_info[d->type].bits > 64)
        return set_aggregate_param(w, where, data, shadow, size, v, err, errlen);
    uint64_t bits;
    bool defined;
    if (!param_value(w, where, d->type, v, &bits, &defined, err, errlen))
        return false;
    uint32_t n = (uint32_t)(type_info[d->type].bits + 7) / 8;
    put_bytes(data, shadow, bits, n < size ? n : size, defined);
    return true;
}

/* "params": [v0, v1, ...] by position, or {"name": v} by name. */
static bool load_params(Warp *w, const char *path, json_t *v, char *err, size_t errlen)
{
    const Function *f = w->fn;
    if (json_is_array(v)) {
        if (json_array_size(v) != f->params.len) {
            snprintf(err, errlen, "%s: params: '%s' takes %u parameters, the array has %zu", path, f->name,
                     f->params.len, json_array_size(v));
            return false;
        }
        for (uint32_t i = 0; i < f->params.len; i++)
            if (!set_param(w, path, i, json_array_get(v, i), err, errlen))
                return false;
        return true;
    }
    if (!json_is_object(v)) {
        snprintf(err, errlen, "%s: params: expected [values in order] or {\"name\": value}", path);
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
            snprintf(err, errlen, "%s: params.%s: '%s' has no parameter of that name", path, name, f->name);
            return false;
        }
        if (!set_param(w, path, (uint32_t)(d - f->params.data), value, err, errlen))
            return false;
    }
    return true;
}

static bool load_dynamic_shared(Warp *w, const char *path, json_t *v, char *err, size_t errlen)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > (1 << 20)) {
        snprintf(err, errlen, "%s: dynamic_shared: expected a number of bytes (0 to 1 MiB)", path);
        return false;
    }
    exec_set_dynamic_shared(w, (uint32_t)json_integer_value(v));
    return true;
}

/* "block": [x, y, z] or "grid": [x, y, z], one to three numbers; false (err set) if not. */
static bool parse_dims(const char *path, const char *key, json_t *v, uint32_t dims[3], uint32_t most, char *err,
                       size_t errlen)
{
    size_t n = json_array_size(v);
    if (!json_is_array(v) || n < 1 || n > 3) {
        snprintf(err, errlen, "%s: %s: expected [x, y, z] (one to three numbers)", path, key);
        return false;
    }
    dims[0] = dims[1] = dims[2] = 1;
    for (size_t i = 0; i < n; i++) {
        json_t *d = json_array_get(v, i);
        if (!json_is_integer(d) || json_integer_value(d) < 1 || json_integer_value(d) > most) {
            snprintf(err, errlen, "%s: %s[%zu]: expected a number from 1 to %u", path, key, i, most);
            return false;
        }
        dims[i] = (uint32_t)json_integer_value(d);
    }
    return true;
}

int lanes_load(Warp *w, const char *path, char *err, size_t errlen)
{
    json_t *root = load_json(path, err, errlen);
    if (!root)
        return -1;
    int rc = -1;
    uint32_t ntid[3] = { WARP_SIZE, 1, 1 }, nctaid[3] = { 1, 1, 1 }, active = ALL_LANES;
    const char *key;
    json_t *v;
    char where[256];
    /* The shape first (it makes the warps), then buffers before parameters, which may name them. */
    json_t *block = json_object_get(root, "block"), *grid = json_object_get(root, "grid");
    json_t *mask = json_object_get(root, "active");
    if (block && !parse_dims(path, "block", block, ntid, MAX_BLOCK_THREADS, err, errlen))
        goto out;
    if ((uint64_t)ntid[0] * ntid[1] * ntid[2] > MAX_BLOCK_THREADS) {
        snprintf(err, errlen, "%s: block: %u x %u x %u is %llu threads; a block has at most %d", path, ntid[0], ntid[1],
                 ntid[2], (unsigned long long)ntid[0] * ntid[1] * ntid[2], MAX_BLOCK_THREADS);
        goto out;
    }
    if (grid && !parse_dims(path, "grid", grid, nctaid, 65535, err, errlen))
        goto out;
    if ((uint64_t)nctaid[0] * nctaid[1] * nctaid[2] > MAX_GRID_CTAS) {
        snprintf(err, errlen, "%s: grid: %u x %u x %u is %llu CTAs; ptxrun runs at most %d", path, nctaid[0],
                 nctaid[1], nctaid[2], (unsigned long long)nctaid[0] * nctaid[1] * nctaid[2], MAX_GRID_CTAS);
        goto out;
    }
    if (mask && !parse_mask(mask, &active)) {
        snprintf(err, errlen, "%s: active: expected a lane mask such as \"0xffffffff\"", path);
        goto out;
    }
    if (mask && ntid[0] * ntid[1] * ntid[2] > WARP_SIZE) {
        snprintf(err, errlen, "%s: active: a lane mask applies to a block of one warp; this one has %u threads",
                 path, ntid[0] * ntid[1] * ntid[2]);
        goto out;
    }
    char why[256];
    if (!exec_block_fits(w, ntid, why, sizeof why)) {
        snprintf(err, errlen, "%s: block: %s", path, why);
        goto out;
    }
    exec_set_block(w, ntid, active);
    exec_set_grid(w, nctaid);
    json_t *buffers = json_object_get(root, "buffers"), *params = json_object_get(root, "params");
    json_t *dynamic = json_object_get(root, "dynamic_shared");
    if ((buffers && !load_buffers(w, path, buffers, err, errlen)) ||
        (params && !load_params(w, path, params, err, errlen)) ||
        (dynamic && !load_dynamic_shared(w, path, dynamic, err, errlen)))
        goto out;
    json_object_foreach(root, key, v) {
        if (!strcmp(key, "regs") || !strcmp(key, "preds")) {
            bool preds = key[0] == 'p';
            if (!json_is_object(v)) {
                snprintf(err, errlen, "%s: %s: expected an object of register names", path, key);
                goto out;
            }
            const char *name;
            json_t *value;
            json_object_foreach(v, name, value) {
                uint32_t slot;
                int type;
                if (!lookup(w, path, key, name, preds, &slot, &type, err, errlen))
                    goto out;
                snprintf(where, sizeof where, "%s: %s.%s", path, key, name);
                if (!set_lanes(w, where, slot, type, value, preds ? set_pred_lane : set_register_lane, err, errlen))
                    goto out;
            }
        } else if (strcmp(key, "buffers") && strcmp(key, "params") && strcmp(key, "dynamic_shared") &&
                   strcmp(key, "block") && strcmp(key, "grid") && strcmp(key, "active") && strcmp(key, "exited") &&
                   strcmp(key, "steps") && strcmp(key, "warnings") && strcmp(key, "cta")) {
            snprintf(err, errlen, "%s: unknown key \"%s\" (expected block, grid, active, regs, preds, buffers, "
                     "params, dynamic_shared)", path, key);
            goto out;
        }
    }
    rc = 0;
out:
    json_decref(root);
    return rc;
}

/* ---- printing values ---- */

/* The shortest decimal that reads back to the same float or double. */
static void format_float(char *buf, size_t size, uint64_t bits, unsigned width, int type)
{
    if (!buf || size == 0)
        return;                                /* (tells GCC's -Wformat-truncation so) */
    if (width == 16) {
        double h = convert_small_to_double(bits, type);
        for (int p = 1; p <= 17; p++) {          /* shortest that reads back to the same half */
            snprintf(buf, size, "%.*g", p, h);
            if (convert_double_to_small(strtod(buf, NULL), type) == (bits & 0xffff))
                break;
        }
        if (!strpbrk(buf, ".eEni"))
            strncat(buf, ".0", size - strlen(buf) - 1);
        return;
    }
    if (width == 32) {
        float f;
        uint32_t b = (uint32_t)bits;
        memcpy(&f, &b, sizeof f);
        for (int p = 1; p <= 9; p++) {
            snprintf(buf, size, "%.*g", p, (double)f);
            if (strtof(buf, NULL) == f)
                break;
        }
    } else {
        double d;
        memcpy(&d, &bits, sizeof d);
        for (int p = 1; p <= 17; p++) {
            snprintf(buf, size, "%.*g", p, d);
            if (strtod(buf, NULL) == d)
                break;
        }
    }
    /* 1e+01 -> 10: no exponent for numbers a person reads as integers; and an integral
     * value prints exactly (-2147483648, not the shorter -2147483600 that reads back the same). */
    double v = strtod(buf, NULL);
    double exact;
    if (width == 32) {
        float f;
        uint32_t b = (uint32_t)bits;
        memcpy(&f, &b, sizeof f);
        exact = f;
    } else {
        memcpy(&exact, &bits, sizeof exact);
    }
    if (exact == floor(exact) && fabs(exact) < 1e16 && fabs(exact) >= 1) {
        snprintf(buf, size, "%.0f.0", exact);
        return;
    }
    if (strpbrk(buf, "eE") && fabs(v) >= 1 && fabs(v) < 1e16) {
        char plain[64];
        snprintf(plain, sizeof plain, "%.*g", (int)floor(log10(fabs(v))) + 1, v);
        if (strtod(plain, NULL) == v)
            snprintf(buf, size, "%s", plain);
    }
    /* "1" reads back as an integer in JSON: make floats look like floats. */
    if (!strpbrk(buf, ".eEni"))
        strncat(buf, ".0", size - strlen(buf) - 1);
}

static bool is_nonfinite(uint64_t bits, unsigned width, int type, const char **name, bool *canonical)
{
    double d;
    if (width == 16) {
        d = convert_small_to_double(bits, type);
        *canonical = (bits & 0xffff) == 0x7fff;
    } else if (width == 32) {
        float f;
        uint32_t b = (uint32_t)bits;
        memcpy(&f, &b, sizeof f);
        d = f;
        *canonical = b == 0x7fffffffu;
    } else {
        memcpy(&d, &bits, sizeof d);
        *canonical = bits == 0x7fffffffffffffffull;
    }
    if (isnan(d))
        *name = "nan";
    else if (isinf(d))
        *name = d < 0 ? "-inf" : "inf";
    else
        return false;
    return true;
}

/* A value as the table shows it. */
void lanes_format_value(char *buf, size_t size, uint64_t bits, int type)
{
    unsigned width = type_info[type].bits;
    switch (type_info[type].cls) {
    case 'u': snprintf(buf, size, "%" PRIu64, bits & width_mask(width)); break;
    case 's': {
        unsigned shift = 64 - width;
        snprintf(buf, size, "%" PRId64, (int64_t)(bits << shift) >> shift);
        break;
    }
    case 'f': {
        const char *name;
        bool canonical;
        if (is_nonfinite(bits, width, type, &name, &canonical))
            snprintf(buf, size, "%s", name);
        else
            format_float(buf, size, bits, width, type);
        break;
    }
    default: snprintf(buf, size, "0x%0*" PRIx64, (int)(width + 3) / 4, bits & width_mask(width)); break;
    }
}

/* A value as JSON: integers for u/s (u64 past 2^63 as a "0x" string), numbers for floats
 * ("nan", "inf", "-inf", or "0x" bits for a NaN with another payload), "0x" strings for b. */
void lanes_format_json_value(char *buf, size_t size, uint64_t bits, int type)
{
    unsigned width = type_info[type].bits;
    char cls = type_info[type].cls;
    const char *name;
    bool canonical;
    if (cls == 'u' && width == 64 && bits >= (1ull << 63))
        snprintf(buf, size, "\"0x%016" PRIx64 "\"", bits);
    else if (cls == 'f' && is_nonfinite(bits, width, type, &name, &canonical)) {
        if (name[0] != 'n' || canonical)
            snprintf(buf, size, "\"%s\"", name);
        else
            snprintf(buf, size, "\"0x%0*" PRIx64 "\"", (int)width / 4, bits & width_mask(width));
    } else if (cls == 'b')
        snprintf(buf, size, "\"0x%0*" PRIx64 "\"", (int)(width + 3) / 4, bits & width_mask(width));
    else
        lanes_format_value(buf, size, bits, type);
}

/* ---- buffers ---- */

static bool buffer_element(const Region *r, uint64_t i, uint64_t *bits)
{
    unsigned size = type_info[r->type].bits / 8;
    *bits = 0;
    bool defined = true;
    for (unsigned k = 0; k < size; k++) {
        *bits |= (uint64_t)r->data[i * size + k] << (8 * k);
        defined &= r->shadow[i * size + k] != 0;
    }
    return defined;
}

static uint64_t buffer_count(const Region *r)
{
    return r->size / (type_info[r->type].bits / 8);
}

/* Rows of eight values. As in hexdump, a run of rows equal to the one before is shown as one
 * "*" line, so that a large buffer that is mostly zero (or undef) stays readable; the last row
 * is always shown. --json lists every value. */
static void print_buffers_table(FILE *out, const Warp *w)
{
    enum { PER_ROW = 8, CELL = 66 };   /* ' ' and up to 64 characters (lanes_format_value's buffer) */
    char row[PER_ROW * CELL + 1], previous[PER_ROW * CELL + 1];
    for (uint32_t b = 0; b < w->mem->count; b++) {
        const Region *r = &w->mem->regions[b];
        if (!r->is_buffer)
            continue;
        uint64_t n = buffer_count(r);
        fprintf(out, "\nbuffer %s: .%s[%llu]\n", r->name, type_info[r->type].name, (unsigned long long)n);
        bool starred = false;
        previous[0] = '\0';
        size_t element = type_info[r->type].bits / 8, row_bytes = PER_ROW * element;
        for (uint64_t i = 0; i < n; i += PER_ROW) {
            bool last = i + PER_ROW >= n;
            size_t at = (size_t)i * element;
            if (!last && i > 0 && memcmp(r->data + at, r->data + at - row_bytes, row_bytes) == 0 &&
                memcmp(r->shadow + at, r->shadow + at - row_bytes, row_bytes) == 0) {
                if (!starred)                  /* the same bytes as the row before: no need to format */
                    fputs("*\n", out);
                starred = true;
                continue;
            }
            size_t len = 0;
            row[0] = '\0';
            for (uint64_t k = i; k < i + PER_ROW && k < n; k++) {
                uint64_t bits;
                char buf[64];
                if (buffer_element(r, k, &bits))
                    lanes_format_value(buf, sizeof buf, bits, r->type);
                else
                    snprintf(buf, sizeof buf, "undef");
                int wrote = snprintf(row + len, sizeof row - len, " %11s", buf);
                len = wrote < 0 || (size_t)wrote >= sizeof row - len ? sizeof row - 1 : len + (size_t)wrote;
            }
            if (!last && i > 0 && strcmp(row, previous) == 0) {
                if (!starred)
                    fputs("*\n", out);
                starred = true;
                continue;
            }
            starred = false;
            fprintf(out, "%6llu:%s\n", (unsigned long long)i, row);
            memcpy(previous, row, len + 1);
        }
    }
}

static void print_buffers_json(FILE *out, const Warp *w)
{
    bool first = true;
    fputs(",\n  \"buffers\": {", out);
    for (uint32_t b = 0; b < w->mem->count; b++) {
        const Region *r = &w->mem->regions[b];
        if (!r->is_buffer)
            continue;
        fprintf(out, "%s\n    \"%s\": {\"type\": \"%s\", \"data\": [", first ? "" : ",", r->name,
                type_info[r->type].name);
        first = false;
        for (uint64_t i = 0; i < buffer_count(r); i++) {
            uint64_t bits;
            char buf[64];
            if (buffer_element(r, i, &bits))
                lanes_format_json_value(buf, sizeof buf, bits, r->type);
            else
                snprintf(buf, sizeof buf, "null");
            fprintf(out, "%s%s", i ? ", " : "", buf);
        }
        fputs("]}", out);
    }
    fputs(first ? "}" : "\n  }", out);
}

/* ---- the table ---- */

typedef struct Column {
    const char *name;
    bool is_pred;
    uint32_t slot;
    int type;
    unsigned width;
} Column;

static bool listed(const char *only, const char *name)
{
    if (!only)
        return true;
    size_t n = strlen(name);
    for (const char *p = only; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, name, n) == 0)
            return true;
        p += len + (p[len] == ',');
    }
    return false;
}

/* The registers the program names (range registers it never mentions are left out). */
static uint32_t collect_columns(const Warp *w, const char *only, Column *cols, uint32_t max)
{
    const Function *f = w->fn;
    bool *used = xcalloc(f->regs.len + f->preds.len + 1, sizeof *used);
    for (uint32_t i = 0; i < w->kernel_code_len; i++) {
        const XInstr *x = &w->code[i];
        if (x->dst_kind == DST_VALUE) used[x->dst] = true;
        if (x->dst_kind == DST_PRED) used[f->regs.len + x->dst] = true;
        if (x->dst_pred != NO_SLOT) used[f->regs.len + x->dst_pred] = true;
        if (x->guard) used[f->regs.len + x->guard_pred] = true;
        for (unsigned v = 0; v < x->vec_count && v < 4; v++)
            if (x->vec[v] < w->reg_count)
                used[x->vec[v]] = true;
        for (unsigned s = 0; s < x->src_count; s++) {
            if (x->src_pred >> s & 1) {
                if (x->src[s] < f->preds.len)
                    used[f->regs.len + x->src[s]] = true;
            } else if (x->src[s] < w->reg_count) {
                used[x->src[s]] = true;
            }
        }
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < f->regs.len + f->preds.len && n < max; i++) {
        bool pred = i >= f->regs.len;
        const Register *r = pred ? &f->preds.data[i - f->regs.len] : &f->regs.data[i];
        if ((!used[i] && !only) || !listed(only, r->name))
            continue;
        cols[n++] = (Column){ r->name, pred, pred ? i - (uint32_t)f->regs.len : i, pred ? TYPE_PRED : r->type, 0 };
    }
    free(used);
    return n;
}

static void cell(const Warp *w, const Column *c, int lane, char *buf, size_t size)
{
    if (c->is_pred) {
        if (!(w->pred_defined[c->slot] >> lane & 1))
            snprintf(buf, size, "undef");
        else
            snprintf(buf, size, "%s", (w->pred[c->slot] >> lane & 1) ? "true" : "false");
    } else if (!(w->defined[c->slot] >> lane & 1)) {
        snprintf(buf, size, "undef");
    } else {
        lanes_format_value(buf, size, w->val[c->slot][lane], c->type);
    }
}

/* Rows of the table: a one-warp block's lanes (up to its thread count), or every thread. */
static uint32_t row_count(const Warp *w)
{
    const Block *b = w->block;
    return b->threads < WARP_SIZE || b->warp_count > 1 ? b->threads : WARP_SIZE;
}

/* "0,2-3" (numbers and ranges below limit) into marks; false with err if malformed. */
static bool parse_selection(const char *text, const char *option, uint32_t limit, const char *what, bool *marks,
                            char *err, size_t errlen)
{
    const char *p = text;
    for (;;) {
        char *end;
        if (*p < '0' || *p > '9')
            goto bad;
        unsigned long first = strtoul(p, &end, 10), last = first;
        p = end;
        if (*p == '-') {
            if (p[1] < '0' || p[1] > '9')
                goto bad;
            last = strtoul(p + 1, &end, 10);
            p = end;
        }
        if (last < first)
            goto bad;
        if (last >= limit) {
            snprintf(err, errlen, "%s: %s %lu does not exist (the block has %u %s%s)", option, what, last, limit, what,
                     limit == 1 ? "" : "s");
            return false;
        }
        for (unsigned long i = first; i <= last; i++)
            marks[i] = true;
        if (!*p)
            return true;
        if (*p++ != ',')
            goto bad;
    }
bad:
    snprintf(err, errlen, "%s: expected numbers and ranges such as 0,2-3, not '%s'", option, text);
    return false;
}

bool lanes_select(const Warp *w, const char *warps, const char *threads, bool *shown, char *err, size_t errlen)
{
    const Block *b = w->block;
    bool by_warp[MAX_WARPS] = { false }, by_thread[MAX_BLOCK_THREADS] = { false };
    if (warps && !parse_selection(warps, "--warps", b->warp_count, "warp", by_warp, err, errlen))
        return false;
    if (threads && !parse_selection(threads, "--threads", b->threads, "thread", by_thread, err, errlen))
        return false;
    for (uint32_t t = 0; t < MAX_BLOCK_THREADS; t++)
        shown[t] = (!warps && !threads) || by_thread[t] || (t / WARP_SIZE < MAX_WARPS && by_warp[t / WARP_SIZE]);
    return true;
}

void lanes_print_table(FILE *out, const Warp *w, const char *only, const bool *shown)
{
    const Block *b = w->block;
    Column cols[512];
    uint32_t n = collect_columns(w, only, cols, COUNT_OF(cols));
    uint32_t rows = row_count(w);
    bool many = b->warp_count > 1;
    char buf[64];
    for (uint32_t i = 0; i < n; i++) {
        unsigned width = (unsigned)strlen(cols[i].name);
        for (uint32_t t = 0; t < rows; t++) {
            int lane;
            const Warp *x = thread_warp(w, t, &lane);
            cell(x, &cols[i], lane, buf, sizeof buf);
            if (strlen(buf) > width)
                width = (unsigned)strlen(buf);
        }
        cols[i].width = width;
    }
    const unsigned lane_width = many ? 8 : 6;     /* "lane  " / "31*   ", "thread  " */
    uint32_t start = 0;
    if (n == 0)
        fputs("(no registers)\n", out);
    else do {
        uint32_t end = start;
        unsigned used = lane_width;
        while (end < n && (end == start || used + 2 + cols[end].width <= TABLE_WIDTH))
            used += 2 + cols[end++].width;
        if (start > 0)
            fputc('\n', out);
        fprintf(out, "%-*s", lane_width, many ? "thread" : "lane");
        for (uint32_t i = start; i < end; i++)
            fprintf(out, "  %*s", cols[i].width, cols[i].name);
        fputc('\n', out);
        uint32_t heading = NO_SLOT;
        for (uint32_t t = 0; t < rows; t++) {
            if (shown && !shown[t])
                continue;
            int lane;
            const Warp *x = thread_warp(w, t, &lane);
            if (many && heading != x->index) {
                heading = x->index;
                uint32_t last = x->thread_base + WARP_SIZE - 1 < b->threads ? x->thread_base + WARP_SIZE - 1
                                                                           : b->threads - 1;
                fprintf(out, "-- warp %u: threads %u-%u\n", x->index, x->thread_base, last);
            }
            char label[16];
            snprintf(label, sizeof label, "%u%s", t, (x->launched >> lane & 1) ? "" : "-");
            fprintf(out, "%-*s", lane_width, label);
            for (uint32_t i = start; i < end; i++) {
                cell(x, &cols[i], lane, buf, sizeof buf);
                fprintf(out, "  %*s", cols[i].width, buf);
            }
            fputc('\n', out);
        }
        start = end;
    } while (start < n);
    if (!many && w->launched != (rows >= WARP_SIZE ? ALL_LANES : (1u << rows) - 1))
        fputs("(lanes marked - were not active)\n", out);
    if (b->nctaid[0] * b->nctaid[1] * b->nctaid[2] > 1)
        fprintf(out, "(registers of CTA (%u, %u, %u), the last of the grid's %u CTAs to run)\n", b->ctaid[0],
                b->ctaid[1], b->ctaid[2], b->nctaid[0] * b->nctaid[1] * b->nctaid[2]);
    print_buffers_table(out, w);
    fprintf(out, "%llu warp-steps\n", (unsigned long long)b->steps);
}

/* ---- JSON ---- */

void lanes_print_json(FILE *out, const Warp *w)
{
    const Block *b = w->block;
    Column cols[512];
    uint32_t n = collect_columns(w, NULL, cols, COUNT_OF(cols));
    uint32_t values = b->warp_count > 1 ? b->threads : WARP_SIZE;
    char buf[64];
    fprintf(out, "{\n  \"block\": [%u, %u, %u],\n", b->ntid[0], b->ntid[1], b->ntid[2]);
    if (b->nctaid[0] * b->nctaid[1] * b->nctaid[2] > 1)
        fprintf(out, "  \"grid\": [%u, %u, %u],\n  \"cta\": [%u, %u, %u],\n", b->nctaid[0], b->nctaid[1], b->nctaid[2],
                b->ctaid[0], b->ctaid[1], b->ctaid[2]);
    if (b->warp_count == 1)
        fprintf(out, "  \"active\": \"0x%08x\",\n", w->launched);
    fputs("  \"regs\": {", out);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            fputs("\n  },\n  \"preds\": {", out);
        bool first = true;
        for (uint32_t i = 0; i < n; i++) {
            const Column *c = &cols[i];
            if (c->is_pred != (pass == 1))
                continue;
            fprintf(out, "%s\n    \"%s\": [", first ? "" : ",", c->name);
            first = false;
            for (uint32_t t = 0; t < values; t++) {
                int l;
                const Warp *x = thread_warp(w, t, &l);
                if (c->is_pred)
                    snprintf(buf, sizeof buf, "%s", !(x->pred_defined[c->slot] >> l & 1) ? "null"
                             : (x->pred[c->slot] >> l & 1) ? "true" : "false");
                else if (!(x->defined[c->slot] >> l & 1))
                    snprintf(buf, sizeof buf, "null");
                else
                    lanes_format_json_value(buf, sizeof buf, x->val[c->slot][l], c->type);
                fprintf(out, "%s%s", t ? ", " : "", buf);
            }
            fputc(']', out);
        }
    }
    fputs("\n  }", out);
    print_buffers_json(out, w);
    if (b->warp_count == 1) {
        fprintf(out, ",\n  \"exited\": \"0x%08x\"", w->exited);
    } else {
        fputs(",\n  \"exited\": [", out);
        for (uint32_t i = 0; i < b->warp_count; i++)
            fprintf(out, "%s\"0x%08x\"", i ? ", " : "", b->warps[i]->exited);
        fputc(']', out);
    }
    fprintf(out, ",\n  \"steps\": %llu,\n  \"warnings\": [", (unsigned long long)b->steps);
    bool any = false;
    for (uint32_t k = 0; k < b->warp_count; k++) {
        const Warp *x = b->warps[k];
        for (uint32_t i = 0; i < x->warnings.len; i++) {
            const Warning *y = &x->warnings.data[i];
            fprintf(out, "%s\n    {\"line\": %u, \"what\": \"%s\", ", any ? "," : "", x->code[y->pc].line, y->what);
            if (b->warp_count > 1)
                fprintf(out, "\"warp\": %u, ", k);
            fprintf(out, "\"lanes\": \"0x%08x\"}", y->lanes);
            any = true;
        }
    }
    fputs(any ? "\n  ]\n}\n" : "]\n}\n", out);
}

/* ---- --expect ---- */

/* A value in a difference: floats with their bits, since two floats can print alike. */
static void describe(char *buf, size_t size, bool defined, uint64_t bits, int type)
{
    if (!defined) {
        snprintf(buf, size, "undef");
    } else if (type == TYPE_PRED) {
        snprintf(buf, size, "%s", bits ? "true" : "false");
    } else {
        lanes_format_value(buf, size, bits, type);
        if (type_info[type].cls == 'f') {
            size_t n = strlen(buf);
            snprintf(buf + n, size - n, " (0x%0*llx)", (int)type_info[type].bits / 4,
                     (unsigned long long)(bits & width_mask(type_info[type].bits)));
        }
    }
}

/* A float's place on the line of representable values (sign and magnitude made linear). */
static int64_t float_order(uint64_t bits, unsigned width)
{
    uint64_t sign = (uint64_t)1 << (width - 1), magnitude = bits & (sign - 1);
    return bits & sign ? -(int64_t)magnitude : (int64_t)magnitude;
}

static bool float_nan(uint64_t bits, unsigned width)
{
    return width == 32 ? (bits & 0x7fffffffu) > 0x7f800000u : (bits & ~(1ull << 63)) > 0x7ff0000000000000ull;
}

/* Within the tolerance although not equal: 32- and 64-bit values read as floats. */
static bool tolerated(const Tolerance *tol, uint64_t want, uint64_t got, unsigned width)
{
    if (!tol || (width != 32 && width != 64))
        return false;
    want &= width_mask(width);
    got &= width_mask(width);
    if (float_nan(want, width) || float_nan(got, width))
        return tol->any_nan && float_nan(want, width) && float_nan(got, width);
    int64_t d = float_order(want, width) - float_order(got, width);
    if (tol->ulps && (d < 0 ? 0 - (uint64_t)d : (uint64_t)d) <= tol->ulps)
        return true;
    double a, b;
    if (width == 32) {
        float fa, fb;
        uint32_t wa = (uint32_t)want, wb = (uint32_t)got;
        memcpy(&fa, &wa, sizeof fa);
        memcpy(&fb, &wb, sizeof fb);
        a = fa;
        b = fb;
    } else {
        memcpy(&a, &want, sizeof a);
        memcpy(&b, &got, sizeof b);
    }
    return tol->abs_err > 0 && fabs(a - b) <= tol->abs_err;
}

/* Differences beyond the first MAX_SHOWN are counted, not printed. */
enum { MAX_SHOWN = 20 };

static void difference(FILE *out, int *count, const char *fmt, ...)
{
    if (++*count > MAX_SHOWN)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
}

/* "buffers": {"out": [values] | one value | {"data": [values]}}: element by element. */
static int expect_buffers(FILE *out, const Warp *w, const char *path, json_t *section, const Tolerance *tol,
                          int *mismatches, int *close, char *err, size_t errlen)
{
    const char *name;
    json_t *v;
    json_object_foreach(section, name, v) {
        const Region *r = NULL;
        for (uint32_t b = 0; b < w->mem->count && !r; b++)
            if (w->mem->regions[b].is_buffer && !strcmp(w->mem->regions[b].name, name))
                r = &w->mem->regions[b];
        if (!r) {
            snprintf(err, errlen, "%s: buffers.%s: no such buffer in the lanes file", path, name);
            return -1;
        }
        if (json_is_object(v))
            v = json_object_get(v, "data");
        uint64_t n = buffer_count(r);
        if (json_is_array(v) && json_array_size(v) != n) {
            snprintf(err, errlen, "%s: buffers.%s: %zu values for a buffer of %llu", path, name, json_array_size(v),
                     (unsigned long long)n);
            return -1;
        }
        for (uint64_t i = 0; i < n; i++) {
            json_t *e = json_is_array(v) ? json_array_get(v, i) : v;
            uint64_t want, got;
            bool want_defined, got_defined;
            char msg[200];
            if (!e || !value_bits(e, r->type, &want, &want_defined, msg, sizeof msg)) {
                snprintf(err, errlen, "%s: buffers.%s[%llu]: %s", path, name, (unsigned long long)i,
                         e ? msg : "missing");
                return -1;
            }
            got_defined = buffer_element(r, i, &got);
            if (want_defined == got_defined && (!want_defined || want == got))
                continue;
            if (want_defined && got_defined && tolerated(tol, want, got, type_info[r->type].bits)) {
                ++*close;
                continue;
            }
            char a[64], b[64];
            describe(a, sizeof a, want_defined, want, r->type);
            describe(b, sizeof b, got_defined, got, r->type);
            difference(out, mismatches, "%s[%llu]: expected %s, got %s\n", name, (unsigned long long)i, a, b);
        }
    }
    return 0;
}

int lanes_expect(FILE *out, const Warp *w, const char *path, const Tolerance *tol, char *err, size_t errlen)
{
    json_t *root = load_json(path, err, errlen);
    if (!root)
        return -1;
    int mismatches = 0, close = 0;
    const char *key;
    json_t *section;
    char msg[256];
    json_object_foreach(root, key, section) {
        if (!strcmp(key, "exited")) {
            /* One warp: a lane mask; several: an array of one mask per warp. */
            const Block *b = w->block;
            bool many = b->warp_count > 1;
            if (many && (!json_is_array(section) || json_array_size(section) != b->warp_count)) {
                snprintf(err, errlen, "%s: exited: expected an array of %u lane masks, one per warp", path,
                         b->warp_count);
                json_decref(root);
                return -1;
            }
            for (uint32_t i = 0; i < b->warp_count; i++) {
                uint32_t mask;
                if (!parse_mask(many ? json_array_get(section, i) : section, &mask)) {
                    snprintf(err, errlen, "%s: exited: expected a lane mask", path);
                    json_decref(root);
                    return -1;
                }
                if (mask != b->warps[i]->exited && many)
                    difference(out, &mismatches, "exited of warp %u: expected 0x%08x, got 0x%08x\n", i, mask,
                               b->warps[i]->exited);
                else if (mask != b->warps[i]->exited)
                    difference(out, &mismatches, "exited: expected 0x%08x, got 0x%08x\n", mask, w->exited);
            }
            continue;
        }
        if (!strcmp(key, "buffers")) {
            if (expect_buffers(out, w, path, section, tol, &mismatches, &close, err, errlen) < 0) {
                json_decref(root);
                return -1;
            }
            continue;
        }
        if (strcmp(key, "regs") && strcmp(key, "preds"))
            continue;                   /* block, active, params, steps, warnings: not compared */
        bool preds = key[0] == 'p';
        const char *name;
        json_t *v;
        json_object_foreach(section, name, v) {
            uint32_t slot;
            int type;
            if (!lookup(w, path, key, name, preds, &slot, &type, err, errlen)) {
                json_decref(root);
                return -1;
            }
            if (json_is_array(v) && !array_size_ok(w, json_array_size(v))) {
                snprintf(err, errlen, "%s: %s.%s: an array needs %s", path, key, name,
                         array_size_text(w, msg, sizeof msg));
                json_decref(root);
                return -1;
            }
            uint32_t values = json_is_array(v) ? (uint32_t)json_array_size(v) : w->block->warp_count * WARP_SIZE;
            bool many = w->block->warp_count > 1;
            for (uint32_t t = 0; t < values; t++) {
                int l;
                const Warp *x = thread_warp(w, t, &l);
                json_t *e = json_is_array(v) ? json_array_get(v, t) : v;
                uint64_t want_bits, got_bits;
                bool want_defined, got_defined, ok;
                if (preds) {
                    bool b;
                    ok = pred_value(e, &b, &want_defined, msg, sizeof msg);
                    want_bits = b;
                    got_bits = x->pred[slot] >> l & 1;
                    got_defined = x->pred_defined[slot] >> l & 1;
                } else {
                    ok = value_bits(e, type, &want_bits, &want_defined, msg, sizeof msg);
                    got_bits = x->val[slot][l];
                    got_defined = x->defined[slot] >> l & 1;
                }
                if (!ok) {
                    snprintf(err, errlen, "%s: %s.%s[%u]: %s", path, key, name, t, msg);
                    json_decref(root);
                    return -1;
                }
                if (want_defined == got_defined && (!want_defined || want_bits == got_bits))
                    continue;
                if (!preds && want_defined && got_defined && tolerated(tol, want_bits, got_bits, type_info[type].bits)) {
                    close++;
                    continue;
                }
                char want[64], got[64];
                describe(want, sizeof want, want_defined, want_bits, preds ? TYPE_PRED : type);
                describe(got, sizeof got, got_defined, got_bits, preds ? TYPE_PRED : type);
                if (many)
                    difference(out, &mismatches, "%s thread %u (warp %u lane %d): expected %s, got %s\n", name, t,
                               x->index, l, want, got);
                else
                    difference(out, &mismatches, "%s lane %d: expected %s, got %s\n", name, l, want, got);
            }
        }
    }
    json_decref(root);
    if (close)
        fprintf(out, "note: %d value%s within the tolerance (%llu ulps, %g absolute%s) but not the expected "
                "bits\n", close, close == 1 ? " is" : "s are", (unsigned long long)tol->ulps, tol->abs_err,
                tol->any_nan ? ", any NaN" : "");
    return mismatches;
}

/* Kernel parameters the lanes file left out: an error before running, not undefined loads. */
bool lanes_params_given(const Warp *w, char *err, size_t errlen)
{
    const Function *f = w->fn;
    for (uint32_t i = 0; i < f->params.len; i++) {
        uint8_t *shadow;
        uint32_t size;
        bool given = false;
        exec_param_bytes(w, i, &shadow, &size);
        for (uint32_t k = 0; k < size && !given; k++)
            given = shadow[k];
        if (size && !given) {
            snprintf(err, errlen, "kernel '%s' needs a value for parameter %u ('%s'): give \"params\": [...] "
                     "in the lanes file", f->name, i, f->params.data[i].name);
            return false;
        }
    }
    return true;
}
