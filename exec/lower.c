/* lower.c: the lowering pass. Makes the executable Program from a checked module's kernel and
 * the functions it may call, once, without writing into the IR: each instruction decoded into
 * an XInstr whose every operand is a row of lane values (registers, special registers and
 * immediates alike) or a predicate slot, with its executor family and decoded suffixes; each
 * function's code range, rows and frame (layout.c); call sites; reconvergence points (cfg.c);
 * and the memory plan, the regions of every variable, in the block's Memory. Operands are
 * lowered by operand.c, calls by callsite.c.
 * Requires: a module checked without errors. */
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "tensor.h"
#include "async.h"

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
    case OP_CVT_PACK:
        return i < 2 ? TYPE_S32 : TYPE_B32;
    case OP_VOTE: case OP_VOTE_SYNC:
        return i == 0 ? TYPE_PRED : TYPE_U32;
    case OP_BAR_WARP_SYNC:
        return TYPE_U32;
    case OP_CREATEPOLICY:                       /* the fraction; .range: the sizes (the address is src[0]) */
        return ir_has_mod(in, MOD_FRACTIONAL) ? TYPE_F32 : ir_has_mod(in, MOD_RANGE) ? TYPE_U32 : type;
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


/* Reports in's whole form (its mnemonic) as not executed. */
static void cannot_form(Loader *ld, const Instr *in)
{
    char what[96];
    snprintf(what, sizeof what, "'%s'", in->mnemonic);
    operand_cannot(ld, in, what);
}

/* Which variants of the executable opcodes the executor covers; the rest are reported. */
static void check_variant(Loader *ld, const Instr *in, const XInstr *x)
{
    bool moves_bits = in->op == OP_LD || in->op == OP_ST || in->op == OP_MOV || in->op == OP_CVT ||
                      in->op == OP_SELP || in->op == OP_TEX;   /* tex .f16 .f16x2: rounded (texture.c) */
    /* Half, packed and narrow floats (f16, f16x2, bf16x2, tf32, ...) are moved and converted,
     * never computed as a wider type. */
    /* atom, red, multimem, cp.reduce.async.bulk of halves: add, min, max of each half on its own (atomic.c) */
    bool half_atomic_add = (in->op == OP_ATOM || in->op == OP_RED || x->family == FAM_MULTIMEM || x->family == FAM_BULK) &&
                           half_type(x->type);
    bool half_arith = half_type(x->type) && ((x->family == FAM_ALU && in->op != OP_SELP) ||
                                             in->op == OP_EX2 || in->op == OP_TANH);   /* half.c, approx.c */
    bool half_float = x->cls == 'f' && x->type != TYPE_F32 && x->type != TYPE_F64 && !moves_bits &&
                      !half_atomic_add && !half_arith;
    bool min_max = in->op == OP_MIN || in->op == OP_MAX;
    bool relu_ok = (min_max && (x->type == TYPE_S32 || x->type == TYPE_S16X2)) || (in->op == OP_FMA && half_arith) || in->op == OP_CVT;
    bool min_max_f32 = min_max && (x->type == TYPE_F32 || half_arith);
    bool xorsign_ok = min_max_f32 && ir_has_mod(in, MOD_XORSIGN) && ir_has_mod(in, MOD_ABS);
    if (half_float)
        cannot_form(ld, in);
    else if ((ir_has_mod(in, MOD_CC) && x->cls == 'f') || (ir_has_mod(in, MOD_RELU) && !relu_ok) ||
             (ir_has_mod(in, MOD_NAN_) && !min_max_f32) ||
             ((ir_has_mod(in, MOD_SATFINITE) || ir_has_mod(in, MOD_RNA)) && in->op != OP_CVT) || ir_has_mod(in, MOD_RS) ||
             (ir_has_mod(in, MOD_XORSIGN) && !xorsign_ok) ||
             (ir_has_mod(in, MOD_ABS) && in->op != OP_ABS && !xorsign_ok))
        cannot_form(ld, in);
    else if ((in->op == OP_MIN || in->op == OP_MAX) && in->operand_count == 4)
        operand_cannot(ld, in, "three-input min/max");
    else if (in->op == OP_PRMT && in->mod_count > 1)
        cannot_form(ld, in);
    else if (in->op == OP_LOP3 && (in->operand_count == 6) != (in->operands[0].kind == OPND_PAIR))
        cannot_form(ld, in);
    else if (x->sat && x->cls != 'f' && in->op != OP_CVT && in->op != OP_CVT_PACK && x->family != FAM_VIDEO &&
             !(x->type == TYPE_S32 && (in->op == OP_ADD || in->op == OP_SUB)) &&
             !(x->type == TYPE_S32 && x->hi && (in->op == OP_MAD || in->op == OP_MAD24)))
        cannot_form(ld, in);
}

/* brx.idx index, tlist: the index, and the .branchtargets list the label tlist names, appended
 * to the program's lists as instruction indices. */
