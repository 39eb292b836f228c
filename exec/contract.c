/* contract.c: which mul and add/sub pairs become one fma, as ptxas 13.0 fuses them for sm_90
 * (docs/semantics.md, "Contraction"; read off H100 recordings and ptxas's own output,
 * scripts/fmad_ptxas.py). The PTX ISA allows it for a mul and an add with no rounding modifier.
 * The rule, in one function's code:
 * - a product is an unguarded mul.{f32,f64,f16,f16x2,bf16,bf16x2} without a rounding modifier or
 *   .sat, not of two constants (ptxas computes that itself); its value travels through unguarded
 *   movs and negs of the same width (neg.ftz: of a .ftz mul only);
 * - a use of it is eligible when it is an add/sub (guarded or not) of the same type with no
 *   rounding modifier and the same .ftz, in the same basic block (a label a branch targets, a
 *   branch, call, ret, exit or a memory barrier ends one), reading it once; .sat on the add is
 *   allowed;
 * - a product is fused when every read of its value (the block's and, when it lives on past the
 *   block, any later one, a .func's .reg result read by its caller) is eligible and picks it: where both operands of an add are such
 *   products, the one read fewer times is fused, the first on a tie, unless it is not fused
 *   (it loses elsewhere), when the other is; decided fewest reads first.
 * Each fused add then computes fma(+-a, b, +-c) from the mul's operands (copied to rows of their
 * own by the mul where one is written before the add); the mul still runs. Where ptxas fuses what
 * ptxrun does not model (a div.approx/.full quotient, a shared atomic add of a mul by a
 * constant), an Unfused names it.
 * Requires: a checked function. */
#include <stdlib.h>
#include <string.h>

#include "program.h"

enum { ALIASES_MAX = 8 };

typedef struct Alias {
    uint32_t slot;
    bool negated;
    uint32_t reads;            /* the instructions seen reading it since it got the value */
} Alias;

/* An eligible add that reads a product. */
typedef struct Use {
    uint32_t add;
    uint8_t negated;           /* the product reaches it negated */
    uint8_t operand;           /* 1 or 2: the add's operand it is */
} Use;

typedef struct Product {
    uint32_t mul;              /* its instruction */
    bool ok;                   /* every read is an eligible add (so far) */
    bool clobbered;            /* an operand of the mul is written before a use (or by the mul) */
    Use *use;
    uint32_t use_count, use_cap;
} Product;

static bool contractible_type(int t)
{
    return t == TYPE_F32 || t == TYPE_F64 || t == TYPE_F16 || t == TYPE_F16X2 || t == TYPE_BF16 ||
           t == TYPE_BF16X2;
}

static bool has_rounding(const Instr *in)
{
    return ir_has_mod(in, MOD_RN) || ir_has_mod(in, MOD_RZ) || ir_has_mod(in, MOD_RM) || ir_has_mod(in, MOD_RP);
}

/* div.approx.f32 and div.full.f32 end with a multiply by the reciprocal, which ptxas fuses
 * like a mul's (scripts/fmad_ptxas.py); ptxrun does not model that fma and warns instead. */
static bool is_division(const Instr *in)
{
    return in->op == OP_DIV && in->type_count == 1 && in->types[0] == TYPE_F32 &&
           (ir_has_mod(in, MOD_APPROX) || ir_has_mod(in, MOD_FULL));
}

static bool is_product(const Instr *in)
{
    return (in->op == OP_MUL || is_division(in)) && in->type_count == 1 && contractible_type(in->types[0]) &&
           !in->guard_kind && !has_rounding(in) && !ir_has_mod(in, MOD_SAT) && in->operand_count == 3 &&
           in->operands[0].kind == OPND_REG && !in->operands[0].select;
}

/* A move or negation that hands a value on unchanged (but for the sign), from a mul with or
 * without .ftz: a neg.ftz flushes a tiny product, so ptxas fuses through it only a .ftz mul's
 * (scripts/fmad_ptxas.py: neg.ftz of a plain f32, f16 or f16x2 product is not fused). */
static bool is_passing(const Instr *in, int type, bool ftz)
{
    if (in->guard_kind || in->operand_count != 2 || in->operands[0].kind != OPND_REG ||
        in->operands[1].kind != OPND_REG || in->type_count != 1)
        return false;
    if (in->op == OP_NEG)
        return in->types[0] == type && (ftz || !ir_has_mod(in, MOD_FTZ));
    return in->op == OP_MOV && type_info[in->types[0]].bits == type_info[type].bits;
}

static bool is_sum(const Instr *in, const Instr *mul)
{
    return (in->op == OP_ADD || in->op == OP_SUB) && in->type_count == 1 && in->types[0] == mul->types[0] &&
           !has_rounding(in) && ir_has_mod(in, MOD_FTZ) == ir_has_mod(mul, MOD_FTZ) && in->operand_count == 3 &&
           in->operands[0].kind == OPND_REG && !ir_has_mod(in, MOD_CC);
}

