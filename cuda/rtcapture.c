/* rtcapture.c: stream capture. Between cudaStreamBeginCapture and cudaStreamEndCapture a stream's
 * work (launches, copies, memsets, host functions, stream-ordered allocations and frees, graph
 * launches) becomes nodes of the capture's graph instead of running: each new node depends on the
 * stream's last ones (its capture dependencies). An event recorded in a capturing stream carries
 * those dependencies; a stream that waits for it joins the capture (CUDA's fork and join across
 * streams). The legacy NULL stream cannot capture (cudaErrorStreamCaptureUnsupported); the
 * per-thread default stream can (each thread's its own). The
 * thread's capture mode (cudaThreadExchangeStreamCaptureMode) changes nothing here: no call that
 * a capture forbids on a GPU is refused because of another stream's capture. Requires:
 * rtgraph.c, rtstate.c, rterror.c. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rtgraph.h"

typedef struct Capture {
    RtGraph *graph;
    bool owned;                /* made by BeginCapture (EndCapture gives it), not ToGraph's */
    unsigned long long id;
    cudaStreamCaptureStatus status;
    cudaStream_t origin;
} Capture;

/* A stream in a capture, or an event recorded in one: its capture and dependencies. */
typedef struct Party {
    const void *key;           /* the cudaStream_t or cudaEvent_t */
    Capture *capture;
    RtGraphNode **deps;
    cudaGraphEdgeData *edges;  /* zeros, as many as deps (cudaStreamGetCaptureInfo's edge data) */
    size_t count, cap;
} Party;

static struct {
    pthread_mutex_t lock;
    atomic_int active;         /* captures begun and not ended: 0 makes rt_capturing free */
    Party *streams, *events;
    size_t stream_count, stream_cap, event_count, event_cap;
    unsigned long long next_id;
} cap = { .lock = PTHREAD_MUTEX_INITIALIZER };

static Party *find(Party *list, size_t count, const void *key)
{
    for (size_t i = 0; i < count; i++)
        if (list[i].key == key)
            return &list[i];
    return NULL;
}

static void set_deps(Party *p, RtGraphNode *const *deps, size_t count)
{
    if (count > p->cap) {
        p->cap = count * 2;
        p->deps = realloc(p->deps, p->cap * sizeof *p->deps);
        p->edges = realloc(p->edges, p->cap * sizeof *p->edges);
        if (!p->deps || !p->edges)
            abort();
    }
    if (count) {
        memmove(p->deps, deps, count * sizeof *deps);
        memset(p->edges, 0, count * sizeof *p->edges);
    }
    p->count = count;
}

static void add_deps(Party *p, RtGraphNode *const *deps, size_t count)
{
    RtGraphNode **all = malloc((p->count + count + 1) * sizeof *all);
    if (!all)
        abort();
    size_t n = p->count;
    if (n)
        memcpy(all, p->deps, n * sizeof *all);
    for (size_t i = 0; i < count; i++) {
        bool seen = false;
        for (size_t j = 0; j < n && !seen; j++)
            seen = all[j] == deps[i];
        if (!seen)
            all[n++] = deps[i];
    }
    set_deps(p, all, n);
    free(all);
}

static Party *join(Party **list, size_t *count, size_t *capacity, const void *key, Capture *c)
{
    if (*count == *capacity) {
        *capacity = *capacity ? *capacity * 2 : 8;
        *list = realloc(*list, *capacity * sizeof **list);
        if (!*list)
            abort();
    }
    Party *p = &(*list)[(*count)++];
    *p = (Party){ .key = key, .capture = c };
    return p;
}

static void leave(Party *list, size_t *count, Party *p)
{
    free(p->deps);
    free(p->edges);
    *p = list[--*count];
}

/* A stream the runtime names may capture: not the legacy NULL stream (CUDA refuses only that
 * one); the per-thread default stream may, each thread's its own. */
static bool capturable(cudaStream_t s)
{
    return s == cudaStreamPerThread || rt_stream(s) != NULL;
}

/* What a stream is known by in the capture lists: the per-thread default stream is the thread's. */
static const void *stream_key(cudaStream_t s)
{
    static _Thread_local char per_thread;
    return s == cudaStreamPerThread ? (const void *)&per_thread : (const void *)s;
}

bool rt_capturing(cudaStream_t s)
{
    if (atomic_load(&cap.active) == 0 || !capturable(s))
        return false;
    pthread_mutex_lock(&cap.lock);
    bool yes = find(cap.streams, cap.stream_count, stream_key(s)) != NULL;
    pthread_mutex_unlock(&cap.lock);
    return yes;
}

