/* mmasp.c: mma.sp.sync.aligned and mma.sp::ordered_metadata.sync.aligned, the warp's matrix
 * product D = A*B + C where A (M x K) is structured sparse: its fragment holds only the kept half
 * of each row (M x K/2, in the layout of the dense form with K/2), and a metadata register e
 * (from the threads the sparsity selector names) gives each kept element's position in its
 * chunk of the row. Each execution gathers the compressed A, B, C and the metadata, and computes
 * every D element from the kept products only (the rows of B the metadata picks) with mma_dot of
 * the dense form with K/2 and the same types (mma.c). A row of D is undefined where its metadata
 * has an undefined bit or a value the PTX ISA leaves undefined (equal indices; for
 * ::ordered_metadata, indices not increasing), with a warning. Layouts and rules:
 * docs/semantics.md, "mma.sp". */
#include <string.h>

#include "tensor.h"

enum { SP_ORDERED = 1 << 0 };    /* mma.sp::ordered_metadata (XInstr.secondary) */

/* The sparse forms of PTX ISA 9.7.14.6 for sm_80-sm_90, as ptxas 13.0 takes them: A's and B's
 * element kind, K, the C/D types (C's equals D's), the threads of each group of four that give
 * metadata, the selector values ptxas takes and those the ISA defines. */
typedef struct SpShape { uint8_t kind; uint16_t k; uint16_t cd; uint8_t threads, ptxas_max, isa_max; } SpShape;
enum { SK_F16 = 1, SK_BF16, SK_TF32, SK_I8, SK_I4, SK_FP8 };
#define CD(t) (1u << (t))
static const SpShape sp_shapes[] = {
    { SK_F16, 16, CD(MT_F16) | CD(MT_F32), 1, 3, 3 }, { SK_F16, 32, CD(MT_F16) | CD(MT_F32), 2, 1, 1 },
    { SK_BF16, 16, CD(MT_F32), 1, 3, 3 }, { SK_BF16, 32, CD(MT_F32), 2, 1, 1 },
    { SK_TF32, 8, CD(MT_F32), 1, 3, 3 }, { SK_TF32, 16, CD(MT_F32), 2, 1, 1 },
    { SK_I8, 32, CD(MT_S32), 2, 1, 1 }, { SK_I8, 64, CD(MT_S32), 4, 0, 0 },
    { SK_I4, 64, CD(MT_S32), 2, 1, 1 }, { SK_I4, 128, CD(MT_S32), 4, 0, 0 },
    { SK_FP8, 64, CD(MT_F32), 4, 0, 0 },
};
#undef CD

static unsigned sp_kind(unsigned t)
{
    switch (t) {
    case MT_F16: return SK_F16;
    case MT_BF16: return SK_BF16;
    case MT_TF32: return SK_TF32;
    case MT_S8: case MT_U8: return SK_I8;
    case MT_S4: case MT_U4: return SK_I4;
    case MT_E4M3: case MT_E5M2: return SK_FP8;
    default: return 0;
    }
}

static const struct { const char *word; uint8_t type; } sp_types[] = {
    { "s32", MT_S32 }, { "s8", MT_S8 }, { "u8", MT_U8 }, { "s4", MT_S4 }, { "u4", MT_U4 }, { "f16", MT_F16 },
    { "bf16", MT_BF16 }, { "tf32", MT_TF32 }, { "e4m3", MT_E4M3 }, { "e5m2", MT_E5M2 }, { "f32", MT_F32 },
};

/* The shape of f, or NULL. */
static const SpShape *sp_shape(const MmaForm *f)
{
    for (size_t i = 0; i < sizeof sp_shapes / sizeof *sp_shapes; i++)
        if (sp_shapes[i].kind == sp_kind(f->a) && sp_shapes[i].k == f->k)
            return &sp_shapes[i];
    return NULL;
}

/* Decodes the instruction as written (its types in source order: the checker's canonical
 * mnemonic would put .s32.s32.s8.s8 in the rule's order) into f; NULL, or what is wrong. */
