/* lowercheck.c: --check's lowering of every kernel, in time and memory linear in the module.
 * A run lowers its kernel with every .func and lays out every module variable; doing that for
 * each kernel of a module with thousands of them is quadratic. So the first kernel is lowered
 * with the whole module (which reports what a run would refuse in any function or variable),
 * and each other kernel with only what it can reach: the functions and variables its code names,
 * and theirs, and those named by their initializers (a function's address included), and the
 * module's .local variables (they share the kernel's frame). A reached function or variable
 * lowers and lays out as it does in the whole module (names, not addresses, decide what it
 * refuses); a kernel whose whole program would pass the size limits that lower_program checks
 * over everything (registers, instructions, bytes of variables) is lowered whole instead. Each
 * lowering's scratch (symbols, immediates) goes to an arena emptied after it. As before, the
 * kernels are lowered in order up to the first one refused.
 * Requires: lower.c (lower_program), layout.c (layout_variables_bytes). */
#include <stdlib.h>
#include <string.h>

#include "exec.h"

typedef struct Reach {
    const Module *m;
    uint32_t nf, ng;            /* nodes: functions 0..nf-1, then variables nf..nf+ng-1 */
    const char **keys;          /* name -> its first node (open addressing) */
    uint32_t *first, cap;
    uint32_t *next;             /* the next node with the same name */
    uint32_t *mark, epoch;      /* mark[node] == epoch: reached from this kernel */
    uint32_t *stack, depth;
    uint32_t *found, found_count;
} Reach;

static uint32_t slot_of(const Reach *r, const char *name)
{
    uint32_t j = (uint32_t)(((uintptr_t)name >> 4) * 2654435761u) & (r->cap - 1);
    while (r->keys[j] && r->keys[j] != name)
        j = (j + 1) & (r->cap - 1);
    return j;
}

static void add_node(Reach *r, const char *name, uint32_t node)
{
    uint32_t j = slot_of(r, name);
    r->next[node] = r->keys[j] ? r->first[j] : NO_SLOT;
    r->keys[j] = name;
    r->first[j] = node;
}

static void reach_name(Reach *r, const char *name)
{
    if (!name)
        return;
    uint32_t j = slot_of(r, name);
    for (uint32_t n = r->keys[j] ? r->first[j] : NO_SLOT; n != NO_SLOT; n = r->next[n])
        if (r->mark[n] != r->epoch) {
            r->mark[n] = r->epoch;
            r->stack[r->depth++] = n;
            r->found[r->found_count++] = n;
        }
}

static void reach_operand(Reach *r, const Operand *o)
{
    if (o->kind == OPND_SYM && o->u.ref.target == 0)
        reach_name(r, o->u.ref.name);
    else if (o->kind == OPND_NAME)
        reach_name(r, o->u.ref.name);
    else if (o->kind == OPND_ADDR || o->kind == OPND_VEC || o->kind == OPND_PAIR || o->kind == OPND_LIST ||
             o->kind == OPND_REG_OFFSET)
        for (unsigned i = 0; i < o->count && o->u.group.elems; i++)
            reach_operand(r, &o->u.group.elems[i]);
}

static void reach_init(Reach *r, const Init *v)
{
    if (!v)
        return;
    if (v->kind == INIT_SYM || v->kind == INIT_GENERIC)
        reach_name(r, v->name);
    else if (v->kind == INIT_LIST)
        for (uint32_t i = 0; i < v->count; i++)
            reach_init(r, &v->elems[i]);
    else if (v->kind == INIT_FIELD)
        reach_init(r, v->elems);
}

static void reach_function(Reach *r, const Function *f)
{
    for (uint32_t i = 0; i < f->code.len; i++)
        for (unsigned k = 0; k < f->code.data[i].operand_count; k++)
            reach_operand(r, &f->code.data[i].operands[k]);
    for (uint32_t i = 0; i < f->decls.len; i++)
        reach_init(r, f->decls.data[i].init);
}

