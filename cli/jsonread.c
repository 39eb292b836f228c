/* jsonread.c: a fast reader for the JSON of lanes and expect files (100 MB of numbers in a
 * second or two), building the jansson tree the rest of cli/ reads. It takes one pass over the
 * bytes and accepts a subset of what values_load_json accepted before it existed: every document
 * jansson reads with JSON_REJECT_DUPLICATES, integers from 2^63 to 2^64 - 1 included (as the
 * string VALUES_BIG_INTEGER "digits", which lanes_value_bits reads). On anything else it returns
 * NULL and values.c reads the text again with jansson, so error messages and their positions are
 * jansson's. A differential test (tests/check_jsonread.c) holds it to jansson's trees. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum {
    MAX_DEPTH = 2048,           /* jansson's JSON_PARSER_MAX_DEPTH */
    SMALL_INTS = 1024,          /* integers 0 .. SMALL_INTS - 1 share one node per document */
};

typedef struct Reader {
    const char *p;              /* the next byte; the text ends with a NUL no valid JSON holds */
    char *buf;                  /* a string with escapes, decoded */
    size_t cap;
    json_t *small[SMALL_INTS];
} Reader;

static json_t *read_value(Reader *r, int depth);

static void skip_space(Reader *r)
{
    while (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t')
        r->p++;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The four hex digits after "\u", or -1. */
static long read_u4(const char *s)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int d = hex_digit(s[i]);
        if (d < 0)
            return -1;
        v = v << 4 | d;
    }
    return v;
}

/* The length of the UTF-8 sequence of one code point at s (U+0080 .. U+10FFFF, no surrogates,
 * shortest form), or 0. */
static int utf8_length(const unsigned char *s)
{
    int n = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    uint32_t cp = s[0] & (0x7f >> n);
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return n;
}

static void put_byte(Reader *r, size_t *n, char c)
{
    if (*n == r->cap)
        r->buf = xrealloc(r->buf, r->cap = r->cap ? 2 * r->cap : 256);
    r->buf[(*n)++] = c;
}