/* The stream's new node of type, after its dependencies, its parameters copied from params; it
 * becomes the stream's one dependency. The lock is held. */
static cudaError_t add_locked(Party *p, cudaGraphNodeType type, const void *params, size_t size, RtGraphNode **out)
{
    if (p->capture->status != cudaStreamCaptureStatusActive)
        return cudaErrorStreamCaptureInvalidated;
    cudaError_t e;
    RtGraphNode *n = rt_graph_add(p->capture->graph, type, p->deps, p->count, &e);
    if (!n)
        return e;
    if (params)
        memcpy(&n->u, params, size);
    set_deps(p, &n, 1);
    if (out)
        *out = n;
    return cudaSuccess;
}

static cudaError_t add(cudaStream_t s, cudaGraphNodeType type, const void *params, size_t size)
{
    pthread_mutex_lock(&cap.lock);
    Party *p = find(cap.streams, cap.stream_count, stream_key(s));
    cudaError_t e = p ? add_locked(p, type, params, size, NULL) : cudaErrorStreamCaptureUnmatched;
    pthread_mutex_unlock(&cap.lock);
    return e == cudaSuccess ? e : rt_fail(e);
}

cudaError_t rt_capture_kernel(cudaStream_t s, RtFunction *f, dim3 grid, dim3 block, size_t shared, void **args)
{
    RtKernelCall k;
    cudaError_t e = rt_kernel_call_make(&k, f, grid, block, shared, args);
    if (e != cudaSuccess)
        return e;
    e = add(s, cudaGraphNodeTypeKernel, &k, sizeof k);
    if (e != cudaSuccess)
        rt_kernel_call_free(&k);
    return e;
}

cudaError_t rt_capture_copy(cudaStream_t s, const struct cudaMemcpy3DParms *p)
{
    return add(s, cudaGraphNodeTypeMemcpy, p, sizeof *p);
}

cudaError_t rt_capture_memset(cudaStream_t s, void *dst, size_t pitch, unsigned value, unsigned element_size,
                              size_t width, size_t height)
{
    struct cudaMemsetParams p = { dst, pitch, value, element_size, width, height };
    return add(s, cudaGraphNodeTypeMemset, &p, sizeof p);
}

cudaError_t rt_capture_host(cudaStream_t s, cudaHostFn_t fn, void *data)
{
    struct cudaHostNodeParams p = { fn, data };
    return add(s, cudaGraphNodeTypeHost, &p, sizeof p);
}

cudaError_t rt_capture_graph(cudaStream_t s, const RtGraph *g)
{
    for (size_t i = 0; i < g->count; i++)
        if (g->nodes[i]->type == cudaGraphNodeTypeMemAlloc || g->nodes[i]->type == cudaGraphNodeTypeMemFree)
            return rt_not_supported("cudaGraphLaunch", "a graph with memory nodes launched into a capturing stream");
    RtGraph *child = rt_graph_copy(g);
    cudaError_t e = add(s, cudaGraphNodeTypeGraph, &child, sizeof child);
    if (e != cudaSuccess)
        rt_graph_free(child);
    return e;
}

/* Allocation and free nodes are made by the graph calls (the memory is made with the node). */
static cudaError_t memory_node(cudaStream_t s, void **p, size_t size, void *freed)
{
    pthread_mutex_lock(&cap.lock);
    Party *party = find(cap.streams, cap.stream_count, stream_key(s));
    cudaError_t e = !party ? cudaErrorStreamCaptureUnmatched
                  : party->capture->status != cudaStreamCaptureStatusActive ? cudaErrorStreamCaptureInvalidated
                  : cudaSuccess;
    if (e == cudaSuccess) {
        RtGraphNode *n = NULL;
        if (p) {
            struct cudaMemAllocNodeParams a = { .poolProps = { .allocType = 1, .location = { 1, rt_device() } },
                                                .bytesize = size };
            e = cudaGraphAddMemAllocNode(&n, party->capture->graph, party->deps, party->count, &a);
            if (e == cudaSuccess)
                *p = a.dptr;
        } else {
            e = cudaGraphAddMemFreeNode(&n, party->capture->graph, party->deps, party->count, freed);
        }
        if (e == cudaSuccess)
            set_deps(party, &n, 1);
    }
    pthread_mutex_unlock(&cap.lock);
    return e == cudaSuccess ? e : rt_fail(e);
}

cudaError_t rt_capture_malloc(cudaStream_t s, void **p, size_t size)
{
    if (!p || size == 0)
        return rt_fail(cudaErrorInvalidValue);
    return memory_node(s, p, size, NULL);
}

cudaError_t rt_capture_free(cudaStream_t s, void *p)
{
    return memory_node(s, NULL, 0, p);
}

