/* fold.c: the instructions ptxas (13.0, sm_90) makes moves of, so that the H100 passes a NaN's
 * bits where the instruction alone gives another NaN (docs/semantics.md, NaN payloads). Read off
 * ptxas's SASS (scripts/ptxas_moves.py; no instruction, or a MOV, where the PTX has neg, min or
 * max): `neg.T d, e` where e holds the result of `neg.T e, a` (also through a mov), neither with
 * .ftz, T f16, f16x2, bf16 (not bf16x2), f32 or f64, becomes d = a; `min`/`max` of a value with
 * itself (a register twice, or a register and a copy of it: .f16, .f32, .f64, no .ftz, .NaN,
 * .xorsign.abs) becomes d = a. Each is marked XInstr.folded_move, its src[0] the row moved, and
 * half.c or alu.c moves it. ptxas folds by value, across blocks too; ptxrun only within
 * straight-line code (no label in between) where a is not written between the two negs.
 * The same scan finds the rows whose values ptxas knows when it compiles (written by an
 * unguarded integer mov, add, sub, mul, mad, and, or, xor, not, shl or shr of immediates and such
 * rows, with no label in between, branched to or not), which bitops_field_rule needs: ptxas folds
 * a bfe/bfi of such data by the ISA, within its basic block only (a label between, even one no
 * branch names, and its code gives what it gives for unknown data: scripts/bitfield_imm.py's
 * emulator).
 * Requires: a lowered Program, its immediates placed. */
#include <stdlib.h>

#include "family.h"

/* A neg whose result a neg folds away: no .ftz, no guard, a type ptxas folds (not bf16x2). */
static bool foldable_neg(const XInstr *x)
{
    bool half = x->family == FAM_HALF && (x->type == TYPE_F16 || x->type == TYPE_F16X2 || x->type == TYPE_BF16);
    bool full = x->family == FAM_ALU && (x->type == TYPE_F32 || x->type == TYPE_F64);
    return (half || full) && x->op == OP_NEG && !x->ftz && !x->guard && x->dst_kind == DST_VALUE;
}

/* min/max that ptxas makes a move of a when both operands are a's value (one register twice, or
 * a register and a copy of it): f16 (not bf16 nor pairs), f32 and f64, without .ftz, .NaN or
 * .xorsign.abs (float_000, float_056 for one register). */
static bool min_max_move(const XInstr *x)
{
    bool half = x->family == FAM_HALF && x->type == TYPE_F16;
    bool full = x->family == FAM_ALU && (x->type == TYPE_F32 || x->type == TYPE_F64);
    return (half || full) && (x->op == OP_MIN || x->op == OP_MAX) && !x->ftz && !x->nan_out && !x->xorsign_abs;
}

/* Whether the rows x writes are known: at most x->dst (arithmetic, conversions), ld's vec rows
 * too, or none (st, red, fences, hints); any other instruction ends what is known. */
static bool rows_known(const XInstr *x)
{
    if (x->family == FAM_FENCE || x->family == FAM_HINT || x->op == OP_ST || x->op == OP_RED)
        return true;
    if (x->op == OP_LD || x->op == OP_LDU)
        return x->bits <= 64;
    return (x->family == FAM_ALU || x->family == FAM_HALF || x->family == FAM_CONVERT ||
            x->family == FAM_BITOPS || x->family == FAM_MATHOPS || x->family == FAM_VIDEO) &&
           !x->pack && !x->unpack && !x->vmove && x->bits <= 64;
}

/* Whether x, writing x->dst, gives a value ptxas knows when its sources are (it folds them:
 * scripts/bitfield_imm.py's emulator runs its code for each of these). */
static bool folds_constants(const XInstr *x)
{
    static const bool folded[OP_COUNT] = { [OP_MOV] = true, [OP_ADD] = true, [OP_SUB] = true, [OP_AND] = true,
                                           [OP_OR] = true, [OP_XOR] = true, [OP_NOT] = true, [OP_SHL] = true,
                                           [OP_SHR] = true, [OP_MUL] = true, [OP_MAD] = true };
    return folded[x->op] && x->family == FAM_ALU && !x->guard && (x->cls == 'u' || x->cls == 's' || x->cls == 'b') &&
           !x->pack && !x->unpack && !x->vmove && x->src_count >= 1 && x->bits <= 64;
}

/* The row whose value row r holds, as far as the straight-line run from start shows: the row it
 * was copied from (a mov, a folded move) while that row is not written again, else r. */
static uint32_t value_of(uint32_t r, uint32_t start, const uint32_t *last_write, const uint32_t *same_as)
{
    uint32_t s = same_as[r];
    if (s == NO_SLOT || last_write[r] == NO_SLOT || last_write[r] < start)
        return r;
    return last_write[s] == NO_SLOT || last_write[s] < last_write[r] ? s : r;
}

