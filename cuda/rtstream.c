/* rtstream.c: streams and events, the driver's own (a cudaStream_t is a CUstream, a cudaEvent_t
 * a CUevent). Every stream runs its work in order on the host as it is issued, so a callback or
 * host function is run when it is enqueued, after what came before it in its stream. Events give
 * the host time between their records. Requires: rtstate.c, rterror.c. */
#include "rt.h"

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!pStream || (flags & ~(unsigned)cudaStreamNonBlocking))
        return rt_fail(cudaErrorInvalidValue);
    CUstream s = NULL;
    CUresult r = cuStreamCreateWithPriority(&s, flags, priority);
    *pStream = r == CUDA_SUCCESS ? (cudaStream_t)s : NULL;
    return rt_return(r);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    return cudaStreamCreateWithPriority(pStream, flags, 0);
}

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    return cudaStreamCreateWithPriority(pStream, 0, 0);
}

/* Destroying the NULL stream is an error (cudaErrorInvalidResourceHandle), as in CUDA. */
cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!rt_stream(stream))
        return rt_fail(cudaErrorInvalidResourceHandle);
    return rt_return(cuStreamDestroy_v2((CUstream)stream));
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return rt_return(cuStreamSynchronize(rt_stream(stream)));
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return rt_return(cuStreamQuery(rt_stream(stream)));
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return rt_return(cuStreamWaitEvent(rt_stream(stream), (CUevent)event, flags));
}

/* The stream has done everything before the callback when this returns: it is run now, with the
 * stream's status (the context's fault, if a kernel made one). */
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                  unsigned int flags)
{
    if (!callback || flags != 0)
        return rt_fail(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess && !rt_is_sticky(e))
        return e;
    CUresult r = cuStreamSynchronize(rt_stream(stream));
    cudaError_t status = rt_error_of(r);
    if (r != CUDA_SUCCESS && !rt_is_sticky(status))
        return rt_fail(status);
    callback(stream, status, userData);
    return rt_fail(status);
}

/* A host function enqueued on a stream: run once the stream's earlier work is done (now); not run
 * on a broken context, as CUDA does not. */
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    if (!fn)
        return rt_fail(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    e = rt_return(cuStreamSynchronize(rt_stream(stream)));
    if (e == cudaSuccess)
        fn(userData);
    return e;
}

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!flags)
        return rt_fail(cudaErrorInvalidValue);
    return rt_return(cuStreamGetFlags(rt_stream(stream), flags));
}

/* Attaching managed memory to a stream changes who may touch it when, which a host running every
 * stream in order never needs: checked and taken. */
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!priority)
        return rt_fail(cudaErrorInvalidValue);
    return rt_return(cuStreamGetPriority(rt_stream(stream), priority));
}

/* Every stream is the one device's. */
cudaError_t cudaStreamGetDevice(cudaStream_t stream, int *device)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!device)
        return rt_fail(cudaErrorInvalidValue);
    e = rt_return(cuStreamQuery(rt_stream(stream)));
    if (e == cudaSuccess)
        *device = rt_device();
    return e;
}

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length, unsigned int flags)
{
    (void)devPtr, (void)length;
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle)
        return rt_fail(cudaErrorInvalidValue);
    return rt_return(cuStreamQuery(rt_stream(stream)));
}

/* A stream's attributes that change nothing on a host (an L2 access policy, the synchronization
 * policy, memory sync domains, the priority) are taken; the others are refused by name. */
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr, const cudaLaunchAttributeValue *value)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!value)
        return rt_fail(cudaErrorInvalidValue);
    switch (attr) {
    case cudaLaunchAttributeAccessPolicyWindow: case cudaLaunchAttributeSynchronizationPolicy:
    case cudaLaunchAttributeMemSyncDomainMap: case cudaLaunchAttributeMemSyncDomain:
    case cudaLaunchAttributePriority:
        return rt_return(cuStreamQuery(rt_stream(stream)));
    default:
        return rt_not_supported("cudaStreamSetAttribute", "that stream attribute");
    }
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!event || (flags & ~(unsigned)(cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess)))
        return rt_fail(cudaErrorInvalidValue);
    CUevent ev = NULL;
    CUresult r = cuEventCreate(&ev, flags);
    *event = r == CUDA_SUCCESS ? (cudaEvent_t)ev : NULL;
    return rt_return(r);
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return cudaEventCreateWithFlags(event, 0);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return rt_return(cuEventRecord((CUevent)event, rt_stream(stream)));
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    if (flags & ~1u)
        return rt_fail(cudaErrorInvalidValue);
    return cudaEventRecord(event, stream);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return rt_return(cuEventSynchronize((CUevent)event));
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return rt_return(cuEventQuery((CUevent)event));
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!ms)
        return rt_fail(cudaErrorInvalidValue);
    return rt_return(cuEventElapsedTime_v2(ms, (CUevent)start, (CUevent)end));
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    return rt_return(cuEventDestroy_v2((CUevent)event));
}

/* The per-thread default stream's names (rt.h). */
RT_SAME_AS(cudaStreamQuery_ptsz, cudaStreamQuery)
RT_SAME_AS(cudaStreamGetFlags_ptsz, cudaStreamGetFlags)
RT_SAME_AS(cudaStreamGetPriority_ptsz, cudaStreamGetPriority)
RT_SAME_AS(cudaEventRecord_ptsz, cudaEventRecord)
RT_SAME_AS(cudaEventRecordWithFlags_ptsz, cudaEventRecordWithFlags)
RT_SAME_AS(cudaStreamWaitEvent_ptsz, cudaStreamWaitEvent)
RT_SAME_AS(cudaStreamAddCallback_ptsz, cudaStreamAddCallback)
RT_SAME_AS(cudaStreamAttachMemAsync_ptsz, cudaStreamAttachMemAsync)
RT_SAME_AS(cudaStreamSynchronize_ptsz, cudaStreamSynchronize)
RT_SAME_AS(cudaLaunchHostFunc_ptsz, cudaLaunchHostFunc)
RT_SAME_AS(cudaStreamSetAttribute_ptsz, cudaStreamSetAttribute)
RT_SAME_AS(cudaStreamGetDevice_ptsz, cudaStreamGetDevice)
