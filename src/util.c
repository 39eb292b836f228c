/* util.c: allocation that never returns NULL, and the report for broken invariants.
 * Running out of memory or hitting a BUG is not the user's fault: both print and abort. */
#include <stdlib.h>

#include "ptxrun.h"

static _Noreturn void out_of_memory(size_t size)
{
    fprintf(stderr, "ptxrun: out of memory (asked for %zu bytes)\n", size);
    exit(4);
}

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory(count * size);
    return p;
}

void *xrealloc(void *old, size_t size)
{
    void *p = realloc(old, size ? size : 1);
    if (!p)
        out_of_memory(size);
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
