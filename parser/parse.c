/* parse.c: the actions of the grammar (parser.y). They build the Module: functions, their
 * statements in source order, declarations and operands with names still unresolved.
 * Requires: the lexer's spans; everything allocated comes from the module's arena. */
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static const char *intern_span(Parser *p, Span s)
{
    return intern(&p->m->names, p->m->src->text + s.offset, s.length);
}

/* Where what belongs to the function being parsed goes: its own arena while streaming, so
 * that it can be let go when the function ends. */
static Arena *body_arena(Parser *p)
{
    return p->hook && p->fn ? &p->m->body : &p->m->arena;
}

static const char *copy_span_in(Arena *arena, Parser *p, Span s)
{
    return arena_strndup(arena, p->m->src->text + s.offset, s.length);
}

static const char *copy_span(Parser *p, Span s)
{
    return copy_span_in(&p->m->arena, p, s);
}

void parse_init(Parser *p, Source *src, Diag *diag)
{
    memset(p, 0, sizeof *p);
    Module *m = xcalloc(1, sizeof *m);
    intern_init(&m->names, &m->arena);
    m->src = src;
    p->m = m;
    p->diag = diag;
    lex_init(&p->lx, src, diag, &m->arena);
}

/* A function's instructions, items and labels grow on the heap while it is parsed (a list
 * doubling in the arena would leave each old copy behind, between the operands allocated
 * meanwhile), then move to the arena at their exact size when it ends. */
#define HEAP_PUSH(vec, value)                                                               \
    do {                                                                                    \
        if ((vec).len == (vec).cap) {                                                       \
            (vec).cap = (vec).cap ? 2 * (vec).cap : 16;                                     \
            (vec).data = xrealloc((vec).data, (size_t)(vec).cap * sizeof *(vec).data);     \
        }                                                                                   \
        (vec).data[(vec).len++] = (value);                                                  \
    } while (0)

/* Copies a list to the arena; its heap storage becomes the parser's spare for the next
 * function's list (kept if it is the larger), so that a module of many functions does not
 * allocate and free one each time. */
static void *seal_list(Parser *p, void *heap, size_t bytes, void **spare, uint32_t *spare_cap, uint32_t cap)
{
    void *copy = NULL;
    if (bytes) {
        copy = arena_alloc(body_arena(p), bytes);
        memcpy(copy, heap, bytes);
    }
    if (heap && (!*spare || *spare_cap < cap)) {
        free(*spare);
        *spare = heap;
        *spare_cap = cap;
    } else {
        free(heap);
    }
    return copy;
}

/* The function's heap lists moved to the arena (keep: true) or given up (false: emptied). */
static void settle_lists(Parser *p, Function *f, bool keep)
{
    f->code.data = seal_list(p, f->code.data, keep ? f->code.len * sizeof *f->code.data : 0,
                             (void **)&p->spare_code, &p->spare_code_cap, f->code.cap);
    f->items.data = seal_list(p, f->items.data, keep ? f->items.len * sizeof *f->items.data : 0,
                              (void **)&p->spare_items, &p->spare_items_cap, f->items.cap);
    f->labels.data = seal_list(p, f->labels.data, keep ? f->labels.len * sizeof *f->labels.data : 0,
                               (void **)&p->spare_labels, &p->spare_labels_cap, f->labels.cap);
    if (!keep)
        f->code.len = f->items.len = f->labels.len = 0;
    f->code.cap = f->code.len;
    f->items.cap = f->items.len;
    f->labels.cap = f->labels.len;
}

static void seal_function(Parser *p, Function *f)
{
    if (f)
        settle_lists(p, f, true);
}

Module *parse_finish(Parser *p)
{
    Module *m = p->m;
    seal_function(p, p->fn);
    p->fn = NULL;
    seal_function(p, p->snippet);
    p->snippet = NULL;
    free(p->spare_code);
    free(p->spare_items);
    free(p->spare_labels);
    if (p->has_bare && m->functions.len > 1)
        diag_at(p->diag, DIAG_ERROR, p->first_bare,
                "instruction outside a function (this file also defines .entry/.func)");
    return m;
}

