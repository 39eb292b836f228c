/* lower.c: the lowering pass. Makes the executable Program from a checked module's kernel and
 * the functions it may call, once, without writing into the IR: each instruction decoded into
 * an XInstr whose every operand is a row of lane values (registers, special registers and
 * immediates alike) or a predicate slot, with its executor family and decoded suffixes; each
 * function's code range, rows and frame (layout.c); call sites; reconvergence points (cfg.c);
 * and the memory plan, the regions of every variable, in the block's Memory.
 * Requires: a module checked without errors. */
#include <stdlib.h>
#include <string.h>

#include "exec.h"

typedef struct Loader {
    Program *p;
    Memory *mem;               /* where the memory plan goes: the block's */
    Diag *diag;
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
    diag_at(ld->diag, DIAG_ERROR, in->at, "ptxrun cannot execute %s yet", what);
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
    VEC_PUSH(&ld->p->m->arena, ld->immediates, bits);
    return NO_SLOT - ld->immediates.len;
}

static bool sreg_supported(int sreg)
{
    switch (sreg) {
    case SREG_TID: case SREG_NTID: case SREG_LANEID: case SREG_WARPID: case SREG_NWARPID:
    case SREG_CTAID: case SREG_NCTAID: case SREG_LANEMASK_EQ: case SREG_LANEMASK_LT:
    case SREG_LANEMASK_LE: case SREG_LANEMASK_GT: case SREG_LANEMASK_GE: case SREG_WARP_SZ:
    case SREG_SMID: case SREG_NSMID: case SREG_GRIDID: case SREG_DYNAMIC_SMEM_SIZE:
    case SREG_TOTAL_SMEM_SIZE: case SREG_CLOCK: case SREG_CLOCK_HI: case SREG_CLOCK64: case SREG_GLOBALTIMER:
    case SREG_GLOBALTIMER_LO: case SREG_GLOBALTIMER_HI:
        return true;
    default:
        return false;
    }
}

/* The variable (or function) an operand names. */
static bool find_symbol(const Loader *ld, const Operand *o, Symbol *out)
{
    return layout_find(&ld->layout, ld->p, ld->cur ? (uint32_t)(ld->cur - ld->p->funcs) : NO_SLOT, o->u.ref.name,
                       o->u.ref.target, out);
}

