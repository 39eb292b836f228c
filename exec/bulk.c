/* bulk.c: the bulk and tensor copies (docs/semantics.md, "Bulk and tensor copies"):
 * cp.async.bulk, cp.reduce.async.bulk, their .tensor forms through a tensor map (tensormap.c),
 * cp.async.bulk.commit_group and wait_group(.read), cp.async.bulk.prefetch.tensor. Each copy is
 * issued by a lane: its source read and its destination checked then (mem_locate: the same
 * faults as ld and st), the destination's bytes made undefined, and what will land kept in the
 * block's BulkState; the bytes land at the completion point, the wait_group that covers the
 * copy's bulk group (or, as the CTA ends, every copy not landed: one whose shared source no wait
 * covered lands undefined, with a warning). A read of the destination before then reads undefined
 * bytes, so a missing wait is reported. Requires: mem.c, atomic.c, tensormap.c, report.c. */
#include <stdlib.h>
#include <string.h>

#include "async.h"

enum { BULK_COPY, BULK_REDUCE, BULK_TENSOR, BULK_TENSOR_REDUCE, BULK_PREFETCH_TENSOR, BULK_COMMIT, BULK_WAIT };

typedef struct BulkVal {       /* an integer operand: a register's row, or an immediate (row NO_SLOT) */
    uint32_t row;
    uint64_t imm;
} BulkVal;

typedef struct BulkAddr {      /* [row + base + offset], an address in space (SPACE_NONE: generic) */
    uint32_t row;              /* NO_SLOT: a variable's fixed address or an immediate */
    uint64_t base;
    int64_t offset;
    uint8_t bits;              /* the register's width: the sum wraps in it */
    uint8_t space;
} BulkAddr;

typedef struct BulkForm {
    uint8_t kind;
    uint8_t dims;              /* .1d to .5d */
    uint8_t dst_space, src_space;
    bool im2col, read;
    uint8_t red_op;            /* a Mod: MOD_ADD ... MOD_XOR */
    uint8_t red_type;          /* cp.reduce.async.bulk: the elements' type */
    BulkAddr dst, src, tmap;   /* a tensor copy: tmap, and the shared side in dst (load) or src (store) */
    BulkAddr mbar;             /* the mbarrier forms: the mbarrier whose phase the bytes complete */
    bool to_mbarrier;          /* an mbarrier form (else a bulk group's) */
    BulkVal size;              /* bytes; wait_group: N */
    BulkVal coord[TMAP_MAX_RANK], offs[3];
} BulkForm;

typedef struct BulkChunk {     /* bytes that land together: 16 of a bulk copy, or one tensor element */
    uint8_t *data, *shadow;    /* where */
    uint32_t region;           /* in which region of the block's memory (Region.async_pending counts it) */
    uint8_t bytes[16], sbits[16], old_sbits[16];
    uint8_t len;
    uint8_t red_op, red_type;  /* a reduction's (red_op 0: a copy) */
    bool read_done;            /* a wait_group(.read) covered it: its source was read in time */
    uint16_t thread;
    uint32_t pc;
    uint64_t group;
} BulkChunk;

typedef struct BulkState {
    uint64_t committed[MAX_BLOCK_THREADS];   /* each thread's bulk groups committed so far */
    BulkChunk *c;
    size_t len, cap;
} BulkState;

/* ---- lowering ---- */

static bool fail(Loader *ld, const Instr *in, const Operand *o, const char *what)
{
    diag_at(ld->diag, DIAG_ERROR, o ? o->at : in->at, "'%s' %s", in->mnemonic, what);
    ld->failed = true;
    return false;
}

static unsigned reg_bits(Loader *ld, const Operand *o)
{
    return type_info[ld->cur->fn->regs.data[o->u.slot].type].bits;
}

static bool lower_val(Loader *ld, const Instr *in, const Operand *o, BulkVal *v, const char *what)
{
    v->row = NO_SLOT;
    v->imm = 0;
    if (o->kind == OPND_INT) {
        v->imm = o->u.bits;
        return true;
    }
    if (o->kind == OPND_REG && reg_bits(ld, o) >= 16 && reg_bits(ld, o) <= 64) {
        v->row = ld->cur->row_base + o->u.slot;
        return true;
    }
    return fail(ld, in, o, what);
}

/* An address operand [r], [r+imm], [var], [var+imm], [imm] in space (SPACE_NONE: generic); with
 * coords, [base, {c0, ...}] (a tensor map and its coordinates). */