void module_free(Module *m)
{
    if (!m)
        return;
    intern_free(&m->names);
    pages_free(m->globals.data, m->globals.cap * sizeof *m->globals.data);
    arena_free(&m->arena);
    arena_free(&m->body);
    free(m);
}

/* After a syntax error: drop the half-built lists. At the top level the function being
 * declared, if any, is abandoned too. */
void parse_recover(Parser *p, bool top_level)
{
    p->operands.len = 0;
    p->inits.len = 0;
    if (top_level) {
        p->params.len = 0;
        p->skip_body = p->skip_params = false;
        seal_function(p, p->fn);
        p->fn = NULL;
        p->body_mark = arena_mark(&p->m->body);   /* an abandoned body is kept, not streamed */
    }
}

/* ---- module directives ---- */

void parse_version(Parser *p, Span at)
{
    const char *s = p->m->src->text + at.offset;
    unsigned major = 0, minor = 0, i = 0;
    while (i < at.length && s[i] >= '0' && s[i] <= '9')
        major = major * 10 + (unsigned)(s[i++] - '0');
    if (i < at.length && s[i] == '.')
        i++;
    unsigned minor_digits = 0;
    while (i < at.length && s[i] >= '0' && s[i] <= '9' && minor_digits < 3) {
        minor = minor * 10 + (unsigned)(s[i++] - '0');
        minor_digits++;
    }
    if (i != at.length || minor_digits != 1 || major == 0 || major > 20) {
        diag_at(p->diag, DIAG_ERROR, at, "malformed .version '%.*s' (expected major.minor, e.g. 9.0)",
                (int)at.length, s);
        return;
    }
    if (p->m->version)
        diag_at(p->diag, DIAG_ERROR, at, "duplicate .version");
    p->m->version = (uint8_t)(major * 10 + minor);
    p->m->version_at = at;
}

void parse_target(Parser *p, Span at)
{
    Module *m = p->m;
    const char *s = m->src->text + at.offset;
    if (at.length > 3 && (memcmp(s, "sm_", 3) == 0 || (at.length > 8 && memcmp(s, "compute_", 8) == 0))) {
        uint32_t i = s[0] == 's' ? 3 : 8, sm = 0;
        while (i < at.length && s[i] >= '0' && s[i] <= '9' && sm < 10000)
            sm = sm * 10 + (uint32_t)(s[i++] - '0');
        char suffix = 0;
        if (i + 1 == at.length && (s[i] == 'a' || s[i] == 'f'))
            suffix = s[i++];
        if (i != at.length || sm < 10) {
            diag_at(p->diag, DIAG_ERROR, at, "unknown target '%.*s'", (int)at.length, s);
            return;
        }
        if (m->target_sm)
            diag_at(p->diag, DIAG_ERROR, at, "a module has one sm target (already sm_%u)", m->target_sm);
        m->target_sm = (uint16_t)sm;
        m->target_suffix = suffix;
        m->target_arch = suffix != 0;
        m->target_at = at;
        return;
    }
    static const char *const options[] = { "texmode_unified", "texmode_independent", "debug",
                                            "map_f64_to_f32" };
    for (size_t i = 0; i < COUNT_OF(options); i++) {
        if (strlen(options[i]) == at.length && memcmp(options[i], s, at.length) == 0) {
            const char **opts = arena_grow(&m->arena, m->target_options,
                                           m->target_option_count * sizeof *opts,
                                           (m->target_option_count + 1) * sizeof *opts);
            opts[m->target_option_count++] = intern_span(p, at);
            m->target_options = opts;
            return;
        }
    }
    diag_at(p->diag, DIAG_ERROR, at, "unknown target '%.*s'", (int)at.length, s);
}

static void add_top(Parser *p, TopKind kind, uint32_t index)
{
    TopItem t = { (uint8_t)kind, index };
    VEC_PUSH(&p->m->arena, p->m->top, t);
}

