/* tracefrag.c: what --trace shows of a matrix instruction beyond the values it wrote: each
 * lane's fragment, which elements of which matrix each of its registers held or received.
 * mma (and every form mmaview.c knows): A's, B's, C's elements each lane supplied and D's it
 * received, one [row][column] group per register, in the vector's order (a run of columns or
 * rows as [0][4..7]); mma.sp: A's as the lanes hold it (m x k/2) and the [row][chunk] of each
 * metadata nibble the lane gives. ldmatrix, stmatrix: the row whose address the lane gives, and the
 * elements of matrices M0..M3 in its registers; movmatrix: the elements of M it gives and those
 * of M it gets (of the transpose's place). Text, or members of the step's JSON object. */
#include <stdlib.h>
#include <string.h>

#include "tensor.h"

typedef struct Place {
    uint16_t row, col;
    uint8_t matrix;            /* ldmatrix, stmatrix: M0..M3 */
} Place;
enum { NO_PLACE = 0xffff };

/* One register's elements (n of them, in order) as text: "[0][4..7]", "[0..1][3]", "[0][1],[2][3]",
 * each after prefix (and its matrix's number: numbered); json: [[row, column], ...]. */
static void group_text(FILE *out, const Place *p, unsigned n, bool json, const char *prefix, bool numbered)
{
    if (n && p[0].row == NO_PLACE) {           /* a repeat of elements another register holds */
        fputs(json ? "null" : "=", out);
        return;
    }
    if (json) {
        fputc('[', out);
        for (unsigned i = 0; i < n; i++)
            fprintf(out, "%s[%u, %u]", i ? ", " : "", p[i].row, p[i].col);
        fputc(']', out);
        return;
    }
    for (unsigned i = 0; i < n;) {
        unsigned j = i;
        while (j + 1 < n && p[j + 1].matrix == p[i].matrix && p[j + 1].row == p[i].row && p[j + 1].col == p[j].col + 1)
            j++;
        bool by_col = j > i;
        if (!by_col)
            while (j + 1 < n && p[j + 1].matrix == p[i].matrix && p[j + 1].col == p[i].col &&
                   p[j + 1].row == p[j].row + 1)
                j++;
        fprintf(out, "%s%s", i ? "," : "", prefix ? prefix : "");
        if (numbered)
            fprintf(out, "%u", p[i].matrix);
        if (j == i)
            fprintf(out, "[%u][%u]", p[i].row, p[i].col);
        else if (by_col)
            fprintf(out, "[%u][%u..%u]", p[i].row, p[i].col, p[j].col);
        else
            fprintf(out, "[%u..%u][%u]", p[i].row, p[j].row, p[i].col);
        i = j + 1;
    }
}

static void names_text(FILE *out, const char *const *names, unsigned n)
{
    fputc('{', out);
    for (unsigned r = 0; r < n; r++)
        fprintf(out, "%s%s", r ? ", " : "", names[r] ? names[r] : "(immediate)");
    fputc('}', out);
}

/* For operand op of a view: places[lane][reg][part]. */
static Place *by_lane(const MatrixOperand *op)
{
    unsigned per_lane = (unsigned)op->reg_count * op->per_reg;
    Place *p = xcalloc((size_t)WARP_SIZE * (per_lane ? per_lane : 1), sizeof *p);
    for (size_t i = 0; i < (size_t)WARP_SIZE * per_lane; i++)
        p[i].row = NO_PLACE;                   /* a register holding elements placed elsewhere (wmma's repeats) */
    for (unsigned r = 0; r < op->rows; r++)
        for (unsigned c = 0; c < op->cols; c++) {
            const MatrixElement *e = &op->at[r * op->cols + c];
            if (e->reg < op->reg_count)
                p[e->lane * per_lane + e->reg * op->per_reg + e->part] = (Place){ (uint16_t)r, (uint16_t)c, 0 };
        }
    return p;
}

/* mma.sp: the nibbles of the metadata lane l gives, [row][chunk] in the order of its bits
 * (text: "-" for none; json: [[row, chunk], ...]). */
static void sparse_lane(FILE *out, const MatrixView *v, unsigned l)
{
    unsigned chunks = v->k / v->chunk, n = 0;
    Place p[8];
    for (unsigned bit = 0; bit < 32; bit += 4)
        for (unsigned e = 0; e < (unsigned)v->m * chunks; e++)
            if (v->meta[e].lane == l && v->meta[e].bit == bit)
                p[n++] = (Place){ (uint16_t)(e / chunks), (uint16_t)(e % chunks), 0 };
    if (!n)
        fputs(" -\n", out);
    else {
        fputc(' ', out);
        group_text(out, p, n, false, NULL, false);
        fputc('\n', out);
    }
}

