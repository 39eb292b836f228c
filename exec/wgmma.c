/* wgmma.c: the warpgroup's asynchronous matrix product (sm_90a): wgmma.fence, wgmma.mma_async,
 * wgmma.commit_group, wgmma.wait_group (PTX ISA 9.7.15). A warpgroup is 4 consecutive warps
 * (%warpid / 4); D is 64 x N, warp w % 4 of it holding rows 16 (w % 4) .. + 15 by the ISA's
 * fragment figures (those of mma.m16n8k*'s C, repeated every 8 columns). A warp's rows of D
 * depend only on its rows of A and on all of B, so each warp computes its part when it executes
 * wgmma.mma_async: A from its lanes' registers (the fragment of mma.m16n8kK's A) or from a
 * shared-memory descriptor, B from one (wgmmadesc.c, through mem_locate), D's old value from its
 * registers (or from a wgmma.mma_async still in flight that writes them: the ISA orders
 * accumulator accesses between wgmma.mma_async). The result is held in the warp's WgmmaState
 * and the D registers are undefined until a wgmma.wait_group completes the group it was
 * committed in: then it is written. An instruction that reads one of them before (but a
 * wgmma.mma_async of the same shape reading it as its accumulator) draws a warning
 * (wgmma_check_reads, asked by warp.c while Warp.wgmma_inflight). The arithmetic: integer forms exact (.satfinite clamps the
 * exact sum), b1 .and.popc, f16/bf16/tf32 the tensor core's rule for mma (mmafloat.c), which no
 * recording of wgmma confirms: a warning when an element's bits depend on it. fp8 A and B and
 * the .sp forms are refused. docs/semantics.md, "wgmma". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "tensor.h"

/* XInstr.mode of a wgmma.mma_async; XInstr.negate: bit 0 A negated, bit 1 B (imm-scale -1). */
enum { WG_TRANS_A = 1, WG_TRANS_B = 2, WG_A_REGS = 4, WG_SCALE_IMM = 8, WG_SCALE_ONE = 16 };

typedef struct WgmmaOp {       /* one wgmma.mma_async of the warp whose D has not landed */
    uint32_t pc;
    uint64_t group;            /* 0: not committed yet; else its group's number, from 1 */
    unsigned count;            /* D registers */
    const uint32_t *rows;      /* their rows (Program.mma_rows) */
    uint64_t *val, *dbits;     /* [register * WARP_SIZE + lane]: D's bits and their defined bits */
    const uint32_t *a;         /* A's 4 registers (A from registers), else NULL */
    uint64_t a_val[4][WARP_SIZE];  /* their values when it was issued, to see them written before the wait */
} WgmmaOp;

struct WgmmaState {
    WgmmaOp *ops;              /* in the order the warp issued them */
    unsigned count, cap;
    uint32_t *writers;         /* [row]: how many of ops write it (NULL until the first) */
    uint64_t committed;        /* groups committed so far */
    bool fenced;               /* the warp has executed a wgmma.fence */
};

static void drop_op(WgmmaOp *op)
{
    free(op->val);
    free(op->dbits);
}

void wgmma_release(Warp *w)
{
    struct WgmmaState *s = w->wgmma;
    if (!s)
        return;
    for (unsigned i = 0; i < s->count; i++)
        drop_op(&s->ops[i]);
    free(s->ops);
    free(s->writers);
    free(s);
    w->wgmma = NULL;
    w->wgmma_inflight = 0;
}

static struct WgmmaState *state(Warp *w)
{
    if (!w->wgmma)
        w->wgmma = xcalloc(1, sizeof *w->wgmma);
    return w->wgmma;
}

/* ---- lowering ---- */

/* The N of the integer and b1 forms: 8, 16, 24, then every 16 from 32 (ptxas 13.0 takes these). */
static bool integer_n(unsigned n)
{
    return n == 8 || n == 16 || n == 24 || (n >= 32 && n <= 256 && n % 16 == 0);
}

/* wgmma.mma_async's mnemonic (its words in any order, as ptxas takes them; the types in the
 * order .dtype.atype.btype) into f; NULL, or what is wrong. */
