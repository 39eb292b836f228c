/* rtgraphexec.c: instantiated graphs: cudaGraphInstantiate copies the graph and finds an order
 * that runs each node after all it depends on (a cycle is refused); cudaGraphLaunch runs the
 * nodes in that order, on the host, through the runtime's own calls on the launch's stream (a
 * kernel node is the launch __cudaLaunchKernel makes, a copy cudaMemcpy3DAsync, a memset the
 * driver's cuMemsetD2D*, a host node its function), stopping at the first error. Launched into a
 * capturing stream, a graph becomes a child graph node of the capture. Updates: a kernel node's
 * parameters (cudaGraphExecKernelNodeSetParams), or the parameters of a whole graph of the same
 * shape (cudaGraphExecUpdate). Requires: rtgraph.c, rtpool.c, rtcapture.c, rtstate.c,
 * rterror.c. */
#include <stdlib.h>
#include <string.h>

#include "rtgraph.h"

struct RtGraphExec {
    RtGraph *graph;            /* the copy that runs */
    RtGraphNode **order;
    unsigned long long flags;
    unsigned long long magic;
};
#define EXEC_MAGIC 0x67726170685f6578ull

static bool exec_ok(const struct RtGraphExec *x)
{
    return rt_handle_ok(x) && x->magic == EXEC_MAGIC;
}

static cudaError_t instantiate(cudaGraphExec_t *out, cudaGraph_t graph, unsigned long long flags)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!out || !rt_graph_ok(graph))
        return rt_fail(cudaErrorInvalidValue);
    if (flags & cudaGraphInstantiateFlagDeviceLaunch)
        return rt_not_supported("cudaGraphInstantiate", "graphs launched from the device");
    if (flags & ~(unsigned long long)(cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload |
                                      cudaGraphInstantiateFlagUseNodePriority))
        return rt_fail(cudaErrorInvalidValue);
    RtGraphNode **order = calloc(graph->count ? graph->count : 1, sizeof *order);
    if (!order)
        abort();
    if (!rt_graph_order(graph, order)) {
        free(order);
        rt_say("ptxrun's libcudart: cudaGraphInstantiate: the graph's dependencies make a cycle");
        return rt_fail(cudaErrorInvalidValue);
    }
    struct RtGraphExec *x = calloc(1, sizeof *x);
    if (!x)
        abort();
    x->graph = rt_graph_copy(graph);
    for (size_t i = 0; i < graph->count; i++)
        order[i] = x->graph->nodes[order[i]->index];
    x->order = order;
    x->flags = flags;
    x->magic = EXEC_MAGIC;
    rt_handle_add(x);
    *out = x;
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    return instantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    return instantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams *p)
{
    if (!p)
        return rt_fail(cudaErrorInvalidValue);
    cudaError_t e = instantiate(pGraphExec, graph, p->flags);
    p->errNode_out = NULL;
    p->result_out = e == cudaSuccess ? 0 : 1;
    return e;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
    if (!exec_ok(graphExec))
        return rt_fail(cudaErrorInvalidValue);
    graphExec->magic = 0;
    rt_handle_remove(graphExec);
    rt_graph_free(graphExec->graph);
    free(graphExec->order);
    free(graphExec);
    return cudaSuccess;
}

static cudaError_t run_graph(const RtGraph *g, RtGraphNode *const *order, cudaStream_t s);

/* A child graph or a conditional node's body, in an order of its own. */
static cudaError_t run_child(const RtGraph *child, cudaStream_t s)
{
    RtGraphNode **order = calloc(child->count ? child->count : 1, sizeof *order);
    if (!order)
        abort();
    cudaError_t e = rt_graph_order(child, order) ? run_graph(child, order, s) : rt_fail(cudaErrorInvalidValue);
    free(order);
    return e;
}

enum { WHILE_MOST = 100000000 };   /* a while node's iterations before it is stopped as a hang */

