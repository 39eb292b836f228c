/* rtgraph.c: graphs as a program builds them: cudaGraphCreate, the nodes of each kind (kernel,
 * copy, memset, host function, empty, child graph, event record and wait, memory allocation and
 * free), their dependencies, what the program may ask of them, copies (cudaGraphClone) and
 * orders that respect the dependencies. A node's parameters are copied when it is made, a
 * kernel's argument bytes too (their sizes from the driver's cuFuncGetParamInfo). Requires:
 * rtpool.c (graph memory), rtstate.c, rterror.c. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rtgraph.h"

/* The graphs alive, so that a destroyed or made-up handle is refused without reading it. */
static struct {
    pthread_mutex_t lock;
    const void **live;
    size_t count, cap;
} handles = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t n = *cap ? *cap * 2 : 4;
    while (n < need)
        n *= 2;
    void *q = realloc(p, n * size);
    if (!q)
        abort();
    *cap = n;
    return q;
}

void rt_handle_add(const void *h)
{
    pthread_mutex_lock(&handles.lock);
    handles.live = grow(handles.live, &handles.cap, handles.count + 1, sizeof *handles.live);
    handles.live[handles.count++] = h;
    pthread_mutex_unlock(&handles.lock);
}

bool rt_handle_ok(const void *h)
{
    bool ok = false;
    pthread_mutex_lock(&handles.lock);
    for (size_t i = handles.count; h && i-- > 0 && !ok;)
        ok = handles.live[i] == h;
    pthread_mutex_unlock(&handles.lock);
    return ok;
}

void rt_handle_remove(const void *h)
{
    pthread_mutex_lock(&handles.lock);
    for (size_t i = handles.count; i-- > 0;)
        if (handles.live[i] == h) {
            handles.live[i] = handles.live[--handles.count];
            break;
        }
    pthread_mutex_unlock(&handles.lock);
}

bool rt_graph_ok(const RtGraph *g)
{
    return rt_handle_ok(g) && g->magic == RT_GRAPH_MAGIC;
}

RtGraph *rt_graph_new(void)
{
    RtGraph *g = calloc(1, sizeof *g);
    if (!g)
        abort();
    g->magic = RT_GRAPH_MAGIC;
    rt_handle_add(g);
    return g;
}

void rt_kernel_call_free(RtKernelCall *k)
{
    free(k->bytes);
    free(k->args);
    k->bytes = NULL;
    k->args = NULL;
}

static void conds_drop(RtConds *c)
{
    if (!c || --c->refs)
        return;
    for (size_t i = 0; i < c->count; i++)
        cuMemFree_v2(c->handles[i].slot);
    free(c->handles);
    free(c);
}

void rt_graph_node_free(RtGraphNode *n)
{
    if (n->type == cudaGraphNodeTypeKernel)
        rt_kernel_call_free(&n->u.kernel);
    else if (n->type == cudaGraphNodeTypeGraph)
        rt_graph_free(n->u.child);
    else if (n->type == cudaGraphNodeTypeConditional) {
        for (unsigned i = 0; i < n->u.cond.size; i++)
            rt_graph_free(n->u.cond.bodies[i]);
        free(n->u.cond.bodies);
    }
    else if (n->type == cudaGraphNodeTypeMemAlloc)
        rt_graph_block_drop(n->u.alloc.block);
    free(n->deps);
    free(n);
}

void rt_graph_free(RtGraph *g)
{
    for (size_t i = 0; i < g->count; i++)
        rt_graph_node_free(g->nodes[i]);
    free(g->nodes);
    conds_drop(g->conds);
    g->magic = 0;
    rt_handle_remove(g);
    free(g);
}

static void depend(RtGraphNode *n, RtGraphNode *on)
{
    for (size_t i = 0; i < n->dep_count; i++)
        if (n->deps[i] == on)
            return;
    n->deps = grow(n->deps, &n->dep_cap, n->dep_count + 1, sizeof *n->deps);
    n->deps[n->dep_count++] = on;
}

