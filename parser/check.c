/* check.c: turns the parsed module into the decoded program and reports what is wrong with it.
 * It runs the pass: it declares the module's and each function's names, with their scopes, and
 * resolves every name an instruction uses (registers to dense slots, labels to instruction
 * indices, variables and functions to symbols). Each instruction's mnemonic is decoded by
 * decode.c; what its suffixes must say together is suffixes.c's; its version, target and
 * operands are checked by checkop.c. A valid form that ptxrun does not execute (a !word of
 * ops.def) is refused here, where it is written, before anything runs (to CheckOptions.refusals
 * when given: a run says only those of the code its kernel reaches).
 * In a snippet, undeclared names become registers: predicates where they are used as one,
 * otherwise values typed by their uses (a typed use such as .f32 wins over a .b32 one).
 * Requires: a Module from parse_module. */
#include <stdlib.h>
#include <string.h>

#include "checker.h"

/* A name visible in the current function. Shadowed bindings are restored when a block closes. */
typedef enum { SYM_REG, SYM_PRED, SYM_RANGE, SYM_PRED_RANGE, SYM_VECTOR, SYM_VAR, SYM_FUNC, SYM_LABEL,
               SYM_ABSENT = 0xfe, SYM_REMOVED = 0xff } SymKind;   /* ABSENT: looked up, not declared (streaming) */

typedef struct Binding {
    const char *name;
    uint8_t kind;              /* SymKind */
    uint32_t index;            /* slot, first slot of a range, label index; a function's variable:
                                  its declaration's id (results, parameters, body, from 1) */
    uint32_t count;            /* ranges: how many registers */
    Span at;                   /* where it was declared */
    bool used;                 /* module scope: a streamed function resolved it */
} Binding;

typedef struct Undo {
    uint32_t depth;
    Binding previous;          /* what the name meant before (name == NULL: nothing) */
    const char *name;
} Undo;

typedef struct SymTable {      /* open addressing, keyed by interned name pointer; pages_alloc */
    Binding *slots;
    uint32_t count, capacity;
    uint32_t *filled;          /* the slots in use, so that emptying touches only those */
} SymTable;

struct Checker {
    Module *m;
    Arena *own;                /* what a function gains (registers, operands): its body's arena */
    Diag *diag, *refusals;     /* refusals: CheckOptions.refusals, or diag */
    const CheckOptions *options;
    Function *fn;
    SymTable globals;          /* variables and functions of the module */
    SymTable locals;           /* registers, labels, variables of the function */
    VEC(Undo) undo;            /* for block scopes */
    uint32_t depth;
    bool vectors;              /* the function has declared a vector register (SYM_VECTOR) */
    Decoder *decoder;          /* mnemonics decoded so far */
    ShapeMemo *shapes;         /* operand shapes of the forms seen so far */
    bool warned_legacy[OP_COUNT];  /* the deprecation warning is given once per opcode */
    uint32_t globals_done, functions_done;  /* streaming: module-scope names declared so far */
    bool differs;              /* streaming: a used module-scope name was declared again */
};

/* ---- symbol tables ---- */

/* At most three quarters full (probes stay short: keys are pointers, well mixed). */
static SymTable sym_new(uint32_t capacity)
{
    return (SymTable){ pages_alloc(capacity * sizeof(Binding)), 0, capacity,
                       pages_alloc(capacity / 4 * 3 * sizeof(uint32_t)) };
}

static void sym_free(SymTable *t)
{
    pages_free(t->slots, t->capacity * sizeof *t->slots);
    pages_free(t->filled, t->capacity / 4 * 3 * sizeof *t->filled);
}

/* Empties the table; one grown for a large function goes back to the first size, so that
 * emptying stays in proportion to what the function put in it. */
static void sym_clear(SymTable *t)
{
    if (t->capacity > 256 && (uint64_t)t->count * 8 < t->capacity) {
        sym_free(t);
        *t = sym_new(256);
        return;
    }
    for (uint32_t i = 0; i < t->count; i++)
        t->slots[t->filled[i]] = (Binding){ 0 };
    t->count = 0;
}

static Binding *sym_slot(SymTable *t, const char *name)
{
    uint32_t j = checker_pointer_hash(name) & (t->capacity - 1);
    while (t->slots[j].name && t->slots[j].name != name)
        j = (j + 1) & (t->capacity - 1);
    return &t->slots[j];
}

static Binding *sym_find(SymTable *t, const char *name)
{
    Binding *b = sym_slot(t, name);
    return b->name ? b : NULL;
}

