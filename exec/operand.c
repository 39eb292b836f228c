/* operand.c: lowering one operand of an instruction: an immediate, register or special
 * register as a row of lane values (or a predicate slot), an address, the data of ld/st, a
 * destination; and reporting what cannot run. Used by lower.c and callsite.c. */
#include <stdlib.h>
#include <string.h>

#include "block.h"

void operand_cannot(Loader *ld, const Instr *in, const char *what)
{
    diag_at(ld->diag, DIAG_ERROR, in->at, "ptxrun cannot execute %s yet", what);
    ld->failed = true;
}



/* The bits an immediate stands for as an operand of the given type. */
uint64_t operand_immediate_bits(const Operand *o, int type)
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

uint32_t operand_immediate_row(Loader *ld, uint64_t bits)
{
    for (uint32_t i = 0; i < ld->immediates.len; i++)
        if (ld->immediates.data[i] == bits)
            return NO_SLOT - 1 - i;       /* placeholder, fixed once the sreg rows are counted */
    VEC_PUSH(&ld->p->m->arena, ld->immediates, bits);
    return NO_SLOT - ld->immediates.len;
}

uint32_t operand_handle_param(Loader *ld, const Operand *o, int *space)
{
    Symbol s;
    const Function *fn = ld->p->fn;
    if (o->kind != OPND_SYM || ld->cur != ld->p->funcs || !operand_find_symbol(ld, o, &s) ||
        s.declared != SPACE_PARAM || s.row != NO_SLOT)
        return NO_SLOT;
    for (uint32_t i = 0; i < fn->params.len; i++) {
        if (fn->params.data[i].name != o->u.ref.name || ld->cur->params[i].offset != s.address ||
            !fn->params.data[i].handle_space)
            continue;
        if (o->u.ref.offset) {
            diag_at(ld->diag, DIAG_ERROR, o->at, "'%s' holds a handle: it takes no offset", o->u.ref.name);
            ld->failed = true;
            return NO_SLOT;
        }
        *space = fn->params.data[i].handle_space;
        if (ld->p->handle_rows[i] == NO_SLOT)
            ld->p->handle_rows[i] = ld->p->row_count++;
        return ld->p->handle_rows[i];
    }
    return NO_SLOT;
}

/* The variable (or function) an operand names. */
bool operand_find_symbol(const Loader *ld, const Operand *o, Symbol *out)
{
    return layout_find(&ld->layout, ld->p, ld->cur ? (uint32_t)(ld->cur - ld->p->funcs) : NO_SLOT, o->u.ref.name,
                       o->u.ref.target, out);
}

/* The parts of mov packing {a, b, ...} or unpacking into them, into vec: registers, '_' when
 * unpacking, immediates (of part_type) when packing; anything else is refused as what. */
void operand_parts(Loader *ld, const Instr *in, const Operand *parts, XInstr *x, bool unpack, int part_type,
                   const char *what)
{
    x->vec_count = (uint8_t)parts->count;
    for (unsigned i = 0; i < parts->count; i++) {
        const Operand *p = &parts->u.group.elems[i];
        if (p->kind == OPND_SINK && unpack)
            x->vec[i] = NO_SLOT;
        else if (p->kind == OPND_REG)
            x->vec[i] = ld->cur->row_base + p->u.slot;
        else if (!unpack && (p->kind == OPND_INT || p->kind == OPND_F32 || p->kind == OPND_F64))
            x->vec[i] = operand_immediate_row(ld, operand_immediate_bits(p, part_type));
        else
            operand_cannot(ld, in, what);
    }
}

