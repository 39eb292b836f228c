/* lowercheck.c: --check's lowering of every kernel, in time linear in the module, over the
 * whole module or as parse_module_stream hands over its functions. A run lowers its kernel with
 * every .func and lays out every module variable; doing that for each kernel of a module with
 * thousands of them is quadratic. So the first kernel (streamed by several readers: one of
 * theirs, see lower_check_end) is lowered with the whole module (which reports what a run would
 * refuse in any function or variable), and each other kernel with only what it can reach: the
 * functions and variables its code names, and theirs, and those named by their initializers (a
 * function's address included), and the module's .local variables (they share the kernel's
 * frame). A reached function or variable lowers and lays out as it does in the whole module
 * (names, not addresses, decide what it refuses); a kernel whose whole program would pass the
 * size limits that lower_program checks over everything (registers, instructions, bytes of
 * variables) is lowered whole instead. Each lowering's scratch (symbols, immediates) goes to an
 * arena emptied after it. Streaming, a kernel other than the first is lowered when its body
 * ends, if all it reaches is defined by then (no prototype or .extern among it) and it is not
 * near the limits, and may then be dropped; the others, the first among them, wait for the end
 * of the module (where the first is lowered with the whole module, or, when another reader of
 * the module does that, as the others are: which kernel it is changes nothing that lowering
 * refuses). A name such a kernel reached that is declared again later, or totals at the end
 * that would have put a dropped kernel near the limits, make the answer possibly not
 * lower_check_all's: the caller then checks the whole module again. The same reach gives a run
 * its functions (lower_reached): from its kernel and every module variable, which a run lays out,
 * and every .func where they take a function's address or call through one (a function's address
 * is its place among them all, the same in every run of the module).
 * Requires: lower.c (lower_program), layout.c (layout_variables_bytes). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "program.h"

/* Nodes: function i is 2i, module variable g is 2g + 1. */
typedef struct Reach {
    const Module *m;
    uint32_t nf, ng;            /* functions and variables added so far */
    uint32_t node_cap;          /* room in next, mark, stack, found */
    const char **keys;          /* name -> its first node (open addressing) */
    uint32_t *first, cap, used;
    uint8_t *reached;           /* per name slot: a dropped kernel reached the name */
    uint32_t *next;             /* the next node with the same name */
    uint32_t *mark, epoch;      /* mark[node] == epoch: reached from this kernel */
    uint32_t *stack, depth;
    uint32_t *found, found_count;
    uint32_t *locals, local_count, local_cap;  /* the module's .local variables */
    const char **missed;        /* names reach_kernel met that nothing is declared as (yet) */
    uint32_t missed_count, missed_cap;
    bool differs;               /* a name a dropped kernel reached was declared again */
} Reach;

struct LowerCheck {
    Module *m;
    Diag *diag;
    Reach r;
    uint64_t code, rows, preds, bytes;   /* over every .func with a body */
    uint64_t variables;         /* bytes of every module variable */
    uint64_t dropped_code, dropped_rows, dropped_preds, dropped_bytes;   /* largest own counts */
    uint32_t first_kernel;      /* NO_SLOT: none seen yet */
    uint32_t *waiting, waiting_len;      /* kernels kept for the end, in module order */
    uint32_t functions_done, variables_done;   /* counted in the totals so far */
    Function **fns;
    Decl *vars;
    uint32_t fns_cap, vars_cap;
    Module view;
};

static uint32_t slot_of(const Reach *r, const char *name)
{
    uint64_t x = (uintptr_t)name;      /* mixed: the low bits of arena addresses repeat */
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9u;
    x ^= x >> 32;
    uint32_t j = (uint32_t)x & (r->cap - 1);
    while (r->keys[j] && r->keys[j] != name)
        j = (j + 1) & (r->cap - 1);
    return j;
}

static const char *node_name(const Reach *r, uint32_t node)
{
    return node & 1 ? r->m->globals.data[node >> 1].name : r->m->functions.data[node >> 1]->name;
}

