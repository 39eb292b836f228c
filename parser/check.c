/* check.c: turns the parsed module into the decoded program and reports what is wrong with it.
 * For every instruction it decodes the mnemonic against ops.def (opcode, types, modifiers,
 * in canonical order), checks the PTX version and target, resolves every name (registers to
 * dense slots, labels to instruction indices, variables and functions to symbols), and for
 * the opcodes whose operands ops.def describes, checks operand count, kind and type; what the
 * suffixes must say together is suffixes.c's. A valid form that ptxrun does not execute (a
 * !word of ops.def) is refused here, where it is written, before anything runs.
 * In a snippet, undeclared names become registers: predicates where they are used as one,
 * otherwise values typed by their uses (a typed use such as .f32 wins over a .b32 one).
 * Requires: a Module from parse_module. */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

enum { MAX_GROUPS = 16, MAX_GROUP_WORDS = 32, MAX_SHAPE = 16 };

/* A suffix rule from ops.def, parsed once per opcode per check. */
typedef struct RuleWord {
    bool is_type;
    bool refused;              /* '!word': valid PTX that ptxrun does not execute yet */
    uint8_t id;                /* Type or Mod */
} RuleWord;

typedef struct RuleGroup {
    bool required;             /* {x|y} rather than [x|y] */
    uint8_t count;
    RuleWord words[MAX_GROUP_WORDS];
} RuleGroup;

typedef struct Rule {
    bool parsed;
    bool any;                  /* "*": suffixes not checked */
    uint8_t group_count;
    RuleGroup groups[MAX_GROUPS];
} Rule;

/* What a mnemonic decodes to; memoised by its interned pointer. */
typedef struct Decoded {
    const char *mnemonic;
    const char *canonical;
    uint32_t refused_at, refused_length;   /* the first '.word' ptxrun does not execute (length 0: none) */
    uint16_t op;
    uint8_t type_count, mod_count;
    uint8_t types[MAX_TYPES];
    uint8_t mods[MAX_SUFFIXES];
} Decoded;

/* A name visible in the current function. Shadowed bindings are restored when a block closes. */
typedef enum { SYM_REG, SYM_PRED, SYM_RANGE, SYM_PRED_RANGE, SYM_VAR, SYM_FUNC, SYM_LABEL } SymKind;

typedef struct Binding {
    const char *name;
    uint8_t kind;              /* SymKind */
    uint32_t index;            /* slot, first slot of a range, label index; a function's variable:
                                  its declaration's id (results, parameters, body, from 1) */
    uint32_t count;            /* ranges: how many registers */
    Span at;                   /* where it was declared */
} Binding;

typedef struct Undo {
    uint32_t depth;
    Binding previous;          /* what the name meant before (name == NULL: nothing) */
    const char *name;
} Undo;

typedef struct SymTable {      /* open addressing, keyed by interned name pointer */
    Binding *slots;
    uint32_t count, capacity;
} SymTable;

typedef struct Checker {
    Module *m;
    Diag *diag;
    const CheckOptions *options;
    Function *fn;
    SymTable globals;          /* variables and functions of the module */
    SymTable locals;           /* registers, labels, variables of the function */
    VEC(Undo) undo;            /* for block scopes */
    uint32_t depth;
    Rule rules[OP_COUNT];
    bool warned_legacy[OP_COUNT];  /* the deprecation warning is given once per opcode */
    Decoded *memo;             /* open addressing, keyed by mnemonic pointer */
    uint32_t memo_count, memo_capacity;
} Checker;

/* ---- symbol tables ---- */

static uint32_t pointer_hash(const void *p)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= 0xed5ad4bbu;
    x ^= x >> 11;
    return (uint32_t)x;
}

static void sym_init(SymTable *t)
{
    t->capacity = 256;
    t->count = 0;
    t->slots = xcalloc(t->capacity, sizeof *t->slots);
}

static void sym_clear(SymTable *t)
{
    memset(t->slots, 0, t->capacity * sizeof *t->slots);
    t->count = 0;
}

static Binding *sym_slot(SymTable *t, const char *name)
{
    uint32_t j = pointer_hash(name) & (t->capacity - 1);
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
    if ((t->count + 1) * 2 > t->capacity) {
        SymTable bigger = { xcalloc(t->capacity * 2, sizeof(Binding)), 0, t->capacity * 2 };
        for (uint32_t i = 0; i < t->capacity; i++)
            if (t->slots[i].name && t->slots[i].kind != 0xff)
                *sym_slot(&bigger, t->slots[i].name) = t->slots[i], bigger.count++;
        free(t->slots);
        *t = bigger;
    }
    Binding *b = sym_slot(t, value.name);
    if (!b->name)
        t->count++;
    *b = value;
}

/* Removing a key from linear probing is awkward; a tombstone kind keeps chains intact. */
static void sym_remove(SymTable *t, const char *name)
{
    Binding *b = sym_find(t, name);
    if (b)
        b->kind = 0xff;
}

