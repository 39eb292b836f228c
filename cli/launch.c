/* launch.c: the launch on the command line. --block, --grid, --cluster, --shared, --param and
 * --buffer become entries of the lanes file's JSON ("block", "grid", "dynamic_shared", "params",
 * "buffers"), replacing the file's entries of the same name, so that lanes.c reads both the same
 * way. Also makes the lanes file's buffer "file" paths relative to the lanes file's folder.
 * Requires: a Block from block_load (its kernel's parameters); values.c for --param values. */
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

bool launch_given(const Launch *l)
{
    return l->block || l->grid || l->cluster || l->shared || l->param_count || l->buffer_count || l->cooperative;
}

/* "X[,Y,Z]": one to three numbers, the i-th from 1 to most[i]. */
static bool parse_dims(const char *option, const char *text, uint32_t dims[3], const uint32_t most[3], Msg *err)
{
    const char *p = text;
    dims[0] = dims[1] = dims[2] = 1;
    for (int i = 0; i < 3; i++) {
        char *end;
        errno = 0;
        unsigned long long n = *p >= '0' && *p <= '9' ? strtoull(p, &end, 10) : 0;
        if (n < 1 || n > most[i] || errno == ERANGE || (*end && *end != ','))
            break;
        dims[i] = (uint32_t)n;
        if (!*end)
            return true;
        p = end + 1;
    }
    if (most[0] == most[1] && most[1] == most[2])
        msg_set(err, "%s %s: expected X[,Y,Z], one to three numbers from 1 to %u", option, text, most[0]);
    else if (most[0] == most[1])
        msg_set(err, "%s %s: expected X[,Y,Z], X and Y from 1 to %u, Z from 1 to %u", option, text, most[0],
                most[2]);
    else
        msg_set(err, "%s %s: expected X[,Y,Z], X from 1 to %u, Y and Z from 1 to %u", option, text, most[0],
                most[1]);
    return false;
}

static json_t *dims_json(const uint32_t dims[3])
{
    return json_pack("[III]", (json_int_t)dims[0], (json_int_t)dims[1], (json_int_t)dims[2]);
}

/* The shortest name --param takes for the parameter of f named full: what follows the kernel's
 * name and '_' (param_0 of nvcc's _Z1kPKiPii_param_0), else full. */
const char *launch_param_short(const Function *f, const char *full)
{
    size_t kernel = strlen(f->name);
    return !strncmp(full, f->name, kernel) && full[kernel] == '_' && full[kernel + 1] ? full + kernel + 1 : full;
}

/* The parameter NAME names: its full name (nvcc's _Z1kPKiPii_param_0), its position (0), or the
 * part after the kernel's name and '_' (param_0). -1 if none, with err listing them. */
static int find_param(const Function *f, const char *name, Msg *err)
{
    size_t kernel = strlen(f->name);
    for (uint32_t i = 0; i < f->params.len; i++)
        if (!strcmp(f->params.data[i].name, name))
            return (int)i;
    char *end;
    unsigned long n = name[0] >= '0' && name[0] <= '9' ? strtoul(name, &end, 10) : 0;
    if (name[0] >= '0' && name[0] <= '9' && !*end && n < f->params.len)
        return (int)n;
    for (uint32_t i = 0; i < f->params.len; i++) {
        const char *full = f->params.data[i].name;
        if (!strncmp(full, f->name, kernel) && full[kernel] == '_' && !strcmp(full + kernel + 1, name))
            return (int)i;
    }
    char *kernel_shown = demangle_shown(f->name), *name_shown = demangle_cut(name, strlen(name), DEMANGLE_SHOWN);
    msg_set(err, "--param %s: kernel '%s' has no parameter '%s'; its parameters:", name_shown,
            kernel_shown, name_shown);
    free(kernel_shown);
    free(name_shown);
    enum { LISTED = 16 };                     /* a long list is cut: the message stays one line */
    for (uint32_t i = 0; i < f->params.len && i < LISTED; i++) {
        const Decl *d = &f->params.data[i];
        char *shown = demangle_shown(launch_param_short(f, d->name));
        msg_add(err, "%s %u %s (.%s)", i ? "," : "", i, shown,
                d->dim_count || d->type == TYPE_NONE ? "b8[]" : type_info[d->type].name);
        free(shown);
    }
    if (f->params.len > LISTED)
        msg_add(err, ", and %u more", f->params.len - LISTED);
    if (!f->params.len)
        msg_add(err, " none");
    return -1;
}

/* A --param value: "@name", "0x..." bits, "nan", "inf", "-inf" as strings; anything else as
 * JSON (an integer up to 2^64 - 1, a real, {"bytes": [...]}, {"fields": [...]}). */
