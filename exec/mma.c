/* mma.c: mma.sync.aligned, the warp's matrix product D = A*B + C from register fragments, in
 * the forms ptxrun executes: m8n8k16, m16n8k16 and m16n8k32 .row.col .s32 with u8/s8 A and B
 * (wrapping, or .satfinite: the exact sum saturated once to the s32 range), and m8n8k4
 * .row.col .f64 (an IEEE fma chain in k order from C). The form is decoded once when lowered
 * (mma_lower); each execution gathers A, B and C from the lanes' registers into matrices by the
 * PTX ISA's fragment layouts, multiplies once for the whole warp and scatters D. Every other
 * form is refused before the run. A D element is undefined when any element of A's row, B's
 * column or C it depends on has an undefined bit. Layouts and arithmetic: docs/semantics.md,
 * "mma", from ../shared/hw/mma (H100). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"

enum { MMA_F64 = 1, MMA_SAT = 2, MMA_A_SIGNED = 4, MMA_B_SIGNED = 8 };

typedef struct MmaShape { unsigned m, n, k, a_regs, b_regs, c_regs; } MmaShape;

static MmaShape shape_of(unsigned shape)
{
    switch (shape) {
    case MMA_M8N8K4: return (MmaShape){ 8, 8, 4, 1, 1, 2 };
    case MMA_M8N8K16: return (MmaShape){ 8, 8, 16, 1, 1, 2 };
    case MMA_M16N8K16: return (MmaShape){ 16, 8, 16, 2, 1, 4 };
    default: return (MmaShape){ 16, 8, 32, 4, 2, 4 };
    }
}

/* Fragment layouts (PTX ISA 9.7.14.5, "Matrix fragments for mma.m16n8k*" and "mma.m8n8k*"),
 * g = lane >> 2, t = lane & 3, element i of a lane's fragment; 8-bit elements four to a
 * register, low byte first; f64 one to a register. */
void mma_layout_a(unsigned shape, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3;
    switch (shape) {
    case MMA_M8N8K4: *row = g; *col = t; break;
    case MMA_M8N8K16: *row = g; *col = 4 * t + i; break;
    case MMA_M16N8K16: *row = g + 8 * (i >> 2); *col = 4 * t + (i & 3); break;
    default: *row = g + 8 * ((i >> 2) & 1); *col = 4 * t + (i & 3) + 16 * (i >> 3); break;
    }
}

void mma_layout_b(unsigned shape, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3;
    *col = g;
    switch (shape) {
    case MMA_M8N8K4: *row = t; break;
    case MMA_M8N8K16: case MMA_M16N8K16: *row = 4 * t + i; break;
    default: *row = 4 * t + (i & 3) + 16 * (i >> 2); break;
    }
}

void mma_layout_c(unsigned shape, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3;
    *row = shape == MMA_M8N8K4 || shape == MMA_M8N8K16 ? g : g + 8 * (i >> 1);
    *col = 2 * t + (i & 1);
}

