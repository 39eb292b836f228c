/* values.c: one JSON value of the lanes or expect file as the bits of a register of a type
 * (numbers, "0x..." with '?' for undefined digits, "nan", ...), and a predicate's value; shared
 * by lanes.c, images.c, dump.c and expect.c. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* text (len bytes) with every integer token (no leading zero) from 2^63 to 2^64 - 1 outside strings quoted as
 * VALUES_BIG_INTEGER "digits"; a new NUL-terminated buffer. For jansson, which reads again a
 * document jsonread_parse refused, so that the message says what is wrong where. */
static char *quote_big_integers(const char *text, size_t len, size_t *out_len)
{
    size_t cap = len + 1, n = 0;
    char *out = xmalloc(cap);
    bool in_string = false;
    for (size_t i = 0; i < len;) {
        char c = text[i];
        if (n + 3 >= cap) {                    /* room for two bytes and the NUL */
            cap *= 2;
            out = xrealloc(out, cap);
        }
        if (in_string || c == '"') {
            if (in_string && c == '\\' && i + 1 < len) {
                out[n++] = text[i++];
            } else if (c == '"') {
                in_string = !in_string;
            }
            out[n++] = text[i++];
            continue;
        }
        bool starts = c >= '1' && c <= '9' && (i == 0 || !strchr("0123456789.eE+-", text[i - 1]));
        size_t end = i;
        while (starts && end < len && text[end] >= '0' && text[end] <= '9')
            end++;
        bool integer = starts && (end == len || !strchr(".eE", text[end]));
        if (integer && (end - i > 19 || (end - i == 19 && memcmp(text + i, "9223372036854775807", 19) > 0)) &&
            (end - i < 20 || (end - i == 20 && memcmp(text + i, "18446744073709551615", 20) <= 0)) &&
            (i == 0 || text[i - 1] != '-')) {
            if (n + (end - i) + 16 >= cap) {
                cap = 2 * cap + (end - i) + 16;
                out = xrealloc(out, cap);
            }
            n += (size_t)sprintf(out + n, "\"\\u0001u64:%.*s\"", (int)(end - i), text + i);
            i = end;
            continue;
        }
        out[n++] = text[i++];
    }
    out[n] = '\0';
    *out_len = n;
    return out;
}