static json_t *param_json(const char *option, const char *text, Msg *err)
{
    if (text[0] == '@' || (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) || !strcmp(text, "nan") ||
        !strcmp(text, "inf") || !strcmp(text, "-inf"))
        return json_string(text);
    json_t *v = NULL;
    json_error_t e = { .text = "" };
    size_t len = strlen(text) + 3;
    char *wrapped = xmalloc(len);               /* jansson reads an array or an object only */
    snprintf(wrapped, len, "[%s]", text);
    FILE *f = fmemopen(wrapped, len - 1, "r");
    if (f) {
        json_t *array = values_load_json(f, &e);
        if (json_array_size(array) == 1)
            v = json_incref(json_array_get(array, 0));
        json_decref(array);
        fclose(f);
    }
    free(wrapped);
    if (!v) {
        char *shown = demangle_cut(text, strlen(text), DEMANGLE_SHOWN);
        msg_set(err, "%s: '%s' is not a value%s%s%s: give an integer, a real, 0x bits, @buffer, or JSON "
                "such as {\"bytes\": [1, 2]}", option, shown, e.text[0] ? " (" : "", e.text, e.text[0] ? ")" : "");
        free(shown);
    }
    return v;
}

/* The lanes file's buffers with a relative "file": relative to the lanes file's folder. */
static bool resolve_files(json_t *root, const char *lanes_path, Msg *err)
{
    json_t *buffers = json_object_get(root, "buffers"), *spec;
    const char *slash = lanes_path ? strrchr(lanes_path, '/') : NULL, *name;
    if (!json_is_object(buffers) || !slash)
        return true;
    json_object_foreach(buffers, name, spec) {
        json_t *file = json_object_get(spec, "file");
        if (!json_is_string(file) || json_string_value(file)[0] == '/')
            continue;
        size_t dir = (size_t)(slash - lanes_path) + 1, len = dir + strlen(json_string_value(file)) + 1;
        char *full = xmalloc(len);
        snprintf(full, len, "%.*s%s", (int)dir, lanes_path, json_string_value(file));
        int bad = json_object_set_new(spec, "file", json_string(full));
        free(full);
        if (bad) {
            msg_set(err, "%s: buffers.%s.file: not a valid path", lanes_path, name);
            return false;
        }
    }
    return true;
}

/* --buffer NAME=TYPE:COUNT, NAME=@FILE.npy, NAME=TYPE@FILE.bin (a name of any length, as the
 * lanes file's; messages show the text at most PATH_SHOWN bytes long) */
static bool add_buffer(json_t *buffers, const char *text, Msg *err)
{
    const char *eq = strchr(text, '='), *value = eq ? eq + 1 : NULL;
    const char *at = value ? strchr(value, '@') : NULL, *colon = value ? strchr(value, ':') : NULL;
    char type_name[16], *shown = demangle_cut(text, strlen(text), PATH_SHOWN), *name = NULL;
    bool ok = false;
    if (!eq || eq == text || (!at && !colon) || (size_t)((at ? at : colon) - value) >= sizeof type_name ||
        (at && at[1] == '\0')) {
        msg_set(err, "--buffer %s: expected NAME=TYPE:COUNT, NAME=@FILE.npy or NAME=TYPE@FILE.bin", shown);
        goto out;
    }
    name = demangle_cut(text, (size_t)(eq - text), SIZE_MAX);
    snprintf(type_name, sizeof type_name, "%.*s", (int)((at ? at : colon) - value), value);
    int type = type_lookup(type_name, strlen(type_name));
    if ((type_name[0] || !at) && !npy_buffer_type_ok(type)) {
        msg_set(err, "--buffer %s: '%s' is not a buffer type (u8..u64, s8..s64, b8..b64, f16, bf16, f32, "
                "f64)", shown, type_name);
        goto out;
    }
    if (at && type_name[0] == '\0' && !npy_named(at + 1)) {
        char *file = demangle_cut(at + 1, strlen(at + 1), PATH_SHOWN);
        msg_set(err, "--buffer %s: '%s' is not a .npy file: raw binary data needs its type, "
                "NAME=TYPE@FILE.bin", shown, file);
        free(file);
        goto out;
    }
    json_t *spec = json_object();
    if (type_name[0])
        json_object_set_new(spec, "type", json_string(type_name));
    if (at)
        json_object_set_new(spec, "file", json_string(at + 1));
    else {
        char *end;
        errno = 0;
        unsigned long long count = colon[1] >= '0' && colon[1] <= '9' ? strtoull(colon + 1, &end, 10) : 0;
        if (!count || *end || errno == ERANGE || count > (1u << 26)) {
            msg_set(err, "--buffer %s: the count must be a number from 1 to 2^26", shown);
            json_decref(spec);
            goto out;
        }
        json_object_set_new(spec, "count", json_integer((json_int_t)count));
    }
    json_object_set_new(buffers, name, spec);
    ok = true;
out:
    free(name);
    free(shown);
    return ok;
}

