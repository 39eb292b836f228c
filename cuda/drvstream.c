/* drvstream.c: streams and events. Work runs at once, on the host, so a stream is always done
 * and in order; an event records the host's time when it is recorded (the work before it is done
 * by then), and cuEventElapsedTime gives the time between two, which is what the work between
 * them took here. Requires: cuda.h. */
#include <stdlib.h>

#include "cuda.h"

CUresult cuStreamCreate(CUstream *stream, unsigned flags)
{
    return cuStreamCreateWithPriority(stream, flags, 0);
}

/* Priorities are taken (0 to -5 as on an H100, lower numbers first) and change nothing: streams
 * run at once. */
CUresult cuStreamCreateWithPriority(CUstream *stream, unsigned flags, int priority)
{
    DrvState *s;
    CUcontext ctx;
    CUresult r = drv_enter(&s, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!stream || flags & ~(unsigned)CU_STREAM_NON_BLOCKING)
        r = CUDA_ERROR_INVALID_VALUE;
    else {
        CUstream st = xcalloc(1, sizeof *st);
        *st = (struct CUstream_st){ ctx, flags, priority > 0 ? 0 : priority < -5 ? -5 : priority };
        drv_handle_add(s, DRV_STREAM, st);
        *stream = st;
    }
    drv_unlock();
    return r;
}

/* A stream's or an event's handle out of the table and freed; CUDA_ERROR_INVALID_HANDLE when it
 * is none of kind's. */
static CUresult destroy(DrvHandleKind kind, void *handle)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!drv_handle_has(s, kind, handle))
        r = CUDA_ERROR_INVALID_HANDLE;
    else {
        drv_handle_remove(s, handle);
        free(handle);
    }
    drv_unlock();
    return r;
}

CUresult cuStreamDestroy_v2(CUstream stream)
{
    return destroy(DRV_STREAM, stream);
}

/* A call on a stream that waits for nothing: the context's sticky error, or a bad handle. */
static CUresult stream_call(CUstream stream)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!drv_stream_ok(s, stream))
        r = CUDA_ERROR_INVALID_HANDLE;
    drv_unlock();
    return r;
}

CUresult cuStreamSynchronize(CUstream stream)
{
    return stream_call(stream);
}

CUresult cuStreamQuery(CUstream stream)
{
    return stream_call(stream);
}

CUresult cuStreamGetFlags(CUstream stream, unsigned *flags)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!drv_stream_ok(s, stream))
        r = CUDA_ERROR_INVALID_HANDLE;
    else if (!flags)
        r = CUDA_ERROR_INVALID_VALUE;
    else
        *flags = stream == CU_STREAM_LEGACY || stream == CU_STREAM_PER_THREAD || !stream ? 0 : stream->flags;
    drv_unlock();
    return r;
}

CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned flags)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!drv_stream_ok(s, stream) || !drv_handle_has(s, DRV_EVENT, event))
        r = CUDA_ERROR_INVALID_HANDLE;
    else if (flags > 1)        /* 0, or CU_EVENT_WAIT_EXTERNAL */
        r = CUDA_ERROR_INVALID_VALUE;
    drv_unlock();
    return r;
}

CUresult cuEventCreate(CUevent *event, unsigned flags)
{
    DrvState *s;
    CUcontext ctx;
    CUresult r = drv_enter(&s, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    unsigned known = CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;
    if (!event || (flags & ~known))
        r = CUDA_ERROR_INVALID_VALUE;
    else if ((flags & CU_EVENT_INTERPROCESS) && !(flags & CU_EVENT_DISABLE_TIMING))
        r = CUDA_ERROR_INVALID_VALUE;
    else {
        CUevent e = xcalloc(1, sizeof *e);
        e->ctx = ctx;
        e->flags = flags;
        drv_handle_add(s, DRV_EVENT, e);
        *event = e;
    }
    drv_unlock();
    return r;
}

CUresult cuEventRecord(CUevent event, CUstream stream)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!drv_handle_has(s, DRV_EVENT, event) || !drv_stream_ok(s, stream))
        r = CUDA_ERROR_INVALID_HANDLE;
    else {
        clock_gettime(CLOCK_MONOTONIC, &event->at);
        event->recorded = true;
    }
    drv_unlock();
    return r;
}