static void put_code_point(Reader *r, size_t *n, uint32_t cp)
{
    if (cp < 0x80) {
        put_byte(r, n, (char)cp);
    } else if (cp < 0x800) {
        put_byte(r, n, (char)(0xc0 | cp >> 6));
        put_byte(r, n, (char)(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        put_byte(r, n, (char)(0xe0 | cp >> 12));
        put_byte(r, n, (char)(0x80 | (cp >> 6 & 0x3f)));
        put_byte(r, n, (char)(0x80 | (cp & 0x3f)));
    } else {
        put_byte(r, n, (char)(0xf0 | cp >> 18));
        put_byte(r, n, (char)(0x80 | (cp >> 12 & 0x3f)));
        put_byte(r, n, (char)(0x80 | (cp >> 6 & 0x3f)));
        put_byte(r, n, (char)(0x80 | (cp & 0x3f)));
    }
}

/* The character of the escape \c other than \u, or 0. */
static char unescaped(unsigned char c)
{
    switch (c) {
    case '"': case '\\': case '/': return (char)c;
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    default: return 0;
    }
}

/* A string's text after its '"', decoded into r->buf (*len bytes, no NUL in it); r->p moves past
 * the closing '"'. Returns the text (in the input where it has no escape), or NULL. */
static const char *read_string(Reader *r, size_t *len)
{
    const unsigned char *s = (const unsigned char *)r->p;
    while (*s >= 0x20 && *s < 0x80 && *s != '"' && *s != '\\')
        s++;
    if (*s == '"') {                                     /* plain ASCII: the input's own bytes */
        *len = (size_t)((const char *)s - r->p);
        const char *text = r->p;
        r->p = (const char *)s + 1;
        return text;
    }
    size_t n = 0;
    for (s = (const unsigned char *)r->p; *s != '"';) {
        if (*s < 0x20)
            return NULL;                                  /* a control character, or the end */
        if (*s >= 0x80) {
            int k = utf8_length(s);
            if (!k)
                return NULL;
            for (int i = 0; i < k; i++)
                put_byte(r, &n, (char)*s++);
            continue;
        }
        if (*s != '\\') {
            put_byte(r, &n, (char)*s++);
            continue;
        }
        char c = unescaped(s[1]);
        if (c) {
            put_byte(r, &n, c);
            s += 2;
            continue;
        }
        long cp = s[1] == 'u' ? read_u4((const char *)s + 2) : -1;
        if (cp <= 0 || (cp >= 0xdc00 && cp <= 0xdfff))
            return NULL;                                  /* a bad escape, \u0000, a lone low surrogate */
        s += 6;
        if (cp >= 0xd800 && cp <= 0xdbff) {               /* a high surrogate: a low one must follow */
            long low = s[0] == '\\' && s[1] == 'u' ? read_u4((const char *)s + 2) : -1;
            if (low < 0xdc00 || low > 0xdfff)
                return NULL;
            cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
            s += 6;
        }
        put_code_point(r, &n, (uint32_t)cp);
    }
    r->p = (const char *)s + 1;
    *len = n;
    return r->buf;
}

/* A number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, as jansson reads it. */
static json_t *read_number(Reader *r)
{
    static const double pow10[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
    const char *start = r->p, *s = start;
    bool negative = *s == '-';
    s += negative;
    const char *digits = s;
    uint64_t m = 0;                               /* the first 19 digits */
    int kept = 0, dropped = 0;                    /* digits in m; integer digits beyond them */
    bool lost = false;                            /* a digit did not fit in m */
    if (*s == '0') {
        s++;
    } else if (*s >= '1' && *s <= '9') {
        for (; *s >= '0' && *s <= '9'; s++) {
            if (kept < 19) {
                m = m * 10 + (uint64_t)(*s - '0');
                kept++;
            } else {
                dropped++;
                lost = true;
            }
        }
    } else {
        return NULL;
    }
    if (*s >= '0' && *s <= '9')
        return NULL;                                      /* a leading zero */
    if (*s != '.' && *s != 'e' && *s != 'E') {           /* an integer */
        r->p = s;
        size_t n = (size_t)(s - digits);
        bool big = n > 19 || (n == 19 && m > INT64_MAX);  /* m holds all n <= 19 digits */
        if (big && !negative && (n < 20 || (n == 20 && memcmp(digits, "18446744073709551615", 20) <= 0))) {
            char text[sizeof VALUES_BIG_INTEGER + 20];
            memcpy(text, VALUES_BIG_INTEGER, sizeof VALUES_BIG_INTEGER - 1);
            memcpy(text + sizeof VALUES_BIG_INTEGER - 1, digits, n);
            return json_stringn_nocheck(text, sizeof VALUES_BIG_INTEGER - 1 + n);
        }
        if (big && !(negative && n == 19 && m == (uint64_t)INT64_MAX + 1))
            return NULL;                                  /* beyond json_int_t: jansson refuses it */
        if (!negative && m < SMALL_INTS)
            return json_incref(r->small[m] ? r->small[m] : (r->small[m] = json_integer((json_int_t)m)));
        return json_integer(negative ? (json_int_t)(0 - m) : (json_int_t)m);
    }
    int point = 0;                                        /* digits after the point in m */
    if (*s == '.') {
        if (*++s < '0' || *s > '9')
            return NULL;
        for (; *s >= '0' && *s <= '9'; s++) {
            if (kept < 19) {
                m = m * 10 + (uint64_t)(*s - '0');
                kept++;
                point++;
            } else {
                lost = true;
            }
        }
    }
    long e = 0;
    if (*s == 'e' || *s == 'E') {
        s++;
        bool e_negative = *s == '-';
        s += *s == '+' || *s == '-';
        if (*s < '0' || *s > '9')
            return NULL;
        for (; *s >= '0' && *s <= '9'; s++)
            e = e < 100000 ? e * 10 + (*s - '0') : e;
        e = e_negative ? -e : e;
    }
    r->p = s;
    double d;
    long scale = e - point + dropped;
    if (m <= (1ull << 53) && scale >= -22 && scale <= 22 && !lost) {
        /* Clinger's fast path: m and 10^|scale| are exact doubles, so one IEEE operation rounds
         * the exact value correctly, as strtod would */
        d = scale < 0 ? (double)m / pow10[-scale] : (double)m * pow10[scale];
    } else {
        d = strtod(digits, NULL);
    }
    if (isinf(d))
        return NULL;                                      /* jansson: real number overflow */
    return json_real(negative ? -d : d);
}

static json_t *read_array(Reader *r, int depth)
{
    json_t *a = json_array();
    r->p++;
    skip_space(r);
    if (*r->p == ']') {
        r->p++;
        return a;
    }
    for (;;) {
        json_t *v = read_value(r, depth);
        if (!v || json_array_append_new(a, v) != 0)
            break;
        skip_space(r);
        if (*r->p == ']') {
            r->p++;
            return a;
        }
        if (*r->p++ != ',')
            break;
        skip_space(r);
    }
    json_decref(a);
    return NULL;
}

static json_t *read_object(Reader *r, int depth)
{
    json_t *o = json_object();
    r->p++;
    skip_space(r);
    if (*r->p == '}') {
        r->p++;
        return o;
    }
    for (;;) {
        size_t len;
        const char *key = *r->p++ == '"' ? read_string(r, &len) : NULL;
        if (!key)
            break;
        char small_key[64];
        char *k = len < sizeof small_key ? small_key : xmalloc(len + 1);
        memcpy(k, key, len);                              /* read_string's buffer is reused */
        k[len] = '\0';
        json_t *v = NULL;
        skip_space(r);
        if (!json_object_getn(o, k, len) && *r->p++ == ':') {
            skip_space(r);
            v = read_value(r, depth);
        }
        int bad = !v || json_object_setn_new_nocheck(o, k, len, v) != 0;
        if (k != small_key)
            free(k);
        if (bad)
            break;
        skip_space(r);
        if (*r->p == '}') {
            r->p++;
            return o;
        }
        if (*r->p++ != ',')
            break;
        skip_space(r);
    }
    json_decref(o);
    return NULL;
}

static json_t *read_value(Reader *r, int depth)
{
    switch (*r->p) {
    case '{':
        return depth < MAX_DEPTH ? read_object(r, depth + 1) : NULL;
    case '[':
        return depth < MAX_DEPTH ? read_array(r, depth + 1) : NULL;
    case '"': {
        size_t len;
        r->p++;
        const char *s = read_string(r, &len);
        return s ? json_stringn_nocheck(s, len) : NULL;
    }
    case 't':
        return strncmp(r->p, "true", 4) ? NULL : (r->p += 4, json_true());
    case 'f':
        return strncmp(r->p, "false", 5) ? NULL : (r->p += 5, json_false());
    case 'n':
        return strncmp(r->p, "null", 4) ? NULL : (r->p += 4, json_null());
    default:
        return read_number(r);
    }
}

json_t *jsonread_parse(const char *text, size_t len)
{
    if (strlen(text) != len)
        return NULL;                                      /* a NUL byte inside */
    Reader *r = xcalloc(1, sizeof *r);
    r->p = text;
    skip_space(r);
    json_t *root = *r->p == '{' || *r->p == '[' ? read_value(r, 0) : NULL;
    if (root) {
        skip_space(r);
        if (*r->p) {
            json_decref(root);
            root = NULL;
        }
    }
    for (int i = 0; i < SMALL_INTS; i++)
        json_decref(r->small[i]);
    free(r->buf);
    free(r);
    return root;
}