static void sym_put(SymTable *t, Binding value)
{
    if ((uint64_t)(t->count + 1) * 4 > (uint64_t)t->capacity * 3) {
        SymTable bigger = sym_new(t->capacity * 2);
        for (uint32_t i = 0; i < t->capacity; i++)
            if (t->slots[i].name && t->slots[i].kind != SYM_REMOVED) {
                Binding *b = sym_slot(&bigger, t->slots[i].name);
                *b = t->slots[i];
                bigger.filled[bigger.count++] = (uint32_t)(b - bigger.slots);
            }
        sym_free(t);
        *t = bigger;
    }
    Binding *b = sym_slot(t, value.name);
    if (!b->name)
        t->filled[t->count++] = (uint32_t)(b - t->slots);
    *b = value;
}

/* Removing a key from linear probing is awkward; a tombstone kind keeps chains intact. */
static void sym_remove(SymTable *t, const char *name)
{
    Binding *b = sym_find(t, name);
    if (b)
        b->kind = SYM_REMOVED;
}

static Binding *sym_lookup(SymTable *t, const char *name)
{
    Binding *b = sym_find(t, name);
    return b && b->kind != SYM_REMOVED && b->kind != SYM_ABSENT ? b : NULL;
}

/* A module-scope name. While streaming, what each lookup found is remembered (a miss too), so
 * that declaring the name again later is noticed: check_module would have found that one. */
static Binding *global_lookup(Checker *c, const char *name)
{
    if (c->own != &c->m->body)
        return sym_lookup(&c->globals, name);
    Binding *b = sym_find(&c->globals, name);
    if (!b) {
        sym_put(&c->globals, (Binding){ .name = name, .kind = SYM_ABSENT, .used = true });
        return NULL;
    }
    b->used = true;
    return b->kind == SYM_REMOVED || b->kind == SYM_ABSENT ? NULL : b;
}

/* Binds name in the current function, remembering the shadowed meaning for block exit. */
static void bind_local(Checker *c, Binding b)
{
    Binding *old = sym_lookup(&c->locals, b.name);
    if (c->depth > 0) {
        Undo u = { c->depth, old ? *old : (Binding){ 0 }, b.name };
        VEC_PUSH(&c->m->arena, c->undo, u);
    }
    sym_put(&c->locals, b);
}

static void close_scope(Checker *c)
{
    while (c->undo.len && c->undo.data[c->undo.len - 1].depth == c->depth) {
        Undo *u = &c->undo.data[--c->undo.len];
        if (u->previous.name)
            sym_put(&c->locals, u->previous);
        else
            sym_remove(&c->locals, u->name);
    }
    c->depth--;
}

/* ---- helpers ---- */

static void error(Checker *c, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vat(c->diag, DIAG_ERROR, at, fmt, ap);
    va_end(ap);
}

static uint32_t line_of(Checker *c, Span at)
{
    uint32_t line, column;
    source_position(c->m->src, at.offset, &line, &column);
    return line;
}

/* ---- name resolution ---- */

static Register *reg_at(Function *f, bool pred, uint32_t slot)
{
    return pred ? &f->preds.data[slot] : &f->regs.data[slot];
}

static uint32_t new_register(Checker *c, const char *name, bool pred, int type)
{
    Register r = { name, (uint8_t)type, pred, false, false };
    Function *f = c->fn;
    if (pred) {
        VEC_PUSH(c->own, f->preds, r);
        return f->preds.len - 1;
    }
    VEC_PUSH(c->own, f->regs, r);
    if (type == TYPE_B128) {                   /* its high 64 bits: the next slot (ir.h) */
        Register upper = { NULL, TYPE_B64, false, false, true };
        VEC_PUSH(c->own, f->regs, upper);
        return f->regs.len - 2;
    }
    return f->regs.len - 1;
}

/* Looks up %r17 in a range declaration %r<N>; binds the full name for the next lookup. */
static Binding *lookup_in_range(Checker *c, const char *name)
{
    size_t len = strlen(name), digits = len;
    while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9')
        digits--;
    if (digits == len || digits == 0 || len - digits > 9 || (name[digits] == '0' && len - digits > 1))
        return NULL;
    const char *prefix = intern(&c->m->names, name, digits);
    Binding *range = sym_lookup(&c->locals, prefix);
    if (!range || (range->kind != SYM_RANGE && range->kind != SYM_PRED_RANGE))
        return NULL;
    uint32_t n = 0;                          /* at most 9 digits: fits */
    for (size_t i = digits; i < len; i++)
        n = n * 10 + (uint32_t)(name[i] - '0');
    if (n >= range->count)
        return NULL;
    bool pred = range->kind == SYM_PRED_RANGE;
    uint32_t stride = !pred && c->fn->regs.data[range->index].type == TYPE_B128 ? 2 : 1;   /* new_register */
    uint32_t slot = range->index + n * stride;
    Register *r = reg_at(c->fn, pred, slot);
    if (!r->name)
        r->name = name;
    Binding b = { name, pred ? SYM_PRED : SYM_REG, slot, 1, range->at, false };
    bind_local(c, b);             /* forgotten with the current block; found again if needed */
    return sym_lookup(&c->locals, name);
}