static Binding *sym_lookup(SymTable *t, const char *name)
{
    Binding *b = sym_find(t, name);
    return b && b->kind != 0xff ? b : NULL;
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

static void warning(Checker *c, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vat(c->diag, DIAG_WARNING, at, fmt, ap);
    va_end(ap);
}

static uint32_t line_of(Checker *c, Span at)
{
    uint32_t line, column;
    source_position(c->m->src, at.offset, &line, &column);
    return line;
}

static char type_class(int type)
{
    return type == TYPE_NONE ? 0 : type_info[type].cls;
}

static unsigned type_bits(int type)
{
    return type == TYPE_NONE ? 0 : type_info[type].bits;
}

/* The type of the given class and width ('b' 64 -> .b64), or TYPE_NONE. */
static int type_of(char cls, unsigned bits)
{
    for (int t = 0; t < TYPE_COUNT; t++)
        if (type_info[t].cls == cls && type_info[t].bits == bits)
            return t;
    return TYPE_NONE;
}

/* ---- suffix rules ---- */

static Rule *rule_of(Checker *c, int op)
{
    Rule *r = &c->rules[op];
    if (r->parsed)
        return r;
    r->parsed = true;
    const char *s = op_info[op].rule;
    if (strcmp(s, "*") == 0) {
        r->any = true;
        return r;
    }
    while (*s) {
        if (*s == ' ') {
            s++;
            continue;
        }
        if (*s != '{' && *s != '[')
            BUG("ops.def rule of '%s' is malformed at \"%s\"", op_info[op].name, s);
        if (r->group_count == MAX_GROUPS)
            BUG("ops.def rule of '%s' has too many groups", op_info[op].name);
        RuleGroup *g = &r->groups[r->group_count++];
        g->required = *s == '{';
        char close = g->required ? '}' : ']';
        s++;
        while (*s != close) {
            bool refused = *s == '!';
            s += refused;
            const char *w = s;
            while (*s != '|' && *s != close) {
                if (!*s)
                    BUG("ops.def rule of '%s' is unterminated", op_info[op].name);
                s++;
            }
            int t = type_lookup(w, (size_t)(s - w));
            int m = t == TYPE_COUNT ? mod_lookup(w, (size_t)(s - w)) : MOD_COUNT;
            if (t == TYPE_COUNT && m == MOD_COUNT)
                BUG("ops.def rule of '%s' names '%.*s', which is neither in types.def nor in mods.def",
                    op_info[op].name, (int)(s - w), w);
            if (g->count == MAX_GROUP_WORDS)
                BUG("ops.def rule of '%s' has a group that is too large", op_info[op].name);
            g->words[g->count++] = (RuleWord){ t != TYPE_COUNT, refused, (uint8_t)(t != TYPE_COUNT ? t : m) };
            if (*s == '|')
                s++;
        }
        s++;
    }
    unsigned type_groups = 0;
    for (unsigned g = 0; g < r->group_count; g++)
        type_groups += r->groups[g].words[0].is_type;
    if (type_groups > MAX_TYPES || r->group_count - type_groups > MAX_SUFFIXES)
        BUG("ops.def rule of '%s' has more groups than an instruction has room for", op_info[op].name);
    return r;
}

static const char *word_name(RuleWord w)
{
    return w.is_type ? type_info[w.id].name : mod_name[w.id];
}

static void list_group(char *buf, size_t size, const RuleGroup *g)
{
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < g->count && len < size; i++) {
        if (i == 8) {
            len += (size_t)snprintf(buf + len, size - len, ", ...");
            break;
        }
        len += (size_t)snprintf(buf + len, size - len, "%s.%s", i ? ", " : "", word_name(g->words[i]));
    }
}

/* Decodes in->mnemonic into opcode, types and modifiers; reports what does not fit. Returns
 * false (after reporting) when the mnemonic is wrong. */
