/* layout.c: where every variable of the program lives, and which declaration a name means.
 *   .global, .const  one region each, 256 bytes apart (running off one is caught)
 *   .shared          one instance per CTA of each static variable, packed at its alignment;
 *                    then the CTA's one dynamic block, which every .extern .shared names,
 *                    then (if the program reads %reserved_smem_offset_*) the reserved bytes
 *   .param (kernel)  one read-only buffer, packed as the CUDA ABI packs the parameters
 *   .local           each thread's stack: the kernel's frame at address 0, then the frames of
 *                    calls, one per activation (a .func's parameters, results, .local
 *                    variables and the .param of its call sequences)
 * Names declared in a function belong to it and hide the module's there.
 * Requires: mem.c (regions), lower.c's Program. */
#include <stdlib.h>
#include <string.h>

#include "program.h"

enum { RETURN_ADDRESS_BYTES = 8, FRAME_ALIGN = 16 };

static uint64_t align_up(uint64_t v, uint64_t align)
{
    return align > 1 ? (v + align - 1) / align * align : v;
}

uint64_t layout_decl_bytes(const Decl *d)
{
    uint64_t element = d->type == TYPE_NONE ? 8 : (type_info[d->type].bits + 7) / 8;
    if (d->vector)
        element *= d->vector;
    uint64_t count = 1;
    for (unsigned i = 0; i < d->dim_count; i++) {
        int64_t n = d->dims[i];
        if (n < 0)
            n = d->init && d->init->kind == INIT_LIST && i == 0 ? d->init->count : 0;
        if (n && count > UINT64_MAX / 64 / (uint64_t)n)
            return UINT64_MAX;                 /* dimensions below 2^31 each: no sane size */
        count *= (uint64_t)n;
    }
    return element * count;
}

/* The declared .align, or the element's own size. */
uint32_t layout_decl_align(const Decl *d)
{
    if (d->align)
        return d->align;
    uint32_t element = d->type == TYPE_NONE ? 8 : (type_info[d->type].bits + 7) / 8;
    if (d->vector)
        element *= d->vector;
    return element ? element : 1;
}

/* Whether a declaration of the module or a function body has bytes: .reg and .sreg do not. */
static bool in_memory(int space)
{
    return space == SPACE_GLOBAL || space == SPACE_CONST || space == SPACE_SHARED || space == SPACE_LOCAL ||
           space == SPACE_PARAM;
}

static bool in_frame(const Decl *d)
{
    return d->space == SPACE_LOCAL || d->space == SPACE_PARAM;
}

/* ---- limits ---- */

static bool variable_fits(const Decl *d, uint64_t *total, Diag *diag)
{
    if (!in_memory(d->space))
        return true;
    uint64_t size = layout_decl_bytes(d);
    bool per_thread = in_frame(d);
    uint64_t bytes = size > MAX_VARIABLE_BYTES ? size : size * (per_thread ? WARP_SIZE : 1);
    if (bytes > MAX_VARIABLE_BYTES) {
        if (size == UINT64_MAX)
            diag_at(diag, DIAG_ERROR, d->at, "'%s' is too large: ptxrun holds at most %d MiB per variable",
                    d->name, MAX_VARIABLE_BYTES >> 20);
        else
            diag_at(diag, DIAG_ERROR, d->at, "'%s' needs %llu bytes%s; ptxrun holds at most %d MiB per variable%s",
                    d->name, (unsigned long long)size, per_thread ? " in each of the 32 lanes" : "",
                    MAX_VARIABLE_BYTES >> 20, per_thread ? " (all lanes' copies together)" : "");
        return false;
    }
    *total += bytes;
    if (*total > MAX_MEMORY_BYTES) {
        diag_at(diag, DIAG_ERROR, d->at, "with '%s', the program's variables need more than the %d MiB "
                "ptxrun holds", d->name, MAX_MEMORY_BYTES >> 20);
        return false;
    }
    return true;
}

/* What variable_fits counts for n declarations together, saturating; UINT64_MAX when one of
 * them alone is over MAX_VARIABLE_BYTES (for --check, lowercheck.c). */