/* Whether operand o (its elements too) names register slot. */
static bool mentions(const Operand *o, uint32_t slot)
{
    if (o->kind == OPND_REG)
        return o->u.slot == slot;
    if (o->kind == OPND_ADDR || o->kind == OPND_VEC || o->kind == OPND_PAIR || o->kind == OPND_LIST ||
        o->kind == OPND_REG_OFFSET)
        for (uint32_t i = 0; i < o->count; i++)
            if (mentions(&o->u.group.elems[i], slot))
                return true;
    return false;
}

/* Whether in's first operand is a destination only (never read): as lower.c takes it, every
 * family's first register operand but control flow's, fences', hints', a barrier's other than
 * .red's, st's, bar.warp.sync's and stackrestore's (shfl.sync, vote.sync, the video
 * instructions, bar.red, alloca and multimem.ld_reduce write theirs; a video destination with a
 * selector is written whole, its other bytes from c). */
bool contract_first_is_destination(const Instr *in)
{
    const Operand *o = &in->operands[0];
    if (!in->operand_count)
        return false;
    if (o->kind != OPND_REG && o->kind != OPND_VEC && o->kind != OPND_PAIR)
        return false;
    switch (op_info[in->op].family) {
    case FAM_CONTROL: case FAM_FENCE: case FAM_HINT: case FAM_NONE:
        return false;
    case FAM_BARRIER:
        return ir_has_mod(in, MOD_RED);
    default:
        return in->op != OP_ST && in->op != OP_BAR_WARP_SYNC && in->op != OP_STACKRESTORE;
    }
}

/* Whether in reads slot (a first operand that is not only written counts as read). */
static bool reads(const Instr *in, uint32_t slot)
{
    for (uint32_t i = contract_first_is_destination(in) ? 1 : 0; i < in->operand_count; i++)
        if (mentions(&in->operands[i], slot))
            return true;
    return false;
}

static bool writes(const Instr *in, uint32_t slot)
{
    return contract_first_is_destination(in) && mentions(&in->operands[0], slot);
}

/* What the searches of one function share: its block leaders, the mark of each leader reached
 * by the current search, and a stack of instructions to go on from. */
enum { WRITERS_NONE = UINT32_MAX, WRITERS_MANY = UINT32_MAX - 1 };

typedef struct Flow {
    const Function *fn;
    bool *leader;
    uint32_t *read_count;      /* by register slot: how many instructions read it */
    uint32_t *writer;          /* by register slot: the one instruction writing it, or WRITERS_NONE/_MANY */
    bool *dead;                /* by instruction: ptxas removes it (find_dead) */
    uint32_t *reached;         /* the search that last reached each leader */
    uint32_t search;
    uint32_t *stack, stack_cap;
} Flow;

/* Adds one to count[slot] for each register o (its elements too) names, once per instruction. */
static void count_reads(const Operand *o, uint32_t *count, uint32_t *counted_at, uint32_t instr)
{
    if (o->kind == OPND_REG && counted_at[o->u.slot] != instr) {
        counted_at[o->u.slot] = instr;
        count[o->u.slot]++;
    }
    if (o->kind == OPND_ADDR || o->kind == OPND_VEC || o->kind == OPND_PAIR || o->kind == OPND_LIST ||
        o->kind == OPND_REG_OFFSET)
        for (uint32_t i = 0; i < o->count; i++)
            count_reads(&o->u.group.elems[i], count, counted_at, instr);
}

/* The register slots a .reg declaration d names: its range, vector elements, .b128 halves. */
static uint32_t register_decl_slots(const Decl *d)
{
    return (d->has_range ? d->range : 1) * (d->vector ? d->vector : d->type == TYPE_B128 ? 2 : 1);
}

/* Marks each register o (its elements too) names as written by more than one instruction. */
static void written_otherwise(const Operand *o, uint32_t *writer, uint32_t regs)
{
    if (o->kind == OPND_REG && o->u.slot < regs)
        writer[o->u.slot] = WRITERS_MANY;
    if (o->kind == OPND_VEC || o->kind == OPND_PAIR || o->kind == OPND_LIST)
        for (uint32_t i = 0; i < o->count; i++)
            written_otherwise(&o->u.group.elems[i], writer, regs);
}

/* Whether in, at i, is a bra to the next instruction, which ptxas drops (guarded or not). */
static bool is_bra_to_next(const Instr *in, uint32_t i)
{
    return in->op == OP_BRA && in->operand_count && in->operands[0].kind == OPND_LABEL &&
           in->operands[0].u.ref.target == i + 1;
}