static bool decode_mnemonic(Checker *c, const Instr *in, Decoded *out)
{
    const char *s = in->mnemonic;
    size_t len = strlen(s);
    memset(out, 0, sizeof *out);
    out->mnemonic = s;
    int op = op_lookup(s, len);
    if (op == OP_COUNT) {
        size_t first = strcspn(s, ".");
        error(c, (Span){ in->at.offset, (uint32_t)first }, "unknown instruction '%.*s'", (int)first, s);
        return false;
    }
    out->op = (uint16_t)op;
    const char *name = op_info[op].name;
    const Rule *r = rule_of(c, op);
    bool ok = true;
    int chosen[MAX_GROUPS];
    for (int g = 0; g < MAX_GROUPS; g++)
        chosen[g] = -1;

    for (size_t pos = strlen(name); pos < len;) {
        size_t start = pos + 1, end = start;
        while (end < len && s[end] != '.')
            end++;
        pos = end;
        const char *part = s + start;
        size_t part_len = end - start;
        Span part_at = { in->at.offset + (uint32_t)start - 1, (uint32_t)part_len + 1 };
        int t = type_lookup(part, part_len);
        int m = t == TYPE_COUNT ? mod_lookup(part, part_len) : MOD_COUNT;
        if (r->any) {
            /* Not checked (ptxrun does not execute the opcode): the known words are kept. */
            if (t != TYPE_COUNT && out->type_count < MAX_TYPES)
                out->types[out->type_count++] = (uint8_t)t;
            else if (m != MOD_COUNT && out->mod_count < MAX_SUFFIXES)
                out->mods[out->mod_count++] = (uint8_t)m;
            continue;
        }
        int found = -1, conflict = -1;
        for (int g = 0; g < r->group_count && found < 0; g++) {
            const RuleGroup *grp = &r->groups[g];
            for (int w = 0; w < grp->count; w++) {
                bool match = grp->words[w].is_type ? grp->words[w].id == t : grp->words[w].id == m;
                if (t != TYPE_COUNT && !grp->words[w].is_type)
                    match = false;
                if (!match)
                    continue;
                if (chosen[g] < 0) {
                    chosen[g] = w;
                    found = g;
                    if (grp->words[w].refused && !out->refused_length) {
                        out->refused_at = (uint32_t)(start - 1);
                        out->refused_length = (uint32_t)(part_len + 1);
                    }
                } else if (conflict < 0) {
                    conflict = g;
                }
                break;
            }
        }
        if (found >= 0)
            continue;
        ok = false;
        if (conflict >= 0)
            error(c, part_at, "'.%.*s' conflicts with '.%s' in '%s'", (int)part_len, part,
                  word_name(r->groups[conflict].words[chosen[conflict]]), name);
        else if (t != TYPE_COUNT)
            error(c, part_at, "'.%.*s' is not a valid type for '%s'", (int)part_len, part, name);
        else
            error(c, part_at, "unknown modifier '.%.*s' for '%s'", (int)part_len, part, name);
    }
    if (r->any) {
        out->canonical = s;
        return ok;
    }
    char canonical[256];
    size_t clen = (size_t)snprintf(canonical, sizeof canonical, "%s", name);
    for (int g = 0; g < r->group_count; g++) {
        const RuleGroup *grp = &r->groups[g];
        if (chosen[g] < 0) {
            if (grp->required && ok) {
                char options[160];
                list_group(options, sizeof options, grp);
                error(c, in->at, "'%s' needs one of %s", s, options);
                ok = false;
            }
            continue;
        }
        RuleWord w = grp->words[chosen[g]];
        if (w.is_type)
            out->types[out->type_count++] = w.id;
        else
            out->mods[out->mod_count++] = w.id;
        clen += (size_t)snprintf(canonical + clen, sizeof canonical - clen, ".%s", word_name(w));
    }
    if (clen >= sizeof canonical)
        BUG("canonical mnemonic too long");
    out->canonical = intern(&c->m->names, canonical, clen);
    return ok;
}

/* Memoised decode: each distinct mnemonic is decoded once; a wrong one is decoded (and so
 * reported) at every use. *refused: where the first suffix ptxrun does not execute is
 * (length 0: none). */
static bool decode(Checker *c, Instr *in, Span *refused)
{
    if (c->memo_count * 2 >= c->memo_capacity) {
        uint32_t cap = c->memo_capacity ? c->memo_capacity * 2 : 256;
        Decoded *memo = xcalloc(cap, sizeof *memo);
        for (uint32_t i = 0; i < c->memo_capacity; i++) {
            if (!c->memo[i].mnemonic)
                continue;
            uint32_t j = pointer_hash(c->memo[i].mnemonic) & (cap - 1);
            while (memo[j].mnemonic)
                j = (j + 1) & (cap - 1);
            memo[j] = c->memo[i];
        }
        free(c->memo);
        c->memo = memo;
        c->memo_capacity = cap;
    }
    uint32_t j = pointer_hash(in->mnemonic) & (c->memo_capacity - 1);
    while (c->memo[j].mnemonic && c->memo[j].mnemonic != in->mnemonic)
        j = (j + 1) & (c->memo_capacity - 1);
    Decoded d;
    if (c->memo[j].mnemonic) {
        d = c->memo[j];
    } else {
        if (!decode_mnemonic(c, in, &d))
            return false;
        c->memo[j] = d;
        c->memo_count++;
    }
    in->op = d.op;
    in->type_count = d.type_count;
    in->mod_count = d.mod_count;
    memcpy(in->types, d.types, sizeof d.types);
    memcpy(in->mods, d.mods, sizeof d.mods);
    in->mnemonic = d.canonical;
    *refused = (Span){ in->at.offset + d.refused_at, d.refused_length };
    return true;
}


/* ---- versions and targets ---- */

enum { PTX_SYNC_INTRODUCED = 60, PTX_NOSYNC_REMOVED = 64, SM_NOSYNC_REMOVED = 70 };