static bool lower_addr(Loader *ld, const Instr *in, const Operand *o, int space, BulkAddr *a, BulkForm *coords)
{
    a->row = NO_SLOT;
    a->base = 0;
    a->bits = 64;
    a->space = (uint8_t)space;
    unsigned want = coords ? 2 : 1;
    if (o->kind != OPND_ADDR || (o->count != want && !(o->count == 0 && !coords)))
        return fail(ld, in, o, coords ? "takes the tensor map and its coordinates here: [map, {x, y, ...}]"
                                      : "takes an address here: [a], [a+imm], [var] or [imm]");
    a->offset = o->u.group.offset;
    if (o->count) {
        const Operand *b = &o->u.group.elems[0];
        Symbol s;
        if (b->kind == OPND_REG && type_info[ld->cur->fn->regs.data[b->u.slot].type].cls != 'f') {
            a->row = ld->cur->row_base + b->u.slot;
            a->bits = (uint8_t)reg_bits(ld, b);
        } else if (b->kind == OPND_SYM && operand_find_symbol(ld, b, &s)) {
            if (space != SPACE_NONE && s.declared != space)
                return fail(ld, in, b, "names a variable of another state space");
            a->row = s.row;                    /* a .func's frame variable: its address in a row */
            a->base = s.row == NO_SLOT ? s.address : 0;
            a->offset += b->u.ref.offset;
            a->space = s.space;
        } else {
            return fail(ld, in, b, "takes an integer register or a variable in an address");
        }
    }
    if (!coords)
        return true;
    const Operand *v = &o->u.group.elems[1];
    if (v->kind != OPND_VEC || v->count != coords->dims)
        return fail(ld, in, v, "takes as many coordinates as its dimensions ({x} for .1d ... five for .5d)");
    for (unsigned i = 0; i < v->count; i++) {
        const Operand *e = &v->u.group.elems[i];
        if (e->kind == OPND_REG && reg_bits(ld, e) != 32)
            return fail(ld, in, e, "takes 32-bit coordinates");
        if (!lower_val(ld, in, e, &coords->coord[i], "takes registers or immediates as coordinates"))
            return false;
    }
    return true;
}

static bool lower_policy(Loader *ld, const Instr *in, unsigned i)
{
    if (!ir_has_mod(in, MOD_L2_CACHE_HINT) || i >= in->operand_count)
        return i == in->operand_count || fail(ld, in, &in->operands[i], "has an operand too many here");
    const Operand *o = &in->operands[i];
    if (o->kind != OPND_REG || reg_bits(ld, o) != 64)
        return fail(ld, in, o, "takes the cache policy in a 64-bit register");
    return i + 1 == in->operand_count || fail(ld, in, &in->operands[i + 1], "has an operand too many here");
}

/* cp.reduce.async.bulk: the operations and types ptxas 13.0 takes on sm_90. */
static bool reduce_ok(int op, int type, bool to_global)
{
    switch (op) {
    case MOD_ADD:
        return type == TYPE_U32 || type == TYPE_S32 || type == TYPE_U64 ||
               (to_global && (type == TYPE_F32 || type == TYPE_F64 || type == TYPE_F16 || type == TYPE_BF16));
    case MOD_MIN: case MOD_MAX:
        return type == TYPE_U32 || type == TYPE_S32 ||
               (to_global && (type == TYPE_U64 || type == TYPE_S64 || type == TYPE_F16 || type == TYPE_BF16));
    case MOD_INC: case MOD_DEC: return type == TYPE_U32;
    case MOD_AND: case MOD_OR: case MOD_XOR: return type == TYPE_B32 || (to_global && type == TYPE_B64);
    default: return false;
    }
}