void parse_file(Parser *p, Literal number, Span path, Span extra)
{
    FileDirective f = { number.bits, copy_span(p, path), extra.length ? copy_span(p, extra) : NULL };
    VEC_PUSH(&p->m->arena, p->m->files, f);
    add_top(p, TOP_FILE, p->m->files.len - 1);
}

/* .loc FILE LINE COLUMN: the CUDA source of the instructions that follow, until the next .loc
 * or the end of the function. Code nvcc inlined (", inlined_at F L C") is placed at the call:
 * the user's line rather than a line in a toolkit header. Numbers too big to keep (file or
 * column past 65535, line past 2^32 - 1) leave the instructions without a place. */
void parse_loc(Parser *p, Literal file, Literal line, Literal column)
{
    if (p->inlined) {
        file = p->inlined_at[0];
        line = p->inlined_at[1];
        column = p->inlined_at[2];
        p->inlined = false;
    }
    bool fits = file.bits <= UINT16_MAX && line.bits <= UINT32_MAX;
    p->loc_file = fits ? (uint16_t)file.bits : 0;
    p->loc_line = fits ? (uint32_t)line.bits : 0;
    p->loc_col = fits && column.bits <= UINT16_MAX ? (uint16_t)column.bits : 0;
}

void parse_loc_inlined(Parser *p, Span word, Literal file, Literal line, Literal column)
{
    if (word.length == 10 && !memcmp(p->lx.src->text + word.offset, "inlined_at", 10)) {
        p->inlined_at[0] = file;
        p->inlined_at[1] = line;
        p->inlined_at[2] = column;
        p->inlined = true;
    }
}

void parse_top_verbatim(Parser *p, Span at)
{
    const char *text = copy_span(p, at);
    VEC_PUSH(&p->m->arena, p->m->verbatim, text);
    add_top(p, TOP_VERBATIM, p->m->verbatim.len - 1);
}

/* ---- functions ---- */

static Function *new_function(Parser *p, const char *name, Span at)
{
    Function *f = arena_alloc(&p->m->arena, sizeof *f);
    f->name = name;
    f->at = at;
    f->code.data = p->spare_code;             /* the heap lists start in the spares */
    f->code.cap = p->spare_code_cap;
    f->items.data = p->spare_items;
    f->items.cap = p->spare_items_cap;
    f->labels.data = p->spare_labels;
    f->labels.cap = p->spare_labels_cap;
    p->spare_code = NULL;
    p->spare_items = NULL;
    p->spare_labels = NULL;
    p->spare_code_cap = p->spare_items_cap = p->spare_labels_cap = 0;
    VEC_PUSH(&p->m->arena, p->m->functions, f);
    add_top(p, TOP_FUNCTION, p->m->functions.len - 1);
    return f;
}

/* Moves the top count declarations of the parameter stack into *dest, in order. */
static void pop_params(Parser *p, Decl **dest_data, uint32_t *dest_len, uint32_t *dest_cap, uint32_t count)
{
    if (count > p->params.len)
        BUG("parameter stack underflow");
    Decl *d = arena_alloc(body_arena(p), (count ? count : 1) * sizeof *d);   /* parameters: the body's */
    if (count)
        memcpy(d, p->params.data + p->params.len - count, count * sizeof *d);
    p->params.len -= count;
    *dest_data = d;
    *dest_len = *dest_cap = count;
}

void parse_function_begin(Parser *p, Span name, bool is_entry, uint32_t returns)
{
    Function *f = new_function(p, intern_span(p, name), name);
    f->is_entry = is_entry;
    f->linkage = (uint8_t)p->pending_linkage;
    p->pending_linkage = 0;
    p->fn = f;                                 /* (so that its results go to the body's arena) */
    pop_params(p, &f->returns.data, &f->returns.len, &f->returns.cap, returns);
    if (is_entry && returns)
        BUG(".entry with return parameters");
    p->skip_body = is_entry && p->hook && p->hook->skip && !p->stopped && p->hook->skip(p->hook->context, p->m, f);
    p->skip_params = p->skip_body;
}

