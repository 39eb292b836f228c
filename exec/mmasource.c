/* mmasource.c: which instructions give a MatrixView (--matrix, --trace's fragments) and where
 * their matrices come from: an mma's MmaForm (Program.mma_forms), its D, A, B, C rows and
 * mma_layout (m8n8k4 .f16: four products, mma884.c; mma.sp: mmasp_layout, then mmasp_view);
 * wmma.mma's form (wmma.c) and wmma_place. */
#include "tensor.h"

static bool source_of(const Program *p, const XInstr *x, MatrixSource *s)
{
    if (x->op == OP_WMMA_MMA && x->target < p->mma_form_count) {
        s->form = &p->mma_forms[x->target];
        s->rows = p->mma_rows + s->form->rows;
        s->place = wmma_place;
        s->products = 1;
        return true;
    }
    if ((x->op != OP_MMA && x->op != OP_MMA_SP && x->op != OP_MMA_SP_ORDERED) || x->target >= p->mma_form_count)
        return false;
    s->form = &p->mma_forms[x->target];
    s->rows = p->mma_rows + s->form->rows;
    s->place = s->form->flags & MMA_SPARSE ? mmasp_layout : mma_layout;
    s->products = mma884_form(s->form) ? 4 : 1;
    return true;
}

bool mmasource_has(const Program *p, const XInstr *x)
{
    MatrixSource s;
    return source_of(p, x, &s);
}

bool mmasource_layout(const Warp *w, const XInstr *x, MatrixView *v)
{
    MatrixSource s;
    if (!source_of(w->prog, x, &s))
        return false;
    mmaview_lay_out(w, x, &s, v);
    if (s.form->flags & MMA_SPARSE)
        mmasp_view(w, x, v);                  /* A: the compressed fragment and the metadata */
    return true;
}