static void check_version_target(Checker *c, const Instr *in)
{
    const OpInfo *o = &op_info[in->op];
    const Module *m = c->m;
    if (m->version && o->min_ptx > m->version)
        error(c, in->at, "'%s' requires PTX ISA %u.%u or later (this module is .version %u.%u)",
              o->name, o->min_ptx / 10, o->min_ptx % 10, m->version / 10, m->version % 10);
    if (m->target_sm && o->min_sm > m->target_sm)
        error(c, in->at, "'%s' requires sm_%u or later (this module targets sm_%u)", o->name,
              o->min_sm, m->target_sm);
    if (m->target_sm && (o->flags & OPF_ARCH) && !m->target_arch)
        error(c, in->at, "'%s' requires an architecture-specific target such as sm_%ua", o->name,
              o->min_sm);
    if (o->flags & OPF_LEGACY_NOSYNC) {
        if (m->version >= PTX_NOSYNC_REMOVED && m->target_sm >= SM_NOSYNC_REMOVED)
            error(c, in->at, "'%s' without .sync is not supported for sm_%u and later from PTX ISA "
                  "6.4 on (use '%s.sync')", o->name, SM_NOSYNC_REMOVED, o->name);
        else if (c->options->warn_deprecated && (m->version >= PTX_SYNC_INTRODUCED || !m->version) &&
                 !c->warned_legacy[in->op]) {
            c->warned_legacy[in->op] = true;
            warning(c, in->at, "'%s' without .sync is deprecated since PTX ISA 6.0 (use '%s.sync')",
                    o->name, o->name);
        }
    }
}

/* ---- name resolution ---- */

/* What an operand position expects, from its shape letter and the instruction's types. */
typedef struct Expect {
    char letter;               /* ops.def shape letter, 0 = unchecked */
    bool pred;                 /* a predicate register */
    bool dest;                 /* written */
    int type;                  /* value type expected, TYPE_NONE = any */
} Expect;

static Register *reg_at(Function *f, bool pred, uint32_t slot)
{
    return pred ? &f->preds.data[slot] : &f->regs.data[slot];
}

static uint32_t new_register(Checker *c, const char *name, bool pred, int type, uint8_t vector)
{
    Register r = { name, (uint8_t)type, vector, pred, false };
    Function *f = c->fn;
    if (pred) {
        VEC_PUSH(&c->m->arena, f->preds, r);
        return f->preds.len - 1;
    }
    VEC_PUSH(&c->m->arena, f->regs, r);
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
    uint32_t n = (uint32_t)strtoul(name + digits, NULL, 10);
    if (n >= range->count)
        return NULL;
    bool pred = range->kind == SYM_PRED_RANGE;
    uint32_t slot = range->index + n;
    Register *r = reg_at(c->fn, pred, slot);
    if (!r->name)
        r->name = name;
    Binding b = { name, pred ? SYM_PRED : SYM_REG, slot, 1, range->at };
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
    if (r->type == TYPE_NONE) {
        r->type = (uint8_t)type;
        return;
    }
    if (type_bits(r->type) != type_bits(type)) {
        error(c, o->at, "'%s' is used as a %u-bit value here and as a %u-bit one before", r->name,
              type_bits(type), type_bits(r->type));
        return;
    }
    char had = type_class(r->type), now = type_class(type);
    if (had == 'b' && now != 'b')
        r->type = (uint8_t)type;
    else if (had != 'b' && now != 'b' && r->type != type && !(had != 'f' && now != 'f' && had == now))
        r->type = (uint8_t)type_of('b', type_bits(type));
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
    Binding *b = sym_lookup(&c->locals, name);
    if (!b)
        b = lookup_in_range(c, name);
    if (!b && e.letter != 'l')
        b = sym_lookup(&c->globals, name);
    if (!b && e.letter != 'l' && (name[0] == '%' || strcmp(name, "WARP_SZ") == 0) &&
        resolve_sreg(c, o, name))
        return;
    if (!b && c->fn->is_snippet && e.letter != 'l') {
        if ((e.pred ? c->fn->preds.len : c->fn->regs.len) >= MAX_REGISTERS) {
            error(c, o->at, "'%s' would make more than %d %s in '%s'", name, MAX_REGISTERS,
                  e.pred ? "predicates" : "registers", c->fn->name);
            return;
        }
        uint32_t slot = new_register(c, name, e.pred, TYPE_NONE, 0);
        reg_at(c->fn, e.pred, slot)->inferred = true;
        Binding nb = { name, e.pred ? SYM_PRED : SYM_REG, slot, 1, o->at };
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
    switch (b->kind) {
    case SYM_REG:
    case SYM_PRED:
        o->kind = b->kind == SYM_PRED ? OPND_PRED : OPND_REG;
        o->u.slot = b->index;
        if (o->u.ref.offset)
            error(c, o->at, "a register cannot take an offset");
        if (o->kind == OPND_REG && c->fn->regs.data[o->u.slot].inferred)
            infer_type(c, o, &c->fn->regs.data[o->u.slot], e.type);
        break;
    case SYM_LABEL: {
        o->kind = OPND_LABEL;
        o->u.ref.target = c->fn->labels.data[b->index].target;
        break;
    }
    case SYM_VAR:
    case SYM_FUNC:
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
            elem.type = type_of('b', type_bits(e.type) / o->count);   /* mov {lo, hi}: the parts */
        for (unsigned i = 0; i < o->count; i++)
            resolve_operand(c, &o->u.group.elems[i], elem);
        break;
    }
    default:
        break;
    }
}