static const char *decode(const char *mnemonic, MmaForm *f)
{
    char buf[160];
    snprintf(buf, sizeof buf, "%s", mnemonic + strlen("wgmma.mma_async"));
    MmaWords s = { 0 };
    memset(f, 0, sizeof *f);
    char *save = NULL;
    for (char *word = strtok_r(buf, ".", &save); word; word = strtok_r(NULL, ".", &save))
        if (!mma_word(&s, word) || s.rn)
            return "a suffix it does not take";
    for (unsigned i = 0; i < s.ntypes; i++)    /* mma's types that wgmma has not */
        if (s.types[i] == MT_S4 || s.types[i] == MT_U4 || s.types[i] == MT_F64)
            return "a suffix it does not take";
    if (!s.sync)
        return ".sync is required";
    if (!s.k || s.ntypes != 3)
        return "a shape and three types .dtype.atype.btype are required";
    unsigned m = s.m, n = s.n, k = s.k;
    bool sat = s.satfinite, popc = s.popc, and_ = s.and_, xor_ = s.xor_;
    f->m = (uint16_t)m, f->n = (uint16_t)n, f->k = (uint16_t)k;
    f->d = f->c = s.types[0], f->a = s.types[1], f->b = s.types[2];
    bool fp8 = (f->a == MT_E4M3 || f->a == MT_E5M2) && (f->b == MT_E4M3 || f->b == MT_E5M2);
    bool i8 = (f->a == MT_S8 || f->a == MT_U8) && (f->b == MT_S8 || f->b == MT_U8);
    bool b1 = f->a == MT_B1 && f->b == MT_B1;
    bool half = (f->a == MT_F16 || f->a == MT_BF16) && f->a == f->b;
    bool tf32 = f->a == MT_TF32 && f->b == MT_TF32;
    if (m != 64 || n < 8 || n > 256 || n % 8)
        return "a shape other than m64nNkK with N a multiple of 8 from 8 to 256";
    if (!(half && k == 16) && !(tf32 && k == 8) && !((fp8 || i8) && k == 32) && !(b1 && k == 256))
        return "a K other than 16 (f16, bf16), 8 (tf32), 32 (e4m3, e5m2, s8, u8) or 256 (b1) for its types";
    if ((i8 || b1) && !integer_n(n))
        return "an N the integer and b1 forms do not take (8, 16, 24, then multiples of 16 from 32)";
    if ((i8 || b1) ? f->d != MT_S32 : f->a == MT_F16 || fp8 ? f->d != MT_F16 && f->d != MT_F32 : f->d != MT_F32)
        return "a .dtype its A and B types do not take (f16, e4m3, e5m2: .f16 or .f32; bf16, tf32: .f32; "
               "s8, u8, b1: .s32)";
    if (sat && !i8)
        return ".satfinite on a form that is not s8/u8";
    if (b1 ? !popc || !and_ : popc || and_ || xor_)
        return "b1 forms, and only they, take .and.popc (ptxas refuses .xor.popc for wgmma)";
    f->flags = (uint8_t)((sat ? MMA_SAT : 0) | (b1 ? MMA_AND_POPC : 0));
    unsigned dbits = mma_type_bits(f->d);
    f->d_regs = (uint8_t)(dbits == 16 ? n / 4 : n / 2);
    return NULL;
}

static void error_at(Loader *ld, Span at, const char *fmt, const char *mnemonic, unsigned i)
{
    diag_at(ld->diag, DIAG_ERROR, at, fmt, i, mnemonic);
    ld->failed = true;
}

/* A register operand's type, or TYPE_COUNT for anything else. */
static int reg_type(Loader *ld, const Operand *o)
{
    return o->kind == OPND_REG ? (int)ld->cur->fn->regs.data[o->u.slot].type : TYPE_COUNT;
}

/* The registers of vector o (count of them, each of one of the types in ok) into rows. */
static bool vector_rows(Loader *ld, const Operand *o, unsigned count, const int *ok, uint32_t *rows)
{
    if (o->kind != OPND_VEC || o->count != count)
        return false;
    for (unsigned i = 0; i < count; i++) {
        const Operand *e = &o->u.group.elems[i];
        int t = reg_type(ld, e), fits = 0;
        for (const int *k = ok; *k != TYPE_COUNT; k++)
            fits |= *k == t;
        if (!fits)
            return false;
        rows[i] = ld->cur->row_base + e->u.slot;
    }
    return true;
}

/* A descriptor: a 64-bit integer register (.b64, .u64, .s64) or an integer immediate. */
static bool desc_row(Loader *ld, const Operand *o, uint32_t *row)
{
    int t = reg_type(ld, o);
    if (t == TYPE_B64 || t == TYPE_U64 || t == TYPE_S64)
        *row = ld->cur->row_base + o->u.slot;
    else if (o->kind == OPND_INT)
        *row = operand_immediate_row(ld, o->u.bits);
    else
        return false;
    return true;
}