/* A conditional node reads its condition when it runs (a while node before each iteration). */
static cudaError_t run_conditional(const RtGraphNode *n, cudaStream_t s)
{
    unsigned v = rt_condition(n->u.cond.handle);
    switch (n->u.cond.type) {
    case 0:
        if (v || n->u.cond.size == 2)
            return run_child(n->u.cond.bodies[v ? 0 : 1], s);
        return cudaSuccess;
    case 1:
        for (unsigned long i = 0; v; i++, v = rt_condition(n->u.cond.handle)) {
            if (i == WHILE_MOST) {
                rt_say("ptxrun's libcudart: cudaGraphLaunch: a while node ran its body %d times and its condition "
                       "is still set: stopped as a hang", WHILE_MOST);
                return rt_fail(cudaErrorLaunchTimeout);
            }
            cudaError_t e = run_child(n->u.cond.bodies[0], s);
            if (e != cudaSuccess)
                return e;
        }
        return cudaSuccess;
    default:
        return v < n->u.cond.size ? run_child(n->u.cond.bodies[v], s) : cudaSuccess;
    }
}

/* A memset node: rows of width elements of 1, 2 or 4 bytes. */
static cudaError_t run_memset(const struct cudaMemsetParams *p, cudaStream_t s)
{
    CUdeviceptr d = (CUdeviceptr)(uintptr_t)p->dst;
    size_t pitch = p->height > 1 ? p->pitch : p->width * p->elementSize;
    CUstream st = rt_stream(s);
    CUresult r = p->elementSize == 1 ? cuMemsetD2D8Async(d, pitch, (unsigned char)p->value, p->width, p->height, st)
               : p->elementSize == 2 ? cuMemsetD2D16Async(d, pitch, (unsigned short)p->value, p->width, p->height, st)
               : cuMemsetD2D32Async(d, pitch, p->value, p->width, p->height, st);
    return rt_return(r);
}

static cudaError_t run_node(RtGraphNode *n, cudaStream_t s)
{
    if (n->disabled)
        return cudaSuccess;
    switch (n->type) {
    case cudaGraphNodeTypeKernel: {
        const RtKernelCall *k = &n->u.kernel;
        return __cudaLaunchKernel(k->f, k->grid, k->block, k->args, k->shared, s);
    }
    case cudaGraphNodeTypeMemcpy:
        return cudaMemcpy3DAsync(&n->u.copy, s);
    case cudaGraphNodeTypeMemset:
        return run_memset(&n->u.set, s);
    case cudaGraphNodeTypeHost: {
        cudaError_t e = rt_return(cuStreamSynchronize(rt_stream(s)));
        if (e == cudaSuccess)
            n->u.host.fn(n->u.host.userData);
        return e;
    }
    case cudaGraphNodeTypeGraph:
        return run_child(n->u.child, s);
    case cudaGraphNodeTypeConditional:
        return run_conditional(n, s);
    case cudaGraphNodeTypeEventRecord:
        return cudaEventRecord(n->u.event, s);
    case cudaGraphNodeTypeWaitEvent:
        return cudaStreamWaitEvent(s, n->u.event, 0);
    case cudaGraphNodeTypeMemAlloc:
        if (rt_graph_block_alloc(n->u.alloc.block) != cudaSuccess) {
            rt_say("ptxrun's libcudart: cudaGraphLaunch: a graph allocation of %zu bytes is still in use "
                   "from an earlier launch (free it, or instantiate with cudaGraphInstantiateFlagAutoFreeOnLaunch)",
                   n->u.alloc.params.bytesize);
            return rt_fail(cudaErrorInvalidValue);
        }
        return cudaSuccess;
    case cudaGraphNodeTypeMemFree:
        return rt_graph_block_free_at(n->u.free_ptr) == cudaSuccess ? cudaSuccess : rt_fail(cudaErrorInvalidValue);
    case cudaGraphNodeTypeEmpty:
        return cudaSuccess;
    default:
        return rt_not_supported("cudaGraphLaunch", "this kind of node");
    }
}

