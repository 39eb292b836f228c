/* check_jsonread.c: cli/jsonread.c against the reader it speeds up, values_parse_jansson (jansson's
 * json_loadb with JSON_REJECT_DUPLICATES after quoting integers from 2^63 to 2^64 - 1), which
 * values_load_json still uses for a document jsonread_parse refuses. On every input both must
 * give the same tree (same types, integers, reals to the bit, strings to the byte, keys in the
 * same order), or jsonread_parse must refuse; and jsonread_parse must refuse nothing jansson
 * reads, so the slow path runs for bad documents only. Inputs: hand-written documents (escapes,
 * surrogate pairs, big and negative integers, -0, exponents, deep nesting) and bad ones (trailing
 * commas, duplicates, NaN, unterminated strings, control characters, lone surrogates, 01, 1., .5,
 * -, 1e, integers past 2^64 - 1); random documents; and random one-byte edits of them. The
 * expected trees are jansson's, an independent implementation. */
#include <jansson.h>

#include "testutil.h"

#define EXPECT(cond, ...) do { if (!(cond)) ck_assert_msg(cond, __VA_ARGS__); } while (0)

static bool same_tree(json_t *a, json_t *b)
{
    if (json_typeof(a) != json_typeof(b))
        return false;
    switch (json_typeof(a)) {
    case JSON_INTEGER:
        return json_integer_value(a) == json_integer_value(b);
    case JSON_REAL: {
        double x = json_real_value(a), y = json_real_value(b);
        return memcmp(&x, &y, sizeof x) == 0;
    }
    case JSON_STRING:
        return json_string_length(a) == json_string_length(b) &&
               memcmp(json_string_value(a), json_string_value(b), json_string_length(a)) == 0;
    case JSON_ARRAY:
        if (json_array_size(a) != json_array_size(b))
            return false;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!same_tree(json_array_get(a, i), json_array_get(b, i)))
                return false;
        return true;
    case JSON_OBJECT: {
        if (json_object_size(a) != json_object_size(b))
            return false;
        void *i = json_object_iter(a), *j = json_object_iter(b);
        for (; i && j; i = json_object_iter_next(a, i), j = json_object_iter_next(b, j))
            if (strcmp(json_object_iter_key(i), json_object_iter_key(j)) ||
                !same_tree(json_object_iter_value(i), json_object_iter_value(j)))
                return false;
        return !i && !j;
    }
    default:
        return true;
    }
}

/* Both readers on text: 1 both read it alike, 0 both refuse, 2 jansson alone reads it, -1 jsonread
 * reads it otherwise than jansson or where jansson refuses. */
static int compare(const char *text, size_t len)
{
    char *copy = malloc(len + 1);
    memcpy(copy, text, len);
    copy[len] = '\0';
    json_error_t e;
    json_t *fast = jsonread_parse(copy, len), *slow = values_parse_jansson(copy, len, &e);
    int r = !fast && !slow ? 0 : !fast ? 2 : slow && same_tree(fast, slow) ? 1 : -1;
    json_decref(fast);
    json_decref(slow);
    free(copy);
    return r;
}

START_TEST(valid_documents)
{
    static const char *const docs[] = {
        "{}", "[]", " \t\r\n[ ]\n", "[1]", "[0, -0, -1, 7, 1023, 1024, -1024]", "{\"a\": {\"b\": [1, [2, [3, {}]]]}}",
        "[9223372036854775807, -9223372036854775808, 9223372036854775808, 18446744073709551615]",
        "[12345678901234567890, 10000000000000000000]", "{\"k\": 18446744073709551615}",
        "[0.0, -0.0, 1.5, -1.5, 1e5, 1E5, 1e+5, 1e-5, 1.25e-3, 123456789e-22, 0.1, 0.3, 2.2250738585072011e-308]",
        "[4.9e-324, 1e-400, 1.7976931348623157e308, 9007199254740993, 9007199254740993.0, 1e23, 1e22, 8.5e-23]",
        "[0.1000000000000000055511151231257827021181583404541015625, 12345678901234567890.5]",
        "[3.14159265358979323846264338327950288, 1.00000000000000000000000000001e-5, 0.000000000000000000001]",
        "[\"\", \"a\", \"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"\\u0041\\u00e9\\u20AC\\uffff\", \"\\ud83d\\ude00\", \"\\uD834\\uDD1E x\"]",
        "[\"caf\xc3\xa9\", \"\xe2\x82\xac\", \"\xf0\x9f\x98\x80\", \"\xf4\x8f\xbf\xbf\", \"\x7f\"]",
        "{\"\": 1, \"\\u00e9\": 2, \"a\\nb\": 3, \"z\": 4, \"b\": 5}", "[true, false, null, [null], {\"x\": null}]",
        "{\"regs\": {\"%r1\": [1, 2, 3], \"%f1\": \"0x3f80????\"}, \"preds\": {\"%p1\": true}, \"block\": [32, 1, 1]}",
        "[\"\\u0001u64:5\"]", "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]",
    };
    for (unsigned i = 0; i < COUNT_OF(docs); i++)
        EXPECT(compare(docs[i], strlen(docs[i])) == 1, "not read alike: %s", docs[i]);
    char deep[2 * 2048 + 1];                               /* jansson's deepest: 2048 levels */
    memset(deep, '[', 2048);
    memset(deep + 2048, ']', 2048);
    EXPECT(compare(deep, 4096) == 1, "2048 levels");
}
END_TEST

