/* suffixes.c: what an instruction's suffixes must say together, where its rule in ops.def (each
 * group of words on its own) cannot: suffixes newer than their opcode, memory orders and the
 * spaces and caches they go with, the types of each atomic operation, the forms of barriers and
 * fences. Each fact is from the PTX ISA and what ptxas 13.0 refuses.
 * Requires: in decoded by the checker (opcode, types, modifiers). */
#include <string.h>

#include "ir.h"

static void error(Diag *diag, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vat(diag, DIAG_ERROR, at, fmt, ap);
    va_end(ap);
}

/* The first of mods that in has, or MOD_COUNT. */
static int first_of(const Instr *in, const Mod *mods, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (ir_has_mod(in, mods[i]))
            return mods[i];
    return MOD_COUNT;
}
#define FIRST_OF(in, mods) first_of(in, mods, COUNT_OF(mods))

static const Mod SPACES[] = { MOD_GLOBAL, MOD_SHARED, MOD_SHARED_CTA, MOD_SHARED_CLUSTER, MOD_LOCAL, MOD_CONST,
                              MOD_PARAM, MOD_PARAM_ENTRY, MOD_PARAM_FUNC };
static const Mod ORDERS[] = { MOD_RELAXED, MOD_ACQUIRE, MOD_RELEASE, MOD_ACQ_REL, MOD_SC };
static const Mod SCOPES[] = { MOD_CTA, MOD_CLUSTER, MOD_GPU, MOD_SYS };
static const Mod CACHE_OPS[] = { MOD_CA, MOD_CG, MOD_CS, MOD_LU, MOD_CV, MOD_WB, MOD_WT };
static const Mod L1_EVICTIONS[] = { MOD_L1_EVICT_NORMAL, MOD_L1_EVICT_UNCHANGED, MOD_L1_EVICT_FIRST, MOD_L1_EVICT_LAST,
                                    MOD_L1_NO_ALLOCATE };
static const Mod L2_EVICTIONS[] = { MOD_L2_EVICT_NORMAL, MOD_L2_EVICT_FIRST, MOD_L2_EVICT_LAST };
static const Mod PREFETCHES[] = { MOD_L2_64B, MOD_L2_128B, MOD_L2_256B };
static const Mod VECTORS[] = { MOD_V2, MOD_V4, MOD_V8 };
static const Mod ATOMIC_OPS[] = { MOD_AND, MOD_OR, MOD_XOR, MOD_CAS, MOD_EXCH, MOD_ADD, MOD_INC, MOD_DEC, MOD_MIN,
                                  MOD_MAX };

/* The part '.word' of the mnemonic as written (a zero length when there is none). */
static Span written_part(const Module *m, const Instr *in, const char *word)
{
    const char *s = m->src->text + in->at.offset;
    size_t len = in->at.length, word_len = strlen(word);
    for (size_t i = 0; i + word_len < len; i++)
        if (s[i] == '.' && strncmp(s + i + 1, word, word_len) == 0 &&
            (i + 1 + word_len == len || s[i + 1 + word_len] == '.'))
            return (Span){ in->at.offset + (uint32_t)i, (uint32_t)(word_len + 1) };
    return (Span){ in->at.offset, 0 };
}

/* Suffixes that came after their opcode: the PTX ISA and target they need (OP_COUNT: any opcode). */
static const struct {
    uint16_t op;
    uint8_t mod, ptx, sm;
} later_suffixes[] = {
    { OP_COUNT, MOD_PARAM_ENTRY, 83, 0 }, { OP_COUNT, MOD_PARAM_FUNC, 83, 0 },
    { OP_CVTA, MOD_PARAM, 77, 0 },
    { OP_ISSPACEP, MOD_CONST, 31, 0 }, { OP_ISSPACEP, MOD_PARAM, 77, 70 }, { OP_ISSPACEP, MOD_SHARED_CTA, 78, 0 },
    { OP_COUNT, MOD_SHARED_CLUSTER, 78, 90 },
    { OP_BARRIER_CLUSTER, MOD_RELAXED, 80, 0 }, { OP_BARRIER_CLUSTER, MOD_RELEASE, 80, 0 },
    { OP_BARRIER_CLUSTER, MOD_ACQUIRE, 80, 0 },
    { OP_BAR, MOD_ARRIVE, 20, 20 }, { OP_BAR, MOD_RED, 20, 20 },
    { OP_BAR, MOD_CTA, 78, 0 }, { OP_BARRIER, MOD_CTA, 78, 0 },
    { OP_FMA, MOD_OOB, 81, 90 },
    { OP_LOP3, MOD_OR, 82, 0 }, { OP_LOP3, MOD_AND, 82, 0 },    /* lop3.or/.and d|p (ptxas 13.0) */
    { OP_ATOM, MOD_V2, 81, 90 }, { OP_ATOM, MOD_V4, 81, 90 }, { OP_ATOM, MOD_V8, 81, 90 },
    { OP_RED, MOD_V2, 81, 90 }, { OP_RED, MOD_V4, 81, 90 }, { OP_RED, MOD_V8, 81, 90 },
    /* mma's shapes and .and.popc as ptxas 13.0 takes them (what depends on the types is not here:
     * m8n8k4 .f64 and m16n8k8 .bf16/.tf32 need PTX ISA 7.0 and sm_80) */
    { OP_MMA, MOD_M8N8K16, 65, 75 }, { OP_MMA, MOD_M8N8K32, 65, 75 }, { OP_MMA, MOD_M8N8K128, 70, 75 },
    { OP_MMA, MOD_M16N8K4, 70, 80 }, { OP_MMA, MOD_M16N8K8, 65, 75 }, { OP_MMA, MOD_M16N8K16, 70, 80 },
    { OP_MMA, MOD_M16N8K32, 70, 80 }, { OP_MMA, MOD_M16N8K64, 70, 80 }, { OP_MMA, MOD_M16N8K128, 70, 80 },
    { OP_MMA, MOD_M16N8K256, 70, 80 }, { OP_MMA, MOD_AND, 71, 80 },
};

/* Whether a suffix of in is in later_suffixes at all (most instructions have none or one
 * suffix, and none of these): the table is then passed over once per suffix, not per entry. */
static bool any_later_suffix(const Instr *in)
{
    for (unsigned k = 0; k < in->mod_count; k++)
        for (size_t i = 0; i < COUNT_OF(later_suffixes); i++)
            if (later_suffixes[i].mod == in->mods[k])
                return true;
    return false;
}