/* The operands of the form f decoded from in's suffixes; false after reporting. */
static bool lower_operands(Loader *ld, const Instr *in, BulkForm *f, bool group)
{
    unsigned n = in->operand_count;
    const Operand *o = in->operands;
    switch (in->op) {
    case OP_CP_ASYNC_BULK_COMMIT_GROUP:
        f->kind = BULK_COMMIT;
        break;
    case OP_CP_ASYNC_BULK_WAIT_GROUP:
        f->kind = BULK_WAIT;
        if (n != 1 || o[0].kind != OPND_INT || o[0].u.bits > UINT32_MAX)
            return fail(ld, in, n ? &o[0] : NULL, "takes the count of groups left pending as an immediate "
                                                  "(as ptxas)");
        f->size.row = NO_SLOT;
        f->size.imm = o[0].u.bits;
        break;
    case OP_CP_ASYNC_BULK:
    case OP_CP_REDUCE_ASYNC_BULK: {
        bool reduce = in->op == OP_CP_REDUCE_ASYNC_BULK;
        f->kind = reduce ? BULK_REDUCE : BULK_COPY;
        if (!group && reduce) {                /* the mbarrier form: mbarrier::complete_tx::bytes is refused */
            operand_cannot(ld, in, "an mbarrier's bulk reduction");
            return false;
        }
        if (!group) {                          /* into shared memory, completing an mbarrier's phase */
            f->to_mbarrier = true;
            bool from_cta = f->src_space == SPACE_SHARED;
            if (f->dst_space != SPACE_SHARED || (from_cta && !ir_has_mod(in, MOD_SHARED_CLUSTER)))
                return fail(ld, in, NULL, "with an mbarrier copies from .global to .shared::cluster or .shared::cta, "
                                          "or from .shared::cta to .shared::cluster (PTX ISA)");
            if (n < 4 || !lower_addr(ld, in, &o[0], SPACE_SHARED, &f->dst, NULL) ||
                !lower_addr(ld, in, &o[1], f->src_space, &f->src, NULL) ||
                !lower_val(ld, in, &o[2], &f->size, "takes the size in bytes as a register or an immediate") ||
                !lower_addr(ld, in, &o[3], SPACE_SHARED, &f->mbar, NULL) || !lower_policy(ld, in, 4))
                return n < 4 && fail(ld, in, NULL, "takes a destination, a source, a size and an mbarrier");
            if (f->size.row == NO_SLOT && (f->size.imm % 16 || !f->size.imm))
                return fail(ld, in, &o[2], "copies a multiple of 16 bytes");
            break;
        }
        if (f->dst_space != SPACE_GLOBAL || f->src_space != SPACE_SHARED || !ir_has_mod(in, MOD_SHARED_CTA))
            return fail(ld, in, NULL, ".bulk_group copies from .shared::cta to .global (PTX ISA)");
        if (reduce) {
            f->red_type = in->type_count ? in->types[0] : TYPE_NONE;
            if (!reduce_ok(f->red_op, f->red_type, true))
                return fail(ld, in, NULL, "does not take this operation with this type (as ptxas 13.0)");
            bool half_add = f->red_op == MOD_ADD && (f->red_type == TYPE_F16 || f->red_type == TYPE_BF16);
            if (ir_has_mod(in, MOD_NOFTZ) != half_add)
                return fail(ld, in, NULL, ".add of .f16 and .bf16 needs .noftz, and only it takes it (as ptxas 13.0)");
        }
        if (n < 3 || !lower_addr(ld, in, &o[0], f->dst_space, &f->dst, NULL) ||
            !lower_addr(ld, in, &o[1], f->src_space, &f->src, NULL) ||
            !lower_val(ld, in, &o[2], &f->size, "takes the size in bytes as a register or an immediate") ||
            !lower_policy(ld, in, 3))
            return (n < 3 && fail(ld, in, NULL, "takes a destination, a source and a size"));
        if (f->size.row == NO_SLOT && (f->size.imm % 16 || !f->size.imm))
            return fail(ld, in, &o[2], "copies a multiple of 16 bytes");
        break;
    }
    case OP_CP_ASYNC_BULK_TENSOR:
    case OP_CP_REDUCE_ASYNC_BULK_TENSOR:
    case OP_CP_ASYNC_BULK_PREFETCH_TENSOR: {
        f->kind = in->op == OP_CP_ASYNC_BULK_TENSOR ? BULK_TENSOR
               : in->op == OP_CP_REDUCE_ASYNC_BULK_TENSOR ? BULK_TENSOR_REDUCE : BULK_PREFETCH_TENSOR;
        bool im2col_offsets = ir_has_mod(in, MOD_IM2COL);
        if (f->im2col && f->dims < 3)
            return fail(ld, in, NULL, "needs .3d, .4d or .5d with .im2col");
        if (f->kind == BULK_PREFETCH_TENSOR) {
            if (n < 1 || !lower_addr(ld, in, &o[0], SPACE_NONE, &f->tmap,  f))
                return (n < 1 && fail(ld, in, NULL, "takes a tensor map"));
            unsigned i = 1;
            if (im2col_offsets) {
                if (n < 2 || o[1].kind != OPND_VEC || o[1].count != f->dims - 2u)
                    return fail(ld, in, n > 1 ? &o[1] : NULL, "takes an im2col offset for each of its "
                                                                    "spatial dimensions: {w}, {w, h} or {w, h, d}");
                for (unsigned k = 0; k < o[1].count; k++)
                    if (!lower_val(ld, in, &o[1].u.group.elems[k], &f->offs[k], "takes 16-bit im2col offsets"))
                        return false;
                i = 2;
            }
            if (!lower_policy(ld, in, i))
                return false;
            break;
        }
        if (!group) {                          /* a load into shared memory, completing an mbarrier's phase */
            f->to_mbarrier = true;
            if (f->dst_space != SPACE_SHARED || f->src_space != SPACE_GLOBAL || ir_has_mod(in, MOD_IM2COL_NO_OFFS))
                return fail(ld, in, NULL, "with an mbarrier loads from .global into .shared::cluster or .shared::cta "
                                          "(tile or im2col: PTX ISA)");
            if (n < 3 || !lower_addr(ld, in, &o[0], SPACE_SHARED, &f->dst, NULL) ||
                !lower_addr(ld, in, &o[1], SPACE_NONE, &f->tmap, f) ||
                !lower_addr(ld, in, &o[2], SPACE_SHARED, &f->mbar, NULL))
                return n < 3 && fail(ld, in, NULL, "takes a shared address, a tensor map with coordinates and an "
                                                   "mbarrier");
            unsigned i = 3;
            if (im2col_offsets) {
                if (n < 4 || o[3].kind != OPND_VEC || o[3].count != f->dims - 2u)
                    return fail(ld, in, n > 3 ? &o[3] : NULL, "takes an im2col offset for each of its spatial "
                                                              "dimensions: {w}, {w, h} or {w, h, d}");
                for (unsigned k = 0; k < o[3].count; k++)
                    if (!lower_val(ld, in, &o[3].u.group.elems[k], &f->offs[k], "takes 16-bit im2col offsets"))
                        return false;
                i = 4;
            }
            return lower_policy(ld, in, i);
        }
        if (f->dst_space != SPACE_GLOBAL || f->src_space != SPACE_SHARED || im2col_offsets)
            return fail(ld, in, NULL, ".bulk_group copies from .shared::cta to .global (tile or "
                                            "im2col_no_offs: PTX ISA)");
        if (n < 2 || !lower_addr(ld, in, &o[0], SPACE_NONE, &f->tmap,  f) ||
            !lower_addr(ld, in, &o[1], SPACE_SHARED, &f->src, NULL) || !lower_policy(ld, in, 2))
            return (n < 2 && fail(ld, in, NULL, "takes a tensor map with coordinates and a shared address"));
        break;
    }
    default:
        BUG("bulk op %d", in->op);
    }
    return true;
}