RtGraphNode *rt_graph_add(RtGraph *g, cudaGraphNodeType type, RtGraphNode *const *deps, size_t count,
                          cudaError_t *e)
{
    for (size_t i = 0; i < count; i++)
        if (!deps[i] || deps[i]->graph != g) {
            *e = cudaErrorInvalidValue;
            return NULL;
        }
    RtGraphNode *n = calloc(1, sizeof *n);
    if (!n)
        abort();
    n->graph = g;
    n->type = type;
    for (size_t i = 0; i < count; i++)
        depend(n, deps[i]);
    g->nodes = grow(g->nodes, &g->cap, g->count + 1, sizeof *g->nodes);
    n->index = g->count;
    g->nodes[g->count++] = n;
    *e = cudaSuccess;
    return n;
}

/* The arguments' bytes of f's launch, at the offsets the driver gives each parameter. */
cudaError_t rt_kernel_call_make(RtKernelCall *k, RtFunction *f, dim3 grid, dim3 block, size_t shared, void **args)
{
    memset(k, 0, sizeof *k);
    cudaError_t e = rt_function_load(f);
    if (e != cudaSuccess)
        return e;
    if (shared > 0xffffffffu)
        return rt_fail(cudaErrorInvalidValue);
    size_t offsets[1024], sizes[1024], end = 0;
    unsigned count = 0;
    for (;; count++) {
        CUresult r = count < 1024 ? cuFuncGetParamInfo(f->function, count, &offsets[count], &sizes[count])
                                  : CUDA_ERROR_INVALID_VALUE;
        if (r == CUDA_ERROR_INVALID_VALUE)
            break;
        if (r != CUDA_SUCCESS)
            return rt_return(r);
        if (offsets[count] + sizes[count] > end)
            end = offsets[count] + sizes[count];
    }
    if (count && !args)
        return rt_fail(cudaErrorInvalidValue);
    k->bytes = calloc(end ? end : 1, 1);
    k->args = calloc(count + 1, sizeof *k->args);
    if (!k->bytes || !k->args)
        abort();
    for (unsigned i = 0; i < count; i++) {
        if (!args[i]) {
            rt_kernel_call_free(k);
            return rt_fail(cudaErrorInvalidValue);
        }
        memcpy(k->bytes + offsets[i], args[i], sizes[i]);
        k->args[i] = k->bytes + offsets[i];
    }
    k->f = f;
    k->grid = grid;
    k->block = block;
    k->shared = (unsigned)shared;
    k->count = count;
    return cudaSuccess;
}

/* ---- the calls */

static cudaError_t start(RtGraph *g, RtGraphNode **out, const RtGraphNode *const *deps, size_t count)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!rt_graph_ok(g) || !out || (count && !deps))
        return rt_fail(cudaErrorInvalidValue);
    return cudaSuccess;
}

static cudaError_t add(RtGraphNode **out, RtGraph *g, cudaGraphNodeType type, const cudaGraphNode_t *deps,
                       size_t count, RtGraphNode **made)
{
    cudaError_t e = start(g, out, (const RtGraphNode *const *)deps, count);
    if (e != cudaSuccess)
        return e;
    *made = rt_graph_add(g, type, (RtGraphNode *const *)deps, count, &e);
    if (!*made)
        return rt_fail(e);
    *out = *made;
    return cudaSuccess;
}

/* A node just added is taken back when its parameters are refused. */
static cudaError_t take_back(RtGraphNode *n, cudaError_t e)
{
    RtGraph *g = n->graph;
    g->count--;
    n->type = cudaGraphNodeTypeEmpty;
    rt_graph_node_free(n);
    return e;
}

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
    if (!pGraph || flags)
        return rt_fail(cudaErrorInvalidValue);
    *pGraph = rt_graph_new();
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    if (!rt_graph_ok(graph))
        return rt_fail(cudaErrorInvalidValue);
    rt_graph_free(graph);
    return cudaSuccess;
}