/* Special register and component: "%tid.x" -> SREG_TID, 1. */
static bool resolve_sreg(Checker *c, Operand *o, const char *name)
{
    size_t len = strlen(name), base = strcspn(name, ".");
    int s = sreg_lookup(name, base);
    if (s == SREG_COUNT)
        return false;
    int component = 0;
    if (base < len) {
        if (len - base == 2 && name[base + 1] >= 'x' && name[base + 1] <= 'z')
            component = name[base + 1] - 'x' + 1;
        else
            component = -1;
    }
    if (component < 0 || (component > 0 && !sreg_info[s].xyz)) {
        error(c, o->at, "special register '%.*s' has no component '%s'", (int)base, name, name + base);
    } else if (component == 0 && sreg_info[s].xyz) {
        error(c, o->at, "special register '%s' needs a component (.x, .y or .z)", name);
    }
    const SregInfo *info = &sreg_info[s];
    if (c->m->version && c->m->version < info->min_ptx)
        error(c, o->at, "'%.*s' requires PTX ISA %u.%u or later (this module is .version %u.%u)", (int)base, name,
              info->min_ptx / 10, info->min_ptx % 10, c->m->version / 10, c->m->version % 10);
    if (c->m->target_sm && c->m->target_sm < info->min_sm)
        error(c, o->at, "'%.*s' requires sm_%u or later (this module targets sm_%u)", (int)base, name, info->min_sm,
              c->m->target_sm);
    o->kind = OPND_SREG;
    o->u.sreg = (uint16_t)s;
    o->component = (uint8_t)(component > 0 ? component : 0);
    return true;
}

/* Snippet registers take the type of their typed uses; .bN uses only fix the width. */
static void infer_type(Checker *c, Operand *o, Register *r, int type)
{
    if (type == TYPE_NONE || r->is_pred)
        return;
    if (type == TYPE_B128) {                   /* one slot was made for it, not two (new_register) */
        diag_at(c->refusals, DIAG_ERROR, o->at, "ptxrun cannot execute an undeclared .b128 register yet: "
                "declare '%s' with .reg .b128", r->name);
        return;
    }
    if (r->type == TYPE_NONE) {
        r->type = (uint8_t)type;
        return;
    }
    if (checker_type_bits(r->type) != checker_type_bits(type)) {
        error(c, o->at, "'%s' is used as a %u-bit value here and as a %u-bit one before", r->name,
              checker_type_bits(type), checker_type_bits(r->type));
        return;
    }
    char had = checker_type_class(r->type), now = checker_type_class(type);
    if (had == 'b' && now != 'b')
        r->type = (uint8_t)type;
    else if (had != 'b' && now != 'b' && r->type != type && !(had != 'f' && now != 'f' && had == now))
        r->type = (uint8_t)checker_type_of('b', checker_type_bits(type));
}

/* A video selector after a register's name, "b0" "h1" "h32" "b7654" (the part after the
 * dot): its Operand.select, or 0 when the text is not one. Which forms an instruction takes is
 * checkop.c's business. */
static unsigned parse_selector(const char *s)
{
    if (s[0] != 'b' && s[0] != 'h')
        return 0;
    unsigned select = s[0] == 'h' ? SEL_HALF : 0, count = 0, digits = 0;
    for (s++; *s; s++, count++) {
        if (*s < '0' || *s > '7' || count == SEL_MAX_DIGITS)
            return 0;
        digits = digits << 3 | (unsigned)(*s - '0');
    }
    return count ? select | count << SEL_COUNT_SHIFT | digits : 0;
}

/* A[k], the address of element k: ptxas scales k by the size of A's element type (a vector
 * variable's too: .v4 .f32 V[4] makes V[1] V+4), as cubins compared byte for byte show; A[r]
 * is refused. */
/* The declaration of variable b (a local one when local). */
static const Decl *variable_decl(Checker *c, const Binding *b, bool local)
{
    if (b->kind != SYM_VAR)
        return NULL;
    if (!local)
        return &c->m->globals.data[b->index];
    Function *f = c->fn;
    uint32_t id = b->index - 1, results = f->returns.len, params = f->params.len;
    return id < results ? &f->returns.data[id] : id < results + params ? &f->params.data[id - results]
                                                                      : &f->decls.data[id - results - params];
}

static bool index_element(Checker *c, Operand *o, const Binding *b, bool local)
{
    const Decl *d = variable_decl(c, b, local);
    if (!d || d->dim_count == 0) {
        error(c, o->at, "'%s' is not an array: only an array variable takes an index", o->u.ref.name);
        return false;
    }
    if (o->flags & OPNDF_REG_INDEX) {
        diag_at(c->refusals, DIAG_ERROR, o->at, "ptxrun cannot execute an array element at a register index yet");
        return false;
    }
    o->u.ref.offset *= (int64_t)(checker_type_bits(d->type) / 8);
    o->flags &= (uint8_t)~OPNDF_INDEXED;
    return true;
}