static void check_later_suffixes(Diag *diag, const Module *m, const Instr *in)
{
    if (!any_later_suffix(in))
        return;
    for (size_t i = 0; i < COUNT_OF(later_suffixes); i++) {
        if ((later_suffixes[i].op != OP_COUNT && later_suffixes[i].op != in->op) ||
            !ir_has_mod(in, later_suffixes[i].mod))
            continue;
        Span at = written_part(m, in, mod_name[later_suffixes[i].mod]);
        unsigned ptx = later_suffixes[i].ptx, sm = later_suffixes[i].sm;
        if (m->version && m->version < ptx)
            error(diag, at, "'%.*s' requires PTX ISA %u.%u or later (this module is .version %u.%u)", (int)at.length,
                  m->src->text + at.offset, ptx / 10, ptx % 10, m->version / 10, m->version % 10);
        if (m->target_sm && m->target_sm < sm)
            error(diag, at, "'%.*s' requires sm_%u or later (this module targets sm_%u)", (int)at.length,
                  m->src->text + at.offset, sm, m->target_sm);
    }
}

static int type_of_instr(const Instr *in)
{
    return in->type_count ? in->types[0] : TYPE_NONE;
}

static bool is_half(int type)
{
    return type == TYPE_F16 || type == TYPE_F16X2 || type == TYPE_BF16 || type == TYPE_BF16X2;
}

enum { SM_WIDE_ACCESS = 100 };       /* 256-bit ld and st */

static unsigned vector_count(const Instr *in)
{
    int v = FIRST_OF(in, VECTORS);
    return v == MOD_V2 ? 2 : v == MOD_V4 ? 4 : v == MOD_V8 ? 8 : 1;
}

/* ld, st: orders, scopes, spaces and caches (PTX ISA ld, ld.global.nc, st), and the data
 * operand against the vector suffix (its elements are the checker's). */
static void check_load_store(Diag *diag, const Module *m, const Instr *in)
{
    const char *name = in->mnemonic;
    int order = FIRST_OF(in, ORDERS), scope = FIRST_OF(in, SCOPES), space = FIRST_OF(in, SPACES);
    int cache_op = FIRST_OF(in, CACHE_OPS), l1 = FIRST_OF(in, L1_EVICTIONS), l2 = FIRST_OF(in, L2_EVICTIONS);
    int prefetch = FIRST_OF(in, PREFETCHES);
    bool global = space == MOD_COUNT || space == MOD_GLOBAL;           /* or generic */
    bool shared = space == MOD_SHARED || space == MOD_SHARED_CTA || space == MOD_SHARED_CLUSTER;
    int strong = order != MOD_COUNT ? order : ir_has_mod(in, MOD_VOLATILE) ? MOD_VOLATILE : MOD_COUNT;
    if (order != MOD_COUNT && scope == MOD_COUNT)
        error(diag, in->at, "'%s': .%s needs a scope (.cta, .cluster, .gpu or .sys)", name, mod_name[order]);
    if (scope != MOD_COUNT && order == MOD_COUNT)
        error(diag, in->at, "'%s': the scope .%s needs .relaxed or .%s", name, mod_name[scope],
              in->op == OP_LD ? "acquire" : "release");
    if (ir_has_mod(in, MOD_MMIO) && (order != MOD_RELAXED || scope != MOD_SYS || !global))
        error(diag, in->at, "'%s': .mmio goes with .relaxed.sys, on .global memory", name);
    if (strong != MOD_COUNT && !global && !shared)
        error(diag, in->at, "'%s': .%s is for .global and .shared memory", name, mod_name[strong]);
    int cache = ir_has_mod(in, MOD_NC) ? MOD_NC : cache_op;
    if (strong != MOD_COUNT && cache != MOD_COUNT)
        error(diag, in->at, "'%s': .%s cannot be combined with .%s", name, mod_name[strong], mod_name[cache]);
    else if (ir_has_mod(in, MOD_WEAK) && ir_has_mod(in, MOD_NC))
        error(diag, in->at, "'%s': .weak cannot be combined with .nc", name);
    else if (ir_has_mod(in, MOD_VOLATILE) && (l1 != MOD_COUNT || l2 != MOD_COUNT || ir_has_mod(in, MOD_L2_CACHE_HINT)))
        error(diag, in->at, "'%s': .volatile takes no cache hints", name);
    if (l1 != MOD_COUNT && cache_op != MOD_COUNT)
        error(diag, in->at, "'%s': .%s cannot be combined with .%s", name, mod_name[l1], mod_name[cache_op]);
    if (ir_has_mod(in, MOD_NC) && space != MOD_GLOBAL)
        error(diag, in->at, "'%s': .nc is for .global memory (ld.global.nc)", name);
    else if (ir_has_mod(in, MOD_NC) && (cache_op == MOD_LU || cache_op == MOD_CV))
        error(diag, in->at, "'%s': .nc takes .ca, .cg or .cs", name);
    int hint = l1 != MOD_COUNT ? l1 : l2 != MOD_COUNT ? l2 : prefetch != MOD_COUNT ? prefetch :
               ir_has_mod(in, MOD_L2_CACHE_HINT) ? MOD_L2_CACHE_HINT : MOD_COUNT;
    if (hint != MOD_COUNT && !global)
        error(diag, in->at, "'%s': .%s is for .global memory", name, mod_name[hint]);
    unsigned count = vector_count(in), bits = type_info[type_of_instr(in)].bits;
    if (l2 != MOD_COUNT && count * bits != 256)
        error(diag, in->at, "'%s': .%s needs a 256-bit access (.v8 of 32-bit or .v4 of 64-bit values)", name,
              mod_name[l2]);
    if (count * bits == 256 && m->target_sm && m->target_sm < SM_WIDE_ACCESS)
        error(diag, in->at, "'%s': a 256-bit access requires sm_%u or later (this module targets sm_%u)", name,
              SM_WIDE_ACCESS, m->target_sm);
    if (in->operand_count < 2)
        return;
    const Operand *data = &in->operands[in->op == OP_LD ? 0 : 1];

    unsigned given = data->kind == OPND_VEC ? data->count : 1;
    if (given != count && count == 1)
        error(diag, data->at, "'%s' moves one value: a vector needs .v2, .v4 or .v8", name);
    else if (given != count)
        error(diag, data->at, "'%s' moves a vector of %u values, not %s", name, count,
              data->kind == OPND_VEC ? "of another size" : "one value");
}

#define T(type) (UINT64_C(1) << TYPE_##type)
/* The types of each atomic operation without a vector suffix (the vector forms: below). */
static const struct {
    uint8_t op;
    uint64_t types;
} atomic_types[] = {
    { MOD_AND, T(B32) | T(B64) }, { MOD_OR, T(B32) | T(B64) }, { MOD_XOR, T(B32) | T(B64) },
    { MOD_CAS, T(B16) | T(B32) | T(B64) | T(B128) }, { MOD_EXCH, T(B32) | T(B64) | T(B128) },
    { MOD_ADD, T(U32) | T(S32) | T(U64) | T(F32) | T(F64) | T(F16) | T(F16X2) | T(BF16) | T(BF16X2) },
    { MOD_INC, T(U32) }, { MOD_DEC, T(U32) },
    { MOD_MIN, T(U32) | T(S32) | T(U64) | T(S64) }, { MOD_MAX, T(U32) | T(S32) | T(U64) | T(S64) },
};

