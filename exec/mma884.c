/* mma884.c: mma.sync.aligned.m8n8k4 with .f16 A and B (the Volta forms): A .row or .col, B .row
 * or .col, D.C .f16.f16, .f32.f16 or .f32.f32. The warp computes four independent 8x8x4 products,
 * one per quad-pair (lanes 0-3 with 16-19, 4-7 with 20-23, 8-11 with 24-27, 12-15 with 28-31), each
 * lane holding its elements as the PTX ISA's figures give them ("Matrix Fragments for mma.m8n8k4
 * with .f16 floating point type"). The arithmetic is the code ptxas 13.0 makes of these forms for
 * sm_90, which has no m8n8k4 f16 tensor-core instruction: no HMMA, the f16 operands widened to f32
 * and combined by f32 fma and add in a fixed order (docs/semantics.md, "mma"). */
#include <math.h>
#include <string.h>

#include "family.h"
#include "tensor.h"

bool mma884_form(const MmaForm *f)
{
    return f->m == 8 && f->k == 4 && f->a == MT_F16;
}

/* Element i of lane's fragment of 'a', 'b', 'c' or 'd': the ISA's formulas within its
 * quad-pair's product, hi = 4 for lanes 16-31 (the pair's high group), then the pair's matrices
 * stacked: pair p = (lane >> 2) & 3 at A's rows, B's columns, C's rows 8p..8p+7. */
void mma884_layout(const MmaForm *f, char which, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    unsigned hi = lane >= 16 ? 4 : 0, q = lane % 4, pair = 8 * (lane >> 2 & 3);
    bool a_col = f->flags & MMA_A_COL, b_row = f->flags & MMA_B_ROW;
    if (which == 'a') {
        *row = pair + (a_col ? i % 4 + hi : q + hi);   /* row major: a0..a3 along the lane's row */
        *col = a_col ? q : i;
    } else if (which == 'b') {
        *row = b_row ? q : i;                          /* column major: b0..b3 down the lane's column */
        *col = pair + (b_row ? i + hi : q + hi);
    } else if ((which == 'c' ? f->c : f->d) == MT_F32) {   /* 'c' or 'd': eight .f32 registers */
        *row = pair + (lane & 1) + (i & 2) + hi;
        *col = (i & 4) + (lane & 2) + (i & 1);
    } else {                                           /* four .f16x2 registers: the lane's row */
        *row = pair + q + hi;
        *col = i;
    }
}

static float f32_of(uint64_t bits)
{
    uint32_t u = (uint32_t)bits;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static float f16_of(uint64_t bits)
{
    return (float)convert_small_to_double(bits & 0xffff, TYPE_F16);   /* exact, inf and NaN kept */
}

/* One element of D from a (a row of A) and b (a column of B), four f16 each, and c (C's f16 or f32
 * bits), as the sm_90 code does it: every f16 widened exactly to f32, every step one f32 fma or
 * add rounded to nearest even, subnormals kept (no .ftz). .f32 D: s = fma(a0,b0,+0), then
 * s = fma(ak,bk,s) for k = 1..3, D = C + s (the chain starts from +0: all -0 products and C = -0
 * give +0). .f16 D: p = fma(a1,b1, a0*b0), q = fma(a3,b3, a2*b2), D = (C + p) + q rounded once to
 * f16. A NaN result is the canonical NaN (0x7fffffff, 0x7fff) whatever the inputs' NaNs. */
uint64_t mma884_dot(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c)
{
    float x[4], y[4], cf = f->c == MT_F32 ? f32_of(c) : f16_of(c);
    for (unsigned k = 0; k < 4; k++) {
        x[k] = f16_of(a[k]);
        y[k] = f16_of(b[k]);
    }
    if (f->d == MT_F32) {
        float s = fmaf(x[0], y[0], 0.0f);
        for (unsigned k = 1; k < 4; k++)
            s = fmaf(x[k], y[k], s);
        float d = cf + s;
        uint32_t u;
        memcpy(&u, &d, sizeof u);
        return isnan(d) ? 0x7fffffffu : u;
    }
    float p = fmaf(x[1], y[1], x[0] * y[0]);
    float q = fmaf(x[3], y[3], x[2] * y[2]);
    float d = (cf + p) + q;
    return convert_double_to_small(d, TYPE_F16);      /* to nearest even; NaN 0x7fff */
}
