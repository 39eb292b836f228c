/* exec.c: the warp. Loads a checked function into an executable program (every operand a row
 * of lane values or a predicate slot), with each function's reconvergence points (the immediate
 * post-dominators of its conditional branches), then runs one warp's 32 lanes with their own
 * program counters: each warp-step takes the ready lanes that share one pc, the lowest, and
 * executes one instruction for all of them at once; a lane at a reconvergence point waits there
 * while lanes that will come to it run. Synchronising instructions (shfl.sync, vote.sync,
 * bar.warp.sync, ...) make a lane whose guard holds wait until every non-exited lane of its
 * membermask has arrived at one of the same kind, qualifiers and mask. block.c runs the warps
 * of a CTA and calls a deadlock when no lane of any warp can move; exec_report_waits says where
 * each lane of a warp waits.
 * Requires: a module checked without errors. Semantics of the instructions: alu.c, warp_ops.c;
 * CTA barriers: barrier.c. */
#include <stdlib.h>
#include <string.h>

#include "ptxrun.h"

enum {
    STARVE_STEPS = 256,        /* a ready lane left waiting this long runs next */
    HOLD_STEPS = 1 << 14,      /* and one held at a reconvergence point this long */
};

/* ---- loading ---- */

typedef struct Loader {
    Warp *w;
    const FuncLayout *cur;     /* the function being loaded */
    uint32_t total_preds;      /* constant predicates follow every function's predicates */
    uint32_t sreg_row[SREG_COUNT][4];    /* row of each special register component */
    VEC(uint64_t) immediates;             /* values of the immediate rows, in order */
    Layout layout;             /* what each name means, where it lives */
    bool failed;
} Loader;

static void load_call(Loader *ld, const Instr *in, XInstr *x);

static void cannot(Loader *ld, const Instr *in, const char *what)
{
    diag_at(ld->w->diag, DIAG_ERROR, in->at, "ptxrun cannot execute %s yet", what);
    ld->failed = true;
}



/* The bits an immediate stands for as an operand of the given type. */
static uint64_t immediate_bits(const Operand *o, int type)
{
    unsigned bits = type_info[type].bits;
    char cls = type_info[type].cls;
    if (o->kind == OPND_INT) {
        if (cls == 'f' && bits == 32) {
            float f = (float)(int64_t)o->u.bits;
            uint32_t b;
            memcpy(&b, &f, sizeof b);
            return b;
        }
        if (cls == 'f' && bits == 64) {
            double d = (double)(int64_t)o->u.bits;
            uint64_t b;
            memcpy(&b, &d, sizeof b);
            return b;
        }
        return o->u.bits & width_mask(bits);
    }
    if (o->kind == OPND_F32 && bits == 64) {
        float f;
        uint32_t b32 = (uint32_t)o->u.bits;
        memcpy(&f, &b32, sizeof f);
        double d = f;
        uint64_t b;
        memcpy(&b, &d, sizeof b);
        return b;
    }
    if (o->kind == OPND_F64 && bits <= 32) {
        double d;
        memcpy(&d, &o->u.bits, sizeof d);
        float f = (float)d;
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        return b;
    }
    return o->u.bits & width_mask(bits);
}

static uint32_t immediate_row(Loader *ld, uint64_t bits)
{
    for (uint32_t i = 0; i < ld->immediates.len; i++)
        if (ld->immediates.data[i] == bits)
            return NO_SLOT - 1 - i;       /* placeholder, fixed once the sreg rows are counted */
    VEC_PUSH(&ld->w->m->arena, ld->immediates, bits);
    return NO_SLOT - ld->immediates.len;
}

static bool sreg_supported(int sreg)
{
    switch (sreg) {
    case SREG_TID: case SREG_NTID: case SREG_LANEID: case SREG_WARPID: case SREG_NWARPID:
    case SREG_CTAID: case SREG_NCTAID: case SREG_LANEMASK_EQ: case SREG_LANEMASK_LT:
    case SREG_LANEMASK_LE: case SREG_LANEMASK_GT: case SREG_LANEMASK_GE: case SREG_WARP_SZ:
    case SREG_SMID: case SREG_NSMID: case SREG_GRIDID: case SREG_DYNAMIC_SMEM_SIZE:
    case SREG_TOTAL_SMEM_SIZE:
        return true;
    default:
        return false;
    }
}

/* The variable (or function) an operand names. */
static bool find_symbol(const Loader *ld, const Operand *o, Symbol *out)
{
    return layout_find(&ld->layout, ld->w, ld->cur ? (uint32_t)(ld->cur - ld->w->funcs) : NO_SLOT, o->u.ref.name,
                       o->u.ref.target, out);
}

/* A value source: register, special register or immediate, as a row. Predicates: a slot. */
static uint32_t source_row(Loader *ld, const Instr *in, const Operand *o, int type, XInstr *x, unsigned i)
{
    Warp *w = ld->w;
    switch (o->kind) {
    case OPND_REG:
        return ld->cur->row_base + o->u.slot;
    case OPND_PRED:
        x->src_pred |= (uint8_t)(1u << i);
        if (o->flags & OPNDF_NOT)
            x->src_not |= (uint8_t)(1u << i);
        return ld->cur->pred_base + o->u.slot;
    case OPND_SREG: {
        if (!sreg_supported(o->u.sreg)) {
            char what[64];
            snprintf(what, sizeof what, "a read of '%s'", sreg_info[o->u.sreg].name);
            cannot(ld, in, what);
            return 0;
        }
        uint32_t *row = &ld->sreg_row[o->u.sreg][o->component];
        if (*row == NO_SLOT)
            *row = w->row_count++;
        return *row;
    }
    case OPND_INT:
    case OPND_F32:
    case OPND_F64:
        if (type == TYPE_PRED) {          /* mov.pred p, 1: the constant predicate slots */
            x->src_pred |= (uint8_t)(1u << i);
            return ld->total_preds + (o->u.bits != 0);
        }
        return immediate_row(ld, immediate_bits(o, type));
    case OPND_SYM: {
        Symbol s;
        if (!find_symbol(ld, o, &s)) {
            char what[160];
            snprintf(what, sizeof what, "the address of '%s'", o->u.ref.name);
            cannot(ld, in, what);
            return 0;
        }
        if (s.row != NO_SLOT) {               /* in a .func's frame: a different address in each call */
            if (o->u.ref.offset)
                cannot(ld, in, "the address of a function's frame variable plus an offset");
            return s.row;
        }
        return immediate_row(ld, (s.address + (uint64_t)o->u.ref.offset) & width_mask(type_info[type].bits));
    }
    default:
        cannot(ld, in, "an instruction with this operand");
        return 0;
    }
}

/* The address operand [base + offset]: base a register, a variable, or nothing. */
static void load_address(Loader *ld, const Instr *in, const Operand *o, XInstr *x)
{
    if (o->kind != OPND_ADDR) {
        cannot(ld, in, "this address");
        return;
    }
    x->offset = o->u.group.offset;
    x->addr_bits = 64;
    Symbol s;
    if (o->count == 1 && o->u.group.elems[0].kind == OPND_SYM && find_symbol(ld, &o->u.group.elems[0], &s)) {
        /* A variable: accessed in its own space (a function's parameters live in its frame, in
         * .local; a generic access of a variable is one in its space). */
        if (x->space != SPACE_NONE && x->space != s.declared) {
            diag_at(ld->w->diag, DIAG_ERROR, in->at, "'%s' names '%s', a %s variable: the state spaces differ",
                    in->mnemonic, s.name, mem_space_name(s.declared));
            ld->failed = true;
            return;
        }
        x->space = s.space;
        if (s.row != NO_SLOT) {
            x->src[0] = s.row;
            x->src_count = 1;
            x->offset += o->u.group.elems[0].u.ref.offset;
            return;
        }
    }
    if (ld->cur != ld->w->funcs && x->space == SPACE_PARAM) {
        diag_at(ld->w->diag, DIAG_ERROR, in->at, "'%s' through an address in a .func: a function's parameters "
                "are in .local, where the address of one (mov) points; read it with ld.local, or by name",
                in->mnemonic);
        ld->failed = true;
        return;
    }
    if (o->count == 0) {
        x->src[0] = immediate_row(ld, 0);
    } else if (o->count == 1) {
        const Operand *base = &o->u.group.elems[0];
        x->src[0] = source_row(ld, in, base, TYPE_U64, x, 0);
        if (base->kind == OPND_REG && type_info[ld->cur->fn->regs.data[base->u.slot].type].bits < 64)
            x->addr_bits = 32;                 /* a 32-bit address: [%r + imm] wraps in 32 bits */
    } else {
        cannot(ld, in, "this address");
    }
    x->src_count = 1;
}

/* The register (or registers, for .v2/.v4) that ld writes or st reads. */
static void load_data_operand(Loader *ld, const Instr *in, const Operand *o, XInstr *x, bool store)
{
    unsigned n = o->kind == OPND_VEC ? o->count : 1;
    if (n != x->vec_count || n > 4) {
        cannot(ld, in, "a vector operand whose size does not match");
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        const Operand *e = o->kind == OPND_VEC ? &o->u.group.elems[i] : o;
        if (e->kind == OPND_SINK) {
            x->vec[i] = NO_SLOT;
        } else if (e->kind == OPND_REG) {
            x->vec[i] = ld->cur->row_base + e->u.slot;
            if (!store && i == 0)
                x->dst_bits = (uint8_t)type_info[ld->cur->fn->regs.data[e->u.slot].type].bits;
        } else if (store && (e->kind == OPND_INT || e->kind == OPND_F32 || e->kind == OPND_F64)) {
            x->vec[i] = immediate_row(ld, immediate_bits(e, x->type));
        } else {
            cannot(ld, in, "this data operand");
            return;
        }
    }
    if (!store) {
        x->dst_kind = DST_VALUE;
        x->dst = x->vec[0];
        if (x->dst_bits < x->bits)
            x->dst_bits = x->bits;
    }
}