/* Decodes mma's suffixes from its mnemonic; false for a form ptxrun does not execute. */
static bool decode(const char *mnemonic, uint8_t *shape, uint8_t *flags)
{
    char buf[160];
    snprintf(buf, sizeof buf, "%s", mnemonic);
    const char *types[4];
    unsigned ntypes = 0;
    bool sync = false, aligned = false, row = false, col = false, sat = false, rn = false;
    *shape = 0;
    char *save = NULL;
    char *word = strtok_r(buf, ".", &save);              /* "mma" */
    while ((word = strtok_r(NULL, ".", &save))) {
        if (!strcmp(word, "sync") && !sync) sync = true;
        else if (!strcmp(word, "aligned") && !aligned) aligned = true;
        else if (!strcmp(word, "row") && !row && !col) row = true;
        else if (!strcmp(word, "col") && row && !col) col = true;
        else if (!strcmp(word, "satfinite") && !sat) sat = true;
        else if (!strcmp(word, "rn") && !rn) rn = true;
        else if (!strcmp(word, "m8n8k4") && !*shape) *shape = MMA_M8N8K4;
        else if (!strcmp(word, "m8n8k16") && !*shape) *shape = MMA_M8N8K16;
        else if (!strcmp(word, "m16n8k16") && !*shape) *shape = MMA_M16N8K16;
        else if (!strcmp(word, "m16n8k32") && !*shape) *shape = MMA_M16N8K32;
        else if (ntypes < 4 && (!strcmp(word, "s32") || !strcmp(word, "s8") || !strcmp(word, "u8") ||
                                !strcmp(word, "f64")))
            types[ntypes++] = word;
        else
            return false;
    }
    if (!sync || !aligned || !row || !col || !*shape || ntypes != 4)
        return false;
    if (rn && strcmp(types[0], "f64"))
        return false;                                    /* .rn: the f64 forms' only rounding */
    if (!strcmp(types[0], "f64"))
        *flags = MMA_F64;
    else
        *flags = (uint8_t)((sat ? MMA_SAT : 0) | (!strcmp(types[1], "s8") ? MMA_A_SIGNED : 0) |
                           (!strcmp(types[2], "s8") ? MMA_B_SIGNED : 0));
    if (*flags & MMA_F64)
        return *shape == MMA_M8N8K4 && !sat && !strcmp(types[1], "f64") && !strcmp(types[2], "f64") &&
               !strcmp(types[3], "f64");
    return *shape != MMA_M8N8K4 && !strcmp(types[0], "s32") && !strcmp(types[3], "s32") &&
           strcmp(types[1], "s32") && strcmp(types[2], "s32") && strcmp(types[1], "f64") && strcmp(types[2], "f64");
}

/* The checker puts a mnemonic's words in canonical order, so the types' order in the source
 * (.dtype.atype.btype.ctype) is checked here: ptxas refuses .s32.s32.s8.s8 ("Unexpected
 * instruction types"), which would otherwise run as .s32.s8.s8.s32. */
static bool types_in_order(Loader *ld, const Instr *in)
{
    static const char *const type_words[] = { "s32", "s8", "u8", "f64", "f32", "f16", "bf16", "tf32", "e4m3",
                                              "e5m2", "s4", "u4", "b1" };
    const char *src = ld->p->m->src->text + in->at.offset;
    char from_source[64] = "", from_canonical[64] = "";
    for (int pass = 0; pass < 2; pass++) {
        const char *s = pass ? in->mnemonic : src;
        size_t len = pass ? strlen(in->mnemonic) : in->at.length;
        char *out = pass ? from_canonical : from_source;
        for (size_t pos = 0; pos < len;) {
            size_t start = pos + 1, end = start;
            while (end < len && s[end] != '.')
                end++;
            if (s[pos] == '.')
                for (size_t t = 0; t < sizeof type_words / sizeof *type_words; t++)
                    if (strlen(type_words[t]) == end - start && !memcmp(s + start, type_words[t], end - start) &&
                        strlen(out) + end - start + 2 < 64) {
                        strcat(out, ".");
                        strncat(out, s + start, end - start);
                    }
            pos = end;
        }
    }
    if (!strcmp(from_source, from_canonical))
        return true;
    diag_at(ld->diag, DIAG_ERROR, in->at, "mma's types must come in the order .dtype.atype.btype.ctype "
            "(%s here; a valid form is %s)", from_source, from_canonical);
    ld->failed = true;
    return false;
}

/* {d...}, {a...}, {b...}, {c...}: registers of width bits, count of them, into rows. */
static bool vector_rows(Loader *ld, const Operand *o, unsigned count, unsigned bits, bool dst, uint32_t *rows)
{
    if (o->kind != OPND_VEC || o->count != count)
        return false;
    for (unsigned i = 0; i < count; i++) {
        const Operand *e = &o->u.group.elems[i];
        if (e->kind == OPND_REG) {
            if (type_info[ld->cur->fn->regs.data[e->u.slot].type].bits != bits)
                return false;
            rows[i] = ld->cur->row_base + e->u.slot;
        } else if (!dst && (e->kind == OPND_INT || e->kind == OPND_F64) && bits == 64) {
            rows[i] = operand_immediate_row(ld, e->u.bits);
        } else if (!dst && e->kind == OPND_INT && bits == 32) {
            rows[i] = operand_immediate_row(ld, e->u.bits & 0xffffffffu);
        } else {
            return false;
        }
    }
    return true;
}