static void load_branch_table(Loader *ld, const Instr *in, XInstr *x)
{
    const Function *fn = ld->cur->fn;
    const BranchTable *t = NULL;
    for (uint32_t i = 0; i < fn->tables.len; i++)
        if (fn->tables.data[i].name == in->operands[1].u.ref.name)
            t = &fn->tables.data[i];
    if (!t) {
        diag_at(ld->diag, DIAG_ERROR, in->operands[1].at, "'%s' is not the label of a .branchtargets list",
                in->operands[1].u.ref.name);
        ld->failed = true;
        return;
    }
    Program *p = ld->p;
    p->branch_targets = xrealloc(p->branch_targets, (p->branch_target_count + t->count + 1) * sizeof *p->branch_targets);
    for (uint32_t k = 0; k < t->count; k++)
        p->branch_targets[p->branch_target_count + k] = ld->cur->code_base + t->targets[k];
    x->target = p->branch_target_count;
    x->target_count = t->count;
    p->branch_target_count += t->count;
    x->src[0] = operand_source(ld, in, &in->operands[0], TYPE_U32, x, 0);
    x->src_count = 1;
}

/* bar / barrier {.cta} .sync / .arrive / .red.popc.u32 / .red.and|or.pred, {.aligned}, as the
 * checker decoded them: src[0] the barrier, src[1] the thread count (if has_count), src[2] the
 * predicate of .red. */
static void load_barrier(Loader *ld, const Instr *in, XInstr *x)
{
    x->aligned = in->op == OP_BAR || ir_has_mod(in, MOD_ALIGNED);      /* bar is barrier.aligned */
    if (in->op == OP_BARRIER_CLUSTER) {          /* no operands (cluster.c) */
        x->barrier = ir_has_mod(in, MOD_WAIT) ? BARRIER_CLUSTER_WAIT : BARRIER_CLUSTER_ARRIVE;
        return;
    }
    x->barrier = ir_has_mod(in, MOD_RED) ? BARRIER_RED : ir_has_mod(in, MOD_ARRIVE) ? BARRIER_ARRIVE : BARRIER_SYNC;
    x->red_op = x->barrier != BARRIER_RED ? 0 : x->mode == MOD_POPC ? BARRIER_RED_POPC :
                x->mode == MOD_AND ? BARRIER_RED_AND : BARRIER_RED_OR;
    unsigned n = in->operand_count, first = x->barrier == BARRIER_RED;
    if (x->barrier == BARRIER_RED)
        operand_destination(ld, in, &in->operands[0], x);
    x->src[0] = operand_source(ld, in, &in->operands[first], TYPE_U32, x, 0);
    x->has_count = n - first - (x->barrier == BARRIER_RED) == 2;
    x->src[1] = x->has_count ? operand_source(ld, in, &in->operands[first + 1], TYPE_U32, x, 1) : x->src[0];
    x->src_count = 2;
    if (x->barrier == BARRIER_RED) {
        x->src[2] = operand_source(ld, in, &in->operands[n - 1], TYPE_PRED, x, 2);
        x->src_count = 3;
    }
}

/* The elements of a vector operand {r, s, ...} into rows: a destination's registers ('_': NO_SLOT),
 * or a source's registers and immediates. */
static void load_elements(Loader *ld, const Instr *in, const Operand *o, XInstr *x, uint32_t *rows, unsigned n,
                          bool dest)
{
    if (o->kind != OPND_VEC || o->count != n) {
        operand_cannot(ld, in, "a vector operand whose size does not match");
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        const Operand *e = &o->u.group.elems[i];
        if (dest && e->kind == OPND_SINK)
            rows[i] = NO_SLOT;
        else if (dest && e->kind == OPND_REG)
            rows[i] = ld->cur->row_base + e->u.slot;
        else if (!dest)
            rows[i] = operand_source(ld, in, e, x->type, x, 1);
        else
            operand_cannot(ld, in, "this destination");
    }
}

/* atom d, [a], b{, c} / red [a], b, as the checker decoded them (a .cas's c, or a cache policy
 * that changes nothing here): the old value to d, the address, then b (and c) in vec. A vector
 * (.v2, .v4, .v8): d's elements in dsts, b's in vec. */
static void load_atomic(Loader *ld, const Instr *in, XInstr *x)
{
    unsigned first = in->op == OP_ATOM, values = x->mode == MOD_CAS ? 2 : 1;
    x->elements = x->vec_count ? x->vec_count : 1;
    if (x->elements > 1) {
        if (first)
            load_elements(ld, in, &in->operands[0], x, x->dsts, x->elements, true);
        operand_address(ld, in, &in->operands[first], x);
        load_elements(ld, in, &in->operands[first + 1], x, x->vec, x->elements, false);
        return;
    }
    if (first)
        operand_destination(ld, in, &in->operands[0], x);
    operand_address(ld, in, &in->operands[first], x);
    for (unsigned i = 0; i < values; i++)
        x->vec[i] = operand_source(ld, in, &in->operands[first + 1 + i], x->type, x, 1 + i);
    x->vec_count = (uint8_t)values;
}