static void add_node(Reach *r, uint32_t node)
{
    const char *name = node_name(r, node);
    uint32_t j = slot_of(r, name);
    if (r->keys[j])
        r->differs |= r->reached[j];
    else
        r->used++;
    r->next[node] = r->keys[j] ? r->first[j] : NO_SLOT;
    r->keys[j] = name;
    r->first[j] = node;
}

static void grow_names(Reach *r)
{
    const char **keys = r->keys;
    uint32_t *first = r->first, cap = r->cap;
    uint8_t *reached = r->reached;
    r->cap = cap ? 2 * cap : 64;
    r->keys = pages_alloc(r->cap * sizeof *r->keys);
    r->first = pages_alloc(r->cap * sizeof *r->first);
    r->reached = pages_alloc(r->cap * sizeof *r->reached);
    for (uint32_t i = 0; i < cap; i++)
        if (keys[i]) {
            uint32_t j = slot_of(r, keys[i]);
            r->keys[j] = keys[i];
            r->first[j] = first[i];
            r->reached[j] = reached[i];
        }
    pages_free(keys, cap * sizeof *keys);
    pages_free(first, cap * sizeof *first);
    pages_free(reached, cap * sizeof *reached);
}

static void grow_nodes(Reach *r, uint32_t need)
{
    uint32_t old = r->node_cap;
    while (r->node_cap < need)
        r->node_cap = r->node_cap ? 2 * r->node_cap : 64;
    r->next = xrealloc(r->next, r->node_cap * sizeof *r->next);
    r->mark = xrealloc(r->mark, r->node_cap * sizeof *r->mark);
    r->stack = xrealloc(r->stack, r->node_cap * sizeof *r->stack);
    r->found = xrealloc(r->found, r->node_cap * sizeof *r->found);
    memset(r->mark + old, 0, (r->node_cap - old) * sizeof *r->mark);
}

/* Adds the functions and variables the module has gained. */
static void reach_sync(Reach *r)
{
    const Module *m = r->m;
    uint32_t nf = m->functions.len, ng = m->globals.len;
    uint32_t need = 2 * (nf > ng ? nf : ng) + 2;
    if (need > r->node_cap)
        grow_nodes(r, need);
    while (2 * (r->used + (nf - r->nf) + (ng - r->ng)) >= r->cap)
        grow_names(r);
    for (; r->nf < nf; r->nf++)
        add_node(r, 2 * r->nf);
    for (; r->ng < ng; r->ng++) {
        add_node(r, 2 * r->ng + 1);
        if (m->globals.data[r->ng].space == SPACE_LOCAL) {
            if (r->local_count == r->local_cap) {
                r->local_cap = r->local_cap ? 2 * r->local_cap : 16;
                r->locals = xrealloc(r->locals, r->local_cap * sizeof *r->locals);
            }
            r->locals[r->local_count++] = r->ng;
        }
    }
}

static void reach_free(Reach *r)
{
    pages_free(r->keys, r->cap * sizeof *r->keys);
    pages_free(r->first, r->cap * sizeof *r->first);
    pages_free(r->reached, r->cap * sizeof *r->reached);
    free(r->next);
    free(r->mark);
    free(r->stack);
    free(r->found);
    free(r->locals);
    free(r->missed);
}

/* A dropped kernel reached name (or looked for it): a declaration of it from now on would have
 * been part of what it reached. */
static void mark_reached(Reach *r, const char *name)
{
    uint32_t j = slot_of(r, name);
    if (!r->keys[j]) {
        if (2 * (r->used + 1) >= r->cap) {
            grow_names(r);
            j = slot_of(r, name);
        }
        r->keys[j] = name;
        r->first[j] = NO_SLOT;
        r->used++;
    }
    r->reached[j] = 1;
}

static void push_node(Reach *r, uint32_t n)
{
    if (r->mark[n] != r->epoch) {
        r->mark[n] = r->epoch;
        r->stack[r->depth++] = n;
        r->found[r->found_count++] = n;
    }
}