void parse_function_params(Parser *p, uint32_t count)
{
    if (p->fn)
        pop_params(p, &p->fn->params.data, &p->fn->params.len, &p->fn->params.cap, count);
    for (uint32_t i = 0; p->fn && !p->fn->is_entry && i < p->fn->params.len; i++)
        if (p->fn->params.data[i].handle_space)
            diag_at(p->diag, DIAG_ERROR, p->fn->params.data[i].at, "'%s': a .texref, .surfref or .samplerref "
                    "parameter belongs to a kernel (.entry), as ptxas says", p->fn->params.data[i].name);
    else
        p->params.len = 0;
}

/* A streamed function's body, let go, its parameters with it: only its name and place stay. */
static void drop_body(Parser *p, Function *f)
{
    f->dropped = true;
    settle_lists(p, f, false);
    memset(&f->params, 0, sizeof f->params);
    memset(&f->returns, 0, sizeof f->returns);
    memset(&f->decls, 0, sizeof f->decls);
    memset(&f->tables, 0, sizeof f->tables);
    memset(&f->perf, 0, sizeof f->perf);
    memset(&f->regs, 0, sizeof f->regs);
    memset(&f->preds, 0, sizeof f->preds);
    arena_release(&p->m->body, p->body_mark);
    p->last_decl = NULL;                        /* it may have been one of the body's */
}

void parse_function_end(Parser *p, bool has_body)
{
    Function *f = p->fn;
    if (f) {
        f->has_body = has_body;
        perf_end(p, f);
    }
    p->loc_line = 0;                           /* a .loc holds within its function only */
    p->skip_body = p->skip_params = false;
    if (f && p->hook && !p->stopped) {         /* handed over with its lists still on the heap */
        StreamVerdict v = p->hook->done(p->hook->context, p->m, f);
        if (v == STREAM_DROP)
            drop_body(p, f);
        else
            seal_function(p, f);
        p->stopped = v == STREAM_STOP;
        p->body_mark = arena_mark(&p->m->body);
    } else {
        seal_function(p, f);
    }
    p->fn = NULL;
}

void parse_perf(Parser *p, Span name, uint32_t count)
{
    if (!p->fn)
        return;
    PerfDirective d = { intern(&p->m->names, p->m->src->text + name.offset + 1, name.length - 1),
                        count, { 0, 0, 0 }, NULL, name };
    for (uint32_t i = 0; i < count && i < 3; i++)
        d.values[i] = p->perf_values[i];
    if (count > 3)
        diag_at(p->diag, DIAG_ERROR, name, "'%.*s' takes at most 3 numbers", (int)name.length,
                p->m->src->text + name.offset);
    else
        perf_check(p, &d);
    VEC_PUSH(body_arena(p), p->fn->perf, d);
}

/* The function that a statement belongs to: the one being parsed, or else the snippet's
 * implicit kernel, created on first use. */
static Function *current_function(Parser *p, Span at)
{
    if (p->fn)
        return p->fn;
    if (!p->snippet) {
        p->snippet = new_function(p, intern(&p->m->names, "snippet", 7), at);
        p->snippet->is_entry = p->snippet->is_snippet = p->snippet->has_body = true;
        p->m->is_snippet = true;
    }
    if (!p->has_bare) {
        p->has_bare = true;
        p->first_bare = at;
    }
    return p->snippet;
}

static void add_item(Function *f, ItemKind kind, uint32_t index, const char *text)
{
    Item it = { (uint8_t)kind, index, text };
    HEAP_PUSH(f->items, it);
}

void parse_item_text(Parser *p, ItemKind kind, Span at, uint32_t drop_params)
{
    p->params.len -= drop_params <= p->params.len ? drop_params : p->params.len;
    if (p->fn)
        add_item(p->fn, kind, 0, copy_span_in(body_arena(p), p, at));
}

void parse_block_open(Parser *p)
{
    if (p->fn)
        add_item(p->fn, ITEM_OPEN, 0, NULL);
}

void parse_block_close(Parser *p)
{
    if (p->fn)
        add_item(p->fn, ITEM_CLOSE, 0, NULL);
}

/* ---- statements ---- */