/* ".b32 or .b64" for a set of types. */
static void list_types(char *buf, size_t size, uint64_t types)
{
    size_t len = 0;
    unsigned left = (unsigned)__builtin_popcountll(types);
    buf[0] = '\0';
    for (int t = 0; t < TYPE_COUNT && len < size; t++) {
        if (!(types >> t & 1))
            continue;
        left--;
        len += (size_t)snprintf(buf + len, size - len, "%s.%s", len == 0 ? "" : left ? ", " : " or ",
                                type_info[t].name);
    }
}

/* atom, red: spaces, the types of each operation, .noftz, vectors (PTX ISA atom, red). */
static void check_atomic(Diag *diag, const Module *m, const Instr *in)
{
    const char *name = in->mnemonic;
    int op = FIRST_OF(in, ATOMIC_OPS), space = FIRST_OF(in, SPACES), vector = FIRST_OF(in, VECTORS);
    int type = type_of_instr(in);
    if (space == MOD_LOCAL) {
        error(diag, in->at, "'%s': atomics are defined on .global and .shared memory (or a generic address of "
              "either) only", name);
        return;
    }
    if (vector != MOD_COUNT) {
        bool adds_min_max = op == MOD_ADD || op == MOD_MIN || op == MOD_MAX;
        bool ok = (type == TYPE_F32 && op == MOD_ADD && vector != MOD_V8) ||
                  ((type == TYPE_F16 || type == TYPE_BF16) && adds_min_max) ||
                  ((type == TYPE_F16X2 || type == TYPE_BF16X2) && adds_min_max && vector != MOD_V8);
        if (space != MOD_COUNT && space != MOD_GLOBAL)
            error(diag, in->at, "'%s': a vector atomic is for .global memory", name);
        else if (!ok)
            error(diag, in->at, "'%s': the vector atomics are .add of .f32 (.v2, .v4), and .add, .min and .max "
                  "of .f16 and .bf16 (.v2, .v4, .v8) and of .f16x2 and .bf16x2 (.v2, .v4)", name);
        unsigned count = vector_count(in), first = in->op == OP_ATOM;
        const unsigned data[2] = { first + 1, 0 };                   /* b, and atom's d */
        for (unsigned i = 0; i < 1 + first && data[i] < in->operand_count; i++) {
            const Operand *o = &in->operands[data[i]];
            if (o->kind != OPND_VEC || o->count != count)
                error(diag, o->at, "'%s' takes vectors of %u values here", name, count);
        }
        if ((in->operand_count == 3u + first) != ir_has_mod(in, MOD_L2_CACHE_HINT))
            error(diag, in->at, "'%s': a cache policy operand goes with .L2::cache_hint", name);
    } else {
        for (size_t i = 0; i < COUNT_OF(atomic_types); i++) {
            if (atomic_types[i].op != op || (atomic_types[i].types >> type & 1))
                continue;
            char types[160];
            list_types(types, sizeof types, atomic_types[i].types);
            if (is_half(type) && (op == MOD_MIN || op == MOD_MAX))
                error(diag, in->at, "'%s': .%s of .%s is a vector operation (.v2, .v4 or .v8)", name, mod_name[op],
                      type_info[type].name);
            else
                error(diag, in->at, "'%s': .%s takes %s, not .%s", name, mod_name[op], types, type_info[type].name);
        }
    }
    if (type == TYPE_B16 && m->target_sm && m->target_sm < 70)
        error(diag, in->at, "'%s': .cas.b16 requires sm_70 or later (this module targets sm_%u)", name, m->target_sm);
    if (is_half(type) && !ir_has_mod(in, MOD_NOFTZ))
        error(diag, in->at, "'%s' needs .noftz for type .%s (PTX ISA: it keeps subnormals)", name, type_info[type].name);
    else if (!is_half(type) && ir_has_mod(in, MOD_NOFTZ))
        error(diag, in->at, "'%s': .noftz is for .f16, .f16x2, .bf16 and .bf16x2", name);
    if (ir_has_mod(in, MOD_L2_CACHE_HINT) && space != MOD_COUNT && space != MOD_GLOBAL)
        error(diag, in->at, "'%s': .L2::cache_hint is for .global memory", name);
}

/* multimem.ld_reduce, .st, .red (PTX ISA, multimem): which types each operation takes (and, or,
 * xor: .b32 .b64; add: .u32 .u64 .s32 and floats; min, max: .u32 .u64 .s32 .s64 and the 16-bit
 * floats; .red of floats adds, or takes .min/.max of 16-bit floats in a vector, which ptxas 13
 * accepts beyond the ISA's syntax), floats in 32, 64 or 128 bits in all (.v2/.v4/.v8; .f64
 * alone), integers alone; .acc::f32 for ld_reduce of 16-bit floats; .weak without a scope. */