/* Lowers mma: its form into x->mode (the shape) and x->secondary (MMA_* flags); the rows of
 * D, A, B, C in order into Program.mma_rows from x->target. Refuses other forms. */
void mma_lower(Loader *ld, const Instr *in, XInstr *x)
{
    uint8_t shape, flags = 0;
    if (!types_in_order(ld, in))
        return;
    if (!decode(in->mnemonic, &shape, &flags)) {
        char what[200];
        snprintf(what, sizeof what, "'%s' (this form of mma)", in->mnemonic);
        operand_cannot(ld, in, what);
        return;
    }
    MmaShape s = shape_of(shape);
    unsigned bits = flags & MMA_F64 ? 64 : 32;
    if (in->operand_count != 4) {
        operand_cannot(ld, in, "mma without four vector operands");
        return;
    }
    unsigned counts[4] = { s.c_regs, s.a_regs, s.b_regs, s.c_regs }, total = 2 * s.c_regs + s.a_regs + s.b_regs;
    Program *p = ld->p;
    p->mma_rows = xrealloc(p->mma_rows, (p->mma_row_count + total) * sizeof *p->mma_rows);
    uint32_t *rows = p->mma_rows + p->mma_row_count;
    for (unsigned k = 0, at = 0; k < 4; at += counts[k], k++)
        if (!vector_rows(ld, &in->operands[k], counts[k], bits, k == 0, rows + at)) {
            char what[96];
            snprintf(what, sizeof what, "mma with this operand %u (the form takes {%u .b%u registers})", k + 1,
                     counts[k], bits);
            operand_cannot(ld, in, what);
            return;
        }
    x->target = p->mma_row_count;
    x->target_count = total;
    p->mma_row_count += total;
    x->mode = shape;
    x->secondary = flags;
    x->dst_kind = DST_NONE;
    x->src_count = 0;
}

/* Element i of a fragment held in regs (lane l): 8-bit elements four to a register; its value
 * (signed or not) and whether any of its bits is undefined. */
static int64_t byte_of(const Warp *w, const uint32_t *regs, unsigned l, unsigned i, bool sign, bool *undef)
{
    uint32_t row = regs[i / 4];
    unsigned sh = 8 * (i % 4);
    uint64_t v = w->val[row][l] >> sh & 0xff;
    *undef = ((warp_dbits(w, row, (int)l) >> sh) & 0xff) != 0xff;
    return sign ? (int64_t)(int8_t)v : (int64_t)v;
}