/* The type each source operand is read as. */
static int source_type(const Instr *in, unsigned i)
{
    int type = in->type_count ? in->types[0] : TYPE_B32;
    switch (in->op) {
    case OP_MATCH: case OP_REDUX_SYNC: case OP_ELECT_SYNC:
        return i + 2 == in->operand_count ? TYPE_U32 : type;   /* the membermask is last */
    case OP_SHFL: case OP_SHFL_SYNC:
        return i == 0 ? TYPE_B32 : TYPE_U32;
    case OP_SHF:
        return i == 2 ? TYPE_U32 : TYPE_B32;
    case OP_SHL: case OP_SHR:
        return i == 1 ? TYPE_U32 : type;
    case OP_VOTE: case OP_VOTE_SYNC:
        return i == 0 ? TYPE_PRED : TYPE_U32;
    case OP_BAR_WARP_SYNC:
        return TYPE_U32;
    case OP_SET:
        return i < 2 && in->type_count > 1 ? in->types[1] : TYPE_PRED;
    case OP_SELP:
        return i == 2 ? TYPE_PRED : type;
    case OP_SETP:
        return i == 2 ? TYPE_PRED : type;
    case OP_MAD:
        if (i == 2 && ir_has_mod(in, MOD_WIDE)) {
            for (int t = 0; t < TYPE_COUNT; t++)
                if (type_info[t].cls == type_info[type].cls && type_info[t].bits == 2 * type_info[type].bits)
                    return t;
        }
        return type;
    default:
        return type;
    }
}

static void load_destination(Loader *ld, const Instr *in, const Operand *o, XInstr *x)
{
    const Operand *value = o;
    if (o->kind == OPND_PAIR) {
        value = &o->u.group.elems[0];
        const Operand *p = &o->u.group.elems[1];
        x->dst_pred = p->kind == OPND_PRED ? ld->cur->pred_base + p->u.slot : NO_SLOT;
    }
    switch (value->kind) {
    case OPND_REG:
        x->dst_kind = DST_VALUE;
        x->dst = ld->cur->row_base + value->u.slot;
        break;
    case OPND_PRED:
        x->dst_kind = DST_PRED;
        x->dst = ld->cur->pred_base + value->u.slot;
        break;
    case OPND_SINK:
        x->dst_kind = DST_NONE;
        break;
    case OPND_VEC:
        cannot(ld, in, "a vector destination");
        break;
    default:
        cannot(ld, in, "this destination");
    }
}

/* Which variants of the executable opcodes the executor covers; the rest are reported. */
static void check_variant(Loader *ld, const Instr *in, const XInstr *x)
{
    char what[96];
    snprintf(what, sizeof what, "'%s'", in->mnemonic);
    bool moves_bits = in->op == OP_LD || in->op == OP_ST || in->op == OP_MOV || in->op == OP_CVT ||
                      in->op == OP_SELP;
    /* Half, packed and narrow floats (f16, f16x2, bf16x2, tf32, ...) are moved and converted,
     * never computed as a wider type. */
    bool half_atomic_add = (in->op == OP_ATOM || in->op == OP_RED) && x->mode == MOD_ADD &&
                           (x->type == TYPE_F16 || x->type == TYPE_F16X2 || x->type == TYPE_BF16 ||
                            x->type == TYPE_BF16X2);   /* add.noftz: each half on its own (mem.c) */
    bool half_float = x->cls == 'f' && x->type != TYPE_F32 && x->type != TYPE_F64 && !moves_bits &&
                      !half_atomic_add;
    bool min_max = in->op == OP_MIN || in->op == OP_MAX;
    bool relu_ok = min_max && x->type == TYPE_S32;
    bool min_max_f32 = min_max && x->type == TYPE_F32;
    bool xorsign_ok = min_max_f32 && ir_has_mod(in, MOD_XORSIGN) && ir_has_mod(in, MOD_ABS);
    if (half_float || x->type == TYPE_B128)
        cannot(ld, in, what);
    else if ((ir_has_mod(in, MOD_CC) && x->cls == 'f') || (ir_has_mod(in, MOD_RELU) && !relu_ok) ||
             (ir_has_mod(in, MOD_NAN_) && !min_max_f32) ||
             ir_has_mod(in, MOD_SATFINITE) || ir_has_mod(in, MOD_RNA) || ir_has_mod(in, MOD_RS) ||
             (ir_has_mod(in, MOD_XORSIGN) && !xorsign_ok) ||
             (ir_has_mod(in, MOD_ABS) && in->op != OP_ABS && !xorsign_ok))
        cannot(ld, in, what);
    else if ((in->op == OP_MIN || in->op == OP_MAX) && in->operand_count == 4)
        cannot(ld, in, "three-input min/max");
    else if (in->op == OP_PRMT && in->mod_count > 1)
        cannot(ld, in, what);
    else if (in->op == OP_LOP3 && (in->operand_count != 5 || in->operands[0].kind == OPND_PAIR))
        cannot(ld, in, what);
    else if (x->sat && x->cls != 'f' && in->op != OP_CVT && in->op != OP_VABSDIFF4 &&
             !(x->type == TYPE_S32 && (in->op == OP_ADD || in->op == OP_SUB)) &&
             !(x->type == TYPE_S32 && x->hi && (in->op == OP_MAD || in->op == OP_MAD24)))
        cannot(ld, in, what);
}

/* bar / barrier {.cta} .sync / .arrive / .red.popc.u32 / .red.and|or.pred, {.aligned}, as the
 * checker decoded them: src[0] the barrier, src[1] the thread count (if has_count), src[2] the
 * predicate of .red. */
static void load_barrier(Loader *ld, const Instr *in, XInstr *x)
{
    x->aligned = in->op == OP_BAR || ir_has_mod(in, MOD_ALIGNED);      /* bar is barrier.aligned */
    x->barrier = ir_has_mod(in, MOD_RED) ? BARRIER_RED : ir_has_mod(in, MOD_ARRIVE) ? BARRIER_ARRIVE : BARRIER_SYNC;
    x->red_op = x->barrier != BARRIER_RED ? 0 : x->mode == MOD_POPC ? BARRIER_RED_POPC :
                x->mode == MOD_AND ? BARRIER_RED_AND : BARRIER_RED_OR;
    unsigned n = in->operand_count, first = x->barrier == BARRIER_RED;
    if (x->barrier == BARRIER_RED)
        load_destination(ld, in, &in->operands[0], x);
    x->src[0] = source_row(ld, in, &in->operands[first], TYPE_U32, x, 0);
    x->has_count = n - first - (x->barrier == BARRIER_RED) == 2;
    x->src[1] = x->has_count ? source_row(ld, in, &in->operands[first + 1], TYPE_U32, x, 1) : x->src[0];
    x->src_count = 2;
    if (x->barrier == BARRIER_RED) {
        x->src[2] = source_row(ld, in, &in->operands[n - 1], TYPE_PRED, x, 2);
        x->src_count = 3;
    }
}

/* atom d, [a], b{, c} / red [a], b, as the checker decoded them (a .cas's c, or a cache policy
 * that changes nothing here): the old value to d, the address, then b (and c) in vec. */
static void load_atomic(Loader *ld, const Instr *in, XInstr *x)
{
    unsigned first = in->op == OP_ATOM, values = x->mode == MOD_CAS ? 2 : 1;
    if (first)
        load_destination(ld, in, &in->operands[0], x);
    load_address(ld, in, &in->operands[first], x);
    for (unsigned i = 0; i < values; i++)
        x->vec[i] = source_row(ld, in, &in->operands[first + 1 + i], x->type, x, 1 + i);
    x->vec_count = (uint8_t)values;
}

/* ld d, [a] / st [a], b (a cache policy after them changes nothing here) / cvta d, a. */
static void load_memory(Loader *ld, const Instr *in, XInstr *x)
{
    if (!x->vec_count)
        x->vec_count = 1;
    if (in->op == OP_LD) {
        load_data_operand(ld, in, &in->operands[0], x, false);
        load_address(ld, in, &in->operands[1], x);
    } else if (in->op == OP_ST) {
        load_address(ld, in, &in->operands[0], x);
        load_data_operand(ld, in, &in->operands[1], x, true);
    } else {
        load_destination(ld, in, &in->operands[0], x);
        x->src[0] = source_row(ld, in, &in->operands[1], x->type, x, 0);
        x->src_count = 1;
    }
}