/* Whether ptxas fuses nothing across in, at i: a control transfer (not a bra to the next
 * instruction), or a memory barrier (membar, and fence.sc/.acq_rel, fence.SCOPE; not the proxy,
 * sync_restrict or mbarrier_init fences). */
static bool ends_block(const Instr *in, uint32_t i)
{
    if (is_bra_to_next(in, i))
        return false;
    bool thread_fence = (in->op == OP_MEMBAR || in->op == OP_FENCE) && !ir_has_mod(in, MOD_PROXY) &&
                        !ir_has_mod(in, MOD_MBARRIER_INIT) && !ir_has_mod(in, MOD_SYNC_RESTRICT_SHARED_CTA) &&
                        !ir_has_mod(in, MOD_SYNC_RESTRICT_SHARED_CLUSTER);
    return op_info[in->op].family == FAM_CONTROL || thread_fence;
}

static bool is_register_result(const Function *fn, uint32_t slot);

/* Whether in only computes its first operand (registers, predicates): an arithmetic, bit,
 * math or conversion instruction without .cc. */
static bool computes_only(const Instr *in)
{
    int family = op_info[in->op].family;
    OperandKind d = in->operand_count ? in->operands[0].kind : OPND_NAME;
    return (family == FAM_ALU || family == FAM_BITOPS || family == FAM_MATHOPS || family == FAM_CONVERT) &&
           !ir_has_mod(in, MOD_CC) && (d == OPND_REG || d == OPND_PRED || d == OPND_PAIR || d == OPND_VEC);
}

/* Adds delta to the count of each register (regs) and predicate (preds) o names. */
static void tally(const Operand *o, uint32_t *regs, uint32_t *preds, int delta)
{
    if (o->kind == OPND_REG)
        regs[o->u.slot] += (uint32_t)delta;
    else if (o->kind == OPND_PRED)
        preds[o->u.slot] += (uint32_t)delta;
    else if (o->kind == OPND_ADDR || o->kind == OPND_VEC || o->kind == OPND_PAIR || o->kind == OPND_LIST ||
             o->kind == OPND_REG_OFFSET)
        for (uint32_t i = 0; i < o->count; i++)
            tally(&o->u.group.elems[i], regs, preds, delta);
}

/* ... for each register and predicate in reads, its guard included. */
static void tally_sources(const Instr *in, uint32_t *regs, uint32_t *preds, int delta)
{
    for (uint32_t k = contract_first_is_destination(in) || computes_only(in) ? 1 : 0; k < in->operand_count; k++)
        tally(&in->operands[k], regs, preds, delta);
    if (in->guard_kind)
        preds[in->guard_slot] += (uint32_t)delta;
}

/* Whether nothing counts a read of any register or predicate o names. */
static bool unread(const Operand *o, const uint32_t *regs, const uint32_t *preds)
{
    if (o->kind == OPND_REG)
        return !regs[o->u.slot];
    if (o->kind == OPND_PRED)
        return !preds[o->u.slot];
    if (o->kind == OPND_VEC || o->kind == OPND_PAIR)
        for (uint32_t i = 0; i < o->count; i++)
            if (!unread(&o->u.group.elems[i], regs, preds))
                return false;
    return o->kind != OPND_NAME;
}

/* The instructions ptxas removes: those that only compute registers and predicates nothing reads,
 * then those only they read, ... (scripts/fmad_ptxas.py: a dead abs of an abs, a dead setp of the
 * product, and the product still fused). Backward over the code, a few times. */
static void find_dead(Flow *f)
{
    enum { PASSES = 4 };
    const Function *fn = f->fn;
    uint32_t n = fn->code.len;
    uint32_t *regs = xcalloc(fn->regs.len + 1, sizeof *regs), *preds = xcalloc(fn->preds.len + 1, sizeof *preds);
    f->dead = xcalloc(n + 1, sizeof *f->dead);
    for (uint32_t i = 0; i < n; i++)
        tally_sources(&fn->code.data[i], regs, preds, 1);
    for (uint32_t r = 0; r < fn->regs.len; r++)
        regs[r] += is_register_result(fn, r);      /* its caller reads it */
    bool changed = true;
    for (unsigned pass = 0; pass < PASSES && changed; pass++) {
        changed = false;
        for (uint32_t i = n; i-- > 0;) {
            const Instr *in = &fn->code.data[i];
            if (f->dead[i] || !computes_only(in) || !unread(&in->operands[0], regs, preds))
                continue;
            f->dead[i] = changed = true;
            tally_sources(in, regs, preds, -1);
        }
    }
    free(regs);
    free(preds);
}

/* Block leaders: branch targets and the instruction after a control transfer or a memory
 * barrier; the reads of each register. */