/* Resolves one name operand in place. */
static void resolve_name(Checker *c, Operand *o, Expect e)
{
    const char *name = o->u.ref.name;
    bool is_not = o->flags & OPNDF_NOT;
    if (name[0] == '_' && name[1] == '\0') {
        o->kind = OPND_SINK;
        return;
    }
    const char *dot = strchr(name, '.');
    if (dot && sreg_lookup(name, (size_t)(dot - name)) == SREG_COUNT && parse_selector(dot + 1)) {
        o->select = (uint16_t)parse_selector(dot + 1);          /* r.b0: the register r, selected */
        name = o->u.ref.name = intern(&c->m->names, name, (size_t)(dot - name));
    }
    Binding *b = sym_lookup(&c->locals, name);
    if (!b)
        b = lookup_in_range(c, name);
    if (!b && e.letter != 'l')
        b = global_lookup(c, name);
    if (!b && e.letter != 'l' && name[0] == '%' && resolve_sreg(c, o, name))
        return;
    if (!b && c->fn->is_snippet && e.letter != 'l') {
        if ((e.pred ? c->fn->preds.len : c->fn->regs.len) >= MAX_REGISTERS) {
            error(c, o->at, "'%s' would make more than %d %s in '%s'", name, MAX_REGISTERS,
                  e.pred ? "predicates" : "registers", c->fn->name);
            return;
        }
        uint32_t slot = new_register(c, name, e.pred, TYPE_NONE);
        reg_at(c->fn, e.pred, slot)->inferred = true;
        Binding nb = { name, e.pred ? SYM_PRED : SYM_REG, slot, 1, o->at, false };
        sym_put(&c->locals, nb);
        b = sym_lookup(&c->locals, name);
    }
    if (!b) {
        if (e.letter == 'l')
            error(c, o->at, "undefined label '%s'", name);
        else
            error(c, o->at, "undeclared identifier '%s'", name);
        return;
    }
    if (o->flags & (OPNDF_INDEXED | OPNDF_REG_INDEX) && b->kind != SYM_VAR) {
        error(c, o->at, "'%s' is not an array: only an array variable takes an index", name);
        return;
    }
    switch (b->kind) {
    case SYM_REG:
    case SYM_PRED:
        if (o->u.ref.offset) {                 /* r+imm: a value (ptxas takes it) */
            int64_t offset = o->u.ref.offset;
            if (b->kind == SYM_PRED || e.dest) {
                error(c, o->at, "a %s cannot take an offset", b->kind == SYM_PRED ? "predicate" : "destination");
                return;
            }
            Operand *reg = arena_alloc(c->own, sizeof *reg);
            *reg = (Operand){ .kind = OPND_REG, .at = o->at, .u.slot = b->index };
            o->kind = OPND_REG_OFFSET;
            o->count = 1;
            o->u.group.elems = reg;
            o->u.group.offset = offset;
            break;
        }
        o->kind = b->kind == SYM_PRED ? OPND_PRED : OPND_REG;
        o->u.slot = b->index;
        if (o->kind == OPND_REG && c->fn->regs.data[o->u.slot].inferred)
            infer_type(c, o, &c->fn->regs.data[o->u.slot], e.type);
        break;
    case SYM_VECTOR: {                     /* the vector register v: {v.x, v.y, ...} */
        if (o->u.ref.offset) {
            error(c, o->at, "a register cannot take an offset");
            return;
        }
        Operand *elems = arena_alloc(c->own, b->count * sizeof *elems);
        for (uint32_t i = 0; i < b->count; i++)
            elems[i] = (Operand){ .kind = OPND_REG, .at = o->at, .u.slot = b->index + i };
        o->kind = OPND_VEC;
        o->flags |= OPNDF_VECTOR_REG;
        o->count = (uint16_t)b->count;
        o->u.group.elems = elems;
        o->u.group.offset = 0;
        break;
    }
    case SYM_LABEL: {
        o->kind = OPND_LABEL;
        o->u.ref.target = c->fn->labels.data[b->index].target;
        break;
    }
    case SYM_VAR:
    case SYM_FUNC:
        if (o->flags & (OPNDF_INDEXED | OPNDF_REG_INDEX) && !index_element(c, o, b, b == sym_lookup(&c->locals, name)))
            return;
        o->kind = OPND_SYM;
        /* Which declaration: a function's own (its id, counting results, parameters, then body
         * declarations from 1; blocks scope them) or 0, a module-scope name. */
        o->u.ref.target = b->kind == SYM_VAR && b == sym_lookup(&c->locals, name) ? b->index : 0;
        break;
    default:
        error(c, o->at, "'%s' is a register range; name one register, such as '%s0'", name, name);
        return;
    }
    if (is_not && o->kind != OPND_PRED)
        error(c, o->at, "'!' applies to predicates only");
    if (o->select && o->kind != OPND_REG)
        error(c, o->at, "a selector such as '.b0' follows a register only");
}

