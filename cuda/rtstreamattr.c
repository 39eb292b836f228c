/* rtstreamattr.c: what a program may read back of a stream's attributes: its priority (the
 * driver's, clamped to the device's range [-5, 0], as cudaStreamGetPriority gives it). The
 * attributes cudaStreamSetAttribute takes and drops (rtstream.c: an L2 access policy window, a
 * synchronisation policy, memory sync domains change nothing on a host) are not kept, so reading
 * them back is refused by name rather than answered with a value never set. Requires: rtstate.c,
 * rterror.c. */
#include <string.h>

#include "rt.h"

cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr, cudaLaunchAttributeValue *value)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!value)
        return rt_fail(cudaErrorInvalidValue);
    if (attr != cudaLaunchAttributePriority)
        return rt_not_supported("cudaStreamGetAttribute", "reading back a stream attribute other than its priority");
    memset(value, 0, sizeof *value);
    return rt_return(cuStreamGetPriority(rt_stream(stream), &value->priority));
}

/* The per-thread default stream's name (rt.h). */
RT_SAME_AS(cudaStreamGetAttribute_ptsz, cudaStreamGetAttribute)