static void check_multimem(Diag *diag, const Instr *in)
{
    static const Mod OPS[] = { MOD_ADD, MOD_MIN, MOD_MAX, MOD_AND, MOD_OR, MOD_XOR };
    static const Mod SCOPE[] = { MOD_CTA, MOD_CLUSTER, MOD_GPU, MOD_SYS };
    const char *name = in->mnemonic;
    int type = type_of_instr(in), op = FIRST_OF(in, OPS);
    bool fp = type_info[type].cls == 'f', half16 = is_half(type), narrow = fp && !half16 && type != TYPE_F32 &&
              type != TYPE_F64;                                   /* e4m3, e5m2 and their packs */
    unsigned count = vector_count(in), total = count * type_info[type].bits;
    if (!fp && FIRST_OF(in, VECTORS) != MOD_COUNT)
        error(diag, in->at, "'%s': a vector is for float types", name);
    else if (fp && ((type == TYPE_F64 && count > 1) || (total != 32 && total != 64 && total != 128)))
        error(diag, in->at, "'%s': a float access is 32, 64 or 128 bits in all (.f64 alone): .%s takes %s", name,
              type_info[type].name, type_info[type].bits == 8 ? ".v4 or .v8" : type_info[type].bits == 16 ?
              ".v2, .v4 or .v8" : type == TYPE_F64 ? "no vector" : "no vector, .v2 or .v4");
    bool ok = true;
    if (op == MOD_AND || op == MOD_OR || op == MOD_XOR)
        ok = type == TYPE_B32 || type == TYPE_B64;
    else if (op == MOD_ADD)
        ok = type == TYPE_U32 || type == TYPE_U64 || type == TYPE_S32 || (fp && !(narrow && in->op == OP_MULTIMEM_RED));
    else if (op == MOD_MIN || op == MOD_MAX)
        ok = (type_info[type].cls == 'u' || type_info[type].cls == 's' || half16 || narrow) &&
             !((narrow || (half16 && count == 1)) && in->op == OP_MULTIMEM_RED);   /* as ptxas 13 */
    if (!ok)
        error(diag, in->at, "'%s': .%s does not take .%s (PTX ISA, multimem: and/or/xor .b32 .b64; add .u32 .u64 "
              ".s32 and floats; min/max .u32 .u64 .s32 .s64 and 16-bit floats, for .red in a vector)", name,
              mod_name[op], type_info[type].name);
    if (ir_has_mod(in, MOD_ACC_F32) && (in->op != OP_MULTIMEM_LD_REDUCE || !half16))
        error(diag, in->at, "'%s': .acc::f32 is for multimem.ld_reduce of .f16, .f16x2, .bf16 and .bf16x2", name);
    if (ir_has_mod(in, MOD_ACC_F16) && (in->op != OP_MULTIMEM_LD_REDUCE || !narrow))
        error(diag, in->at, "'%s': .acc::f16 is for multimem.ld_reduce of .e4m3 and .e5m2 types", name);
    if (ir_has_mod(in, MOD_WEAK) && FIRST_OF(in, SCOPE) != MOD_COUNT)
        error(diag, in->at, "'%s': .weak takes no scope", name);
    if (count > 1) {
        const Operand *data = &in->operands[in->op == OP_MULTIMEM_LD_REDUCE ? 0 : 1];
        if (in->operand_count == 2 && (data->kind != OPND_VEC || data->count != count))
            error(diag, data->at, "'%s' takes a vector of %u values here", name, count);
    }
}

/* bar, barrier: .red takes .popc with .u32, or .and/.or with .pred; .sync and .arrive neither.
 * An immediate barrier is one of the CTA's 16, an immediate thread count a multiple of the warp
 * size (not 0 for .arrive). */
static void check_barrier(Diag *diag, const Instr *in)
{
    unsigned first = ir_has_mod(in, MOD_RED), counted = in->operand_count - first - ir_has_mod(in, MOD_RED);
    const Operand *id = in->operand_count > first ? &in->operands[first] : NULL;
    const Operand *count = counted == 2 ? &in->operands[first + 1] : NULL;
    if (id && id->kind == OPND_INT && id->u.bits >= BARRIER_COUNT)
        error(diag, id->at, "barrier %lld is out of range: a CTA has barriers 0 to %d", (long long)id->u.bits,
              BARRIER_COUNT - 1);
    if (count && count->kind == OPND_INT && (count->u.bits % WARP_SIZE || (!count->u.bits && ir_has_mod(in, MOD_ARRIVE))))
        error(diag, count->at, "a thread count is a %smultiple of %d (the warp size), not %lld",
              ir_has_mod(in, MOD_ARRIVE) ? "nonzero " : "", WARP_SIZE, (long long)count->u.bits);
    static const Mod REDUCTIONS[] = { MOD_POPC, MOD_AND, MOD_OR };
    int reduction = FIRST_OF(in, REDUCTIONS), type = type_of_instr(in);
    if (!ir_has_mod(in, MOD_RED)) {
        if (reduction != MOD_COUNT || type != TYPE_NONE)
            error(diag, in->at, "'%s': a reduction and its type are for .red only", in->mnemonic);
    } else if (reduction == MOD_COUNT) {
        error(diag, in->at, "'%s' needs .popc, .and or .or", in->mnemonic);
    } else if (type != (reduction == MOD_POPC ? TYPE_U32 : TYPE_PRED)) {
        error(diag, in->at, "'%s': .%s gives a .%s", in->mnemonic, mod_name[reduction],
              reduction == MOD_POPC ? "u32" : "pred");
    }
}

/* membar, fence: thread fences have a scope; proxy fences a proxy kind (PTX ISA membar/fence). */
static void check_fence(Diag *diag, const Instr *in)
{
    static const Mod PROXY_KINDS[] = { MOD_ALIAS, MOD_ASYNC, MOD_ASYNC_GENERIC, MOD_TENSORMAP_GENERIC };
    static const Mod RESTRICTS[] = { MOD_SYNC_RESTRICT_SHARED_CTA, MOD_SYNC_RESTRICT_SHARED_CLUSTER };
    const char *name = in->mnemonic;
    bool proxy = ir_has_mod(in, MOD_PROXY);
    int kind = FIRST_OF(in, PROXY_KINDS);
    if (in->op == OP_MEMBAR) {
        if (proxy != (kind == MOD_ALIAS))
            error(diag, in->at, "'%s': .proxy goes with .alias (membar.proxy.alias)", name);
        return;
    }
    int order = FIRST_OF(in, ORDERS), scope = FIRST_OF(in, SCOPES), space = FIRST_OF(in, SPACES);
    int restrict_to = FIRST_OF(in, RESTRICTS);
    bool bidirectional = kind == MOD_ALIAS || kind == MOD_ASYNC;
    if (proxy && kind == MOD_COUNT)
        error(diag, in->at, "'%s' needs a proxy kind (.alias, .async, .async::generic or .tensormap::generic)", name);
    else if (!proxy && kind != MOD_COUNT)
        error(diag, in->at, "'%s': .%s is for fence.proxy", name, mod_name[kind]);
    else if (proxy && bidirectional && (order != MOD_COUNT || scope != MOD_COUNT || restrict_to != MOD_COUNT))
        error(diag, in->at, "'%s': fence.proxy.%s takes no order or scope", name, mod_name[kind]);
    else if ((!proxy || !bidirectional) && scope == MOD_COUNT)
        error(diag, in->at, "'%s' needs a scope (.cta, .cluster, .gpu or .sys)", name);
    else if (proxy && !bidirectional && order != MOD_ACQUIRE && order != MOD_RELEASE)
        error(diag, in->at, "'%s' needs .acquire or .release", name);
    if (space != MOD_COUNT && kind != MOD_ASYNC)
        error(diag, in->at, "'%s': a state space is for fence.proxy.async only", name);
    else if (space != MOD_COUNT && space != MOD_GLOBAL && space != MOD_SHARED_CTA && space != MOD_SHARED_CLUSTER)
        error(diag, in->at, "'%s': fence.proxy.async takes .global, .shared::cta or .shared::cluster", name);
    if (ir_has_mod(in, MOD_MBARRIER_INIT) && (proxy || order != MOD_RELEASE || scope != MOD_CLUSTER))
        error(diag, in->at, "'%s': .mbarrier_init goes with .release.cluster", name);
    if (restrict_to != MOD_COUNT && (scope != MOD_CLUSTER ||
                                     order != (restrict_to == MOD_SYNC_RESTRICT_SHARED_CTA ? MOD_RELEASE : MOD_ACQUIRE)))
        error(diag, in->at, "'%s': .%s goes with .%s and .cluster", name, mod_name[restrict_to],
              restrict_to == MOD_SYNC_RESTRICT_SHARED_CTA ? "release" : "acquire");
}