void bulk_lower(Loader *ld, const Instr *in, XInstr *x)
{
    BulkForm f;
    memset(&f, 0, sizeof f);
    f.dst_space = f.src_space = SPACE_NONE;
    unsigned spaces = 0;
    bool group = false;
    for (unsigned i = 0; i < in->mod_count; i++) {
        int m = in->mods[i];
        switch (m) {
        case MOD_GEOM_1D: f.dims = 1; break;
        case MOD_GEOM_2D: f.dims = 2; break;
        case MOD_GEOM_3D: f.dims = 3; break;
        case MOD_GEOM_4D: f.dims = 4; break;
        case MOD_GEOM_5D: f.dims = 5; break;
        case MOD_GLOBAL: case MOD_SHARED_CTA: case MOD_SHARED_CLUSTER:
            if (spaces++ == 0)
                f.dst_space = m == MOD_GLOBAL ? SPACE_GLOBAL : SPACE_SHARED;
            else
                f.src_space = m == MOD_GLOBAL ? SPACE_GLOBAL : SPACE_SHARED;
            break;
        case MOD_IM2COL: case MOD_IM2COL_NO_OFFS: f.im2col = true; break;
        case MOD_BULK_GROUP: group = true; break;
        case MOD_READ: f.read = true; break;
        case MOD_ADD: case MOD_MIN: case MOD_MAX: case MOD_INC: case MOD_DEC: case MOD_AND: case MOD_OR: case MOD_XOR:
            f.red_op = (uint8_t)m;
            break;
        default: break;
        }
    }
    x->space = SPACE_NONE;                     /* every access through a generic address (bulk_execute) */
    if (!lower_operands(ld, in, &f, group))
        return;
    Program *p = ld->p;
    p->bulk_forms = xrealloc(p->bulk_forms, (p->bulk_form_count + 1) * sizeof *p->bulk_forms);
    p->bulk_forms[p->bulk_form_count] = f;
    x->target = p->bulk_form_count++;
    x->src_count = 0;
}

/* ---- execution ---- */

static uint32_t pc_of(const Warp *w, const XInstr *x)
{
    return (uint32_t)(x - w->prog->code);
}

static bool val_of(Warp *w, const XInstr *x, int l, const BulkVal *v, uint64_t *out, const char *what)
{
    if (v->row == NO_SLOT) {
        *out = v->imm;
        return true;
    }
    if (!(w->defined[v->row] >> l & 1)) {
        report_fault(w, pc_of(w, x), "lane %d (pc %u): '%s': its %s is undefined", l, pc_of(w, x), x->ir->mnemonic,
                     what);
        return false;
    }
    *out = w->val[v->row][l];
    return true;
}

/* The generic address an address operand names in lane l; false after a fault. */
static bool addr_of(Warp *w, const XInstr *x, int l, const BulkAddr *a, uint64_t *out, const char *what)
{
    uint64_t v = a->base + (uint64_t)a->offset;
    if (a->row != NO_SLOT) {
        if (!(w->defined[a->row] >> l & 1)) {
            report_fault(w, pc_of(w, x), "lane %d (pc %u): '%s': the %s address is undefined", l, pc_of(w, x),
                         x->ir->mnemonic, what);
            return false;
        }
        v += w->val[a->row][l];
    }
    v &= width_mask(a->bits);
    *out = a->space == SPACE_NONE ? v : mem_generic(a->space, v);
    return true;
}

static BulkState *state(Block *b)
{
    if (!b->bulk)
        b->bulk = xcalloc(1, sizeof *b->bulk);
    return b->bulk;
}

static BulkChunk *chunk_new(Warp *w, const XInstr *x, int l)
{
    BulkState *s = state(w->block);
    if (s->len == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->c = xrealloc(s->c, s->cap * sizeof *s->c);
    }
    BulkChunk *c = &s->c[s->len++];
    memset(c, 0, sizeof *c);
    c->thread = (uint16_t)(w->thread_base + (uint32_t)l);
    c->pc = pc_of(w, x);
    c->group = s->committed[c->thread];
    return c;
}

/* len bytes from src (its shadow ssh) are to land at dst (dsh) of b's memory, which become
 * undefined until then (a read of them warns: asyncwrite.c). */
