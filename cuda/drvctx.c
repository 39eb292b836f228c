/* drvctx.c: contexts. Each thread has its stack of current contexts (drvstate.c); the device's
 * primary context is made by its first retain and keeps what was made in it until its last
 * release or a reset. Destroying a context frees what was made in it: its modules (and their
 * variables), streams, events and memory. A context keeps the first fault of a kernel launched
 * in it (its sticky error, drvlaunch.c) until it is destroyed or, a primary one, reset. It comes
 * last of the driver's files: it frees what the others made. Requires: cuda.h. */
#include <stdlib.h>
#include <string.h>

#include "cuda.h"

enum { API_VERSION = 3020 };   /* cuCtxGetApiVersion: the _v2 API's contexts, CUDA 3.2 on */

/* Everything made in ctx freed, its sticky error forgotten. */
static void release(DrvState *s, CUcontext ctx)
{
    for (size_t i = s->handle_count; i-- > 0;) {
        DrvHandle h = s->handles[i];
        if (h.kind == DRV_MODULE && ((CUmodule)h.p)->ctx == ctx)
            drvmodule_free(s, h.p);
        else if ((h.kind == DRV_STREAM && ((CUstream)h.p)->ctx == ctx)
                 || (h.kind == DRV_EVENT && ((CUevent)h.p)->ctx == ctx)) {
            drv_handle_remove(s, h.p);
            free(h.p);
        }
    }
    for (size_t i = s->mem_count; i-- > 0;)
        if (s->mems[i].ctx == ctx && s->mems[i].kind != DRV_MEM_SYMBOL)
            drv_mem_remove(s, &s->mems[i]);
    ctx->sticky = CUDA_SUCCESS;
}

static CUresult create(CUcontext *out, unsigned flags, CUdevice dev)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    if (dev != 0)
        r = CUDA_ERROR_INVALID_DEVICE;
    else if (!out || (flags & ~(unsigned)CU_CTX_FLAGS_MASK))
        r = CUDA_ERROR_INVALID_VALUE;
    else {
        CUcontext c = xcalloc(1, sizeof *c);
        c->flags = flags;
        if (!drv_push_current(c)) {
            free(c);
            r = CUDA_ERROR_INVALID_VALUE;
        } else {
            drv_handle_add(s, DRV_CONTEXT, c);
            *out = c;
        }
    }
    drv_unlock();
    return r;
}

CUresult cuCtxCreate_v2(CUcontext *ctx, unsigned flags, CUdevice dev)
{
    return create(ctx, flags, dev);
}

CUresult cuCtxCreate_v4(CUcontext *ctx, CUctxCreateParams *params, unsigned flags, CUdevice dev)
{
    if (params && (params->numExecAffinityParams || params->execAffinityParams || params->cigParams))
        return drv_not_supported("cuCtxCreate with execution affinity or CIG parameters");
    return create(ctx, flags, dev);
}

CUresult cuCtxDestroy_v2(CUcontext ctx)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!ctx)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (!drv_handle_has(s, DRV_CONTEXT, ctx) || ctx->primary)
        r = CUDA_ERROR_INVALID_CONTEXT;
    else {
        release(s, ctx);
        drv_handle_remove(s, ctx);
        drv_forget_current(ctx);
        free(ctx);
    }
    drv_unlock();
    return r;
}

CUresult cuCtxGetCurrent(CUcontext *ctx)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    drv_unlock();
    if (!ctx)
        return CUDA_ERROR_INVALID_VALUE;
    *ctx = drv_current();
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    if (ctx && !drv_handle_has(s, DRV_CONTEXT, ctx))
        r = CUDA_ERROR_INVALID_CONTEXT;
    else
        drv_set_current(ctx);
    drv_unlock();
    return r;
}

CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!drv_handle_has(s, DRV_CONTEXT, ctx))
        r = CUDA_ERROR_INVALID_CONTEXT;
    else if (!drv_push_current(ctx))
        r = CUDA_ERROR_INVALID_VALUE;
    drv_unlock();
    return r;
}

CUresult cuCtxPopCurrent_v2(CUcontext *ctx)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    drv_unlock();
    if (!drv_current())
        return CUDA_ERROR_INVALID_CONTEXT;
    CUcontext c = drv_pop_current();
    if (ctx)
        *ctx = c;
    return CUDA_SUCCESS;
}

/* The current context, whatever its sticky error; or the error, the lock not held. */
static CUresult enter_current(DrvState **s, CUcontext *ctx)
{
    CUresult r = drv_enter_init(s);
    if (r != CUDA_SUCCESS)
        return r;
    *ctx = drv_current();
    if (!*ctx || !drv_handle_has(*s, DRV_CONTEXT, *ctx)) {
        drv_unlock();
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *dev)
{
    DrvState *s;
    CUcontext c;
    CUresult r = enter_current(&s, &c);
    if (r != CUDA_SUCCESS)
        return r;
    drv_unlock();
    if (!dev)
        return CUDA_ERROR_INVALID_VALUE;
    *dev = c->device;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetFlags(unsigned *flags)
{
    DrvState *s;
    CUcontext c;
    CUresult r = enter_current(&s, &c);
    if (r != CUDA_SUCCESS)
        return r;
    if (flags)
        *flags = c->flags;
    drv_unlock();
    return flags ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned *version)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    CUcontext c = ctx ? ctx : drv_current();
    if (!c || !drv_handle_has(s, DRV_CONTEXT, c))
        r = CUDA_ERROR_INVALID_CONTEXT;
    else if (!version)
        r = CUDA_ERROR_INVALID_VALUE;
    else
        *version = API_VERSION;
    drv_unlock();
    return r;
}

/* Every launch has run by now: the context's sticky error, if a kernel faulted. */
CUresult cuCtxSynchronize(void)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r == CUDA_SUCCESS)
        drv_unlock();
    return r;
}