static const Mod ROUNDINGS[] = { MOD_RN, MOD_RZ, MOD_RM, MOD_RP };
static const Mod INT_ROUNDINGS[] = { MOD_RNI, MOD_RZI, MOD_RMI, MOD_RPI };

/* div, rcp, sqrt, ex2: what each type takes (PTX ISA; ptxas 13.0). */
static void check_float_math(Diag *diag, const Instr *in)
{
    const char *name = in->mnemonic;
    int type = type_of_instr(in), rounding = FIRST_OF(in, ROUNDINGS);
    bool approx = ir_has_mod(in, MOD_APPROX), full = ir_has_mod(in, MOD_FULL), ftz = ir_has_mod(in, MOD_FTZ);
    char cls = type_info[type].cls;
    switch (in->op) {
    case OP_DIV:
        if (cls != 'f' && (approx || full || ftz || rounding != MOD_COUNT))
            error(diag, in->at, "'%s': .approx, .full, .ftz and roundings are for floating-point division", name);
        else if (type == TYPE_F32 && !approx && !full && rounding == MOD_COUNT)
            error(diag, in->at, "'%s' needs .approx, .full or a rounding modifier (.rn, .rz, .rm or .rp)", name);
        else if (type == TYPE_F64 && (approx || full || ftz))
            error(diag, in->at, "'%s': .approx, .full and .ftz are for .f32", name);
        else if (type == TYPE_F64 && rounding == MOD_COUNT)
            error(diag, in->at, "'%s' needs a rounding modifier (.rn, .rz, .rm or .rp)", name);
        break;
    case OP_RCP:
    case OP_SQRT:
        if (type == TYPE_F64 && approx && (in->op == OP_SQRT || !ftz))
            error(diag, in->at, "'%s': %s", name, in->op == OP_SQRT ? ".approx is for .f32" : "rcp.approx.f64 needs .ftz");
        else if (in->op == OP_SQRT && type == TYPE_F64 && ftz)
            error(diag, in->at, "'%s': .ftz is for .f32", name);
        break;
    case OP_EX2:
        if ((type == TYPE_F16 || type == TYPE_F16X2) && ftz)
            error(diag, in->at, "'%s': .ftz is not for .%s", name, type_info[type].name);
        else if ((type == TYPE_BF16 || type == TYPE_BF16X2) && !ftz)
            error(diag, in->at, "'%s' needs .ftz for .%s", name, type_info[type].name);
        break;
    default:
        break;
    }
}

/* setp, set: which comparisons each kind of type has (PTX ISA setp: .b types compare for
 * equality; .lo .ls .hi .hs are unsigned; the unordered ones, .num and .nan are for floats). */
static void check_compare(Diag *diag, const Instr *in, int type)
{
    static const Mod EQUALITY[] = { MOD_EQ, MOD_NE };
    static const Mod ORDER[] = { MOD_LT, MOD_LE, MOD_GT, MOD_GE };
    static const Mod UNSIGNED[] = { MOD_LO, MOD_LS, MOD_HI, MOD_HS };
    static const Mod UNORDERED[] = { MOD_EQU, MOD_NEU, MOD_LTU, MOD_LEU, MOD_GTU, MOD_GEU, MOD_NUM, MOD_NAN };
    char cls = type == TYPE_NONE ? 0 : type_info[type].cls;
    int cmp = FIRST_OF(in, EQUALITY);
    bool ok = cmp != MOD_COUNT;
    if (!ok && (cmp = FIRST_OF(in, ORDER)) != MOD_COUNT)
        ok = cls != 'b';
    else if (!ok && (cmp = FIRST_OF(in, UNSIGNED)) != MOD_COUNT)
        ok = cls == 'u';
    else if (!ok && (cmp = FIRST_OF(in, UNORDERED)) != MOD_COUNT)
        ok = cls == 'f';
    if (!ok && cmp != MOD_COUNT)
        error(diag, in->at, "'%s': .%s is not a comparison of .%s values", in->mnemonic, mod_name[cmp],
              type_info[type].name);
    bool combine = ir_has_mod(in, MOD_AND) || ir_has_mod(in, MOD_OR) || ir_has_mod(in, MOD_XOR);
    if (combine && in->operand_count != 4)
        error(diag, in->at, "'%s' combines with a third predicate: '%s.cmp.op.type d, a, b, c'", in->mnemonic,
              op_info[in->op].name);
    if (!combine && in->operand_count == 4)
        error(diag, in->operands[3].at, "'%s' takes a third predicate only with .and, .or or .xor", in->mnemonic);
}

/* Conversions ptxas 13.0 refuses though the PTX ISA's cvt syntax lists both types: between .bf16
 * and the 8-bit integers, either way ("Arguments mismatch"; .f16 has them, and .bf16 the 16-,
 * 32- and 64-bit integers). */
static const struct { int half, integer; } no_conversion[] = {
    { TYPE_BF16, TYPE_U8 },
    { TYPE_BF16, TYPE_S8 },
};

static bool converts(int to, int from)
{
    for (size_t i = 0; i < sizeof no_conversion / sizeof no_conversion[0]; i++)
        if ((to == no_conversion[i].half && from == no_conversion[i].integer) ||
            (from == no_conversion[i].half && to == no_conversion[i].integer))
            return false;
    return true;
}

/* cvt: the rounding a conversion needs (PTX ISA cvt; ptxas 13.0): to an integer from a float, an
 * integer rounding; to a float that cannot hold every value, a float rounding; none where every
 * value converts exactly; a float to its own type rounds to an integer or not at all. */