uint64_t layout_variables_bytes(const Decl *d, uint32_t n)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!in_memory(d[i].space))
            continue;
        uint64_t size = layout_decl_bytes(&d[i]);
        uint64_t bytes = size > MAX_VARIABLE_BYTES ? size : size * (in_frame(&d[i]) ? WARP_SIZE : 1);
        if (bytes > MAX_VARIABLE_BYTES || total + bytes < total)
            return UINT64_MAX;
        total += bytes;
    }
    return total;
}

/* Every variable fits in the limits, or the program is refused before anything is allocated:
 * one variable at most MAX_VARIABLE_BYTES (all lanes' copies of a frame variable), all of them
 * together at most MAX_MEMORY_BYTES. */
bool layout_fits(const Program *prog, Diag *diag)
{
    const Module *m = prog->m;
    uint64_t total = 0;
    for (uint32_t i = 0; i < m->globals.len; i++)
        if (!variable_fits(&m->globals.data[i], &total, diag))
            return false;
    for (uint32_t k = 0; k < prog->func_count; k++) {
        const Function *fn = prog->funcs[k].fn;
        for (uint32_t i = 0; i < fn->params.len; i++)
            if (!variable_fits(&fn->params.data[i], &total, diag))
                return false;
        for (uint32_t i = 0; i < fn->returns.len; i++)
            if (!variable_fits(&fn->returns.data[i], &total, diag))
                return false;
        for (uint32_t i = 0; i < fn->decls.len; i++)
            if (!variable_fits(&fn->decls.data[i], &total, diag))
                return false;
    }
    return true;
}

/* ---- names ---- */

static Symbol *find_in(Symbol *s, uint32_t n, const char *name)
{
    for (uint32_t i = n; i-- > 0;)
        if (s[i].name == name)
            return &s[i];
    return NULL;
}

static uint32_t name_slot(const uint32_t *table, uint32_t cap, const char *name, const char *(*name_of)(const void *,
                          uint32_t), const void *owner)
{
    uint64_t x = (uintptr_t)name;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9u;
    x ^= x >> 32;
    uint32_t j = (uint32_t)x & (cap - 1);
    while (table[j] && name_of(owner, table[j] - 1) != name)
        j = (j + 1) & (cap - 1);
    return j;
}

static const char *module_name(const void *ly, uint32_t i)
{
    return ((const Layout *)ly)->module.data[i].name;
}

static const char *function_name(const void *prog, uint32_t i)
{
    return ((const Program *)prog)->funcs[i].fn->name;
}

/* Indexes the module's names and the program's functions by name, for layout_find: a module of
 * thousands of variables would otherwise be searched from end to end for each name. */
static void index_names(Layout *ly, const Program *prog)
{
    uint32_t n = ly->module.len > prog->func_count ? ly->module.len : prog->func_count;
    if (n < 16)
        return;
    for (ly->by_name_cap = 32; ly->by_name_cap < 2 * n; ly->by_name_cap *= 2) {}
    ly->by_name = xcalloc(2 * (size_t)ly->by_name_cap, sizeof *ly->by_name);
    uint32_t *functions = ly->by_name + ly->by_name_cap;
    for (uint32_t i = 0; i < ly->module.len; i++)         /* the last of a name wins, as in find_in */
        ly->by_name[name_slot(ly->by_name, ly->by_name_cap, ly->module.data[i].name, module_name, ly)] = i + 1;
    for (uint32_t i = prog->func_count; i-- > 0;) {        /* the first wins */
        uint32_t j = name_slot(functions, ly->by_name_cap, prog->funcs[i].fn->name, function_name, prog);
        functions[j] = i + 1;
    }
    ly->indexed = ly->module.len;
}

/* What a name means in function func (NO_SLOT: at module scope). decl is the checker's answer
 * for an operand: the function's own declaration with that id (blocks scope them), or 0 for a
 * module-scope name; LAYOUT_BY_NAME (initializers) looks for the function's own first. */