static void load_instr(Loader *ld, const Instr *in, XInstr *x)
{
    Warp *w = ld->w;
    memset(x, 0, sizeof *x);
    x->ir = in;
    x->op = in->op;
    x->type = in->type_count ? in->types[0] : TYPE_B32;
    x->bits = (uint8_t)(x->type == TYPE_PRED ? 1 : type_info[x->type].bits);
    x->cls = (uint8_t)type_info[x->type].cls;
    x->dst_pred = NO_SLOT;
    x->guard = in->guard_kind;
    x->guard_pred = ld->cur->pred_base + in->guard_slot;
    x->owner = ld->cur->fn;
    uint32_t line, column;
    source_position(w->m->src, in->at.offset, &line, &column);
    x->line = line;
    for (unsigned i = 0; i < in->mod_count; i++) {
        Mod mod = in->mods[i];
        if (mod_is_hint[mod])
            continue;                              /* orders, scopes, cache policy (mods.def) */
        switch (mod) {
        case MOD_RN: case MOD_RZ: case MOD_RM: case MOD_RP:
        case MOD_RNI: case MOD_RZI: case MOD_RMI: case MOD_RPI: x->rounding = (uint8_t)mod; break;
        case MOD_FTZ: x->ftz = true; break;
        case MOD_RELU: x->relu = true; break;
        case MOD_NAN_: x->nan_out = true; break;
        case MOD_XORSIGN: case MOD_ABS: x->xorsign_abs = in->op != OP_ABS; break;
        case MOD_CC: x->carry_out = true; break;
        case MOD_SAT: x->sat = true; break;
        case MOD_CLAMP: x->clamp = true; break;
        case MOD_WRAP: break;
        case MOD_WIDE: x->wide = true; x->mode = (uint8_t)mod; break;
        case MOD_GLOBAL: x->space = SPACE_GLOBAL; break;
        case MOD_SHARED: case MOD_SHARED_CTA: case MOD_SHARED_CLUSTER: x->space = SPACE_SHARED; break;
        case MOD_LOCAL: x->space = SPACE_LOCAL; break;
        case MOD_CONST: x->space = SPACE_CONST; break;
        case MOD_PARAM: case MOD_PARAM_ENTRY: case MOD_PARAM_FUNC: x->space = SPACE_PARAM; break;
        case MOD_V2: x->vec_count = 2; break;
        case MOD_V4: x->vec_count = 4; break;
        case MOD_V8: x->vec_count = 8; break;
        case MOD_TO: x->to_space = true; break;
        case MOD_SYNC: case MOD_ARRIVE: case MOD_RED: case MOD_ALIGNED: break;   /* load_barrier */
        case MOD_AND: case MOD_OR: case MOD_XOR:
            if (in->op == OP_SETP || in->op == OP_SET) {
                x->boolop = (uint8_t)mod;
                break;
            }
            /* fall through */
        default:
            x->mode = (uint8_t)mod;
        }
    }
    x->hi = x->mode == MOD_HI && (in->op == OP_MUL || in->op == OP_MAD || in->op == OP_MADC ||
                                  in->op == OP_MUL24 || in->op == OP_MAD24);
    x->family = op_info[in->op].family;
    if (in->op == OP_DIV && x->cls == 'f')
        x->family = FAM_MATHOPS;                   /* integer division is in bitops.c */
    if (x->family == FAM_NONE) {
        char what[64];
        snprintf(what, sizeof what, "'%s'", op_info[in->op].name);
        cannot(ld, in, what);
        return;
    }
    check_variant(ld, in, x);

    switch ((Family)x->family) {
    case FAM_CONTROL:
        if (in->op == OP_CALL)
            load_call(ld, in, x);
        else if (in->op == OP_BRA)
            x->target = ld->cur->code_base + in->operands[0].u.ref.target;
        return;
    case FAM_BARRIER:
        load_barrier(ld, in, x);
        return;
    case FAM_FENCE:
        return;                                    /* nothing to order: accesses are in program order */
    case FAM_ATOMIC:
        load_atomic(ld, in, x);
        return;
    case FAM_MEMORY:
        load_memory(ld, in, x);
        return;
    default:
        break;
    }
    if (in->op == OP_MOV && in->operand_count == 2 &&
        (in->operands[0].kind == OPND_VEC || in->operands[1].kind == OPND_VEC)) {
        /* mov.b64 {lo, hi}, d unpacks; mov.b64 d, {lo, hi} packs (also .b32 of two .b16, ...). */
        bool unpack = in->operands[0].kind == OPND_VEC;
        const Operand *parts = &in->operands[unpack ? 0 : 1];
        if (parts->count < 2 || parts->count > 4 || x->bits % parts->count) {
            cannot(ld, in, "mov with this vector");
            return;
        }
        x->vec_count = (uint8_t)parts->count;
        int part_type = TYPE_B32;
        for (int t = 0; t < TYPE_COUNT; t++)
            if (type_info[t].cls == 'b' && type_info[t].bits == x->bits / parts->count)
                part_type = t;
        for (unsigned i = 0; i < parts->count; i++) {
            const Operand *p = &parts->u.group.elems[i];
            if (p->kind == OPND_SINK && unpack)
                x->vec[i] = NO_SLOT;
            else if (p->kind == OPND_REG)
                x->vec[i] = ld->cur->row_base + p->u.slot;
            else if (!unpack && (p->kind == OPND_INT || p->kind == OPND_F32 || p->kind == OPND_F64))
                x->vec[i] = immediate_row(ld, immediate_bits(p, part_type));
            else
                cannot(ld, in, "mov with this vector element");
        }
        if (unpack) {
            x->unpack = true;
            x->src[0] = source_row(ld, in, &in->operands[1], x->type, x, 0);
            x->src_count = 1;
        } else {
            x->pack = true;
            load_destination(ld, in, &in->operands[0], x);
        }
        return;
    }
    if (in->op == OP_SLCT || in->op == OP_DP4A || in->op == OP_DP2A)
        x->src_type = in->type_count > 1 ? in->types[1] : TYPE_S32;
    if (in->op == OP_SET) {
        /* set.cmp.dtype.stype: compared as stype, written as dtype. */
        if (in->type_count != 2) {
            cannot(ld, in, "set without two types");
            return;
        }
        x->src_type = in->types[0];
        x->type = in->types[1];
        x->bits = (uint8_t)type_info[x->type].bits;
        x->cls = (uint8_t)type_info[x->type].cls;
    }
    if (in->op == OP_VABSDIFF4) {
        if (in->type_count != 3 || in->operand_count != 4 || (x->type != TYPE_U32 && x->type != TYPE_S32)) {
            cannot(ld, in, "vabsdiff4 in this form (byte selectors, masks)");
            return;
        }
        x->src_type = in->types[1];
        x->src_type2 = in->types[2];
    }
    if (in->op == OP_CVT) {
        x->src_type = in->type_count > 1 ? in->types[1] : TYPE_NONE;
        bool small_float_ok = x->src_type != TYPE_NONE &&
                              (x->type == TYPE_F16 || x->type == TYPE_BF16 || x->cls != 'f' || x->bits >= 32) &&
                              (x->src_type == TYPE_F16 || x->src_type == TYPE_BF16 ||
                               type_info[x->src_type].cls != 'f' || type_info[x->src_type].bits >= 32);
        bool half = x->src_type == TYPE_NONE || in->type_count != 2 || x->type == TYPE_PRED ||
                    !small_float_ok || x->src_type == TYPE_PRED;
        if (half || in->operand_count != 2) {
            char what[96];
            snprintf(what, sizeof what, "'%s'", in->mnemonic);
            cannot(ld, in, what);
            return;
        }
        load_destination(ld, in, &in->operands[0], x);
        if (x->dst_kind == DST_VALUE)
            x->dst_bits = (uint8_t)type_info[ld->cur->fn->regs.data[x->dst - ld->cur->row_base].type].bits;
        x->src[0] = source_row(ld, in, &in->operands[1], x->src_type, x, 0);
        x->src_count = 1;
        return;
    }

    unsigned first_source = 0;
    if (in->op != OP_BAR_WARP_SYNC) {
        load_destination(ld, in, &in->operands[0], x);
        first_source = 1;
    }
    if (in->op == OP_SETP && in->operands[0].kind == OPND_PAIR) {
        x->dst = ld->cur->pred_base + in->operands[0].u.group.elems[0].u.slot;
        x->dst_kind = DST_PRED;
    }
    for (unsigned i = first_source; i < in->operand_count; i++) {
        const Operand *o = &in->operands[i];
        unsigned s = i - first_source;
        if (o->kind == OPND_VEC) {
            cannot(ld, in, "mov with a vector operand");
            continue;
        }
        x->src[s] = source_row(ld, in, o, source_type(in, s), x, s);
        x->src_count = (uint8_t)(s + 1);
    }
}

/* ---- reconvergence points ---- */

/* The successors of instruction i of a function of n instructions (n stands for its end):
 * control goes on to i + 1 except after an unguarded bra, exit, ret or trap; a bra also goes to
 * its target, and exit, ret and trap to the end. Returns how many (at most 2). */
static unsigned successors(const XInstr *code, uint32_t base, uint32_t n, uint32_t i, uint32_t succ[2])
{
    const XInstr *x = &code[base + i];
    unsigned count = 0;
    bool ends = x->op == OP_EXIT || x->op == OP_RET || x->op == OP_TRAP;
    if (x->op == OP_BRA)
        succ[count++] = x->target - base;
    else if (ends)
        succ[count++] = n;
    if ((x->op != OP_BRA && !ends) || x->guard)
        if (count == 0 || succ[0] != i + 1)
            succ[count++] = i + 1;
    return count;
}

/* The post-dominator tree of one function (Cooper, Harvey and Kennedy's iterative algorithm on
 * the reversed control-flow graph, rooted at the function's end), numbered so that P
 * post-dominates Q exactly when Q's interval lies within P's; and the reconvergence points,
 * the immediate post-dominators of conditional branches. Instructions from which the end
 * cannot be reached (an endless loop) have no interval. */