/* A value source: register, special register or immediate, as a row. Predicates: a slot. */
static uint32_t source_row(Loader *ld, const Instr *in, const Operand *o, int type, XInstr *x, unsigned i)
{
    Program *prog = ld->p;
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
        switch (o->u.sreg) {
        case SREG_CLOCK: case SREG_CLOCK_HI: case SREG_CLOCK64: case SREG_GLOBALTIMER: case SREG_GLOBALTIMER_LO:
        case SREG_GLOBALTIMER_HI:
            x->reads_clock = true;       /* builtin_clock sets it before the instruction runs */
            break;
        default:
            break;
        }
        if (*row == NO_SLOT)
            *row = prog->row_count++;
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
    case OPND_REG_OFFSET: {                /* r+imm: computed into a row of its own first */
        const Operand *r = &o->u.group.elems[0];
        if (x->adjust_bits || type == TYPE_PRED) {
            cannot(ld, in, "more than one register plus an offset in an instruction");
            return 0;
        }
        unsigned bits = type_info[ld->cur->fn->regs.data[r->u.slot].type].bits;
        x->adjust_bits = (uint8_t)(bits ? bits : type_info[type].bits ? type_info[type].bits : 64);
        x->adjust_from = ld->cur->row_base + r->u.slot;
        x->adjust_by = o->u.group.offset;
        x->adjust_row = prog->row_count++;
        return x->adjust_row;
    }
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
            diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' names '%s', a %s variable: the state spaces differ",
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
    if (ld->cur != ld->p->funcs && x->space == SPACE_PARAM) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' through an address in a .func: a function's parameters "
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
        } else if (store && e->kind == OPND_REG_OFFSET) {
            x->vec[i] = source_row(ld, in, e, x->type, x, 1);
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
    case OP_CVT_PACK:
        return i < 2 ? TYPE_S32 : TYPE_B32;
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
    else if (x->sat && x->cls != 'f' && in->op != OP_CVT && in->op != OP_CVT_PACK && x->family != FAM_VIDEO &&
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

/* mov.v2/.v4 d, a: element i of a to element i of d. */
static void load_vector_move(Loader *ld, const Instr *in, XInstr *x)
{
    const Operand *d = &in->operands[0], *a = &in->operands[1];
    if (d->kind != OPND_VEC || a->kind != OPND_VEC || d->count != x->vec_count || a->count != x->vec_count) {
        cannot(ld, in, "mov.v2/.v4 without a vector of that size on each side");
        return;
    }
    for (unsigned i = 0; i < x->vec_count; i++) {
        const Operand *e = &d->u.group.elems[i];
        x->vec[i] = e->kind == OPND_REG ? ld->cur->row_base + e->u.slot : NO_SLOT;
        x->src[i] = source_row(ld, in, &a->u.group.elems[i], x->type, x, i);
    }
    x->src_count = x->vec_count;
    x->vmove = true;
}

/* tex tld4 suld: d, [h, {coordinates}]; sust: [h, {coordinates}], c; txq suq: d, [h]; istypep:
 * p, h. The handle becomes src[0], the coordinates coord[], the data registers vec[]. */
static void load_image(Loader *ld, const Instr *in, XInstr *x)
{
    image_lower(x, in);
    ld->p->uses_images = true;
    bool store = in->op == OP_SUST;
    if (in->operand_count != 2) {
        char what[96];
        snprintf(what, sizeof what, "'%s' with %u operands", in->mnemonic, in->operand_count);
        cannot(ld, in, what);
        return;
    }
    const Operand *addr = &in->operands[store ? 0 : 1], *data = &in->operands[store ? 1 : 0];
    if (in->op == OP_ISTYPEP) {
        load_destination(ld, in, data, x);
        x->src[0] = source_row(ld, in, addr, TYPE_U64, x, 0);
        x->src_count = 1;
        return;
    }
    unsigned want = x->coord_count ? 2 : 1;
    if (addr->kind == OPND_ADDR && addr->count == want + 1 && in->op != OP_SULD && in->op != OP_SUQ) {
        cannot(ld, in, "a texture with a separate sampler (independent texturing mode)");
        return;
    }
    if (addr->kind != OPND_ADDR || addr->count != want || addr->u.group.offset) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' takes %s", in->mnemonic,
                want == 2 ? "[handle, {coordinates}]" : "[handle]");
        ld->failed = true;
        return;
    }
    const Operand *h = &addr->u.group.elems[0];
    if (h->kind != OPND_REG) {
        cannot(ld, in, "a texture or surface named by a variable (.texref, .surfref); a handle in a .u64 "
               "register runs");
        return;
    }
    x->src[0] = source_row(ld, in, h, TYPE_U64, x, 0);
    x->src_count = 1;
    if (want == 2) {
        const Operand *c = &addr->u.group.elems[1];
        unsigned n = c->kind == OPND_VEC ? c->count : 1;
        if (n != x->coord_count) {
            diag_at(ld->diag, DIAG_ERROR, c->at, "'%s' takes %u coordinates, not %u", in->mnemonic,
                    x->coord_count, n);
            ld->failed = true;
            return;
        }
        for (unsigned i = 0; i < n; i++) {
            bool layer = i == 0 && (x->geom == GEOM_A1D || x->geom == GEOM_A2D);
            const Operand *e = c->kind == OPND_VEC ? &c->u.group.elems[i] : c;
            x->coord[i] = source_row(ld, in, e, layer ? TYPE_U32 : x->src_type, x, 1);
        }
    }
    if (in->op == OP_TXQ || in->op == OP_SUQ) {
        load_destination(ld, in, data, x);
        return;
    }
    unsigned n = data->kind == OPND_VEC ? data->count : 1;
    if (n != x->vec_count) {
        diag_at(ld->diag, DIAG_ERROR, data->at, "'%s' moves %u registers, not %u", in->mnemonic, x->vec_count, n);
        ld->failed = true;
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        const Operand *e = data->kind == OPND_VEC ? &data->u.group.elems[i] : data;
        if (e->kind == OPND_SINK && !store) {
            x->vec[i] = NO_SLOT;
        } else if (e->kind == OPND_REG && type_info[ld->cur->fn->regs.data[e->u.slot].type].bits >= x->bits) {
            x->vec[i] = ld->cur->row_base + e->u.slot;
        } else if (store && (e->kind == OPND_INT || e->kind == OPND_F32 || e->kind == OPND_F64)) {
            x->vec[i] = immediate_row(ld, immediate_bits(e, x->type));
        } else {
            diag_at(ld->diag, DIAG_ERROR, e->at, "'%s' %s registers of at least %u bits", in->mnemonic,
                    store ? "stores from" : "loads into", x->bits);
            ld->failed = true;
            return;
        }
    }
}