/* Marks the moves: see the top. */
void fold_moves(Program *p)
{
    bool *entry = xcalloc(p->code_len + 1, sizeof *entry);
    uint32_t *last_write = xmalloc((p->row_count + 1) * sizeof *last_write);
    uint32_t *neg_of = xmalloc((p->row_count + 1) * sizeof *neg_of);   /* the neg whose result a row holds */
    uint32_t *same_as = xmalloc((p->row_count + 1) * sizeof *same_as); /* the row whose value it copied */
    bool *constant = xcalloc(p->row_count + 1, sizeof *constant);   /* its value known to ptxas (above) */
    for (uint32_t i = 0; i < p->code_len; i++) {
        const XInstr *x = &p->code[i];
        if (x->op == OP_BRA && x->target < p->code_len)
            entry[x->target] = true;
        for (uint32_t k = 0; x->op == OP_BRX_IDX && k < x->target_count; k++)
            entry[p->branch_targets[x->target + k]] = true;
    }
    for (uint32_t k = 0; k < p->func_count; k++)
        entry[p->funcs[k].code_base] = true;
    bool *labelled = xcalloc(p->code_len + 1, sizeof *labelled);   /* a label right before it */
    for (uint32_t k = 0; k < p->func_count; k++)
        for (uint32_t j = 0; j < p->funcs[k].fn->labels.len; j++)
            if (p->funcs[k].code_base + p->funcs[k].fn->labels.data[j].target <= p->code_len)
                labelled[p->funcs[k].code_base + p->funcs[k].fn->labels.data[j].target] = true;
    for (uint32_t r = 0; r < p->row_count; r++)
        last_write[r] = neg_of[r] = same_as[r] = NO_SLOT;
    uint32_t start = 0;                       /* the first instruction of the straight-line run */
    uint32_t block = 0;                       /* ... and of ptxas's basic block (labels end it too) */
    for (uint32_t i = 0; i < p->code_len; i++) {
        XInstr *x = &p->code[i];
        if (entry[i])
            start = i;
        if (labelled[i] || start > block)
            block = labelled[i] && i > start ? i : start;
        bool known_data = true;               /* every source an immediate or a constant row of the run */
        for (unsigned k = 0; k < x->src_count && k < 5; k++)
            known_data &= x->src[k] >= p->first_immediate ||
                          (x->src[k] < p->row_count && constant[x->src[k]] && last_write[x->src[k]] != NO_SLOT &&
                           last_write[x->src[k]] >= block);
        bitops_field_rule(p, x, known_data);
        if (!rows_known(x)) {
            start = i + 1;
            continue;
        }
        bool known = x->src_count > 0 && x->src[0] < p->first_immediate;
        uint32_t e = x->src[0], def = known && last_write[e] != NO_SLOT && last_write[e] >= start ? neg_of[e] : NO_SLOT;
        if (foldable_neg(x) && def != NO_SLOT && def >= start && p->code[def].type == x->type) {
            uint32_t a = p->code[def].src[0];
            if (last_write[a] == NO_SLOT || last_write[a] < def) {
                x->folded_move = true;
                x->src[0] = a;
            }
        }
        if (min_max_move(x) && known && x->src[1] < p->first_immediate &&
            value_of(x->src[1], start, last_write, same_as) == value_of(e, start, last_write, same_as))
            x->folded_move = true;
        for (unsigned v = 0; (x->op == OP_LD || x->op == OP_LDU) && v < x->vec_count && v < VEC_MAX; v++)
            if (x->vec[v] < p->row_count) {
                last_write[x->vec[v]] = i;
                neg_of[x->vec[v]] = NO_SLOT;
                constant[x->vec[v]] = false;
            }
        if (x->dst_kind == DST_VALUE && x->dst < p->row_count) {
            bool copy = (x->op == OP_MOV && x->family == FAM_ALU && x->src_count == 1) || x->folded_move;
            copy = copy && !x->guard && x->src[0] < p->first_immediate && x->src[0] != x->dst;
            uint32_t held = copy && !x->folded_move ? def : NO_SLOT;
            if (foldable_neg(x) && !x->folded_move && x->src[0] != x->dst && known)
                held = i;
            uint32_t copied = copy ? value_of(x->src[0], start, last_write, same_as) : NO_SLOT;
            last_write[x->dst] = i;
            constant[x->dst] = folds_constants(x) && known_data;
            neg_of[x->dst] = held;
            same_as[x->dst] = copied;
        }
        if (x->op == OP_BRA || x->op == OP_BRX_IDX || x->op == OP_RET || x->op == OP_EXIT)
            start = i + 1;
    }
    free(entry);
    free(last_write);
    free(neg_of);
    free(same_as);
    free(constant);
    free(labelled);
}