/* Resolves every name inside an operand (addresses, vectors, pairs, lists). */
static void resolve_operand(Checker *c, Operand *o, Expect e)
{
    switch (o->kind) {
    case OPND_NAME:
        resolve_name(c, o, e);
        break;
    case OPND_PAIR: {
        resolve_operand(c, &o->u.group.elems[0], e);
        Expect p = { e.letter, true, true, TYPE_PRED };
        resolve_operand(c, &o->u.group.elems[1], p);
        break;
    }
    case OPND_ADDR: {
        Expect base = { 0, false, false, TYPE_NONE };
        for (unsigned i = 0; i < o->count; i++)
            resolve_operand(c, &o->u.group.elems[i], base);
        break;
    }
    case OPND_VEC:
    case OPND_LIST: {
        Expect elem = e;
        elem.letter = 0;
        if ((e.letter == 'V' || e.letter == 'S') && e.type != TYPE_NONE && o->count > 1)
            elem.type = checker_type_of('b', checker_type_bits(e.type) / o->count);   /* mov {lo, hi}: the parts */
        for (unsigned i = 0; i < o->count; i++)
            resolve_operand(c, &o->u.group.elems[i], elem);
        break;
    }
    default:
        break;
    }
}

/* ---- instructions ---- */

/* The names of vector registers become their vectors before the suffixes are checked against
 * the operands (ld.v4.f32 v, [a]). */
static void expand_vectors(Checker *c, Instr *in)
{
    for (unsigned i = 0; c->vectors && i < in->operand_count; i++) {
        Operand *o = &in->operands[i];
        Binding *b = o->kind == OPND_NAME ? sym_lookup(&c->locals, o->u.ref.name) : NULL;
        if (b && b->kind == SYM_VECTOR)
            resolve_name(c, o, (Expect){ 0, false, false, TYPE_NONE });
    }
}

/* [a].unified (PTX ISA, ld: the address of a variable declared .attribute(.unified)): ptxas
 * takes it on ld, ldu and atom of .global or generic addresses; for ptxrun, memory is one. */