static void find_reconvergence(Warp *w, const FuncLayout *f)
{
    uint32_t n = f->fn->code.len, base = f->code_base, nodes = n + 1;
    XInstr *code = w->code;
    /* predecessors, as offsets into one array */
    uint32_t *pred_start = xcalloc(nodes + 1, sizeof *pred_start);
    uint32_t succ[2];
    for (uint32_t i = 0; i < n; i++)
        for (unsigned k = successors(code, base, n, i, succ); k--;)
            pred_start[succ[k] + 1]++;
    for (uint32_t v = 0; v < nodes; v++)
        pred_start[v + 1] += pred_start[v];
    uint32_t *preds = xmalloc((pred_start[nodes] + 1) * sizeof *preds);
    uint32_t *fill = xmalloc(nodes * sizeof *fill);
    memcpy(fill, pred_start, nodes * sizeof *fill);
    for (uint32_t i = 0; i < n; i++)
        for (unsigned k = successors(code, base, n, i, succ); k--;)
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
            for (unsigned s = successors(code, base, n, v, succ); s--;) {
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
        if (x->op == OP_BRA && x->guard && ipdom[i] != NO_SLOT && ipdom[i] < n)
            code[base + ipdom[i]].reconverge = true;
    }
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
static bool postdominates(const Warp *w, uint32_t p, uint32_t q)
{
    const XInstr *a = &w->code[p], *b = &w->code[q];
    return a->pdom_in != NO_SLOT && b->pdom_in != NO_SLOT && a->pdom_in <= b->pdom_in && b->pdom_out <= a->pdom_out;
}

/* A call's argument or result: a .param variable of the caller, in its frame. */
static bool call_slot(const Loader *ld, const Operand *p, FrameSlot *slot)
{
    Symbol s;
    if (p->kind != OPND_SYM || !find_symbol(ld, p, &s) || s.space != SPACE_LOCAL)
        return false;
    *slot = (FrameSlot){ (uint32_t)s.address, s.size };
    return true;
}

/* call{.uni} (rets), f, (args){, prototype}: the .param variables passed, and the callee. */
static void load_call(Loader *ld, const Instr *in, XInstr *x)
{
    Warp *w = ld->w;
    const Operand *ops = in->operands;
    unsigned n = in->operand_count, i = 0;
    CallSite site;
    memset(&site, 0, sizeof site);
    const Operand *rets = NULL, *args = NULL;
    if (i < n && ops[i].kind == OPND_LIST)
        rets = &ops[i++];
    const Operand *target = i < n ? &ops[i++] : NULL;
    if (i < n && ops[i].kind == OPND_LIST)
        args = &ops[i++];
    if (!target || (rets && rets->count > MAX_CALL_PARAMS) || (args && args->count > MAX_CALL_PARAMS)) {
        cannot(ld, in, "this call");
        return;
    }
    site.callee = NO_SLOT;
    for (uint32_t k = 0; target->kind == OPND_SYM && k < w->m->functions.len; k++)
        if (w->m->functions.data[k]->is_entry && w->m->functions.data[k]->name == target->u.ref.name) {
            diag_at(w->diag, DIAG_ERROR, in->at, "'%s' is a kernel (.entry): only a .func can be called",
                    target->u.ref.name);
            ld->failed = true;
            return;
        }
    if (target->kind == OPND_SYM) {
        for (uint32_t k = 0; k < w->func_count; k++)
            if (w->funcs[k].fn->name == target->u.ref.name)
                site.callee = k;
        if (site.callee == NO_SLOT) {
            char what[160];
            snprintf(what, sizeof what, "a call of '%s' (no body: an external function such as vprintf)",
                     target->u.ref.name);
            cannot(ld, in, what);
            return;
        }
    } else if (target->kind == OPND_REG) {
        site.target_row = ld->cur->row_base + target->u.slot;
    } else {
        cannot(ld, in, "this call target");
        return;
    }
    site.caller = (uint32_t)(ld->cur - w->funcs);
    for (unsigned k = 0; rets && k < rets->count; k++)
        if (!call_slot(ld, &rets->u.group.elems[k], &site.rets[k]))
            cannot(ld, in, "a call whose results are not .param variables of the caller");
    for (unsigned k = 0; args && k < args->count; k++)
        if (!call_slot(ld, &args->u.group.elems[k], &site.args[k]))
            cannot(ld, in, "a call whose arguments are not .param variables of the caller");
    site.ret_count = (uint8_t)(rets ? rets->count : 0);
    site.arg_count = (uint8_t)(args ? args->count : 0);
    w->calls = xrealloc(w->calls, (w->call_count + 1) * sizeof *w->calls);
    w->calls[w->call_count] = site;
    x->target = w->call_count++;
    if (site.callee == NO_SLOT) {
        x->src[0] = site.target_row;
        x->src_count = 1;
    }
}

/* Every register gets a name (range registers never used by name included), for the lanes
 * file and the output. */
static void name_registers(Warp *w)
{
    Function *f = w->fn;
    for (uint32_t i = 0; i < f->decls.len; i++) {
        const Decl *d = &f->decls.data[i];
        if (d->space != SPACE_REG || !d->has_range)
            continue;
        VEC(Register) *regs = (void *)(d->type == TYPE_PRED ? (void *)&f->preds : (void *)&f->regs);
        for (uint32_t k = 0; k < d->range; k++) {
            Register *r = &regs->data[d->first_slot + k];
            if (!r->name) {
                char name[128];
                int n = snprintf(name, sizeof name, "%s%u", d->name, k);
                r->name = intern(&w->m->names, name, (size_t)n);
            }
        }
    }
}

Warp *exec_load(Module *m, Function *fn, Diag *diag, uint32_t stack_bytes)
{
    Warp *w = xcalloc(1, sizeof *w);
    Block *block = xcalloc(1, sizeof *block);
    block->warps[0] = w;
    block->warp_count = 1;
    w->block = block;
    w->mem = &block->mem;
    w->m = m;
    w->fn = fn;
    w->diag = diag;
    Loader ld = { .w = w };
    memset(ld.sreg_row, 0xff, sizeof ld.sreg_row);
    /* The kernel first, then every other function with a body, each with its own code range,
     * register rows and predicate slots (calls are not recursive: see the call instruction). */
    w->funcs = xcalloc(m->functions.len + 1, sizeof *w->funcs);
    w->funcs[w->func_count++] = (FuncLayout){ .fn = fn };
    for (uint32_t i = 0; i < m->functions.len; i++) {
        Function *f = m->functions.data[i];
        if (f != fn && f->has_body && !f->is_entry && !f->is_snippet)
            w->funcs[w->func_count++] = (FuncLayout){ .fn = f };
    }
    uint32_t code = 0, rows = 0, preds = 0;
    for (uint32_t k = 0; k < w->func_count; k++) {
        FuncLayout *f = &w->funcs[k];
        f->code_base = code;
        f->row_base = rows;
        f->pred_base = preds;
        code += f->fn->code.len;
        rows += f->fn->regs.len;
        preds += f->fn->preds.len;
    }
    ld.total_preds = preds;
    enum { MAX_INSTRUCTIONS = 1 << 24 };
    bool too_large = rows > MAX_REGISTERS || preds > MAX_REGISTERS || code > MAX_INSTRUCTIONS;
    if (too_large)
        diag_at(diag, DIAG_ERROR, fn->at, "the program needs %u registers, %u predicates and %u instructions; "
                "ptxrun runs at most %d, %d and %d", rows, preds, code, MAX_REGISTERS, MAX_REGISTERS,
                MAX_INSTRUCTIONS);
    if (too_large || !layout_fits(w, diag)) {
        free(w->funcs);
        free(w->block);
        free(w);
        return NULL;
    }
    w->kernel_code_len = fn->code.len;
    w->active = xcalloc(w->func_count, sizeof *w->active);
    rows = layout_frames(&ld.layout, w, rows);
    w->reg_count = rows;
    w->row_count = rows;
    w->code_len = code;
    w->code = xcalloc(code ? code : 1, sizeof *w->code);
    mem_init(w->mem);
    block->per_warp_barriers = m->target_sm && m->target_sm < 70;
    ld.failed = !layout_memory(&ld.layout, w, stack_bytes);
    for (uint32_t k = 0; k < w->func_count && !ld.failed; k++) {
        ld.cur = &w->funcs[k];
        for (uint32_t i = 0; i < ld.cur->fn->code.len; i++)
            load_instr(&ld, &ld.cur->fn->code.data[i], &w->code[ld.cur->code_base + i]);
    }
    layout_free(&ld.layout, w->func_count);
    if (ld.failed) {
        exec_free(w);
        return NULL;
    }
    for (uint32_t k = 0; k < w->func_count; k++)
        find_reconvergence(w, &w->funcs[k]);
    /* Immediate rows follow the special registers: fix the placeholders. */
    uint32_t first_immediate = w->row_count;
    w->first_immediate = first_immediate;
    w->row_count += ld.immediates.len;
    for (uint32_t i = 0; i < w->code_len; i++) {
        XInstr *x = &w->code[i];
        for (unsigned s = 0; s < x->src_count; s++)
            if (!(x->src_pred & (1u << s)) && x->src[s] >= NO_SLOT - ld.immediates.len)
                x->src[s] = first_immediate + (NO_SLOT - 1 - x->src[s]);
        for (unsigned v = 0; v < 4; v++)          /* st and atom data (NO_SLOT itself is '_') */
            if (x->vec[v] != NO_SLOT && x->vec[v] >= NO_SLOT - ld.immediates.len)
                x->vec[v] = first_immediate + (NO_SLOT - 1 - x->vec[v]);
    }
    w->val = xcalloc(w->row_count ? w->row_count : 1, sizeof *w->val);
    w->defined = xcalloc(w->row_count ? w->row_count : 1, sizeof *w->defined);
    for (uint32_t i = 0; i < ld.immediates.len; i++) {
        for (int l = 0; l < WARP_SIZE; l++)
            w->val[first_immediate + i][l] = ld.immediates.data[i];
        w->defined[first_immediate + i] = ALL_LANES;
    }
    w->pred_count = ld.total_preds + 2;
    w->pred = xcalloc(w->pred_count, sizeof *w->pred);
    w->pred_defined = xcalloc(w->pred_count, sizeof *w->pred_defined);
    w->pred[ld.total_preds + 1] = ALL_LANES;           /* the constant true */
    w->pred_defined[ld.total_preds] = w->pred_defined[ld.total_preds + 1] = ALL_LANES;
    /* Special registers: always defined; exec_set_block fills their rows. */
    for (int s = 0; s < SREG_COUNT; s++)
        for (int c = 0; c < 4; c++)
            if (ld.sreg_row[s][c] != NO_SLOT)
                w->defined[ld.sreg_row[s][c]] = ALL_LANES;
    memcpy(w->sreg_rows, ld.sreg_row, sizeof w->sreg_rows);
    name_registers(w);
    uint32_t full[3] = { WARP_SIZE, 1, 1 }, one[3] = { 1, 1, 1 };
    exec_set_grid(w, one);
    exec_set_block(w, full, ALL_LANES);
    return w;
}

uint8_t *exec_param_bytes(const Warp *w, uint32_t i, uint8_t **shadow, uint32_t *size)
{
    const FrameSlot *p = &w->funcs[0].params[i];
    *size = p->size;
    return mem_thread_bytes(w->mem, w->param_region, 0, p->offset, p->size, shadow);
}

Function *exec_entry(Module *m, const char *name)
{
    for (uint32_t i = 0; i < m->functions.len; i++) {
        Function *f = m->functions.data[i];
        if (f->is_entry && f->has_body && (!name || strcmp(f->name, name) == 0))
            return f;
    }
    return NULL;
}

/* ---- reports ---- */

/* "0-3, 7" with separator ", " */
void exec_lane_ranges(char *buf, size_t size, uint32_t lanes, const char *separator)
{
    size_t len = 0;
    buf[0] = '\0';
    bool first = true;
    for (int l = 0; l < WARP_SIZE && len < size; l++) {
        if (!(lanes >> l & 1))
            continue;
        int end = l;
        while (end + 1 < WARP_SIZE && (lanes >> (end + 1) & 1))
            end++;
        len += (size_t)snprintf(buf + len, size - len, "%s%d", first ? "" : separator, l);
        if (end > l && len < size)
            len += (size_t)snprintf(buf + len, size - len, "-%d", end);
        first = false;
        l = end;
    }
}

/* "lanes 0-3, 7", "lane 5"; in a CTA of several warps "warp 1 lanes 0-3". */
void exec_format_lanes(const Warp *w, char *buf, size_t size, uint32_t lanes)
{
    int n = 0;
    if (w->block->warp_count > 1)
        n = snprintf(buf, size, "warp %u ", w->index);
    n += snprintf(buf + n, size - (size_t)n, "%s", __builtin_popcount(lanes) == 1 ? "lane " : "lanes ");
    exec_lane_ranges(buf + n, size - (size_t)n, lanes, ", ");
}

/* A fault names the place; in a CTA of several warps or a grid, a note says which warp of
 * which CTA it was. */
void exec_fault(Warp *w, uint32_t pc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    Span at = pc < w->code_len ? w->code[pc].ir->stmt_at : (Span){ w->m->src->len, 0 };
    diag_vat(w->diag, DIAG_ERROR, at, fmt, ap);
    va_end(ap);
    const Block *b = w->block;
    if (b->warp_count > 1 || b->nctaid[0] * b->nctaid[1] * b->nctaid[2] > 1)
        diag_at(w->diag, DIAG_NOTE, at, "in warp %u (threads %u-%u) of CTA (%u, %u, %u)", w->index, w->thread_base,
                w->thread_base + WARP_SIZE - 1, b->ctaid[0], b->ctaid[1], b->ctaid[2]);
    w->faulted = true;
}

/* Undefined values used where they decide something: one warning per place and kind,
 * collecting the lanes; with --strict, the first one stops the run. */
void exec_warn(Warp *w, uint32_t pc, uint32_t lanes, const char *what)
{
    for (uint32_t i = 0; i < w->warnings.len; i++) {
        Warning *x = &w->warnings.data[i];
        if (x->pc == pc && x->what == what) {
            x->lanes |= lanes;
            return;
        }
    }
    Warning x = { pc, lanes, what };
    VEC_PUSH(&w->m->arena, w->warnings, x);
}

void exec_report_warnings(Warp *w, bool strict)
{
    for (uint32_t i = 0; i < w->warnings.len; i++) {
        const Warning *x = &w->warnings.data[i];
        char lanes[200];
        exec_format_lanes(w, lanes, sizeof lanes, x->lanes);
        diag_at(w->diag, strict ? DIAG_ERROR : DIAG_WARNING, w->code[x->pc].ir->stmt_at,
                "%s in %s", x->what, lanes);
    }
}

/* Whether two synchronising instructions are of one kind: the same opcode, types and modifiers. */
static bool same_kind(const XInstr *a, const XInstr *b)
{
    const Instr *x = a->ir, *y = b->ir;
    return x->op == y->op && x->type_count == y->type_count && x->mod_count == y->mod_count &&
           memcmp(x->types, y->types, x->type_count) == 0 && memcmp(x->mods, y->mods, x->mod_count) == 0;
}

/* For a deadlock: where each lane waiting at a warp-level synchronising instruction waits, and
 * for whom (barrier waits: barrier.c). */
void exec_report_waits(Warp *w)
{
    uint32_t alive = w->launched & ~w->exited;
    uint32_t left = w->waiting & ~w->at_barrier;
    bool mismatch_told = false;
    while (left) {
        int l = __builtin_ctz(left);
        Arrival a = w->arrival[l];
        const XInstr *x = &w->code[a.pc];
        uint32_t group = 0;
        for (int k = 0; k < WARP_SIZE; k++)
            if ((left >> k & 1) && w->arrival[k].pc == a.pc && w->arrival[k].membermask == a.membermask)
                group |= 1u << k;
        left &= ~group;
        uint32_t missing = a.membermask & alive & ~group;
        char who[200], whom[200];
        exec_format_lanes(w, who, sizeof who, group);
        int n = snprintf(whom, sizeof whom, "%s", __builtin_popcount(missing) == 1 ? "lane " : "lanes ");
        exec_lane_ranges(whom + n, sizeof whom - (size_t)n, missing, ", ");
        diag_at(w->diag, DIAG_NOTE, x->ir->stmt_at, "%s wait%s here (membermask 0x%08x) for %s", who,
                __builtin_popcount(group) == 1 ? "s" : "", a.membermask, whom);
        for (int k = 0; k < WARP_SIZE; k++) {
            if (!(missing >> k & 1))
                continue;
            const XInstr *y = &w->code[w->arrival[k].pc];
            bool at_barrier = w->at_barrier >> k & 1;
            if (!mismatch_told && (at_barrier || !same_kind(x, y) || w->arrival[k].membermask != a.membermask)) {
                mismatch_told = true;
                if (at_barrier)
                    diag_at(w->diag, DIAG_NOTE, y->ir->stmt_at, "lane %d waits at '%s' (a CTA barrier), so it "
                            "never arrives at '%s'", k, y->ir->mnemonic, x->ir->mnemonic);
                else
                    diag_at(w->diag, DIAG_NOTE, y->ir->stmt_at,
                            "lane %d waits at '%s' with membermask 0x%08x: a different instruction or mask "
                            "than '%s' with 0x%08x, so they never complete together", k, y->ir->mnemonic,
                            w->arrival[k].membermask, x->ir->mnemonic, a.membermask);
                break;
            }
        }
    }
}

/* ---- synchronisation ---- */

static void advance(Warp *w, uint32_t mask, uint32_t next);

/* The lanes of `lanes` whose guard holds; `undefined` gets those whose guard is undefined. */
static uint32_t guard_lanes(const Warp *w, const XInstr *x, uint32_t lanes, uint32_t *undefined)
{
    *undefined = 0;
    if (!x->guard)
        return lanes;
    uint32_t p = w->pred[x->guard_pred];
    *undefined = lanes & ~w->pred_defined[x->guard_pred];
    return lanes & (x->guard == 1 ? p : ~p);
}

static void exchange(Warp *w, const XInstr *x, const XInstr *at, uint32_t lanes, uint32_t guard_true);

/* Lanes whose guard was undefined took part as its bits said, but what they wrote is unknown. */
static void forget_if_guard_undefined(Warp *w, const XInstr *x, uint32_t lanes)
{
    if (!x->guard || !(lanes &= ~w->pred_defined[x->guard_pred]))
        return;
    if (x->dst_kind == DST_VALUE)
        w->defined[x->dst] &= ~lanes;
    else if (x->dst_kind == DST_PRED)
        w->pred_defined[x->dst] &= ~lanes;
    if (x->dst_pred != NO_SLOT)
        w->pred_defined[x->dst_pred] &= ~lanes;
}

/* The lanes of cls, all waiting at instructions of one kind and mask, complete together. Only
 * lanes whose guard held arrived, so every one of them takes part. */
static void complete(Warp *w, uint32_t cls)
{
    uint32_t pc = w->arrival[__builtin_ctz(cls)].pc;
    const XInstr *x = &w->code[pc];
    bool one_pc = true;
    for (uint32_t k = cls; k && one_pc; k &= k - 1)
        one_pc = w->arrival[__builtin_ctz(k)].pc == pc;
    exchange(w, x, one_pc ? x : NULL, cls, cls);
    for (uint32_t k = cls; k; k &= k - 1) {
        int lane = __builtin_ctz(k);
        const XInstr *own = &w->code[w->arrival[lane].pc];
        forget_if_guard_undefined(w, own, 1u << lane);
        w->pc[lane] = w->arrival[lane].pc + 1;
        if (w->trace && (w->waiting >> lane & 1)) {
            if (!w->trace->released || w->arrival[lane].since < w->trace->waited_since)
                w->trace->waited_since = w->arrival[lane].since;
            w->trace->released |= 1u << lane;
        }
    }
    w->waiting &= ~cls;
}

/* Completes every set of waiting lanes whose membermask has all arrived (exited lanes never
 * block). Lanes waiting at instructions of another kind or mask are not counted as arrived. */
static void try_complete(Warp *w)
{
    uint32_t pending = w->waiting & ~w->at_barrier;
    uint32_t alive = w->launched & ~w->exited;
    while (pending) {
        int l = __builtin_ctz(pending);
        Arrival a = w->arrival[l];
        const XInstr *x = &w->code[a.pc];
        uint32_t cls = 0;
        for (uint32_t k = w->waiting & ~w->at_barrier; k; k &= k - 1) {
            int lane = __builtin_ctz(k);
            if (w->arrival[lane].membermask == a.membermask && same_kind(&w->code[w->arrival[lane].pc], x))
                cls |= 1u << lane;
        }
        pending &= ~cls;
        if ((a.membermask & alive & ~cls) == 0)
            complete(w, cls);
    }
}

/* The exchange itself, for lanes that complete together (at one instruction `at`, or each
 * at its own when `at` is NULL). */
static void exchange(Warp *w, const XInstr *x, const XInstr *at, uint32_t lanes, uint32_t guard_true)
{
    switch (x->op) {
    case OP_SHFL_SYNC: warp_shfl(w, at, lanes, lanes, guard_true); break;
    case OP_VOTE_SYNC: warp_vote(w, at, lanes, guard_true); break;
    case OP_MATCH: warp_match(w, at, lanes, guard_true); break;
    case OP_REDUX_SYNC: warp_redux(w, at, lanes, guard_true); break;
    case OP_ELECT_SYNC: warp_elect(w, at, lanes, guard_true); break;
    default: break;                       /* barriers: meeting is all they do */
    }
}

/* Lanes of mask reach the synchronising instruction at pc. Those whose guard is false do not
 * execute it: they go on to the next instruction without arriving (ptxas branches around a
 * guarded warp-synchronous instruction), are not checked for their membermask bit, and meet
 * the others at their next instruction of the same kind. CTA barriers: barrier.c. */
static void arrive(Warp *w, uint32_t pc, uint32_t mask)
{
    const XInstr *x = &w->code[pc];
    uint32_t guard_undefined;
    uint32_t run = guard_lanes(w, x, mask, &guard_undefined);
    if (guard_undefined)
        exec_warn(w, pc, guard_undefined, "undefined guard predicate");
    if (run != mask)
        advance(w, mask & ~run, pc + 1);
    if (x->barrier) {
        barrier_arrive(w, pc, run);
        return;
    }
    mask = run;
    if (!mask)
        return;
    uint32_t row = x->src[x->src_count - 1];
    uint32_t undefined = mask & ~w->defined[row];
    if (undefined)
        exec_warn(w, pc, undefined, "undefined membermask");
    if (!w->waiting && !undefined) {
        /* Converged code: one membermask, naming exactly the lanes here (and exited ones):
         * they complete at once, without the bookkeeping of waiting. */
        uint32_t membermask = (uint32_t)w->val[row][__builtin_ctz(mask)], same = ALL_LANES;
        if (row < w->first_immediate) {
            same = 0;
            for (int l = 0; l < WARP_SIZE; l++)
                same |= (uint32_t)((uint32_t)w->val[row][l] == membermask) << l;
        }
        if ((same & mask) == mask && (membermask & w->launched & ~w->exited) == mask) {
            exchange(w, x, x, mask, mask);
            forget_if_guard_undefined(w, x, mask);
            advance(w, mask, pc + 1);
            return;
        }
    }
    for (uint32_t k = mask; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint32_t membermask = (uint32_t)w->val[row][l];
        if (!(membermask >> l & 1)) {
            exec_fault(w, pc, "lane %d executes '%s' with membermask 0x%08x, which does not include "
                       "the lane itself", l, x->ir->mnemonic, membermask);
            return;
        }
        w->arrival[l] = (Arrival){ pc, membermask, w->steps };
    }
    w->waiting |= mask;
    try_complete(w);
    if (w->trace)
        w->trace->waiting |= mask & w->waiting;
}

/* ---- calls ---- */

/* Copies n bytes of one lane's .local stack, from one address to another. */
static void copy_local(Warp *w, int lane, uint32_t from, uint32_t to, uint32_t n)
{
    uint32_t thread = w->thread_base + (uint32_t)lane;
    uint8_t *sa, *sb;
    uint8_t *a = mem_thread_bytes(w->mem, w->local_region, thread, from, n, &sa);
    uint8_t *b = mem_thread_bytes(w->mem, w->local_region, thread, to, n, &sb);
    if (!a || !b)
        BUG("a call's parameter outside the stack");
    memmove(b, a, n);
    memmove(sb, sa, n);
}

/* Where the frame of the function a lane runs starts: the kernel's at 0. */
static uint32_t frame_base(const Warp *w, uint32_t func, int lane)
{
    const FuncLayout *f = &w->funcs[func];
    return f->frame_row == NO_SLOT ? 0 : (uint32_t)w->val[f->frame_row][lane];
}

/* Recursion: registers belong to the function, not the call, so entering a function the lane
 * is already in saves the outer activation's registers, predicates and frame addresses, and
 * returning restores them. The frames themselves are apart on the stack. */
static void save_bytes(SaveArea *s, const void *p, size_t n)
{
    if (s->len + n > s->cap) {
        s->cap = (s->len + n) * 2;
        s->data = xrealloc(s->data, s->cap);
    }
    memcpy(s->data + s->len, p, n);
    s->len += n;
}

static void save_row(SaveArea *s, const Warp *w, uint32_t row, int l)
{
    uint64_t v = w->val[row][l];
    uint8_t d = (uint8_t)(w->defined[row] >> l & 1);
    save_bytes(s, &v, sizeof v);
    save_bytes(s, &d, 1);
}

static const uint8_t *restore_row(Warp *w, uint32_t row, int l, const uint8_t *p)
{
    uint32_t bit = 1u << l;
    memcpy(&w->val[row][l], p, 8);
    w->defined[row] = p[8] ? w->defined[row] | bit : w->defined[row] & ~bit;
    return p + 9;
}

static void save_activation(Warp *w, const FuncLayout *f, int l)
{
    SaveArea *s = &w->saves[l];
    for (uint32_t r = 0; r < f->fn->regs.len; r++)
        save_row(s, w, f->row_base + r, l);
    for (uint32_t r = 0; f->frame_row != NO_SLOT && r <= f->frame_vars; r++)
        save_row(s, w, f->frame_row + r, l);
    for (uint32_t p = 0; p < f->fn->preds.len; p++) {
        uint8_t bits = (uint8_t)((w->pred[f->pred_base + p] >> l & 1) | (w->pred_defined[f->pred_base + p] >> l & 1) << 1);
        save_bytes(s, &bits, 1);
    }
}

static void restore_activation(Warp *w, const FuncLayout *f, int l, size_t at)
{
    SaveArea *s = &w->saves[l];
    const uint8_t *p = s->data + at;
    uint32_t bit = 1u << l;
    for (uint32_t r = 0; r < f->fn->regs.len; r++)
        p = restore_row(w, f->row_base + r, l, p);
    for (uint32_t r = 0; f->frame_row != NO_SLOT && r <= f->frame_vars; r++)
        p = restore_row(w, f->frame_row + r, l, p);
    for (uint32_t q = 0; q < f->fn->preds.len; q++, p++) {
        uint32_t slot = f->pred_base + q;
        w->pred[slot] = (*p & 1) ? w->pred[slot] | bit : w->pred[slot] & ~bit;
        w->pred_defined[slot] = (*p & 2) ? w->pred_defined[slot] | bit : w->pred_defined[slot] & ~bit;
    }
    s->len = at;
}

/* A new frame for lane l at the end of its stack: its bytes undefined (a GPU's stack holds
 * what earlier calls left), its address and its variables' in the function's frame rows.
 * False after a fault: the stack (--stack bytes beyond the kernel's frame) is full. */
static bool push_frame(Warp *w, uint32_t pc, uint32_t callee, int l, uint32_t *base)
{
    const FuncLayout *f = &w->funcs[callee];
    const Region *local = &w->mem->regions[w->local_region];
    uint32_t at = (w->sp[l] + f->frame_align - 1) & ~(f->frame_align - 1);
    if ((uint64_t)w->charged[l] + f->charge > w->stack_bytes) {
        exec_fault(w, pc, "lane %d: the stack overflows: calling '%s' (%u bytes of .local and return address) "
                   "at depth %u needs %llu bytes of stack; each thread has %u (--stack)", l, f->fn->name,
                   f->charge, w->depth[l] + 1, (unsigned long long)w->charged[l] + f->charge, w->stack_bytes);
        return false;
    }
    uint64_t end = (uint64_t)at + f->frame_size;
    if (end > local->size && !mem_grow_per_lane(w->mem, w->local_region, end > 2 * local->size ? end : 2 * local->size) &&
        !mem_grow_per_lane(w->mem, w->local_region, end)) {
        exec_fault(w, pc, "lane %d: calling '%s' at depth %u, the threads' stacks together need more than the %d MiB "
                   "ptxrun holds for one variable", l, f->fn->name, w->depth[l] + 1, MAX_VARIABLE_BYTES >> 20);
        return false;
    }
    uint8_t *shadow;
    if (mem_thread_bytes(w->mem, w->local_region, w->thread_base + (uint32_t)l, at, f->frame_size, &shadow))
        memset(shadow, 0, f->frame_size);
    if (w->depth[l] == w->stack_cap[l]) {
        w->stack_cap[l] = w->stack_cap[l] ? 2 * w->stack_cap[l] : 8;
        w->stack[l] = xrealloc(w->stack[l], w->stack_cap[l] * sizeof *w->stack[l]);
    }
    *base = at;
    w->sp[l] = (uint32_t)end;
    w->charged[l] += f->charge;
    return true;
}

static void set_frame_rows(Warp *w, const FuncLayout *f, int l, uint32_t base)
{
    uint32_t bit = 1u << l;
    w->val[f->frame_row][l] = base;
    w->defined[f->frame_row] |= bit;
    for (uint32_t i = 0; i < f->frame_vars; i++) {
        w->val[f->frame_row + 1 + i][l] = base + f->var_offset[i];
        w->defined[f->frame_row + 1 + i] |= bit;
    }
}

/* The lanes of run call their function: a frame pushed, the arguments copied into it. */
static void call(Warp *w, uint32_t pc, uint32_t run)
{
    const XInstr *x = &w->code[pc];
    const CallSite *site = &w->calls[x->target];
    for (uint32_t k = run; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint32_t callee = site->callee;
        if (callee == NO_SLOT) {                 /* through a function address */
            uint64_t a = w->val[site->target_row][l];
            uint64_t index = (a - MEM_FUNC_BASE) / 16;
            if (!(w->defined[site->target_row] >> l & 1) || a < MEM_FUNC_BASE || (a - MEM_FUNC_BASE) % 16 ||
                index >= w->func_count || index == 0) {        /* funcs[0] is the kernel */
                exec_fault(w, pc, "lane %d calls 0x%llx, which is not the address of a function", l,
                           (unsigned long long)a);
                return;
            }
            callee = (uint32_t)index;
        }
        const FuncLayout *cf = &w->funcs[callee];
        const Function *f = cf->fn;
        if (site->arg_count != f->params.len || site->ret_count > f->returns.len) {
            exec_fault(w, pc, "lane %d calls '%s' with %u arguments and %u results; it takes %u and gives %u", l,
                       f->name, site->arg_count, site->ret_count, f->params.len, f->returns.len);
            return;
        }
        bool recursive = w->active[callee][l] > 0;
        uint32_t caller_base = frame_base(w, site->caller, l), caller_sp = w->sp[l], base;
        if (!push_frame(w, pc, callee, l, &base))
            return;
        size_t saved_at = w->saves[l].len;
        if (recursive)
            save_activation(w, cf, l);
        for (unsigned i = 0; i < site->arg_count; i++) {
            uint32_t n = site->args[i].size < cf->params[i].size ? site->args[i].size : cf->params[i].size;
            copy_local(w, l, caller_base + site->args[i].offset, base + cf->params[i].offset, n);
        }
        set_frame_rows(w, cf, l, base);
        w->active[callee][l]++;
        w->stack[l][w->depth[l]++] = (Frame){ pc + 1, pc, callee, caller_sp, recursive, saved_at };
        w->pc[l] = cf->code_base;
    }
}

/* ret: from a function, results copied back and the frame popped; from the kernel, the end. */
static void ret(Warp *w, uint32_t run)
{
    for (uint32_t k = run; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        if (w->depth[l] == 0) {
            w->exited |= 1u << l;
            continue;
        }
        Frame f = w->stack[l][--w->depth[l]];
        const CallSite *site = &w->calls[w->code[f.call_pc].target];
        const FuncLayout *cf = &w->funcs[f.callee];
        uint32_t base = frame_base(w, f.callee, l);
        if (f.saved)
            restore_activation(w, cf, l, f.saved_at);
        uint32_t caller_base = frame_base(w, site->caller, l);
        for (unsigned i = 0; i < site->ret_count; i++) {
            const FrameSlot *from = &cf->params[cf->fn->params.len + i];
            uint32_t n = site->rets[i].size < from->size ? site->rets[i].size : from->size;
            copy_local(w, l, base + from->offset, caller_base + site->rets[i].offset, n);
        }
        uint8_t *shadow;                     /* a returned frame's bytes are no one's: undefined */
        if (mem_thread_bytes(w->mem, w->local_region, w->thread_base + (uint32_t)l, base, cf->frame_size, &shadow))
            memset(shadow, 0, cf->frame_size);
        w->sp[l] = f.caller_sp;
        w->charged[l] -= cf->charge;
        w->active[f.callee][l]--;
        w->pc[l] = f.return_pc;
    }
}

/* ---- the loop ---- */

static void advance(Warp *w, uint32_t mask, uint32_t next)
{
    if (mask == ALL_LANES) {
        for (int l = 0; l < WARP_SIZE; l++)
            w->pc[l] = next;
        return;
    }
    if (!mask)
        return;
    for (int l = 0; l < WARP_SIZE; l++)
        w->pc[l] = (mask >> l & 1) ? next : w->pc[l];
}

static int lane_count(uint32_t mask)
{
    mask = mask - ((mask >> 1) & 0x55555555u);
    mask = (mask & 0x33333333u) + ((mask >> 2) & 0x33333333u);
    return (int)((((mask + (mask >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

/* Branches, calls, returns, exit and trap (FAM_CONTROL) for the lanes of mask at pc, run of them
 * with a true guard (undefined: with an undefined one). Returns what step() returns. */
static uint32_t control(Warp *w, const XInstr *x, uint32_t pc, uint32_t mask, uint32_t run, uint32_t undefined)
{
    switch (x->op) {
    case OP_BRA: {
        if (undefined)
            exec_warn(w, pc, undefined, "undefined branch condition");
        uint32_t stay = mask & ~run;
        if (x->mode == MOD_UNI && run && stay)
            exec_warn(w, pc, mask, "bra.uni whose lanes disagree");
        advance(w, run, x->target);
        advance(w, stay, pc + 1);
        return run == mask ? x->target : stay == mask ? pc + 1 : NO_SLOT;
    }
    case OP_EXIT:
    case OP_RET:
        if (undefined)
            exec_warn(w, pc, undefined, "undefined guard predicate");
        advance(w, mask & ~run, pc + 1);
        if (x->op == OP_EXIT) {
            w->exited |= run;
            for (uint32_t k = run; k; k &= k - 1)
                w->depth[__builtin_ctz(k)] = 0;
        } else {
            ret(w, run);
        }
        if (run && w->waiting)
            try_complete(w);
        if (run)
            barrier_threads_exited(w->block);
        return NO_SLOT;
    case OP_CALL:
        if (undefined)
            exec_warn(w, pc, undefined, "undefined guard predicate");
        advance(w, mask & ~run, pc + 1);
        call(w, pc, run);
        return NO_SLOT;
    case OP_TRAP:
        if (undefined)
            exec_warn(w, pc, undefined, "undefined guard predicate");
        advance(w, mask & ~run, pc + 1);
        if (run) {
            char lanes[200];
            exec_format_lanes(w, lanes, sizeof lanes, run);
            exec_fault(w, pc, "'trap' executed by %s: the kernel is aborted", lanes);
            return NO_SLOT;
        }
        advance(w, mask, pc + 1);
        return pc + 1;
    default:
        BUG("control op %d", x->op);
    }
}

/* Executes the instruction at pc for the lanes of mask. Returns the pc they all continue at,
 * or NO_SLOT when they part, wait or end (the scheduler then looks at every lane). */
static uint32_t step(Warp *w, uint32_t pc, uint32_t mask)
{
    const XInstr *x = &w->code[pc];
    uint32_t undefined;
    uint32_t run = guard_lanes(w, x, mask, &undefined);
    switch ((Family)x->family) {
    case FAM_CONTROL:
        return control(w, x, pc, mask, run, undefined);
    case FAM_SYNC:
    case FAM_BARRIER:
        arrive(w, pc, mask);
        return w->waiting & mask ? NO_SLOT : pc + 1;
    case FAM_FENCE:
        break;                     /* every access is performed in program order already */
    case FAM_ATOMIC:
        mem_atomic(w, x, run);
        if (w->faulted)
            return NO_SLOT;
        break;
    case FAM_MEMORY:
        mem_execute(w, x, run);
        if (w->faulted)
            return NO_SLOT;
        break;
    case FAM_WARP:
        warp_execute(w, x, mask, run);
        break;
    case FAM_CONVERT:
        convert_execute(w, x, run);
        break;
    case FAM_ALU:
        if (x->pack || x->unpack)
            alu_move_parts(w, x, run);
        else
            alu_execute(w, x, run);
        break;
    case FAM_BITOPS:
        bitops_execute(w, x, run);
        break;
    case FAM_MATHOPS:
        mathops_execute(w, x, run);
        break;
    case FAM_NONE:
    case FAM_COUNT:
        BUG("'%s' was loaded, but no part of the executor runs it", op_info[x->op].name);
    }
    if (undefined) {               /* written or not, nobody can say */
        if (x->dst_kind == DST_VALUE)
            w->defined[x->dst] &= ~undefined;
        else if (x->dst_kind == DST_PRED)
            w->pred_defined[x->dst] &= ~undefined;
        if (x->dst_pred != NO_SLOT)
            w->pred_defined[x->dst_pred] &= ~undefined;
    }
    advance(w, mask, pc + 1);
    return pc + 1;
}

/* Where lane m is, seen from the function activation lane l is in: its pc when it is in the
 * same one, the call it made from there when it is deeper, NO_SLOT when it is elsewhere. */
static uint32_t position_seen_by(const Warp *w, int m, int l)
{
    unsigned depth = w->depth[l];
    if (w->depth[m] < depth)
        return NO_SLOT;
    for (unsigned d = 0; d < depth; d++)
        if (w->stack[m][d].call_pc != w->stack[l][d].call_pc || w->stack[m][d].callee != w->stack[l][d].callee)
            return NO_SLOT;
    return w->depth[m] == depth ? w->pc[m] : w->stack[m][depth].call_pc;
}

/* Whether lane l's pc is inside its function (not run off its end). */
static bool inside_function(const Warp *w, int l)
{
    const FuncLayout *f = &w->funcs[w->depth[l] ? w->stack[l][w->depth[l] - 1].callee : 0];
    return w->pc[l] - f->code_base < f->fn->code.len;
}

/* The lanes of `group`, all at one pc, that wait there because it is a reconvergence point: a
 * lane there waits while another ready lane of the same activation is at an instruction the
 * point post-dominates (one that will come to it). So lanes that leave a loop early wait at
 * its exit for the others, as the lanes of an if/else meet after it. Lanes waiting at
 * synchronising instructions are not ready, and hold nobody. */
static uint32_t held_at(const Warp *w, uint32_t group, uint32_t ready)
{
    int first = __builtin_ctz(group);
    uint32_t p = w->pc[first], held = 0;
    if (!(ready & ~group) || p >= w->code_len || !w->code[p].reconverge || !inside_function(w, first))
        return 0;
    while (group) {
        int l = __builtin_ctz(group);
        uint32_t same = 1u << l;
        if (w->depth[l] == 0)              /* lanes of the kernel at one pc: the same answer */
            for (uint32_t k = group & (group - 1); k; k &= k - 1)
                same |= (uint32_t)(w->depth[__builtin_ctz(k)] == 0) << __builtin_ctz(k);
        group &= ~same;
        for (uint32_t k = ready & ~same; k; k &= k - 1) {
            int m = __builtin_ctz(k);
            uint32_t q = position_seen_by(w, m, l);
            if (q != NO_SLOT && q != p && (q != w->pc[m] || inside_function(w, m)) && postdominates(w, p, q)) {
                held |= same;
                break;
            }
        }
    }
    return held;
}

/* The lanes of `candidates` at the lowest pc among them; *pc_out gets the pc. */
static uint32_t lowest_group(const Warp *w, uint32_t candidates, uint32_t *pc_out)
{
    uint32_t lowest = NO_SLOT, mask = 0;
    for (int l = 0; l < WARP_SIZE; l++) {
        uint32_t pc = (candidates >> l & 1) ? w->pc[l] : NO_SLOT;
        lowest = pc < lowest ? pc : lowest;
    }
    for (int l = 0; l < WARP_SIZE; l++)
        mask |= (uint32_t)(w->pc[l] == lowest) << l;
    mask &= candidates;
    *pc_out = lowest;
    return mask;
}

/* The next lanes to run: those at the lowest pc among the ready lanes that are not held at a
 * reconvergence point, unless a ready lane has waited STARVE_STEPS or more (a held one
 * HOLD_STEPS), which then runs, with the lanes at its pc, first. */
static uint32_t choose(Warp *w, uint32_t ready, uint32_t *pc_out)
{
    uint32_t candidates = ready, mask = 0, lowest = NO_SLOT, starving = 0;
    while (candidates) {
        mask = lowest_group(w, candidates, &lowest);
        uint32_t held = held_at(w, mask, ready);
        if (mask & ~held) {
            mask &= ~held;
            break;
        }
        candidates &= ~mask;
    }
    if (mask == ready) {
        *pc_out = lowest;
        return mask;
    }
    if (w->steps >= STARVE_STEPS) {
        uint64_t due = w->steps - STARVE_STEPS;
        for (int l = 0; l < WARP_SIZE; l++)
            starving |= (uint32_t)(w->last_run[l] <= due) << l;
        starving &= ready;
    }
    if (starving) {                        /* rare: only now does it pay to know who is held */
        uint32_t held = 0;
        for (uint32_t left = ready; left;) {
            uint32_t pc, group = lowest_group(w, left, &pc);
            held |= held_at(w, group, ready);
            left &= ~group;
        }
        uint64_t oldest = w->steps;
        int starved = -1;
        for (uint32_t k = starving; k; k &= k - 1) {
            int l = __builtin_ctz(k);
            uint64_t patience = (held >> l & 1) ? HOLD_STEPS : STARVE_STEPS;
            if (w->last_run[l] + patience <= w->steps && w->last_run[l] < oldest) {
                oldest = w->last_run[l];
                starved = l;
            }
        }
        if (starved >= 0) {
            lowest = w->pc[starved];
            mask = 0;
            for (int l = 0; l < WARP_SIZE; l++)
                mask |= (uint32_t)((ready >> l & 1) && w->pc[l] == lowest) << l;
        }
    }
    for (uint32_t k = mask; k; k &= k - 1)
        w->last_run[__builtin_ctz(k)] = w->steps + 1;
    *pc_out = lowest;
    return mask;
}

/* Gets the warp ready to run from the start of the kernel. */
void warp_reset(Warp *w)
{
    for (int l = 0; l < WARP_SIZE; l++) {
        w->pc[l] = 0;
        w->last_run[l] = 0;
        w->depth[l] = 0;
        w->saves[l].len = 0;
        w->sp[l] = w->funcs[0].frame_size;
        w->charged[l] = 0;
        for (uint32_t k = 0; k < w->func_count; k++)
            w->active[k][l] = 0;
    }
    w->exited = 0;
    w->waiting = 0;
    w->at_barrier = 0;
    w->carry = w->carry_defined = w->carry_by_sub = 0;
    w->steps = 0;
    w->previous_ready = 0;
    w->next_pc = NO_SLOT;
    w->last_mask = 0;
}

/* Runs the warp's ready lanes for at most `slice` warp-steps; stops early when none is ready
 * (all ended, or all wait), on a fault, or at the block's --max-steps. Returns whether any lane
 * was ready. */
bool warp_run(Warp *w, const ExecOptions *o, uint64_t slice)
{
    Block *b = w->block;
    uint32_t next_pc = w->next_pc, last_mask = w->last_mask;
    uint64_t end = slice > UINT64_MAX - w->steps ? UINT64_MAX : w->steps + slice;
    bool moved = false, fast = true;           /* fast: lanes may have run without last_run kept */
    while (!w->faulted && w->steps < end) {
        uint32_t ready = w->launched & ~w->exited & ~w->waiting;
        uint32_t pc, mask;
        if (next_pc != NO_SLOT && ready == last_mask) {
            /* The lanes that just ran are all the ready ones and stayed together. */
            pc = next_pc;
            mask = ready;
            fast = true;
            goto run;
        }
        if (!ready)
            break;
        if (fast) {                             /* the lanes of the fast path ran until now */
            for (uint32_t k = last_mask; k; k &= k - 1)
                w->last_run[__builtin_ctz(k)] = w->steps;
            fast = false;
        }
        if (ready != w->previous_ready) {       /* lanes joined: none of them is starved */
            for (int l = 0; l < WARP_SIZE; l++)
                if ((ready & ~w->previous_ready) >> l & 1)
                    w->last_run[l] = w->steps;
            w->previous_ready = ready;
        }
        mask = choose(w, ready, &pc);
    run:;
        moved = true;
        int first = __builtin_ctz(mask);
        const FuncLayout *in_fn = &w->funcs[w->depth[first] ? w->stack[first][w->depth[first] - 1].callee : 0];
        if (pc >= in_fn->code_base + in_fn->fn->code.len && in_fn != w->funcs) {
            ret(w, mask);                       /* fell off the end of a function: return */
            next_pc = NO_SLOT;
            continue;
        }
        if (pc >= in_fn->code_base + in_fn->fn->code.len) {   /* fell off the kernel: the lanes end */
            w->exited |= mask;
            if (w->waiting)
                try_complete(w);
            barrier_threads_exited(b);
            next_pc = NO_SLOT;
            continue;
        }
        if (b->steps >= o->max_steps) {
            exec_fault(w, pc, "stopped after %llu warp-steps (--max-steps); lanes still running: 0x%08x",
                       (unsigned long long)b->steps, ready);
            break;
        }
        w->steps++;
        b->steps++;
        b->lane_steps += (uint64_t)lane_count(mask);
        if (o->trace) {
            StepTrace t;
            memset(&t, 0, sizeof t);
            memset(t.source, SOURCE_NONE, sizeof t.source);
            w->trace = &t;
            next_pc = step(w, pc, mask);
            trace_step(o->trace, w, o, pc, mask);
            w->trace = NULL;
        } else {
            next_pc = step(w, pc, mask);
        }
        last_mask = mask;
        if (o->strict && w->warnings.len)
            break;
    }
    w->next_pc = next_pc;
    w->last_mask = last_mask;
    return moved;
}
