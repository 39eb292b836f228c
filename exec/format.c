/* format.c: one value as text, in its type: as the table and traces show it, and as JSON
 * (which --lanes reads back). Floats in the shortest decimal that reads back to the same bits,
 * with NaN payloads, infinities and half formats named. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"

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
void format_value(char *buf, size_t size, uint64_t bits, int type)
{
    unsigned width = type_info[type].bits;
    switch (type_packed(type) ? 'b' : type_info[type].cls) {
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
void format_json_value(char *buf, size_t size, uint64_t bits, int type)
{
    unsigned width = type_info[type].bits;
    char cls = type_packed(type) ? 'b' : type_info[type].cls;
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
        format_value(buf, size, bits, type);
}

/* A 128-bit value (v[0], d[0]: the low 64 bits and which of them are defined): "0x" and 32 hex
 * digits, '?' for a digit with an undefined bit; nothing defined: "undef" (json: null). json: in
 * quotes. */
void format_wide_bits(char *buf, size_t size, const uint64_t v[2], const uint64_t d[2], bool json)
{
    static const char hex[] = "0123456789abcdef";
    if (!d[0] && !d[1]) {
        snprintf(buf, size, "%s", json ? "null" : "undef");
        return;
    }
    char text[35] = "0x";
    for (unsigned i = 0; i < 32; i++) {
        unsigned half = i < 16, shift = 4 * (15 - i % 16);
        text[2 + i] = (d[half] >> shift & 0xf) == 0xf ? hex[v[half] >> shift & 0xf] : '?';
    }
    text[34] = '\0';
    snprintf(buf, size, json ? "\"%s\"" : "%s", text);
}

/* Lane l's value of the .b128 register whose low 64 bits are in row (the high ones in the next). */
void format_wide(char *buf, size_t size, const Warp *w, uint32_t row, int lane, bool json)
{
    uint64_t v[2] = { w->val[row][lane], w->val[row + 1][lane] };
    uint64_t d[2] = { warp_dbits(w, row, lane), warp_dbits(w, row + 1, lane) };
    format_wide_bits(buf, size, v, d, json);
}

/* ---- buffers ---- */

/* A value defined in some bits only: its hex digits, '?' for each digit with an undefined bit,
 * as many digits as the width has ("0x000001??"); nothing at all defined: "undef". */
void format_partial(char *buf, size_t size, uint64_t bits, uint64_t dbits, unsigned width)
{
    if (!(dbits & width_mask(width))) {
        snprintf(buf, size, "undef");
        return;
    }
    static const char hex[] = "0123456789abcdef";
    unsigned digits = (width + 3) / 4;
    char text[24] = "0x";
    for (unsigned i = 0; i < digits; i++) {
        unsigned shift = 4 * (digits - 1 - i);
        uint64_t nibble = width_mask(width) & (0xfull << shift);
        text[2 + i] = (dbits & nibble) == nibble ? hex[bits >> shift & 0xf] : '?';
    }
    text[2 + digits] = '\0';
    snprintf(buf, size, "%s", text);
}
