/* cfg.c: the control-flow graph of each function of the lowered program, for the scheduler:
 * its post-dominator tree, stored as an interval per instruction, and its reconvergence
 * points, the immediate post-dominators of conditional branches and of brx.idx (where the
 * H100 reconverges lanes that took different ways). */
#include <stdlib.h>
#include <string.h>

#include "program.h"

/* The successors of instruction i of a function of n instructions (n stands for its end):
 * control goes on to i + 1 except after an unguarded bra, brx.idx, exit, ret or trap; a bra also
 * goes to its target, a brx.idx to each of its list's (targets: the program's lists), and exit,
 * ret and trap to the end. Returns how many (at most 2, or a brx.idx's count + 1); succ NULL:
 * only counts them. */
static unsigned successors(const XInstr *code, const uint32_t *targets, uint32_t base, uint32_t n, uint32_t i,
                           uint32_t *succ)
{
    const XInstr *x = &code[base + i];
    unsigned count = 0;
    bool ends = x->op == OP_EXIT || x->op == OP_RET || x->op == OP_TRAP;
    bool jumps = x->op == OP_BRA || x->op == OP_BRX_IDX;
    if (x->op == OP_BRA && succ)
        succ[count] = x->target - base;
    if (x->op == OP_BRA || ends)
        count++;
    if (ends && succ)
        succ[0] = n;
    for (uint32_t k = 0; x->op == OP_BRX_IDX && k < x->target_count; k++, count++)
        if (succ)
            succ[count] = targets[x->target + k] - base;
    if (!(jumps || ends) || x->guard) {
        if (succ)
            succ[count] = i + 1;
        count++;
    }
    return count;
}

/* The post-dominator tree of one function (Cooper, Harvey and Kennedy's iterative algorithm on
 * the reversed control-flow graph, rooted at the function's end), numbered so that P
 * post-dominates Q exactly when Q's interval lies within P's; and the reconvergence points,
 * the immediate post-dominators of conditional branches. Instructions from which the end
 * cannot be reached (an endless loop) have no interval. */
void cfg_reconvergence(XInstr *code, const uint32_t *targets, const FuncLayout *f)
{
    uint32_t n = f->fn->code.len, base = f->code_base, nodes = n + 1, most = 2;
    for (uint32_t i = 0; i < n; i++) {
        unsigned c = successors(code, targets, base, n, i, NULL);
        most = c > most ? c : most;
    }
    uint32_t *succ = xmalloc(most * sizeof *succ);
    /* predecessors, as offsets into one array */
    uint32_t *pred_start = xcalloc(nodes + 1, sizeof *pred_start);
    for (uint32_t i = 0; i < n; i++)
        for (unsigned k = successors(code, targets, base, n, i, succ); k--;)
            pred_start[succ[k] + 1]++;
    for (uint32_t v = 0; v < nodes; v++)
        pred_start[v + 1] += pred_start[v];
    uint32_t *preds = xmalloc((pred_start[nodes] + 1) * sizeof *preds);
    uint32_t *fill = xmalloc(nodes * sizeof *fill);
    memcpy(fill, pred_start, nodes * sizeof *fill);
    for (uint32_t i = 0; i < n; i++)
        for (unsigned k = successors(code, targets, base, n, i, succ); k--;)
            preds[fill[succ[k]]++] = i;
    /* postorder of the reversed graph from the end (iterative depth-first search) */
    uint32_t *order = xmalloc(nodes * sizeof *order), *number = xmalloc(nodes * sizeof *number);
    uint32_t *stack = xmalloc(nodes * sizeof *stack), *next = fill;
    uint32_t count = 0, top = 0;
    for (uint32_t v = 0; v < nodes; v++)
        number[v] = NO_SLOT;
    memcpy(next, pred_start, nodes * sizeof *next);
    stack[top++] = n;
    number[n] = 0;                            /* seen; the real number comes on leaving */
    while (top) {
        uint32_t v = stack[top - 1];
        if (next[v] < pred_start[v + 1]) {
            uint32_t u = preds[next[v]++];
            if (number[u] == NO_SLOT) {
                number[u] = 0;
                stack[top++] = u;
            }
        } else {
            top--;
            number[v] = count;
            order[count++] = v;
        }
    }
    /* immediate post-dominators, by postorder number; NO_SLOT for the unreachable */
    uint32_t *ipdom = xmalloc(nodes * sizeof *ipdom);
    for (uint32_t v = 0; v < nodes; v++)
        ipdom[v] = NO_SLOT;
    ipdom[n] = n;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t k = count - 1; k-- > 0;) {      /* reverse postorder, the root excluded */
            uint32_t v = order[k], best = NO_SLOT;
            for (unsigned s = successors(code, targets, base, n, v, succ); s--;) {
                uint32_t u = succ[s];
                if (ipdom[u] == NO_SLOT)
                    continue;
                if (best == NO_SLOT) {
                    best = u;
                    continue;
                }
                while (u != best) {
                    while (number[u] < number[best])
                        u = ipdom[u];
                    while (number[best] < number[u])
                        best = ipdom[best];
                }
            }
            if (best != ipdom[v]) {
                ipdom[v] = best;
                changed = true;
            }
        }
    }
    /* intervals: a depth-first walk of the tree (children found through a first-child list) */
    uint32_t *child = xmalloc(nodes * sizeof *child), *sibling = xmalloc(nodes * sizeof *sibling);
    for (uint32_t v = 0; v < nodes; v++)
        child[v] = NO_SLOT;
    for (uint32_t v = 0; v < n; v++)
        if (ipdom[v] != NO_SLOT) {
            sibling[v] = child[ipdom[v]];
            child[ipdom[v]] = v;
        }
    for (uint32_t i = 0; i < n; i++)
        code[base + i].pdom_in = code[base + i].pdom_out = NO_SLOT;
    uint32_t clock = 0;
    top = 0;
    stack[top++] = n;
    next[n] = child[n];
    while (top) {
        uint32_t v = stack[top - 1];
        if (next[v] != NO_SLOT) {
            uint32_t u = next[v];
            next[v] = sibling[u];
            code[base + u].pdom_in = clock++;
            next[u] = child[u];
            stack[top++] = u;
        } else {
            top--;
            if (v != n)
                code[base + v].pdom_out = clock++;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        const XInstr *x = &code[base + i];
        if (((x->op == OP_BRA && x->guard) || x->op == OP_BRX_IDX) && ipdom[i] != NO_SLOT && ipdom[i] < n)
            code[base + ipdom[i]].reconverge = true;
    }
    free(succ);
    free(pred_start);
    free(preds);
    free(fill);
    free(order);
    free(number);
    free(stack);
    free(ipdom);
    free(child);
    free(sibling);
}

/* Whether every path from q to the end of their function passes through p. */
bool cfg_postdominates(const XInstr *code, uint32_t p, uint32_t q)
{
    const XInstr *a = &code[p], *b = &code[q];
    return a->pdom_in != NO_SLOT && b->pdom_in != NO_SLOT && a->pdom_in <= b->pdom_in && b->pdom_out <= a->pdom_out;
}