static void chunk_fill(Block *b, BulkChunk *c, uint8_t *dst, uint8_t *dsh, const uint8_t *src, const uint8_t *ssh,
                       unsigned len)
{
    c->region = async_region_of(b, dst);
    b->mem.regions[c->region].async_pending++;
    c->data = dst;
    c->shadow = dsh;
    c->len = (uint8_t)len;
    memcpy(c->bytes, src, len);
    memcpy(c->sbits, ssh, len);
    memcpy(c->old_sbits, dsh, len);
    memset(dsh, 0, len);
}


/* The mbarrier of lane l's operand (an index in its CTA's table) and *owner that CTA (its own, or
 * another of its cluster through a .shared::cluster address); NO_SLOT after a fault. */
static uint32_t find_mbarrier(Warp *w, const XInstr *x, int l, const BulkForm *f, Block **owner)
{
    uint64_t a;
    if (!addr_of(w, x, l, &f->mbar, &a, "mbarrier"))
        return NO_SLOT;
    return mbarrier_at(w, x, l, a, owner);
}

/* bytes (their shadow) on their way to shared address dst, in pieces of 16 at most, attached to
 * mbarrier m's current phase; then the mbarrier's complete-tx of `total` bytes. */
static void to_shared(Warp *w, const XInstr *x, int l, uint32_t m, Block *b, uint64_t dst, const uint8_t *bytes,
                      const uint8_t *shadow, uint64_t size, uint64_t total, int swizzle)
{

    unsigned n;
    for (uint64_t at = 0; at < size; at += n) {
        for (n = 16; n > size - at; n >>= 1) {  /* pieces a power of two (im2col's last one may be short) */
        }
        uint8_t *dsh, *p = mem_locate(w, x, l, tensormap_swizzle(swizzle, dst + at), n, true, &dsh);
        if (!p)
            return;
        AsyncWrite wr = { .to = b, .size = n, .thread = w->thread_base + (uint32_t)l, .pc = pc_of(w, x),
                          .kind = ASYNC_BULK, .mbarrier = NO_SLOT };
        if (mbarrier_owner(w->block, p, &wr.region) != b) {
            report_fault(w, pc_of(w, x), "lane %d (pc %u): '%s': the destination 0x%llx and the mbarrier are in the "
                         "shared memory of different CTAs (the PTX ISA: the same CTA's)", l, pc_of(w, x),
                         x->ir->mnemonic, (unsigned long long)dst);
            return;
        }
        wr.offset = (uint64_t)(p - b->mem.regions[wr.region].data);
        async_issue(&wr, bytes + at, shadow + at);
        async_attach(b, m, &wr);
    }
    mbarrier_tx(w, pc_of(w, x), l, b, m, -(int64_t)total);
}

/* cp.async.bulk.shared::cluster.global (or .shared::cta) .mbarrier::complete_tx::bytes, lane l. */
static void issue_bulk_load(Warp *w, const XInstr *x, int l, const BulkForm *f)
{
    uint64_t dst, src, size;
    if (!addr_of(w, x, l, &f->dst, &dst, "destination") || !addr_of(w, x, l, &f->src, &src, "source") ||
        !val_of(w, x, l, &f->size, &size, "size"))
        return;
    uint32_t pc = pc_of(w, x);
    if (size % 16 || !size || size >= 1u << 20) {
        report_fault(w, pc, "lane %d (pc %u): '%s' copies %llu bytes, not a multiple of 16 below 2^20 (PTX ISA)", l,
                     pc, x->ir->mnemonic, (unsigned long long)size);
        return;
    }
    Block *owner;
    uint32_t m = find_mbarrier(w, x, l, f, &owner);
    if (m == NO_SLOT)
        return;
    uint8_t *bytes = xmalloc(size), *shadow = xmalloc(size);
    for (uint64_t at = 0; at < size && !w->faulted; at += 16) {
        uint8_t *ssh;
        const uint8_t *s = mem_locate(w, x, l, src + at, 16, false, &ssh);
        if (s) {
            memcpy(bytes + at, s, 16);
            memcpy(shadow + at, ssh, 16);
        }
    }
    if (!w->faulted)
        to_shared(w, x, l, m, owner, dst, bytes, shadow, size, size, TMAP_SWIZZLE_NONE);
    free(bytes);
    free(shadow);
}

/* cp.async.bulk / cp.reduce.async.bulk .global.shared::cta.bulk_group, lane l. */
static void issue_bulk(Warp *w, const XInstr *x, int l, const BulkForm *f)
{
    uint64_t dst, src, size;
    if (!addr_of(w, x, l, &f->dst, &dst, "destination") || !addr_of(w, x, l, &f->src, &src, "source") ||
        !val_of(w, x, l, &f->size, &size, "size"))
        return;
    uint32_t pc = pc_of(w, x);
    if (size % 16 || !size || size >= 1ull << 32) {
        report_fault(w, pc, "lane %d (pc %u): '%s' copies %llu bytes, not a multiple of 16 (PTX ISA)", l, pc,
                     x->ir->mnemonic, (unsigned long long)size);
        return;
    }
    for (uint64_t at = 0; at < size; at += 16) {
        uint8_t *ssh, *dsh;
        const uint8_t *s = mem_locate(w, x, l, src + at, 16, false, &ssh);
        if (!s)
            return;
        uint8_t buf[16], sbuf[16];
        memcpy(buf, s, 16);                    /* the source's bytes as they are now */
        memcpy(sbuf, ssh, 16);
        uint8_t *d = mem_locate(w, x, l, dst + at, 16, true, &dsh);
        if (!d)
            return;
        BulkChunk *c = chunk_new(w, x, l);
        chunk_fill(w->block, c, d, dsh, buf, sbuf, 16);
        async_changed(w->block);
        if (f->kind == BULK_REDUCE) {
            c->red_op = f->red_op;
            c->red_type = f->red_type;
        }
    }
}