static void check_convert(Diag *diag, const Instr *in)
{
    if (in->type_count != 2)
        return;
    const char *name = in->mnemonic;
    int to = in->types[0], from = in->types[1];
    int rounding = FIRST_OF(in, ROUNDINGS), int_rounding = FIRST_OF(in, INT_ROUNDINGS);
    bool rna = ir_has_mod(in, MOD_RNA), float_rounding = rounding != MOD_COUNT || rna;
    char to_cls = type_info[to].cls, from_cls = type_info[from].cls;
    bool scalar_float[2] = { false, false };
    for (int i = 0; i < 2; i++) {
        int t = in->types[i];
        scalar_float[i] = t == TYPE_F16 || t == TYPE_BF16 || t == TYPE_TF32 || t == TYPE_F32 || t == TYPE_F64;
    }
    if (rna && to != TYPE_TF32)
        error(diag, in->at, "'%s': .rna is for conversions to .tf32", name);
    if (ir_has_mod(in, MOD_SAT) && (to == TYPE_BF16 || from == TYPE_BF16 || (!scalar_float[0] && to_cls == 'f')))
        error(diag, in->at, "'%s': .sat is not for .%s (ptxas refuses it)", name,
              type_info[to == TYPE_BF16 || !scalar_float[0] ? to : from].name);
    if ((to_cls == 'f' && !scalar_float[0]) || (from_cls == 'f' && !scalar_float[1])) {
        if (!float_rounding && !ir_has_mod(in, MOD_RS))
            error(diag, in->at, "'%s' needs a rounding modifier (.rn, .rz, .rm or .rp)", name);
        return;                                        /* packed formats: their own rules */
    }
    if (!converts(to, from)) {
        error(diag, in->at, "'%s': no conversion between .%s and .%s (ptxas refuses it: arguments mismatch)", name,
              type_info[from].name, type_info[to].name);
        return;
    }
    unsigned to_bits = type_info[to].bits, from_bits = type_info[from].bits;
    bool fits = (from_cls == 'u' && ((to_cls == 'u' && to_bits >= from_bits) || (to_cls == 's' && to_bits > from_bits))) ||
                (from_cls == 's' && to_cls == 's' && to_bits >= from_bits);
    if (ir_has_mod(in, MOD_SAT) && fits)
        error(diag, in->at, "'%s': .sat changes nothing: every .%s value is a .%s value", name, type_info[from].name,
              type_info[to].name);
    if (ir_has_mod(in, MOD_FTZ) && to != TYPE_F32 && from != TYPE_F32)
        error(diag, in->at, "'%s': .ftz is for conversions from or to .f32", name);
    int extra = ir_has_mod(in, MOD_RELU) ? MOD_RELU : ir_has_mod(in, MOD_SATFINITE) ? MOD_SATFINITE : MOD_COUNT;
    if (extra != MOD_COUNT && to != TYPE_F16 && to != TYPE_BF16 && to != TYPE_TF32)
        error(diag, in->at, "'%s': .%s is for conversions to .f16, .bf16, .tf32 and packed formats", name,
              mod_name[extra]);
    if (from_cls == 'f' && to_cls != 'f') {
        if (int_rounding == MOD_COUNT)
            error(diag, in->at, "'%s' needs an integer rounding (.rni, .rzi, .rmi or .rpi)", name);
    } else if (from_cls != 'f' && to_cls == 'f') {
        if (!float_rounding)
            error(diag, in->at, "'%s' needs a rounding modifier (.rn, .rz, .rm or .rp)", name);
    } else if (from == TYPE_BF16 || (to == TYPE_BF16 && from_cls == 'f')) {
        /* ptxas takes a float rounding or none from .bf16 and between .bf16 and .f16; from .f32
         * and .f64 it needs one; from .bf16 to itself only an integer rounding or none, and
         * an integer rounding nowhere else ("Illegal rounding modifier") */
        if (to == TYPE_BF16 && (from == TYPE_F32 || from == TYPE_F64) && !float_rounding)
            error(diag, in->at, "'%s' needs a rounding modifier (.rn, .rz, .rm or .rp)", name);
        else if (to == from && float_rounding)
            error(diag, in->at, "'%s' rounds to an integer (.rni, .rzi, .rmi or .rpi) or not at all", name);
        else if (to != from && int_rounding != MOD_COUNT)
            error(diag, in->at, "'%s': .%s rounds to an integer only from .bf16 to .bf16 (ptxas refuses it: illegal "
                  "rounding modifier)", name, mod_name[int_rounding]);
    } else if (from_cls == 'f' && from == to) {
        if (float_rounding)
            error(diag, in->at, "'%s' rounds to an integer (.rni, .rzi, .rmi or .rpi) or not at all", name);
    } else if (from_cls == 'f' && to_bits <= from_bits) {
        if (!float_rounding)
            error(diag, in->at, "'%s' needs a rounding modifier (.rn, .rz, .rm or .rp)", name);
    } else if (float_rounding || int_rounding != MOD_COUNT) {
        error(diag, in->at, "'%s' takes no rounding: every value converts exactly", name);
    }
}

/* Arithmetic and compares on f16, bf16 and their pairs (PTX ISA; ptxas 13.0): one rounding,
 * .rn; .ftz and .sat for f16 only; .relu for fma, not with .sat; bf16 add, sub, mul, setp and
 * set from sm_90, the other bf16 forms and fma.relu from sm_80, .xorsign.abs from sm_86. */
static void check_half_arith(Diag *diag, const Module *m, const Instr *in, int type)
{
    const char *name = in->mnemonic;
    bool bf16 = type == TYPE_BF16 || type == TYPE_BF16X2;
    int rounding = FIRST_OF(in, ROUNDINGS);
    unsigned sm = 0;
    if (rounding != MOD_COUNT && rounding != MOD_RN)
        error(diag, in->at, "'%s': half-precision arithmetic rounds to nearest only (.rn)", name);
    if (bf16 && (ir_has_mod(in, MOD_FTZ) || ir_has_mod(in, MOD_SAT)))
        error(diag, in->at, "'%s': .ftz and .sat are not for .%s", name, type_info[type].name);
    if (ir_has_mod(in, MOD_RELU) && in->op != OP_FMA)
        error(diag, in->at, "'%s': .relu is not for .%s", name, type_info[type].name);
    if (ir_has_mod(in, MOD_RELU) && ir_has_mod(in, MOD_SAT))
        error(diag, in->at, "'%s': .relu and .sat do not go together", name);
    if (ir_has_mod(in, MOD_OOB) && ir_has_mod(in, MOD_FTZ))
        error(diag, in->at, "'%s': .oob and .ftz do not go together", name);
    if (bf16)
        sm = in->op == OP_ADD || in->op == OP_SUB || in->op == OP_MUL || in->op == OP_SETP || in->op == OP_SET ? 90 : 80;
    if (ir_has_mod(in, MOD_RELU) && sm < 80)
        sm = 80;
    if (ir_has_mod(in, MOD_XORSIGN))
        sm = 86 > sm ? 86 : sm;
    if (m->target_sm && m->target_sm < sm)
        error(diag, in->at, "'%s' requires sm_%u or later (this module targets sm_%u)", name, sm, m->target_sm);
}

/* set.cmp.dtype.stype with halves (PTX ISA; ptxas 13.0): .u16/.s16 results of .f16 or .bf16
 * compares; .f32 results not of halves; a packed type with its own kind (or .u32/.s32 from
 * one); .f16 results not of .bf16. */