/* multimem.ld_reduce d, [a] / multimem.st [a], b / multimem.red [a], b: d (or its elements in
 * dsts), the address, b (or its elements) in vec. */
static void load_multimem(Loader *ld, const Instr *in, XInstr *x)
{
    bool load = in->op == OP_MULTIMEM_LD_REDUCE;
    const Operand *data = &in->operands[load ? 0 : 1];
    x->elements = x->vec_count ? x->vec_count : 1;
    x->vec_count = load ? 0 : x->elements;
    operand_address(ld, in, &in->operands[load ? 1 : 0], x);
    if (x->elements > 1)
        load_elements(ld, in, data, x, load ? x->dsts : x->vec, x->elements, load);
    else if (load)
        operand_destination(ld, in, data, x);
    else
        x->vec[0] = operand_source(ld, in, data, x->type, x, 1);
}

/* ldmatrix {d...}, [a] / stmatrix [a], {b...} / movmatrix d, a: the registers of the .x1/.x2/.x4
 * matrices in dsts (ldmatrix) or vec (stmatrix); the last source, where sync.c reads a
 * membermask, is the whole warp (.sync.aligned: every lane takes part). */
static void load_matrix(Loader *ld, const Instr *in, XInstr *x)
{
    x->type = TYPE_B32;
    x->bits = 32;
    x->cls = 'b';
    if (in->op == OP_MOVMATRIX) {
        if (in->operands[1].kind != OPND_REG) {   /* ptxas: "Arguments mismatch" */
            diag_at(ld->diag, DIAG_ERROR, in->operands[1].at, "'%s' transposes a register's fragment: its "
                    "source must be a .b32 register", in->mnemonic);
            ld->failed = true;
            return;
        }
        operand_destination(ld, in, &in->operands[0], x);
        x->src[0] = operand_source(ld, in, &in->operands[1], TYPE_B32, x, 0);
        x->src[1] = operand_immediate_row(ld, ALL_LANES);
        x->src_count = 2;
        return;
    }
    bool load = in->op == OP_LDMATRIX;
    const Operand *regs = &in->operands[load ? 0 : 1];
    bool registers = regs->kind == OPND_VEC && regs->count == x->elements;
    for (unsigned i = 0; registers && i < regs->count; i++)
        registers = regs->u.group.elems[i].kind == OPND_REG;
    if (!registers) {               /* ptxas: "Vector of size N is expected" */
        diag_at(ld->diag, DIAG_ERROR, regs->at, "'%s' takes a vector of %u .b32 register%s here (.x%u): {%s}",
                in->mnemonic, x->elements, x->elements > 1 ? "s" : "", x->elements,
                x->elements == 1 ? "r" : x->elements == 2 ? "r, s" : "r, s, t, u");
        ld->failed = true;
        return;
    }
    load_elements(ld, in, regs, x, load ? x->dsts : x->vec, x->elements, load);
    x->vec_count = load ? 0 : x->elements;
    operand_address(ld, in, &in->operands[load ? 1 : 0], x);
    x->src[1] = operand_immediate_row(ld, ALL_LANES);
    x->src_count = 2;
}

/* ld d, [a] / st [a], b (a cache policy after them changes nothing here) / cvta d, a /
 * isspacep p, a / ldu d, [a] / discard [a], 128. */
static void load_memory(Loader *ld, const Instr *in, XInstr *x)
{
    if (!x->vec_count)
        x->vec_count = 1;
    if (in->op == OP_LD || in->op == OP_LDU) {
        operand_data(ld, in, &in->operands[0], x, false);
        operand_address(ld, in, &in->operands[1], x);
    } else if (in->op == OP_DISCARD) {
        operand_address(ld, in, &in->operands[0], x);     /* the size is 128, the only one there is */
    } else if (in->op == OP_ST || in->op == OP_ST_ASYNC || in->op == OP_RED_ASYNC) {
        operand_address(ld, in, &in->operands[0], x);
        operand_data(ld, in, &in->operands[1], x, true);
        if (in->op != OP_ST) {                     /* st.async, red.async: the mbarrier [src[1] + src_offset] */
            XInstr bar = { .space = x->space };
            operand_address(ld, in, &in->operands[2], &bar);
            x->src[1] = bar.src[0];
            x->src_offset = bar.offset;
            x->src_addr_bits = bar.addr_bits;
            x->src_count = 2;
        }
    } else {
        if ((in->op == OP_MAPA || in->op == OP_GETCTARANK) && x->space == SPACE_NONE &&
            in->operands[1].kind == OPND_SYM) {  /* ptxas takes it; what address it means is not said */
            operand_cannot(ld, in, "a variable as the generic address of mapa or getctarank");
            return;
        }
        operand_destination(ld, in, &in->operands[0], x);   /* isspacep: an address, of 64 bits */
        x->src[0] = operand_source(ld, in, &in->operands[1], in->op == OP_ISSPACEP ? TYPE_U64 : x->type, x, 0);
        x->src_count = 1;
        if (in->op == OP_MAPA) {                   /* mapa d, a, b: b the rank */
            x->src[1] = operand_source(ld, in, &in->operands[2], TYPE_U32, x, 1);
            x->src_count = 2;
        }
    }
}