START_TEST(invalid_documents)
{
    static const char *const docs[] = {
        "", " ", "1", "\"a\"", "null", "[1,]", "[,1]", "{\"a\": 1,}", "{\"a\" 1}", "{a: 1}", "{\"a\": 1, \"a\": 2}",
        "{\"a\": {\"b\": 1, \"b\": 1}}", "[NaN]", "[Infinity]", "[-Infinity]", "[nan]", "[tru]", "[truex]", "[nul]",
        "[\"abc]", "[\"abc", "[\"a\x01\"]", "[\"a\tb\"]", "[\"\\ud800\"]", "[\"\\udc00\"]", "[\"\\ud800\\u0041\"]",
        "[\"\\ud800x\"]", "[\"\\u12\"]", "[\"\\u00G0\"]", "[\"\\x41\"]", "[\"\\u0000\"]", "{\"\\u0000\": 1}",
        "[\"\\\"]", "[01]", "[-01]", "[1.]", "[.5]", "[-]", "[1e]", "[1e+]", "[-.5]", "[+1]", "[1.5.3]", "[0x10]",
        "[18446744073709551616]", "[09223372036854775808]", "[99999999999999999999]", "[-9223372036854775809]", "[-18446744073709551615]",
        "[1e400]", "[-1e400]", "[1]x", "[1] [2]", "{\"a\": 1}}", "[1", "{", "{\"a\"", "{\"a\":", "[\"\xc3\"]",
        "[\"\xc0\xaf\"]", "[\"\xed\xa0\x80\"]", "[\"\xf4\x90\x80\x80\"]", "[\"\xff\"]", "\xef\xbb\xbf[1]", "[1 2]", "{\"a\": 1 \"b\": 2}", "[/* c */ 1]", "['a']",
    };
    for (unsigned i = 0; i < COUNT_OF(docs); i++)
        EXPECT(compare(docs[i], strlen(docs[i])) == 0, "not refused by both: %s", docs[i]);
    /* NUL bytes (lengths given): jansson skips some; jsonread refuses them all, leaving them to it */
    EXPECT(compare("[1]\0", 4) % 2 == 0, "a NUL after the document");
    EXPECT(compare("[1\0]", 4) % 2 == 0, "a NUL in an array");
    EXPECT(compare("[\"a\0b\"]", 7) % 2 == 0, "a NUL in a string");
    char deep[2 * 2049 + 1];
    memset(deep, '[', 2049);
    memset(deep + 2049, ']', 2049);
    EXPECT(compare(deep, 2 * 2049) == 0, "2049 levels");
}
END_TEST

/* A small deterministic generator (xorshift64). */
static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

typedef struct Text {
    char *s;
    size_t len, cap;
} Text;

static void put(Text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap)
        t->s = realloc(t->s, t->cap = 2 * (t->len + n + 1));
    memcpy(t->s + t->len, s, n);
    t->len += n;
}

static void puts_text(Text *t, const char *s)
{
    put(t, s, strlen(s));
}

static void random_digits(Text *t, uint64_t *seed, unsigned most, bool first_nonzero)
{
    unsigned n = 1 + (unsigned)(next(seed) % most);
    for (unsigned i = 0; i < n; i++) {
        char c = (char)('0' + next(seed) % 10);
        put(t, i == 0 && first_nonzero && c == '0' ? "7" : &c, 1);
    }
}

static void random_number(Text *t, uint64_t *seed)
{
    char buf[64];
    uint64_t r = next(seed);
    switch (r % 6) {
    case 0:                                                /* a small integer */
        snprintf(buf, sizeof buf, "%lld", (long long)(r >> 40) - (1ll << 23));
        puts_text(t, buf);
        break;
    case 1:                                                /* any 64-bit pattern, either reading */
        if (r & 8)
            snprintf(buf, sizeof buf, "%llu", (unsigned long long)next(seed));
        else
            snprintf(buf, sizeof buf, "%lld", (long long)next(seed));
        puts_text(t, buf);
        break;
    case 2: {                                              /* a double printed short or long */
        uint64_t bits = next(seed);
        double d;
        memcpy(&d, &bits, sizeof d);
        if (isfinite(d)) {
            snprintf(buf, sizeof buf, r & 8 ? "%.17g" : r & 16 ? "%.9g" : "%g", d);
            puts_text(t, strchr(buf, '.') || strchr(buf, 'e') ? buf : "0.5");
        } else {
            puts_text(t, "1e-7");
        }
        break;
    }
    default:                                               /* digits of any length and exponents */
        if (r & 8)
            puts_text(t, "-");
        if (r & 16)
            puts_text(t, "0");
        else
            random_digits(t, seed, r & 32 ? 25 : 8, true);
        if (r & 64) {
            puts_text(t, ".");
            random_digits(t, seed, r & 128 ? 25 : 6, false);
        }
        if (r & 256) {
            puts_text(t, r & 512 ? "e" : "E");
            puts_text(t, r & 1024 ? "-" : r & 2048 ? "+" : "");
            random_digits(t, seed, 3, false);
        }
    }
}