/* A value source: register, special register or immediate, as a row. Predicates: a slot. */
uint32_t operand_source(Loader *ld, const Instr *in, const Operand *o, int type, XInstr *x, unsigned i)
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
    case OPND_SREG: {                    /* every one has a value (block.c, builtin.c) */
        if (type == TYPE_PRED) {          /* %is_explicit_cluster: the slot after the constants */
            x->src_pred |= (uint8_t)(1u << i);
            return ld->total_preds + 2;
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
            /* True when not zero; setp's and set's c when its low 32 bits are not (ptxas 13.0
             * builds the same cubin for setp.eq.and.u32 p, a, b, 0x100000000 as for 0, and for
             * selp, vote, bar.red and lop3 with it as for 1: docs/semantics.md). */
            bool low_word = in->op == OP_SETP || in->op == OP_SET;
            x->src_pred |= (uint8_t)(1u << i);
            return ld->total_preds + ((low_word ? (uint32_t)o->u.bits : o->u.bits) != 0);
        }
        return operand_immediate_row(ld, operand_immediate_bits(o, type));
    case OPND_REG_OFFSET: {                /* r+imm: computed into a row of its own first */
        const Operand *r = &o->u.group.elems[0];
        if (x->adjust_bits || type == TYPE_PRED) {
            operand_cannot(ld, in, "more than one register plus an offset in an instruction");
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
        const Module *m = ld->p->m;
        int space;
        uint32_t handle = operand_handle_param(ld, o, &space);
        if (handle != NO_SLOT && in->op == OP_MOV && type == TYPE_U64)
            return handle;                /* mov.u64 r, t: the handle the parameter holds (as ptxas takes) */
        if (handle != NO_SLOT && in->op == OP_CVTA) {   /* ptxas takes cvta.param.u64 r, t; what it gives is not said */
            size_t room = strlen(o->u.ref.name) + 64;     /* the name whole */
            char *what = xmalloc(room);
            snprintf(what, room, "cvta of the %s parameter '%s'", space == SPACE_TEX ? ".texref" :
                     space == SPACE_SURF ? ".surfref" : ".samplerref", o->u.ref.name);
            operand_cannot(ld, in, what);
            free(what);
            return 0;
        }
        if (handle != NO_SLOT) {
            diag_at(ld->diag, DIAG_ERROR, o->at, "'%s' holds a handle: it is named in tex, tld4, txq, suld, sust, "
                    "sured, suq or mov.u64 (as ptxas takes)", o->u.ref.name);
            ld->failed = true;
            return 0;
        }
        for (uint32_t g = 0; g < m->globals.len; g++) {
            const Decl *d = &m->globals.data[g];
            if (d->name != o->u.ref.name || d->type != TYPE_NONE ||
                (d->space != SPACE_TEX && d->space != SPACE_SURF && d->space != SPACE_SAMPLER))
                continue;
            if (in->op == OP_CVTA) {          /* ptxas takes cvta.global.u64 r, t; what it gives is not said */
                size_t room = strlen(d->name) + 64;
                char *what = xmalloc(room);
                snprintf(what, room, "cvta of the %s '%s'", d->space == SPACE_TEX ? ".texref" :
                         d->space == SPACE_SURF ? ".surfref" : ".samplerref", d->name);
                operand_cannot(ld, in, what);
                free(what);
                return 0;
            }
            if (in->op != OP_MOV || type != TYPE_U64 || o->u.ref.offset) {   /* as ptxas: mov.u64 r, t */
                diag_at(ld->diag, DIAG_ERROR, o->at, "the handle of '%s' is taken with mov.u64 (as ptxas does)",
                        d->name);
                ld->failed = true;
                return 0;
            }
            return operand_immediate_row(ld, OPAQUE_HANDLE_BASE + g);
        }
        if (!operand_find_symbol(ld, o, &s)) {
            size_t room = strlen(o->u.ref.name) + 64;
            char *what = xmalloc(room);
            snprintf(what, room, "the address of '%s'", o->u.ref.name);
            operand_cannot(ld, in, what);
            free(what);
            return 0;
        }
        if (s.row != NO_SLOT) {               /* in a .func's frame: a different address in each call */
            if (o->u.ref.offset)
                operand_cannot(ld, in, "the address of a function's frame variable plus an offset");
            return s.row;
        }
        return operand_immediate_row(ld, (s.address + (uint64_t)o->u.ref.offset) & width_mask(type_info[type].bits));
    }
    default:
        operand_cannot(ld, in, "an instruction with this operand");
        return 0;
    }
}

/* The address operand [base + offset]: base a register, a variable, or nothing. */
void operand_address(Loader *ld, const Instr *in, const Operand *o, XInstr *x)
{
    if (o->kind != OPND_ADDR) {
        operand_cannot(ld, in, "this address");
        return;
    }
    x->offset = o->u.group.offset;
    x->addr_bits = 64;
    Symbol s;
    if (o->count == 1 && o->u.group.elems[0].kind == OPND_SYM && operand_find_symbol(ld, &o->u.group.elems[0], &s)) {
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
        x->src[0] = operand_immediate_row(ld, 0);
    } else if (o->count == 1) {
        const Operand *base = &o->u.group.elems[0];
        x->src[0] = operand_source(ld, in, base, TYPE_U64, x, 0);
        if (base->kind == OPND_REG && type_info[ld->cur->fn->regs.data[base->u.slot].type].bits < 64)
            x->addr_bits = 32;                 /* a 32-bit address: [%r + imm] wraps in 32 bits */
    } else {
        operand_cannot(ld, in, "this address");
    }
    x->src_count = 1;
}

/* The register (or registers, for .v2/.v4) that ld writes or st reads. */
void operand_data(Loader *ld, const Instr *in, const Operand *o, XInstr *x, bool store)
{
    unsigned n = o->kind == OPND_VEC ? o->count : 1;
    if (n != x->vec_count || n > 4) {
        operand_cannot(ld, in, "a vector operand whose size does not match");
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
            x->vec[i] = operand_immediate_row(ld, operand_immediate_bits(e, x->type));
        } else if (store && e->kind == OPND_REG_OFFSET) {
            x->vec[i] = operand_source(ld, in, e, x->type, x, 1);
        } else {
            operand_cannot(ld, in, "this data operand");
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

void operand_destination(Loader *ld, const Instr *in, const Operand *o, XInstr *x)
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
        operand_cannot(ld, in, "a vector destination");
        break;
    default:
        operand_cannot(ld, in, "this destination");
    }
}