static cudaError_t run_graph(const RtGraph *g, RtGraphNode *const *order, cudaStream_t s)
{
    for (size_t i = 0; i < g->count; i++) {
        cudaError_t e = run_node(order[i], s);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!exec_ok(graphExec))
        return rt_fail(cudaErrorInvalidValue);
    RtGraph *g = graphExec->graph;
    if (rt_capturing(stream))
        return rt_capture_graph(stream, g);
    for (size_t i = 0; i < g->count; i++) {
        RtGraphNode *n = g->nodes[i];
        if (n->type == cudaGraphNodeTypeMemAlloc && rt_graph_block_live(n->u.alloc.block) &&
            (graphExec->flags & cudaGraphInstantiateFlagAutoFreeOnLaunch))
            rt_graph_block_free_at(rt_graph_block_address(n->u.alloc.block));
    }
    e = rt_conditions_start(g);
    return e == cudaSuccess ? run_graph(g, graphExec->order, stream) : e;
}

/* Nothing to move to a device: the exec is ready once instantiated. */
cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    (void)stream;
    return exec_ok(graphExec) ? cudaSuccess : rt_fail(cudaErrorInvalidValue);
}

/* The exec's node that node (of the graph instantiated) became. */
static RtGraphNode *exec_node(cudaGraphExec_t x, cudaGraphNode_t node)
{
    if (!exec_ok(x) || !node)
        return NULL;
    for (size_t i = 0; i < x->graph->count; i++)
        if (x->graph->nodes[i]->origin == node)
            return x->graph->nodes[i];
    return NULL;
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *p)
{
    RtGraphNode *n = exec_node(hGraphExec, node);
    if (!n || n->type != cudaGraphNodeTypeKernel || !p)
        return rt_fail(cudaErrorInvalidValue);
    if (p->extra)
        return rt_not_supported("cudaGraphExecKernelNodeSetParams", "a kernel node's arguments given by 'extra'");
    cudaError_t e = cudaSuccess;
    RtFunction *f = rt_function_find(p->func, &e);
    if (!f)
        return rt_fail(e);
    RtKernelCall k;
    e = rt_kernel_call_make(&k, f, p->gridDim, p->blockDim, p->sharedMemBytes, p->kernelParams);
    if (e != cudaSuccess)
        return e;
    rt_kernel_call_free(&n->u.kernel);
    n->u.kernel = k;
    return cudaSuccess;
}

/* Why g's node i cannot take the place of the exec's (cudaGraphExecUpdateSuccess when it can). */
static cudaGraphExecUpdateResult differs(const RtGraphNode *old, const RtGraphNode *new)
{
    if (old->type != new->type)
        return cudaGraphExecUpdateErrorNodeTypeChanged;
    if (old->dep_count != new->dep_count)
        return cudaGraphExecUpdateErrorTopologyChanged;
    for (size_t d = 0; d < old->dep_count; d++)
        if (old->deps[d]->index != new->deps[d]->index)
            return cudaGraphExecUpdateErrorTopologyChanged;
    switch (old->type) {
    case cudaGraphNodeTypeKernel:
        return old->u.kernel.f == new->u.kernel.f ? cudaGraphExecUpdateSuccess
                                                  : cudaGraphExecUpdateErrorFunctionChanged;
    case cudaGraphNodeTypeMemAlloc: case cudaGraphNodeTypeMemFree: case cudaGraphNodeTypeGraph:
    case cudaGraphNodeTypeEventRecord: case cudaGraphNodeTypeWaitEvent:
        return memcmp(&old->u, &new->u, sizeof old->u) ? cudaGraphExecUpdateErrorNotSupported
                                                       : cudaGraphExecUpdateSuccess;
    default:
        return cudaGraphExecUpdateSuccess;
    }
}

