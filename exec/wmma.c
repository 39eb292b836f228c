/* wmma.c: wmma.load.{a,b,c}, wmma.mma and wmma.store.d, every shape and type of nvcc's mma.h
 * (f16, bf16, tf32, f64, s8/u8, s4/u4, b1), .row/.col, the optional stride, generic, .global
 * and .shared addresses. Decoded once when lowered (wmma_lower): the shape in x->mode, the
 * element type in x->type (wmma.mma: A's; C's in src_type, D's in src_type2), WMMA_* flags in
 * x->secondary, the fragment registers' rows in Program.mma_rows from x->target (wmma.mma: D,
 * A, B, C in order); load and store take their address as ld does and the stride in src[1].
 * The whole warp executes each together (.sync.aligned: a warp partly there, by divergence or a
 * guard, is a fault; a guard false in every lane does nothing). Memory goes through mem_locate,
 * element by element, so an access outside a region or misaligned is a fault and definedness
 * follows every element. Which element each register holds: wmmalayout.c. wmma.mma computes
 * each element of D with mma_dot, as the mma.sync form that does the same arithmetic does.
 * docs/semantics.md, "wmma". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "tensor.h"

static MmaForm base_form(const XInstr *x);
static uint8_t mma_type(int type);

enum { WMMA_WHICH = 3, WMMA_COL = 4, WMMA_A_COL = 8, WMMA_B_COL = 16, WMMA_SAT = 32, WMMA_XOR = 64, WMMA_AND = 128 };
static const char which_name[] = "abcd";

static unsigned shape_of(int mod)
{
    switch (mod) {
    case MOD_M16N16K16: return WMMA_M16N16K16;
    case MOD_M32N8K16: return WMMA_M32N8K16;
    case MOD_M8N32K16: return WMMA_M8N32K16;
    case MOD_M16N16K8: return WMMA_M16N16K8;
    case MOD_M8N8K4: return WMMA_M8N8K4;
    case MOD_M8N8K32: return WMMA_M8N8K32;
    case MOD_M8N8K128: return WMMA_M8N8K128;
    default: return 0;
    }
}

/* An error at the instruction: "'mnemonic': " and what fmt says. */
static void fail(Loader *ld, const Instr *in, const char *fmt, ...)
{
    char what[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    diag_at(ld->diag, DIAG_ERROR, in->at, "'%s': %s", in->mnemonic, what);
    ld->failed = true;
}

/* The type words in the order the source writes them must be those of the canonical mnemonic
 * (.dtype.atype.btype.ctype): ptxas refuses .s32.s32.s8.s8 ("Unexpected instruction types"). */
static bool types_in_order(Loader *ld, const Instr *in)
{
    const char *src = ld->p->m->src->text + in->at.offset;
    unsigned seen = 0;
    bool same = true;
    size_t pos = strcspn(src, ".");              /* after "wmma" */
    while (pos < in->at.length && src[pos] == '.') {
        size_t start = pos + 1, end = start;
        while (end < in->at.length && src[end] != '.' && src[end] != ' ' && src[end] != '\t')
            end++;
        for (int u = 0; u < TYPE_COUNT; u++)
            if (strlen(type_info[u].name) == end - start && !memcmp(type_info[u].name, src + start, end - start)) {
                same &= seen < in->type_count && in->types[seen] == u;
                seen++;
                break;
            }
        pos = end;
    }
    if (same && seen == in->type_count)
        return true;
    fail(ld, in, "wmma.mma's types must come in the order .dtype.atype.btype.ctype (f16: .dtype.ctype)");
    return false;
}

/* An immediate in a C or stored D, as ptxas 13.0 takes one: .f32 a 0f, .s32 an integer, .f64 a
 * 0d or a real (a 0f: ptxas's cubin holds 0x000000083f800000 for 0f3F800000, not run), an integer
 * in wmma.mma's C only (its bits). */
static bool immediate_fits(Loader *ld, const Instr *in, const Operand *e, int type)
{
    const char *bad = NULL;
    if (type == TYPE_F32 && e->kind != OPND_F32)
        bad = "an immediate of an .f32 fragment is 0f and 8 hex digits (ptxas: \"Arguments mismatch\", "
              "\"Unexpected instruction types\")";
    else if (type == TYPE_S32 && e->kind != OPND_INT)
        bad = "an immediate of an .s32 fragment is an integer (ptxas: \"Arguments mismatch\")";
    else if (type == TYPE_F64 && e->kind == OPND_INT && in->op == OP_WMMA_STORE)
        bad = "an integer immediate of an .f64 wmma.store.d (ptxas: \"Type of argument does not match\")";
    if (bad) {
        diag_at(ld->diag, DIAG_ERROR, e->at, "'%s': %s", in->mnemonic, bad);
        ld->failed = true;
        return false;
    }
    if (type == TYPE_F64 && e->kind == OPND_F32) {
        char why[200];
        snprintf(why, sizeof why, "'%s' with a 0f immediate in an .f64 fragment", in->mnemonic);
        operand_cannot(ld, in, why);
        return false;
    }
    return true;
}

/* {r, ...}: count registers of type's width, as ptxas takes them: .b32/.u32/.s32 (.f16x2 for
 * f16 data, .f32 for f32 data), .f64 or .b64 for f64; a destination may be '_' (NO_SLOT); a C
 * or D element given as an immediate (imm: .f32, .s32, .f64 data, converted as those types'
 * instructions convert one). */
static bool fragment_rows(Loader *ld, const Instr *in, const Operand *o, unsigned count, int type, bool dst,
                          bool imm, uint32_t *rows)
{
    unsigned bits = type == TYPE_F64 ? 64 : 32;
    char what[160];
    snprintf(what, sizeof what, "a vector of %u .b%u registers%s", count, bits,
             type == TYPE_F64 ? " (or .f64)" : type == TYPE_F32 ? " (or .f32)" : type == TYPE_F16 ? " (or .f16x2)" : "");
    if (o->kind != OPND_VEC || o->count != count) {   /* ptxas: "Argument vector size mismatch" */
        diag_at(ld->diag, DIAG_ERROR, o->at, "'%s' takes %s here", in->mnemonic, what);
        ld->failed = true;
        return false;
    }
    for (unsigned i = 0; i < count; i++) {
        const Operand *e = &o->u.group.elems[i];
        if (dst && e->kind == OPND_SINK) {
            rows[i] = NO_SLOT;
            continue;
        }
        if (!dst && (e->kind == OPND_INT || e->kind == OPND_F32 || e->kind == OPND_F64)) {
            if (!imm || type == TYPE_F16) {
                char why[200];
                snprintf(why, sizeof why, "'%s' with an immediate in this fragment", in->mnemonic);
                operand_cannot(ld, in, why);
                return false;
            }
            if (!immediate_fits(ld, in, e, type))
                return false;
            /* an integer in an f64 C: its bits (ptxas's cubin), not its value */
            rows[i] = operand_immediate_row(ld, e->kind == OPND_INT && type == TYPE_F64
                                                    ? e->u.bits : operand_immediate_bits(e, type));
            continue;
        }
        int t = e->kind == OPND_REG ? ld->cur->fn->regs.data[e->u.slot].type : -1;
        bool fits = t >= 0 && type_info[t].bits == bits &&
                    (type == TYPE_F64 ? t == TYPE_F64 || t == TYPE_B64
                                      : type_info[t].cls != 'f' || (type == TYPE_F32 && t == TYPE_F32) ||
                                        (type == TYPE_F16 && t == TYPE_F16X2));
        if (!fits) {
            diag_at(ld->diag, DIAG_ERROR, e->at, "'%s' takes %s here (ptxas: \"Arguments mismatch\")", in->mnemonic,
                    what);
            ld->failed = true;
            return false;
        }
        rows[i] = ld->cur->row_base + e->u.slot;
    }
    return true;
}

static uint32_t *reserve_rows(Loader *ld, XInstr *x, unsigned count)
{
    Program *p = ld->p;
    p->mma_rows = xrealloc(p->mma_rows, (p->mma_row_count + count) * sizeof *p->mma_rows);
    x->target = p->mma_row_count;
    x->target_count = count;
    p->mma_row_count += count;
    return p->mma_rows + x->target;
}

/* wmma.load / wmma.store: which matrix, layout, shape, type; {r...}, [p], stride. */
static void lower_memory(Loader *ld, const Instr *in, XInstr *x)
{
    char which = 0;
    unsigned shape = 0;
    bool col = false;
    for (unsigned i = 0; i < in->mod_count; i++) {
        int m = in->mods[i];
        which = m == MOD_A ? 'a' : m == MOD_B ? 'b' : m == MOD_MATRIX_C ? 'c' : m == MOD_MATRIX_D ? 'd' : which;
        col |= m == MOD_COL;
        if (shape_of(m))
            shape = shape_of(m);
    }
    int type = in->types[0];
    char tname[16], wname[2] = { which, 0 };
    snprintf(tname, sizeof tname, ".%s", type_info[type].name);
    if (!wmma_type_fits(shape, which, type)) {  /* ptxas: "Incorrect instruction type specified" */
        fail(ld, in, "%s is not a type of wmma's %s matrix in this shape", tname, wname);
        return;
    }
    bool sub_byte = type == TYPE_S4 || type == TYPE_U4 || type == TYPE_B1;
    if (sub_byte && (which == 'a') == col) {    /* ptxas: "Illegal alayout" */
        fail(ld, in, "the %s matrix of a .s4, .u4 or .b1 wmma is %s only", wname,
             which == 'a' ? ".row" : ".col");
        return;
    }
    bool load = in->op == OP_WMMA_LOAD;
    if (in->operand_count != 2 && in->operand_count != 3) {
        fail(ld, in, "takes a fragment, an address and an optional stride");
        return;
    }
    unsigned count = wmma_regs(shape, which, type);
    uint32_t *rows = reserve_rows(ld, x, count);
    if (!fragment_rows(ld, in, &in->operands[load ? 0 : 1], count, type, load, !load, rows))
        return;
    operand_address(ld, in, &in->operands[load ? 1 : 0], x);
    unsigned r, c;
    wmma_matrix_dims(shape, which, &r, &c);
    if (in->operand_count == 3) {
        const Operand *s = &in->operands[2];
        int st = s->kind == OPND_REG ? ld->cur->fn->regs.data[s->u.slot].type : -1;
        if (s->kind != OPND_INT && (s->kind != OPND_REG || type_info[st].bits != 32 || type_info[st].cls == 'f')) {
            diag_at(ld->diag, DIAG_ERROR, s->at, "'%s': the stride is a 32-bit integer register or immediate",
                    in->mnemonic);
            ld->failed = true;
            return;
        }
        x->src[1] = operand_source(ld, in, s, TYPE_U32, x, 1);
    } else {                                   /* the default: the matrix's own row (column) length */
        x->src[1] = operand_immediate_row(ld, col ? r : c);
    }
    x->src_count = 2;
    x->mode = (uint8_t)shape;
    x->type = (uint8_t)type;
    x->bits = (uint8_t)type_info[type].bits;
    x->secondary = (uint8_t)((which - 'a') | (col ? WMMA_COL : 0));
    x->dst_kind = DST_NONE;
}

/* wmma.mma: layouts, shape, types (f16: .dtype.ctype; the others .dtype.atype.btype.ctype). */
static void lower_mma(Loader *ld, const Instr *in, XInstr *x)
{
    unsigned shape = 0, layouts = 0;
    uint8_t flags = 0;
    bool popc = false, rounding = false;
    for (unsigned i = 0; i < in->mod_count; i++) {
        int m = in->mods[i];
        if (m == MOD_ROW || m == MOD_COL)
            flags |= (uint8_t)(m == MOD_COL ? (layouts++ ? WMMA_B_COL : WMMA_A_COL) : (layouts++, 0));
        popc |= m == MOD_POPC;
        rounding |= m == MOD_RN || m == MOD_RZ || m == MOD_RM || m == MOD_RP;
        flags |= (uint8_t)(m == MOD_SATFINITE ? WMMA_SAT : m == MOD_XOR ? WMMA_XOR : m == MOD_AND ? WMMA_AND : 0);
        if (shape_of(m))
            shape = shape_of(m);
    }
    if (!types_in_order(ld, in))
        return;
    int d = in->types[0], c = in->types[in->type_count - 1];
    int a = in->type_count == 4 ? in->types[1] : TYPE_F16, b = in->type_count == 4 ? in->types[2] : TYPE_F16;
    bool ok = (in->type_count == 2 || in->type_count == 4) && a == b && wmma_type_fits(shape, 'a', a) &&
              wmma_type_fits(shape, 'c', c) && wmma_type_fits(shape, 'd', d);
    if (ok && a == TYPE_F16)
        ok = in->type_count == 2 && c != TYPE_S32 && d != TYPE_S32;
    else if (ok)
        ok = in->type_count == 4 && c == d && (a == TYPE_BF16 || a == TYPE_TF32 || a == TYPE_F64 ? c != TYPE_S32
                                                                                               : c == TYPE_S32);
    if (!ok) {                                  /* ptxas: "Unexpected instruction types" */
        fail(ld, in, "not a form of wmma.mma (f16: .dtype.ctype, each .f16 or .f32; bf16 and tf32: "
             ".f32.X.X.f32; f64: .f64 four times; integers: .s32.X.X.s32 with the same A and B type)");
        return;
    }
    bool sub_byte = a == TYPE_S4 || a == TYPE_U4 || a == TYPE_B1;
    if (sub_byte && (flags & (WMMA_A_COL | WMMA_B_COL)) != WMMA_B_COL) {
        fail(ld, in, ".s4, .u4 and .b1 wmma.mma is .row.col only (ptxas: \"Illegal alayout\")");
        return;
    }
    bool is_float = a == TYPE_F16 || a == TYPE_BF16 || a == TYPE_TF32 || a == TYPE_F64;
    if ((flags & WMMA_SAT) && (is_float || a == TYPE_B1)) {
        fail(ld, in, ".satfinite is for the integer forms of wmma.mma only (ptxas: not supported from PTX "
             "ISA 6.5 for floating point)");
        return;
    }
    if ((a == TYPE_B1) != ((flags & (WMMA_XOR | WMMA_AND)) != 0) || ((flags & (WMMA_XOR | WMMA_AND)) && !popc)) {
        fail(ld, in, ".b1 wmma.mma needs .xor.popc or .and.popc, and only it takes them");
        return;
    }
    if (rounding && a != TYPE_F64) {
        fail(ld, in, "a rounding modifier is for the .f64 form only");
        return;
    }
    if (in->operand_count != 4) {
        fail(ld, in, "takes four vector operands: d, a, b, c");
        return;
    }
    unsigned counts[4] = { wmma_regs(shape, 'd', d), wmma_regs(shape, 'a', a), wmma_regs(shape, 'b', b),
                           wmma_regs(shape, 'c', c) };
    int types[4] = { d, a, b, c };
    uint32_t *rows = reserve_rows(ld, x, counts[0] + counts[1] + counts[2] + counts[3]);
    for (unsigned k = 0, at = 0; k < 4; at += counts[k], k++)
        if (!fragment_rows(ld, in, &in->operands[k], counts[k], types[k], k == 0, k == 3, rows + at))
            return;
    x->mode = (uint8_t)shape;
    x->type = (uint8_t)a;
    x->src_type = (uint8_t)c;
    x->src_type2 = (uint8_t)d;
    x->secondary = flags;
    MmaForm f = base_form(x);
    if (!mma_form_runs(&f)) {                  /* its arithmetic is not in mma_dot yet */
        char what[200];
        snprintf(what, sizeof what, "'%s' (its arithmetic, that of mma .%s)", in->mnemonic, type_info[a].name);
        operand_cannot(ld, in, what);
        return;
    }
    /* The form wmma.mma is known by (its target; --matrix shows it): its own m, n, k, types,
     * register counts and rows. */
    unsigned m, n, kk;
    wmma_dims(shape, &m, &n, &kk);
    MmaForm own = { .m = (uint16_t)m, .n = (uint16_t)n, .k = (uint16_t)kk, .a = mma_type(a), .b = mma_type(a),
                    .c = mma_type(c), .d = mma_type(d), .a_regs = (uint8_t)counts[1], .b_regs = (uint8_t)counts[2],
                    .c_regs = (uint8_t)counts[3], .d_regs = (uint8_t)counts[0], .flags = f.flags, .rows = x->target };
    Program *p = ld->p;
    p->mma_forms = xrealloc(p->mma_forms, (p->mma_form_count + 1) * sizeof *p->mma_forms);
    p->mma_forms[p->mma_form_count] = own;
    x->target = p->mma_form_count++;
    x->dst_kind = DST_NONE;
    x->src_count = 0;
}

void wmma_lower(Loader *ld, const Instr *in, XInstr *x)
{
    if (in->op == OP_WMMA_MMA)
        lower_mma(ld, in, x);
    else
        lower_memory(ld, in, x);
}

/* ---- execution ---- */

/* The whole warp, or none of it (a guard false in every lane); otherwise a fault. */
static bool whole_warp(Warp *w, const XInstr *x, uint32_t lanes, uint32_t guard_true)
{
    if (w->launched == ALL_LANES && lanes == ALL_LANES && guard_true == ALL_LANES && !w->exited)
        return true;
    report_fault(w, (uint32_t)(x - w->prog->code), "'%s' executed by lanes 0x%08x of the warp (guard true in "
                 "0x%08x): wmma's .sync.aligned needs all 32 lanes of a whole warp to execute it together",
                 x->ir->mnemonic, lanes, guard_true);
    return false;
}

/* A guard undefined in some lane: whether the warp executed it at all is unknown. */
static bool guard_unknown(const Warp *w, const XInstr *x)
{
    return x->guard && (w->pred_defined[x->guard_pred] & ALL_LANES) != ALL_LANES;
}

/* The one address and stride of the warp (the PTX ISA: undefined unless every lane gives the
 * same), checked: defined, equal, in .global or .shared, aligned. False after a fault. */
static bool address_and_stride(Warp *w, const XInstr *x, uint64_t *address, uint64_t *stride)
{
    uint32_t pc = (uint32_t)(x - w->prog->code);
    if (!mem_address_defined(w, x, ALL_LANES, pc))
        return false;
    uint32_t srow = x->src[1];
    if (warp_defined_in(w, srow, ALL_LANES, 0xffffffffu) != ALL_LANES) {
        report_fault(w, pc, "'%s' uses an undefined stride", x->ir->mnemonic);
        return false;
    }
    *address = mem_lane_address(w, x, 0);
    *stride = (uint32_t)w->val[srow][0];
    for (int l = 1; l < WARP_SIZE; l++)
        if (mem_lane_address(w, x, l) != *address || (uint32_t)w->val[srow][l] != *stride) {
            report_fault(w, pc, "lane %d (pc %u): '%s' with address 0x%llx and stride %u, lane 0 with 0x%llx and %u: "
                         "the PTX ISA leaves wmma undefined unless every lane gives the same", l, pc, x->ir->mnemonic,
                         (unsigned long long)mem_lane_address(w, x, l), (unsigned)(uint32_t)w->val[srow][l],
                         (unsigned long long)*address, (unsigned)*stride);
            return false;
        }
    uint64_t in_space;
    int space = x->space != SPACE_NONE ? x->space : mem_space_of(*address, &in_space);
    if (space != SPACE_GLOBAL && space != SPACE_SHARED) {
        report_fault(w, pc, "'%s' at 0x%llx, in %s memory: wmma reads and writes .global and .shared only (ptxas "
                     "refuses other state spaces)", x->ir->mnemonic, (unsigned long long)*address,
                     mem_space_name(space));
        return false;
    }
    /* The PTX ISA: each row's (.col: column's) start a multiple of the fragment's size in bytes
     * (its registers': f16 A 32, s8 m16n16k16 A 8, f64 A 8). ptxas loads and stores a fragment
     * in pieces of at most 8 bytes, so the H100 runs that too; with the fragment over 16 bytes
     * (f16 A and B, f32 C and D...) it ran rows 16 bytes past such a boundary (strides of 48 and
     * 80 bytes recorded; CUDA's ldm asks only 16 bytes): run, with a warning giving both. */
    uint64_t frag = (uint64_t)wmma_regs(x->mode, which_name[x->secondary & WMMA_WHICH], x->type) *
                    (x->type == TYPE_F64 ? 8 : 4), need = frag < 16 ? frag : 16;
    uint64_t apart = *stride * x->bits;         /* bits from one row's start to the next */
    if (*address % need || apart % (need * 8)) {
        report_fault(w, pc, "'%s' at 0x%llx with stride %u (%llu bits): wmma's matrix must start at a multiple of "
                     "%llu bytes and its rows (columns) be a multiple of %llu bytes apart", x->ir->mnemonic,
                     (unsigned long long)*address, (unsigned)*stride, (unsigned long long)apart,
                     (unsigned long long)need, (unsigned long long)need);
        return false;
    }
    if (*address % frag || apart % (frag * 8))      /* frag is 32 here: 8 registers of 4 bytes */
        report_warn(w, pc, ALL_LANES, "wmma's matrix at an address or stride not 32-byte aligned (the PTX ISA asks "
                    "each row or column to start at a multiple of the fragment's size, 32 bytes; CUDA's "
                    "load_matrix_sync and store_matrix_sync a 256-bit pointer; the H100 ran rows 16 bytes past "
                    "such a boundary, and so does ptxrun),");
    return true;
}

/* Bit position in memory of element (r, c), from the matrix's start. */
static uint64_t element_bit(const XInstr *x, uint64_t stride, unsigned r, unsigned c)
{
    uint64_t index = (x->secondary & WMMA_COL) ? (uint64_t)c * stride + r : (uint64_t)r * stride + c;
    return index * x->bits;
}

enum { MAX_ELEMS = 1024 };                      /* a matrix's elements: b1 m8n8k128's A */

static void load_fragment(Warp *w, const XInstr *x)
{
    uint64_t address, stride;
    if (!address_and_stride(w, x, &address, &stride))
        return;
    char which = which_name[x->secondary & WMMA_WHICH];
    unsigned shape = x->mode, bits = x->bits, unit = bits < 8 ? 1 : bits / 8, rows, cols;
    wmma_matrix_dims(shape, which, &rows, &cols);
    static const uint64_t masks[] = { 0, 1, 0, 0, 0xf };
    uint64_t mask = bits < 8 ? masks[bits] : width_mask(bits);
    uint64_t val[MAX_ELEMS], def[MAX_ELEMS];
    for (unsigned r = 0; r < rows; r++)
        for (unsigned c = 0; c < cols; c++) {
            uint64_t bit = element_bit(x, stride, r, c);
            uint8_t *shadow;
            uint8_t *p = mem_locate(w, x, 0, address + bit / 8, unit, false, &shadow);
            if (!p)
                return;
            unsigned sh = (unsigned)(bit % 8);
            val[r * cols + c] = mem_read_bytes(p, unit) >> sh & mask;
            def[r * cols + c] = mem_read_bytes(shadow, unit) >> sh & mask;
        }
    const uint32_t *regs = w->prog->mma_rows + x->target;
    unsigned count = x->target_count, per_reg = (x->type == TYPE_F64 ? 64 : 32) / bits;
    bool unknown = guard_unknown(w, x);
    for (unsigned k = 0; k < count; k++)
        for (int l = 0; l < WARP_SIZE && regs[k] != NO_SLOT; l++) {
            uint64_t v = 0, d = 0;
            for (unsigned e = 0; e < per_reg; e++) {
                unsigned r, c;
                wmma_layout(shape, which, x->type, (unsigned)l, k * per_reg + e, &r, &c);
                v |= val[r * cols + c] << (e * bits);
                d |= def[r * cols + c] << (e * bits);
            }
            w->val[regs[k]][l] = v;
            warp_define_bits(w, regs[k], l, unknown ? 0 : d, per_reg * bits);
        }
}

static void store_fragment(Warp *w, const XInstr *x)
{
    uint64_t address, stride;
    if (!address_and_stride(w, x, &address, &stride))
        return;
    unsigned shape = x->mode, bits = x->bits, unit = bits / 8, rows, cols;
    wmma_matrix_dims(shape, 'd', &rows, &cols);
    if (stride < ((x->secondary & WMMA_COL) ? rows : cols))
        report_warn(w, (uint32_t)(x - w->prog->code), ALL_LANES, "wmma.store.d's rows (columns) overlap, the stride "
                    "less than their length: which element lands where they meet the PTX ISA does not say (ptxrun "
                    "writes register by register, lane by lane, as ptxas's stores go: the last one stays),");
    uint8_t *data[MAX_ELEMS], *shadow[MAX_ELEMS];
    /* Every element's place first: a fault writes nothing. Where memory is found as the run goes
     * (Memory.resolve), a later element's may merge the region of an earlier one (its shadow
     * freed): once all are found, the places are taken again. */
    for (unsigned pass = 0; pass < (w->block->mem.resolve ? 2u : 1u); pass++)
        for (unsigned r = 0; r < rows; r++)
            for (unsigned c = 0; c < cols; c++) {
                data[r * cols + c] = mem_locate(w, x, 0, address + element_bit(x, stride, r, c) / 8, unit, true,
                                                &shadow[r * cols + c]);
                if (!data[r * cols + c])
                    return;
            }
    const uint32_t *regs = w->prog->mma_rows + x->target;
    unsigned count = x->target_count, per_reg = (x->type == TYPE_F64 ? 64 : 32) / bits;
    bool unknown = guard_unknown(w, x);
    for (unsigned k = 0; k < count; k++)
        for (int l = 0; l < WARP_SIZE; l++) {
            uint64_t v = w->val[regs[k]][l], d = unknown ? 0 : warp_dbits(w, regs[k], l);
            for (unsigned e = 0; e < per_reg; e++) {
                unsigned r, c;
                wmma_layout(shape, 'd', x->type, (unsigned)l, k * per_reg + e, &r, &c);
                mem_put(&w->block->mem, data[r * cols + c], shadow[r * cols + c], v >> (e * bits), d >> (e * bits),
                        unit);
            }
        }
}

static uint8_t mma_type(int type)
{
    switch (type) {
    case TYPE_F16: return MT_F16;
    case TYPE_BF16: return MT_BF16;
    case TYPE_TF32: return MT_TF32;
    case TYPE_F32: return MT_F32;
    case TYPE_F64: return MT_F64;
    case TYPE_S8: return MT_S8;
    case TYPE_U8: return MT_U8;
    case TYPE_S4: return MT_S4;
    case TYPE_U4: return MT_U4;
    case TYPE_B1: return MT_B1;
    default: return MT_S32;
    }
}

/* The mma.sync form whose arithmetic each element of D gets: m16n8k16 for 16-bit and 8-bit A
 * and B, m16n8k8 tf32, m8n8k4 f64, m8n8k32 s4/u4, m8n8k128 b1 (per element the same dot
 * product of k terms). C and D as wmma's, but an f16 C with an f32 D (converted exactly first)
 * and an f32 C with an f16 D (the f32 D rounded to f16 after) go through the f32 form. */
static MmaForm base_form(const XInstr *x)
{
    int a = x->type;
    MmaForm f = { 0 };
    bool half_only = x->src_type == TYPE_F16 && x->src_type2 == TYPE_F16;
    f.m = a == TYPE_F64 || a == TYPE_S4 || a == TYPE_U4 || a == TYPE_B1 ? 8 : 16;
    f.n = 8;
    f.k = a == TYPE_TF32 ? 8 : a == TYPE_F64 ? 4 : a == TYPE_S4 || a == TYPE_U4 ? 32 : a == TYPE_B1 ? 128 : 16;
    f.a = f.b = mma_type(a);
    f.c = f.d = half_only ? MT_F16 : mma_type(x->src_type == TYPE_F16 ? TYPE_F32 : x->src_type);
    f.flags = (uint8_t)((x->secondary & WMMA_SAT ? MMA_SAT : 0) | (x->secondary & WMMA_XOR ? MMA_XOR_POPC : 0) |
                        (x->secondary & WMMA_AND ? MMA_AND_POPC : 0));
    return f;
}

/* A matrix gathered from a fragment: each element's raw bits and whether any bit is undefined,
 * from its first copy in the lane (f16 A and B fragments hold their elements more than once). */
static void gather(const Warp *w, const XInstr *x, char which, int type, const uint32_t *regs, unsigned cols,
                   bool transpose, uint64_t *val, bool *undef)
{
    unsigned count = wmma_regs(x->mode, which, type), bits = (unsigned)type_info[type].bits;
    unsigned per_reg = (type == TYPE_F64 ? 64 : 32) / bits, rows, mcols;
    wmma_matrix_dims(x->mode, which, &rows, &mcols);
    bool seen[MAX_ELEMS] = { false };
    uint64_t mask = width_mask(bits);
    for (int l = 0; l < WARP_SIZE; l++)
        for (unsigned k = 0; k < count; k++) {
            uint64_t v = w->val[regs[k]][l], d = warp_dbits(w, regs[k], l);
            for (unsigned e = 0; e < per_reg; e++) {
                unsigned r, c;
                wmma_layout(x->mode, which, type, (unsigned)l, k * per_reg + e, &r, &c);
                unsigned at = transpose ? c * cols + r : r * cols + c;
                if (seen[at])
                    continue;
                seen[at] = true;
                val[at] = v >> (e * bits) & mask;
                undef[at] = (d >> (e * bits) & mask) != mask;
            }
        }
}

/* f16 bits to f32 bits, exactly (a NaN quiet, its payload kept as far as f32 holds it). */
static uint64_t f16_to_f32(uint64_t h)
{
    double v = half_decode((uint32_t)h, TYPE_F16);
    if (v != v)
        return (h & 0x8000) << 16 | 0x7fc00000 | (h & 0x3ff) << 13;
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* D = A*B + C for the whole warp: every element by mma_dot of its form (base_form). An element
 * of D is undefined when any element of A's row, B's column or C it depends on is. */
static void wmma_mma(Warp *w, const XInstr *x)
{
    unsigned m, n, k;
    wmma_dims(x->mode, &m, &n, &k);
    int a = x->type, c = x->src_type, d = x->src_type2;
    const uint32_t *rows = w->prog->mma_rows + w->prog->mma_forms[x->target].rows;
    const uint32_t *dr = rows, *ar = dr + wmma_regs(x->mode, 'd', d), *br = ar + wmma_regs(x->mode, 'a', a);
    const uint32_t *cr = br + wmma_regs(x->mode, 'b', a);
    uint64_t A[MAX_ELEMS], Bt[MAX_ELEMS], C[MAX_ELEMS / 4], D[MAX_ELEMS / 4];
    bool Au[MAX_ELEMS], Bu[MAX_ELEMS], Cu[MAX_ELEMS / 4], Du[MAX_ELEMS / 4], nan_choice = false;
    gather(w, x, 'a', a, ar, k, false, A, Au);
    gather(w, x, 'b', a, br, k, true, Bt, Bu);    /* B's columns, each k long */
    gather(w, x, 'c', c, cr, n, false, C, Cu);
    MmaForm f = base_form(x);
    for (unsigned i = 0; i < m; i++)
        for (unsigned j = 0; j < n; j++) {
            bool u = Cu[i * n + j];
            for (unsigned t = 0; t < k; t++)
                u |= Au[i * k + t] | Bu[j * k + t];
            uint64_t cv = C[i * n + j];
            if (c == TYPE_F16 && f.c == MT_F32)
                cv = f16_to_f32(cv);
            uint64_t dv = mma_dot(&f, &A[i * k], &Bt[j * k], cv, &nan_choice);
            if (d == TYPE_F16 && f.d == MT_F32) {
                float v;
                uint32_t bits32 = (uint32_t)dv;
                memcpy(&v, &bits32, sizeof v);
                dv = half_encode(v, TYPE_F16, MOD_RN, false);
            }
            D[i * n + j] = dv;
            Du[i * n + j] = u;
        }
    if (nan_choice)
        report_warn(w, (uint32_t)(x - w->prog->code), ALL_LANES, "wmma.mma .f64 on two different NaNs in one step "
                    "of the fma chain: which one the H100 returns is not recorded; ptxrun returns a's, else b's, "
                    "quieted");
    MatrixView *view = mmaview_begin(w, x, &(MatrixSource){ &w->prog->mma_forms[x->target], rows, wmma_place, 1 });
    bool unknown = guard_unknown(w, x);
    unsigned count = wmma_regs(x->mode, 'd', d), bits = (unsigned)type_info[d].bits;
    unsigned per_reg = (d == TYPE_F64 ? 64 : 32) / bits;
    uint64_t mask = width_mask(bits);
    for (unsigned r = 0; r < count; r++) {     /* D's registers, after every source was read */
        if (dr[r] == NO_SLOT)
            continue;                           /* '_' */
        Lanes out;
        uint32_t defined = 0;
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            uint64_t v = 0;
            bool u = false;
            for (unsigned e = 0; e < per_reg; e++) {
                unsigned i, j;
                wmma_layout(x->mode, 'd', d, l, r * per_reg + e, &i, &j);
                v |= (D[i * n + j] & mask) << (e * bits);
                u |= Du[i * n + j];
            }
            out[l] = v;
            defined |= (uint32_t)!u << l;
        }
        warp_commit(w, dr[r], out, ALL_LANES, unknown ? 0 : defined);
    }
    mmaview_end(view);                          /* --matrix */
}

static int type_of(unsigned mt)
{
    static const int types[] = { [MT_S32] = TYPE_S32, [MT_S8] = TYPE_S8, [MT_U8] = TYPE_U8, [MT_S4] = TYPE_S4,
                                 [MT_U4] = TYPE_U4, [MT_B1] = TYPE_B1, [MT_F16] = TYPE_F16, [MT_BF16] = TYPE_BF16,
                                 [MT_TF32] = TYPE_TF32, [MT_F32] = TYPE_F32, [MT_F64] = TYPE_F64 };
    return mt < sizeof types / sizeof *types && types[mt] ? types[mt] : TYPE_S32;
}

void wmma_place(const MmaForm *f, char which, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    unsigned shape = f->k == 8 ? WMMA_M16N16K8 : f->k == 4 ? WMMA_M8N8K4 : f->k == 32 ? WMMA_M8N8K32
                   : f->k == 128 ? WMMA_M8N8K128 : f->m == 32 ? WMMA_M32N8K16 : f->m == 8 ? WMMA_M8N32K16
                   : WMMA_M16N16K16;
    unsigned mt = which == 'a' || which == 'b' ? f->a : which == 'c' ? f->c : f->d;
    wmma_layout(shape, which, type_of(mt), lane, i, row, col);
}

void wmma_execute(Warp *w, const XInstr *x, uint32_t lanes, uint32_t guard_true)
{
    if (!guard_true || !whole_warp(w, x, lanes, guard_true))
        return;                                 /* guarded off in every lane: nobody executes it */
    if (x->op == OP_WMMA_LOAD)
        load_fragment(w, x);
    else if (x->op == OP_WMMA_STORE)
        store_fragment(w, x);
    else
        wmma_mma(w, x);
}

/* ---- registers of fragments named by other instructions ---- */

static bool wmma_op(const XInstr *x)
{
    return x->op == OP_WMMA_LOAD || x->op == OP_WMMA_STORE || x->op == OP_WMMA_MMA;
}

static bool plain_copy(const XInstr *x)
{
    return x->op == OP_MOV && x->src_count == 1 && !x->pack && !x->unpack && !x->vmove && x->dst_kind == DST_VALUE;
}

static bool names_fragment(const Program *p, const XInstr *x, const uint32_t *group)
{
    if (plain_copy(x))
        return false;   /* a copy keeps the layout; immediates: fragment_groups below */
    bool alike = x->pack && x->vec_count > 1;   /* mov.b32 %r, {%h, %h}: fill_fragment of a half */
    for (unsigned v = 1; alike && v < x->vec_count && v < VEC_MAX; v++)
        alike = x->vec[v] == x->vec[0];
    if (alike && x->vec[0] < p->first_immediate && !group[x->vec[0]])
        return false;
    bool hit = x->dst_kind == DST_VALUE && x->dst < p->row_count && group[x->dst];
    for (unsigned s = 0; s < x->src_count; s++)
        hit |= !(x->src_pred >> s & 1) && x->src[s] < p->first_immediate && group[x->src[s]];
    bool data = x->op == OP_LD || x->op == OP_LDU || x->op == OP_ST || x->op == OP_ATOM || x->op == OP_RED ||
                x->family == FAM_MULTIMEM || x->pack || x->unpack || x->vmove;
    for (unsigned v = 0; data && v < x->vec_count && v < VEC_MAX; v++)     /* ld/st.v4, mov {a, b} */
        hit |= x->vec[v] < p->first_immediate && group[x->vec[v]];
    bool parts = x->op == OP_LDMATRIX || x->op == OP_ATOM || x->op == OP_RED || x->family == FAM_MULTIMEM;
    for (unsigned e = 0; parts && e < x->elements && e < VEC_MAX; e++)
        hit |= x->dsts[e] < p->first_immediate && group[x->dsts[e]];
    return hit;
}

/* An immediate is the same in every element of a fragment when it repeats at the element width. */
static bool repeats(uint64_t v, unsigned bits)
{
    if (bits >= 32)
        return true;
    uint32_t e = (uint32_t)v & ((1u << bits) - 1), all = 0;
    for (unsigned i = 0; i < 32; i += bits)
        all |= e << i;
    return (uint32_t)v == all;
}

typedef struct WmmaImm { uint64_t value; uint8_t state; } WmmaImm;   /* state: 0 none, 1 one value, 2 several */

static void note_immediate(WmmaImm *g, uint64_t v, unsigned bits)
{
    if (!repeats(v, bits) || (g->state && g->value != v))
        g->state = 2;
    else if (!g->state) {
        g->state = 1;
        g->value = v;
    }
}

/* Each fragment vector of each wmma instruction is a group (numbered from 1); each register the
 * group of the first vector naming it, and of what a plain mov copies it into; bits: the
 * group's element width. Immediates in the vectors, and moved into their registers, are noted
 * per group: different ones (CUDA's acc.x[i] = i) put different values in different elements. */
static uint32_t fragment_groups(const Program *p, uint32_t *group, uint8_t *bits, WmmaImm *imm)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->code_len; i++) {
        const XInstr *x = &p->code[i];
        if (!wmma_op(x))
            continue;
        unsigned counts[4] = { x->target_count }, types[4] = { mma_type(x->type) }, vectors = 1;
        uint32_t row = x->target;
        if (x->op == OP_WMMA_MMA) {
            const MmaForm *f = &p->mma_forms[x->target];
            row = f->rows;
            vectors = 4;
            unsigned c[4] = { f->d_regs, f->a_regs, f->b_regs, f->c_regs }, t[4] = { f->d, f->a, f->b, f->c };
            memcpy(counts, c, sizeof c);
            memcpy(types, t, sizeof t);
        }
        for (unsigned v = 0; v < vectors; v++, row += counts[v - 1]) {
            n++;
            bits[n] = (uint8_t)mma_type_bits(types[v]);
            for (unsigned k = 0; k < counts[v]; k++) {
                uint32_t r = p->mma_rows[row + k];
                if (r >= p->first_immediate && r < p->row_count)
                    note_immediate(&imm[n], p->immediates[r - p->first_immediate], bits[n]);
                else if (r < p->first_immediate && !group[r])
                    group[r] = n;
            }
        }
    }
    for (bool more = true; more;) {             /* copies of fragment registers */
        more = false;
        for (uint32_t i = 0; i < p->code_len; i++) {
            const XInstr *x = &p->code[i];
            if (plain_copy(x) && x->src[0] < p->first_immediate && group[x->src[0]] && x->dst < p->row_count &&
                !group[x->dst]) {
                group[x->dst] = group[x->src[0]];
                more = true;
            }
        }
    }
    for (uint32_t i = 0; i < p->code_len; i++) {
        const XInstr *x = &p->code[i];
        if (plain_copy(x) && x->src[0] >= p->first_immediate && x->src[0] < p->row_count && x->dst < p->row_count &&
            group[x->dst])
            note_immediate(&imm[group[x->dst]], p->immediates[x->src[0] - p->first_immediate], bits[group[x->dst]]);
    }
    return n;
}