/* ---- operand checks for the opcodes ops.def describes ---- */

static const char *kind_word(const Operand *o)
{
    switch (o->kind) {
    case OPND_INT: case OPND_F32: case OPND_F64: return "an immediate";
    case OPND_SYM: return "a variable or function name";
    case OPND_LABEL: return "a label";
    case OPND_SINK: return "'_'";
    case OPND_ADDR: return "an address";
    case OPND_VEC: return "a vector";
    case OPND_PAIR: return "a pair";
    case OPND_LIST: return "a parenthesised list";
    case OPND_SREG: return "a special register";
    case OPND_PRED: return "a predicate";
    default: return "a register";
    }
}

/* Register type compatibility (PTX ISA 5.4.4): same width, and a .b type on either side, or
 * both integer types, or the same floating-point type. */
static bool compatible(int reg_type, int want)
{
    if (reg_type == TYPE_NONE || want == TYPE_NONE)
        return true;
    if (type_bits(reg_type) != type_bits(want))
        return false;
    char r = type_class(reg_type), w = type_class(want);
    if (r == 'b' || w == 'b')
        return true;
    if ((r == 'u' || r == 's') && (w == 'u' || w == 's'))
        return true;
    return reg_type == want;
}

static void check_value(Checker *c, const Instr *in, const Operand *o, Expect e)
{
    const char *op = in->mnemonic;
    switch (o->kind) {
    case OPND_PRED:
        if (!e.pred)
            error(c, o->at, "predicate '%s' used as a value in '%s'", c->fn->preds.data[o->u.slot].name, op);
        return;
    case OPND_REG: {
        Register *r = &c->fn->regs.data[o->u.slot];
        if (e.pred) {
            error(c, o->at, "'%s' is not a predicate ('%s' needs one here)", r->name, op);
            return;
        }
        /* ld, st and cvt may name registers wider than their type (PTX ISA 5.4.5.1): integers,
         * or .bN registers (cvt's packed formats: .e2m1x2 in a .b16); for ld and st also
         * registers of any type for .bN data. */
        char want = type_class(e.type), have = type_class(r->type);
        bool wider = type_bits(r->type) > type_bits(e.type);
        bool wider_ok = (in->op == OP_CVT && wider && ((want != 'f' && have != 'f') || have == 'b')) ||
                        ((in->op == OP_LD || in->op == OP_ST) && wider &&
                         (want == 'b' || have == 'b' || (want != 'f' && have != 'f')));
        if (!r->inferred && !wider_ok && !compatible(r->type, e.type))
            error(c, o->at, "'%s' is .%s, which does not fit the .%s operand of '%s'", r->name,
                  type_info[r->type].name, type_info[e.type].name, op);
        return;
    }
    case OPND_SINK:
        if (!e.dest)
            error(c, o->at, "'_' can only be a destination");
        return;
    default:
        break;
    }
    if (e.dest) {
        error(c, o->at, "the destination of '%s' must be a register, not %s", op, kind_word(o));
        return;
    }
    if (e.pred && !(o->kind == OPND_INT && e.letter != 'p')) {
        error(c, o->at, "'%s' needs a predicate here, not %s", op, kind_word(o));
        return;
    }
    char cls = type_class(e.type);
    switch (o->kind) {
    case OPND_INT:
        if (cls == 'f')
            error(c, o->at, "integer immediate for the .%s operand of '%s' (write a float such as 1.0 or 0f3F800000)",
                  type_info[e.type].name, op);
        return;
    case OPND_F32:
    case OPND_F64:
        if (cls == 'u' || cls == 's')
            error(c, o->at, "floating-point immediate for the .%s operand of '%s'", type_info[e.type].name, op);
        return;
    case OPND_SREG:
        if (e.type != TYPE_NONE && cls != 'f' && sreg_info[o->u.sreg].bits > type_bits(e.type) &&
            sreg_info[o->u.sreg].bits != 1)
            error(c, o->at, "special register '%s' is %u-bit, wider than the .%s operand of '%s'",
                  sreg_info[o->u.sreg].name, sreg_info[o->u.sreg].bits, type_info[e.type].name, op);
        return;
    case OPND_SYM:
        if (e.letter == 'S')
            return;
        /* fall through */
    default:
        error(c, o->at, "'%s' cannot take %s here", op, kind_word(o));
    }
}