static const char *sp_decode(const char *s, size_t len, MmaForm *f, bool *ordered)
{
    uint8_t types[4];
    unsigned ntypes = 0, m = 0, n = 0, k = 0, layouts = 0;
    bool sat = false, row_col = true;
    memset(f, 0, sizeof *f);
    *ordered = len > 24 && !memcmp(s, "mma.sp::ordered_metadata", 24);
    for (size_t pos = *ordered ? 24 : 6; pos < len;) {
        size_t start = pos + 1, end = start;
        while (end < len && s[end] != '.')
            end++;
        pos = end;
        char word[24];
        if (end - start >= sizeof word)
            return "a suffix this form does not take";
        memcpy(word, s + start, end - start);
        word[end - start] = '\0';
        unsigned t = 0;
        for (size_t i = 0; i < sizeof sp_types / sizeof *sp_types; i++)
            if (!strcmp(word, sp_types[i].word))
                t = sp_types[i].type;
        if (t && ntypes < 4)
            types[ntypes++] = (uint8_t)t;
        else if (!strcmp(word, "satfinite"))
            sat = true;
        else if (!strcmp(word, "row") || !strcmp(word, "col"))   /* A's layout, then B's */
            row_col &= !strcmp(word, layouts++ ? "col" : "row");
        else if (word[0] == 'm' && sscanf(word, "m%un%uk%u", &m, &n, &k) != 3)
            return "a suffix this form does not take";
    }
    if (ntypes != 4 || m != 16 || n != 8)
        return "a form that lacks the shape m16n8kK or four types";
    if (layouts != 2 || !row_col)     /* ptxas: "Illegal alayout '.col' for instruction 'mma'" */
        return "a layout other than .row.col, the only one mma.sp takes";
    f->m = 16, f->n = 8, f->k = (uint16_t)k;
    f->d = types[0], f->a = types[1], f->b = types[2], f->c = types[3];
    const SpShape *sh = sp_shape(f);
    if (!sh || sp_kind(f->b) != sh->kind || !(sh->cd >> f->c & 1) || f->c != f->d)
        return "a shape and types the PTX ISA does not list together for mma.sp";
    if (sat && f->c != MT_S32)
        return ".satfinite on a form that is not integer";
    f->flags = (uint8_t)(MMA_SPARSE | (sat ? MMA_SAT : 0));
    unsigned e = 32 / mma_type_bits(f->a);
    f->a_regs = (uint8_t)(16 * k / 2 / 32 / e);
    f->b_regs = (uint8_t)(k * 8 / 32 / e);
    f->c_regs = f->d_regs = (uint8_t)(f->c == MT_F16 ? 2 : 4);
    return NULL;
}

/* Whether ptxrun runs the arithmetic of f's types: all but fp8. mma_dot has fp8 (mmafp8.c), but
 * ptxas's sm_90 code for fp8 mma.sp is not that of the dense form: two sparse f16 HMMA fed by
 * selects on %tid.x and cross-lane moves of the metadata, not decoded, and the H100 recordings
 * have no fp8 mma.sp; which kept products each HMMA sums decides the rounding, so a guess would
 * be an approximation (docs/semantics.md, "mma.sp"). */
static bool sp_runs(const MmaForm *f)
{
    return f->a != MT_E4M3 && f->a != MT_E5M2;
}

/* Lowers mma.sp: its form into Program.mma_forms[x->target] (flags MMA_SPARSE), the rows of D,
 * A (compressed), B, C, e and the selector (an immediate row) into Program.mma_rows; the
 * selector must be one ptxas takes. x->secondary: SP_ORDERED. */
