/* expect.c: --expect. Compares the final state with an expect file (the --lanes format):
 * registers and predicates lane by lane, buffers element by element, the exited lanes; floats
 * bit for bit or within a Tolerance. Prints the differences (the first MAX_SHOWN) and returns
 * how many there were. Requires: a Warp that has run; lanes.c (reading the file's values),
 * dump.c (values as the table shows them, buffer elements). */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The digits (nibbles) of a width-bit value with an undefined bit, as a mask. */
static uint64_t undefined_digits(uint64_t dbits, unsigned width)
{
    uint64_t digits = 0;
    for (unsigned i = 0; i < width; i += 4) {
        uint64_t nibble = width_mask(width) & (0xfull << i);
        if ((dbits & nibble) != nibble)
            digits |= nibble;
    }
    return digits;
}

/* Whether a value got matches the expected one: both undefined in every bit, or undefined in
 * the same hex digits ("0x0000??00") and equal in the others. */
static bool same_definedness(uint64_t want, uint64_t want_dbits, uint64_t got, uint64_t got_dbits, unsigned width)
{
    uint64_t m = width_mask(width);
    if (!(want_dbits & m) || !(got_dbits & m))
        return !(want_dbits & m) && !(got_dbits & m);
    uint64_t unknown = undefined_digits(want_dbits, width);
    return unknown == undefined_digits(got_dbits, width) && ((want ^ got) & m & ~unknown) == 0;
}

