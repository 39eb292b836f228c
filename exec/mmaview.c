/* mmaview.c: one execution of a matrix instruction as a MatrixView (block.h), for --matrix
 * (ExecOptions.on_matrix) and the fragments --trace shows lane by lane. Generic over the form
 * (an MmaForm: shape, element types, registers of each operand) and its fragment layout (the
 * caller's: mma.c passes mma_layout, wmma.mma its own): element i of a lane's fragment is
 * in register i / e, e elements to a register from the low bits (four s8, two f16, one f32).
 * A, B and C are read from the registers before the instruction writes D (mmaview_begin), D
 * from them after (mmaview_end): what the registers held and were given, definedness included.
 * mma.sp's A is laid out as its lanes hold it (m x k/2); mmasp_view makes it dense.
 * Nothing here runs unless a view is asked for. */
#include <stdlib.h>
#include <string.h>

#include "tensor.h"

static int ptx_type(unsigned t)
{
    switch (t) {
    case MT_S8: return TYPE_S8;
    case MT_U8: return TYPE_U8;
    case MT_S4: return TYPE_S4;
    case MT_U4: return TYPE_U4;
    case MT_B1: return TYPE_B1;
    case MT_F16: return TYPE_F16;
    case MT_BF16: return TYPE_BF16;
    case MT_TF32: return TYPE_TF32;
    case MT_E4M3: return TYPE_E4M3;
    case MT_E5M2: return TYPE_E5M2;
    case MT_F32: return TYPE_F32;
    case MT_F64: return TYPE_F64;
    default: return TYPE_S32;
    }
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
static const uint32_t *operand_rows(const MatrixSource *s, unsigned which)
{
    const MmaForm *f = s->form;
    const uint32_t *d = s->rows, *a = d + f->d_regs, *b = a + f->a_regs, *c = b + f->b_regs;
    return which == MATRIX_A ? a : which == MATRIX_B ? b : which == MATRIX_C ? c : d;
}

void mmaview_free(MatrixView *v)
{
    for (unsigned o = 0; o < MATRIX_OPERANDS; o++)
        free(v->op[o].at);
    free(v->packed.at);
    free(v->meta);
}

void mmaview_lay_out(const Warp *w, const XInstr *x, const MatrixSource *s, MatrixView *v)
{
    const Program *p = w->prog;
    const MmaForm *f = s->form;
    memset(v, 0, sizeof *v);
    v->warp = w;
    v->pc = (uint32_t)(x - p->code);
    v->m = f->m, v->n = f->n, v->k = f->k;
    unsigned products = s->products ? s->products : 1;
    v->products = (uint8_t)products;
    const uint8_t types[MATRIX_OPERANDS] = { f->a, f->b, f->c, f->d };
    const uint8_t regs[MATRIX_OPERANDS] = { f->a_regs, f->b_regs, f->c_regs, f->d_regs };
    static const char which[MATRIX_OPERANDS] = { 'a', 'b', 'c', 'd' };
    for (unsigned o = 0; o < MATRIX_OPERANDS; o++) {
        MatrixOperand *op = &v->op[o];
        op->type = ptx_type(types[o]);
        unsigned bits = type_info[op->type].bits;
        op->rows = (uint16_t)(o == MATRIX_B ? f->k : products * f->m);
        unsigned a_cols = f->flags & MMA_SPARSE ? f->k / 2u : f->k;   /* mma.sp: A as the lanes hold it */
        op->cols = (uint16_t)(o == MATRIX_A ? a_cols : o == MATRIX_B ? products * f->n : f->n);
        op->per_reg = (uint8_t)(bits >= 32 ? 1 : 32 / bits);
        op->reg_count = regs[o] < MATRIX_MAX_REGS ? regs[o] : MATRIX_MAX_REGS;
        const uint32_t *rows = operand_rows(s, o);
        for (unsigned r = 0; r < op->reg_count; r++) {
            op->regs[r] = mmaview_row_name(p, x, rows[r]);
            op->reg_rows[r] = rows[r];
        }
        size_t cells = (size_t)op->rows * op->cols;
        op->at = xcalloc(cells ? cells : 1, sizeof *op->at);
        unsigned elements = (unsigned)(cells / WARP_SIZE);
        for (unsigned l = 0; l < WARP_SIZE; l++)
            for (unsigned i = 0; i < elements && i / op->per_reg < op->reg_count; i++) {
                unsigned row, col;
                s->place(f, which[o], l, i, &row, &col);
                if (row >= op->rows || col >= op->cols)
                    continue;
                MatrixElement *e = &op->at[row * op->cols + col];
                e->lane = (uint8_t)l;
                e->reg = (uint8_t)(i / op->per_reg);
                e->part = (uint8_t)(i % op->per_reg);
            }
    }
}

/* Operand o's values from its registers, as they are now. */
static void read_operand(const Warp *w, MatrixOperand *op)
{
    unsigned width = type_info[op->type].bits;
    uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;
    for (size_t e = 0; e < (size_t)op->rows * op->cols; e++) {
        MatrixElement *at = &op->at[e];
        uint32_t row = op->reg_rows[at->reg];
        unsigned shift = at->part * width;
        at->bits = w->val[row][at->lane] >> shift & mask;
        at->dbits = warp_dbits(w, row, at->lane) >> shift & mask;
    }
}

MatrixView *mmaview_begin(const Warp *w, const XInstr *x, const MatrixSource *s)
{
    const ExecOptions *o = w->block->options;
    if (!o || !o->on_matrix || (o->matrix_wanted && !o->matrix_wanted(o->matrix_context, (uint32_t)(x - w->prog->code))))
        return NULL;
    MatrixView *v = xmalloc(sizeof *v);
    mmaview_lay_out(w, x, s, v);
    for (unsigned k = MATRIX_A; k <= MATRIX_C; k++)
        read_operand(w, &v->op[k]);
    return v;
}

void mmaview_end(MatrixView *v)
{
    if (!v)
        return;
    read_operand(v->warp, &v->op[MATRIX_D]);
    const ExecOptions *o = v->warp->block->options;
    o->on_matrix(o->matrix_context, v);
    mmaview_free(v);
    free(v);
}