/* False (with one error per function) once a function has MAX_FUNCTION_STATEMENTS
 * instructions or labels: the rest of it is not kept, so memory stays bounded. */
static bool room_for(Parser *p, Function *f, uint32_t count, const char *what, Span at)
{
    if (count < MAX_FUNCTION_STATEMENTS)
        return true;
    if (!f->too_long)
        diag_at(p->diag, DIAG_ERROR, at, "more than %d %s in '%s'; ptxrun takes at most that many",
                MAX_FUNCTION_STATEMENTS, what, f->name ? f->name : "the snippet");
    f->too_long = true;
    return false;
}

void parse_label(Parser *p, Span name)
{
    Function *f = current_function(p, name);
    if (!room_for(p, f, f->labels.len, "labels", name))
        return;
    Label l = { intern_span(p, name), f->code.len, name };
    HEAP_PUSH(f->labels, l);
    add_item(f, ITEM_LABEL, f->labels.len - 1, NULL);
}

/* Moves the top count operands of the operand stack into a new arena array. */
static Operand *pop_operands(Parser *p, uint32_t count)
{
    if (count > p->operands.len)
        BUG("operand stack underflow");
    if (!count)
        return NULL;
    Operand *ops = arena_alloc(body_arena(p), count * sizeof *ops);
    memcpy(ops, p->operands.data + p->operands.len - count, count * sizeof *ops);
    p->operands.len -= count;
    return ops;
}

/* label: .branchtargets L1, L2, ...; (branch) or .calltargets f, g, ...;: the names are on the
 * operand stack. A .branchtargets list named by the label just before it becomes one of the
 * function's tables, for brx.idx (the checker resolves its labels). The text is kept as is. */
void parse_targets(Parser *p, bool branch, uint32_t count, Span at)
{
    Operand *names = pop_operands(p, count);
    Function *f = p->fn;
    if (!f)
        return;
    const Item *last = f->items.len ? &f->items.data[f->items.len - 1] : NULL;
    if (branch && last && last->kind == ITEM_LABEL) {
        BranchTable t = { f->labels.data[last->index].name, count, names, NULL, at };
        VEC_PUSH(body_arena(p), f->tables, t);
    }
    add_item(f, ITEM_TARGETS, 0, copy_span_in(body_arena(p), p, at));
}

void parse_instr(Parser *p, Span mnemonic, int guard_kind, Span guard, uint32_t count, Span stmt)
{
    Function *f = current_function(p, stmt);
    if (!room_for(p, f, f->code.len, "instructions", stmt)) {
        p->operands.len -= count;              /* dropped, not copied: memory stays bounded */
        return;
    }
    Instr in;
    memset(&in, 0, sizeof in);
    in.mnemonic = intern_span(p, mnemonic);
    in.at = mnemonic;
    in.stmt_at = stmt;
    in.loc_line = p->loc_line;
    in.loc_file = p->loc_file;
    in.loc_col = p->loc_col;
    in.guard_kind = (uint8_t)guard_kind;
    if (guard_kind) {
        in.guard_name = intern_span(p, guard);
        in.guard_offset = guard.offset;
    }
    if (count > UINT16_MAX) {
        diag_at(p->diag, DIAG_ERROR, stmt, "too many operands");
        p->operands.len -= count;
        count = 0;
    }
    in.operand_count = (uint16_t)count;
    in.operands = pop_operands(p, count);
    HEAP_PUSH(f->code, in);
    add_item(f, ITEM_INSTR, f->code.len - 1, NULL);
}

void parse_operand_name(Parser *p, Span at)
{
    Operand o;
    memset(&o, 0, sizeof o);
    o.kind = OPND_NAME;
    o.at = at;
    o.u.ref.name = intern_span(p, at);
    VEC_PUSH(&p->m->arena, p->operands, o);
}

void parse_operand_not(Parser *p, Span at)
{
    Operand *o = &p->operands.data[p->operands.len - 1];
    o->flags |= OPNDF_NOT;
    o->at = at;
}

/* -name: a register vmad negates (the checker refuses it elsewhere). */
void parse_operand_negate(Parser *p, Span at)
{
    Operand *o = &p->operands.data[p->operands.len - 1];
    o->flags |= OPNDF_NEGATIVE;
    o->at = at;
}