static void check_set_types(Diag *diag, const Instr *in, int dtype, int stype)
{
    bool d_pair = dtype == TYPE_F16X2 || dtype == TYPE_BF16X2, s_pair = stype == TYPE_F16X2 || stype == TYPE_BF16X2;
    bool ok = true;
    if (dtype == TYPE_U16 || dtype == TYPE_S16)
        ok = stype == TYPE_F16 || stype == TYPE_BF16;
    else if (dtype == TYPE_F32)
        ok = !is_half(stype);
    else if (d_pair || s_pair)
        ok = dtype == stype || (s_pair && (dtype == TYPE_U32 || dtype == TYPE_S32));
    else if (dtype == TYPE_F16)
        ok = stype != TYPE_BF16;
    if (!ok)
        error(diag, in->at, "'%s': set does not give .%s from .%s", in->mnemonic, type_info[dtype].name,
              type_info[stype].name);
}

/* redux.sync: .and/.or/.xor of .b32, .add of .u32/.s32, .min/.max of those or .f32 (with .abs,
 * .NaN). */
static void check_redux(Diag *diag, const Instr *in)
{
    int type = type_of_instr(in);
    bool bits = ir_has_mod(in, MOD_AND) || ir_has_mod(in, MOD_OR) || ir_has_mod(in, MOD_XOR);
    bool min_max = ir_has_mod(in, MOD_MIN) || ir_has_mod(in, MOD_MAX);
    if (bits != (type == TYPE_B32) || (type == TYPE_F32 && !min_max))
        error(diag, in->at, "'%s': .and, .or and .xor take .b32; .add .u32 or .s32; .min and .max those or .f32",
              in->mnemonic);
    else if ((ir_has_mod(in, MOD_ABS) || ir_has_mod(in, MOD_NAN_)) && type != TYPE_F32)
        error(diag, in->at, "'%s': .abs and .NaN are for .f32", in->mnemonic);
}

/* cvt.pack: the 16-bit types take no c (and no .b32), the others do; sub-byte types need sm_75. */
static void check_pack(Diag *diag, const Module *m, const Instr *in)
{
    unsigned bits = type_info[in->types[0]].bits;
    bool with_c = in->type_count == 3;
    if ((bits == 16) == with_c)
        error(diag, in->at, bits == 16 ? "'%s': the 16-bit types take no .b32 c" : "'%s' needs .b32 and c",
              in->mnemonic);
    if (bits < 8 && m->target_sm && m->target_sm < 75)
        error(diag, in->at, "'%s' requires sm_75 or later for a type narrower than 8 bits (this module targets sm_%u)",
              in->mnemonic, m->target_sm);
}

/* Operand i of in as an integer immediate: false when it is something else. */
static bool immediate(const Instr *in, unsigned i, int64_t *v)
{
    if (i >= in->operand_count || in->operands[i].kind != OPND_INT)
        return false;
    *v = (int64_t)in->operands[i].u.bits;
    return true;
}

/* The operands that must be immediates of given values (what ptxas checks): the size of
 * discard and applypriority, alloca's alignment, setmaxnreg's count, pmevent's event,
 * createpolicy's fraction and sizes. */
static void check_immediates(Diag *diag, const Instr *in)
{
    const char *name = in->mnemonic;
    int64_t v, w;
    static const uint8_t needed[OP_COUNT] = { [OP_DISCARD] = 2, [OP_APPLYPRIORITY] = 2, [OP_SETMAXNREG] = 1,
                                              [OP_PMEVENT] = 1 };
    if (in->operand_count < needed[in->op])
        return;                               /* the shape's error */
    switch (in->op) {
    case OP_DISCARD:
    case OP_APPLYPRIORITY:
        if (!immediate(in, 1, &v) || v != 128)
            error(diag, in->operands[1].at, "'%s' takes the size 128 (an immediate), no other", name);
        break;
    case OP_ALLOCA:
        if (in->operand_count == 3 && (!immediate(in, 2, &v) || v <= 0 || v > 1 << 23 || (v & (v - 1))))
            error(diag, in->operands[2].at, "'%s': the alignment is an immediate power of two up to 2^23", name);
        break;
    case OP_SETMAXNREG:
        if (!immediate(in, 0, &v) || v < 24 || v > 256 || v % 8)
            error(diag, in->operands[0].at, "'%s' takes an immediate register count from 24 to 256, a multiple of 8",
                  name);
        break;
    case OP_PMEVENT:
        if (!immediate(in, 0, &v) || v < 0 || v > (ir_has_mod(in, MOD_MASK) ? 0xffff : 15))
            error(diag, in->operands[0].at, "'%s' takes an immediate %s", name,
                  ir_has_mod(in, MOD_MASK) ? "16-bit mask of events" : "event from 0 to 15");
        break;
    case OP_CREATEPOLICY:
        if (ir_has_mod(in, MOD_FRACTIONAL) && in->operand_count == 2 &&
            (in->operands[1].kind == OPND_F32 || in->operands[1].kind == OPND_F64)) {
            double f;
            if (in->operands[1].kind == OPND_F64) {
                memcpy(&f, &in->operands[1].u.bits, sizeof f);
            } else {
                float g;
                uint32_t b = (uint32_t)in->operands[1].u.bits;
                memcpy(&g, &b, sizeof g);
                f = g;
            }
            if (!(f > 0 && f <= 1))
                error(diag, in->operands[1].at, "'%s': the fraction is in (0, 1]", name);
        }
        if (ir_has_mod(in, MOD_RANGE) && immediate(in, 2, &v) && immediate(in, 3, &w) && v > w)
            error(diag, in->operands[2].at, "'%s': the primary size is larger than the total size", name);
        break;
    default:
        break;
    }
}