static void sparse_json(FILE *out, const MatrixView *v)
{
    unsigned chunks = v->k / v->chunk;
    fputs(", \"e\": [", out);
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        fprintf(out, "%s[", l ? ", " : "");
        unsigned n = 0;
        for (unsigned bit = 0; bit < 32; bit += 4)
            for (unsigned e = 0; e < (unsigned)v->m * chunks; e++)
                if (v->meta[e].lane == l && v->meta[e].bit == bit)
                    fprintf(out, "%s[%u, %u]", n++ ? ", " : "", e / chunks, e % chunks);
        fputc(']', out);
    }
    fputc(']', out);
}

static void mma_fragments(FILE *out, const Warp *w, const XInstr *x, bool json)
{
    MatrixView v;
    if (!mmasource_layout(w, x, &v))
        return;
    static const char *const names[MATRIX_OPERANDS] = { "A", "B", "C", "D" };
    Place *p[MATRIX_OPERANDS];
    MatrixElement *dense = v.op[MATRIX_A].at;
    if (v.sparse)
        v.op[MATRIX_A] = v.packed;            /* mma.sp: A as the lanes hold it */
    for (unsigned o = 0; o < MATRIX_OPERANDS; o++)
        p[o] = by_lane(&v.op[o]);
    const MatrixOperand *c = &v.op[MATRIX_C], *d = &v.op[MATRIX_D];
    unsigned c_lane = (unsigned)c->reg_count * c->per_reg;
    bool same = c->reg_count == d->reg_count && c->per_reg == d->per_reg &&
                !memcmp(p[MATRIX_C], p[MATRIX_D], WARP_SIZE * c_lane * sizeof *p[0]);
    if (json) {
        fputs(", \"fragments\": {", out);
        for (unsigned o = 0; o < MATRIX_OPERANDS; o++) {
            const MatrixOperand *op = &v.op[o];
            unsigned per_lane = (unsigned)op->reg_count * op->per_reg;
            fprintf(out, "%s\"%s\": [", o ? ", " : "", names[o]);
            for (unsigned l = 0; l < WARP_SIZE; l++) {
                fprintf(out, "%s[", l ? ", " : "");
                for (unsigned r = 0; r < op->reg_count; r++) {
                    fprintf(out, "%s", r ? ", " : "");
                    group_text(out, p[o] + l * per_lane + r * op->per_reg, op->per_reg, true, NULL, false);
                }
                fputc(']', out);
            }
            fputc(']', out);
        }
        if (v.sparse)
            sparse_json(out, &v);
        fputc('}', out);
    } else {
        fputs("    fragments: lane: A ", out);
        for (unsigned o = 0; o < MATRIX_OPERANDS; o++) {
            if (o == MATRIX_D && same)
                break;
            if (o)
                fprintf(out, " | %s%s ", names[o], o == MATRIX_C && same ? ", D" : "");
            names_text(out, v.op[o].regs, v.op[o].reg_count);
            if (o == MATRIX_C && same) {
                fputs(" -> ", out);
                names_text(out, d->regs, d->reg_count);
            }
        }
        if (v.sparse)
            fprintf(out, " | e %s", v.meta_reg ? v.meta_reg : "(immediate)");
        fputs(" ([row][column] in each register", out);
        if (v.sparse)
            fprintf(out, "; A: of its %ux%u kept elements, which the metadata e places in the %ux%u A; e: the "
                    "[row][chunk] of each 4-bit nibble it gives, from bit 0 up (selector %u)",
                    v.op[MATRIX_A].rows, v.op[MATRIX_A].cols, v.m, v.k, v.selector);
        if (v.products > 1)
            fprintf(out, "; %u products stacked, quad-pair p's at rows 8p.. of A, C, D and columns 8p.. of B",
                    v.products);
        fputs(")\n", out);
        char *cell[WARP_SIZE][MATRIX_OPERANDS] = { { NULL } };   /* each lane's groups, aligned in columns */
        int width[MATRIX_OPERANDS] = { 0 };
        unsigned shown = same ? MATRIX_D : MATRIX_OPERANDS;
        for (unsigned l = 0; l < WARP_SIZE; l++)
            for (unsigned o = 0; o < shown; o++) {
                const MatrixOperand *op = &v.op[o];
                unsigned per_lane = (unsigned)op->reg_count * op->per_reg;
                size_t len = 0;
                FILE *f = open_memstream(&cell[l][o], &len);
                for (unsigned r = 0; r < op->reg_count; r++) {
                    if (r)
                        fputc(' ', f);
                    group_text(f, p[o] + l * per_lane + r * op->per_reg, op->per_reg, false, NULL, false);
                }
                fclose(f);
                width[o] = (int)len > width[o] ? (int)len : width[o];
            }
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            fprintf(out, "    %5u ", l);
            for (unsigned o = 0; o < shown; o++) {
                if (o + 1 < shown || v.sparse)
                    fprintf(out, " %-*s |", width[o], cell[l][o]);
                else
                    fprintf(out, " %s\n", cell[l][o]);
                free(cell[l][o]);
            }
            if (v.sparse)
                sparse_lane(out, &v, l);
        }
    }
    for (unsigned o = 0; o < MATRIX_OPERANDS; o++)
        free(p[o]);
    v.op[MATRIX_A].at = dense;
    mmaview_free(&v);
}