bool layout_find(const Layout *ly, const Program *prog, uint32_t func, const char *name, uint32_t decl, Symbol *out)
{
    const Symbol *s = NULL;
    if (func != NO_SLOT && decl != LAYOUT_BY_NAME && decl != 0) {
        uint32_t k = decl < ly->decl_count[func] ? ly->by_decl[func][decl] : NO_SLOT;
        if (k == NO_SLOT)
            return false;
        *out = ly->scope[func].data[k];
        return true;
    }
    if (func != NO_SLOT && decl == LAYOUT_BY_NAME)
        s = find_in(ly->scope[func].data, ly->scope[func].len, name);
    if (!s && ly->by_name && ly->indexed == ly->module.len) {
        const uint32_t *functions = ly->by_name + ly->by_name_cap;
        uint32_t i = functions[name_slot(functions, ly->by_name_cap, name, function_name, prog)];
        if (i) {
            *out = (Symbol){ name, SPACE_GLOBAL, SPACE_GLOBAL, MEM_FUNC_BASE + 16 * (uint64_t)(i - 1), NO_SLOT, 0 };
            return true;
        }
        i = ly->by_name[name_slot(ly->by_name, ly->by_name_cap, name, module_name, ly)];
        s = i ? &ly->module.data[i - 1] : NULL;
    } else if (!s) {
        for (uint32_t i = 0; i < prog->func_count; i++)
            if (prog->funcs[i].fn->name == name) {
                *out = (Symbol){ name, SPACE_GLOBAL, SPACE_GLOBAL, MEM_FUNC_BASE + 16 * (uint64_t)i, NO_SLOT, 0 };
                return true;
            }
        s = find_in(ly->module.data, ly->module.len, name);
    }
    if (!s)
        return false;
    *out = *s;
    return true;
}

/* Records that declaration id of function k is the symbol just pushed. */
static void bind(Layout *ly, uint32_t k, uint32_t id)
{
    if (id < ly->decl_count[k])
        ly->by_decl[k][id] = ly->scope[k].len - 1;
}

/* A declaration's id, as the checker numbers them: results, parameters, body, from 1. */
static uint32_t decl_id(const Function *fn, const Decl *d)
{
    if (d >= fn->returns.data && d < fn->returns.data + fn->returns.len)
        return 1 + (uint32_t)(d - fn->returns.data);
    if (d >= fn->params.data && d < fn->params.data + fn->params.len)
        return 1 + fn->returns.len + (uint32_t)(d - fn->params.data);
    return 1 + fn->returns.len + fn->params.len + (uint32_t)(d - fn->decls.data);
}

/* ---- frames ---- */

/* A variable of function k's frame: fixed in the kernel's (at .local offset `offset`), a row of
 * per-lane addresses in a .func's. Each declaration has its own slot (one in a { } block is
 * another variable than one of the same name outside it). */
static void frame_variable(Layout *ly, Program *prog, uint32_t k, const Decl *d, uint64_t *end, uint32_t *rows)
{
    FuncLayout *f = &prog->funcs[k];
    uint64_t size = layout_decl_bytes(d);
    uint32_t align = layout_decl_align(d);
    uint64_t offset = align_up(*end, align);
    *end = offset + size;
    if (align > f->frame_align)
        f->frame_align = align;
    Symbol s = { d->name, SPACE_LOCAL, d->space, offset, NO_SLOT, (uint32_t)size };
    if (k) {
        f->var_offset = xrealloc(f->var_offset, (f->frame_vars + 1) * sizeof *f->var_offset);
        f->var_offset[f->frame_vars] = (uint32_t)offset;
        s.row = f->frame_row + 1 + f->frame_vars++;
        (*rows)++;
    }
    VEC_PUSH(&prog->m->arena, ly->scope[k], s);
    bind(ly, k, decl_id(f->fn, d));
}

/* The frames of every function, and their rows from `rows` on; returns the rows after them.
 * The kernel's frame also holds the module's .local variables (ptxas refuses those; older
 * PTX had them). */