static cudaError_t kernel_params(RtKernelCall *k, const struct cudaKernelNodeParams *p)
{
    if (!p)
        return rt_fail(cudaErrorInvalidValue);
    if (p->extra)
        return rt_not_supported("cudaGraphAddKernelNode", "a kernel node's arguments given by 'extra'");
    cudaError_t e = cudaSuccess;
    RtFunction *f = rt_function_find(p->func, &e);
    if (!f)
        return rt_fail(e);
    return rt_kernel_call_make(k, f, p->gridDim, p->blockDim, p->sharedMemBytes, p->kernelParams);
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct cudaKernelNodeParams *pNodeParams)
{
    RtGraphNode *n;
    cudaError_t e = add(pGraphNode, graph, cudaGraphNodeTypeKernel, pDependencies, numDependencies, &n);
    if (e != cudaSuccess)
        return e;
    e = kernel_params(&n->u.kernel, pNodeParams);
    return e == cudaSuccess ? e : take_back(n, e);
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *p)
{
    if (!node || !p || node->type != cudaGraphNodeTypeKernel)
        return rt_fail(cudaErrorInvalidValue);
    const RtKernelCall *k = &node->u.kernel;
    *p = (struct cudaKernelNodeParams){ (void *)k->f->host, k->grid, k->block, k->shared, k->args, NULL };
    return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *p)
{
    if (!node || node->type != cudaGraphNodeTypeKernel)
        return rt_fail(cudaErrorInvalidValue);
    RtKernelCall k;
    cudaError_t e = kernel_params(&k, p);
    if (e != cudaSuccess)
        return e;
    rt_kernel_call_free(&node->u.kernel);
    node->u.kernel = k;
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct cudaMemcpy3DParms *pCopyParams)
{
    if (!pCopyParams)
        return rt_fail(cudaErrorInvalidValue);
    if (pCopyParams->srcArray || pCopyParams->dstArray)
        return rt_not_supported("cudaGraphAddMemcpyNode", "CUDA arrays");
    if ((unsigned)pCopyParams->kind > cudaMemcpyDefault)
        return rt_fail(cudaErrorInvalidMemcpyDirection);
    RtGraphNode *n;
    cudaError_t e = add(pGraphNode, graph, cudaGraphNodeTypeMemcpy, pDependencies, numDependencies, &n);
    if (e == cudaSuccess)
        n->u.copy = *pCopyParams;
    return e;
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
                                     const void *src, size_t count, cudaMemcpyKind kind)
{
    struct cudaMemcpy3DParms p = {
        .srcPtr = { (void *)src, count, count, 1 }, .dstPtr = { dst, count, count, 1 },
        .extent = { count, 1, 1 }, .kind = kind,
    };
    if (count && (!dst || !src))
        return rt_fail(cudaErrorInvalidValue);
    return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &p);
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms *p)
{
    if (!node || !p || node->type != cudaGraphNodeTypeMemcpy)
        return rt_fail(cudaErrorInvalidValue);
    *p = node->u.copy;
    return cudaSuccess;
}

bool rt_memset_params_ok(const struct cudaMemsetParams *p)
{
    if (!p || !p->dst || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4))
        return false;
    if (p->height > 1 && p->pitch < p->width * p->elementSize)
        return false;
    return true;
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct cudaMemsetParams *pMemsetParams)
{
    if (!rt_memset_params_ok(pMemsetParams))
        return rt_fail(cudaErrorInvalidValue);
    RtGraphNode *n;
    cudaError_t e = add(pGraphNode, graph, cudaGraphNodeTypeMemset, pDependencies, numDependencies, &n);
    if (e == cudaSuccess)
        n->u.set = *pMemsetParams;
    return e;
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *p)
{
    if (!node || !p || node->type != cudaGraphNodeTypeMemset)
        return rt_fail(cudaErrorInvalidValue);
    *p = node->u.set;
    return cudaSuccess;
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                 size_t numDependencies, const struct cudaHostNodeParams *pNodeParams)
{
    if (!pNodeParams || !pNodeParams->fn)
        return rt_fail(cudaErrorInvalidValue);
    RtGraphNode *n;
    cudaError_t e = add(pGraphNode, graph, cudaGraphNodeTypeHost, pDependencies, numDependencies, &n);
    if (e == cudaSuccess)
        n->u.host = *pNodeParams;
    return e;
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *p)
{
    if (!node || !p || node->type != cudaGraphNodeTypeHost)
        return rt_fail(cudaErrorInvalidValue);
    *p = node->u.host;
    return cudaSuccess;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                  size_t numDependencies)
{
    RtGraphNode *n;
    return add(pGraphNode, graph, cudaGraphNodeTypeEmpty, pDependencies, numDependencies, &n);
}

