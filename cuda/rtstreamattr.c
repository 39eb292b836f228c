/* rtstreamattr.c: what a program may say of a stream that changes nothing on a CPU, kept so that
 * it is given back: its attributes (an L2 access policy window, a synchronisation policy, a
 * memory sync domain: accepted and remembered, with no effect, since there is no L2 cache to
 * keep lines in and every stream runs in order on the host), the persisting L2 lines' reset, and
 * managed memory's attachment to a stream (every kernel reaches managed memory anyway). Its
 * priority is the driver's. Requires: rtstate.c, rterror.c. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

typedef struct StreamAttr {
    cudaStream_t stream;
    cudaLaunchAttributeID id;
    cudaLaunchAttributeValue value;
} StreamAttr;

static struct {
    pthread_mutex_t lock;
    StreamAttr *list;
    size_t count, cap;
} attrs = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The attributes a stream takes (CUDA's cudaStreamAttr*): the others are launch attributes only. */
static bool stream_attribute(cudaLaunchAttributeID id)
{
    return id == cudaLaunchAttributeAccessPolicyWindow || id == cudaLaunchAttributeSynchronizationPolicy ||
           id == cudaLaunchAttributeMemSyncDomainMap || id == cudaLaunchAttributeMemSyncDomain ||
           id == cudaLaunchAttributePriority;
}

static StreamAttr *find(cudaStream_t s, cudaLaunchAttributeID id)
{
    for (size_t i = 0; i < attrs.count; i++)
        if (attrs.list[i].stream == s && attrs.list[i].id == id)
            return &attrs.list[i];
    return NULL;
}

cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr, const cudaLaunchAttributeValue *value)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!value || !stream_attribute(attr))
        return rt_fail(cudaErrorInvalidValue);
    if (attr == cudaLaunchAttributePriority)
        return rt_not_supported("cudaStreamSetAttribute", "changing a stream's priority after it is made");
    unsigned flags;
    e = rt_return(cuStreamGetFlags(rt_stream(stream), &flags));     /* a stream the driver knows */
    if (e != cudaSuccess)
        return e;
    pthread_mutex_lock(&attrs.lock);
    StreamAttr *a = find(stream, attr);
    if (!a) {
        if (attrs.count == attrs.cap) {
            attrs.cap = attrs.cap ? attrs.cap * 2 : 8;
            attrs.list = realloc(attrs.list, attrs.cap * sizeof *attrs.list);
            if (!attrs.list)
                abort();
        }
        a = &attrs.list[attrs.count++];
        a->stream = stream;
        a->id = attr;
    }
    a->value = *value;
    pthread_mutex_unlock(&attrs.lock);
    return cudaSuccess;
}

cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr, cudaLaunchAttributeValue *value)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!value || !stream_attribute(attr))
        return rt_fail(cudaErrorInvalidValue);
    if (attr == cudaLaunchAttributePriority) {
        memset(value, 0, sizeof *value);
        return rt_return(cuStreamGetPriority(rt_stream(stream), &value->priority));
    }
    unsigned flags;
    e = rt_return(cuStreamGetFlags(rt_stream(stream), &flags));
    if (e != cudaSuccess)
        return e;
    pthread_mutex_lock(&attrs.lock);
    StreamAttr *a = find(stream, attr);
    memset(value, 0, sizeof *value);
    if (a)
        *value = a->value;
    else if (attr == cudaLaunchAttributeSynchronizationPolicy)
        value->pad[0] = 1;                  /* cudaSyncPolicyAuto, an int in the union's first bytes */
    pthread_mutex_unlock(&attrs.lock);
    return cudaSuccess;
}

cudaError_t cudaCtxResetPersistingL2Cache(void)
{
    return rt_enter();
}

/* Attaching managed memory to a stream orders nothing here: the stream's earlier work is done. */
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length, unsigned int flags)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!devPtr || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle))
        return rt_fail(cudaErrorInvalidValue);
    (void)length;
    return rt_return(cuStreamSynchronize(rt_stream(stream)));
}

cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!priority)
        return rt_fail(cudaErrorInvalidValue);
    return rt_return(cuStreamGetPriority(rt_stream(stream), priority));
}