static Expect expect_for(const Instr *in, char letter)
{
    int type = in->type_count ? in->types[0] : TYPE_NONE;
    bool is_pred_type = type == TYPE_PRED;
    int wide = type;
    if (ir_has_mod(in, MOD_WIDE) && type != TYPE_NONE)
        wide = type_of(type_class(type), 2 * type_bits(type));
    Expect e = { letter, false, false, type };
    switch (letter) {
    case 'd': case 'V': e.dest = true; e.pred = is_pred_type; e.type = wide; break;
    case 'D': e.dest = true; break;
    case 'Q': case 'q': e.dest = true; e.pred = true; e.type = TYPE_PRED; break;
    case 'a': case 'S': case 'v': e.pred = is_pred_type; break;
    case 'c': e.type = TYPE_B64; break;
    case 'A': e.type = TYPE_NONE; break;
    case 'w': e.type = wide; break;
    case 't': e.type = in->type_count > 1 ? in->types[1] : TYPE_NONE; break;
    case 'u': e.type = TYPE_U32; break;
    case 'U': case 'M': e.dest = true; e.type = TYPE_U32; break;
    case 'p': e.pred = true; e.type = TYPE_PRED; break;
    case 'l': e.type = TYPE_NONE; break;
    default: break;
    }
    return e;
}

/* An address: [reg], [reg+imm], [var], [var+imm] or [imm]; the register an integer one. */
static void check_address(Checker *c, const Instr *in, const Operand *o)
{
    if (o->kind != OPND_ADDR) {
        error(c, o->at, "'%s' needs an address in brackets here, such as [p], not %s", in->mnemonic, kind_word(o));
        return;
    }
    for (unsigned i = 0; i < o->count; i++) {
        const Operand *base = &o->u.group.elems[i];
        if (base->kind == OPND_REG && type_class(c->fn->regs.data[base->u.slot].type) == 'f')
            error(c, base->at, "'%s' is .%s: an address is an integer", c->fn->regs.data[base->u.slot].name,
                  type_info[c->fn->regs.data[base->u.slot].type].name);
        else if (base->kind != OPND_REG && base->kind != OPND_SYM && base->kind != OPND_NAME)
            error(c, base->at, "an address is a register or a variable (plus an offset), not %s", kind_word(base));
    }
}

static void check_operand(Checker *c, const Instr *in, Operand *o, Expect e)
{
    if (e.letter == 'l') {
        if (o->kind != OPND_LABEL && o->kind != OPND_NAME)
            error(c, o->at, "'%s' needs a label, not %s", in->mnemonic, kind_word(o));
        return;
    }
    if (o->kind == OPND_PAIR) {
        if (e.letter != 'D' && e.letter != 'Q' && e.letter != 'M') {
            error(c, o->at, "'%s' does not take a d|p pair here", in->mnemonic);
            return;
        }
        Expect first = e;
        check_value(c, in, &o->u.group.elems[0], first);
        Expect second = { 'q', true, true, TYPE_PRED };
        check_value(c, in, &o->u.group.elems[1], second);
        return;
    }
    if (e.letter == 'A') {
        check_address(c, in, o);
        return;
    }
    if (o->kind == OPND_VEC && (e.letter == 'V' || e.letter == 'S' || e.letter == 'v')) {
        Expect elem = e;
        elem.type = TYPE_NONE;
        for (unsigned i = 0; i < o->count; i++)
            check_value(c, in, &o->u.group.elems[i], elem);
        return;
    }
    if (o->kind == OPND_SINK && in->op == OP_LD) {
        error(c, o->at, "'%s' cannot discard its one value ('_' is for elements of a vector)", in->mnemonic);
        return;
    }
    if (o->kind == OPND_SREG && e.letter == 'v') {
        error(c, o->at, "'%s' cannot store special register '%s': move it to a register first", in->mnemonic,
              sreg_info[o->u.sreg].name);
        return;
    }
    if ((o->flags & OPNDF_NOT) && e.letter != 'p')
        error(c, o->at, "'!' is not allowed on this operand of '%s'", in->mnemonic);
    if (o->kind == OPND_SREG && e.dest)
        error(c, o->at, "special register '%s' is read-only", sreg_info[o->u.sreg].name);
    else if (o->kind != OPND_NAME)
        check_value(c, in, o, e);
}

/* An operand shape from ops.def: its letters in order; optional ones may be left out. */
typedef struct Shape {
    bool any;                  /* "*": operands not checked */
    unsigned count;
    uint32_t optional;         /* bit i: letters[i] is optional */
    char letters[MAX_SHAPE];
} Shape;

static bool has_word(const Instr *in, const char *word, size_t len)
{
    int t = type_lookup(word, len);
    for (unsigned i = 0; t != TYPE_COUNT && i < in->type_count; i++)
        if (in->types[i] == t)
            return true;
    int m = mod_lookup(word, len);
    if (t == TYPE_COUNT && m == MOD_COUNT)
        BUG("ops.def shape of '%s' is keyed by '%.*s', which is neither a type nor a modifier",
            op_info[in->op].name, (int)len, word);
    return m != MOD_COUNT && ir_has_mod(in, (Mod)m);
}

/* The shape of in's form: of ops.def's alternatives ".key letters | ... | letters", the first
 * whose key is one of in's suffixes, else the last (unkeyed). */