/* A child graph is copied when the node is made (CUDA clones it too); its memory nodes would be
 * shared by both, which CUDA forbids: refused. */
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                       cudaGraph_t childGraph)
{
    if (!rt_graph_ok(childGraph) || childGraph == graph)
        return rt_fail(cudaErrorInvalidValue);
    for (size_t i = 0; i < childGraph->count; i++) {
        cudaGraphNodeType t = childGraph->nodes[i]->type;
        if (t == cudaGraphNodeTypeMemAlloc || t == cudaGraphNodeTypeMemFree)
            return rt_fail(cudaErrorNotSupported);
    }
    RtGraphNode *n;
    cudaError_t e = add(pGraphNode, graph, cudaGraphNodeTypeGraph, pDependencies, numDependencies, &n);
    if (e == cudaSuccess)
        n->u.child = rt_graph_copy(childGraph);
    return e;
}

static cudaError_t add_event(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                             size_t count, cudaEvent_t event, cudaGraphNodeType type)
{
    if (!event)
        return rt_fail(cudaErrorInvalidValue);
    RtGraphNode *n;
    cudaError_t e = add(pGraphNode, graph, type, deps, count, &n);
    if (e == cudaSuccess)
        n->u.event = event;
    return e;
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                        cudaEvent_t event)
{
    return add_event(pGraphNode, graph, pDependencies, numDependencies, event, cudaGraphNodeTypeEventRecord);
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                      const cudaGraphNode_t *pDependencies, size_t numDependencies, cudaEvent_t event)
{
    return add_event(pGraphNode, graph, pDependencies, numDependencies, event, cudaGraphNodeTypeWaitEvent);
}

/* The allocation's memory is made now: its address is the node's for the graph's life. */
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                     struct cudaMemAllocNodeParams *nodeParams)
{
    if (!nodeParams || nodeParams->bytesize == 0)
        return rt_fail(cudaErrorInvalidValue);
    if (nodeParams->poolProps.allocType != 1 || nodeParams->poolProps.location.type != 1 ||
        nodeParams->poolProps.location.id != rt_device())
        return rt_fail(cudaErrorInvalidValue);
    RtGraphNode *n;
    cudaError_t e = add(pGraphNode, graph, cudaGraphNodeTypeMemAlloc, pDependencies, numDependencies, &n);
    if (e != cudaSuccess)
        return e;
    n->u.alloc.block = rt_graph_block_new(nodeParams->bytesize, &e);
    if (!n->u.alloc.block)
        return take_back(n, rt_fail(e));
    nodeParams->dptr = rt_graph_block_address(n->u.alloc.block);
    n->u.alloc.params = *nodeParams;
    n->u.alloc.params.accessDescs = NULL;
    n->u.alloc.params.accessDescCount = 0;
    return cudaSuccess;
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *params_out)
{
    if (!node || !params_out || node->type != cudaGraphNodeTypeMemAlloc)
        return rt_fail(cudaErrorInvalidValue);
    *params_out = node->u.alloc.params;
    return cudaSuccess;
}

/* A free node frees what an allocation node of a graph gave (this graph's, or another's run
 * before). */
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dptr)
{
    if (!rt_graph_block_known(dptr))
        return rt_fail(cudaErrorInvalidValue);
    RtGraphNode *n;
    cudaError_t e = add(pGraphNode, graph, cudaGraphNodeTypeMemFree, pDependencies, numDependencies, &n);
    if (e == cudaSuccess)
        n->u.free_ptr = dptr;
    return e;
}

/* ---- conditional nodes */

/* A handle is the device address of 4 bytes the driver gives (so a kernel's
 * cudaGraphSetConditional reaches them), holding the condition: the default when the flag
 * cudaGraphCondAssignDefault (1) asks for it at each launch, else what was last set (0 at first). */
cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
                                             unsigned int defaultLaunchValue, unsigned int flags)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!pHandle_out || !rt_graph_ok(graph) || flags > 1)
        return rt_fail(cudaErrorInvalidValue);
    CUdeviceptr slot = 0;
    unsigned initial = flags ? defaultLaunchValue : 0;
    CUresult r = cuMemAlloc_v2(&slot, 4);
    if (r == CUDA_SUCCESS)
        r = cuMemcpyHtoD_v2(slot, &initial, 4);
    if (r != CUDA_SUCCESS)
        return rt_return(r);
    if (!graph->conds) {
        graph->conds = calloc(1, sizeof *graph->conds);
        if (!graph->conds)
            abort();
        graph->conds->refs = 1;
    }
    RtConds *c = graph->conds;
    c->handles = realloc(c->handles, (c->count + 1) * sizeof *c->handles);
    if (!c->handles)
        abort();
    c->handles[c->count++] = (struct RtCondHandle){ slot, defaultLaunchValue, flags == 1 };
    *pHandle_out = slot;
    return cudaSuccess;
}

/* Whether h is a handle some live graph made. */
static bool handle_known(cudaGraphConditionalHandle h)
{
    bool known = false;
    pthread_mutex_lock(&handles.lock);
    for (size_t i = 0; i < handles.count && !known; i++) {
        const RtGraph *g = handles.live[i];
        if (g->magic != RT_GRAPH_MAGIC || !g->conds)
            continue;
        for (size_t k = 0; k < g->conds->count && !known; k++)
            known = g->conds->handles[k].slot == h;
    }
    pthread_mutex_unlock(&handles.lock);
    return known;
}

unsigned rt_condition(cudaGraphConditionalHandle h)
{
    unsigned v = 0;
    if (cuMemcpyDtoH_v2(&v, (CUdeviceptr)h, 4) != CUDA_SUCCESS)
        v = 0;
    return v;
}

cudaError_t rt_conditions_start(const RtGraph *g)
{
    for (size_t i = 0; g->conds && i < g->conds->count; i++) {
        const struct RtCondHandle *h = &g->conds->handles[i];
        if (h->assign) {
            CUresult r = cuMemcpyHtoD_v2(h->slot, &h->initial, 4);
            if (r != CUDA_SUCCESS)
                return rt_return(r);
        }
    }
    return cudaSuccess;
}

/* An if (one or two bodies: then, else), while (one) or switch (size) node; its body graphs are
 * made empty, the caller's to fill (phGraph_out), and are the node's. */
static cudaError_t add_conditional(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                   size_t count, struct cudaConditionalNodeParams *p)
{
    if (!handle_known(p->handle))
        return rt_fail(cudaErrorInvalidValue);
    bool ok = (p->type == 0 && (p->size == 1 || p->size == 2)) || (p->type == 1 && p->size == 1) ||
              (p->type == 2 && p->size >= 1 && p->size <= 1024);
    if (!ok)
        return rt_fail(cudaErrorInvalidValue);
    RtGraphNode *n;
    cudaError_t e = add(pGraphNode, graph, cudaGraphNodeTypeConditional, deps, count, &n);
    if (e != cudaSuccess)
        return e;
    n->u.cond.handle = p->handle;
    n->u.cond.type = p->type;
    n->u.cond.size = p->size;
    n->u.cond.bodies = calloc(p->size, sizeof *n->u.cond.bodies);
    if (!n->u.cond.bodies)
        abort();
    for (unsigned i = 0; i < p->size; i++)
        n->u.cond.bodies[i] = rt_graph_new();
    p->phGraph_out = n->u.cond.bodies;
    return cudaSuccess;
}