static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static double f64_of(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* One step of the f64 chain, its NaNs independent of the host: an input NaN, quieted, with its
 * sign and payload (a's, else b's, else c's), or 0xfff8000000000000 for an invalid operation on
 * numbers, as the H100's f64 fma gives them (exec/alu.c). *choice: two different NaNs met. */
static double f64_fma(double a, double b, double c, bool *choice)
{
    uint64_t in[3] = { f64_bits(a), f64_bits(b), f64_bits(c) }, first = 0;
    for (unsigned i = 0; i < 3; i++) {
        if ((in[i] & 0x7fffffffffffffffull) <= 0x7ff0000000000000ull)
            continue;
        if (first && (in[i] | 1ull << 51) != first)
            *choice = true;
        if (!first)
            first = in[i] | 1ull << 51;
    }
    double r = fma(a, b, c);
    if (first)
        return f64_of(first);
    return isnan(r) ? f64_of(0xfff8000000000000ull) : r;
}

/* The warp's mma: every lane of the warp takes part (.aligned), or none (a guard false in
 * all of them); otherwise a fault. */
void mma_execute(Warp *w, const XInstr *x, uint32_t lanes, uint32_t guard_true)
{
    uint32_t all = w->launched & ~w->exited;
    if (!guard_true)
        return;                          /* guarded off in every lane: nobody executes it */
    if (w->launched != ALL_LANES || lanes != ALL_LANES || guard_true != ALL_LANES || all != ALL_LANES) {
        report_fault(w, (uint32_t)(x - w->prog->code), "'%s' executed by lanes 0x%08x of the warp (guard true in "
                     "0x%08x): mma.sync.aligned needs all 32 lanes of a whole warp to execute it together",
                     x->ir->mnemonic, lanes, guard_true);
        return;
    }
    MmaShape s = shape_of(x->mode);
    const uint32_t *rows = w->prog->mma_rows + x->target;
    const uint32_t *d = rows, *a = rows + s.c_regs, *b = a + s.a_regs, *c = b + s.b_regs;
    unsigned a_elems = s.m * s.k / 32, b_elems = s.k * s.n / 32;
    bool f64 = x->secondary & MMA_F64;
    int64_t A[16][32], B[32][8], C[16][8];
    double Af[8][4], Bf[4][8], Cf[8][8];
    bool Au[16][32], Bu[32][8], Cu[16][8];
    uint32_t rr, cc;
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        for (unsigned i = 0; i < a_elems; i++) {
            mma_layout_a(x->mode, l, i, &rr, &cc);
            if (f64) {
                Af[rr][cc] = f64_of(w->val[a[i]][l]);
                Au[rr][cc] = warp_dbits(w, a[i], (int)l) != ~0ull;
            } else {
                A[rr][cc] = byte_of(w, a, l, i, x->secondary & MMA_A_SIGNED, &Au[rr][cc]);
            }
        }
        for (unsigned i = 0; i < b_elems; i++) {
            mma_layout_b(x->mode, l, i, &rr, &cc);
            if (f64) {
                Bf[rr][cc] = f64_of(w->val[b[i]][l]);
                Bu[rr][cc] = warp_dbits(w, b[i], (int)l) != ~0ull;
            } else {
                B[rr][cc] = byte_of(w, b, l, i, x->secondary & MMA_B_SIGNED, &Bu[rr][cc]);
            }
        }
        for (unsigned i = 0; i < s.c_regs; i++) {
            mma_layout_c(x->mode, l, i, &rr, &cc);
            uint64_t need = f64 ? ~0ull : 0xffffffffu;
            Cu[rr][cc] = (warp_dbits(w, c[i], (int)l) & need) != need;
            if (f64)
                Cf[rr][cc] = f64_of(w->val[c[i]][l]);
            else
                C[rr][cc] = (int32_t)(uint32_t)w->val[c[i]][l];
        }
    }
    uint64_t D[16][8];
    bool Du[16][8], nan_choice = false;
    for (unsigned i = 0; i < s.m; i++)
        for (unsigned j = 0; j < s.n; j++) {
            bool u = Cu[i][j];
            for (unsigned k = 0; k < s.k; k++)
                u |= Au[i][k] | Bu[k][j];
            Du[i][j] = u;
            if (f64) {
                double acc = Cf[i][j];
                for (unsigned k = 0; k < s.k; k++)
                    acc = f64_fma(Af[i][k], Bf[k][j], acc, &nan_choice);
                D[i][j] = f64_bits(acc);
            } else {
                int64_t acc = C[i][j];          /* at most 32 * 255 * 255 + 2^31: no overflow */
                for (unsigned k = 0; k < s.k; k++)
                    acc += A[i][k] * B[k][j];
                if (x->secondary & MMA_SAT)
                    acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                D[i][j] = (uint32_t)(uint64_t)acc;   /* modulo 2^32 */
            }
        }
    if (nan_choice)
        report_warn(w, (uint32_t)(x - w->prog->code), ALL_LANES, "mma .f64 on two different NaNs in one step of "
                    "the fma chain: which one the H100 returns is not recorded; ptxrun returns a's, else b's, quieted");
    /* A guard undefined in some lane: whether the warp ran it at all is unknown, so all of D is. */
    bool guard_unknown = x->guard && (w->pred_defined[x->guard_pred] & ALL_LANES) != ALL_LANES;
    if (w->block->options && w->block->options->on_matrix)     /* --matrix */
        mmaview_mma(w, x, &D[0][0], &Du[0][0], guard_unknown);
    /* Scatter: every lane's D registers (rows may repeat a source: gathered above first). */
    for (unsigned i = 0; i < s.c_regs; i++) {
        Lanes out;
        uint32_t defined = 0;
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            mma_layout_c(x->mode, l, i, &rr, &cc);
            out[l] = D[rr][cc];
            defined |= (uint32_t)!Du[rr][cc] << l;
        }
        warp_commit(w, d[i], out, ALL_LANES, guard_unknown ? 0 : defined);
    }
}