static bool immediate_in(const Operand *o, int64_t a, int64_t b)
{
    return o->kind == OPND_INT && ((int64_t)o->u.bits == a || (int64_t)o->u.bits == b);
}

static void lower_mma(Loader *ld, const Instr *in, XInstr *x)
{
    MmaForm f;
    const char *wrong = decode(in->mnemonic, &f);
    if (wrong) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' is not a form of wgmma.mma_async (%s)", in->mnemonic, wrong);
        ld->failed = true;
        return;
    }
    const Module *mod = ld->p->m;
    if (f.a != f.b && f.a != MT_E4M3 && f.a != MT_E5M2 && mod->version && mod->version < 84) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' (mixed .s8 and .u8) requires PTX ISA 8.4 or later "
                "(this module is .version %u.%u)", in->mnemonic, mod->version / 10, mod->version % 10);
        ld->failed = true;
        return;
    }
    if (f.a == MT_E4M3 || f.a == MT_E5M2) {
        char what[220];
        snprintf(what, sizeof what, "'%s' (wgmma.mma_async with .%s A and B: no recording of the H100's fp8 "
                 "accumulation, which the mma fp8 rule does not describe)", in->mnemonic,
                 f.a == MT_E4M3 ? "e4m3" : "e5m2");
        operand_cannot(ld, in, what);
        return;
    }
    bool fl = f.a == MT_F16 || f.a == MT_BF16 || f.a == MT_TF32, half = f.a == MT_F16 || f.a == MT_BF16;
    const Operand *op = in->operands;
    bool a_regs = in->operand_count >= 2 && op[1].kind == OPND_VEC;
    unsigned want = !fl ? 4 : !half ? 6 : a_regs ? 7 : 8;
    if (in->operand_count != want) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' takes %u operands (d, %s, b-desc, scale-d%s%s), not %u",
                in->mnemonic, want, a_regs ? "{a}" : "a-desc", fl ? ", imm-scale-a, imm-scale-b" : "",
                !half ? "" : a_regs ? ", imm-trans-b" : ", imm-trans-a, imm-trans-b", in->operand_count);
        ld->failed = true;
        return;
    }
    f.a_regs = a_regs ? 4 : 1;
    f.b_regs = 1;
    unsigned total = f.d_regs + f.a_regs + 1;
    Program *p = ld->p;
    p->mma_rows = xrealloc(p->mma_rows, (p->mma_row_count + total) * sizeof *p->mma_rows);
    uint32_t *rows = p->mma_rows + p->mma_row_count;
    static const int d_f32[] = { TYPE_F32, TYPE_B32, TYPE_COUNT }, d_s32[] = { TYPE_B32, TYPE_U32, TYPE_S32, TYPE_COUNT },
                     d_f16[] = { TYPE_B32, TYPE_F16X2, TYPE_COUNT }, a_b32[] = { TYPE_B32, TYPE_COUNT };
    const int *dk = f.d == MT_F32 ? d_f32 : f.d == MT_S32 ? d_s32 : d_f16;
    const int *ak = half ? d_f16 : f.a == MT_TF32 ? a_b32 : d_s32;
    if (!vector_rows(ld, &op[0], f.d_regs, dk, rows)) {
        diag_at(ld->diag, DIAG_ERROR, op[0].at, "operand 1 of '%s' must be {%u %s registers}", in->mnemonic,
                f.d_regs, f.d == MT_F32 ? ".f32 or .b32" : f.d == MT_S32 ? ".b32, .u32 or .s32" : ".b32 or .f16x2");
        ld->failed = true;
        return;
    }
    if (a_regs ? !vector_rows(ld, &op[1], 4, ak, rows + f.d_regs) : !desc_row(ld, &op[1], rows + f.d_regs)) {
        diag_at(ld->diag, DIAG_ERROR, op[1].at, "operand 2 of '%s' must be a 64-bit matrix descriptor (.b64, .u64 "
                "or .s64 register, or an integer) or {4 %s registers}", in->mnemonic,
                half ? ".b32 or .f16x2" : f.a == MT_TF32 ? ".b32" : ".b32, .u32 or .s32");
        ld->failed = true;
        return;
    }
    if (!desc_row(ld, &op[2], rows + f.d_regs + f.a_regs)) {
        error_at(ld, op[2].at, "operand %u of '%s' must be a 64-bit matrix descriptor (.b64, .u64 or .s64 "
                 "register, or an integer)", in->mnemonic, 3);
        return;
    }
    uint8_t mode = a_regs ? WG_A_REGS : 0;
    if (op[3].kind == OPND_PRED) {
        x->src[0] = ld->cur->pred_base + op[3].u.slot;
        x->src_not = op[3].flags & OPNDF_NOT ? 1 : 0;
    } else if (immediate_in(&op[3], 0, 1)) {
        mode |= WG_SCALE_IMM | (op[3].u.bits ? WG_SCALE_ONE : 0);
    } else {
        error_at(ld, op[3].at, "operand %u of '%s' (scale-d) must be a predicate or 0 or 1", in->mnemonic, 4);
        return;
    }
    uint8_t negate = 0;
    for (unsigned i = 4; i < want; i++) {
        bool scale = i < 6;
        if (!immediate_in(&op[i], scale ? -1 : 0, 1)) {
            error_at(ld, op[i].at, scale ? "operand %u of '%s' (imm-scale) must be 1 or -1"
                                         : "operand %u of '%s' (imm-trans) must be 0 or 1", in->mnemonic, i + 1);
            return;
        }
        if (scale && (int64_t)op[i].u.bits == -1)
            negate |= (uint8_t)(1u << (i - 4));
        else if (!scale && op[i].u.bits)
            mode |= (uint8_t)(i == want - 1 ? WG_TRANS_B : WG_TRANS_A);
    }
    mma_add_form(p, f, total, x);
    x->mode = mode;
    x->negate = negate;
    x->space = SPACE_SHARED;          /* mem_locate reads the descriptors' matrices in .shared */
}