static void check_unified(Checker *c, const Instr *in, const Operand *o)
{
    static const Mod spaces[] = { MOD_SHARED, MOD_SHARED_CTA, MOD_SHARED_CLUSTER, MOD_LOCAL, MOD_CONST,
                                  MOD_PARAM, MOD_PARAM_ENTRY, MOD_PARAM_FUNC };
    bool space_ok = true;
    for (unsigned i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        space_ok &= !ir_has_mod(in, spaces[i]);
    if ((in->op != OP_LD && in->op != OP_LDU && in->op != OP_ATOM) || !space_ok) {
        error(c, o->at, "'.unified' qualifies the .global or generic address of ld, ldu or atom only");
        return;
    }
    const Operand *base = o->count == 1 ? &o->u.group.elems[0] : NULL;
    if (!base || base->kind != OPND_SYM)
        return;
    Binding *b = sym_lookup(&c->locals, base->u.ref.name);
    bool local = b != NULL;
    if (!b)
        b = global_lookup(c, base->u.ref.name);
    const Decl *d = b ? variable_decl(c, b, local) : NULL;
    bool unified = false;
    for (uint32_t i = 0; d && i < d->attr_count; i++)
        unified |= strstr(d->attrs[i], ".unified") != NULL;   /* .attribute(.unified(uuid1, uuid2)) */
    if (d && !unified)
        error(c, o->at, "'%s' is not declared .attribute(.unified(...)): its address takes no '.unified'", d->name);
}

/* Decodes in, checks it against ops.def and resolves the names it uses, guard included. */
static void check_instr(Checker *c, Instr *in)
{
    expand_vectors(c, in);
    Span refused;
    bool decoded = decode_instr(c->decoder, c->diag, c->m, in, &refused);
    if (decoded) {
        uint32_t errors = c->diag->errors;
        checkop_version_target(c->diag, c->m, c->options, c->warned_legacy, in);
        suffixes_check(c->diag, c->m, in);
        if (op_info[in->op].family == FAM_NONE && c->diag->errors == errors)
            diag_at(c->refusals, DIAG_ERROR, in->at, "ptxrun cannot execute '%s' yet", op_info[in->op].name);
        else if (refused.length && c->diag->errors == errors)
            diag_at(c->refusals, DIAG_ERROR, refused, "ptxrun cannot execute '%s' with '%.*s' yet",
                    op_info[in->op].name, (int)refused.length, c->m->src->text + refused.offset);
    }

    if (in->guard_kind) {
        Operand g;
        memset(&g, 0, sizeof g);
        g.kind = OPND_NAME;
        g.at = (Span){ in->guard_offset, (uint32_t)strlen(in->guard_name) };
        g.u.ref.name = in->guard_name;
        Expect p = { 'p', true, false, TYPE_PRED };
        resolve_name(c, &g, p);
        if (g.kind == OPND_PRED)
            in->guard_slot = g.u.slot;
        else if (g.kind == OPND_REG)
            error(c, g.at, "'%s' is not a predicate and cannot guard an instruction", in->guard_name);
        else if (g.kind != OPND_NAME)
            error(c, g.at, "a guard must be a predicate register, not %s", checkop_kind_word(&g));
    }

    /* A form ptxrun does not execute is not checked further: its operands may have a shape
     * ops.def does not describe (vectors of atomics, a tensor map's address). Unchecked operands
     * (that too, or a count that does not fit) only have their names resolved. */
    char letters[MAX_SHAPE];
    bool checked = decoded && !refused.length && checkop_letters(c->diag, c->shapes, in, letters);
    for (unsigned i = 0; i < in->operand_count; i++) {
        Operand *o = &in->operands[i];
        Expect e = checked ? checkop_expect(in, letters[i]) : (Expect){ 0, false, false, TYPE_NONE };
        if (!checked) {
            /* Unchecked operands: in a snippet a new name is a predicate only where the
             * syntax says so (!p); the first operand is the destination. */
            e.pred = (o->flags & OPNDF_NOT) != 0;
        }
        Expect typing = e;
        if (!checkop_types_registers(in->op))
            typing.type = TYPE_NONE;
        resolve_operand(c, o, typing);
        if (checked)
            checkop_operand(c->diag, c->fn, in, o, e);
        if (o->flags & OPNDF_UNIFIED)
            check_unified(c, in, o);
    }
}

/* ---- declarations ---- */

/* .reg .v4 .f32 v: four registers v.x v.y v.z v.w (also named v.r v.g v.b v.a); v itself
 * stands for the vector {v.x, v.y, v.z, v.w}. One vector of a range (.reg .v4 .f32 v<3>: v0, v1,
 * v2, each with its elements, v1.x ...): named v and its number. */
static void declare_one_vector(Checker *c, Decl *d, const char *vector)
{
    static const char xyzw[] = "xyzw", rgba[] = "rgba";
    size_t len = strlen(vector);
    char *name = xmalloc(len + 3);
    memcpy(name, vector, len);
    name[len] = '.';
    name[len + 2] = '\0';
    uint32_t first = c->fn->regs.len;
    for (uint32_t i = 0; i < d->vector; i++) {
        name[len + 1] = xyzw[i];
        const char *x = intern(&c->m->names, name, len + 2);
        new_register(c, x, false, d->type);
        bind_local(c, (Binding){ x, SYM_REG, first + i, 1, d->at, false });
        name[len + 1] = rgba[i];
        bind_local(c, (Binding){ intern(&c->m->names, name, len + 2), SYM_REG, first + i, 1, d->at, false });
    }
    free(name);
    bind_local(c, (Binding){ vector, SYM_VECTOR, first, d->vector, d->at, false });
    c->vectors = true;
}

static void declare_vector(Checker *c, Decl *d)
{
    if (d->type == TYPE_B128) {
        error(c, d->at, "a vector of .b128 registers is wider than 128 bits (ptxas refuses one)");
        return;
    }
    if (d->type == TYPE_PRED || d->vector > 4) {
        diag_at(c->refusals, DIAG_ERROR, d->at, "ptxrun cannot execute %s yet",
                d->type == TYPE_PRED ? "a vector of predicates" : "a vector register of more than 4 elements");
        return;
    }
    d->first_slot = c->fn->regs.len;
    if (!d->has_range) {
        declare_one_vector(c, d, d->name);
        return;
    }
    size_t len = strlen(d->name);
    char *name = xmalloc(len + 12);
    for (uint32_t k = 0; k < d->range; k++) {
        int n = snprintf(name, len + 12, "%s%u", d->name, k);
        declare_one_vector(c, d, intern(&c->m->names, name, (size_t)n));
    }
    free(name);
}

static void declare_registers(Checker *c, Decl *d)
{
    bool pred = d->type == TYPE_PRED;
    if (d->type == TYPE_NONE) {
        error(c, d->at, "register declaration needs a type");
        return;
    }
    Binding *old = sym_lookup(&c->locals, d->name);
    if (old && c->depth == 0)
        error(c, d->at, "'%s' is already declared (at line %u)", d->name, line_of(c, old->at));
    uint32_t count = d->has_range ? d->range : 1;
    uint32_t declared = pred ? c->fn->preds.len : c->fn->regs.len;
    uint32_t slots = d->vector ? d->vector : d->type == TYPE_B128 ? 2 : 1;   /* new_register */
    if (declared >= MAX_REGISTERS || count > (MAX_REGISTERS - declared) / slots) {
        error(c, d->at, "'%s' would make more than %d %s in '%s'", d->name, MAX_REGISTERS,
              pred ? "predicates" : "registers", c->fn->name);
        return;
    }
    if (d->vector) {
        declare_vector(c, d);
        return;
    }
    /* room for the whole range at once: doubling slot by slot in the arena would leave each old
     * copy of the table behind */
    if (pred)
        VEC_RESERVE(c->own, c->fn->preds, count);
    else
        VEC_RESERVE(c->own, c->fn->regs, count * slots);
    uint32_t first = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t slot = new_register(c, d->has_range ? NULL : d->name, pred, d->type);
        if (i == 0)
            first = slot;
    }
    d->first_slot = first;
    Binding b = { d->name, (uint8_t)(d->has_range ? (pred ? SYM_PRED_RANGE : SYM_RANGE) : (pred ? SYM_PRED : SYM_REG)),
                  first, count, d->at, false };
    bind_local(c, b);
}