uint32_t layout_frames(Layout *ly, Program *prog, uint32_t rows)
{
    ly->scope = xcalloc(prog->func_count, sizeof *ly->scope);
    ly->by_decl = xcalloc(prog->func_count, sizeof *ly->by_decl);
    ly->decl_count = xcalloc(prog->func_count, sizeof *ly->decl_count);
    const Module *m = prog->m;
    for (uint32_t k = 0; k < prog->func_count; k++) {
        FuncLayout *f = &prog->funcs[k];
        const Function *fn = f->fn;
        uint64_t end = 0;
        f->frame_row = NO_SLOT;
        f->frame_align = 16;
        ly->decl_count[k] = 1 + fn->returns.len + fn->params.len + fn->decls.len;
        ly->by_decl[k] = xmalloc(ly->decl_count[k] * sizeof *ly->by_decl[k]);
        for (uint32_t i = 0; i < ly->decl_count[k]; i++)
            ly->by_decl[k][i] = NO_SLOT;
        if (k == 0) {
            /* The kernel's parameters, packed in declaration order, each at its alignment, in
             * the parameter buffer (their names first: the body's own hide them). */
            f->params = xcalloc(fn->params.len + 1, sizeof *f->params);
            uint64_t at = 0;
            for (uint32_t i = 0; i < fn->params.len; i++) {
                const Decl *d = &fn->params.data[i];
                uint64_t offset = align_up(at, layout_decl_align(d)), size = layout_decl_bytes(d);
                f->params[i] = (FrameSlot){ (uint32_t)offset, (uint32_t)size };
                Symbol s = { d->name, SPACE_PARAM, SPACE_PARAM, offset, NO_SLOT, (uint32_t)size };
                VEC_PUSH(&prog->m->arena, ly->scope[0], s);
                bind(ly, 0, decl_id(fn, d));
                at = offset + size;
            }
            for (uint32_t i = 0; i < m->globals.len; i++)
                if (m->globals.data[i].space == SPACE_LOCAL) {
                    const Decl *d = &m->globals.data[i];
                    end = align_up(end, layout_decl_align(d));
                    Symbol s = { d->name, SPACE_LOCAL, SPACE_LOCAL, end, NO_SLOT, (uint32_t)layout_decl_bytes(d) };
                    VEC_PUSH(&prog->m->arena, ly->module, s);
                    end += s.size;
                }
        } else {
            f->frame_row = rows++;
            uint32_t n = fn->params.len + fn->returns.len;
            f->params = xcalloc(n + 1, sizeof *f->params);
            for (uint32_t i = 0; i < n; i++) {
                const Decl *d = i < fn->params.len ? &fn->params.data[i] : &fn->returns.data[i - fn->params.len];
                frame_variable(ly, prog, k, d, &end, &rows);
                const Symbol *s = &ly->scope[k].data[ly->scope[k].len - 1];
                f->params[i] = (FrameSlot){ (uint32_t)s->address, s->size };
            }
        }
        uint64_t local = 0;
        for (uint32_t i = 0; i < fn->decls.len; i++) {
            const Decl *d = &fn->decls.data[i];
            if (in_frame(d))
                frame_variable(ly, prog, k, d, &end, &rows);
            if (d->space == SPACE_LOCAL)
                local = align_up(local, layout_decl_align(d)) + layout_decl_bytes(d);
        }
        f->frame_size = (uint32_t)align_up(k ? align_up(end, 8) + RETURN_ADDRESS_BYTES : end, FRAME_ALIGN);
        f->charge = (uint32_t)(align_up(local, 8) + RETURN_ADDRESS_BYTES);
    }
    return rows;
}

/* ---- regions ---- */

/* Of the declarations of name among n: 1 if one is before offset, 0 if all after it, -1 if none. */
static int declared_before(const Decl *decls, uint32_t n, const char *name, uint32_t offset)
{
    int found = -1;
    for (uint32_t i = 0; i < n; i++)
        if (decls[i].name == name) {
            if (decls[i].at.offset < offset)
                return 1;                      /* (perhaps declared again after: .extern) */
            found = 0;
        }
    return found;
}

/* Why ptxas 13.0 refuses the address s of v in d's initializer (d of function func, or NO_SLOT), or
 * NULL: a variable not in .global or .const, or not declared before d; a kernel; a function's with
 * an offset or generic(). */