void parse_operand_offset(Parser *p, int64_t offset, Span at)
{
    Operand *o = &p->operands.data[p->operands.len - 1];
    o->u.ref.offset = offset;
    o->at = at;
}

/* A[k] (mov d, A[k]: the address of element k, ptxas's reading) or A[r]. */
void parse_operand_index(Parser *p, Literal index, bool by_register, Span at)
{
    Operand *o = &p->operands.data[p->operands.len - 1];
    if (by_register) {
        o->flags |= OPNDF_REG_INDEX;
    } else {
        if (index.kind != OPND_INT)
            diag_at(p->diag, DIAG_ERROR, at, "an array index must be an integer");
        o->flags |= OPNDF_INDEXED;
        o->u.ref.offset = (int64_t)index.bits;
    }
    o->at = at;
}

/* [a].unified: the one qualifier an address takes (ld, ldu, atom; checked in check.c). */
void parse_operand_qualifier(Parser *p, Span qualifier)
{
    Operand *o = &p->operands.data[p->operands.len - 1];
    const char *text = p->m->src->text + qualifier.offset;
    if (qualifier.length == 8 && memcmp(text, ".unified", 8) == 0)
        o->flags |= OPNDF_UNIFIED;
    else
        diag_at(p->diag, DIAG_ERROR, qualifier, "unexpected '%.*s' after an address (only '.unified' may follow one)",
                (int)qualifier.length, text);
}

/* A negative literal is stored as its value: two's complement for integers, the sign bit
 * flipped for floats; OPNDF_NEGATIVE remembers the minus sign for printing. */
void parse_operand_literal(Parser *p, Literal lit, bool negative, Span at)
{
    Operand o;
    memset(&o, 0, sizeof o);
    o.kind = lit.kind;
    o.at = at;
    o.u.bits = lit.bits;
    if (lit.unsigned_suffix)
        o.flags |= OPNDF_UNSIGNED;
    if (negative) {
        o.flags |= OPNDF_NEGATIVE;
        if (lit.kind == OPND_INT)
            o.u.bits = 0 - lit.bits;
        else if (lit.kind == OPND_F32)
            o.u.bits = lit.bits ^ 0x80000000u;
        else
            o.u.bits = lit.bits ^ 0x8000000000000000u;
    }
    VEC_PUSH(&p->m->arena, p->operands, o);
}

/* The value of a constant expression (a literal being the simplest) as an operand; a negative
 * signed integer remembers its minus sign for printing. */
void parse_operand_constant(Parser *p, Literal value, Span at)
{
    bool negative = value.kind == OPND_INT && !value.unsigned_suffix && (int64_t)value.bits < 0;
    if (negative)
        value.bits = 0 - value.bits;
    parse_operand_literal(p, value, negative, at);
    if (value.grouped)
        p->operands.data[p->operands.len - 1].flags |= OPNDF_GROUPED;
}

void parse_operand_group(Parser *p, OperandKind kind, uint32_t count, int64_t offset, Span at)
{
    Operand o;
    memset(&o, 0, sizeof o);
    o.kind = (uint8_t)kind;
    o.at = at;
    o.count = (uint16_t)count;
    o.u.group.elems = pop_operands(p, count);
    o.u.group.offset = offset;
    VEC_PUSH(&p->m->arena, p->operands, o);
}

/* ---- declarations ---- */

void parse_decl_begin(Parser *p, int space, int linkage)
{
    memset(&p->decl, 0, sizeof p->decl);
    p->decl.space = (uint8_t)space;
    p->decl.linkage = (uint8_t)linkage;
    p->decl.type = TYPE_NONE;
    p->last_decl = NULL;
}