json_t *values_load_json(FILE *f, json_error_t *e)
{
    size_t cap = 1 << 16, len = 0, got;
    char *text = xmalloc(cap);
    while ((got = fread(text + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap)
            text = xrealloc(text, cap *= 2);
    }
    text[len] = '\0';
    json_t *root = jsonread_parse(text, len);
    if (!root)
        root = values_parse_jansson(text, len, e);
    free(text);
    return root;
}

json_t *values_parse_jansson(const char *text, size_t len, json_error_t *e)
{
    size_t quoted_len;
    char *quoted = quote_big_integers(text, len, &quoted_len);
    json_t *root = json_loadb(quoted, quoted_len, JSON_REJECT_DUPLICATES, e);
    free(quoted);
    return root;
}

/* A double as the bits of a float register of the type, rounded to nearest even. */
static uint64_t double_bits(double d, int type)
{
    unsigned width = type_info[type].bits;
    if (width == 16)
        return convert_double_to_small(d, type);
    if (width == 32) {
        float f = (float)d;
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        return b;
    }
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* The integer of magnitude u (negative: its opposite) in a float register of the type, rounded
 * once: to 53 bits with the lost bits kept as a sticky 1 (round to odd), which the narrower
 * formats then round correctly; an f64 directly. */
static uint64_t integer_float_bits(uint64_t u, bool negative, int type)
{
    double d = (double)u;
    int top = u ? 64 - __builtin_clzll(u) : 0;
    if (type_info[type].bits < 64 && top > 53) {
        uint64_t m = u >> (top - 53);
        if (u & ((1ull << (top - 53)) - 1))
            m |= 1;
        d = ldexp((double)m, top - 53);
    }
    return double_bits(negative ? -d : d, type);
}

/* An integer u from 2^63 up in a register of the type. */
static bool big_integer_bits(uint64_t u, int type, const char *digits, uint64_t *bits, Msg *err)
{
    unsigned width = type_info[type].bits;
    char cls = type_packed(type) ? 'b' : type_info[type].cls;
    if (cls == 'f') {
        *bits = integer_float_bits(u, false, type);
        return true;
    }
    if (cls == 's' || width < 64) {
        msg_set(err, "%s does not fit in .%s", digits, type_info[type].name);
        return false;
    }
    *bits = u;
    return true;
}

/* One JSON value as the bits of a register of the given type. Returns false with a message. */
/* "0x0000??00": hex digits, '?' for a digit whose bits are undefined (at least one digit given). */
static bool partial_hex(const char *s, unsigned width, uint64_t *bits, uint64_t *dbits, Msg *err)
{
    size_t n = strlen(s + 2);
    *bits = 0;
    *dbits = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[2 + i];
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10
              : c == '?' ? 16 : -1;
        if (v < 0 || n > 16) {
            char *shown = demangle_cut(s, strlen(s), DEMANGLE_SHOWN);
            msg_set(err, "\"%s\" is not a hex number (\"?\" stands for an undefined digit)", shown);
            free(shown);
            return false;
        }
        *bits = *bits << 4 | (uint64_t)(v & 15);
        *dbits = *dbits << 4 | (v == 16 ? 0 : 0xf);
    }
    if (*bits & ~width_mask(width) || n > (width + 3) / 4) {
        msg_set(err, "%s does not fit in %u bits", s, width);
        return false;
    }
    *dbits |= ~width_mask(4 * (unsigned)n);     /* digits not written: defined zeros */
    *dbits &= width_mask(width);
    return true;
}

bool lanes_value_bits(json_t *v, int type, uint64_t *bits, uint64_t *dbits, Msg *err)
{
    unsigned width = type_info[type].bits;
    char cls = type_packed(type) ? 'b' : type_info[type].cls;   /* packed halves: their bits */
    *dbits = width_mask(width);
    if (json_is_null(v)) {
        *dbits = 0;
        *bits = 0;
        return true;
    }
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        size_t big = strlen(VALUES_BIG_INTEGER);
        if (!strncmp(s, VALUES_BIG_INTEGER, big))
            return big_integer_bits(strtoull(s + big, NULL, 10), type, s + big, bits, err);
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2] && strchr(s, '?'))
            return partial_hex(s, width, bits, dbits, err);
        if (cls == 'f' && (!strcmp(s, "nan") || !strcmp(s, "inf") || !strcmp(s, "-inf"))) {
            double d = s[0] == 'n' ? NAN : s[0] == '-' ? -INFINITY : INFINITY;
            *bits = s[0] != 'n' || width == 16 ? double_bits(d, type) : width_mask(width) >> 1;   /* canonical NaN */
            return true;
        }
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2]) {
            char *end;
            unsigned long long b = strtoull(s + 2, &end, 16);
            if (*end || strlen(s + 2) > 16) {
                char *shown = demangle_cut(s, strlen(s), DEMANGLE_SHOWN);
                msg_set(err, "\"%s\" is not a hex number", shown);
                free(shown);
                return false;
            }
            if (b & ~width_mask(width)) {
                msg_set(err, "%s does not fit in %u bits", s, width);
                return false;
            }
            *bits = b;
            return true;
        }
        char *shown = demangle_cut(s, strlen(s), DEMANGLE_SHOWN);
        msg_set(err, "\"%s\" is not a value (use a number, \"0x...\" bits%s, or null)", shown,
                cls == 'f' ? ", \"nan\", \"inf\", \"-inf\"" : "");
        free(shown);
        return false;
    }
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (cls == 'f') {
            *bits = integer_float_bits(i < 0 ? 0 - (uint64_t)i : (uint64_t)i, i < 0, type);
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
            msg_set(err, "%" JSON_INTEGER_FORMAT " does not fit in .%s", i, type_info[type].name);
            return false;
        }
        *bits = (uint64_t)i & width_mask(width);
        return true;
    }
    if (json_is_real(v)) {
        if (cls != 'f') {
            msg_set(err, "%g is a real, but the register is .%s", json_real_value(v), type_info[type].name);
            return false;
        }
        *bits = double_bits(json_real_value(v), type);
        return true;
    }
    msg_set(err, "expected a number, a string or null");
    return false;
}

bool lanes_pred_value(json_t *v, bool *value, bool *defined, Msg *err)
{
    *defined = !json_is_null(v);
    *value = json_is_true(v);
    if (json_is_boolean(v) || json_is_null(v))
        return true;
    if (json_is_integer(v) && (json_integer_value(v) == 0 || json_integer_value(v) == 1)) {
        *value = json_integer_value(v) == 1;
        return true;
    }
    msg_set(err, "expected true, false or null");
    return false;
}

/* Reads value (an array of 32 or a single value) into lanes; calls back per lane. */