/* An im2col copy's pixels (tensormap_pixels), to free; NULL for a tiled one. */
static int64_t (*column(const TensorMap *t, const int32_t *coord))[TMAP_MAX_RANK]
{
    if (t->mode != TMAP_IM2COL)
        return NULL;
    int64_t (*at)[TMAP_MAX_RANK] = xmalloc(t->pixels * sizeof *at);
    tensormap_pixels(t, coord, at);
    return at;
}

/* The 128 bytes of the tensor map at generic address a, decoded; false after a fault. */
static bool read_map(Warp *w, const XInstr *x, int l, uint64_t a, TensorMap *t)
{
    uint32_t pc = pc_of(w, x);
    if (a % 64) {
        report_fault(w, pc, "lane %d (pc %u): '%s': the tensor map at 0x%llx is not 64-byte aligned", l, pc,
                     x->ir->mnemonic, (unsigned long long)a);
        return false;
    }
    uint8_t bytes[TMAP_BYTES];
    for (unsigned i = 0; i < TMAP_BYTES; i += 16) {
        uint8_t *sh;
        const uint8_t *p = mem_locate(w, x, l, a + i, 16, false, &sh);
        if (!p)
            return false;
        for (unsigned k = 0; k < 16; k++)
            if (sh[k] != 0xff) {
                report_fault(w, pc, "lane %d (pc %u): '%s': the tensor map at 0x%llx has undefined bytes", l, pc,
                             x->ir->mnemonic, (unsigned long long)a);
                return false;
            }
        memcpy(bytes + i, p, 16);
    }
    char why[240];
    if (!tensormap_decode(bytes, t, why, sizeof why)) {
        report_fault(w, pc, "lane %d (pc %u): '%s': the tensor map at 0x%llx: %s", l, pc, x->ir->mnemonic,
                     (unsigned long long)a, why);
        return false;
    }
    return true;
}

/* The PTX type a tensor map's elements reduce in, for op; TYPE_NONE when the ISA gives none. */
static int map_reduce_type(const TensorMap *t, int op)
{
    bool bitwise = op == MOD_AND || op == MOD_OR || op == MOD_XOR;
    int type;
    switch (t->dtype) {
    case TMAP_UINT32: type = bitwise ? TYPE_B32 : TYPE_U32; break;
    case TMAP_INT32: type = bitwise ? TYPE_B32 : TYPE_S32; break;
    case TMAP_UINT64: type = bitwise ? TYPE_B64 : TYPE_U64; break;
    case TMAP_INT64: type = bitwise ? TYPE_B64 : TYPE_S64; break;
    case TMAP_FLOAT16: type = TYPE_F16; break;
    case TMAP_BFLOAT16: type = TYPE_BF16; break;
    case TMAP_FLOAT32: type = TYPE_F32; break;
    case TMAP_FLOAT64: type = TYPE_F64; break;
    default: return TYPE_NONE;
    }
    return reduce_ok(op, type, true) ? type : TYPE_NONE;
}

/* A tensor copy from shared memory into the tensor (.global.shared::cta: tile or im2col_no_offs,
 * a copy or a reduction), lane l: each element of the box inside the tensor. */
