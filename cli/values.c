/* values.c: one JSON value of the lanes or expect file as the bits of a register of a type
 * (numbers, "0x..." with '?' for undefined digits, "nan", ...), and a predicate's value; shared
 * by lanes.c, images.c, dump.c and expect.c. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* One JSON value as the bits of a register of the given type. Returns false with a message. */
/* "0x0000??00": hex digits, '?' for a digit whose bits are undefined (at least one digit given). */
static bool partial_hex(const char *s, unsigned width, uint64_t *bits, uint64_t *dbits, char *err, size_t errlen)
{
    size_t n = strlen(s + 2);
    *bits = 0;
    *dbits = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[2 + i];
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10
              : c == '?' ? 16 : -1;
        if (v < 0 || n > 16) {
            snprintf(err, errlen, "\"%s\" is not a hex number (\"?\" stands for an undefined digit)", s);
            return false;
        }
        *bits = *bits << 4 | (uint64_t)(v & 15);
        *dbits = *dbits << 4 | (v == 16 ? 0 : 0xf);
    }
    if (*bits & ~width_mask(width) || n > (width + 3) / 4) {
        snprintf(err, errlen, "%s does not fit in %u bits", s, width);
        return false;
    }
    *dbits |= ~width_mask(4 * (unsigned)n);     /* digits not written: defined zeros */
    *dbits &= width_mask(width);
    return true;
}

bool lanes_value_bits(json_t *v, int type, uint64_t *bits, uint64_t *dbits, char *err, size_t errlen)
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
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2] && strchr(s, '?'))
            return partial_hex(s, width, bits, dbits, err, errlen);
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

bool lanes_pred_value(json_t *v, bool *value, bool *defined, char *err, size_t errlen)
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
