/* rtgraph.h: the runtime's graphs as the files of helper G's block share them (rtgraph.c,
 * rtgraphexec.c, rtcapture.c, rtpool.c): a graph is its nodes in the order they were added,
 * each with the nodes it depends on; an instantiated graph (exec) is a copy of it and an order
 * that runs every node after all it depends on. Nodes run on the host, through the runtime's own
 * calls (a kernel node is a launch as cudaLaunchKernel makes it). Requires: rt.h. */
#ifndef PTXRUN_RTGRAPH_H
#define PTXRUN_RTGRAPH_H

#include "rt.h"

/* A kernel's launch, its parameters' bytes copied (as CUDA copies them when the node is made). */
typedef struct RtKernelCall {
    RtFunction *f;
    dim3 grid, block;
    unsigned shared;
    unsigned count;            /* parameters */
    unsigned char *bytes;      /* their bytes, each at its offset */
    void **args;               /* count pointers into bytes, as a launch takes them */
} RtKernelCall;

/* rtpool.c: the memory of a graph's allocation node, made when the node is (its address fixed for
 * the graph's life, as CUDA gives it) and held while a graph, an exec or a live allocation uses it. */
typedef struct RtGraphBlock RtGraphBlock;

typedef struct RtGraph RtGraph;
typedef struct RtGraphNode {
    RtGraph *graph;
    cudaGraphNodeType type;
    size_t index;              /* where in graph->nodes */
    struct RtGraphNode **deps; /* the nodes this one waits for */
    size_t dep_count, dep_cap;
    bool disabled;             /* in an exec: cudaGraphNodeSetEnabled(0) */
    const struct RtGraphNode *origin;   /* in a copy: the node copied (compared, never read) */
    union {
        RtKernelCall kernel;
        struct cudaMemcpy3DParms copy;
        struct cudaMemsetParams set;
        struct cudaHostNodeParams host;
        RtGraph *child;        /* a copy of the graph given */
        cudaEvent_t event;     /* event record and wait nodes */
        struct { RtGraphBlock *block; struct cudaMemAllocNodeParams params; } alloc;
        void *free_ptr;
        struct {               /* a conditional node: its handle's kind and body graphs (its own) */
            cudaGraphConditionalHandle handle;
            int type;          /* 0 if, 1 while, 2 switch */
            unsigned size;
            RtGraph **bodies;
        } cond;
    } u;
} RtGraphNode;

/* The conditional handles made for a graph, shared by its copies: each the device address of
 * the condition's 32-bit value (what a kernel's cudaGraphSetConditional stores to). */
typedef struct RtConds {
    unsigned refs;
    size_t count;
    struct RtCondHandle { CUdeviceptr slot; unsigned initial; bool assign; } *handles;
} RtConds;

struct RtGraph {
    RtGraphNode **nodes;
    size_t count, cap;
    unsigned long long magic;  /* RT_GRAPH_MAGIC while live: a destroyed graph is told apart */
    const RtGraph *origin;     /* the graph this one is a copy of (cudaGraphNodeFindInClone), or NULL */
    RtConds *conds;            /* its conditional handles, or NULL */
};
#define RT_GRAPH_MAGIC 0x67726170685f6f6bull

/* rtgraph.c: graphs and execs alive (a handle is checked here before it is read) */
void rt_handle_add(const void *h);
bool rt_handle_ok(const void *h);
void rt_handle_remove(const void *h);
bool rt_graph_ok(const RtGraph *g);
RtGraph *rt_graph_new(void);
void rt_graph_free(RtGraph *g);
/* A node of the given type added to g after deps (each must be g's): its parameters are the
 * caller's to fill. NULL and *e set when a dependency is not g's. */
RtGraphNode *rt_graph_add(RtGraph *g, cudaGraphNodeType type, RtGraphNode *const *deps, size_t count,
                          cudaError_t *e);
cudaError_t rt_kernel_call_make(RtKernelCall *k, RtFunction *f, dim3 grid, dim3 block, size_t shared, void **args);
void rt_kernel_call_free(RtKernelCall *k);
RtGraph *rt_graph_copy(const RtGraph *g);   /* a deep copy, nodes at the same indices */
void rt_graph_node_free(RtGraphNode *n);    /* what the node holds, and it (not its edges) */
bool rt_memset_params_ok(const struct cudaMemsetParams *p);
/* An order that runs every node after its dependencies (ties: the order added); false on a cycle. */
bool rt_graph_order(const RtGraph *g, RtGraphNode **order);
/* The condition's value now (0 when it cannot be read); the defaults a launch starts with. */
unsigned rt_condition(cudaGraphConditionalHandle h);
cudaError_t rt_conditions_start(const RtGraph *g);

/* rtcapture.c: a graph launched into a capturing stream: a child graph node of the capture */
cudaError_t rt_capture_graph(cudaStream_t s, const RtGraph *g);

/* rtpool.c: graph memory */
RtGraphBlock *rt_graph_block_new(size_t bytes, cudaError_t *e);
void *rt_graph_block_address(const RtGraphBlock *b);
void rt_graph_block_hold(RtGraphBlock *b);
void rt_graph_block_drop(RtGraphBlock *b);
cudaError_t rt_graph_block_alloc(RtGraphBlock *b);     /* an allocation node runs */
bool rt_graph_block_live(const RtGraphBlock *b);
cudaError_t rt_graph_block_free_at(void *p);           /* a free node runs */
bool rt_graph_block_known(const void *p);

#endif