void wmma_warn_fragments(const Program *p, Diag *diag)
{
    uint32_t vectors = 0;
    for (uint32_t i = 0; i < p->code_len; i++)
        vectors += wmma_op(&p->code[i]) ? 4 : 0;
    if (!vectors)
        return;
    uint32_t *group = xcalloc(p->row_count + 1, sizeof *group);
    uint8_t *bits = xcalloc(vectors + 1, sizeof *bits);
    WmmaImm *imm = xcalloc(vectors + 1, sizeof *imm);
    fragment_groups(p, group, bits, imm);
    for (uint32_t i = 0; i < p->code_len; i++) {
        const XInstr *x = &p->code[i];
        bool hit;
        if (wmma_op(x))
            continue;
        else if (plain_copy(x))     /* an immediate into a fragment whose elements get different ones */
            hit = x->src[0] >= p->first_immediate && x->src[0] < p->row_count && x->dst < p->row_count &&
                  group[x->dst] &&
                  imm[group[x->dst]].state == 2;
        else
            hit = names_fragment(p, x, group);
        if (!hit)
            continue;
        diag_at(diag, DIAG_WARNING, x->ir->stmt_at, "'%s' names a register of a wmma fragment: the PTX ISA leaves "
                "which matrix element each register holds unspecified; ptxrun uses the layout an H100 showed for "
                "f16 m16n16k16 (two m16n8k16 fragments), derived the same way for the other shapes and types "
                "(docs/semantics.md, wmma)", x->ir->mnemonic);
    }
    free(group);
    free(bits);
    free(imm);
}