static const char *address_refused(const Program *prog, uint32_t func, const Decl *d, const Init *v,
                                   const Symbol *s)
{
    if (s->space == SPACE_GLOBAL && s->address >= MEM_FUNC_BASE && !s->size) {
        if (prog->funcs[(s->address - MEM_FUNC_BASE) / 16].fn->is_entry)
            return "is a kernel, whose address no initializer takes";
        return v->kind == INIT_GENERIC || v->offset ? "is a function: an initializer takes its address alone" : NULL;
    }
    if (s->space != SPACE_GLOBAL && s->space != SPACE_CONST)
        return "is not a .global or .const variable, whose address alone an initializer takes";
    int before = -1;
    if (func != NO_SLOT) {
        const Function *fn = prog->funcs[func].fn;
        before = declared_before(fn->decls.data, fn->decls.len, v->name, d->at.offset);
    }
    if (before < 0)
        before = declared_before(prog->m->globals.data, prog->m->globals.len, v->name, d->at.offset);
    return before ? NULL : "is not declared before this variable, as an initializer's variable must be";
}

/* Why d's initializer cannot name v->name, which the layout does not hold (or holds in a register):
 * a kernel's or an undeclared name ptxas refuses; else what ptxrun cannot place yet. */
static void name_refused(const Layout *ly, const Program *prog, uint32_t func, const Decl *d, const Init *v)
{
    const Module *m = prog->m;
    bool known = declared_before(m->globals.data, m->globals.len, v->name, UINT32_MAX) >= 0 ||
                 (func != NO_SLOT && declared_before(prog->funcs[func].fn->decls.data,
                                                     prog->funcs[func].fn->decls.len, v->name, UINT32_MAX) >= 0);
    for (uint32_t i = 0; i < m->functions.len && !known; i++)
        if (m->functions.data[i]->name == v->name) {
            if (m->functions.data[i]->is_entry) {
                diag_at(ly->diag, DIAG_ERROR, v->at, "'%s' is a kernel, whose address no initializer takes (ptxas "
                        "refuses it)", v->name);
                return;
            }
            known = true;
        }
    if (known)
        diag_at(ly->diag, DIAG_ERROR, d->at, "ptxrun cannot execute an initializer with the address of '%s' yet",
                v->name);
    else
        diag_at(ly->diag, DIAG_ERROR, v->at, "'%s' is not declared (ptxas refuses it)", v->name);
}

/* Writes an initializer, flattened, as elements of the declaration's type. */
static bool write_init(const Layout *ly, const Program *prog, uint32_t func, Region *r, const Decl *d, const Init *v,
                       uint64_t *index)
{
    if (v->kind == INIT_LIST) {
        for (uint32_t i = 0; i < v->count; i++)
            if (!write_init(ly, prog, func, r, d, &v->elems[i], index))
                return false;
        return true;
    }
    unsigned size = d->type == TYPE_NONE ? 8 : (type_info[d->type].bits + 7) / 8;
    if ((*index + 1) * size > r->size)
        return true;                          /* more values than room: the checker's business */
    uint64_t bits = v->bits;
    char cls = d->type == TYPE_NONE ? 'b' : type_info[d->type].cls;
    if (v->kind == INIT_SYM || v->kind == INIT_GENERIC) {
        Symbol s;
        if (!layout_find(ly, prog, func, v->name, LAYOUT_BY_NAME, &s) || s.row != NO_SLOT) {
            name_refused(ly, prog, func, d, v);
            return false;
        }
        const char *why = address_refused(prog, func, d, v, &s);
        if (why) {
            diag_at(ly->diag, DIAG_ERROR, v->at, "'%s' %s (ptxas refuses it)", v->name, why);
            return false;
        }
        bits = (v->kind == INIT_GENERIC ? mem_generic(s.space, s.address) : s.address) + (uint64_t)v->offset;
    } else if (size == 4 && (cls == 'f' || cls == 'b') && v->kind == INIT_F64) {
        double dd;                            /* a real into 4 bytes is rounded to a float (ptxas) */
        memcpy(&dd, &v->bits, sizeof dd);
        float f = (float)dd;
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        bits = b;
    }   /* otherwise the bits as they are, cut to the size: an 0f literal's in 8 bytes too (ptxas; cexpr.c warns) */
    for (unsigned i = 0; r->data && i < size; i++)       /* (no bytes: only placed, for --check) */
        r->data[*index * size + i] = (uint8_t)(bits >> (8 * i));
    (*index)++;
    return true;
}