void mmasp_lower(Loader *ld, const Instr *in, XInstr *x)
{
    MmaForm f;
    bool ordered;
    const char *src = ld->p->m->src->text + in->at.offset;
    const char *wrong = sp_decode(src, in->at.length, &f, &ordered);
    if (wrong) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%.*s' is not a form of mma.sp (%s)", (int)in->at.length, src, wrong);
        ld->failed = true;
        return;
    }
    if ((f.a == MT_E4M3 || f.a == MT_E5M2) && ld->p->m->target_sm && ld->p->m->target_sm < 89) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' needs .target sm_89 or higher (.e4m3 and .e5m2)", in->mnemonic);
        ld->failed = true;
        return;
    }
    if (!sp_runs(&f)) {
        char what[200];
        snprintf(what, sizeof what, "'%s' (mma.sp with .e4m3 or .e5m2 A and B)", in->mnemonic);
        operand_cannot(ld, in, what);
        return;
    }
    if (in->operand_count != 6) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' takes six operands: {d}, {a}, {b}, {c}, e, selector (%u given)",
                in->mnemonic, in->operand_count);
        ld->failed = true;
        return;
    }
    const SpShape *sh = sp_shape(&f);
    const Operand *e = &in->operands[4], *sel = &in->operands[5];
    if (e->kind != OPND_REG || type_info[ld->cur->fn->regs.data[e->u.slot].type].bits != 32) {
        diag_at(ld->diag, DIAG_ERROR, e->at, "the metadata of '%s' must be a .b32 register", in->mnemonic);
        ld->failed = true;
        return;
    }
    unsigned max = sh->ptxas_max;
    if (f.k == 32 && f.a == MT_F16 && f.c == MT_F32)
        max = 3;                              /* ptxas 13.0 takes 0-3 for m16n8k32 .f32.f16.f16.f32 only */
    if (sel->kind != OPND_INT || sel->u.bits > max) {
        diag_at(ld->diag, DIAG_ERROR, sel->at, "the sparsity selector of '%s' must be an integer constant from 0 to "
                "%u (as ptxas takes it)", in->mnemonic, max);
        ld->failed = true;
        return;
    }
    unsigned counts[4] = { f.d_regs, f.a_regs, f.b_regs, f.c_regs }, types[4] = { f.d, f.a, f.b, f.c };
    unsigned total = f.d_regs + f.a_regs + f.b_regs + f.c_regs + 2;
    Program *p = ld->p;
    p->mma_rows = xrealloc(p->mma_rows, (p->mma_row_count + total) * sizeof *p->mma_rows);
    uint32_t *rows = p->mma_rows + p->mma_row_count;
    for (unsigned k = 0, at = 0; k < 4; at += counts[k], k++)
        if (!mma_vector_rows(ld, &in->operands[k], counts[k], 32, types[k], k == 0, rows + at)) {
            diag_at(ld->diag, DIAG_ERROR, in->operands[k].at, "operand %u of '%s' must be {%u .b32 registers}%s",
                    k + 1, in->mnemonic, counts[k],
                    !k ? "" : types[k] == MT_F32 ? " (or integer or 0f immediates)" : " (or integer immediates)");
            ld->failed = true;
            return;
        }
    rows[total - 2] = ld->cur->row_base + e->u.slot;
    rows[total - 1] = operand_immediate_row(ld, sel->u.bits);
    mma_add_form(p, f, total, x);
    x->secondary = ordered ? SP_ORDERED : 0;
}

/* Element i of lane's fragment of B of the sparse form f: register r = i / e holds the 4e rows
 * from 4e * r (PTX ISA, the sparse B figures: m16n8k32 .f16, m16n8k16 .tf32, m16n8k64 8-bit and
 * m16n8k128 4-bit B in 4 registers of 8, 4, 16 and 32 rows each), lane's e of them from e * t. */
void mmasp_layout_b(const MmaForm *f, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    unsigned e = 32 / mma_type_bits(f->b);
    *row = e * (lane & 3) + i % e + 4 * e * (i / e);
    *col = lane >> 2;
}

/* Where the metadata of chunk j of row r of A is: *lane's bits from *bit (4 of them). A row has
 * one nibble a chunk (K / chunk of them), four to each 16-bit half of a register; the threads
 * (threads of them) from selector * threads in each group of four give nibbles 4t to 4t + 3 of
 * rows g (bits 0-15) and g + 8 (bits 16-31). */
void mmasp_meta_at(unsigned threads, unsigned selector, unsigned r, unsigned j, unsigned *lane, unsigned *bit)
{
    *lane = 4 * (r % 8) + selector * threads + j / 4;
    *bit = 4 * (j % 4) + 16 * (r / 8);
}

/* Where chunk j's kept elements go: the dense column of each compressed element of the chunk
 * into pos (indexed by compressed column); false for a metadata value the ISA leaves undefined.
 * 2:4 (16- and 8-bit types): bits 1:0 and 3:2 are the positions of the chunk's two kept
 * elements; 4:8 (4-bit): of its two kept pairs; 1:2 (.tf32): 0b0100 keeps the first element,
 * 0b1110 the second. Equal indices are undefined, and for ::ordered_metadata a first index
 * above the second. */
bool mmasp_place(unsigned abits, bool ordered, unsigned nibble, unsigned j, uint8_t *pos)
{
    if (abits == 32) {
        if (nibble != 0x4 && nibble != 0xe)
            return false;
        pos[j] = (uint8_t)(2 * j + (nibble == 0xe));
        return true;
    }
    unsigned lo = nibble & 3, hi = nibble >> 2, per = abits == 4 ? 2 : 1;
    if (lo == hi || (ordered && lo > hi))
        return false;
    for (unsigned q = 0; q < per; q++) {
        pos[j * 2 * per + q] = (uint8_t)(j * 4 * per + lo * per + q);
        pos[j * 2 * per + per + q] = (uint8_t)(j * 4 * per + hi * per + q);
    }
    return true;
}