static void load_instr(Loader *ld, const Instr *in, XInstr *x)
{
    Program *prog = ld->p;
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
    source_position(prog->m->src, in->at.offset, &line, &column);
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
    case FAM_SURFACE:
    case FAM_TEXTURE:
        load_image(ld, in, x);
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
    if (x->family == FAM_VIDEO)
        video_lower(x, in);
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
    if (in->op == OP_SETP && in->operands[0].kind == OPND_PAIR &&
        in->operands[0].u.group.elems[0].kind == OPND_PRED) {   /* p|q; _|q sinks p */
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

/* A call's argument or result: a .param variable of the caller, in its frame. */
static bool call_slot(const Loader *ld, const Operand *p, FrameSlot *slot)
{
    Symbol s;
    if (p->kind != OPND_SYM || !find_symbol(ld, p, &s) || s.space != SPACE_LOCAL)
        return false;
    *slot = (FrameSlot){ (uint32_t)s.address, s.size };
    return true;
}

/* A call of a function the CUDA runtime supplies passes what CUDA's takes: its parameters'
 * sizes, and at most its one result. */
static bool builtin_signature(Loader *ld, const Instr *in, const char *name, const CallSite *site)
{
    uint8_t result;
    const uint8_t *params = builtin_params((Builtin)site->builtin, &result);
    unsigned n = 0;
    bool ok = site->ret_count <= (result != 0) && (!site->ret_count || site->rets[0].size >= result);
    for (; params[n]; n++)
        ok = ok && n < site->arg_count && site->args[n].size >= params[n];
    if (ok && n == site->arg_count)
        return true;
    diag_at(ld->diag, DIAG_ERROR, in->at, "a call of '%s' with %u argument%s and %u result%s; CUDA's takes %u "
            "(%s) and gives %s", name, site->arg_count,
            site->arg_count == 1 ? "" : "s", site->ret_count, site->ret_count == 1 ? "" : "s", n,
            site->builtin == BUILTIN_VPRINTF ? ".b64 format, .b64 arguments" : ".b64 message, .b64 file, .b32 line, "
            ".b64 function, .b64 char size", result ? "a .b32" : "none");
    ld->failed = true;
    return false;
}

/* A .reg parameter or result d of the callee (its rows from callee_rows), passed from or to the
 * caller's operand o: a register, a vector register's elements, or (an argument) an immediate. */
static void pass_registers(Loader *ld, const Instr *in, const Operand *o, const FuncLayout *callee, const Decl *d,
                           bool result, RegPass *pass)
{
    if (d->type == TYPE_PRED) {               /* .reg .pred: a predicate, or (an argument) 0 or 1 */
        XInstr scratch;
        memset(&scratch, 0, sizeof scratch);
        uint32_t own = callee->pred_base + d->first_slot;
        if (o->kind != OPND_PRED && (result || o->kind != OPND_INT)) {
            cannot(ld, in, "a call passing something other than a predicate for a .pred parameter");
            return;
        }
        pass->count = 1;
        pass->pred = true;
        pass->from[0] = result ? own : source_row(ld, in, o, TYPE_PRED, &scratch, 0);
        pass->to[0] = result ? ld->cur->pred_base + o->u.slot : own;
        if (!result && (scratch.src_not & 1)) {
            cannot(ld, in, "a call passing a negated predicate");
            return;
        }
        return;
    }
    uint32_t callee_rows = callee->row_base;
    unsigned n = d->vector ? d->vector : 1, given = o->kind == OPND_VEC ? o->count : 1;
    if (given != n || n > 4) {
        cannot(ld, in, "a call passing a register where the function takes another number of elements");
        return;
    }
    XInstr scratch;
    memset(&scratch, 0, sizeof scratch);
    pass->count = (uint8_t)n;
    for (unsigned i = 0; i < n; i++) {
        const Operand *e = o->kind == OPND_VEC ? &o->u.group.elems[i] : o;
        uint32_t own = callee_rows + d->first_slot + i;
        if (e->kind != OPND_REG && (result || e->kind == OPND_VEC || e->kind == OPND_SYM)) {
            cannot(ld, in, result ? "a call whose result goes to something other than a register"
                                  : "a call passing this argument to a register parameter");
            return;
        }
        if (result) {
            pass->from[i] = own;
            pass->to[i] = ld->cur->row_base + e->u.slot;
        } else {
            pass->from[i] = source_row(ld, in, e, d->type, &scratch, 0);
            pass->to[i] = own;
        }
    }
}

/* call{.uni} (rets), f, (args){, prototype}: the .param variables passed, and the callee. */
static void load_call(Loader *ld, const Instr *in, XInstr *x)
{
    Program *prog = ld->p;
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
    for (uint32_t k = 0; target->kind == OPND_SYM && k < prog->m->functions.len; k++)
        if (prog->m->functions.data[k]->is_entry && prog->m->functions.data[k]->name == target->u.ref.name) {
            diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' is a kernel (.entry): only a .func can be called",
                    target->u.ref.name);
            ld->failed = true;
            return;
        }
    if (target->kind == OPND_SYM) {
        for (uint32_t k = 0; k < prog->func_count; k++)
            if (prog->funcs[k].fn->name == target->u.ref.name)
                site.callee = k;
        if (site.callee == NO_SLOT && !(site.builtin = (uint8_t)builtin_named(target->u.ref.name))) {
            char what[160];
            snprintf(what, sizeof what, "a call of '%s' (no body: an external function)", target->u.ref.name);
            cannot(ld, in, what);
            return;
        }
    } else if (target->kind == OPND_REG) {
        site.target_row = ld->cur->row_base + target->u.slot;
    } else {
        cannot(ld, in, "this call target");
        return;
    }
    site.caller = (uint32_t)(ld->cur - prog->funcs);
    const Function *callee = site.callee == NO_SLOT ? NULL : prog->funcs[site.callee].fn;
    if (callee && ((rets && rets->count > callee->returns.len) || (args && args->count != callee->params.len))) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' takes %u arguments and gives %u results; this call passes "
                "%u and asks for %u", callee->name, callee->params.len, callee->returns.len,
                args ? args->count : 0, rets ? rets->count : 0);
        ld->failed = true;
        return;
    }
    for (unsigned k = 0; rets && k < rets->count; k++) {
        const Decl *d = callee ? &callee->returns.data[k] : NULL;
        if (d && d->space == SPACE_REG)
            pass_registers(ld, in, &rets->u.group.elems[k], &prog->funcs[site.callee], d, true,
                           &site.ret_regs[k]);
        else if (!call_slot(ld, &rets->u.group.elems[k], &site.rets[k]))
            cannot(ld, in, "a call whose results are not .param variables of the caller");
    }
    for (unsigned k = 0; args && k < args->count; k++) {
        const Decl *d = callee ? &callee->params.data[k] : NULL;
        if (d && d->space == SPACE_REG)
            pass_registers(ld, in, &args->u.group.elems[k], &prog->funcs[site.callee], d, false,
                           &site.arg_regs[k]);
        else if (!call_slot(ld, &args->u.group.elems[k], &site.args[k]))
            cannot(ld, in, "a call whose arguments are not .param variables of the caller");
    }
    site.ret_count = (uint8_t)(rets ? rets->count : 0);
    site.arg_count = (uint8_t)(args ? args->count : 0);
    if (site.builtin && !builtin_signature(ld, in, target->u.ref.name, &site))
        return;
    prog->prints |= site.builtin != BUILTIN_NONE;
    prog->calls = xrealloc(prog->calls, (prog->call_count + 1) * sizeof *prog->calls);
    prog->calls[prog->call_count] = site;
    x->target = prog->call_count++;
    if (site.callee == NO_SLOT) {
        x->src[0] = site.target_row;
        x->src_count = 1;
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
        for (uint32_t k = 0; k < d->range; k++) {
            Register *r = &regs->data[d->first_slot + k];
            if (!r->name) {
                char name[128];
                int n = snprintf(name, sizeof name, "%s%u", d->name, k);
                r->name = intern(&p->m->names, name, (size_t)n);
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

/* The pattern of a shfl table that Kernels.shfl32 runs as whole-row moves: .up, .down or .bfly
 * by some k over the whole warp (what c = 0 or 31 without segments gives). */
static void shfl_form(ShflTable *t)
{
    t->form = KSHFL_GATHER;
    t->k = 0;
    for (int k = 1; k < WARP_SIZE; k++) {
        bool up = true, down = true, bfly = true;
        for (int l = 0; l < WARP_SIZE; l++) {
            up = up && t->src[l] == (l >= k ? l - k : l);
            down = down && t->src[l] == (l + k < WARP_SIZE ? l + k : l);
            bfly = bfly && t->src[l] == (l ^ k);
        }
        if (up || down || bfly) {
            t->form = up ? KSHFL_UP : down ? KSHFL_DOWN : KSHFL_BFLY;
            t->k = (uint8_t)k;
            return;
        }
    }
}

/* A shfl whose b and c are immediates reads the same lanes every time: its table. */
static void shfl_tables(Program *p)
{
    for (uint32_t i = 0; i < p->code_len; i++) {
        XInstr *x = &p->code[i];
        x->shfl_table = NO_SLOT;
        if ((x->op != OP_SHFL && x->op != OP_SHFL_SYNC) || x->src[1] < p->first_immediate ||
            x->src[2] < p->first_immediate)
            continue;
        uint64_t b = p->immediates[x->src[1] - p->first_immediate], c = p->immediates[x->src[2] - p->first_immediate];
        if (p->shfl_table_count % 64 == 0)
            p->shfl_tables = xrealloc(p->shfl_tables, (p->shfl_table_count + 64) * sizeof *p->shfl_tables);
        ShflTable *t = &p->shfl_tables[p->shfl_table_count];
        t->in_range = warpops_shfl_sources(x->mode, &b, &c, true, t->src);
        shfl_form(t);
        x->shfl_table = p->shfl_table_count++;
    }
}

bool lower_program(Program *p, Memory *mem, Module *m, Function *fn, Diag *diag, uint32_t stack_bytes)
{
    memset(p, 0, sizeof *p);
    p->m = m;
    p->fn = fn;
    mem_init(mem);
    Loader ld = { .p = p, .mem = mem, .diag = diag };
    ld.layout.mem = mem;
    ld.layout.diag = diag;
    memset(ld.sreg_row, 0xff, sizeof ld.sreg_row);
    /* The kernel first, then every other function with a body, each with its own code range,
     * register rows and predicate slots. */
    p->funcs = xcalloc(m->functions.len + 1, sizeof *p->funcs);
    p->funcs[p->func_count++] = (FuncLayout){ .fn = fn };
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
    enum { MAX_INSTRUCTIONS = 1 << 24 };
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
    p->code = xcalloc(code ? code : 1, sizeof *p->code);
    ld.failed = !layout_memory(&ld.layout, p, stack_bytes);
    for (uint32_t k = 0; k < p->func_count && !ld.failed; k++) {
        ld.cur = &p->funcs[k];
        for (uint32_t i = 0; i < ld.cur->fn->code.len; i++) {
            XInstr *x = &p->code[ld.cur->code_base + i];
            load_instr(&ld, &ld.cur->fn->code.data[i], x);
            if (x->adjust_bits && (x->family == FAM_CONTROL || x->family == FAM_SYNC || x->family == FAM_BARRIER))
                cannot(&ld, x->ir, "a register plus an offset in this instruction");
        }
    }
    layout_free(&ld.layout, p->func_count);
    if (ld.failed)
        return false;
    for (uint32_t k = 0; k < p->func_count; k++)
        cfg_reconvergence(p->code, &p->funcs[k]);
    /* Immediate rows follow the special registers: fix the placeholders. */
    uint32_t first_immediate = p->row_count;
    p->first_immediate = first_immediate;
    p->row_count += ld.immediates.len;
    for (uint32_t i = 0; i < p->code_len; i++) {
        XInstr *x = &p->code[i];
        for (unsigned s = 0; s < x->src_count; s++)
            if (!(x->src_pred & (1u << s)) && x->src[s] >= NO_SLOT - ld.immediates.len)
                x->src[s] = first_immediate + (NO_SLOT - 1 - x->src[s]);
        for (unsigned v = 0; v < 4; v++)          /* st and atom data (NO_SLOT itself is '_') */
            if (x->vec[v] != NO_SLOT && x->vec[v] >= NO_SLOT - ld.immediates.len)
                x->vec[v] = first_immediate + (NO_SLOT - 1 - x->vec[v]);
        for (unsigned c = 0; c < x->coord_count; c++)  /* texture and surface coordinates */
            if (x->coord[c] >= NO_SLOT - ld.immediates.len)
                x->coord[c] = first_immediate + (NO_SLOT - 1 - x->coord[c]);
    }
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
    p->pred_count = ld.total_preds + 2;
    shfl_tables(p);
    for (uint32_t i = 0; i < p->code_len; i++)
        if (!p->code[i].adjust_bits)           /* r+imm: through execute(), which adds it first */
            alu_kernel_forms(&p->code[i]);
    p->kernels = kernels_for_cpu();
    memcpy(p->sreg_rows, ld.sreg_row, sizeof p->sreg_rows);
    name_registers(p);
    number_sync_kinds(p);
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
    free(p->immediates);
    free(p->shfl_tables);
    memset(p, 0, sizeof *p);
}

/* Whether the kernel fn lowers: what a run would refuse before it starts, reported as a run
 * would report it, for --check. */
bool lower_check(Module *m, Function *fn, Diag *diag)
{
    Program p;
    Memory mem;
    bool ok = lower_program(&p, &mem, m, fn, diag, DEFAULT_STACK_BYTES);
    lower_free(&p);
    mem_free(&mem);
    return ok;
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