/* A value in a difference: floats with their bits, since two floats can print alike. */
static void describe(char *buf, size_t size, uint64_t dbits, uint64_t bits, int type)
{
    unsigned width = type == TYPE_PRED ? 1 : type_info[type].bits;
    if ((dbits & width_mask(width)) != width_mask(width)) {
        format_partial(buf, size, bits, dbits, width);
    } else if (type == TYPE_PRED) {
        snprintf(buf, size, "%s", bits ? "true" : "false");
    } else {
        format_value(buf, size, bits, type);
        if (type_info[type].cls == 'f' && !type_packed(type)) {
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
static int expect_buffers(FILE *out, const Block *b, const char *path, json_t *section, const Tolerance *tol,
                          int *mismatches, int *close, Msg *err)
{
    const char *name;
    json_t *v;
    json_object_foreach(section, name, v) {
        const Region *r = NULL;
        for (uint32_t k = 0; k < b->mem.count && !r; k++)
            if (b->mem.regions[k].is_buffer && !strcmp(b->mem.regions[k].name, name))
                r = &b->mem.regions[k];
        if (!r) {
            msg_set(err, "%s: buffers.%s: no such buffer in the lanes file", path, name);
            return -1;
        }
        if (json_is_object(v))
            v = json_object_get(v, "data");
        uint64_t n = dump_buffer_count(r);
        if (json_is_array(v) && json_array_size(v) != n) {
            msg_set(err, "%s: buffers.%s: %zu values for a buffer of %llu", path, name, json_array_size(v),
                    (unsigned long long)n);
            return -1;
        }
        for (uint64_t i = 0; i < n; i++) {
            json_t *e = json_is_array(v) ? json_array_get(v, i) : v;
            uint64_t want, got, want_dbits, got_dbits;
            unsigned width = type_info[r->type].bits;
            if (!e || !lanes_value_bits(e, r->type, &want, &want_dbits, err)) {
                if (!e)
                    msg_set(err, "missing");
                msg_prefix(err, "%s: buffers.%s[%llu]: ", path, name, (unsigned long long)i);
                return -1;
            }
            got_dbits = dump_buffer_element(r, i, &got);
            if (same_definedness(want, want_dbits, got, got_dbits, width))
                continue;
            bool both_defined = want_dbits == width_mask(width) && got_dbits == width_mask(width);
            if (both_defined && !type_packed(r->type) && tolerated(tol, want, got, width)) {
                ++*close;
                continue;
            }
            char a[64], g[64];
            describe(a, sizeof a, want_dbits, want, r->type);
            describe(g, sizeof g, got_dbits, got, r->type);
            difference(out, mismatches, "%s[%llu]: expected %s, got %s\n", name, (unsigned long long)i, a, g);
        }
    }
    return 0;
}

/* The keys an expect file may hold that are not compared: the lanes file's and --json's (an
 * output kept as the expected state) and ptxrun test's (testrun.c). Any other key is an error,
 * not a check passed over unseen ("reg" for "regs" would compare nothing). */
static bool passed_over(const char *key)
{
    static const char *const keys[] = { "block", "grid", "cta", "active", "params", "dynamic_shared", "surfaces",
                                        "textures", "samplers", "steps", "warnings", "stdout", "ctas", "entry",
                                        "exit", "diagnostic" };
    for (size_t i = 0; i < COUNT_OF(keys); i++)
        if (!strcmp(key, keys[i]))
            return true;
    return false;
}

/* The expect file's root against the final state; path: the file as messages name it. */
static int compare(FILE *out, const Block *b, json_t *root, const char *path, const Tolerance *tol, Msg *err)
{
    int mismatches = 0, close = 0;
    const char *key;
    json_t *section;
    char msg[80];              /* lanes_array_size_text's */
    json_object_foreach(root, key, section) {
        if (!strcmp(key, "exited")) {
            /* One warp: a lane mask; several: an array of one mask per warp. */
                    bool many = b->warp_count > 1;
            if (many && (!json_is_array(section) || json_array_size(section) != b->warp_count)) {
                msg_set(err, "%s: exited: expected an array of %u lane masks, one per warp", path,
                        b->warp_count);
                return -1;
            }
            for (uint32_t i = 0; i < b->warp_count; i++) {
                uint32_t mask;
                if (!lanes_parse_mask(many ? json_array_get(section, i) : section, &mask)) {
                    msg_set(err, "%s: exited: expected a lane mask", path);
                    return -1;
                }
                if (mask != b->warps[i]->exited && many)
                    difference(out, &mismatches, "exited of warp %u: expected 0x%08x, got 0x%08x\n", i, mask,
                               b->warps[i]->exited);
                else if (mask != b->warps[i]->exited)
                    difference(out, &mismatches, "exited: expected 0x%08x, got 0x%08x\n", mask, b->warps[0]->exited);
            }
            continue;
        }
        if (!strcmp(key, "buffers")) {
            if (expect_buffers(out, b, path, section, tol, &mismatches, &close, err) < 0) {
                return -1;
            }
            continue;
        }
        if (strcmp(key, "regs") && strcmp(key, "preds")) {
            if (passed_over(key))
                continue;
            char *shown = demangle_cut(key, strlen(key), DEMANGLE_SHOWN);
            msg_set(err, "%s: unknown key \"%s\" (compared: regs, preds, buffers, exited)", path, shown);
            free(shown);
            return -1;
        }
        bool preds = key[0] == 'p';
        const char *name;
        json_t *v;
        json_object_foreach(section, name, v) {
            uint32_t slot;
            int type;
            if (!lanes_lookup(b, path, key, name, preds, &slot, &type, err)) {
                return -1;
            }
            if (json_is_array(v) && !lanes_array_size_ok(b, json_array_size(v))) {
                msg_set(err, "%s: %s.%s: an array needs %s", path, key, name,
                        lanes_array_size_text(b, msg, sizeof msg));
                return -1;
            }
            uint32_t values = json_is_array(v) ? (uint32_t)json_array_size(v) : b->warp_count * WARP_SIZE;
            bool many = b->warp_count > 1;
            for (uint32_t t = 0; t < values; t++) {
                int l;
                const Warp *x = block_thread_warp(b, t, &l);
                json_t *e = json_is_array(v) ? json_array_get(v, t) : v;
                uint64_t want_bits, got_bits, want_dbits, got_dbits;
                unsigned width = preds ? 1 : type_info[type].bits;
                bool ok;
                if (preds) {
                    bool value, want_defined;
                    ok = lanes_pred_value(e, &value, &want_defined, err);
                    want_bits = value;
                    want_dbits = want_defined;
                    got_bits = x->pred[slot] >> l & 1;
                    got_dbits = x->pred_defined[slot] >> l & 1;
                } else if (type == TYPE_B128) {       /* two rows, each compared as 64 bits */
                    uint64_t want_wide[2], want_wide_dbits[2], got_wide[2], got_wide_dbits[2];
                    if (!b128_json_bits(e, want_wide, want_wide_dbits, err)) {
                        msg_prefix(err, "%s: %s.%s[%u]: ", path, key, name, t);
                        return -1;
                    }
                    bool same = true;
                    for (unsigned h = 0; h < 2; h++) {
                        got_wide[h] = x->val[slot + h][l];
                        got_wide_dbits[h] = warp_dbits(x, slot + h, l);
                        same &= same_definedness(want_wide[h], want_wide_dbits[h], got_wide[h], got_wide_dbits[h], 64);
                    }
                    if (same && ((want_wide_dbits[0] | want_wide_dbits[1]) != 0) == ((got_wide_dbits[0] | got_wide_dbits[1]) != 0))
                        continue;
                    char want[64], got[64];
                    format_wide_bits(want, sizeof want, want_wide, want_wide_dbits, false);
                    format_wide_bits(got, sizeof got, got_wide, got_wide_dbits, false);
                    if (many)
                        difference(out, &mismatches, "%s thread %u (warp %u lane %d): expected %s, got %s\n", name, t,
                                   x->index, l, want, got);
                    else
                        difference(out, &mismatches, "%s lane %d: expected %s, got %s\n", name, l, want, got);
                    continue;
                } else {
                    ok = lanes_value_bits(e, type, &want_bits, &want_dbits, err);
                    got_bits = x->val[slot][l];
                    got_dbits = warp_dbits(x, slot, l) & width_mask(width);
                }
                if (!ok) {
                    msg_prefix(err, "%s: %s.%s[%u]: ", path, key, name, t);
                    return -1;
                }
                if (same_definedness(want_bits, want_dbits, got_bits, got_dbits, width))
                    continue;
                bool both_defined = want_dbits == width_mask(width) && got_dbits == width_mask(width);
                if (!preds && both_defined && !type_packed(type) && tolerated(tol, want_bits, got_bits, width)) {
                    close++;
                    continue;
                }
                char want[64], got[64];
                describe(want, sizeof want, want_dbits, want_bits, preds ? TYPE_PRED : type);
                describe(got, sizeof got, got_dbits, got_bits, preds ? TYPE_PRED : type);
                if (many)
                    difference(out, &mismatches, "%s thread %u (warp %u lane %d): expected %s, got %s\n", name, t,
                               x->index, l, want, got);
                else
                    difference(out, &mismatches, "%s lane %d: expected %s, got %s\n", name, l, want, got);
            }
        }
    }
    if (close)
        fprintf(out, "note: %d value%s within the tolerance (%llu ulps, %g absolute%s) but not the expected "
                "bits\n", close, close == 1 ? " is" : "s are", (unsigned long long)tol->ulps, tol->abs_err,
                tol->any_nan ? ", any NaN" : "");
    return mismatches;
}

int expect_compare(FILE *out, const Block *b, const char *file, const Tolerance *tol, Msg *err)
{
    json_t *root = lanes_load_json(file, err);
    if (!root)
        return -1;
    char *path = demangle_cut(file, strlen(file), PATH_SHOWN);     /* messages stay whole (driver.c) */
    int mismatches = compare(out, b, root, path, tol, err);
    free(path);
    json_decref(root);
    return mismatches;
}