void suffixes_check(Diag *diag, const Module *m, const Instr *in)
{
    check_later_suffixes(diag, m, in);
    check_immediates(diag, in);
    int type = type_of_instr(in);
    char cls = type == TYPE_NONE ? 0 : type_info[type].cls;
    unsigned bits = type == TYPE_NONE ? 0 : type_info[type].bits;
    bool rounding = ir_has_mod(in, MOD_RN) || ir_has_mod(in, MOD_RZ) || ir_has_mod(in, MOD_RM) || ir_has_mod(in, MOD_RP);
    bool half = ir_has_mod(in, MOD_LO) || ir_has_mod(in, MOD_HI) || ir_has_mod(in, MOD_WIDE);
    if (is_half(type) && (in->op == OP_ADD || in->op == OP_SUB || in->op == OP_MUL || in->op == OP_FMA ||
                          in->op == OP_NEG || in->op == OP_ABS || in->op == OP_MIN || in->op == OP_MAX ||
                          in->op == OP_SETP))
        check_half_arith(diag, m, in, type);
    if (in->op == OP_SET && in->type_count > 1 && (is_half(in->types[0]) || is_half(in->types[1])))
        check_half_arith(diag, m, in, is_half(in->types[1]) ? in->types[1] : in->types[0]);
    if (in->op == OP_SET && in->type_count > 1)
        check_set_types(diag, in, in->types[0], in->types[1]);
    switch (in->op) {
    case OP_MUL:
    case OP_MAD:
        if (cls == 'f' && half)
            error(diag, in->at, "'%s': .lo, .hi and .wide are for integer types", in->mnemonic);
        if ((cls == 'u' || cls == 's') && !half)
            error(diag, in->at, "'%s' needs .lo, .hi or .wide for an integer type", in->mnemonic);
        if (ir_has_mod(in, MOD_WIDE) && bits > 32)
            error(diag, in->at, "'%s': .wide takes 16- or 32-bit operands", in->mnemonic);
        if (in->op == OP_MAD && cls == 'f' && !rounding && (type == TYPE_F32 || type == TYPE_F64))
            error(diag, in->at, "'%s' needs a rounding modifier (.rn, .rz, .rm or .rp)", in->mnemonic);
        break;
    case OP_SETP:
        check_compare(diag, in, type);
        /* PTX ISA setp: a scalar half compare writes p alone (setp.CmpOp.f16 p, a, b), a pair
         * p|q (ptxas: "Predicate output not allowed") */
        if ((type == TYPE_F16 || type == TYPE_BF16) && in->operand_count > 0 && in->operands[0].kind == OPND_PAIR)
            error(diag, in->operands[0].at, "'%s' writes one predicate: p|q is for .%s (ptxas refuses it: predicate "
                  "output not allowed)", in->mnemonic, type == TYPE_F16 ? "f16x2" : "bf16x2");
        break;
    case OP_SET:
        check_compare(diag, in, in->type_count > 1 ? in->types[1] : TYPE_NONE);
        break;
    case OP_DIV:
    case OP_RCP:
    case OP_SQRT:
    case OP_EX2:
        check_float_math(diag, in);
        break;
    case OP_CVT_PACK:
        check_pack(diag, m, in);
        break;
    case OP_CVT:
        check_convert(diag, in);
        break;
    case OP_REDUX_SYNC:
        check_redux(diag, in);
        break;
    case OP_FMA:
        if (ir_has_mod(in, MOD_OOB) && !is_half(type))
            error(diag, in->at, "'%s': .oob is for .f16, .f16x2, .bf16 and .bf16x2", in->mnemonic);
        break;
    case OP_MAD24:
        if (ir_has_mod(in, MOD_SAT) && (!ir_has_mod(in, MOD_HI) || type != TYPE_S32))
            error(diag, in->at, "'%s': .sat is for mad24.hi.s32", in->mnemonic);
        break;
    case OP_SLCT:
        if (ir_has_mod(in, MOD_FTZ) && (in->type_count < 2 || in->types[1] != TYPE_F32))
            error(diag, in->at, "'%s': .ftz is for an .f32 selector", in->mnemonic);
        break;
    case OP_LOP3:
        if ((ir_has_mod(in, MOD_OR) || ir_has_mod(in, MOD_AND)) && in->operand_count == 6 &&
            in->operands[0].kind != OPND_PAIR)
            error(diag, in->operands[0].at, "'%s' writes d|p: it needs a predicate destination", in->mnemonic);
        break;
    case OP_ELECT_SYNC:
        if (in->operand_count == 2 && in->operands[0].kind != OPND_PAIR)
            error(diag, in->operands[0].at, "'%s' writes d|p: it needs a predicate destination", in->mnemonic);
        break;
    case OP_LD:
    case OP_ST:
        check_load_store(diag, m, in);
        break;
    case OP_ATOM:
    case OP_RED:
        check_atomic(diag, m, in);
        break;
    case OP_MULTIMEM_LD_REDUCE:
    case OP_MULTIMEM_ST:
    case OP_MULTIMEM_RED:
        check_multimem(diag, in);
        break;
    case OP_BAR:
    case OP_BARRIER:
        check_barrier(diag, in);
        break;
    case OP_MEMBAR:
    case OP_FENCE:
        check_fence(diag, in);
        break;
    case OP_PREFETCH:                         /* prefetch{.const,.param}.tensormap (ptxas 13.0) */
        if (ir_has_mod(in, MOD_TENSORMAP) ? ir_has_mod(in, MOD_GLOBAL) || ir_has_mod(in, MOD_LOCAL)
                                          : ir_has_mod(in, MOD_CONST) || ir_has_mod(in, MOD_PARAM))
            error(diag, in->at, "'%s': .tensormap is prefetched from .const, .param or a generic address, and "
                  "only it from .const and .param", in->mnemonic);
        break;
    case OP_ST_ASYNC:                 /* ptxas: "Vector type too large, exceeds 128 bit limit" */
        if (vector_count(in) * type_info[type].bits > 128)
            error(diag, in->at, "'%s': st.async stores at most 128 bits (.v4 of 32-bit, .v2 of 64-bit values)",
                  in->mnemonic);
        break;
    case OP_RED_ASYNC: {              /* ptxas: "Incorrect type ... for operation" */
        int op = FIRST_OF(in, ATOMIC_OPS);
        bool ok = op == MOD_INC || op == MOD_DEC ? type == TYPE_U32 : op == MOD_MIN || op == MOD_MAX ?
                  type == TYPE_U32 || type == TYPE_S32 : op == MOD_ADD ? type != TYPE_B32 : type == TYPE_B32;
        if (!ok)
            error(diag, in->at, "'%s': red.async takes .inc and .dec of .u32, .min and .max of .u32 and .s32, .and, "
                  ".or and .xor of .b32, .add of .u32, .s32, .u64 and .s64", in->mnemonic);
        break;
    }
    case OP_BARRIER_CLUSTER:          /* ptxas: "Illegal modifier" */
        if (ir_has_mod(in, MOD_WAIT) ? FIRST_OF(in, ORDERS) != MOD_COUNT && !ir_has_mod(in, MOD_ACQUIRE)
                                     : ir_has_mod(in, MOD_ACQUIRE))
            error(diag, in->at, "'%s': barrier.cluster.arrive takes .release or .relaxed, barrier.cluster.wait "
                  ".acquire", in->mnemonic);
        break;
    case OP_VOTE:
    case OP_VOTE_SYNC:
        if (ir_has_mod(in, MOD_BALLOT) != (type == TYPE_B32))
            error(diag, in->at, "'%s': .ballot gives a .b32 mask, .all/.any/.uni give a .pred", in->mnemonic);
        break;
    default:
        break;
    }
}