static void issue_tensor_store(Warp *w, const XInstr *x, int l, const BulkForm *f)
{
    uint32_t pc = pc_of(w, x);
    uint64_t ma, smem;
    TensorMap t;
    if (!addr_of(w, x, l, &f->tmap, &ma, "tensor map") || !addr_of(w, x, l, &f->src, &smem, "shared") ||
        !read_map(w, x, l, ma, &t))
        return;
    int32_t coord[TMAP_MAX_RANK] = { 0 };
    for (unsigned i = 0; i < f->dims; i++) {
        uint64_t v;
        if (!val_of(w, x, l, &f->coord[i], &v, "coordinate"))
            return;
        coord[i] = (int32_t)(uint32_t)v;
    }
    if (t.rank != f->dims || (t.mode == TMAP_IM2COL) != f->im2col) {
        report_fault(w, pc, "lane %d (pc %u): '%s' names a %s tensor map of rank %u (PTX ISA: undefined)", l, pc,
                     x->ir->mnemonic, t.mode == TMAP_IM2COL ? "im2col" : "tiled", t.rank);
        return;
    }
    if (smem % 128) {
        report_fault(w, pc, "lane %d (pc %u): '%s': the shared address 0x%llx is not 128-byte aligned (PTX ISA)", l,
                     pc, x->ir->mnemonic, (unsigned long long)smem);
        return;
    }
    int type = TYPE_NONE;
    if (f->kind == BULK_TENSOR_REDUCE && (type = map_reduce_type(&t, f->red_op)) == TYPE_NONE) {
        report_fault(w, pc, "lane %d (pc %u): '%s': the tensor map's data type %u does not take this reduction "
                     "(PTX ISA)", l, pc, x->ir->mnemonic, t.dtype);
        return;
    }
    unsigned es = tensormap_element_bytes(t.dtype);
    uint64_t count = tensormap_box_elements(&t);
    static const uint16_t no_offsets[3];
    int64_t (*pixels)[TMAP_MAX_RANK] = column(&t, coord);
    for (uint64_t e = 0; e < count && !w->faulted; e++) {
        int64_t g[TMAP_MAX_RANK];
        bool inside = tensormap_element(&t, coord, no_offsets, (const int64_t (*)[TMAP_MAX_RANK])pixels, e, g);
        uint8_t *ssh, *dsh;
        uint64_t sa = tensormap_swizzle(t.swizzle, smem + e * es);
        const uint8_t *s = mem_locate(w, x, l, sa, es, false, &ssh);
        if (!s || !inside)
            continue;                          /* a fault, or not stored */
        uint8_t buf[8], sbuf[8];
        memcpy(buf, s, es);
        memcpy(sbuf, ssh, es);
        uint8_t *d = mem_locate(w, x, l, tensormap_global_address(&t, g), es, true, &dsh);
        if (!d)
            continue;
        BulkChunk *c = chunk_new(w, x, l);
        chunk_fill(w->block, c, d, dsh, buf, sbuf, es);
        async_changed(w->block);
        if (type != TYPE_NONE) {
            c->red_op = f->red_op;
            c->red_type = (uint8_t)type;
        }
    }
    free(pixels);
}

/* A tensor copy into shared memory (.shared::cluster.global, tile or im2col) completing an
 * mbarrier, lane l: the box, each element from the tensor or filled where it lies outside. */
static void issue_tensor_load(Warp *w, const XInstr *x, int l, const BulkForm *f)
{
    uint32_t pc = pc_of(w, x);
    uint64_t ma, smem;
    TensorMap t;
    if (!addr_of(w, x, l, &f->tmap, &ma, "tensor map") || !addr_of(w, x, l, &f->dst, &smem, "shared") ||
        !read_map(w, x, l, ma, &t))
        return;
    int32_t coord[TMAP_MAX_RANK] = { 0 };
    uint16_t offs[3] = { 0 };
    for (unsigned i = 0; i < f->dims; i++) {
        uint64_t v;
        if (!val_of(w, x, l, &f->coord[i], &v, "coordinate"))
            return;
        coord[i] = (int32_t)(uint32_t)v;
    }
    for (unsigned i = 0; f->im2col && i + 2 < f->dims; i++) {
        uint64_t v;
        if (!val_of(w, x, l, &f->offs[i], &v, "im2col offset"))
            return;
        offs[i] = (uint16_t)v;
    }
    if (t.rank != f->dims || (t.mode == TMAP_IM2COL) != f->im2col) {
        report_fault(w, pc, "lane %d (pc %u): '%s' names a %s tensor map of rank %u (PTX ISA: undefined)", l, pc,
                     x->ir->mnemonic, t.mode == TMAP_IM2COL ? "im2col" : "tiled", t.rank);
        return;
    }
    if (smem % 128) {
        report_fault(w, pc, "lane %d (pc %u): '%s': the shared address 0x%llx is not 128-byte aligned (PTX ISA)", l,
                     pc, x->ir->mnemonic, (unsigned long long)smem);
        return;
    }
    Block *owner;
    uint32_t m = find_mbarrier(w, x, l, f, &owner);
    if (m == NO_SLOT)
        return;
    unsigned es = tensormap_element_bytes(t.dtype);
    uint64_t count = tensormap_box_elements(&t), size = count * es, fill = tensormap_fill(&t);
    uint8_t *bytes = xmalloc(size), *shadow = xmalloc(size);
    int64_t (*pixels)[TMAP_MAX_RANK] = column(&t, coord);
    for (uint64_t e = 0; e < count && !w->faulted; e++) {
        int64_t g[TMAP_MAX_RANK];
        uint8_t *ssh;
        const uint8_t *s;
        if (!tensormap_element(&t, coord, offs, (const int64_t (*)[TMAP_MAX_RANK])pixels, e, g)) {
            mem_write_bytes(bytes + e * es, fill, es);
            memset(shadow + e * es, 0xff, es);
        } else if ((s = mem_locate(w, x, l, tensormap_global_address(&t, g), es, false, &ssh)) != NULL) {
            memcpy(bytes + e * es, s, es);
            memcpy(shadow + e * es, ssh, es);
        }
    }
    if (!w->faulted)
        to_shared(w, x, l, m, owner, smem, bytes, shadow, size, size, t.swizzle);
    free(pixels);
    free(bytes);
    free(shadow);
}