static void flow_init(Flow *f, const Function *fn)
{
    uint32_t n = fn->code.len, table_entries = 0;
    f->fn = fn;
    f->leader = xcalloc(n + 1, sizeof *f->leader);
    f->reached = xcalloc(n + 1, sizeof *f->reached);
    f->search = 0;
    f->leader[0] = true;
    for (uint32_t i = 0; i < n; i++) {
        const Instr *in = &fn->code.data[i];
        if (ends_block(in, i))
            f->leader[i + 1] = true;
        for (uint32_t k = 0; k < in->operand_count && !is_bra_to_next(in, i); k++)
            if (in->operands[k].kind == OPND_LABEL && in->operands[k].u.ref.target < n)
                f->leader[in->operands[k].u.ref.target] = true;
    }
    for (uint32_t t = 0; t < fn->tables.len; t++)
        for (uint32_t k = 0; k < fn->tables.data[t].count; k++, table_entries++)
            if (fn->tables.data[t].targets[k] < n)
                f->leader[fn->tables.data[t].targets[k]] = true;
    f->stack_cap = 2 * n + table_entries + 2;
    f->stack = xmalloc(f->stack_cap * sizeof *f->stack);
    f->read_count = xcalloc(fn->regs.len + 1, sizeof *f->read_count);
    uint32_t *counted_at = xmalloc((fn->regs.len + 1) * sizeof *counted_at);
    memset(counted_at, 0xff, (fn->regs.len + 1) * sizeof *counted_at);
    f->writer = xmalloc((fn->regs.len + 1) * sizeof *f->writer);
    for (uint32_t r = 0; r <= fn->regs.len; r++)
        f->writer[r] = WRITERS_NONE;
    for (uint32_t i = 0; i < n; i++) {
        const Instr *in = &fn->code.data[i];
        for (uint32_t k = contract_first_is_destination(in) ? 1 : 0; k < in->operand_count; k++)
            count_reads(&in->operands[k], f->read_count, counted_at, i);
        const Operand *d = &in->operands[0];
        if (contract_first_is_destination(in) && d->kind == OPND_REG && d->u.slot < fn->regs.len)
            f->writer[d->u.slot] = f->writer[d->u.slot] == WRITERS_NONE ? i : WRITERS_MANY;
        else if (in->operand_count && (contract_first_is_destination(in) || in->op == OP_CALL))
            written_otherwise(d, f->writer, fn->regs.len);   /* several destinations, a call's results */
    }
    for (uint32_t k = 0; k < fn->params.len; k++) {      /* .reg parameters: the caller's values */
        const Decl *d = &fn->params.data[k];
        for (uint32_t r = d->first_slot; d->space == SPACE_REG && d->type != TYPE_PRED && r < fn->regs.len &&
                                          r - d->first_slot < register_decl_slots(d); r++)
            f->writer[r] = WRITERS_MANY;
    }
    free(counted_at);
    find_dead(f);
}

static void flow_free(Flow *f)
{
    free(f->leader);
    free(f->reached);
    free(f->read_count);
    free(f->writer);
    free(f->dead);
    free(f->stack);
}

/* Whether operand o, read by the instruction at `at`, is a value ptxas knows when it compiles: an
 * immediate, or a register whose value there is a mov, neg or abs of such a value, or an add, sub
 * or mul of two. Its value there: the last unguarded write before `at` in its block (looked for
 * among the 64 instructions before), else its only write in the function. ptxas computes a mul of
 * two such values itself, rounded, and fuses nothing into its add (scripts/fmad_ptxas.py: 0.1f *
 * 0.1f, immediate or through a mov, then an add: one FADD). */
static bool is_constant(const Flow *f, const Operand *o, uint32_t at, unsigned depth)
{
    enum { LOOK_BACK = 64 };
    if (o->kind == OPND_F32 || o->kind == OPND_F64 || o->kind == OPND_INT)
        return true;
    if (o->kind != OPND_REG || depth > 8 || f->writer[o->u.slot] == WRITERS_NONE)
        return false;
    uint32_t def = f->writer[o->u.slot];
    for (uint32_t j = at, seen = 0; def == WRITERS_MANY && j > 0 && !f->leader[j] && seen < LOOK_BACK; seen++)
        if (writes(&f->fn->code.data[--j], o->u.slot))
            def = f->fn->code.data[j].guard_kind ? WRITERS_NONE : j;
    if (def >= WRITERS_MANY)
        return false;
    const Instr *in = &f->fn->code.data[def];
    if (in->guard_kind || in->type_count != 1 || in->operands[0].kind != OPND_REG)
        return false;
    if ((in->op == OP_MOV || in->op == OP_NEG || in->op == OP_ABS) && in->operand_count == 2)
        return is_constant(f, &in->operands[1], def, depth + 1);
    if ((in->op == OP_ADD || in->op == OP_SUB || in->op == OP_MUL) && in->operand_count == 3 &&
        type_info[in->types[0]].cls == 'f')
        return is_constant(f, &in->operands[1], def, depth + 1) && is_constant(f, &in->operands[2], def, depth + 1);
    return false;
}