/* cudaGraphAddNode: each kind by its own call. */
cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                             const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                             struct cudaGraphNodeParams *p)
{
    if (!p)
        return rt_fail(cudaErrorInvalidValue);
    for (size_t i = 0; dependencyData && i < numDependencies; i++)
        if (dependencyData[i].type || dependencyData[i].from_port || dependencyData[i].to_port)
            return rt_not_supported("cudaGraphAddNode", "programmatic dependencies (edge data)");
    switch (p->type) {
    case cudaGraphNodeTypeKernel:
        return cudaGraphAddKernelNode(pGraphNode, graph, pDependencies, numDependencies, &p->kernel);
    case cudaGraphNodeTypeMemcpy:
        return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset:
        return cudaGraphAddMemsetNode(pGraphNode, graph, pDependencies, numDependencies, &p->memset);
    case cudaGraphNodeTypeHost:
        return cudaGraphAddHostNode(pGraphNode, graph, pDependencies, numDependencies, &p->host);
    case cudaGraphNodeTypeGraph:
        return cudaGraphAddChildGraphNode(pGraphNode, graph, pDependencies, numDependencies, p->graph.graph);
    case cudaGraphNodeTypeEmpty:
        return cudaGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies);
    case cudaGraphNodeTypeEventRecord:
        return cudaGraphAddEventRecordNode(pGraphNode, graph, pDependencies, numDependencies, p->eventRecord.event);
    case cudaGraphNodeTypeWaitEvent:
        return cudaGraphAddEventWaitNode(pGraphNode, graph, pDependencies, numDependencies, p->eventWait.event);
    case cudaGraphNodeTypeMemAlloc:
        return cudaGraphAddMemAllocNode(pGraphNode, graph, pDependencies, numDependencies, &p->alloc);
    case cudaGraphNodeTypeMemFree:
        return cudaGraphAddMemFreeNode(pGraphNode, graph, pDependencies, numDependencies, p->free.dptr);
    case cudaGraphNodeTypeConditional:
        return add_conditional(pGraphNode, graph, pDependencies, numDependencies, &p->conditional);
    default:
        return rt_not_supported("cudaGraphAddNode", "this kind of node");
    }
}


cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                     const cudaGraphEdgeData *edgeData, size_t numDependencies)
{
    if (!rt_graph_ok(graph) || (numDependencies && (!from || !to)))
        return rt_fail(cudaErrorInvalidValue);
    for (size_t i = 0; i < numDependencies; i++) {
        if (!from[i] || !to[i] || from[i]->graph != graph || to[i]->graph != graph || from[i] == to[i])
            return rt_fail(cudaErrorInvalidValue);
        if (edgeData && (edgeData[i].type || edgeData[i].from_port || edgeData[i].to_port))
            return rt_not_supported("cudaGraphAddDependencies", "programmatic dependencies (edge data)");
    }
    for (size_t i = 0; i < numDependencies; i++)
        depend(to[i], from[i]);
    return cudaSuccess;
}

/* The usual answer of a list: the count when the array is NULL, else up to *count items. */
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
    if (!rt_graph_ok(graph) || !numNodes)
        return rt_fail(cudaErrorInvalidValue);
    if (nodes)
        for (size_t i = 0; i < *numNodes; i++)
            nodes[i] = i < graph->count ? graph->nodes[i] : NULL;
    if (!nodes || *numNodes > graph->count)
        *numNodes = graph->count;
    return cudaSuccess;
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes, size_t *pNumRootNodes)
{
    if (!rt_graph_ok(graph) || !pNumRootNodes)
        return rt_fail(cudaErrorInvalidValue);
    size_t n = 0;
    for (size_t i = 0; i < graph->count; i++)
        if (graph->nodes[i]->dep_count == 0) {
            if (pRootNodes && n < *pNumRootNodes)
                pRootNodes[n] = graph->nodes[i];
            n++;
        }
    if (pRootNodes)
        for (size_t i = n; i < *pNumRootNodes; i++)
            pRootNodes[i] = NULL;
    if (!pRootNodes || *pNumRootNodes > n)
        *pNumRootNodes = n;
    return cudaSuccess;
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                              cudaGraphEdgeData *edgeData, size_t *numEdges)
{
    if (!rt_graph_ok(graph) || !numEdges || (!from) != (!to))
        return rt_fail(cudaErrorInvalidValue);
    size_t n = 0;
    for (size_t i = 0; i < graph->count; i++)
        for (size_t d = 0; d < graph->nodes[i]->dep_count; d++) {
            if (from && n < *numEdges) {
                from[n] = graph->nodes[i]->deps[d];
                to[n] = graph->nodes[i];
                if (edgeData)
                    memset(&edgeData[n], 0, sizeof edgeData[n]);
            }
            n++;
        }
    if (from)
        for (size_t i = n; i < *numEdges; i++)
            from[i] = to[i] = NULL;
    if (!from || *numEdges > n)
        *numEdges = n;
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                         cudaGraphEdgeData *edgeData, size_t *pNumDependencies)
{
    if (!node || !pNumDependencies)
        return rt_fail(cudaErrorInvalidValue);
    for (size_t i = 0; pDependencies && i < *pNumDependencies; i++) {
        pDependencies[i] = i < node->dep_count ? node->deps[i] : NULL;
        if (edgeData)
            memset(&edgeData[i], 0, sizeof edgeData[i]);
    }
    if (!pDependencies || *pNumDependencies > node->dep_count)
        *pNumDependencies = node->dep_count;
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType *pType)
{
    if (!node || !pType)
        return rt_fail(cudaErrorInvalidValue);
    *pType = node->type;
    return cudaSuccess;
}

