/* util.c: allocation that never returns NULL, the report for broken invariants, messages of any
 * length (Msg), and the one reader of options that take a value (ptxrun and ptxrun test).
 * Running out of memory ends the run with a message and exit status 3; a BUG (a broken
 * invariant, never the user's fault) prints and aborts.
 * Built with -DPTXRUN_FAULT_INJECTION (make fault-tests), the allocation numbered
 * $PTXRUN_FAIL_ALLOC_AT fails, so that tests can check every path out of memory. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"

_Noreturn void util_out_of_memory(size_t size)
{
    fflush(stdout);
    fprintf(stderr, "ptxrun: error: out of memory (asked for %zu bytes)\n", size);
    exit(EXIT_FAULT);
}

#ifdef PTXRUN_FAULT_INJECTION
static bool injected_failure(void)
{
    static long count, fail_at = -1;       /* test builds only: the one mutable global */
    if (fail_at < 0) {
        const char *s = getenv("PTXRUN_FAIL_ALLOC_AT");
        fail_at = s ? atol(s) : 0;
    }
    return ++count == fail_at;
}
#else
static bool injected_failure(void)
{
    return false;
}
#endif

void *xmalloc(size_t size)
{
    void *p = injected_failure() ? NULL : malloc(size ? size : 1);
    if (!p)
        util_out_of_memory(size);
    return p;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

void *xcalloc(size_t count, size_t size)
{
    void *p = injected_failure() ? NULL : calloc(count ? count : 1, size ? size : 1);
    if (!p)
        util_out_of_memory(count * size);
    return p;
}

/* Zeroed, at an address that is a multiple of align (a power of two); free() releases it. */
void *xcalloc_aligned(size_t count, size_t size, size_t align)
{
    count = count ? count : 1;
    size = size ? size : 1;
    if (count > (SIZE_MAX - align) / size)
        util_out_of_memory(SIZE_MAX);
    size_t bytes = (count * size + align - 1) / align * align;
    void *p = injected_failure() ? NULL : aligned_alloc(align, bytes);
    if (!p)
        util_out_of_memory(bytes);
    return memset(p, 0, bytes);
}

void *xrealloc(void *old, size_t size)
{
    void *p = injected_failure() ? NULL : realloc(old, size ? size : 1);
    if (!p)
        util_out_of_memory(size);
    return p;
}

void util_bug(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "ptxrun: internal error at %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

/* Appends fmt's text to m, growing it to fit: vsnprintf once to measure, once to write. */
static void msg_vadd(Msg *m, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n < 0)
        BUG("a message's format '%s' failed", fmt);
    if (m->len + (size_t)n + 1 > m->cap) {
        m->cap = m->len + (size_t)n + 1 > 2 * m->cap ? m->len + (size_t)n + 1 : 2 * m->cap;
        m->text = xrealloc(m->text, m->cap);
    }
    vsnprintf(m->text + m->len, (size_t)n + 1, fmt, again);
    va_end(again);
    m->len += (size_t)n;
}

void msg_set(Msg *m, const char *fmt, ...)
{
    va_list ap;
    m->len = 0;
    va_start(ap, fmt);
    msg_vadd(m, fmt, ap);
    va_end(ap);
}

void msg_add(Msg *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    msg_vadd(m, fmt, ap);
    va_end(ap);
}

void msg_prefix(Msg *m, const char *fmt, ...)
{
    Msg whole = { 0 };
    va_list ap;
    va_start(ap, fmt);
    msg_vadd(&whole, fmt, ap);
    va_end(ap);
    msg_add(&whole, "%s", m->text ? m->text : "");
    free(m->text);
    *m = whole;
}

void msg_free(Msg *m)
{
    free(m->text);
    *m = (Msg){ 0 };
}

size_t utf8_sequence_length(const char *text, size_t available)
{
    const unsigned char *s = (const unsigned char *)text;
    if (available == 0)
        return 0;
    if (s[0] < 0x80)
        return 1;
    size_t length;
    unsigned char low = 0x80, high = 0xbf;  /* bounds of the second byte */
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        length = 2;
    else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        length = 3;
        if (s[0] == 0xe0) low = 0xa0;       /* no overlong forms */
        if (s[0] == 0xed) high = 0x9f;      /* no UTF-16 surrogates */
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        length = 4;
        if (s[0] == 0xf0) low = 0x90;
        if (s[0] == 0xf4) high = 0x8f;      /* nothing above U+10FFFF */
    } else
        return 0;
    if (available < length || s[1] < low || s[1] > high)
        return 0;
    for (size_t i = 2; i < length; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)
            return 0;
    return length;
}

uint32_t utf8_code_point(const char *text, size_t length)
{
    const unsigned char *s = (const unsigned char *)text;
    switch (length) {
    case 2: return (uint32_t)(s[0] & 0x1f) << 6 | (s[1] & 0x3f);
    case 3: return (uint32_t)(s[0] & 0x0f) << 12 | (uint32_t)(s[1] & 0x3f) << 6 | (s[2] & 0x3f);
    case 4: return (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3f) << 12 | (uint32_t)(s[2] & 0x3f) << 6 |
                   (s[3] & 0x3f);
    default: return s[0];
    }
}

bool utf8_is_visible(const char *text, size_t length)
{
    uint32_t c = utf8_code_point(text, length);
    if (c < 0x20 || (c >= 0x7f && c < 0xa0))
        return false;                           /* C0 and C1 controls, DEL */
    return !(c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069));
}

/* The value of a command-line option that takes one: "--name=value", or "--name value" taking the
 * next argument (advancing *i). NULL if a is not that option, with *missing set when it is but
 * no value follows. */
const char *util_option_value(const char *a, const char *name, int argc, char **argv, int *i, bool *missing)
{
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}