static void declare_local(Checker *c, Decl *d, uint32_t index)
{
    if (index <= c->fn->returns.len + c->fn->params.len && c->fn->is_entry && !c->fn->is_snippet &&
        d->space != SPACE_PARAM)
        error(c, d->at, "'%s': a kernel's parameters are in .param (ptxas refuses another state space)", d->name);
    if (d->space == SPACE_REG) {
        declare_registers(c, d);
        return;
    }
    Binding *old = sym_lookup(&c->locals, d->name);
    if (old && c->depth == 0 && old->kind != SYM_VAR)
        error(c, d->at, "'%s' is already declared (at line %u)", d->name, line_of(c, old->at));
    uint32_t own = c->fn->returns.len + c->fn->params.len;   /* ids 1..own: results and parameters */
    if (old && old->kind == SYM_VAR && old->index >= 1 && old->index <= own && index <= own)
        error(c, d->at, "'%s' is already a parameter of '%s' (at line %u)", d->name, c->fn->name, line_of(c, old->at));
    if (old && old->kind == SYM_VAR && old->index >= 1 && old->index <= own && index > own)
        error(c, d->at, "'%s' is a parameter of '%s': ptxas takes a declaration of that name in its body for "
              "the parameter", d->name, c->fn->name);
    if (d->space == SPACE_SHARED && (d->linkage & LINK_EXTERN) && !c->fn->is_snippet)
        error(c, d->at, "'.extern .shared' inside a function: ptxas takes extern variables at module scope only");
    Binding b = { d->name, SYM_VAR, index, 1, d->at, false };
    bind_local(c, b);
}

/* Binds the labels of the block whose items start at `from` (0: the body), not those of blocks
 * inside it (bound at their '{'; labels.c). Two of one name in one block: an error. */
static void bind_labels(Checker *c, uint32_t from)
{
    for (uint32_t i = from, first = UINT32_MAX, k; (k = labels_next(c->fn, &i)) != UINT32_MAX;) {
        const Label *l = &c->fn->labels.data[k];
        Binding *old = sym_lookup(&c->locals, l->name);
        first = first < k ? first : k;   /* an outer label's index is below first or above k */
        if (old && old->kind == SYM_LABEL && old->index >= first && old->index < k)
            error(c, l->at, "duplicate label '%s' (first defined at line %u)", l->name, line_of(c, old->at));
        else
            bind_local(c, (Binding){ l->name, SYM_LABEL, k, 1, l->at, false });
    }
}

static void check_function(Checker *c, Function *f)
{
    c->fn = f;
    c->depth = 0;
    c->vectors = false;
    c->undo.len = 0;
    sym_clear(&c->locals);

    bind_labels(c, 0);
    for (uint32_t i = 0; i < f->tables.len; i++)
        labels_resolve_table(c->diag, c->own, f, &f->tables.data[i]);
    for (uint32_t i = 0; i < f->returns.len; i++)
        declare_local(c, &f->returns.data[i], 1 + i);
    for (uint32_t i = 0; i < f->params.len; i++)
        declare_local(c, &f->params.data[i], 1 + f->returns.len + i);

    for (uint32_t i = 0; i < f->items.len; i++) {
        Item *it = &f->items.data[i];
        switch (it->kind) {
        case ITEM_DECL:
            declare_local(c, &f->decls.data[it->index], 1 + f->returns.len + f->params.len + it->index);
            break;
        case ITEM_OPEN:
            c->depth++;
            bind_labels(c, i + 1);
            break;
        case ITEM_CLOSE:
            close_scope(c);
            break;
        case ITEM_INSTR:
            check_instr(c, &f->code.data[it->index]);
            break;
        default:
            break;
        }
    }
    /* Snippet registers never given a type are untyped 32-bit values. */
    for (uint32_t i = 0; i < f->regs.len; i++)
        if (f->regs.data[i].type == TYPE_NONE)
            f->regs.data[i].type = TYPE_B32;
}