/* Whether slot is one of the .reg results of fn, a .func, which its caller reads after a ret. */
static bool is_register_result(const Function *fn, uint32_t slot)
{
    for (uint32_t k = 0; k < fn->returns.len && !fn->is_entry; k++) {
        const Decl *d = &fn->returns.data[k];
        if (d->space == SPACE_REG && d->type != TYPE_PRED && slot >= d->first_slot &&
            slot - d->first_slot < register_decl_slots(d))
            return true;
    }
    return false;
}

/* Whether slot may be read after the instruction `from`, before an unguarded write on every
 * path: a search over the blocks, each scanned once (a stack too deep: taken as read). */
static bool live_after(Flow *f, uint32_t from, uint32_t slot)
{
    const Function *fn = f->fn;
    uint32_t n = fn->code.len, top = 0;
    f->search++;
    f->stack[top++] = from;
    while (top) {
        uint32_t i = f->stack[--top];
        for (; i < n; i++) {
            if (f->leader[i] && i != from) {
                if (f->reached[i] == f->search)
                    break;
                f->reached[i] = f->search;
            }
            const Instr *in = &fn->code.data[i];
            if ((i != from && reads(in, slot)) || (in->op == OP_RET && is_register_result(fn, slot)))
                return true;
            if ((i != from && !in->guard_kind && writes(in, slot)) || in->op == OP_RET || in->op == OP_EXIT ||
                in->op == OP_TRAP)
                break;
            if (top + 1 >= f->stack_cap)
                return true;
            if (in->op == OP_BRA) {
                f->stack[top++] = in->operands[0].u.ref.target;
                if (!in->guard_kind)
                    break;
            }
            if (in->op == OP_BRX_IDX) {
                for (uint32_t t = 0; t < fn->tables.len; t++)
                    for (uint32_t k = 0; k < fn->tables.data[t].count; k++)
                        if (fn->tables.data[t].name == in->operands[1].u.ref.name) {
                            if (top + 1 >= f->stack_cap)
                                return true;
                            f->stack[top++] = fn->tables.data[t].targets[k];
                        }
                break;
            }
        }
    }
    return false;
}

/* Whether the instruction at i is one ptxas removes (find_dead), and its read of a product with it. */
static bool is_dead(const Flow *f, uint32_t i)
{
    return f->dead[i];
}

/* Follows the product of the mul at m through its block: its reads, and whether it lives on. */
static void follow(Flow *f, uint32_t m, Product *p)
{
    const Function *fn = f->fn;
    const Instr *mul = &fn->code.data[m];
    uint32_t a = mul->operands[1].kind == OPND_REG ? mul->operands[1].u.slot : NO_SLOT;
    uint32_t b = mul->operands[2].kind == OPND_REG ? mul->operands[2].u.slot : NO_SLOT;
    Alias alias[ALIASES_MAX] = { { mul->operands[0].u.slot, false, 0 } };
    unsigned count = 1;
    p->mul = m;
    p->ok = !(is_constant(f, &mul->operands[1], m, 0) && is_constant(f, &mul->operands[2], m, 0));
    bool operands_gone = mul->operands[0].u.slot == a || mul->operands[0].u.slot == b;
    uint32_t i = m + 1, last = m;
    for (; i < fn->code.len && !f->leader[i] && count && p->ok; i++) {
        last = i;
        const Instr *in = &fn->code.data[i];
        Alias passed = { NO_SLOT, false, 0 };
        for (unsigned k = 0; k < count && p->ok; k++) {
            if (!reads(in, alias[k].slot))
                continue;
            alias[k].reads++;
            if (is_passing(in, mul->types[0], ir_has_mod(mul, MOD_FTZ))) {
                passed = (Alias){ in->operands[0].u.slot, alias[k].negated != (in->op == OP_NEG), 0 };
                continue;
            }
            bool first = mentions(&in->operands[1], alias[k].slot), second = mentions(&in->operands[2], alias[k].slot);
            bool other_alias = false;
            for (unsigned j = 0; j < count; j++)
                other_alias |= j != k && mentions(&in->operands[first ? 2 : 1], alias[j].slot);
            if (!is_sum(in, mul) || first == second || other_alias) {
                p->ok = is_dead(f, i);             /* ptxas removes it, and this read */
                break;
            }
            p->clobbered |= operands_gone;
            if (p->use_count == p->use_cap) {
                p->use_cap = p->use_cap ? 2 * p->use_cap : 4;
                p->use = xrealloc(p->use, p->use_cap * sizeof *p->use);
            }
            p->use[p->use_count++] = (Use){ i, alias[k].negated, first ? 1 : 2 };
        }
        for (unsigned k = 0; k < count && p->ok; k++)
            if (writes(in, alias[k].slot)) {
                if (in->guard_kind)
                    p->ok = false;                 /* the value lives on in some lanes only */
                alias[k--] = alias[--count];
            }
        for (unsigned k = 0; k < count; k++)       /* every read of it seen: nothing reads it later */
            if (alias[k].reads == f->read_count[alias[k].slot] && !is_register_result(fn, alias[k].slot))
                alias[k--] = alias[--count];
        if (passed.slot != NO_SLOT && count == ALIASES_MAX)
            p->ok = false;
        else if (passed.slot != NO_SLOT)
            alias[count++] = passed;
        operands_gone |= (a != NO_SLOT && writes(in, a)) || (b != NO_SLOT && writes(in, b));
        if (ends_block(in, i))
            break;                                 /* the block ends with it */
    }
    for (unsigned k = 0; k < count && p->ok; k++)
        if (live_after(f, last, alias[k].slot))
            p->ok = false;
    if (!p->use_count)
        p->ok = false;
}