static void reach_name(Reach *r, const char *name)
{
    if (!name)
        return;
    uint32_t j = slot_of(r, name);
    if (!r->keys[j]) {
        if (r->missed_count == r->missed_cap) {
            r->missed_cap = r->missed_cap ? 2 * r->missed_cap : 16;
            r->missed = xrealloc(r->missed, r->missed_cap * sizeof *r->missed);
        }
        r->missed[r->missed_count++] = name;
    }
    for (uint32_t n = r->keys[j] ? r->first[j] : NO_SLOT; n != NO_SLOT; n = r->next[n])
        push_node(r, n);
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

/* What the nodes pushed reach, with them, in r->found, sorted (functions and variables each in
 * module order). */
static void reach_closure(Reach *r)
{
    while (r->depth) {
        uint32_t n = r->stack[--r->depth];
        if (n & 1)
            reach_init(r, r->m->globals.data[n >> 1].init);
        else
            reach_function(r, r->m->functions.data[n >> 1]);
    }
    qsort(r->found, r->found_count, sizeof *r->found, by_index);
}

static void reach_start(Reach *r)
{
    r->epoch++;
    r->depth = r->found_count = 0;
    r->missed_count = 0;
}

/* The kernel's nodes in r->found (reach_closure). */
static void reach_kernel(Reach *r, uint32_t kernel)
{
    reach_start(r);
    push_node(r, 2 * kernel);
    for (uint32_t k = 0; k < r->local_count; k++)
        push_node(r, 2 * r->locals[k] + 1);
    reach_closure(r);
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

/* Counts what the module has gained into the totals. */
static void count_totals(LowerCheck *lc)
{
    Module *m = lc->m;
    for (; lc->variables_done < m->globals.len; lc->variables_done++)
        lc->variables = sum(lc->variables, layout_variables_bytes(&m->globals.data[lc->variables_done], 1));
    for (; lc->functions_done < m->functions.len; lc->functions_done++) {
        const Function *f = m->functions.data[lc->functions_done];
        if (!f->has_body || f->is_entry || f->is_snippet)
            continue;
        lc->code += f->code.len;
        lc->rows += f->regs.len;
        lc->preds += f->preds.len;
        lc->bytes = sum(lc->bytes, function_bytes(f));
    }
}

static bool near_limits(const LowerCheck *lc, uint64_t code, uint64_t rows, uint64_t preds, uint64_t bytes)
{
    return lc->code + code > MAX_INSTRUCTIONS || lc->rows + rows > MAX_REGISTERS ||
           lc->preds + preds > MAX_REGISTERS || sum(sum(lc->bytes, lc->variables), bytes) > MAX_MEMORY_BYTES;
}

LowerCheck *lower_check_new(Module *m, Diag *diag)
{
    LowerCheck *lc = xcalloc(1, sizeof *lc);
    lc->m = m;
    lc->diag = diag;
    lc->r.m = m;
    lc->first_kernel = NO_SLOT;
    return lc;
}

void lower_check_free(LowerCheck *lc)
{
    if (!lc)
        return;
    reach_free(&lc->r);
    arena_free(&lc->view.arena);
    free(lc->waiting);
    free(lc->fns);
    free(lc->vars);
    free(lc);
}

/* Lowers kernel i with the whole module or with what it reaches (r->found, from reach_kernel);
 * the lowering's scratch goes to the view's arena, emptied after. A run's stack size changes
 * no refusal (only calls at run time are charged to it), and --check runs nothing: no room for
 * calls is allocated (stack_bytes 0). */
static void lower_kernel(LowerCheck *lc, uint32_t i, bool whole)
{
    Module *m = lc->m, *view = &lc->view;
    Arena arena = view->arena;
    *view = *m;
    view->arena = arena;
    if (!whole) {
        Reach *r = &lc->r;
        if (r->found_count > lc->fns_cap) {
            lc->fns_cap = lc->vars_cap = 2 * r->found_count;
            lc->fns = xrealloc(lc->fns, lc->fns_cap * sizeof *lc->fns);
            lc->vars = xrealloc(lc->vars, lc->vars_cap * sizeof *lc->vars);
        }
        view->functions.len = view->globals.len = 0;
        for (uint32_t k = 0; k < r->found_count; k++)       /* functions first, as they sort */
            if (!(r->found[k] & 1))
                lc->fns[view->functions.len++] = m->functions.data[r->found[k] >> 1];
        for (uint32_t k = 0; k < r->found_count; k++)
            if (r->found[k] & 1)
                lc->vars[view->globals.len++] = m->globals.data[r->found[k] >> 1];
        view->functions.data = lc->fns;
        view->globals.data = lc->vars;
    }
    Program p;
    Memory mem = { 0 };
    lower_program(&p, &mem, view, m->functions.data[i], lc->diag, 0, true, false);
    lower_free(&p);
    mem_free(&mem);
    m->names = view->names;                  /* register names interned (into m's arena) */
    arena_reset(&view->arena);
}

/* Whether every function reached has its body here: none is a prototype whose definition may
 * follow (a common order) or a kernel dropped. (Any other name declared later is noticed by
 * mark_reached.) */
static bool defined(const Reach *r, uint32_t node)
{
    const Function *f = r->m->functions.data[node >> 1];
    if (f->dropped)
        return false;
    if (f->has_body || (f->linkage & LINK_EXTERN))   /* .extern: defined elsewhere (vprintf) */
        return true;
    for (uint32_t n = r->first[slot_of(r, f->name)]; n != NO_SLOT; n = r->next[n])
        if (!(n & 1) && r->m->functions.data[n >> 1]->has_body)
            return true;       /* a prototype of a function defined before */
    return false;
}

static bool reach_complete(const Reach *r)
{
    for (uint32_t k = 0; k < r->found_count; k++)
        if (!(r->found[k] & 1) && !defined(r, r->found[k]))
            return false;
    return true;
}

static void wait_for_end(LowerCheck *lc, uint32_t i)
{
    lc->waiting = xrealloc(lc->waiting, (lc->waiting_len + 1) * sizeof *lc->waiting);
    lc->waiting[lc->waiting_len++] = i;
}

bool lower_check_function(LowerCheck *lc, Function *f)
{
    Module *m = lc->m;
    Reach *r = &lc->r;
    reach_sync(r);
    count_totals(lc);
    uint32_t i = m->functions.len - 1;
    if (m->functions.data[i] != f)
        BUG("lower_check_function: not the newest function");
    if (f->skipped)                            /* another reader's to lower */
        return true;
    if (!f->is_entry || !f->has_body)
        return false;
    uint64_t own = function_bytes(f);
    if (lc->first_kernel == NO_SLOT || near_limits(lc, f->code.len, f->regs.len, f->preds.len, own)) {
        if (lc->first_kernel == NO_SLOT)
            lc->first_kernel = i;
        wait_for_end(lc, i);
        return false;
    }
    reach_kernel(r, i);
    if (!reach_complete(r)) {
        wait_for_end(lc, i);
        return false;
    }
    lower_kernel(lc, i, false);
    if (lc->diag->errors)
        return false;
    for (uint32_t k = 0; k < r->found_count; k++)       /* declaring these again changes the answer */
        mark_reached(r, node_name(r, r->found[k]));
    for (uint32_t k = 0; k < r->missed_count; k++)
        mark_reached(r, r->missed[k]);
    lc->dropped_code = lc->dropped_code > f->code.len ? lc->dropped_code : f->code.len;
    lc->dropped_rows = lc->dropped_rows > f->regs.len ? lc->dropped_rows : f->regs.len;
    lc->dropped_preds = lc->dropped_preds > f->preds.len ? lc->dropped_preds : f->preds.len;
    lc->dropped_bytes = lc->dropped_bytes > own ? lc->dropped_bytes : own;
    return true;
}

bool lower_check_waits(const LowerCheck *lc)
{
    return lc->first_kernel != NO_SLOT;
}

bool lower_check_end(LowerCheck *lc, bool whole_here)
{
    reach_sync(&lc->r);
    count_totals(lc);
    bool same = !lc->r.differs && !near_limits(lc, lc->dropped_code, lc->dropped_rows, lc->dropped_preds,
                                               lc->dropped_bytes);
    for (uint32_t k = 0; k < lc->waiting_len && !lc->diag->errors && same; k++) {
        uint32_t i = lc->waiting[k];
        const Function *f = lc->m->functions.data[i];
        bool whole = (i == lc->first_kernel && whole_here) ||
                     near_limits(lc, f->code.len, f->regs.len, f->preds.len, function_bytes(f));
        if (!whole)
            reach_kernel(&lc->r, i);
        lower_kernel(lc, i, whole);
    }
    return same;
}

void lower_check_all(Module *m, Diag *diag)
{
    LowerCheck *lc = lower_check_new(m, diag);
    reach_sync(&lc->r);
    count_totals(lc);
    bool whole_done = false;
    for (uint32_t i = 0; i < m->functions.len && !diag->errors; i++) {     /* up to the first kernel refused */
        const Function *f = m->functions.data[i];
        if (!f->is_entry || !f->has_body)
            continue;
        bool whole = !whole_done || near_limits(lc, f->code.len, f->regs.len, f->preds.len, function_bytes(f));
        whole_done = true;
        if (!whole)
            reach_kernel(&lc->r, i);
        lower_kernel(lc, i, whole);
    }
    lower_check_free(lc);
}

/* Whether o (not a call's target) names a function: its address is taken. */
static bool names_function(const Reach *r, const Operand *o)
{
    if ((o->kind == OPND_SYM && o->u.ref.target == 0) || o->kind == OPND_NAME) {
        if (!o->u.ref.name)
            return false;
        uint32_t j = slot_of(r, o->u.ref.name);
        for (uint32_t n = r->keys[j] ? r->first[j] : NO_SLOT; n != NO_SLOT; n = r->next[n])
            if (!(n & 1))
                return true;
    } else if (o->kind == OPND_ADDR || o->kind == OPND_VEC || o->kind == OPND_PAIR || o->kind == OPND_LIST ||
               o->kind == OPND_REG_OFFSET) {
        for (unsigned i = 0; i < o->count && o->u.group.elems; i++)
            if (names_function(r, &o->u.group.elems[i]))
                return true;
    }
    return false;
}

/* Whether the functions found take a function's address or call through one: a function's
 * address is its place among the kernel and every .func with a body (lower.c), and a call
 * through an address (one from memory, which another kernel of the module may have written)
 * may reach any of them. */
static bool found_addresses(const Reach *r)
{
    for (uint32_t k = 0; k < r->found_count; k++) {
        if (r->found[k] & 1)
            continue;
        const Function *f = r->m->functions.data[r->found[k] >> 1];
        for (uint32_t i = 0; i < f->code.len; i++) {
            const Instr *in = &f->code.data[i];
            unsigned target = in->op == OP_CALL ? (in->operand_count && in->operands[0].kind == OPND_LIST) : UINT_MAX;
            for (unsigned o = 0; o < in->operand_count; o++) {
                if (o == target ? in->operands[o].kind == OPND_REG : names_function(r, &in->operands[o]))
                    return true;
            }
        }
    }
    return false;
}

Function **lower_reached(const Module *m, const Function *kernel, uint32_t *count)
{
    Reach r = { .m = m };
    reach_sync(&r);
    reach_start(&r);
    for (uint32_t i = 0; i < m->functions.len; i++)
        if (m->functions.data[i] == kernel)
            push_node(&r, 2 * i);
    for (uint32_t g = 0; g < m->globals.len; g++)
        push_node(&r, 2 * g + 1);
    reach_closure(&r);
    if (found_addresses(&r)) {                 /* every .func, so that addresses are the whole module's */
        for (uint32_t i = 0; i < m->functions.len; i++)
            if (m->functions.data[i]->has_body && !m->functions.data[i]->is_entry)
                push_node(&r, 2 * i);
        reach_closure(&r);
    }
    Function **fns = xmalloc((r.found_count + 1) * sizeof *fns);
    *count = 0;
    for (uint32_t k = 0; k < r.found_count; k++)
        if (!(r.found[k] & 1))
            fns[(*count)++] = m->functions.data[r.found[k] >> 1];
    reach_free(&r);
    return fns;
}