static Shape shape_of(const Instr *in)
{
    Shape sh = { 0 };
    const char *s = op_info[in->op].shape;
    if (strcmp(s, "*") == 0) {
        sh.any = true;
        return sh;
    }
    for (;;) {
        while (*s == ' ')
            s++;
        const char *end = s + strcspn(s, "|");
        if (*s == '.') {
            size_t key = strcspn(s + 1, " |");
            bool chosen = has_word(in, s + 1, key);
            s += 1 + key;
            if (!chosen) {
                if (!*end)
                    BUG("ops.def shape of '%s' has no unkeyed alternative", op_info[in->op].name);
                s = end + 1;
                continue;
            }
        }
        for (; s < end; s++) {
            if (*s == ',' || *s == ' ')
                continue;
            if (*s == '?') {
                sh.optional |= 1u << (sh.count - 1);
                continue;
            }
            if (sh.count == MAX_SHAPE)
                BUG("ops.def shape of '%s' is too long", op_info[in->op].name);
            sh.letters[sh.count++] = *s;
        }
        return sh;
    }
}

/* The letters for n operands: of the optional ones, the first (n - required) are present.
 * Returns false when n does not fit the shape. */
static bool fit_shape(const Shape *sh, unsigned n, char *letters)
{
    unsigned optional = (unsigned)__builtin_popcount(sh->optional), required = sh->count - optional;
    if (n < required || n > sh->count)
        return false;
    unsigned present = n - required, k = 0;
    for (unsigned i = 0; i < sh->count; i++) {
        if (sh->optional >> i & 1) {
            if (!present)
                continue;
            present--;
        }
        letters[k++] = sh->letters[i];
    }
    return true;
}

/* ld, st and the atomics give the types of memory, to which a register may be wider; a barrier's
 * operands are numbers. Neither types a snippet's registers. */
static bool types_registers(int op)
{
    int family = op_info[op].family;
    return family != FAM_MEMORY && family != FAM_ATOMIC && family != FAM_BARRIER;
}

static void check_instr(Checker *c, Instr *in)
{
    Span refused;
    bool decoded = decode(c, in, &refused);
    if (decoded) {
        uint32_t errors = c->diag->errors;
        check_version_target(c, in);
        suffixes_check(c->diag, c->m, in);
        if (op_info[in->op].family == FAM_NONE && c->diag->errors == errors)
            error(c, in->at, "ptxrun cannot execute '%s' yet", op_info[in->op].name);
        if (refused.length && c->diag->errors == errors)
            error(c, refused, "ptxrun cannot execute '%s' with '%.*s' yet", op_info[in->op].name,
                  (int)refused.length, c->m->src->text + refused.offset);
    }

    if (in->guard_kind) {
        Operand g;
        memset(&g, 0, sizeof g);
        g.kind = OPND_NAME;
        g.at = in->guard_at;
        g.u.ref.name = in->guard_name;
        Expect p = { 'p', true, false, TYPE_PRED };
        resolve_name(c, &g, p);
        if (g.kind == OPND_PRED)
            in->guard_slot = g.u.slot;
        else if (g.kind == OPND_REG)
            error(c, g.at, "'%s' is not a predicate and cannot guard an instruction", in->guard_name);
        else if (g.kind != OPND_NAME)
            error(c, g.at, "a guard must be a predicate register, not %s", kind_word(&g));
    }

    /* A form ptxrun does not execute is not checked further: its operands may have a shape
     * ops.def does not describe (vectors of atomics, a tensor map's address). */
    char letters[MAX_SHAPE];
    Shape sh = decoded && !refused.length ? shape_of(in) : (Shape){ .any = true };
    bool any = sh.any;
    if (!any && !fit_shape(&sh, in->operand_count, letters)) {
        unsigned optional = (unsigned)__builtin_popcount(sh.optional), n = sh.count;
        if (!optional)
            error(c, in->stmt_at, "'%s' takes %u operand%s, not %u", in->mnemonic, n, n == 1 ? "" : "s",
                  in->operand_count);
        else
            error(c, in->stmt_at, "'%s' takes %u to %u operands, not %u", in->mnemonic, n - optional, n,
                  in->operand_count);
        any = true;                 /* resolve names, skip per-operand checks */
    }
    for (unsigned i = 0; i < in->operand_count; i++) {
        Operand *o = &in->operands[i];
        bool unchecked = any;
        Expect e = unchecked ? (Expect){ 0, false, false, TYPE_NONE } : expect_for(in, letters[i]);
        if (unchecked) {
            /* Unchecked operands: in a snippet a new name is a predicate only where the
             * syntax says so (!p); the first operand is the destination. */
            e.pred = (o->flags & OPNDF_NOT) != 0;
        }
        Expect typing = e;
        if (!types_registers(in->op))
            typing.type = TYPE_NONE;
        resolve_operand(c, o, typing);
        if (!unchecked)
            check_operand(c, in, o, e);
    }
}