/* The lanes file's "params" by name, so that --param can replace one of them; an array of
 * another length than the kernel's parameters stays as it is (lanes.c says what is wrong). */
static json_t *params_by_name(const Function *f, json_t *root)
{
    json_t *params = json_object_get(root, "params");
    if (json_is_array(params) && json_array_size(params) == f->params.len) {
        json_t *named = json_object();
        for (uint32_t i = 0; i < f->params.len; i++)
            json_object_set(named, f->params.data[i].name, json_array_get(params, i));
        json_object_set_new(root, "params", named);
        return named;
    }
    if (!params) {
        json_object_set_new(root, "params", json_object());
        return json_object_get(root, "params");
    }
    return json_is_object(params) ? params : NULL;
}

bool launch_merge(const Block *b, json_t *root, const char *lanes_path, const Launch *l, Msg *err)
{
    uint32_t dims[3];
    if (!resolve_files(root, lanes_path, err))
        return false;
    static const uint32_t block_most[3] = { MAX_BLOCK_THREADS, MAX_BLOCK_THREADS, MAX_BLOCK_Z };
    static const uint32_t grid_most[3] = { MAX_GRID_X, MAX_GRID_YZ, MAX_GRID_YZ };
    static const uint32_t cluster_most[3] = { MAX_CLUSTER_CTAS, MAX_CLUSTER_CTAS, MAX_CLUSTER_CTAS };
    if (l->block) {
        if (!parse_dims("--block", l->block, dims, block_most, err))
            return false;
        if ((uint64_t)dims[0] * dims[1] * dims[2] > MAX_BLOCK_THREADS) {
            msg_set(err, "--block %s: %llu threads; a block has at most %d", l->block,
                    (unsigned long long)dims[0] * dims[1] * dims[2], MAX_BLOCK_THREADS);
            return false;
        }
        json_object_set_new(root, "block", dims_json(dims));
        if (dims[0] * dims[1] * dims[2] > WARP_SIZE)      /* the file's lane mask was for its block */
            json_object_del(root, "active");
    }
    if (l->grid) {
        if (!parse_dims("--grid", l->grid, dims, grid_most, err))
            return false;
        json_object_set_new(root, "grid", dims_json(dims));
    }
    if (l->cluster) {
        if (!parse_dims("--cluster", l->cluster, dims, cluster_most, err))
            return false;
        json_object_set_new(root, "cluster", dims_json(dims));
    }
    if (l->cooperative)
        json_object_set_new(root, "cooperative", json_true());
    if (l->shared) {
        char *end;
        errno = 0;
        unsigned long n = l->shared[0] >= '0' && l->shared[0] <= '9' ? strtoul(l->shared, &end, 10) : 1ul << 30;
        if (n > (1ul << 20) || *end || errno == ERANGE) {
            msg_set(err, "--shared %s: expected a number of bytes of dynamic shared memory (0 to 1 MiB)",
                    l->shared);
            return false;
        }
        json_object_set_new(root, "dynamic_shared", json_integer((json_int_t)n));
    }
    if (l->buffer_count && !json_is_object(json_object_get(root, "buffers")))
        json_object_set_new(root, "buffers", json_object());
    for (uint32_t i = 0; i < l->buffer_count; i++)
        if (!add_buffer(json_object_get(root, "buffers"), l->buffers[i], err))
            return false;
    const Function *f = b->prog.fn;
    json_t *params = l->param_count ? params_by_name(f, root) : NULL;
    for (uint32_t i = 0; i < l->param_count; i++) {
        const char *text = l->params[i], *eq = strchr(text, '=');
        char *shown = demangle_cut(text, strlen(text), DEMANGLE_SHOWN);
        if (!eq || eq == text) {
            msg_set(err, "--param %s: expected NAME=VALUE (NAME: the position, 0, or the name)", shown);
            free(shown);
            return false;
        }
        char *name = demangle_cut(text, (size_t)(eq - text), SIZE_MAX);     /* whole: nvcc's full names */
        int k = find_param(f, name, err);
        if (k >= 0 && !params)
            msg_set(err, "--param %s: the lanes file's \"params\" is not an object or an array of %u values",
                    shown, f->params.len);
        char *option = demangle_cut(name, strlen(name), DEMANGLE_SHOWN);
        size_t room = strlen(option) + 16;
        char *label = xmalloc(room);
        snprintf(label, room, "--param %s", option);
        json_t *v = k >= 0 && params ? param_json(label, eq + 1, err) : NULL;
        free(shown);
        free(name);
        free(option);
        free(label);
        if (!v)
            return false;
        json_object_set_new(params, f->params.data[k].name, v);
    }
    return true;
}