void wgmma_lower(Loader *ld, const Instr *in, XInstr *x)
{
    x->dst_kind = DST_NONE;
    x->src_count = 0;
    if (in->op == OP_WGMMA_MMA_ASYNC) {
        lower_mma(ld, in, x);
        return;
    }
    unsigned want = in->op == OP_WGMMA_WAIT_GROUP;
    if (in->operand_count != want) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' takes %s", in->mnemonic, want ? "one operand, N" : "no operand");
        ld->failed = true;
        return;
    }
    if (want) {
        const Operand *o = &in->operands[0];
        if (o->kind != OPND_INT || (int64_t)o->u.bits < 0) {     /* ptxas: a register is "Arguments mismatch" */
            diag_at(ld->diag, DIAG_ERROR, o->at, "'%s' takes an integer constant N >= 0", in->mnemonic);
            ld->failed = true;
            return;
        }
        x->offset = (int64_t)o->u.bits;
    }
}

/* ---- execution ---- */

/* D's element i of lane l of a warp's 16 rows (the ISA's figure for wgmma's D: mma.m16n8's C
 * every 8 columns). */
static void d_place(unsigned l, unsigned i, unsigned *row, unsigned *col)
{
    *row = (l >> 2) + 8 * (i >> 1 & 1);
    *col = 8 * (i >> 2) + 2 * (l & 3) + (i & 1);
}

/* Row's value in lane l as the next wgmma.mma_async reads it: from the last one in flight
 * that writes it, else the register. *dbits: its defined bits. */
static uint64_t current(const Warp *w, const struct WgmmaState *s, uint32_t row, unsigned l, uint64_t *dbits)
{
    for (unsigned i = s ? s->count : 0; i-- > 0;)
        for (unsigned r = 0; r < s->ops[i].count; r++)
            if (s->ops[i].rows[r] == row) {
                *dbits = s->ops[i].dbits[r * WARP_SIZE + l];
                return s->ops[i].val[r * WARP_SIZE + l];
            }
    *dbits = warp_dbits(w, row, (int)l);
    return w->val[row][l];
}

static double f16_value(uint64_t h)
{
    int e = (int)(h >> 10 & 31);
    double v = e ? ldexp((double)(1024 | (h & 1023)), e - 25) : ldexp((double)(h & 1023), -24);
    if (e == 31)
        v = (h & 1023) ? NAN : INFINITY;
    return h >> 15 & 1 ? -v : v;
}