void parse_decl_attr(Parser *p, Span at)
{
    const char *word = p->m->src->text + at.offset + 1;     /* after the '.' */
    size_t len = at.length - 1;
    int type = type_lookup(word, len);
    if (type != TYPE_COUNT) {
        if (p->decl.type != TYPE_NONE)
            diag_at(p->diag, DIAG_ERROR, at, "declaration has two types ('.%s' and '.%.*s')",
                    type_info[p->decl.type].name, (int)len, word);
        p->decl.type = (uint8_t)type;
    } else if (len == 2 && word[0] == 'v' && (word[1] == '2' || word[1] == '4' || word[1] == '8')) {
        p->decl.vector = (uint8_t)(word[1] - '0');
    } else if (len == 3 && memcmp(word, "ptr", 3) == 0) {
        p->decl.is_ptr = true;
    } else {
        diag_at(p->diag, DIAG_ERROR, at, "unknown '.%.*s' in declaration", (int)len, word);
    }
}

/* .attribute(.managed) and the like: kept as written. */
void parse_decl_attr_call(Parser *p, Span name, Span close)
{
    Span all = { name.offset, close.offset + close.length - name.offset };
    const char **attrs = arena_grow(&p->m->arena, p->decl.attrs, p->decl.attr_count * sizeof *attrs,
                                    (p->decl.attr_count + 1) * sizeof *attrs);
    attrs[p->decl.attr_count++] = copy_span(p, all);
    p->decl.attrs = attrs;
}

void parse_decl_align(Parser *p, Literal value, Span at)
{
    if (value.bits == 0 || (value.bits & (value.bits - 1)) || value.bits > (1u << 20))
        diag_at(p->diag, DIAG_ERROR, at, ".align needs a power of two, not %llu",
                (unsigned long long)value.bits);
    if (p->decl.is_ptr)
        p->decl.ptr_align = (uint32_t)value.bits;
    else
        p->decl.align = (uint32_t)value.bits;
}

void parse_decl_space(Parser *p, int space, Span at)
{
    bool handle = space == SPACE_TEX || space == SPACE_SURF || space == SPACE_SAMPLER;
    if (p->decl.is_ptr)
        p->decl.ptr_space = (uint8_t)space;
    else if (handle && (p->decl.space == SPACE_GLOBAL || p->decl.space == SPACE_PARAM) && p->decl.type == TYPE_NONE) {
        if (space == SPACE_SAMPLER && !opaque_independent(p->m))
            diag_at(p->diag, DIAG_ERROR, at, "a .samplerref needs the independent texturing mode (.target ..., "
                    "texmode_independent), as ptxas says");
        if (p->decl.space == SPACE_PARAM) {     /* .param .texref t: a kernel parameter holding a handle */
            p->decl.handle_space = (uint8_t)space;
            p->decl.type = TYPE_U64;
        } else {
            p->decl.space = (uint8_t)space;    /* .global .texref t: a texture reference (ir.c prints it so) */
        }
    }
    else
        diag_at(p->diag, DIAG_ERROR, at, "a state space goes first in a declaration");
}

void parse_decl_name(Parser *p, Span name, Span at, bool is_param)
{
    Decl d = p->decl;
    d.name = intern_span(p, name);
    d.at = at;
    if (is_param) {
        VEC_PUSH(&p->m->arena, p->params, d);
        p->last_decl = &p->params.data[p->params.len - 1];
        return;
    }
    Function *f = p->fn;
    if (!f && d.space == SPACE_REG)
        f = current_function(p, at);      /* .reg at the top level declares a snippet register */
    if (f) {
        VEC_PUSH(body_arena(p), f->decls, d);
        add_item(f, ITEM_DECL, f->decls.len - 1, NULL);
        p->last_decl = &f->decls.data[f->decls.len - 1];
    } else {
        Module *m = p->m;
        if (m->globals.len == m->globals.cap) {     /* not in the arena: see Module.globals */
            uint32_t cap = m->globals.cap ? 2 * m->globals.cap : 64;
            Decl *data = pages_alloc(cap * sizeof *data);
            if (m->globals.len)
                memcpy(data, m->globals.data, m->globals.len * sizeof *data);
            pages_free(m->globals.data, m->globals.cap * sizeof *data);
            m->globals.data = data;
            m->globals.cap = cap;
        }
        m->globals.data[m->globals.len++] = d;
        add_top(p, TOP_DECL, p->m->globals.len - 1);
        p->last_decl = &p->m->globals.data[p->m->globals.len - 1];
    }
}