/* ---- declarations ---- */

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
    if (declared >= MAX_REGISTERS || count > MAX_REGISTERS - declared) {
        error(c, d->at, "'%s' would make more than %d %s in '%s'", d->name, MAX_REGISTERS,
              pred ? "predicates" : "registers", c->fn->name);
        return;
    }
    uint32_t first = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t slot = new_register(c, d->has_range ? NULL : d->name, pred, d->type, d->vector);
        if (i == 0)
            first = slot;
    }
    d->first_slot = first;
    Binding b = { d->name, (uint8_t)(d->has_range ? (pred ? SYM_PRED_RANGE : SYM_RANGE) : (pred ? SYM_PRED : SYM_REG)),
                  first, count, d->at };
    bind_local(c, b);
}

static void declare_local(Checker *c, Decl *d, uint32_t index)
{
    if (d->space == SPACE_REG) {
        declare_registers(c, d);
        return;
    }
    Binding *old = sym_lookup(&c->locals, d->name);
    if (old && c->depth == 0 && old->kind != SYM_VAR)
        error(c, d->at, "'%s' is already declared (at line %u)", d->name, line_of(c, old->at));
    uint32_t own = c->fn->returns.len + c->fn->params.len;   /* ids 1..own: results and parameters */
    if (old && old->kind == SYM_VAR && old->index >= 1 && old->index <= own && index > own)
        error(c, d->at, "'%s' is a parameter of '%s': ptxas takes a declaration of that name in its body for "
              "the parameter", d->name, c->fn->name);
    if (d->space == SPACE_SHARED && (d->linkage & LINK_EXTERN) && !c->fn->is_snippet)
        error(c, d->at, "'.extern .shared' inside a function: ptxas takes extern variables at module scope only");
    Binding b = { d->name, SYM_VAR, index, 1, d->at };
    bind_local(c, b);
}

static void check_function(Checker *c, Function *f)
{
    c->fn = f;
    c->depth = 0;
    c->undo.len = 0;
    sym_clear(&c->locals);

    for (uint32_t i = 0; i < f->labels.len; i++) {
        Label *l = &f->labels.data[i];
        Binding *old = sym_lookup(&c->locals, l->name);
        if (old) {
            error(c, l->at, "duplicate label '%s' (first defined at line %u)", l->name, line_of(c, old->at));
            continue;
        }
        Binding b = { l->name, SYM_LABEL, i, 1, l->at };
        sym_put(&c->locals, b);
    }
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

static void declare_globals(Checker *c)
{
    Module *m = c->m;
    for (uint32_t i = 0; i < m->globals.len; i++) {
        Decl *d = &m->globals.data[i];
        Binding *old = sym_lookup(&c->globals, d->name);
        if (old && !(d->linkage & LINK_EXTERN))
            error(c, d->at, "'%s' is already defined (at line %u)", d->name, line_of(c, old->at));
        if (d->space == SPACE_LOCAL && !m->is_snippet)   /* a snippet's top level is its kernel's body */
            error(c, d->at, "'.local' variable '%s' at module scope (ptxas allows .local only inside a function)",
                  d->name);
        Binding b = { d->name, SYM_VAR, i, 1, d->at };
        sym_put(&c->globals, b);
    }
    for (uint32_t i = 0; i < m->functions.len; i++) {
        Function *f = m->functions.data[i];
        if (f->is_snippet)
            continue;
        Binding *old = sym_lookup(&c->globals, f->name);
        if (old && old->kind == SYM_FUNC && f->has_body && m->functions.data[old->index]->has_body) {
            error(c, f->at, "function '%s' is defined twice (first at line %u)", f->name, line_of(c, old->at));
            continue;
        }
        if (old && old->kind != SYM_FUNC) {
            error(c, f->at, "'%s' is already declared as a variable (at line %u)", f->name, line_of(c, old->at));
            continue;
        }
        if (!old || f->has_body) {
            Binding b = { f->name, SYM_FUNC, i, 1, f->at };
            sym_put(&c->globals, b);
        }
    }
}

int check_module(Module *m, Diag *diag, const CheckOptions *options)
{
    static const CheckOptions defaults = { true };
    Checker *c = xcalloc(1, sizeof *c);
    c->m = m;
    c->diag = diag;
    c->options = options ? options : &defaults;
    sym_init(&c->globals);
    sym_init(&c->locals);
    uint32_t errors_before = diag->errors;

    if (!m->is_snippet && m->functions.len && !m->version)
        error(c, m->functions.data[0]->at, "missing .version directive (nvcc writes e.g. '.version 9.0' first)");
    if (!m->is_snippet && m->functions.len && !m->target_sm)
        error(c, m->functions.data[0]->at, "missing .target directive (e.g. '.target sm_75')");
    declare_globals(c);
    for (uint32_t i = 0; i < m->functions.len; i++)
        check_function(c, m->functions.data[i]);

    free(c->globals.slots);
    free(c->locals.slots);
    free(c->memo);
    free(c);
    return (int)(diag->errors - errors_before);
}