/* mov.v2/.v4 d, a: element i of a to element i of d. */
static void load_vector_move(Loader *ld, const Instr *in, XInstr *x)
{
    const Operand *d = &in->operands[0], *a = &in->operands[1];
    if (d->kind != OPND_VEC || a->kind != OPND_VEC || d->count != x->vec_count || a->count != x->vec_count) {
        operand_cannot(ld, in, "mov.v2/.v4 without a vector of that size on each side");
        return;
    }
    for (unsigned i = 0; i < x->vec_count; i++) {
        const Operand *e = &d->u.group.elems[i];
        x->vec[i] = e->kind == OPND_REG ? ld->cur->row_base + e->u.slot : NO_SLOT;
        x->src[i] = operand_source(ld, in, &a->u.group.elems[i], x->type, x, i);
    }
    x->src_count = x->vec_count;
    x->vmove = true;
}

/* x comes zeroed. */
static void load_instr(Loader *ld, const Instr *in, XInstr *x)
{
    Program *prog = ld->p;
    x->ir = in;
    x->op = in->op;
    x->type = in->type_count ? in->types[0] : TYPE_B32;
    x->bits = (uint8_t)(x->type == TYPE_PRED ? 1 : type_info[x->type].bits);
    x->cls = (uint8_t)type_info[x->type].cls;
    x->dst_pred = NO_SLOT;
    for (unsigned i = 0; i < VEC_MAX; i++)
        x->dsts[i] = NO_SLOT;
    x->guard = in->guard_kind;
    x->guard_pred = ld->cur->pred_base + in->guard_slot;
    x->owner = ld->cur->fn;
    if (!ld->check_only) {
        uint32_t line, column;
        source_position(prog->m->src, in->at.offset, &line, &column);
        x->line = line;
    }
    for (uint32_t i = 0; in->loc_line && i < prog->m->files.len; i++)
        if (prog->m->files.data[i].number == in->loc_file) {
            x->src_file = i + 1;
            x->src_line = in->loc_line;
        }
    for (unsigned i = 0; i < in->mod_count; i++) {
        Mod mod = in->mods[i];
        if (mod_is_hint[mod])
            continue;                              /* orders, scopes, cache policy (mods.def) */
        switch (mod) {
        case MOD_RN: case MOD_RZ: case MOD_RM: case MOD_RP:
        case MOD_RNI: case MOD_RZI: case MOD_RMI: case MOD_RPI: x->rounding = (uint8_t)mod; break;
        case MOD_FTZ: x->ftz = true; break;
        case MOD_RELU: x->relu = true; break;
        case MOD_OOB: x->oob = true; break;
        case MOD_ACC_F32: x->acc_f32 = true; break;
        case MOD_SATFINITE: x->satfinite = true; break;
        case MOD_RNA: x->rounding = (uint8_t)mod; break;
        case MOD_NAN_: x->nan_out = true; break;
        case MOD_XORSIGN: case MOD_ABS: x->xorsign_abs = in->op != OP_ABS; break;
        case MOD_CC: x->carry_out = true; break;
        case MOD_SAT: x->sat = true; break;
        case MOD_CLAMP: x->clamp = true; break;
        case MOD_WRAP: break;
        case MOD_WIDE: x->wide = true; x->mode = (uint8_t)mod; break;
        case MOD_GLOBAL: x->space = SPACE_GLOBAL; break;
        case MOD_SHARED: case MOD_SHARED_CTA: x->space = SPACE_SHARED; break;
        case MOD_SHARED_CLUSTER: x->space = SPACE_SHARED; x->cluster_space = true; break;
        case MOD_LOCAL: x->space = SPACE_LOCAL; break;
        case MOD_CONST: x->space = SPACE_CONST; break;
        case MOD_PARAM: case MOD_PARAM_ENTRY: case MOD_PARAM_FUNC: x->space = SPACE_PARAM; break;
        case MOD_V2: x->vec_count = 2; break;
        case MOD_V4: x->vec_count = 4; break;
        case MOD_V8: x->vec_count = 8; break;
        case MOD_TO: x->to_space = true; break;
        case MOD_SYNC: case MOD_ARRIVE: case MOD_RED: case MOD_ALIGNED: break;   /* load_barrier */
        case MOD_M8N8: break;
        case MOD_X1: x->elements = 1; break;
        case MOD_X2: x->elements = 2; break;
        case MOD_X4: x->elements = 4; break;
        case MOD_TRANS: x->trans = true; break;
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
        operand_cannot(ld, in, what);
        return;
    }
    if (in->op == OP_MMA) {
        mma_lower(ld, in, x);
        return;
    }
    if (in->op == OP_MMA_SP || in->op == OP_MMA_SP_ORDERED) {
        mmasp_lower(ld, in, x);
        return;
    }
    if (in->op == OP_WMMA_LOAD || in->op == OP_WMMA_STORE || in->op == OP_WMMA_MMA) {
        wmma_lower(ld, in, x);
        return;
    }
    if (in->op == OP_WGMMA_MMA_ASYNC || in->op == OP_WGMMA_FENCE || in->op == OP_WGMMA_COMMIT_GROUP ||
        in->op == OP_WGMMA_WAIT_GROUP) {
        wgmma_lower(ld, in, x);
        return;
    }
    if (x->type == TYPE_B128) {                    /* a .b128 register is two rows (wide.c) */
        wide_lower(ld, in, x);
        return;
    }
    if (!wide_other_ok(ld, in))
        return;
    check_variant(ld, in, x);

    switch ((Family)x->family) {
    case FAM_CONTROL:
        if (in->op == OP_CALL)
            callsite_load(ld, in, x);
        else if (in->op == OP_BRA)
            x->target = ld->cur->code_base + in->operands[0].u.ref.target;
        else if (in->op == OP_BRX_IDX)
            load_branch_table(ld, in, x);
        return;
    case FAM_BARRIER:
        load_barrier(ld, in, x);
        return;
    case FAM_SYNC:
        if (in->op == OP_LDMATRIX || in->op == OP_STMATRIX || in->op == OP_MOVMATRIX) {
            load_matrix(ld, in, x);
            return;
        }
        break;
    case FAM_FENCE:
    case FAM_HINT:
        return;                                    /* nothing to order or to hint: no operand is read */
    case FAM_ATOMIC:
        load_atomic(ld, in, x);
        return;
    case FAM_MULTIMEM:
        load_multimem(ld, in, x);
        return;
    case FAM_BULK:
        bulk_lower(ld, in, x);
        return;
    case FAM_ASYNC:
        async_lower(ld, in, x);
        return;
    case FAM_MBARRIER:
        mbarrier_lower(ld, in, x);
        return;
    case FAM_MEMORY:
        load_memory(ld, in, x);
        return;
    case FAM_SURFACE:
    case FAM_TEXTURE:
        image_load(ld, in, x);
        return;
    default:
        break;
    }
    if (in->op == OP_MOV && x->vec_count) {
        load_vector_move(ld, in, x);
        return;
    }
    if (in->op == OP_MOV && in->operand_count == 2 &&
        (in->operands[0].kind == OPND_VEC || in->operands[1].kind == OPND_VEC)) {
        /* mov.b64 {lo, hi}, d unpacks; mov.b64 d, {lo, hi} packs (also .b32 of two .b16, ...). */
        bool unpack = in->operands[0].kind == OPND_VEC;
        const Operand *parts = &in->operands[unpack ? 0 : 1];
        if (parts->count < 2 || parts->count > 4 || x->bits % parts->count) {
            operand_cannot(ld, in, "mov with this vector");
            return;
        }
        int part_type = TYPE_B32;
        for (int t = 0; t < TYPE_COUNT; t++)
            if (type_info[t].cls == 'b' && type_info[t].bits == x->bits / parts->count)
                part_type = t;
        operand_parts(ld, in, parts, x, unpack, part_type, "mov with this vector element");
        if (unpack) {
            x->unpack = true;
            x->src[0] = operand_source(ld, in, &in->operands[1], x->type, x, 0);
            x->src_count = 1;
        } else {
            x->pack = true;
            operand_destination(ld, in, &in->operands[0], x);
        }
        return;
    }
    if (in->op == OP_SLCT || in->op == OP_DP4A || in->op == OP_DP2A)
        x->src_type = in->type_count > 1 ? in->types[1] : TYPE_S32;
    if (in->op == OP_SET) {
        /* set.cmp.dtype.stype: compared as stype, written as dtype. */
        if (in->type_count != 2) {
            operand_cannot(ld, in, "set without two types");
            return;
        }
        x->src_type = in->types[0];
        x->type = in->types[1];
        x->bits = (uint8_t)type_info[x->type].bits;
        x->cls = (uint8_t)type_info[x->type].cls;
    }
    if (x->family == FAM_VIDEO)
        video_lower(x, in);
    if (x->family == FAM_ALU && half_executes(x))
        x->family = FAM_HALF;                      /* set: x->type is the compared type by now */
    if (in->op == OP_CVT && in->type_count == 2 && convert_narrow_form(in->types[0], in->types[1], x->relu, x->satfinite,
                                                                        x->rounding, in->operand_count)) {
        x->narrow = true;
        x->src_type = in->types[1];
        operand_destination(ld, in, &in->operands[0], x);
        for (unsigned i = 1; i < in->operand_count; i++)
            x->src[i - 1] = operand_source(ld, in, &in->operands[i], x->src_type, x, i - 1);
        x->src_count = (uint8_t)(in->operand_count - 1);
        return;
    }
    if (in->op == OP_CVT) {
        x->src_type = in->type_count > 1 ? in->types[1] : TYPE_NONE;
        bool small_float_ok = x->src_type != TYPE_NONE &&
                              (x->type == TYPE_F16 || x->type == TYPE_BF16 || x->cls != 'f' || x->bits >= 32) &&
                              (x->src_type == TYPE_F16 || x->src_type == TYPE_BF16 ||
                               type_info[x->src_type].cls != 'f' || type_info[x->src_type].bits >= 32);
        bool half = x->src_type == TYPE_NONE || in->type_count != 2 || x->type == TYPE_PRED ||
                    !small_float_ok || x->src_type == TYPE_PRED || x->relu || x->satfinite || x->rounding == MOD_RNA;
        if (half || in->operand_count != 2) {
            char what[96];
            snprintf(what, sizeof what, "'%s'", in->mnemonic);
            operand_cannot(ld, in, what);
            return;
        }
        operand_destination(ld, in, &in->operands[0], x);
        if (x->dst_kind == DST_VALUE)
            x->dst_bits = (uint8_t)type_info[ld->cur->fn->regs.data[x->dst - ld->cur->row_base].type].bits;
        x->src[0] = operand_source(ld, in, &in->operands[1], x->src_type, x, 0);
        x->src_count = 1;
        return;
    }

    if (in->op == OP_CREATEPOLICY && in->operand_count == 1) {
        x->src[0] = operand_immediate_row(ld, 0x3f800000);   /* the fraction is 1.0 when not given */
        x->src_count = 1;
    }
    unsigned first_source = 0;
    if (in->op != OP_BAR_WARP_SYNC && in->op != OP_STACKRESTORE) {
        operand_destination(ld, in, &in->operands[0], x);
        first_source = 1;
    }
    if (in->op == OP_SETP && in->operands[0].kind == OPND_PAIR &&
        in->operands[0].u.group.elems[0].kind == OPND_PRED) {   /* p|q; _|q sinks p */
        x->dst = ld->cur->pred_base + in->operands[0].u.group.elems[0].u.slot;
        x->dst_kind = DST_PRED;
    }
    for (unsigned i = first_source; i < in->operand_count; i++) {
        const Operand *o = &in->operands[i];
        unsigned s = i - first_source;
        if (o->kind == OPND_ADDR && in->op == OP_CREATEPOLICY) {   /* .range: [a] */
            operand_address(ld, in, o, x);
            continue;
        }
        if (o->kind == OPND_VEC) {
            operand_cannot(ld, in, "mov with a vector operand");
            continue;
        }
        x->src[s] = operand_source(ld, in, o, source_type(in, s), x, s);
        x->src_count = (uint8_t)(s + 1);
    }
}


/* Every register gets a name (range registers never used by name included), for the lanes
 * file and the output. */
static void name_registers(Program *p)
{
    Function *f = p->fn;
    for (uint32_t i = 0; i < f->decls.len; i++) {
        const Decl *d = &f->decls.data[i];
        if (d->space != SPACE_REG || !d->has_range)
            continue;
        VEC(Register) *regs = (void *)(d->type == TYPE_PRED ? (void *)&f->preds : (void *)&f->regs);
        uint32_t stride = d->type == TYPE_B128 ? 2 : 1;      /* a .b128 register takes two slots */
        for (uint32_t k = 0; k < d->range; k++) {
            Register *r = &regs->data[d->first_slot + k * stride];
            if (!r->name) {                    /* d->name then k in decimal */
                char name[128], digits[10];
                size_t n = strlen(d->name), count = 0;
                for (uint32_t v = k; count == 0 || v; v /= 10)
                    digits[count++] = (char)('0' + v % 10);
                if (n > sizeof name - count)
                    n = sizeof name - count;
                memcpy(name, d->name, n);
                while (count)
                    name[n++] = digits[--count];
                r->name = intern(&p->m->names, name, n);
            }
        }
    }
}

/* Synchronising instructions complete together only with others of their kind: the same
 * opcode, types and modifiers. Each kind gets a number. */
static void number_sync_kinds(Program *p)
{
    const Instr **kinds = NULL;
    uint32_t count = 0;
    for (uint32_t i = 0; i < p->code_len; i++) {
        XInstr *x = &p->code[i];
        if (x->family != FAM_SYNC && x->family != FAM_BARRIER)
            continue;
        const Instr *in = x->ir;
        uint32_t k = 0;
        for (; k < count; k++) {
            const Instr *y = kinds[k];
            if (in->op == y->op && in->type_count == y->type_count && in->mod_count == y->mod_count &&
                memcmp(in->types, y->types, in->type_count) == 0 && memcmp(in->mods, y->mods, in->mod_count) == 0)
                break;
        }
        if (k == count) {
            kinds = xrealloc(kinds, (count + 1) * sizeof *kinds);
            kinds[count++] = in;
        }
        x->sync_kind = k;
    }
    free(kinds);
}

bool lower_program(Program *p, Memory *mem, Module *m, Function *fn, Diag *diag, uint32_t stack_bytes,
                   bool check_only, bool fmad)
{
    memset(p, 0, sizeof *p);
    p->m = m;
    p->fn = fn;
    void *(*place)(void *, const void *, const char *, int, uint64_t, uint32_t, bool *) = mem->place;
    void *place_context = mem->place_context;
    mem_init(mem);
    mem->place = place;
    mem->place_context = place_context;
    mem->placed_only = check_only;
    Loader ld = { .p = p, .mem = mem, .diag = diag, .check_only = check_only };
    ld.layout.mem = mem;
    ld.layout.diag = diag;
    memset(ld.sreg_row, 0xff, sizeof ld.sreg_row);
    /* The kernel first, then every other function with a body, each with its own code range,
     * register rows and predicate slots. */
    p->funcs = xcalloc(m->functions.len + 1, sizeof *p->funcs);
    p->funcs[p->func_count++] = (FuncLayout){ .fn = fn };
    p->handle_rows = xmalloc((fn->params.len + 1) * sizeof *p->handle_rows);
    memset(p->handle_rows, 0xff, (fn->params.len + 1) * sizeof *p->handle_rows);
    for (uint32_t i = 0; i < m->functions.len; i++) {
        Function *f = m->functions.data[i];
        if (f != fn && f->has_body && !f->is_entry && !f->is_snippet)
            p->funcs[p->func_count++] = (FuncLayout){ .fn = f };
    }
    uint32_t code = 0, rows = 0, preds = 0;
    for (uint32_t k = 0; k < p->func_count; k++) {
        FuncLayout *f = &p->funcs[k];
        f->code_base = code;
        f->row_base = rows;
        f->pred_base = preds;
        code += f->fn->code.len;
        rows += f->fn->regs.len;
        preds += f->fn->preds.len;
    }
    ld.total_preds = preds;
    bool too_large = rows > MAX_REGISTERS || preds > MAX_REGISTERS || code > MAX_INSTRUCTIONS;
    if (too_large)
        diag_at(diag, DIAG_ERROR, fn->at, "the program needs %u registers, %u predicates and %u instructions; "
                "ptxrun runs at most %d, %d and %d", rows, preds, code, MAX_REGISTERS, MAX_REGISTERS,
                MAX_INSTRUCTIONS);
    if (too_large || !layout_fits(p, diag))
        return false;
    p->kernel_code_len = fn->code.len;
    rows = layout_frames(&ld.layout, p, rows);
    p->reg_count = rows;
    p->row_count = rows;
    p->code_len = code;
    /* Checking only, each instruction is loaded into the one XInstr and forgotten: nothing reads
     * another's (the code array is for running), and 320 bytes a PTX instruction add up. */
    p->code = xcalloc(code && !check_only ? code : 1, sizeof *p->code);
    ld.failed = !layout_memory(&ld.layout, p, stack_bytes);
    for (uint32_t k = 0; k < p->func_count && !ld.failed; k++) {
        ld.cur = &p->funcs[k];
        for (uint32_t i = 0; i < ld.cur->fn->code.len; i++) {
            XInstr *x = check_only ? p->code : &p->code[ld.cur->code_base + i];
            if (check_only)
                memset(x, 0, sizeof *x);
            load_instr(&ld, &ld.cur->fn->code.data[i], x);
            if (x->adjust_bits && (x->family == FAM_CONTROL || x->family == FAM_SYNC || x->family == FAM_BARRIER))
                operand_cannot(&ld, x->ir, "a register plus an offset in this instruction");
        }
    }
    layout_free(&ld.layout, p->func_count);
    if (ld.failed)
        return false;
    if (check_only)                            /* nothing below refuses anything */
        return true;
    for (uint32_t k = 0; k < p->func_count; k++)
        cfg_reconvergence(p->code, p->branch_targets, &p->funcs[k]);
    if (fmad)                /* mul+add into fma (its rows, if any, before the immediates' placeholders) */
        contract_program(p, diag);
    /* Immediate rows follow the special registers: fix the placeholders. */
    uint32_t first_immediate = p->row_count;
    p->first_immediate = first_immediate;
    p->row_count += ld.immediates.len;
    for (uint32_t i = 0; i < p->code_len; i++) {
        XInstr *x = &p->code[i];
        for (unsigned s = 0; s < x->src_count; s++)
            if (!(x->src_pred & (1u << s)) && x->src[s] >= NO_SLOT - ld.immediates.len)
                x->src[s] = first_immediate + (NO_SLOT - 1 - x->src[s]);
        for (unsigned v = 0; v < VEC_MAX; v++)    /* st and atom data (NO_SLOT itself is '_') */
            if (x->vec[v] != NO_SLOT && x->vec[v] >= NO_SLOT - ld.immediates.len)
                x->vec[v] = first_immediate + (NO_SLOT - 1 - x->vec[v]);
        for (unsigned c = 0; c < x->coord_count; c++)  /* texture and surface coordinates */
            if (x->coord[c] >= NO_SLOT - ld.immediates.len)
                x->coord[c] = first_immediate + (NO_SLOT - 1 - x->coord[c]);
        for (unsigned g = 0; g < 6 && x->mip == MOD_GRAD; g++)    /* tex.grad gradients */
            if (x->grad[g] != NO_SLOT && x->grad[g] >= NO_SLOT - ld.immediates.len)
                x->grad[g] = first_immediate + (NO_SLOT - 1 - x->grad[g]);
        for (unsigned o = 0; o < 4 && (x->op == OP_TEX || x->op == OP_TLD4); o++) {   /* offsets, depth value */
            uint32_t *row = o < 3 ? &x->texel_offset[o] : &x->depth_ref;
            if (*row != NO_SLOT && *row >= NO_SLOT - ld.immediates.len)
                *row = first_immediate + (NO_SLOT - 1 - *row);
        }
    }
    for (uint32_t r = 0; r < p->mma_row_count; r++)   /* mma's and wmma's immediate fragment elements, mma.sp's selector ('_': NO_SLOT) */
        if (p->mma_rows[r] != NO_SLOT && p->mma_rows[r] >= NO_SLOT - ld.immediates.len)
            p->mma_rows[r] = first_immediate + (NO_SLOT - 1 - p->mma_rows[r]);
    for (uint32_t c = 0; c < p->call_count; c++)  /* immediate arguments to .reg parameters */
        for (unsigned i = 0; i < p->calls[c].arg_count; i++) {
            RegPass *pass = &p->calls[c].arg_regs[i];
            for (unsigned j = 0; j < pass->count && !pass->pred; j++)
                if (pass->from[j] >= NO_SLOT - ld.immediates.len)
                    pass->from[j] = first_immediate + (NO_SLOT - 1 - pass->from[j]);
        }
    p->immediates = xmalloc((ld.immediates.len + 1) * sizeof *p->immediates);
    if (ld.immediates.len)
        memcpy(p->immediates, ld.immediates.data, ld.immediates.len * sizeof *p->immediates);
    p->immediate_rows = xcalloc_aligned(ld.immediates.len + 1, sizeof *p->immediate_rows, 64);
    for (uint32_t i = 0; i < ld.immediates.len; i++)
        for (int l = 0; l < WARP_SIZE; l++)
            p->immediate_rows[i][l] = p->immediates[i];
    p->pred_count = ld.total_preds + PRED_CONSTANTS;
    fold_moves(p);
    warpops_shfl_tables(p);
    for (uint32_t i = 0; i < p->code_len; i++)
        if (!p->code[i].adjust_bits)           /* r+imm: through execute(), which adds it first */
            alu_kernel_forms(&p->code[i]);
    p->kernels = kernels_for_cpu();
    memcpy(p->sreg_rows, ld.sreg_row, sizeof p->sreg_rows);
    p->sreg_used_count = 0;
    for (uint32_t i = 0; i < SREG_COUNT * 4; i++)
        if (p->sreg_rows[i / 4][i % 4] != NO_SLOT)
            p->sreg_used[p->sreg_used_count++] = (uint16_t)i;
    name_registers(p);
    wgmma_name_reads(p);
    number_sync_kinds(p);
    wmma_warn_fragments(p, diag);
    return true;
}

void lower_free(Program *p)
{
    free(p->code);
    for (uint32_t k = 0; k < p->func_count; k++) {
        free(p->funcs[k].params);
        free(p->funcs[k].var_offset);
    }
    free(p->funcs);
    free(p->calls);
    free(p->branch_targets);
    free(p->mma_rows);
    free(p->wgmma_reads);
    free(p->mma_forms);
    free(p->bulk_forms);
    free(p->immediates);
    free(p->immediate_rows);
    free(p->handle_rows);
    free(p->shfl_tables);
    memset(p, 0, sizeof *p);
}

Function *lower_entry(Module *m, const char *name)
{
    for (uint32_t i = 0; i < m->functions.len; i++) {
        Function *f = m->functions.data[i];
        if (f->is_entry && f->has_body && (!name || strcmp(f->name, name) == 0))
            return f;
    }
    return NULL;
}