/* The exec takes the parameters of hGraph's nodes when hGraph has the same nodes, kinds and
 * dependencies in the same order (what CUDA's rules come to for graphs made the same way, as a
 * capture repeated); else nothing changes and the result says why. */
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph, cudaGraphExecUpdateResultInfo *info)
{
    cudaGraphExecUpdateResultInfo r = { cudaGraphExecUpdateSuccess, NULL, NULL };
    if (!exec_ok(hGraphExec) || !rt_graph_ok(hGraph)) {
        r.result = cudaGraphExecUpdateError;
        if (info)
            *info = r;
        return rt_fail(cudaErrorInvalidValue);
    }
    RtGraph *old = hGraphExec->graph;
    if (old->count != hGraph->count)
        r.result = cudaGraphExecUpdateErrorTopologyChanged;
    for (size_t i = 0; r.result == cudaGraphExecUpdateSuccess && i < old->count; i++)
        if ((r.result = differs(old->nodes[i], hGraph->nodes[i])) != cudaGraphExecUpdateSuccess)
            r.errorNode = hGraph->nodes[i];
    RtKernelCall *made = calloc(old->count ? old->count : 1, sizeof *made);
    if (!made)
        abort();
    for (size_t i = 0; r.result == cudaGraphExecUpdateSuccess && i < old->count; i++) {
        const RtGraphNode *n = hGraph->nodes[i];
        if (n->type == cudaGraphNodeTypeKernel) {
            const RtKernelCall *k = &n->u.kernel;
            if (rt_kernel_call_make(&made[i], k->f, k->grid, k->block, k->shared, k->args) != cudaSuccess) {
                r.result = cudaGraphExecUpdateError;
                r.errorNode = hGraph->nodes[i];
            }
        }
    }
    for (size_t i = 0; i < old->count; i++) {
        RtGraphNode *o = old->nodes[i];
        const RtGraphNode *n = hGraph->nodes[i];
        if (r.result != cudaGraphExecUpdateSuccess) {
            rt_kernel_call_free(&made[i]);
            continue;
        }
        switch (o->type) {
        case cudaGraphNodeTypeKernel:
            rt_kernel_call_free(&o->u.kernel);
            o->u.kernel = made[i];
            break;
        case cudaGraphNodeTypeMemcpy: o->u.copy = n->u.copy; break;
        case cudaGraphNodeTypeMemset: o->u.set = n->u.set; break;
        case cudaGraphNodeTypeHost: o->u.host = n->u.host; break;
        default: break;
        }
    }
    free(made);
    if (info)
        *info = r;
    return r.result == cudaGraphExecUpdateSuccess ? cudaSuccess : rt_fail(cudaErrorGraphExecUpdateFailure);
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemcpy3DParms *p)
{
    RtGraphNode *n = exec_node(hGraphExec, node);
    if (!n)
        return rt_fail(cudaErrorInvalidValue);
    return cudaGraphMemcpyNodeSetParams(n, p);
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemsetParams *p)
{
    RtGraphNode *n = exec_node(hGraphExec, node);
    if (!n)
        return rt_fail(cudaErrorInvalidValue);
    return cudaGraphMemsetNodeSetParams(n, p);
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                           const struct cudaHostNodeParams *p)
{
    RtGraphNode *n = exec_node(hGraphExec, node);
    if (!n)
        return rt_fail(cudaErrorInvalidValue);
    return cudaGraphHostNodeSetParams(n, p);
}

/* A disabled node runs as an empty one (kernel, copy and memset nodes only, as CUDA allows). */
cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int isEnabled)
{
    RtGraphNode *n = exec_node(hGraphExec, hNode);
    if (!n || (n->type != cudaGraphNodeTypeKernel && n->type != cudaGraphNodeTypeMemcpy &&
               n->type != cudaGraphNodeTypeMemset))
        return rt_fail(cudaErrorInvalidValue);
    n->disabled = isEnabled == 0;
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int *isEnabled)
{
    RtGraphNode *n = exec_node(hGraphExec, hNode);
    if (!n || !isEnabled)
        return rt_fail(cudaErrorInvalidValue);
    *isEnabled = !n->disabled;
    return cudaSuccess;
}

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags)
{
    if (!exec_ok(graphExec) || !flags)
        return rt_fail(cudaErrorInvalidValue);
    *flags = graphExec->flags;
    return cudaSuccess;
}

/* The per-thread default stream's names (rt.h). */
RT_SAME_AS(cudaGraphLaunch_ptsz, cudaGraphLaunch)
RT_SAME_AS(cudaGraphUpload_ptsz, cudaGraphUpload)
RT_SAME_AS(cudaGraphInstantiateWithParams_ptsz, cudaGraphInstantiateWithParams)
