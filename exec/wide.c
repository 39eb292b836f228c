/* wide.c: 128-bit values. A .b128 register is two rows, its low and its high 64 bits (the
 * checker gives it two slots: parser/ir.h). Here its instructions are lowered onto those rows:
 * mov (a copy, an immediate, packing and unpacking: pack.c runs them), ld/ldu/st (as two 64-bit
 * elements, 16-byte aligned: mem.c runs them) and atom.cas/.exch.b128, whose 16-byte
 * read-modify-write of one lane is atom128.c's (mem.c finds the bytes and calls it).
 * An integer immediate stands for the 128-bit value with the same low 64 bits and high bits 0
 * (ptxas builds the same cubin for mov.b128 d, -5 and mov.b128 d, {-5, 0}; docs/semantics.md). */
#include <stdio.h>

#include "family.h"

/* The rows of a .b128 register operand (low, high); false if o is not one. */
static bool register_rows(const Loader *ld, const Operand *o, uint32_t rows[2])
{
    if (o->kind != OPND_REG || ld->cur->fn->regs.data[o->u.slot].type != TYPE_B128)
        return false;
    rows[0] = ld->cur->row_base + o->u.slot;
    rows[1] = rows[0] + 1;
    return true;
}

/* A 128-bit source: a .b128 register, or an integer immediate (zero-extended). */
static bool value_rows(Loader *ld, const Operand *o, uint32_t rows[2])
{
    if (register_rows(ld, o, rows))
        return true;
    if (o->kind != OPND_INT)
        return false;
    rows[0] = operand_immediate_row(ld, o->u.bits);
    rows[1] = operand_immediate_row(ld, 0);
    return true;
}

/* Whether some operand of in (or an element of a vector operand) is a .b128 register. */
static bool names_wide(const Loader *ld, const Instr *in)
{
    uint32_t rows[2];
    for (unsigned i = 0; i < in->operand_count; i++) {
        const Operand *o = &in->operands[i];
        bool group = o->kind == OPND_VEC || o->kind == OPND_LIST;
        unsigned n = group ? o->count : 1;
        for (unsigned k = 0; k < n; k++)
            if (register_rows(ld, group ? &o->u.group.elems[k] : o, rows))
                return true;
    }
    return false;
}

/* False (having said so) for an instruction of another type that names a .b128 register: only
 * st may, storing its low bits (ld and st may name registers wider than their type). */
bool wide_other_ok(Loader *ld, const Instr *in)
{
    if (in->op == OP_ST || !names_wide(ld, in))
        return true;
    char what[96];
    snprintf(what, sizeof what, "'%s' with a .b128 register", in->mnemonic);
    operand_cannot(ld, in, what);
    return false;
}

/* The rows become two 64-bit elements. */
static void as_two_rows(XInstr *x)
{
    x->type = TYPE_B64;
    x->bits = 64;
    x->cls = 'b';
    x->vec_count = 2;
}

/* mov.b128 d, {a, b} / {a, b, c, e} and back, d, a and d, imm. */
static void lower_move(Loader *ld, const Instr *in, XInstr *x)
{
    const Operand *d = &in->operands[0], *a = &in->operands[1];
    uint32_t rows[2];
    if (d->kind != OPND_VEC && a->kind != OPND_VEC) {
        if (!register_rows(ld, d, x->vec) || !value_rows(ld, a, rows)) {
            operand_cannot(ld, in, "mov.b128 with this operand");
            return;
        }
        as_two_rows(x);
        x->src[0] = rows[0];
        x->src[1] = rows[1];
        x->src_count = 2;
        x->vmove = true;
        x->dst_kind = DST_VALUE;                   /* for the trace and the output; pack.c writes vec */
        x->dst = x->vec[0];
        return;
    }
    bool unpack = d->kind == OPND_VEC;
    const Operand *parts = unpack ? d : a;
    if ((parts->count != 2 && parts->count != 4) || !register_rows(ld, unpack ? a : d, rows)) {
        operand_cannot(ld, in, "mov.b128 with this vector");
        return;
    }
    int part_type = parts->count == 2 ? TYPE_B64 : TYPE_B32;
    operand_parts(ld, in, parts, x, unpack, part_type, "mov.b128 with this vector element");
    if (unpack) {
        x->unpack = true;
        x->src[0] = rows[0];
        x->src_count = 1;
    } else {
        x->pack = true;
        x->dst_kind = DST_VALUE;
        x->dst = rows[0];
    }
}

/* atom.cas.b128 d, [a], b, c / atom.exch.b128 d, [a], b: vec holds b's rows, then c's. */
static void lower_atomic(Loader *ld, const Instr *in, XInstr *x)
{
    bool cas = x->mode == MOD_CAS;
    uint32_t rows[2];
    const Operand *d = &in->operands[0];
    x->elements = 1;                   /* one 16-byte element (atomic.c) */
    if (d->kind == OPND_SINK) {
        x->dst_kind = DST_NONE;
    } else if (register_rows(ld, d, rows)) {
        x->dst_kind = DST_VALUE;
        x->dst = rows[0];
    } else {
        operand_cannot(ld, in, "atom.b128 with this destination");
        return;
    }
    operand_address(ld, in, &in->operands[1], x);
    for (unsigned i = 0; i < (cas ? 2u : 1u); i++) {
        const Operand *o = &in->operands[2 + i];
        /* ptxas takes exch's immediate (zero-extended, as mov's); given one for cas, it crashes */
        if (cas ? !register_rows(ld, o, &x->vec[2 * i]) : !value_rows(ld, o, &x->vec[2 * i])) {
            operand_cannot(ld, in, cas ? "atom.cas.b128 with an operand other than a .b128 register"
                                       : "atom.exch.b128 with this operand");
            return;
        }
    }
    x->vec_count = cas ? 4 : 2;
}

/* An instruction of type .b128: mov, ld, ldu, st, atom.cas, atom.exch (what ptxas takes). */
void wide_lower(Loader *ld, const Instr *in, XInstr *x)
{
    switch (in->op) {
    case OP_MOV:
        lower_move(ld, in, x);
        return;
    case OP_LD:
    case OP_LDU:
        if (!register_rows(ld, &in->operands[0], x->vec)) {
            operand_cannot(ld, in, "ld.b128 into anything but a .b128 register");
            return;
        }
        as_two_rows(x);
        x->dst_kind = DST_VALUE;
        x->dst = x->vec[0];
        x->dst_bits = 64;
        operand_address(ld, in, &in->operands[1], x);
        return;
    case OP_ST:
        operand_address(ld, in, &in->operands[0], x);
        if (!value_rows(ld, &in->operands[1], x->vec)) {
            operand_cannot(ld, in, "st.b128 of anything but a .b128 register or an integer");
            return;
        }
        as_two_rows(x);
        return;
    case OP_ATOM:
        if (x->mode == MOD_CAS || x->mode == MOD_EXCH) {
            lower_atomic(ld, in, x);
            return;
        }
        break;
    default:
        break;
    }
    char what[96];
    snprintf(what, sizeof what, "'%s'", in->mnemonic);
    operand_cannot(ld, in, what);
}