/* ldmatrix, stmatrix, movmatrix (.m8n8 .b16): lane l's register j holds row l>>2, columns
 * 2(l&3) and 2(l&3)+1 of matrix j (.trans: of its transpose), as matrix.c places them; lane l
 * gives the address of row l&7 of matrix l>>3 (ldmatrix, stmatrix). */
static void matrix_fragments(FILE *out, const Warp *w, const XInstr *x, bool json)
{
    bool mov = x->op == OP_MOVMATRIX;
    unsigned count = mov ? 1u : x->elements;
    bool trans = mov || x->trans;
    const char *regs[4];
    for (unsigned j = 0; j < count && j < 4; j++)
        regs[j] = mmaview_row_name(w->prog, x, x->op == OP_LDMATRIX ? x->dsts[j] : mov ? x->dst : x->vec[j]);
    if (!json) {
        if (mov)
            fprintf(out, "    fragments: lane: gives M's elements in %s | gets in %s (the transpose's place)\n",
                    mmaview_row_name(w->prog, x, x->src[0]) ? mmaview_row_name(w->prog, x, x->src[0]) : "(immediate)",
                    regs[0] ? regs[0] : "?");
        else {
            fputs("    fragments: lane: the row whose address it gives | the elements of M0..", out);
            fprintf(out, "M%u in ", count - 1);
            names_text(out, regs, count);
            fputs(trans ? " (.trans)\n" : "\n", out);
        }
    } else
        fputs(", \"fragments\": {", out);
    if (json && !mov) {
        fputs("\"rows\": [", out);
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            if (l < 8 * count)
                fprintf(out, "%s[%u, %u]", l ? ", " : "", l >> 3, l & 7);
            else
                fprintf(out, "%snull", l ? ", " : "");
        }
        fputs("], ", out);
    }
    if (json)
        fprintf(out, "\"%s\": [", mov ? "gives" : "M");
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        unsigned g = l >> 2, t = l & 3;
        if (!json) {
            fprintf(out, "    %5u ", l);
            if (!mov) {
                if (l < 8 * count)
                    fprintf(out, "M%u[%u] |", l >> 3, l & 7);
                else
                    fputs("      |", out);
            }
        } else
            fprintf(out, "%s[", l ? ", " : "");
        for (unsigned j = 0; j < count; j++) {
            Place p[2];
            for (unsigned k = 0; k < 2; k++) {
                unsigned r = g, c = 2 * t + k;
                p[k] = (Place){ (uint16_t)(trans && !mov ? c : r), (uint16_t)(trans && !mov ? r : c), (uint8_t)j };
            }
            if (!json)
                fputc(' ', out);
            else if (j)
                fputs(", ", out);
            group_text(out, p, 2, json, "M", !mov);
        }
        if (mov) {                             /* it gets M[2t + k][g] */
            Place p[2] = { { (uint16_t)(2 * t), (uint16_t)g, 0 }, { (uint16_t)(2 * t + 1), (uint16_t)g, 0 } };
            fputs(json ? "]" : " |", out);
            if (json)
                continue;
            fputc(' ', out);
            group_text(out, p, 2, false, "M", false);
        }
        fputs(json ? "]" : "\n", out);
    }
    if (json && mov) {
        fputs("], \"gets\": [", out);
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            unsigned g = l >> 2, t = l & 3;
            Place p[2] = { { (uint16_t)(2 * t), (uint16_t)g, 0 }, { (uint16_t)(2 * t + 1), (uint16_t)g, 0 } };
            fprintf(out, "%s[", l ? ", " : "");
            group_text(out, p, 2, true, NULL, false);
            fputc(']', out);
        }
    }
    if (json)
        fputs("]}", out);
}

void tracefrag_step(FILE *out, const Warp *w, const XInstr *x, bool json)
{
    if (mmasource_has(w->prog, x))
        mma_fragments(out, w, x, json);
    else if (x->op == OP_LDMATRIX || x->op == OP_STMATRIX || x->op == OP_MOVMATRIX)
        matrix_fragments(out, w, x, json);
}