/* Whether the atom or red at i adds the rounded product of a mul by a constant, read there only,
 * in its block: ptxas emulates atom/red.shared.add.f32 with a compare-and-swap loop and fuses
 * such a mul into the loop's add (one rounding, with the value in memory), which ptxrun does not
 * model; the caller warns. */
static bool shared_add_takes_constant_product(const Flow *f, uint32_t i)
{
    const Instr *at = &f->fn->code.data[i];
    unsigned value = at->op == OP_ATOM ? 2 : 1;
    if ((at->op != OP_ATOM && at->op != OP_RED) || at->type_count != 1 || at->types[0] != TYPE_F32 ||
        !ir_has_mod(at, MOD_ADD) || !(ir_has_mod(at, MOD_SHARED) || ir_has_mod(at, MOD_SHARED_CTA)) ||
        ir_has_mod(at, MOD_V2) || ir_has_mod(at, MOD_V4) || at->operand_count <= value ||
        at->operands[value].kind != OPND_REG)
        return false;
    uint32_t slot = at->operands[value].u.slot;
    for (uint32_t j = i; j-- > 0 && !f->leader[j + 1];) {
        const Instr *in = &f->fn->code.data[j];
        if (!writes(in, slot))
            continue;
        if (in->guard_kind || f->read_count[slot] != 1)
            return false;
        if (is_passing(in, TYPE_F32, false)) {
            slot = in->operands[1].u.slot;             /* back through the mov or neg */
            continue;
        }
        bool constant = in->operands[1].kind == OPND_F32 || in->operands[2].kind == OPND_F32 ||
                        in->operands[1].kind == OPND_F64 || in->operands[2].kind == OPND_F64;
        return is_product(in) && in->op == OP_MUL && in->types[0] == TYPE_F32 && !ir_has_mod(in, MOD_FTZ) &&
               constant;
    }
    return false;
}

/* The first add whose other operand is a product too that reads p as its first operand (or none:
 * after every add); read_by as in contract_function. */
static uint32_t first_as_first(const Product *p, const uint32_t *read_by)
{
    uint32_t at = UINT32_MAX;
    for (uint32_t u = 0; u < p->use_count; u++)
        if (p->use[u].operand == 1 && p->use[u].add < at && read_by[2 * p->use[u].add + 1] != NO_SLOT)
            at = p->use[u].add;
    return at;
}

/* A product's place in the order its fusion is decided in. */
typedef struct Rank {
    uint32_t reads, first_as_first, product;
} Rank;

static int by_rank(const void *x, const void *y)
{
    const Rank *a = x, *b = y;
    if (a->reads != b->reads)
        return a->reads < b->reads ? -1 : 1;
    if (a->first_as_first != b->first_as_first)
        return a->first_as_first < b->first_as_first ? -1 : 1;
    return (a->product > b->product) - (a->product < b->product);
}