static CUresult event_call(CUevent event)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!drv_handle_has(s, DRV_EVENT, event))
        r = CUDA_ERROR_INVALID_HANDLE;
    drv_unlock();
    return r;
}

CUresult cuEventSynchronize(CUevent event)
{
    return event_call(event);
}

CUresult cuEventQuery(CUevent event)
{
    return event_call(event);
}

/* Both recorded, neither made with CU_EVENT_DISABLE_TIMING (else CUDA_ERROR_INVALID_HANDLE, as
 * CUDA's documentation says). */
CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent end)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!ms)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (!drv_handle_has(s, DRV_EVENT, start) || !drv_handle_has(s, DRV_EVENT, end) || !start->recorded
             || !end->recorded || ((start->flags | end->flags) & CU_EVENT_DISABLE_TIMING))
        r = CUDA_ERROR_INVALID_HANDLE;
    else
        *ms = (float)((double)(end->at.tv_sec - start->at.tv_sec) * 1e3
                      + (double)(end->at.tv_nsec - start->at.tv_nsec) / 1e6);
    drv_unlock();
    return r;
}

CUresult cuEventDestroy_v2(CUevent event)
{
    return destroy(DRV_EVENT, event);
}

CUresult cuStreamGetPriority(CUstream stream, int *priority)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!drv_stream_ok(s, stream))
        r = CUDA_ERROR_INVALID_HANDLE;
    else if (!priority)
        r = CUDA_ERROR_INVALID_VALUE;
    else
        *priority = drv_handle_has(s, DRV_STREAM, stream) ? stream->priority : 0;
    drv_unlock();
    return r;
}

CUresult cuStreamGetCtx(CUstream stream, CUcontext *ctx)
{
    DrvState *s;
    CUcontext current;
    CUresult r = drv_enter(&s, &current);
    if (r != CUDA_SUCCESS)
        return r;
    if (!drv_stream_ok(s, stream))
        r = CUDA_ERROR_INVALID_HANDLE;
    else if (!ctx)
        r = CUDA_ERROR_INVALID_VALUE;
    else
        *ctx = drv_handle_has(s, DRV_STREAM, stream) ? stream->ctx : current;
    drv_unlock();
    return r;
}

/* An H100's range: 0 (the least, the default) to -5. */
CUresult cuCtxGetStreamPriorityRange(int *least, int *greatest)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    drv_unlock();
    if (least)
        *least = 0;
    if (greatest)
        *greatest = -5;
    return CUDA_SUCCESS;
}

/* The work before it on the stream is done: the callback runs now, on the calling thread, given
 * the context's sticky error if a kernel faulted (as CUDA gives it the stream's error). */
CUresult cuStreamAddCallback(CUstream stream, CUstreamCallback callback, void *data, unsigned flags)
{
    DrvState *s;
    CUresult r = drv_enter_init(&s);
    if (r != CUDA_SUCCESS)
        return r;
    CUcontext ctx = drv_current();
    if (!ctx || !drv_handle_has(s, DRV_CONTEXT, ctx))
        r = CUDA_ERROR_INVALID_CONTEXT;
    else if (!drv_stream_ok(s, stream))
        r = CUDA_ERROR_INVALID_HANDLE;
    else if (!callback || flags)
        r = CUDA_ERROR_INVALID_VALUE;
    CUresult status = ctx && r == CUDA_SUCCESS ? ctx->sticky : CUDA_SUCCESS;
    drv_unlock();
    if (r == CUDA_SUCCESS)
        callback(stream, status, data);
    return r;
}

/* The host function runs now, on the calling thread (the work before it is done). */
CUresult cuLaunchHostFunc(CUstream stream, CUhostFn fn, void *data)
{
    DrvState *s;
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!drv_stream_ok(s, stream))
        r = CUDA_ERROR_INVALID_HANDLE;
    else if (!fn)
        r = CUDA_ERROR_INVALID_VALUE;
    drv_unlock();
    if (r == CUDA_SUCCESS)
        fn(data);
    return r;
}
