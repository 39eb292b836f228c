/* mmaview.c: one execution of a matrix instruction as a MatrixView (exec.h), for --matrix
 * (ExecOptions.on_matrix) and the fragments --trace shows lane by lane. Generic over the form:
 * its shape, element types and registers, and where the fragment layout puts element i of a
 * lane's fragment of A, B or C/D. Elements are packed into registers low bits first, as many as
 * the register holds (four s8 to a .b32, two f16, one f32 or f64). Nothing here runs unless a
 * view is asked for. */
#include <stdlib.h>
#include <string.h>

#include "exec.h"

/* What a view needs of an mma form. */
typedef struct ViewForm {
    unsigned m, n, k;
    int type[MATRIX_OPERANDS];           /* TYPE_* of A, B, C, D */
    unsigned regs[MATRIX_OPERANDS];      /* registers in each vector operand */
    unsigned shape;                      /* for the layout */
    const uint32_t *rows;                /* D, A, B, C rows in Program.mma_rows */
} ViewForm;

static ViewForm form_of(const Program *p, const XInstr *x)
{
    ViewForm f = { 0 };
    f.shape = x->mode;
    switch (x->mode) {
    case MMA_M8N8K4: f.m = 8, f.n = 8, f.k = 4; break;
    case MMA_M8N8K16: f.m = 8, f.n = 8, f.k = 16; break;
    case MMA_M16N8K16: f.m = 16, f.n = 8, f.k = 16; break;
    default: f.m = 16, f.n = 8, f.k = 32; break;
    }
    bool f64 = x->secondary & 1;         /* mma.c's MMA_F64 */
    f.type[MATRIX_A] = f64 ? TYPE_F64 : x->secondary & 4 ? TYPE_S8 : TYPE_U8;
    f.type[MATRIX_B] = f64 ? TYPE_F64 : x->secondary & 8 ? TYPE_S8 : TYPE_U8;
    f.type[MATRIX_C] = f.type[MATRIX_D] = f64 ? TYPE_F64 : TYPE_S32;
    f.regs[MATRIX_A] = f.m * f.k / 32 / (f64 ? 1 : 4);
    f.regs[MATRIX_B] = f.k * f.n / 32 / (f64 ? 1 : 4);
    f.regs[MATRIX_C] = f.regs[MATRIX_D] = f.m * f.n / 32;
    f.rows = p->mma_rows + x->target;
    return f;
}

/* Element i of lane's fragment of operand which: its row and column. */
static void place(const ViewForm *f, unsigned which, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    if (which == MATRIX_A)
        mma_layout_a(f->shape, lane, i, row, col);
    else if (which == MATRIX_B)
        mma_layout_b(f->shape, lane, i, row, col);
    else
        mma_layout_c(f->shape, lane, i, row, col);
}

bool mmaview_has(const XInstr *x)
{
    return x->op == OP_MMA;
}

/* The name of the register in row, or NULL (an immediate). */
const char *mmaview_row_name(const Program *p, const XInstr *x, uint32_t row)
{
    for (uint32_t k = 0; k < p->func_count; k++) {
        const FuncLayout *f = &p->funcs[k];
        if (f->fn == x->owner && row >= f->row_base && row - f->row_base < f->fn->regs.len)
            return f->fn->regs.data[row - f->row_base].name;
    }
    return NULL;
}

/* The registers' rows of operand which (D, A, B, C in Program.mma_rows). */
static const uint32_t *operand_rows(const ViewForm *f, unsigned which)
{
    const uint32_t *d = f->rows, *a = d + f->regs[MATRIX_D], *b = a + f->regs[MATRIX_A], *c = b + f->regs[MATRIX_B];
    return which == MATRIX_A ? a : which == MATRIX_B ? b : which == MATRIX_C ? c : d;
}

void mmaview_free(MatrixView *v)
{
    for (unsigned o = 0; o < MATRIX_OPERANDS; o++)
        free(v->op[o].at);
}

/* x's view with every element's place (lane, register, part), no values: false when x gives
 * none. mmaview_free frees it. */
bool mmaview_layout(const Warp *w, const XInstr *x, MatrixView *v)
{
    memset(v, 0, sizeof *v);
    if (!mmaview_has(x))
        return false;
    const Program *p = w->prog;
    ViewForm f = form_of(p, x);
    v->warp = w;
    v->pc = (uint32_t)(x - p->code);
    v->m = (uint16_t)f.m, v->n = (uint16_t)f.n, v->k = (uint16_t)f.k;
    for (unsigned o = 0; o < MATRIX_OPERANDS; o++) {
        MatrixOperand *op = &v->op[o];
        op->type = f.type[o];
        op->rows = (uint16_t)(o == MATRIX_B ? f.k : f.m);
        op->cols = (uint16_t)(o == MATRIX_A ? f.k : f.n);
        op->reg_count = (uint8_t)(f.regs[o] < MATRIX_MAX_REGS ? f.regs[o] : MATRIX_MAX_REGS);
        unsigned elements = (unsigned)op->rows * op->cols / WARP_SIZE;
        op->per_reg = (uint8_t)(elements / (f.regs[o] ? f.regs[o] : 1));
        const uint32_t *rows = operand_rows(&f, o);
        for (unsigned r = 0; r < op->reg_count; r++) {
            op->regs[r] = mmaview_row_name(p, x, rows[r]);
            op->reg_rows[r] = rows[r];
        }
        op->at = xmalloc((size_t)op->rows * op->cols * sizeof *op->at);
        memset(op->at, 0, (size_t)op->rows * op->cols * sizeof *op->at);
        for (unsigned l = 0; l < WARP_SIZE; l++)
            for (unsigned i = 0; i < elements; i++) {
                unsigned row, col;
                place(&f, o, l, i, &row, &col);
                MatrixElement *e = &op->at[row * op->cols + col];
                e->lane = (uint8_t)l;
                e->reg = (uint8_t)(i / op->per_reg);
                e->part = (uint8_t)(i % op->per_reg);
            }
    }
    return true;
}

/* Fills operand o's values from the registers (before the instruction wrote any). */
static void read_operand(const Warp *w, const ViewForm *f, MatrixOperand *op, unsigned o)
{
    const uint32_t *rows = operand_rows(f, o);
    unsigned width = type_info[op->type].bits;
    uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
    for (unsigned e = 0; e < (unsigned)op->rows * op->cols; e++) {
        MatrixElement *at = &op->at[e];
        uint32_t row = rows[at->reg];
        unsigned shift = at->part * width;
        at->bits = w->val[row][at->lane] >> shift & mask;
        at->dbits = warp_dbits(w, row, at->lane) >> shift & mask;
    }
}

void mmaview_mma(const Warp *w, const XInstr *x, const uint64_t *d, const bool *undefined, bool all_undefined)
{
    const ExecOptions *o = w->block->options;
    MatrixView v;
    if (!o || !o->on_matrix || !mmaview_layout(w, x, &v))
        return;
    ViewForm f = form_of(w->prog, x);
    for (unsigned k = MATRIX_A; k <= MATRIX_C; k++)
        read_operand(w, &f, &v.op[k], k);
    MatrixOperand *dop = &v.op[MATRIX_D];
    unsigned width = type_info[dop->type].bits;
    uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
    for (unsigned e = 0; e < (unsigned)dop->rows * dop->cols; e++) {
        dop->at[e].bits = d[e] & mask;
        dop->at[e].dbits = undefined[e] || all_undefined ? 0 : mask;
    }
    o->on_matrix(o->matrix_context, &v);
    mmaview_free(&v);
}