uint32_t contract_function(const Function *fn, Fusion **fused, Unfused **unfused, uint32_t *unfused_count)
{
    uint32_t n = fn->code.len, count = 0, out = 0;
    *fused = NULL;
    *unfused = NULL;
    *unfused_count = 0;
    for (uint32_t i = 0; i < n; i++)
        count += is_product(&fn->code.data[i]);
    if (!count)
        return 0;
    Flow flow;
    flow_init(&flow, fn);
    Product *products = xcalloc(count, sizeof *products);
    count = 0;
    for (uint32_t i = 0; i < n; i++)
        if (is_product(&fn->code.data[i]))
            follow(&flow, i, &products[count++]);
    /* The product each add's operand reads (2 * add + operand - 1), where every read of it is eligible. */
    uint32_t *read_by = xmalloc((2 * (size_t)n + 1) * sizeof *read_by);
    memset(read_by, 0xff, (2 * (size_t)n + 1) * sizeof *read_by);
    for (uint32_t q = 0; q < count; q++)
        for (uint32_t u = 0; u < products[q].use_count && products[q].ok; u++)
            read_by[2 * products[q].use[u].add + products[q].use[u].operand - 1] = q;
    /* Where both operands of an add are such products, one is fused: the products are decided in
     * order, fewer reads first, then the one that is the first operand of an earlier such add (of
     * two tied products, the first operand of the add they share), and one decided later loses an
     * add that one decided earlier took, and so is not fused: one fused never leaves an add to it. */
    Rank *order = xmalloc((count + 1) * sizeof *order);
    uint32_t ordered = 0;
    for (uint32_t q = 0; q < count; q++)
        if (products[q].ok)
            order[ordered++] = (Rank){ products[q].use_count, first_as_first(&products[q], read_by), q };
    qsort(order, ordered, sizeof *order, by_rank);
    bool *fuse = xcalloc(count, sizeof *fuse);
    uint32_t *lost_add = xmalloc((count + 1) * sizeof *lost_add), *lost_to = xmalloc((count + 1) * sizeof *lost_to);
    memset(lost_add, 0xff, (count + 1) * sizeof *lost_add);
    uint32_t total = 0;
    for (uint32_t k = 0; k < ordered; k++) {
        uint32_t q = order[k].product;
        const Product *p = &products[q];
        fuse[q] = true;
        for (uint32_t u = 0; u < p->use_count && fuse[q]; u++) {
            uint32_t other = read_by[2 * p->use[u].add + (p->use[u].operand == 1 ? 1 : 0)];
            if (other != NO_SLOT && fuse[other]) {
                fuse[q] = false;                   /* taken: one product per add */
                lost_add[q] = p->use[u].add;
                lost_to[q] = other;
            }
        }
        total += fuse[q] ? p->use_count : 0;
    }
    free(order);
    *fused = xmalloc((total + 1) * sizeof **fused);
    *unfused = xmalloc((2 * (size_t)count + 2 * (size_t)n + 1) * sizeof **unfused);
    /* A product that lost an add to one read twice or more, and has eligible adds of its own
     * before that add: ptxas fused such adds too where it was tried (docs/semantics.md,
     * "Contraction"), which ptxrun does not model: each is named once in a warning. */
    bool *named = xcalloc(n + 1, sizeof *named);
    for (uint32_t q = 0; q < count; q++)
        for (uint32_t u = 0; u < products[q].use_count && lost_add[q] != NO_SLOT; u++) {
            uint32_t add = products[q].use[u].add;
            uint32_t other = read_by[2 * add + (products[q].use[u].operand == 1 ? 1 : 0)];
            if (add < lost_add[q] && products[lost_to[q]].use_count >= 2 && (other == NO_SLOT || !fuse[other]) &&
                !named[add]) {
                named[add] = true;
                (*unfused)[(*unfused_count)++] = (Unfused){ add, UNFUSED_LOST_ADD };
            }
        }
    free(named);
    free(lost_add);
    free(lost_to);
    for (uint32_t q = 0; q < count; q++) {
        const Product *p = &products[q];
        if (fuse[q] && is_division(&fn->code.data[p->mul])) {
            (*unfused)[(*unfused_count)++] = (Unfused){ p->use[0].add, UNFUSED_DIVISION };
            continue;
        }
        for (uint32_t u = 0; u < p->use_count && fuse[q]; u++) {
            const Instr *add = &fn->code.data[p->use[u].add];
            bool negate_product = p->use[u].negated != (add->op == OP_SUB && p->use[u].operand == 2);
            bool negate_other = add->op == OP_SUB && p->use[u].operand == 1;
            (*fused)[out++] = (Fusion){ p->use[u].add, p->mul, p->use[u].operand,
                                        (uint8_t)(negate_product | negate_other << 2), p->clobbered };
        }
    }
    for (uint32_t i = 0; i < n; i++)
        if (shared_add_takes_constant_product(&flow, i))
            (*unfused)[(*unfused_count)++] = (Unfused){ i, UNFUSED_SHARED_ATOMIC };
    free(fuse);
    free(read_by);
    for (uint32_t q = 0; q < count; q++)
        free(products[q].use);
    free(products);
    flow_free(&flow);
    return out;
}