static double f32_value(uint64_t bits)
{
    uint32_t u = (uint32_t)bits;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* An A or B element's (or C's, D's) value, type t, as the tensor core reads it. */
static double element_value(unsigned t, uint64_t raw)
{
    switch (t) {
    case MT_F16: return f16_value(raw);
    case MT_BF16: return f32_value(raw << 16);
    case MT_TF32: return f32_value(raw & 0xffffe000u);
    default: return f32_value(raw);
    }
}

/* Whether D's element d = a . b + c is what every way of summing gives: the exact sum (found
 * with error-free additions in double, each product exact there) is finite and a value of D's
 * type, and d is it. */
static bool exact(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c, uint64_t d)
{
    double s = element_value(f->c, c), err = 0;
    for (unsigned i = 0; i < f->k; i++) {
        double p = element_value(f->a, a[i]) * element_value(f->b, b[i]), t = s + p;
        double bb = t - s;
        err += fabs((s - (t - bb)) + (p - bb));
        s = t;
    }
    if (err != 0 || !isfinite(s))
        return false;
    double dv = element_value(f->d, d);
    if (f->d == MT_F16)
        return dv == s;
    return (double)(float)s == s && dv == s;
}

static void negate_all(uint64_t *v, size_t count, unsigned bits, bool on)
{
    if (!on)
        return;
    uint64_t sign = bits == 32 ? 1ull << 31 : 1ull << (bits - 1);   /* tf32: the f32 sign bit */
    for (size_t i = 0; i < count; i++)
        v[i] ^= sign;
}

/* Every warp of w's warpgroup exists with all 32 lanes launched (the ISA: executed by all 128
 * threads); else a fault. */
static bool warpgroup_whole(Warp *w, uint32_t pc)
{
    const Block *b = w->block;
    uint32_t first = w->index / 4 * 4;
    for (uint32_t i = first; i < first + 4; i++)
        if (i >= b->warp_count || b->warps[i]->launched != ALL_LANES) {
            report_fault(w, pc, "'%s' is executed by warpgroups of 128 threads: warps %u-%u of the CTA, whose "
                         "warp %u %s", w->prog->code[pc].ir->mnemonic, first, first + 3, i,
                         i >= b->warp_count ? "does not exist (the CTA has too few threads)" : "is not whole");
            return false;
        }
    return true;
}

static void mma_async(Warp *w, const XInstr *x, uint32_t pc)
{
    if (!warpgroup_whole(w, pc))
        return;
    struct WgmmaState *s = state(w);
    if (!s->fenced)
        report_warn(w, pc, ALL_LANES, "wgmma.mma_async with no wgmma.fence before it in this warp (the PTX ISA "
                    "requires one before the first wgmma.mma_async; its register accesses are undefined otherwise)");
    const MmaForm *f = &w->prog->mma_forms[x->target];
    const uint32_t *d = w->prog->mma_rows + f->rows, *a = d + f->d_regs, *bdesc = a + f->a_regs;
    unsigned n = f->n, k = f->k, abits = mma_type_bits(f->a), dbits = mma_type_bits(f->d);
    uint64_t *A = xcalloc(16 * (size_t)k, sizeof *A), *Bt = xcalloc((size_t)n * k, sizeof *Bt);
    uint64_t *C = xcalloc(16 * (size_t)n, sizeof *C), *D = xcalloc(16 * (size_t)n, sizeof *D);
    bool Au[16] = { false }, Bu[256] = { false }, *Cu = xcalloc(16 * (size_t)n, sizeof *Cu);
    bool ok = true;
    if (x->mode & WG_A_REGS) {
        MmaForm af = { .m = 16, .n = 8, .k = f->k, .a = f->a, .b = f->b, .c = f->c, .d = f->d };
        unsigned per = 4 * (abits >= 32 ? 1 : 32 / abits);
        for (unsigned l = 0; l < WARP_SIZE; l++)
            for (unsigned i = 0; i < per; i++) {
                unsigned r, c;
                bool und;
                mma_layout(&af, 'a', l, i, &r, &c);
                A[r * k + c] = mma_element(w, a, l, i, abits, &und);
                Au[r] |= und;
            }
    } else {
        ok = wgmmadesc_gather(w, x, a[0], "A", x->mode & WG_TRANS_A, abits, 16 * (w->index % 4), 16, k, A, Au);
    }
    ok = ok && wgmmadesc_gather(w, x, bdesc[0], "B", x->mode & WG_TRANS_B, abits, 0, n, k, Bt, Bu);
    if (ok) {
        bool fl = f->a == MT_F16 || f->a == MT_BF16 || f->a == MT_TF32;
        negate_all(A, 16 * (size_t)k, abits, fl && (x->negate & 1));
        negate_all(Bt, (size_t)n * k, abits, fl && (x->negate & 2));
        /* scale-d: D's old value, or 0; undefined in every lane when the predicate is */
        bool scale = x->mode & WG_SCALE_ONE, scale_known = true;
        if (!(x->mode & WG_SCALE_IMM)) {
            uint32_t pred = w->pred[x->src[0]] ^ (x->src_not ? ALL_LANES : 0), defined = w->pred_defined[x->src[0]];
            scale_known = defined == ALL_LANES;
            if (scale_known && pred != 0 && pred != ALL_LANES) {
                report_fault(w, pc, "'%s': scale-d differs between the lanes (true in 0x%08x)", x->ir->mnemonic, pred);
                ok = false;
            }
            scale = pred == ALL_LANES;
        }
        uint64_t dmask = dbits == 16 ? 0xffff : 0xffffffffull;
        for (unsigned l = 0; ok && l < WARP_SIZE; l++)
            for (unsigned i = 0; i < n / 2; i++) {
                unsigned r, c, e = dbits == 16 ? 2 : 1;
                d_place(l, i, &r, &c);
                uint64_t db, v = current(w, s, d[i / e], l, &db), sh = dbits * (i % e);
                C[r * n + c] = scale ? v >> sh & dmask : 0;
                Cu[r * n + c] = !scale_known || (scale && (db >> sh & dmask) != dmask);
            }
        bool unrecorded = false, rule = false;
        if (ok && fl) {
            MmaForm pf = *f;
            MmafTerm *X = xcalloc(16 * (size_t)k, sizeof *X), *Y = xcalloc((size_t)n * k, sizeof *Y);
            mmaf_terms(f->a, A, 16 * k, X);
            mmaf_terms(f->b, Bt, n * k, Y);
            for (unsigned i = 0; i < 16; i++)
                for (unsigned j = 0; j < n; j++) {
                    D[i * n + j] = mmaf_dot_terms(&pf, X + i * k, Y + j * k, C[i * n + j], &unrecorded);
                    if (!rule && !exact(f, A + i * k, Bt + j * k, C[i * n + j], D[i * n + j]))
                        rule = true;
                }
            free(X);
            free(Y);
        } else if (ok) {
            for (unsigned i = 0; i < 16; i++)
                for (unsigned j = 0; j < n; j++) {
                    const uint64_t *x_ = A + i * k, *y = Bt + j * k;
                    int64_t acc = (int32_t)(uint32_t)C[i * n + j];
                    for (unsigned h = 0; h < k; h++) {
                        if (f->a == MT_B1)
                            acc += (int64_t)(x_[h] & y[h] & 1);
                        else
                            acc += (int64_t)(f->a == MT_S8 ? (int8_t)x_[h] : (int64_t)x_[h]) *
                                   (f->b == MT_S8 ? (int8_t)y[h] : (int64_t)y[h]);
                    }
                    if (f->flags & MMA_SAT)
                        acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                    D[i * n + j] = (uint32_t)(uint64_t)acc;     /* modulo 2^32 */
                }
        }
        if (rule)
            report_warn(w, pc, ALL_LANES, "wgmma.mma_async: an element of D whose exact sum is not a value of D's "
                        "type, so its bits depend on how the tensor core sums; no H100 recording of wgmma's sums "
                        "here: ptxrun sums as the H100's mma.sync does (docs/semantics.md, \"wgmma\")");
        if (unrecorded)
            report_warn(w, pc, ALL_LANES, "wgmma.mma_async: an element of D on a case no H100 recording decides "
                        "(docs/semantics.md, \"mma\"), where another choice gives other bits");
    }
    if (ok) {
        if (s->count == s->cap) {
            s->cap = s->cap ? 2 * s->cap : 4;
            s->ops = xrealloc(s->ops, s->cap * sizeof *s->ops);
        }
        WgmmaOp *op = &s->ops[s->count++];
        *op = (WgmmaOp){ pc, 0, f->d_regs, d, xcalloc((size_t)f->d_regs * WARP_SIZE, sizeof(uint64_t)),
                         xcalloc((size_t)f->d_regs * WARP_SIZE, sizeof(uint64_t)), NULL, { { 0 } } };
        if (x->mode & WG_A_REGS) {
            op->a = a;
            for (unsigned r = 0; r < 4; r++)
                memcpy(op->a_val[r], w->val[a[r]], sizeof op->a_val[r]);
        }
        unsigned e = dbits == 16 ? 2 : 1;
        uint64_t emask = dbits == 16 ? 0xffff : 0xffffffffull;
        for (unsigned l = 0; l < WARP_SIZE; l++)
            for (unsigned i = 0; i < n / 2; i++) {
                unsigned r, c, sh = dbits * (i % e);
                d_place(l, i, &r, &c);
                bool und = Au[r] || Bu[c] || Cu[r * n + c];
                op->val[i / e * WARP_SIZE + l] |= (D[r * n + c] & emask) << sh;
                op->dbits[i / e * WARP_SIZE + l] |= und ? 0 : emask << sh;
            }
        if (!s->writers)
            s->writers = xcalloc(w->prog->row_count, sizeof *s->writers);
        for (unsigned r = 0; r < f->d_regs; r++) {        /* undefined until wgmma.wait_group */
            warp_define(w, d[r], ALL_LANES, 0);
            s->writers[d[r]]++;
        }
        w->wgmma_inflight = s->count;
    }
    free(A), free(Bt), free(C), free(D), free(Cu);
}

/* wgmma.wait_group N: every wgmma.mma_async of a group older than the N most recent lands. */
static void wait_group(Warp *w, uint64_t keep)
{
    struct WgmmaState *s = w->wgmma;
    if (!s)
        return;
    uint64_t last = s->committed > keep ? s->committed - keep : 0;   /* groups 1..last complete */
    unsigned left = 0;
    for (unsigned i = 0; i < s->count; i++) {
        WgmmaOp *op = &s->ops[i];
        if (!op->group || op->group > last) {
            s->ops[left++] = *op;
            continue;
        }
        for (unsigned r = 0; r < op->count; r++) {
            uint32_t row = op->rows[r];
            s->writers[row]--;
            bool later = false;                            /* a later one in flight writes it: it stays undefined */
            for (unsigned j = i + 1; j < s->count && !later; j++)
                for (unsigned q = 0; q < s->ops[j].count && !later; q++)
                    later = s->ops[j].rows[q] == row;
            if (later)
                continue;
            bool touched = w->defined[row] != 0;
            for (unsigned l = 0; l < WARP_SIZE && !touched; l++)
                touched = w->bits[row][l] != 0;
            if (touched)
                report_warn(w, op->pc, ALL_LANES, "an accumulator register of this wgmma.mma_async was written "
                            "before the wgmma.wait_group that completes it (the PTX ISA leaves that undefined); "
                            "the result overwrites it there");
            uint32_t defined = 0;
            for (unsigned l = 0; l < WARP_SIZE; l++) {
                w->val[row][l] = op->val[r * WARP_SIZE + l];
                defined |= (uint32_t)((op->dbits[r * WARP_SIZE + l] & 0xffffffffu) == 0xffffffffu) << l;
            }
            warp_define(w, row, ALL_LANES, defined);
            for (unsigned l = 0; l < WARP_SIZE; l++)
                if (!(defined >> l & 1))
                    w->bits[row][l] = op->dbits[r * WARP_SIZE + l];
        }
        for (unsigned r = 0; op->a && r < 4; r++)
            if (memcmp(op->a_val[r], w->val[op->a[r]], sizeof op->a_val[r]))
                report_warn(w, op->pc, ALL_LANES, "a register of this wgmma.mma_async's A was written before the "
                            "wgmma.wait_group that completes it (the PTX ISA leaves that undefined); ptxrun used "
                            "the value it had at wgmma.mma_async");
        drop_op(op);
    }
    s->count = left;
    w->wgmma_inflight = left;
}

/* ---- reads of D in flight ---- */

void wgmma_name_reads(Program *p)
{
    for (uint32_t pc = 0; pc < p->code_len; pc++) {
        const XInstr *x = &p->code[pc];
        if (x->op != OP_WGMMA_MMA_ASYNC)
            continue;
        if (!p->wgmma_reads)
            p->wgmma_reads = xcalloc(p->mma_row_count, sizeof *p->wgmma_reads);
        const MmaForm *f = &p->mma_forms[x->target];
        for (unsigned r = 0; r < f->d_regs; r++) {
            const char *name = mmaview_row_name(p, x, p->mma_rows[f->rows + r]);
            char note[320];
            int n = snprintf(note, sizeof note, "read of %s, which the wgmma.mma_async at line %u writes, before "
                             "wgmma.wait_group completes it (the PTX ISA leaves it undefined until then)",
                             name ? name : "a register", x->line);
            p->wgmma_reads[f->rows + r] = intern(&p->m->names, note, n < (int)sizeof note ? (size_t)n : sizeof note - 1);
        }
    }
}

/* The warning for a read of row while a wgmma.mma_async in flight writes it (the last one that
 * does), or NULL. chain: the form of a wgmma.mma_async reading it as its accumulator, which the
 * ISA orders after one in flight of the same shape (no warning then). */
static const char *read_note(const Warp *w, const struct WgmmaState *s, uint32_t row, const MmaForm *chain)
{
    const Program *p = w->prog;
    if (row >= p->row_count || !s->writers || !s->writers[row])
        return NULL;
    for (unsigned i = s->count; i-- > 0;)
        for (unsigned r = 0; r < s->ops[i].count; r++)
            if (s->ops[i].rows[r] == row) {
                const MmaForm *g = &p->mma_forms[p->code[s->ops[i].pc].target];
                if (chain && chain->m == g->m && chain->n == g->n && chain->k == g->k)
                    return NULL;
                return p->wgmma_reads[(size_t)(s->ops[i].rows - p->mma_rows) + r];
            }
    return NULL;
}

/* ... for the first register operand o names (its elements, an address's base) that is one. */
static const char *operand_note(const Warp *w, const struct WgmmaState *s, uint32_t base, const Operand *o,
                                const MmaForm *chain)
{
    if (o->kind == OPND_REG)
        return read_note(w, s, base + o->u.slot, chain);
    const char *note = NULL;
    if (o->kind == OPND_ADDR || o->kind == OPND_VEC || o->kind == OPND_PAIR || o->kind == OPND_LIST ||
        o->kind == OPND_REG_OFFSET)
        for (uint32_t i = 0; i < o->count && !note; i++)
            note = operand_note(w, s, base, &o->u.group.elems[i], chain);
    return note;
}

/* Whether in's first operand is only written: a destination (contract.c's rule), or a call's
 * results. */
static bool first_written(const Instr *in)
{
    if (in->op == OP_CALL)
        return in->operand_count && in->operands[0].kind == OPND_LIST;
    return contract_first_is_destination(in);
}

void wgmma_check_reads(Warp *w, uint32_t pc, uint32_t mask)
{
    const Program *p = w->prog;
    const XInstr *x = &p->code[pc];
    const struct WgmmaState *s = w->wgmma;
    if (!s || !x->ir || x->op == OP_WGMMA_WAIT_GROUP)
        return;
    const Instr *in = x->ir;
    uint32_t base = NO_SLOT;
    for (uint32_t k = 0; k < p->func_count && base == NO_SLOT; k++)
        if (p->funcs[k].fn == x->owner)
            base = p->funcs[k].row_base;
    if (base == NO_SLOT)
        return;
    const char *note = NULL;
    unsigned first = first_written(in);
    if (x->op == OP_WGMMA_MMA_ASYNC && in->operand_count) {
        bool reads_d = !(x->mode & WG_SCALE_IMM) || (x->mode & WG_SCALE_ONE);   /* scale-d 0: D is not read */
        if (reads_d)
            note = operand_note(w, s, base, &in->operands[0], &p->mma_forms[x->target]);
        first = 1;
    }
    for (unsigned i = first; i < in->operand_count && !note; i++)
        note = operand_note(w, s, base, &in->operands[i], NULL);
    uint32_t undefined, lanes = warp_guard_lanes(w, x, mask, &undefined) | undefined;
    if (note && lanes)
        report_warn(w, pc, lanes, note);
}

void wgmma_execute(Warp *w, const XInstr *x, uint32_t lanes, uint32_t guard_true)
{
    uint32_t pc = (uint32_t)(x - w->prog->code);
    if (!guard_true)
        return;                          /* guarded off in every lane: the warp does not execute it */
    if (w->launched != ALL_LANES || lanes != ALL_LANES || guard_true != ALL_LANES || w->exited) {
        report_fault(w, pc, "'%s' executed by lanes 0x%08x of the warp (guard true in 0x%08x): wgmma's "
                     "instructions need all 32 lanes of every warp of the warpgroup to execute them together",
                     x->ir->mnemonic, lanes, guard_true);
        return;
    }
    switch (x->op) {
    case OP_WGMMA_FENCE:
        state(w)->fenced = true;
        break;
    case OP_WGMMA_COMMIT_GROUP: {
        struct WgmmaState *s = state(w);
        s->committed++;
        for (unsigned i = 0; i < s->count; i++)
            if (!s->ops[i].group)
                s->ops[i].group = s->committed;
        break;
    }
    case OP_WGMMA_WAIT_GROUP:
        wait_group(w, (uint64_t)x->offset);
        break;
    default:
        mma_async(w, x, pc);
        break;
    }
}