enum { SP_M = 16, SP_N = 8, SP_K = 128 };

void mmasp_layout(const MmaForm *f, char which, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    MmaForm half = *f;                       /* the compressed A: the dense form with K/2 */
    half.k = (uint16_t)(f->k / 2);
    if (which == 'b')
        mmasp_layout_b(f, lane, i, row, col);
    else
        mma_layout(which == 'a' ? &half : f, which, lane, i, row, col);
}

void mmasp_view(const Warp *w, const XInstr *x, MatrixView *v)
{
    const MmaForm *f = &w->prog->mma_forms[x->target];
    const SpShape *sh = sp_shape(f);
    const uint32_t *rows = w->prog->mma_rows + f->rows;
    const uint32_t *sel = rows + f->d_regs + f->a_regs + f->b_regs + f->c_regs + 1;
    unsigned abits = mma_type_bits(f->a);
    v->sparse = true;
    v->ordered = x->secondary & SP_ORDERED;
    v->chunk = (uint8_t)(abits == 32 ? 2 : abits == 4 ? 8 : 4);
    v->kept = (uint8_t)(v->chunk / 2);
    v->selector = (uint8_t)w->val[*sel][0];
    v->threads = sh->threads;
    v->selector_undefined = v->selector > sh->isa_max;
    v->meta_row = sel[-1];
    v->meta_reg = mmaview_row_name(w->prog, x, v->meta_row);
    v->packed = v->op[MATRIX_A];
    MatrixOperand *a = &v->op[MATRIX_A];
    a->cols = f->k;
    a->at = xcalloc((size_t)a->rows * a->cols, sizeof *a->at);
    unsigned chunks = f->k / v->chunk;
    v->meta = xcalloc((size_t)f->m * chunks, sizeof *v->meta);
    for (unsigned r = 0; r < f->m; r++)
        for (unsigned j = 0; j < chunks; j++) {
            MatrixMeta *e = &v->meta[r * chunks + j];
            unsigned lane, bit;
            uint8_t pos[SP_K / 2];
            mmasp_meta_at(sh->threads, v->selector, r, j, &lane, &bit);
            e->lane = MATRIX_NO_LANE, e->bit = (uint8_t)bit;
            if (!v->selector_undefined) {     /* else not read (the rule would name lanes past 31) */
                e->lane = (uint8_t)lane;
                e->nibble = (uint8_t)(w->val[v->meta_row][lane] >> bit & 0xf);
                e->defined = (uint8_t)(warp_dbits(w, v->meta_row, (int)lane) >> bit & 0xf);
            }
            e->valid = e->defined == 0xf && mmasp_place(abits, v->ordered, e->nibble, j, pos);
            for (unsigned q = 0; q < v->chunk; q++)
                a->at[r * a->cols + j * v->chunk + q].absent = e->valid ? MATRIX_NOT_KEPT : MATRIX_UNPLACED;
            for (unsigned q = 0; e->valid && q < v->kept; q++) {
                e->cols[q] = pos[j * v->kept + q];
                a->at[r * a->cols + e->cols[q]] = v->packed.at[r * v->packed.cols + j * v->kept + q];
            }
        }
}

/* The warp's mma.sp: every lane of the warp takes part (.aligned), or none (a guard false in
 * all of them); otherwise a fault. */