static void random_string(Text *t, uint64_t *seed)
{
    static const char *const parts[] = { "a", "Z", " ", "%r1", "\\n", "\\\"", "\\\\", "\\/", "\\t", "\\u0041",
                                         "\\u00e9", "\\uD83D\\uDE00", "\\u20ac", "\xc3\xa9", "\xe2\x82\xac",
                                         "\xf0\x9f\x98\x80", "0x", "?" };
    puts_text(t, "\"");
    for (unsigned n = (unsigned)(next(seed) % 6); n; n--)
        puts_text(t, parts[next(seed) % COUNT_OF(parts)]);
    puts_text(t, "\"");
}

static void random_value(Text *t, uint64_t *seed, int depth)
{
    uint64_t r = next(seed) % (depth > 4 ? 6 : 9);
    if (r < 3) {
        random_number(t, seed);
    } else if (r == 3) {
        random_string(t, seed);
    } else if (r == 4) {
        static const char *const words[] = { "true", "false", "null" };
        puts_text(t, words[next(seed) % 3]);
    } else if (r == 5 || r == 6) {
        puts_text(t, "[");
        for (unsigned n = (unsigned)(next(seed) % 6), i = 0; i < n; i++) {
            puts_text(t, i ? (next(seed) & 1 ? ", " : ",\n ") : "");
            random_value(t, seed, depth + 1);
        }
        puts_text(t, "]");
    } else {
        puts_text(t, "{");
        for (unsigned n = (unsigned)(next(seed) % 5), i = 0; i < n; i++) {
            puts_text(t, i ? ", " : "");
            random_string(t, seed);                        /* sometimes a duplicate key */
            puts_text(t, next(seed) & 1 ? ": " : ":");
            random_value(t, seed, depth + 1);
        }
        puts_text(t, "}");
    }
}

START_TEST(random_documents_and_edits)
{
    static const char edits[] = "0123456789-+.eE\"\\,:[]{}u \x01\x80\xc3naNt";
    uint64_t seed = 0x243f6a8885a308d3ull;
    unsigned read = 0, refused = 0;
    for (int doc = 0; doc < 4000; doc++) {
        Text t = { 0 };
        puts_text(&t, next(&seed) & 1 ? "[" : "{\"k\": [");
        for (unsigned n = (unsigned)(next(&seed) % 8), i = 0; i < n; i++) {
            puts_text(&t, i ? ", " : "");
            random_value(&t, &seed, 0);
        }
        puts_text(&t, t.s[0] == '[' ? "]" : "]}");
        int r = compare(t.s, t.len);
        EXPECT(r == 0 || r == 1, "differ (%d): %.*s", r, (int)t.len, t.s);
        for (int k = 0; k < 30; k++) {                    /* one byte changed, deleted or inserted */
            Text e = { 0 };
            size_t at = (size_t)(next(&seed) % t.len), how = next(&seed) % 3;
            char c = edits[next(&seed) % (sizeof edits - 1)];
            put(&e, t.s, at);
            if (how != 1)
                put(&e, &c, 1);
            put(&e, t.s + at + (how != 2), t.len - at - (how != 2));
            r = compare(e.s, e.len);
            EXPECT(r == 0 || r == 1, "differ (%d): %.*s", r, (int)e.len, e.s);
            read += r == 1;
            refused += r == 0;
            free(e.s);
        }
        free(t.s);
    }
    EXPECT(read > 10000 && refused > 10000, "edits: %u read, %u refused", read, refused);
}
END_TEST

/* The error message is jansson's, with its position (tests/cli.sh checks some). */
START_TEST(messages_are_janssons)
{
    static const char text[] = "{\"regs\": {\"a\": NaN}}";
    FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
    json_error_t e;
    json_t *root = values_load_json(f, &e);
    fclose(f);
    ck_assert_ptr_null(root);
    ck_assert_str_eq(e.text, "invalid token near 'NaN'");
    ck_assert_int_eq(e.line, 1);
    ck_assert_int_eq(e.column, 18);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("jsonread");
    TCase *tc = tcase_create("against jansson");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, valid_documents);
    tcase_add_test(tc, invalid_documents);
    tcase_add_test(tc, random_documents_and_edits);
    tcase_add_test(tc, messages_are_janssons);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