/* A static .global or .const variable where the caller's Memory.place puts it: its region, or
 * NO_SLOT for ptxrun's own. *fresh: its bytes are new, to be given the initializer. */
static uint32_t placed(Memory *mem, const Decl *d, uint64_t size, bool *fresh)
{
    if (!mem->place || mem->placed_only || (d->space != SPACE_GLOBAL && d->space != SPACE_CONST) || !size)
        return NO_SLOT;
    uint32_t align = layout_decl_align(d);
    uint8_t *bytes = mem->place(mem->place_context, d, d->name, d->space, size, align, fresh);
    if (!bytes)
        return NO_SLOT;
    if (d->space == SPACE_CONST)
        return mem_add_const_host(mem, d->name, bytes, size, align);
    uint32_t r = mem_add_host(mem, d->name, bytes, size, false);
    if (r == UINT32_MAX)
        BUG("placed variable '%s' overlaps another", d->name);
    mem->regions[r].is_buffer = false;
    return r;
}

/* A static variable of the module (func NO_SLOT) or of function func: a region of its own, one
 * per CTA for .shared (which, as on a GPU, starts undefined). An .extern .shared names the
 * dynamic block: its address comes once the static ones are placed. */
static void static_variable(Layout *ly, Program *prog, uint32_t func, const Decl *d, uint32_t *max_extern_align)
{
    Arena *arena = &prog->m->arena;
    Symbol s = { d->name, d->space, d->space, 0, NO_SLOT, 0 };
    if (d->space == SPACE_SHARED && (d->linkage & LINK_EXTERN)) {
        uint32_t a = layout_decl_align(d);
        *max_extern_align = a > *max_extern_align ? a : *max_extern_align;
        s.size = UINT32_MAX;                  /* marks the dynamic block until it is placed */
    } else {
        uint64_t size = layout_decl_bytes(d);
        bool fresh = true;
        uint32_t r = placed(ly->mem, d, size, &fresh);
        if (r == NO_SLOT) {
            fresh = true;                     /* ptxrun's own bytes, new with each lowering */
            r = mem_add(ly->mem, d->name, d->space, size, layout_decl_align(d), d->type == TYPE_NONE ? TYPE_B8 : d->type,
                        false, d->space != SPACE_SHARED);
        }
        s.address = ly->mem->regions[r].base;
        s.size = (uint32_t)size;
        ly->mem->regions[r].decl = d;
        if (d->init && fresh) {
            PendingInit p = { d, r, func };
            VEC_PUSH(arena, ly->inits, p);
        }
    }
    if (func == NO_SLOT) {
        VEC_PUSH(arena, ly->module, s);
    } else {
        VEC_PUSH(arena, ly->scope[func], s);
        bind(ly, func, decl_id(prog->funcs[func].fn, d));
    }
}

static void place_dynamic(SymbolVec *v, uint64_t base)
{
    for (uint32_t i = 0; i < v->len; i++)
        if (v->data[i].space == SPACE_SHARED && v->data[i].size == UINT32_MAX) {
            v->data[i].address = base;
            v->data[i].size = 0;
        }
}

/* Whether the program reads a %reserved_smem_offset_* register: the reserved .shared bytes they
 * point into are made only then. */
static bool reads_reserved_smem(const Program *prog)
{
    for (uint32_t k = 0; k < prog->func_count; k++) {
        const Function *fn = prog->funcs[k].fn;
        for (uint32_t i = 0; i < fn->code.len; i++)
            for (unsigned j = 0; j < fn->code.data[i].operand_count; j++) {
                const Operand *o = &fn->code.data[i].operands[j];
                if (o->kind == OPND_SREG && o->u.sreg >= SREG_RESERVED_SMEM_OFFSET_BEGIN &&
                    o->u.sreg <= SREG_RESERVED_SMEM_OFFSET_1)
                    return true;
            }
    }
    return false;
}

/* Every region: static variables, the kernel's parameter buffer, the dynamic .shared block and
 * the threads' .local stacks (the kernel's frame plus stack_bytes each); then initializers.
 * False after reporting an initializer ptxrun cannot write. */
_Static_assert(MEM_ALLOCA_TOP >= 2ull * MAX_VARIABLE_BYTES, "the frames' region could grow into alloca's");