static int by_index(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The kernel's nodes, in module order, in r->found. */
static void reach_kernel(Reach *r, uint32_t kernel)
{
    r->epoch++;
    r->depth = r->found_count = 0;
    r->mark[kernel] = r->epoch;
    r->stack[r->depth++] = kernel;
    r->found[r->found_count++] = kernel;
    for (uint32_t g = 0; g < r->ng; g++)
        if (r->m->globals.data[g].space == SPACE_LOCAL && r->mark[r->nf + g] != r->epoch) {
            r->mark[r->nf + g] = r->epoch;
            r->stack[r->depth++] = r->found[r->found_count++] = r->nf + g;
        }
    while (r->depth) {
        uint32_t n = r->stack[--r->depth];
        if (n < r->nf)
            reach_function(r, r->m->functions.data[n]);
        else
            reach_init(r, r->m->globals.data[n - r->nf].init);
    }
    qsort(r->found, r->found_count, sizeof *r->found, by_index);
}

static uint64_t sum(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

static uint64_t function_bytes(const Function *f)
{
    return sum(sum(layout_variables_bytes(f->params.data, f->params.len),
                   layout_variables_bytes(f->returns.data, f->returns.len)),
               layout_variables_bytes(f->decls.data, f->decls.len));
}

/* Lowers fn with view's functions and variables; their scratch goes to view's arena, emptied
 * after. A run's stack size changes no refusal (only calls at run time are charged to it), and
 * --check runs nothing: no room for calls is allocated (stack_bytes 0). */
static void lower_view(Module *m, Module *view, Function *fn, Diag *diag)
{
    view->names = m->names;
    Program p;
    Memory mem;
    lower_program(&p, &mem, view, fn, diag, 0, true);
    lower_free(&p);
    mem_free(&mem);
    m->names = view->names;                  /* register names interned (into m's arena) */
    arena_reset(&view->arena);
}

void lower_check_all(Module *m, Diag *diag)
{
    Reach r = { .m = m, .nf = m->functions.len, .ng = m->globals.len };
    uint32_t nodes = r.nf + r.ng;
    for (r.cap = 64; r.cap < 2 * nodes; r.cap *= 2) {}
    r.keys = xcalloc(r.cap, sizeof *r.keys);
    r.first = xcalloc(r.cap, sizeof *r.first);
    r.next = xcalloc(nodes + 1, sizeof *r.next);
    r.mark = xcalloc(nodes + 1, sizeof *r.mark);
    r.stack = xcalloc(nodes + 1, sizeof *r.stack);
    r.found = xcalloc(nodes + 1, sizeof *r.found);
    /* What lower_program counts over every function and variable, less the kernel's own. */
    uint64_t code = 0, rows = 0, preds = 0, bytes = layout_variables_bytes(m->globals.data, m->globals.len);
    for (uint32_t i = 0; i < r.nf; i++) {
        const Function *f = m->functions.data[i];
        add_node(&r, f->name, i);
        if (!f->has_body || f->is_entry || f->is_snippet)
            continue;
        code += f->code.len;
        rows += f->regs.len;
        preds += f->preds.len;
        bytes = sum(bytes, function_bytes(f));
    }
    for (uint32_t g = 0; g < r.ng; g++)
        add_node(&r, m->globals.data[g].name, r.nf + g);

    Module view = *m;
    view.arena = (Arena){ 0 };
    Function **fns = xcalloc(r.nf + 1, sizeof *fns);
    Decl *vars = xcalloc(r.ng + 1, sizeof *vars);
    bool whole_done = false;
    for (uint32_t i = 0; i < r.nf && !diag->errors; i++) {     /* up to the first kernel refused */
        Function *fn = m->functions.data[i];
        if (!fn->is_entry || !fn->has_body)
            continue;
        uint64_t own = function_bytes(fn);
        bool near_limits = code + fn->code.len > MAX_INSTRUCTIONS || rows + fn->regs.len > MAX_REGISTERS ||
                           preds + fn->preds.len > MAX_REGISTERS || sum(bytes, own) > MAX_MEMORY_BYTES;
        if (!whole_done || near_limits) {
            view.functions = m->functions;
            view.globals = m->globals;
            whole_done = true;
        } else {
            reach_kernel(&r, i);
            view.functions.len = view.globals.len = 0;
            for (uint32_t k = 0; k < r.found_count; k++)
                if (r.found[k] < r.nf)
                    fns[view.functions.len++] = m->functions.data[r.found[k]];
                else
                    vars[view.globals.len++] = m->globals.data[r.found[k] - r.nf];
            view.functions.data = fns;
            view.globals.data = vars;
        }
        lower_view(m, &view, fn, diag);
    }
    arena_free(&view.arena);
    free(fns);
    free(vars);
    free(r.keys);
    free(r.first);
    free(r.next);
    free(r.mark);
    free(r.stack);
    free(r.found);
}