bool rt_capture_record(cudaEvent_t event, cudaStream_t s, cudaError_t *e)
{
    if (atomic_load(&cap.active) == 0 && cap.event_count == 0)
        return false;
    pthread_mutex_lock(&cap.lock);
    Party *ev = find(cap.events, cap.event_count, event);
    Party *p = capturable(s) ? find(cap.streams, cap.stream_count, stream_key(s)) : NULL;
    if (p) {
        if (!ev)
            ev = join(&cap.events, &cap.event_count, &cap.event_cap, event, p->capture);
        ev->capture = p->capture;
        set_deps(ev, p->deps, p->count);
        *e = cudaSuccess;
    } else if (ev) {
        leave(cap.events, &cap.event_count, ev);
    }
    pthread_mutex_unlock(&cap.lock);
    return p != NULL;
}

/* A wait for an event recorded in a capture: the stream joins that capture (or, in it already,
 * takes the event's dependencies too). A capturing stream's wait for an event recorded outside
 * every capture waits for nothing: that work is done. */
bool rt_capture_wait(cudaStream_t s, cudaEvent_t event, cudaError_t *e)
{
    if (atomic_load(&cap.active) == 0)
        return false;
    pthread_mutex_lock(&cap.lock);
    Party *ev = find(cap.events, cap.event_count, event);
    Party *p = capturable(s) ? find(cap.streams, cap.stream_count, stream_key(s)) : NULL;
    bool taken = ev || p;
    *e = cudaSuccess;
    if (ev && !capturable(s)) {
        *e = cudaErrorStreamCaptureImplicit;
    } else if (ev && p && p->capture != ev->capture) {
        *e = cudaErrorStreamCaptureMerge;
    } else if (ev && p) {
        add_deps(p, ev->deps, ev->count);
    } else if (ev) {
        p = join(&cap.streams, &cap.stream_count, &cap.stream_cap, stream_key(s), ev->capture);
        ev = find(cap.events, cap.event_count, event);     /* join may have moved nothing; look again */
        set_deps(p, ev->deps, ev->count);
    }
    pthread_mutex_unlock(&cap.lock);
    if (*e != cudaSuccess)
        rt_fail(*e);
    return taken;
}

/* ---- the calls */

static cudaError_t begin(cudaStream_t s, RtGraph *graph, RtGraphNode *const *deps, size_t count, int mode)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if ((unsigned)mode > cudaStreamCaptureModeRelaxed)
        return rt_fail(cudaErrorInvalidValue);
    if (!capturable(s))
        return rt_fail(cudaErrorStreamCaptureUnsupported);
    for (size_t i = 0; graph && i < count; i++)
        if (!deps[i] || deps[i]->graph != graph)
            return rt_fail(cudaErrorInvalidValue);
    pthread_mutex_lock(&cap.lock);
    bool busy = find(cap.streams, cap.stream_count, stream_key(s)) != NULL;
    if (!busy) {
        Capture *c = calloc(1, sizeof *c);
        if (!c)
            abort();
        *c = (Capture){ graph ? graph : rt_graph_new(), !graph, ++cap.next_id, cudaStreamCaptureStatusActive, s };
        Party *p = join(&cap.streams, &cap.stream_count, &cap.stream_cap, stream_key(s), c);
        set_deps(p, deps, count);
        atomic_fetch_add(&cap.active, 1);
    }
    pthread_mutex_unlock(&cap.lock);
    return busy ? rt_fail(cudaErrorIllegalState) : cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode)
{
    return begin(stream, NULL, NULL, 0, mode);
}

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                                          const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                          cudaStreamCaptureMode mode)
{
    if (!rt_graph_ok(graph) || (numDependencies && !dependencies))
        return rt_fail(cudaErrorInvalidValue);
    for (size_t i = 0; dependencyData && i < numDependencies; i++)
        if (dependencyData[i].type || dependencyData[i].from_port || dependencyData[i].to_port)
            return rt_not_supported("cudaStreamBeginCaptureToGraph", "programmatic dependencies (edge data)");
    return begin(stream, graph, (RtGraphNode *const *)dependencies, numDependencies, mode);
}