/* The state with cuInit done and dev the device, or the error (the lock not held). */
static CUresult enter_device(DrvState **s, CUdevice dev)
{
    CUresult r = drv_enter_init(s);
    if (r == CUDA_SUCCESS && dev != 0) {
        drv_unlock();
        r = CUDA_ERROR_INVALID_DEVICE;
    }
    return r;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev)
{
    DrvState *s;
    CUresult r = enter_device(&s, dev);
    if (r != CUDA_SUCCESS)
        return r;
    if (!ctx)
        r = CUDA_ERROR_INVALID_VALUE;
    else {
        if (!s->primary) {
            s->primary = xcalloc(1, sizeof *s->primary);
            s->primary->primary = true;
            drv_handle_add(s, DRV_CONTEXT, s->primary);
        }
        s->primary->retains++;
        *ctx = s->primary;
    }
    drv_unlock();
    return r;
}

/* The last release frees what was made in it (the context itself stays, for the next retain). */
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    DrvState *s;
    CUresult r = enter_device(&s, dev);
    if (r != CUDA_SUCCESS)
        return r;
    if (!s->primary || !s->primary->retains)
        r = CUDA_ERROR_INVALID_CONTEXT;
    else if (!--s->primary->retains)
        release(s, s->primary);
    drv_unlock();
    return r;
}

CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
    DrvState *s;
    CUresult r = enter_device(&s, dev);
    if (r != CUDA_SUCCESS)
        return r;
    if (s->primary)
        release(s, s->primary);
    drv_unlock();
    return r;
}

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned *flags, int *active)
{
    DrvState *s;
    CUresult r = enter_device(&s, dev);
    if (r != CUDA_SUCCESS)
        return r;
    if (!flags || !active)
        r = CUDA_ERROR_INVALID_VALUE;
    else {
        *flags = s->primary ? s->primary->flags : 0;
        *active = s->primary && s->primary->retains;
    }
    drv_unlock();
    return r;
}

CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned flags)
{
    DrvState *s;
    CUresult r = enter_device(&s, dev);
    if (r != CUDA_SUCCESS)
        return r;
    if (flags & ~(unsigned)CU_CTX_FLAGS_MASK)
        r = CUDA_ERROR_INVALID_VALUE;
    else {
        if (!s->primary) {
            s->primary = xcalloc(1, sizeof *s->primary);
            s->primary->primary = true;
            drv_handle_add(s, DRV_CONTEXT, s->primary);
        }
        s->primary->flags = flags;
    }
    drv_unlock();
    return r;
}

/* The limits a context has: each thread's stack for calls (ptxrun's, which CUDA's default of
 * 1 KiB matches; a module takes it when it loads), and the printf FIFO and malloc heap sizes,
 * which are taken and change nothing (printf has no FIFO here; device malloc is not run yet).
 * The others are CUDA_ERROR_UNSUPPORTED_LIMIT. */
enum { STACK_DEFAULT = 1024, STACK_MOST = 1 << 20, PRINTF_FIFO_DEFAULT = 1 << 20, HEAP_DEFAULT = 8 << 20 };

static size_t limit_value(CUcontext c, CUlimit limit)
{
    static const size_t defaults[] = { STACK_DEFAULT, PRINTF_FIFO_DEFAULT, HEAP_DEFAULT };
    return c->limits[limit] ? c->limits[limit] : defaults[limit];
}

CUresult cuCtxGetLimit(size_t *value, CUlimit limit)
{
    DrvState *s;
    CUcontext c;
    CUresult r = enter_current(&s, &c);
    if (r != CUDA_SUCCESS)
        return r;
    if (!value)
        r = CUDA_ERROR_INVALID_VALUE;
    else if ((unsigned)limit > CU_LIMIT_MALLOC_HEAP_SIZE)
        r = CUDA_ERROR_UNSUPPORTED_LIMIT;
    else
        *value = limit_value(c, limit);
    drv_unlock();
    return r;
}

CUresult cuCtxSetLimit(CUlimit limit, size_t value)
{
    DrvState *s;
    CUcontext c;
    CUresult r = drv_enter(&s, &c);
    if (r != CUDA_SUCCESS)
        return r;
    if ((unsigned)limit > CU_LIMIT_MALLOC_HEAP_SIZE)
        r = CUDA_ERROR_UNSUPPORTED_LIMIT;
    else if (limit == CU_LIMIT_STACK_SIZE && (value > STACK_MOST || !value))
        r = CUDA_ERROR_INVALID_VALUE;
    else {
        bool loaded = false;
        for (size_t i = 0; i < s->handle_count; i++)
            loaded |= s->handles[i].kind == DRV_MODULE && ((CUmodule)s->handles[i].p)->ctx == c;
        if (limit == CU_LIMIT_STACK_SIZE && loaded && value != limit_value(c, limit))
            drv_report(s, "ptxrun's libcuda: cuCtxSetLimit: a stack of %zu bytes a thread applies to modules loaded "
                          "from now on (a module's kernels are lowered when it loads)", value);
        c->limits[limit] = value;
    }
    drv_unlock();
    return r;
}
