/* rtgraphedit.c: a graph changed after its nodes are made: the nodes that depend on one, an edge
 * removed, a node destroyed, a node found in a clone, and the parameters of copy, memset and host
 * nodes set again; what a child graph or a free node holds. Requires: rtgraph.c, rterror.c. */
#include <string.h>

#include "rtgraph.h"

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                           cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes)
{
    if (!node || !pNumDependentNodes)
        return rt_fail(cudaErrorInvalidValue);
    const RtGraph *g = node->graph;
    size_t n = 0;
    for (size_t i = 0; i < g->count; i++)
        for (size_t d = 0; d < g->nodes[i]->dep_count; d++)
            if (g->nodes[i]->deps[d] == node) {
                if (pDependentNodes && n < *pNumDependentNodes) {
                    pDependentNodes[n] = g->nodes[i];
                    if (edgeData)
                        memset(&edgeData[n], 0, sizeof edgeData[n]);
                }
                n++;
            }
    for (size_t i = n; pDependentNodes && i < *pNumDependentNodes; i++)
        pDependentNodes[i] = NULL;
    if (!pDependentNodes || *pNumDependentNodes > n)
        *pNumDependentNodes = n;
    return cudaSuccess;
}

cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                        const cudaGraphEdgeData *edgeData, size_t numDependencies)
{
    (void)edgeData;
    if (!rt_graph_ok(graph) || (numDependencies && (!from || !to)))
        return rt_fail(cudaErrorInvalidValue);
    for (size_t i = 0; i < numDependencies; i++) {
        bool found = false;
        for (size_t d = 0; from[i] && to[i] && to[i]->graph == graph && d < to[i]->dep_count && !found; d++)
            found = to[i]->deps[d] == from[i];
        if (!found)
            return rt_fail(cudaErrorInvalidValue);
    }
    for (size_t i = 0; i < numDependencies; i++) {
        RtGraphNode *n = to[i];
        for (size_t d = 0; d < n->dep_count; d++)
            if (n->deps[d] == from[i]) {
                memmove(&n->deps[d], &n->deps[d + 1], (n->dep_count - d - 1) * sizeof *n->deps);
                n->dep_count--;
                break;
            }
    }
    return cudaSuccess;
}

/* The node leaves its graph with every edge to and from it. */
cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node)
{
    if (!node || !rt_graph_ok(node->graph))
        return rt_fail(cudaErrorInvalidValue);
    RtGraph *g = node->graph;
    for (size_t i = 0; i < g->count; i++) {
        RtGraphNode *n = g->nodes[i];
        for (size_t d = n->dep_count; d-- > 0;)
            if (n->deps[d] == node) {
                memmove(&n->deps[d], &n->deps[d + 1], (n->dep_count - d - 1) * sizeof *n->deps);
                n->dep_count--;
            }
    }
    memmove(&g->nodes[node->index], &g->nodes[node->index + 1], (g->count - node->index - 1) * sizeof *g->nodes);
    g->count--;
    for (size_t i = node->index; i < g->count; i++)
        g->nodes[i]->index = i;
    rt_graph_node_free(node);
    return cudaSuccess;
}

/* The clone's node made from originalNode (each copied node remembers its original). */
cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode, cudaGraph_t clonedGraph)
{
    if (!pNode || !originalNode || !rt_graph_ok(clonedGraph) || clonedGraph->origin != originalNode->graph)
        return rt_fail(cudaErrorInvalidValue);
    for (size_t i = 0; i < clonedGraph->count; i++)
        if (clonedGraph->nodes[i]->origin == originalNode) {
            *pNode = clonedGraph->nodes[i];
            return cudaSuccess;
        }
    return rt_fail(cudaErrorInvalidValue);
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms *p)
{
    if (!node || !p || node->type != cudaGraphNodeTypeMemcpy || (unsigned)p->kind > cudaMemcpyDefault)
        return rt_fail(cudaErrorInvalidValue);
    if (p->srcArray || p->dstArray)
        return rt_not_supported("cudaGraphMemcpyNodeSetParams", "CUDA arrays");
    node->u.copy = *p;
    return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *p)
{
    if (!node || node->type != cudaGraphNodeTypeMemset || !rt_memset_params_ok(p))
        return rt_fail(cudaErrorInvalidValue);
    node->u.set = *p;
    return cudaSuccess;
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *p)
{
    if (!node || !p || !p->fn || node->type != cudaGraphNodeTypeHost)
        return rt_fail(cudaErrorInvalidValue);
    node->u.host = *p;
    return cudaSuccess;
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph)
{
    if (!node || !pGraph || node->type != cudaGraphNodeTypeGraph)
        return rt_fail(cudaErrorInvalidValue);
    *pGraph = node->u.child;
    return cudaSuccess;
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out)
{
    if (!node || !dptr_out || node->type != cudaGraphNodeTypeMemFree)
        return rt_fail(cudaErrorInvalidValue);
    memcpy(dptr_out, &node->u.free_ptr, sizeof node->u.free_ptr);
    return cudaSuccess;
}