static bool calls_alloca(const Program *prog)
{
    for (uint32_t k = 0; k < prog->func_count; k++)
        for (uint32_t i = 0; i < prog->funcs[k].fn->code.len; i++)
            if (prog->funcs[k].fn->code.data[i].op == OP_ALLOCA)
                return true;
    return false;
}

bool layout_memory(Layout *ly, Program *prog, uint32_t stack_bytes)
{
    Module *m = prog->m;
    Memory *mem = ly->mem;
    uint32_t max_extern_align = 16;
    for (uint32_t i = 0; i < m->globals.len; i++) {
        const Decl *d = &m->globals.data[i];
        if (in_memory(d->space) && d->space != SPACE_LOCAL && d->space != SPACE_PARAM)
            static_variable(ly, prog, NO_SLOT, d, &max_extern_align);
    }
    for (uint32_t k = 0; k < prog->func_count; k++) {
        const Function *fn = prog->funcs[k].fn;
        for (uint32_t i = 0; i < fn->decls.len; i++) {
            const Decl *d = &fn->decls.data[i];
            if (in_memory(d->space) && !in_frame(d))
                static_variable(ly, prog, k, d, &max_extern_align);
        }
    }
    const Function *kernel = prog->funcs[0].fn;
    FuncLayout *kf = &prog->funcs[0];
    uint64_t end = kernel->params.len ? kf->params[kernel->params.len - 1].offset + kf->params[kernel->params.len - 1].size : 0;
    prog->param_region = mem_add(mem, "kernel parameters", SPACE_PARAM, end, 16, TYPE_B8, false, false);
    mem->regions[prog->param_region].kernel_param = true;
    prog->dynamic_region = mem_add(mem, "dynamic .shared", SPACE_SHARED, 0, max_extern_align, TYPE_B8, false, false);
    uint64_t base = mem->regions[prog->dynamic_region].base;
    prog->reserved_region = reads_reserved_smem(prog) ?
        mem_add(mem, "reserved .shared", SPACE_SHARED, RESERVED_SMEM_BYTES, RESERVED_SMEM_ALIGN, TYPE_B8, false, false) :
        NO_SLOT;
    place_dynamic(&ly->module, base);
    index_names(ly, prog);
    for (uint32_t k = 0; k < prog->func_count; k++)
        place_dynamic(&ly->scope[k], base);
    /* Each thread's stack: the kernel's frame, then room for calls. A call is charged its
     * .local bytes and a return address (the ABI passes parameters in registers), but its frame
     * here also holds its parameters, so the stack grows when the frames need more room. */
    prog->stack_bytes = stack_bytes;
    uint64_t room = stack_bytes < 4096 ? stack_bytes : 4096;
    prog->local_region = mem_add(mem, ".local stack", SPACE_LOCAL, kf->frame_size + room, 16, TYPE_B8, true, false);
    /* alloca's stack, apart from the frames: it grows down from MEM_ALLOCA_TOP (PTX ISA, alloca),
     * above where the frames' region can grow (each region at most MAX_VARIABLE_BYTES). */
    prog->alloca_region = NO_SLOT;
    if (calls_alloca(prog)) {
        prog->alloca_region = mem_add(mem, ".local alloca", SPACE_LOCAL, 0, 16, TYPE_B8, true, false);
        mem_move(mem, prog->alloca_region, MEM_ALLOCA_TOP);
    }
    /* Initializers last: they may take the address of a variable declared after them. */
    for (uint32_t i = 0; i < ly->inits.len; i++) {
        const PendingInit *p = &ly->inits.data[i];
        uint64_t index = 0;
        if (!write_init(ly, prog, p->func, &mem->regions[p->region], p->decl, p->decl->init, &index))
            return false;
    }
    return true;
}

void layout_free(Layout *ly, uint32_t func_count)
{
    for (uint32_t k = 0; ly->by_decl && k < func_count; k++)
        free(ly->by_decl[k]);
    free(ly->by_decl);
    free(ly->decl_count);
    free(ly->scope);                          /* the symbols themselves are in the module's arena */
    ly->scope = NULL;
    free(ly->by_name);
    ly->by_name = NULL;
}