/* Ends the capture begun in stream: every stream that joined it leaves, every event recorded in it
 * becomes an ordinary one; the graph is the caller's (for BeginCapture). */
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    pthread_mutex_lock(&cap.lock);
    Party *p = capturable(stream) ? find(cap.streams, cap.stream_count, stream_key(stream)) : NULL;
    Capture *c = p ? p->capture : NULL;
    if (!c)
        e = cudaErrorIllegalState;
    else if (c->origin != stream)
        e = cudaErrorStreamCaptureUnmatched;
    if (e == cudaSuccess) {
        for (size_t i = cap.stream_count; i-- > 0;)
            if (cap.streams[i].capture == c)
                leave(cap.streams, &cap.stream_count, &cap.streams[i]);
        for (size_t i = cap.event_count; i-- > 0;)
            if (cap.events[i].capture == c)
                leave(cap.events, &cap.event_count, &cap.events[i]);
        atomic_fetch_sub(&cap.active, 1);
    }
    pthread_mutex_unlock(&cap.lock);
    if (e != cudaSuccess)
        return rt_fail(e);
    bool valid = c->status == cudaStreamCaptureStatusActive;
    if (pGraph)
        *pGraph = valid ? c->graph : NULL;
    if (c->owned && (!valid || !pGraph))
        rt_graph_free(c->graph);
    free(c);
    return valid ? cudaSuccess : rt_fail(cudaErrorStreamCaptureInvalidated);
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus *pCaptureStatus)
{
    if (!pCaptureStatus)
        return rt_fail(cudaErrorInvalidValue);
    *pCaptureStatus = cudaStreamCaptureStatusNone;
    if (atomic_load(&cap.active) == 0 || !capturable(stream))
        return cudaSuccess;
    pthread_mutex_lock(&cap.lock);
    Party *p = find(cap.streams, cap.stream_count, stream_key(stream));
    if (p)
        *pCaptureStatus = p->capture->status;
    pthread_mutex_unlock(&cap.lock);
    return cudaSuccess;
}

/* The dependencies given stay valid until the stream's next call that changes them. */
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus *captureStatus_out,
                                     unsigned long long *id_out, cudaGraph_t *graph_out,
                                     const cudaGraphNode_t **dependencies_out, const cudaGraphEdgeData **edgeData_out,
                                     size_t *numDependencies_out)
{
    if (!captureStatus_out)
        return rt_fail(cudaErrorInvalidValue);
    pthread_mutex_lock(&cap.lock);
    Party *p = capturable(stream) ? find(cap.streams, cap.stream_count, stream_key(stream)) : NULL;
    *captureStatus_out = p ? p->capture->status : cudaStreamCaptureStatusNone;
    if (p && id_out)
        *id_out = p->capture->id;
    if (p && graph_out)
        *graph_out = p->capture->graph;
    if (p && dependencies_out)
        *dependencies_out = p->deps;
    if (p && edgeData_out)
        *edgeData_out = p->edges;
    if (p && numDependencies_out)
        *numDependencies_out = p->count;
    pthread_mutex_unlock(&cap.lock);
    return cudaSuccess;
}

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                                unsigned int flags)
{
    if (flags > cudaStreamSetCaptureDependencies || (numDependencies && !dependencies))
        return rt_fail(cudaErrorInvalidValue);
    for (size_t i = 0; dependencyData && i < numDependencies; i++)
        if (dependencyData[i].type || dependencyData[i].from_port || dependencyData[i].to_port)
            return rt_not_supported("cudaStreamUpdateCaptureDependencies", "programmatic dependencies (edge data)");
    pthread_mutex_lock(&cap.lock);
    Party *p = capturable(stream) ? find(cap.streams, cap.stream_count, stream_key(stream)) : NULL;
    cudaError_t e = p ? cudaSuccess : cudaErrorIllegalState;
    for (size_t i = 0; p && i < numDependencies; i++)
        if (!dependencies[i] || dependencies[i]->graph != p->capture->graph)
            e = cudaErrorInvalidValue;
    if (e == cudaSuccess && flags == cudaStreamSetCaptureDependencies)
        set_deps(p, dependencies, numDependencies);
    else if (e == cudaSuccess)
        add_deps(p, dependencies, numDependencies);
    pthread_mutex_unlock(&cap.lock);
    return e == cudaSuccess ? e : rt_fail(e);
}

/* The per-thread default stream's names (rt.h): every stream runs on the host in order. */
RT_SAME_AS(cudaStreamBeginCapture_ptsz, cudaStreamBeginCapture)
RT_SAME_AS(cudaStreamBeginCaptureToGraph_ptsz, cudaStreamBeginCaptureToGraph)
RT_SAME_AS(cudaStreamEndCapture_ptsz, cudaStreamEndCapture)
RT_SAME_AS(cudaStreamIsCapturing_ptsz, cudaStreamIsCapturing)
RT_SAME_AS(cudaStreamGetCaptureInfo_ptsz, cudaStreamGetCaptureInfo)
RT_SAME_AS(cudaStreamUpdateCaptureDependencies_ptsz, cudaStreamUpdateCaptureDependencies)
