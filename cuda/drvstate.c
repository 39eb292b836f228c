/* drvstate.c: the process state of ptxrun's CUDA shims, the one static struct behind one mutex:
 * whether cuInit ran and its settings, every live allocation (device, host, managed, registered
 * host memory, module variables), every live handle (so a stale or made-up one is refused), the
 * primary context. Each thread's stack of current contexts is its own (_Thread_local), as CUDA's
 * is. Everything else of the driver (drv*.c) calls in here. Requires: cuda.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"

static DrvState state;
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;

enum { MAX_CURRENT = 64 };     /* contexts pushed on one thread */
static _Thread_local struct {
    CUcontext stack[MAX_CURRENT];
    unsigned depth;
} current;

DrvState *drv_lock(void)
{
    pthread_mutex_lock(&state_lock);
    return &state;
}

void drv_unlock(void)
{
    pthread_mutex_unlock(&state_lock);
}

CUresult drv_init(unsigned flags)
{
    DrvState *s = drv_lock();
    CUresult r = CUDA_SUCCESS;
    if (flags)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (!s->initialized && s->init_result == CUDA_SUCCESS) {
        if (drvsettings_read(&s->settings))
            s->initialized = true;
        else
            s->init_result = CUDA_ERROR_INVALID_VALUE;
    }
    if (r == CUDA_SUCCESS)
        r = s->init_result;
    drv_unlock();
    return r;
}

CUresult drv_enter_init(DrvState **out)
{
    DrvState *s = drv_lock();
    if (!s->initialized) {
        drv_unlock();
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    *out = s;
    return CUDA_SUCCESS;
}

CUresult drv_enter(DrvState **out, CUcontext *ctx)
{
    CUresult r = drv_enter_init(out);
    if (r != CUDA_SUCCESS)
        return r;
    CUcontext c = drv_current();
    if (!c || !drv_handle_has(*out, DRV_CONTEXT, c))
        r = CUDA_ERROR_INVALID_CONTEXT;
    else if (c->sticky != CUDA_SUCCESS)
        r = c->sticky;
    if (r != CUDA_SUCCESS) {
        drv_unlock();
        return r;
    }
    if (ctx)
        *ctx = c;
    return CUDA_SUCCESS;
}

CUcontext drv_current(void)
{
    return current.depth ? current.stack[current.depth - 1] : NULL;
}

void drv_set_current(CUcontext ctx)
{
    if (!current.depth && !ctx)
        return;
    if (!current.depth)
        current.depth = 1;
    current.stack[current.depth - 1] = ctx;
    if (!ctx)
        current.depth--;
}

bool drv_push_current(CUcontext ctx)
{
    if (current.depth == MAX_CURRENT)
        return false;
    current.stack[current.depth++] = ctx;
    return true;
}

CUcontext drv_pop_current(void)
{
    return current.depth ? current.stack[--current.depth] : NULL;
}

void drv_forget_current(CUcontext ctx)
{
    unsigned kept = 0;
    for (unsigned i = 0; i < current.depth; i++)
        if (current.stack[i] != ctx)
            current.stack[kept++] = current.stack[i];
    current.depth = kept;
}

void drv_handle_add(DrvState *s, DrvHandleKind kind, void *p)
{
    if (s->handle_count == s->handle_cap) {
        s->handle_cap = s->handle_cap ? 2 * s->handle_cap : 16;
        s->handles = xrealloc(s->handles, s->handle_cap * sizeof *s->handles);
    }
    s->handles[s->handle_count++] = (DrvHandle){ kind, p };
}

bool drv_handle_has(const DrvState *s, DrvHandleKind kind, const void *p)
{
    if (!p)
        return false;
    for (size_t i = 0; i < s->handle_count; i++)
        if (s->handles[i].p == p && s->handles[i].kind == kind)
            return true;
    return false;
}

void drv_handle_remove(DrvState *s, const void *p)
{
    for (size_t i = 0; i < s->handle_count; i++)
        if (s->handles[i].p == p) {
            s->handles[i] = s->handles[--s->handle_count];
            return;
        }
}

bool drv_stream_ok(const DrvState *s, CUstream stream)
{
    return !stream || stream == CU_STREAM_LEGACY || stream == CU_STREAM_PER_THREAD
           || drv_handle_has(s, DRV_STREAM, stream);
}

DrvMem *drv_mem_add(DrvState *s, const DrvMem *m)
{
    if (s->mem_count == s->mem_cap) {
        s->mem_cap = s->mem_cap ? 2 * s->mem_cap : 64;
        s->mems = xrealloc(s->mems, s->mem_cap * sizeof *s->mems);
    }
    s->mems[s->mem_count] = *m;
    s->mems[s->mem_count].id = ++s->next_id;
    return &s->mems[s->mem_count++];
}

DrvMem *drv_mem_find(DrvState *s, uint64_t address)
{
    for (size_t i = 0; i < s->mem_count; i++) {
        uint64_t base = (uint64_t)(uintptr_t)s->mems[i].base;
        if (address >= base && address - base < s->mems[i].size)
            return &s->mems[i];
    }
    return NULL;
}

DrvMem *drv_mem_at(DrvState *s, uint64_t address, DrvMemKind kind)
{
    for (size_t i = 0; i < s->mem_count; i++)
        if ((uint64_t)(uintptr_t)s->mems[i].base == address && s->mems[i].kind == kind)
            return &s->mems[i];
    return NULL;
}

bool drv_mem_covers(DrvState *s, uint64_t address, size_t size)
{
    const DrvMem *m = drv_mem_find(s, address);
    return m && size <= m->size - (address - (uint64_t)(uintptr_t)m->base);
}

void drv_mem_remove(DrvState *s, DrvMem *m)
{
    if (m->kind != DRV_MEM_REGISTERED)
        free(m->base);
    free(m->name);
    free(m->shadow);
    *m = s->mems[--s->mem_count];
}

void drv_mem_settle(DrvMem *m)
{
    size_t n = 0;
    while (m->shadow && n < m->size && m->shadow[n] == 0xff)
        n++;
    if (m->shadow && n == m->size) {
        free(m->shadow);
        m->shadow = NULL;
    }
}

void drv_mem_written(DrvState *s, uint64_t dst, size_t size, uint64_t src)
{
    DrvMem *d = drv_mem_find(s, dst);
    if (!d || d->kind != DRV_MEM_DEVICE || !size)
        return;
    size_t at = (size_t)(dst - (uint64_t)(uintptr_t)d->base);
    size = size < d->size - at ? size : d->size - at;
    const DrvMem *m = src ? drv_mem_find(s, src) : NULL;
    if (m && m->shadow && m->kind == DRV_MEM_DEVICE) {
        size_t from = (size_t)(src - (uint64_t)(uintptr_t)m->base);
        if (!d->shadow)
            d->shadow = memset(xmalloc(d->size), 0xff, d->size);
        memmove(d->shadow + at, m->shadow + from, size < m->size - from ? size : m->size - from);
    } else if (d->shadow && at == 0 && size == d->size) {
        free(d->shadow);
        d->shadow = NULL;
    } else if (d->shadow)
        memset(d->shadow + at, 0xff, size);
}

void drv_report(DrvState *s, const char *fmt, ...)
{
    FILE *f = s->initialized ? s->settings.report : stderr;
    if (!f)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fflush(f);
}

CUresult drv_not_supported(const char *name)
{
    DrvState *s = drv_lock();
    drv_report(s, "ptxrun's libcuda: %s is not supported yet", name);
    drv_unlock();
    return CUDA_ERROR_NOT_SUPPORTED;
}