void parse_decl_dim(Parser *p, bool has_size, Literal size, Span at)
{
    Decl *d = p->last_decl;
    if (!d)
        return;
    if (d->dim_count == MAX_DIMS) {
        diag_at(p->diag, DIAG_ERROR, at, "more than %d array dimensions", MAX_DIMS);
        return;
    }
    if (has_size && size.bits > INT32_MAX) {
        diag_at(p->diag, DIAG_ERROR, at, "array dimension %llu is too large",
                (unsigned long long)size.bits);
        size.bits = 1;
    }
    d->dims[d->dim_count++] = has_size ? (int64_t)size.bits : -1;
}

void parse_decl_range(Parser *p, Literal count, Span at)
{
    Decl *d = p->last_decl;
    if (!d)
        return;
    if (d->space != SPACE_REG)
        diag_at(p->diag, DIAG_ERROR, at, "only .reg declarations take a <count> range");
    if (count.bits > MAX_REGISTERS) {
        diag_at(p->diag, DIAG_ERROR, at, "register range %llu is too large",
                (unsigned long long)count.bits);
        count.bits = 1;
    }
    d->has_range = true;
    d->range = (uint32_t)count.bits;
}

void parse_init_value(Parser *p, int kind, Literal lit, Span name, Span at)
{
    Init v;
    memset(&v, 0, sizeof v);
    v.kind = (uint8_t)kind;
    v.at = at;
    if (kind == INIT_LIST) {
        uint32_t count = (uint32_t)lit.bits;
        if (count > p->inits.len)
            BUG("initializer stack underflow");
        v.count = count;
        v.elems = arena_alloc(body_arena(p), (count ? count : 1) * sizeof *v.elems);
        if (count)
            memcpy(v.elems, p->inits.data + p->inits.len - count, count * sizeof *v.elems);
        p->inits.len -= count;
    } else {                                   /* INIT_SYM, INIT_GENERIC: name + an integer expression */
        v.name = intern_span(p, name);
        v.offset = parse_const_offset(p, lit, at);
    }
    VEC_PUSH(&p->m->arena, p->inits, v);
}

/* A number in an initializer: the value of a constant expression (cexpr.c), whose kind it keeps. */
void parse_init_number(Parser *p, Literal value, Span at)
{
    Init v;
    memset(&v, 0, sizeof v);
    v.kind = value.kind == OPND_INT ? INIT_INT : value.kind == OPND_F32 ? INIT_F32 : INIT_F64;
    v.negative = value.kind == OPND_INT && !value.unsigned_suffix && (int64_t)value.bits < 0;
    v.bits = value.bits;
    v.at = at;
    VEC_PUSH(&p->m->arena, p->inits, v);
}

/* `name = value` in a brace list: the value on the stack becomes the field's. */
void parse_init_field(Parser *p, Span name, Span at)
{
    if (p->inits.len == 0)
        BUG("initializer stack underflow");
    Init v;
    memset(&v, 0, sizeof v);
    v.kind = INIT_FIELD;
    v.name = intern_span(p, name);
    v.at = at;
    v.elems = arena_alloc(body_arena(p), sizeof *v.elems);
    *v.elems = p->inits.data[--p->inits.len];
    VEC_PUSH(&p->m->arena, p->inits, v);
}

void parse_decl_init(Parser *p, uint32_t count, Span at)
{
    if (count != 1 || p->inits.len == 0)
        BUG("initializer stack holds %u values", p->inits.len);
    Init *v = arena_alloc(body_arena(p), sizeof *v);
    *v = p->inits.data[--p->inits.len];
    if (!p->last_decl) {
        diag_at(p->diag, DIAG_ERROR, at, "initializer without a declaration");
        return;
    }
    p->last_decl->init = v;
    if (initshape_check(p, p->last_decl, v))
        parse_const_init(p, p->last_decl, v);
    opaque_decode(p->m, p->last_decl, p->diag);
}
