/* b128.c: a .b128 register's value in a lanes or expect file (lanes.c, expect.c read it; dump.c
 * writes it through format_wide). */
#include <jansson.h>
#include <string.h>

#include "cli.h"

/* A .b128 register's value (bits[0], dbits[0]: the low 64 bits): a JSON integer from 0, "0x" and
 * up to 32 hex digits ('?' for an undefined digit; digits left out at the top are defined
 * zeros), or null. */
bool b128_json_bits(json_t *v, uint64_t bits[2], uint64_t dbits[2], Msg *err)
{
    bits[0] = bits[1] = 0;
    dbits[0] = dbits[1] = ~0ull;
    if (json_is_null(v)) {
        dbits[0] = dbits[1] = 0;
        return true;
    }
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        bits[0] = (uint64_t)json_integer_value(v);
        return true;
    }
    const char *s = json_is_string(v) ? json_string_value(v) : "";
    size_t n = strlen(s);
    bool ok = n > 2 && n <= 34 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    for (size_t i = 2; ok && i < n; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10
              : c == '?' ? 16 : -1;
        unsigned digit = (unsigned)(n - 1 - i), half = digit / 16, shift = 4 * (digit % 16);   /* from the right */
        ok = d >= 0;
        bits[half] |= (uint64_t)(d & 15) << shift;
        if (d == 16)
            dbits[half] &= ~(0xfull << shift);
    }
    if (!ok)
        msg_set(err, "a .b128 value is a number from 0, \"0x\" and up to 32 hex digits (\"?\" for an "
                "undefined one), or null");
    return ok;
}