static int by_index(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* "12, 40, 41" into buf: the lines of the instructions at[] (sorted here), each once, at most a
 * few, then how many more; returns how many lines there are. */
static uint32_t list_lines(char *buf, size_t size, const Program *p, uint32_t *at, uint32_t count)
{
    enum { SHOWN = 12 };
    qsort(at, count, sizeof *at, by_index);
    size_t len = 0;
    uint32_t lines = 0, previous = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t line = p->code[at[i]].line;
        if (line == previous)
            continue;
        if (lines < SHOWN && len < size)
            len += (size_t)snprintf(buf + len, size - len, "%s%u", lines ? ", " : "", line);
        previous = line;
        lines++;
    }
    if (lines > SHOWN && len < size)
        snprintf(buf + len, size - len, " and %u more", lines - SHOWN);
    return lines;
}

/* One warning at the first of the instructions at[] (count of them, none: no warning), format's
 * %s the phrase "line 5" or "lines 5, 7". */
static void warn_at_lines(Diag *diag, const Program *p, uint32_t *at, uint32_t count, const char *format)
{
    if (!count)
        return;
    char lines[256], phrase[300];
    uint32_t n = list_lines(lines, sizeof lines, p, at, count);
    snprintf(phrase, sizeof phrase, "line%s %s", n > 1 ? "s" : "", lines);
    diag_at(diag, DIAG_WARNING, p->code[at[0]].ir->stmt_at, format, phrase);
}

static bool debug_target(const Module *m)
{
    for (uint32_t i = 0; i < m->target_option_count; i++)
        if (!strcmp(m->target_options[i], "debug"))
            return true;
    return false;
}

void contract_program(Program *p, Diag *diag)
{
    if (debug_target(p->m))                        /* ptxas compiles it unoptimised: nothing fused */
        return;
    uint32_t *fused_at = xmalloc((p->code_len + 1) * sizeof *fused_at), fused_count = 0;
    uint32_t *missed_at[UNFUSED_KINDS], missed_count[UNFUSED_KINDS] = { 0 };   /* by Unfused.why */
    for (unsigned why = 0; why < UNFUSED_KINDS; why++)
        missed_at[why] = xmalloc((p->code_len + 1) * sizeof *missed_at[why]);
    for (uint32_t k = 0; k < p->func_count; k++) {
        const FuncLayout *f = &p->funcs[k];
        Fusion *fused;
        Unfused *missed;
        uint32_t missed_here;
        uint32_t n = contract_function(f->fn, &fused, &missed, &missed_here);
        for (uint32_t i = 0; i < n; i++) {
            XInstr *add = &p->code[f->code_base + fused[i].add];
            XInstr *mul = &p->code[f->code_base + fused[i].mul];
            uint32_t other = add->src[fused[i].operand == 1 ? 1 : 0];
            if (fused[i].keep && !mul->keeps_operands) {   /* two rows of its own, before the immediates */
                mul->keeps_operands = true;
                mul->keep_row = p->row_count;
                p->row_count += 2;
            }
            add->op = OP_FMA;
            add->src[0] = fused[i].keep ? mul->keep_row : mul->src[0];
            add->src[1] = fused[i].keep ? mul->keep_row + 1 : mul->src[1];
            add->src[2] = other;
            add->src_count = 3;
            add->negate = fused[i].negate;
            fused_at[fused_count++] = f->code_base + fused[i].add;
        }
        for (uint32_t i = 0; i < missed_here; i++)
            missed_at[missed[i].why][missed_count[missed[i].why]++] = f->code_base + missed[i].at;
        free(fused);
        free(missed);
    }
    static const char *const why_text[UNFUSED_KINDS] = {
        [UNFUSED_SHARED_ATOMIC] = "ptxas fuses the mul by a constant that the shared-memory atomic add at %s reads "
                                  "into the loop it emulates that add with (an fma with the value in memory, one "
                                  "rounding): ptxrun adds the rounded product, which the GPU may not",
        [UNFUSED_LOST_ADD] = "at %s, an add reads a product that a later add of two products leaves to the other: "
                             "ptxas fuses such a product into its earlier adds too where it was tried (one "
                             "rounding), which ptxrun does not model: it rounds the product there, so the GPU may "
                             "differ",
        [UNFUSED_DIVISION] = "ptxas fuses the last multiply of the div.approx or div.full.f32 that the add or sub at "
                             "%s reads into an fma with that add (one rounding): ptxrun rounds the quotient first, "
                             "which the GPU does not",
    };
    warn_at_lines(diag, p, fused_at, fused_count,
                  "mul and add fused into one fma (one rounding) at %s, as ptxas fuses them for the GPU (the PTX "
                  "ISA allows it without a rounding modifier); --no-fmad rounds each on its own");
    for (unsigned why = 0; why < UNFUSED_KINDS; why++)
        warn_at_lines(diag, p, missed_at[why], missed_count[why], why_text[why]);
    free(fused_at);
    for (unsigned why = 0; why < UNFUSED_KINDS; why++)
        free(missed_at[why]);
}