/* cp.async.bulk.prefetch.tensor: nothing is fetched; the map is read and checked. */
static void prefetch_tensor(Warp *w, const XInstr *x, int l, const BulkForm *f)
{
    uint64_t ma;
    TensorMap t;
    if (!addr_of(w, x, l, &f->tmap, &ma, "tensor map") || !read_map(w, x, l, ma, &t))
        return;
    if (t.rank != f->dims || (t.mode == TMAP_IM2COL) != f->im2col)
        report_fault(w, pc_of(w, x), "lane %d (pc %u): '%s' names a %s tensor map of rank %u (PTX ISA: undefined)", l,
                     pc_of(w, x), x->ir->mnemonic, t.mode == TMAP_IM2COL ? "im2col" : "tiled", t.rank);
}

static uint64_t bytes_value(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << 8 * i;
    return v;
}

/* c lands: a copy's bytes, or each element reduced into what is there (as red.global would update
 * it); undefined when its source was not read in time. */
static void land(Block *b, BulkChunk *c, bool defined)
{
    b->mem.regions[c->region].async_pending--;
    if (!c->red_op) {
        memcpy(c->data, c->bytes, c->len);
        if (defined)
            memcpy(c->shadow, c->sbits, c->len);
        else
            memset(c->shadow, 0, c->len);
        return;
    }
    XInstr t;
    memset(&t, 0, sizeof t);
    t.op = OP_RED;
    t.type = c->red_type;
    t.bits = (uint8_t)type_info[c->red_type].bits;
    t.cls = (uint8_t)type_info[c->red_type].cls;
    t.mode = c->red_op;
    t.elements = 1;
    unsigned size = t.bits / 8;
    for (unsigned at = 0; at < c->len; at += size) {
        uint64_t old = bytes_value(c->data + at, size), src = bytes_value(c->bytes + at, size);
        uint64_t old_bits = bytes_value(c->old_sbits + at, size), src_bits = bytes_value(c->sbits + at, size);
        bool nan_choice = false;
        uint64_t v = atomic_update(&t, old, src, 0, true, &nan_choice);
        uint64_t d = defined ? atomic_defined_bits(&t, old, old_bits, src, src_bits, ~0ull) : 0;
        mem_write_bytes(c->data + at, v, size);
        mem_write_bytes(c->shadow + at, d, size);
    }
}

/* Thread t's chunks of groups below `below` (all committed but the newest n): their reads are
 * done; with `write`, they land and leave. */
static void complete(Block *b, BulkState *s, uint32_t thread, uint64_t below, bool write)
{
    size_t k = 0;
    for (size_t i = 0; i < s->len; i++) {
        BulkChunk *c = &s->c[i];
        if (c->thread == thread && c->group < below) {
            c->read_done = true;
            if (write) {
                land(b, c, true);
                async_changed(b);              /* a warp spinning on these bytes may go on */
                continue;
            }
        }
        s->c[k++] = *c;
    }
    s->len = k;
}

void bulk_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    const BulkForm *f = &w->prog->bulk_forms[x->target];
    for (uint32_t k = mask; k && !w->faulted; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint32_t thread = w->thread_base + (uint32_t)l;
        switch (f->kind) {
        case BULK_COMMIT:
            state(w->block)->committed[thread]++;
            break;
        case BULK_WAIT: {
            BulkState *s = state(w->block);
            uint64_t done = s->committed[thread];
            if (done > f->size.imm)
                complete(w->block, s, thread, done - f->size.imm, !f->read);
            break;
        }
        case BULK_COPY:
        case BULK_REDUCE:
            if (f->to_mbarrier)
                issue_bulk_load(w, x, l, f);
            else
                issue_bulk(w, x, l, f);
            break;
        case BULK_TENSOR:
        case BULK_TENSOR_REDUCE:
            if (f->to_mbarrier)
                issue_tensor_load(w, x, l, f);
            else
                issue_tensor_store(w, x, l, f);
            break;
        case BULK_PREFETCH_TENSOR:
            prefetch_tensor(w, x, l, f);
            break;
        default:
            BUG("bulk form %d", f->kind);
        }
    }
}

void bulk_cta_end(Block *b)
{
    BulkState *s = b->bulk;
    if (!s)
        return;
    for (size_t i = 0; i < s->len && !b->abandoned; i++) {
        BulkChunk *c = &s->c[i];
        land(b, c, c->read_done);
        async_changed(b);
        if (!c->read_done) {
            Warp *w = b->warps[c->thread / WARP_SIZE];
            report_warn(w, c->pc, 1u << (c->thread - w->thread_base), "a bulk copy's shared source was read after its thread exited "
                                              "(no cp.async.bulk.wait_group(.read) covered it): its bytes land "
                                              "undefined");
        }
    }
    s->len = 0;
    memset(s->committed, 0, sizeof s->committed);
}

void bulk_free(Block *b)
{
    if (b->bulk)
        free(b->bulk->c);
    free(b->bulk);
    b->bulk = NULL;
}