void mmasp_execute(Warp *w, const XInstr *x, uint32_t lanes, uint32_t guard_true)
{
    uint32_t pc = (uint32_t)(x - w->prog->code);
    if (!guard_true)
        return;
    if (w->launched != ALL_LANES || lanes != ALL_LANES || guard_true != ALL_LANES ||
        (w->launched & ~w->exited) != ALL_LANES) {
        report_fault(w, pc, "'%s' executed by lanes 0x%08x of the warp (guard true in 0x%08x): mma.sp.sync.aligned "
                     "needs all 32 lanes of a whole warp to execute it together", x->ir->mnemonic, lanes, guard_true);
        return;
    }
    const MmaForm *f = &w->prog->mma_forms[x->target];
    const SpShape *sh = sp_shape(f);
    const uint32_t *rows = w->prog->mma_rows + f->rows;
    const uint32_t *d = rows, *a = d + f->d_regs, *b = a + f->a_regs, *c = b + f->b_regs;
    uint32_t e_row = c[f->c_regs];
    unsigned selector = (unsigned)w->val[c[f->c_regs + 1]][0];
    unsigned abits = mma_type_bits(f->a), cbits = mma_type_bits(f->c);
    MatrixView *view = mmaview_begin(w, x, &(MatrixSource){ f, rows, mmasp_layout, 1 });   /* --matrix */
    if (view)
        mmasp_view(w, x, view);
    MmaForm half = *f;                       /* the compressed A: the dense form with K/2 */
    half.k = (uint16_t)(f->k / 2);
    half.flags &= (uint8_t)~MMA_SPARSE;
    uint64_t Ac[SP_M][SP_K / 2], Bt[SP_N][SP_K], C[SP_M][SP_N];
    bool Au[SP_M] = { false }, Bu[SP_N][SP_K], Cu[SP_M][SP_N];
    unsigned rr, cc;
    bool u;
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        for (unsigned i = 0; i < f->m * f->k / 2 / 32; i++) {
            mma_layout(&half, 'a', l, i, &rr, &cc);
            Ac[rr][cc] = mma_element(w, a, l, i, abits, &u);
            Au[rr] |= u;
        }
        for (unsigned i = 0; i < f->k * f->n / 32; i++) {
            mmasp_layout_b(f, l, i, &rr, &cc);
            Bt[cc][rr] = mma_element(w, b, l, i, abits, &Bu[cc][rr]);
        }
        for (unsigned i = 0; i < f->m * f->n / 32; i++) {
            mma_layout(f, 'c', l, i, &rr, &cc);
            C[rr][cc] = mma_element(w, c, l, i, cbits, &Cu[rr][cc]);
        }
    }
    /* Where each kept element of A sits (pos); a row whose metadata has an undefined bit or a
     * value the ISA leaves undefined gives an undefined row of D. The selector values ptxas takes
     * beyond the ISA's (m16n8k32 .f32.f16: 2, 3) leave all of D undefined. */
    unsigned chunk = abits == 32 ? 2 : abits == 4 ? 8 : 4, nibbles = f->k / chunk;
    bool bad_meta = false, bad_selector = selector > sh->isa_max;
    uint8_t pos[SP_M][SP_K / 2];
    memset(pos, 0, sizeof pos);
    for (unsigned r = 0; r < f->m; r++)
        for (unsigned j = 0; j < nibbles && !bad_selector; j++) {
            unsigned lane, bit;
            mmasp_meta_at(sh->threads, selector, r, j, &lane, &bit);
            unsigned nibble = (unsigned)(w->val[e_row][lane] >> bit & 0xf);
            if ((warp_dbits(w, e_row, (int)lane) >> bit & 0xf) != 0xf)
                Au[r] = true;
            else if (!mmasp_place(abits, x->secondary & SP_ORDERED, nibble, j, pos[r]))
                Au[r] = bad_meta = true;
        }
    if (bad_meta)
        report_warn(w, pc, ALL_LANES, x->secondary & SP_ORDERED ?
                    "mma.sp::ordered_metadata with metadata the PTX ISA leaves undefined (two equal indices, or a first "
                    "index not below the second): the rows of D it describes are undefined" :
                    "mma.sp with metadata the PTX ISA leaves undefined (two equal indices, or for .tf32 other than "
                    "0b0100 and 0b1110): the rows of D it describes are undefined");
    if (bad_selector)
        report_warn(w, pc, ALL_LANES, "mma.sp m16n8k32 with a sparsity selector other than 0 or 1, which the PTX "
                    "ISA leaves undefined (ptxas takes it): all of D is undefined");
    /* Each D element from the kept products only, the rows of B the metadata picks (the others
     * never reach the product: their values, NaN or undefined, change nothing), by mma_dot of
     * the dense form with K/2: its arithmetic over K/2 products and C. */
    uint64_t D[SP_M][SP_N], picked[SP_K / 2];
    bool Du[SP_M][SP_N], nan_choice = false;
    for (unsigned i = 0; i < f->m; i++)
        for (unsigned j = 0; j < f->n; j++) {
            Du[i][j] = bad_selector || Au[i] || Cu[i][j];
            for (unsigned q = 0; q < half.k; q++) {
                picked[q] = Bt[j][pos[i][q]];
                Du[i][j] |= Bu[j][pos[i][q]];
            }
            D[i][j] = mma_dot(&half, Ac[i], picked, C[i][j], &nan_choice);
        }
    mma_scatter(w, x, f, d, &D[0][0], &Du[0][0], SP_N);
    mmaview_end(view);
}