/* Binds module variable i, or function i, to its name (for every function to find), as
 * check_module does: all variables first, then the functions. */
static Binding *declared_before(Checker *c, const char *name, bool function)
{
    Binding *old = sym_find(&c->globals, name);
    /* A streamed function resolved this name before. Which function a function's name is bound
     * to changes nothing in what its users were checked against (only its name is kept). */
    if (old && old->used && !(function && old->kind == SYM_FUNC))
        c->differs = true;
    /* A variable after a function of its name: check_module, declaring variables first, would
     * have refused the function instead (an .extern variable is no redefinition here). */
    if (old && !function && old->kind == SYM_FUNC)
        c->differs = true;
    return old && old->kind != SYM_ABSENT && old->kind != SYM_REMOVED ? old : NULL;
}

static void declare_variable(Checker *c, uint32_t i)
{
    Module *m = c->m;
    Decl *d = &m->globals.data[i];
    Binding *old = declared_before(c, d->name, false);
    if (old && !(d->linkage & LINK_EXTERN))
        error(c, d->at, "'%s' is already defined (at line %u)", d->name, line_of(c, old->at));
    if (d->space == SPACE_LOCAL && !m->is_snippet)   /* a snippet's top level is its kernel's body */
        error(c, d->at, "'.local' variable '%s' at module scope (ptxas allows .local only inside a function)",
              d->name);
    Binding b = { d->name, SYM_VAR, i, 1, d->at, false };
    sym_put(&c->globals, b);
}

static void declare_function(Checker *c, uint32_t i)
{
    Module *m = c->m;
    Function *f = m->functions.data[i];
    if (f->is_snippet)
        return;
    Binding *old = declared_before(c, f->name, true);
    if (old && old->kind == SYM_FUNC && f->has_body && m->functions.data[old->index]->has_body) {
        error(c, f->at, "function '%s' is defined twice (first at line %u)", f->name, line_of(c, old->at));
        return;
    }
    if (old && old->kind != SYM_FUNC) {
        error(c, f->at, "'%s' is already declared as a variable (at line %u)", f->name, line_of(c, old->at));
        return;
    }
    if (!old || f->has_body) {         /* a definition taking over a used prototype's name stays used */
        Binding b = { f->name, SYM_FUNC, i, 1, f->at, old && old->used };
        sym_put(&c->globals, b);
    }
}

/* Declares what the module has gained since the last call. */
static void declare_globals(Checker *c)
{
    for (; c->globals_done < c->m->globals.len; c->globals_done++)
        declare_variable(c, c->globals_done);
    for (; c->functions_done < c->m->functions.len; c->functions_done++)
        declare_function(c, c->functions_done);
}

static Checker *checker_new(Module *m, Diag *diag, const CheckOptions *options, Arena *own)
{
    static const CheckOptions defaults = { .warn_deprecated = true };
    Checker *c = xcalloc(1, sizeof *c);
    c->m = m;
    c->own = own;
    c->diag = diag;
    c->options = options ? options : &defaults;
    c->refusals = c->options->refusals ? c->options->refusals : diag;
    c->globals = sym_new(256);
    c->locals = sym_new(256);
    c->decoder = decode_new();
    c->shapes = checkop_memo_new();
    return c;
}

static void checker_free(Checker *c)
{
    sym_free(&c->globals);
    sym_free(&c->locals);
    decode_free(c->decoder);
    checkop_memo_free(c->shapes);
    free(c);
}

static void check_directives(Checker *c)
{
    Module *m = c->m;
    if (!m->is_snippet && m->functions.len && !m->version)
        error(c, m->functions.data[0]->at, "missing .version directive (nvcc writes e.g. '.version 9.0' first)");
    if (!m->is_snippet && m->functions.len && !m->target_sm)
        error(c, m->functions.data[0]->at, "missing .target directive (e.g. '.target sm_75')");
}

int check_module(Module *m, Diag *diag, const CheckOptions *options)
{
    Checker *c = checker_new(m, diag, options, &m->arena);
    uint32_t errors_before = diag->errors;
    check_directives(c);
    declare_globals(c);
    for (uint32_t i = 0; i < m->functions.len; i++)
        check_function(c, m->functions.data[i]);
    checker_free(c);
    return (int)(diag->errors - errors_before);
}

Checker *check_stream_new(Module *m, Diag *diag, const CheckOptions *options)
{
    return checker_new(m, diag, options, &m->body);
}

bool check_stream_function(Checker *c, Function *f)
{
    if (c->functions_done == 0)
        check_directives(c);
    declare_globals(c);
    if (!f->skipped)                           /* another reader's to check */
        check_function(c, f);
    return !c->differs;
}

bool check_stream_end(Checker *c)
{
    if (c->functions_done == 0)
        check_directives(c);
    declare_globals(c);
    bool same = !c->differs;
    checker_free(c);
    return same;
}