/* ---- copies and orders */

RtGraph *rt_graph_copy(const RtGraph *g)
{
    RtGraph *c = rt_graph_new();
    c->origin = g;
    c->conds = g->conds;
    if (c->conds)
        c->conds->refs++;
    c->nodes = calloc(g->count ? g->count : 1, sizeof *c->nodes);
    if (!c->nodes)
        abort();
    c->cap = g->count;
    for (size_t i = 0; i < g->count; i++) {
        const RtGraphNode *from = g->nodes[i];
        RtGraphNode *n = calloc(1, sizeof *n);
        if (!n)
            abort();
        *n = *from;
        n->graph = c;
        n->origin = from;
        n->deps = NULL;
        n->dep_count = n->dep_cap = 0;
        if (from->type == cudaGraphNodeTypeKernel) {
            const RtKernelCall *o = &from->u.kernel;
            if (rt_kernel_call_make(&n->u.kernel, o->f, o->grid, o->block, o->shared, o->args) != cudaSuccess)
                abort();      /* the same kernel's parameters, read before */
        } else if (from->type == cudaGraphNodeTypeGraph) {
            n->u.child = rt_graph_copy(from->u.child);
        } else if (from->type == cudaGraphNodeTypeMemAlloc) {
            rt_graph_block_hold(n->u.alloc.block);
        } else if (from->type == cudaGraphNodeTypeConditional) {
            n->u.cond.bodies = calloc(from->u.cond.size, sizeof *n->u.cond.bodies);
            if (!n->u.cond.bodies)
                abort();
            for (unsigned b = 0; b < from->u.cond.size; b++)
                n->u.cond.bodies[b] = rt_graph_copy(from->u.cond.bodies[b]);
        }
        c->nodes[c->count++] = n;
    }
    /* then the edges: a node may depend on one added after it (cudaGraphAddDependencies) */
    for (size_t i = 0; i < g->count; i++)
        for (size_t d = 0; d < g->nodes[i]->dep_count; d++)
            depend(c->nodes[i], c->nodes[g->nodes[i]->deps[d]->index]);
    return c;
}

cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    if (!pGraphClone || !rt_graph_ok(originalGraph))
        return rt_fail(cudaErrorInvalidValue);
    *pGraphClone = rt_graph_copy(originalGraph);
    return cudaSuccess;
}

/* Kahn's order: each round takes the first node (in the order added) whose dependencies are all
 * placed. */
bool rt_graph_order(const RtGraph *g, RtGraphNode **order)
{
    size_t n = g->count;
    bool *placed = calloc(n ? n : 1, sizeof *placed);
    if (!placed)
        abort();
    size_t done = 0;
    bool progress = true;
    while (done < n && progress) {
        progress = false;
        for (size_t i = 0; i < n; i++) {
            if (placed[i])
                continue;
            const RtGraphNode *x = g->nodes[i];
            bool ready = true;
            for (size_t d = 0; d < x->dep_count && ready; d++)
                ready = placed[x->deps[d]->index];
            if (ready) {
                placed[i] = true;
                order[done++] = g->nodes[i];
                progress = true;
                break;
            }
        }
    }
    free(placed);
    return done == n;
}
