/* ocelot.c: gpuocelot's entry point, ptx_run, with its contract (ptxrun.h): the module's first
 * .entry, args[i] parameter i's value itself, the process's own memory. Its caller passes no
 * handle, so the modules it has loaded are kept in the library's one piece of global state, a
 * cache keyed by the PTX text (its hash, then the text compared), behind a lock; a module passed
 * again is not parsed again. Messages go to standard error and printf's text to standard
 * output, as gpuocelot's did; nothing ends the process. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

enum { CACHE_MOST = 256 };           /* modules kept; past it the oldest is let go */

typedef struct Cached {
    uint64_t hash;
    char *text;
    size_t len;
    ptxrun_module *module;           /* NULL: the text was refused (said once) */
    ptxrun_kernel *kernel;
} Cached;

static struct {
    pthread_mutex_t lock;
    Cached items[CACHE_MOST];
    uint32_t count, next;            /* next: the slot a new module takes once the cache is full */
} cache = { PTHREAD_MUTEX_INITIALIZER, { { 0 } }, 0, 0 };

static uint64_t fnv1a(const char *p, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)p[i]) * 0x100000001b3ull;
    return h;
}

static void to_stderr(void *context, const ptxrun_diagnostic *d)
{
    (void)context;
    fputs(d->text, stderr);
    fflush(stderr);
}

static void to_stdio(void *context, int stream, const char *text, size_t len)
{
    (void)context;
    FILE *f = stream == PTXRUN_PRINT_ERR ? stderr : stdout;
    fwrite(text, 1, len, f);
    fflush(f);
}

static const ptxrun_callbacks stdio_callbacks = { to_stderr, to_stdio, NULL, NULL };

/* The kernel of the module ptx is, loaded and lowered the first time (the lock held); NULL when
 * it is refused (said the first time only). */
static ptxrun_kernel *kernel_of(const char *ptx)
{
    size_t len = strlen(ptx);
    uint64_t h = fnv1a(ptx, len);
    for (uint32_t i = 0; i < cache.count; i++) {
        Cached *c = &cache.items[i];
        if (c->hash == h && c->len == len && !memcmp(c->text, ptx, len))
            return c->kernel;
    }
    Cached *c = &cache.items[cache.count < CACHE_MOST ? cache.count++ : cache.next++ % CACHE_MOST];
    ptxrun_module_free(c->module);
    free(c->text);
    *c = (Cached){ h, memcpy(xmalloc(len + 1), ptx, len + 1), len, NULL, NULL };
    ptxrun_module_options o = { "<ptx_run>", 0, 0, stdio_callbacks };
    if (ptxrun_module_load(ptx, len, &o, &c->module) == PTXRUN_OK &&
        ptxrun_module_kernel(c->module, NULL, &c->kernel) != PTXRUN_OK)
        c->kernel = NULL;
    return c->kernel;
}

static void run(ptxrun_kernel *k, int n_args, void **args, int bx, int by, int bz, int gx, int gy, int gz,
                int shared_mem)
{
    unsigned params = ptxrun_kernel_param_count(k);
    if ((unsigned)n_args != params) {
        fprintf(stderr, "ptxrun: error: ptx_run: kernel '%s' has %u parameter%s, and %d argument%s came\n",
                ptxrun_kernel_name(k), params, params == 1 ? "" : "s", n_args, n_args == 1 ? "" : "s");
        return;
    }
    /* Each argument is the value itself, 64 bits: the parameter takes its low bytes (its size,
     * little-endian); a parameter of more than 8 bytes cannot come this way. */
    void **values = xmalloc((params + 1) * sizeof *values);
    for (unsigned i = 0; i < params; i++) {
        ptxrun_param p;
        ptxrun_kernel_param(k, i, &p);
        if (p.size > sizeof args[i]) {
            fprintf(stderr, "ptxrun: error: ptx_run: parameter %u ('%s') of kernel '%s' has %u bytes; an argument "
                    "of ptx_run holds 8\n", i, p.name, ptxrun_kernel_name(k), p.size);
            free(values);
            return;
        }
        values[i] = &args[i];
    }
    ptxrun_launch_options o = { { (unsigned)gx, (unsigned)gy, (unsigned)gz }, { (unsigned)bx, (unsigned)by, (unsigned)bz },
                                (unsigned)shared_mem, NULL, 0, 1, 0, 0, 0, stdio_callbacks, { 0, 0, 0 }, 0 };
    ptxrun_launch(k, values, &o, NULL);
    free(values);
}

/* The cache let go when the library is (dlclose, or the process's exit), so that nothing it held
 * is left behind (valgrind's leak check runs the library's tests). */
__attribute__((destructor)) static void release_cache(void)
{
    pthread_mutex_lock(&cache.lock);
    for (uint32_t i = 0; i < cache.count; i++) {
        ptxrun_module_free(cache.items[i].module);
        free(cache.items[i].text);
    }
    cache.count = cache.next = 0;
    pthread_mutex_unlock(&cache.lock);
}

void ptx_run(const char *ptx, int n_args, void **args, int bx, int by, int bz, int gx, int gy, int gz, int shared_mem)
{
    if (!ptx || n_args < 0 || (n_args && !args) || bx < 0 || by < 0 || bz < 0 || gx < 0 || gy < 0 || gz < 0 ||
        shared_mem < 0) {
        fprintf(stderr, "ptxrun: error: ptx_run: %s\n", !ptx ? "no PTX text" : "a negative count or size");
        return;
    }
    pthread_mutex_lock(&cache.lock);       /* held through the run: a module in use is never let go */
    ptxrun_kernel *k = kernel_of(ptx);
    if (k)
        run(k, n_args, args, bx, by, bz, gx, gy, gz, shared_mem);
    pthread_mutex_unlock(&cache.lock);
}
