/* pack.c: moves of several registers at once: mov packing parts into one value and unpacking
 * it (mov.b64 d, {lo, hi}; mov.b64 {lo, hi}, d; mov.b128 into and out of a .b128 register's two
 * rows), and element-wise vector moves (mov.v4, and mov.b128 d, a as two rows). */
#include <string.h>

#include "family.h"

/* mov.v4.b32 {a, b, c, d}, {e, f, g, h}: each element on its own, every source read before
 * any element is written ({a, b} = {b, a} swaps). */
static void move_vector(Warp *w, const XInstr *x, uint32_t mask)
{
    Lanes source[4], bits[4];
    uint32_t defined[4];
    for (unsigned i = 0; i < x->vec_count; i++) {
        memcpy(source[i], warp_src(w, x->src[i]), sizeof source[i]);
        defined[i] = w->defined[x->src[i]];
        for (uint32_t k = mask & ~defined[i]; k; k &= k - 1)
            bits[i][__builtin_ctz(k)] = warp_dbits(w, x->src[i], __builtin_ctz(k));
    }
    for (unsigned i = 0; i < x->vec_count; i++) {
        if (x->vec[i] == NO_SLOT)
            continue;
        warp_commit(w, x->vec[i], source[i], mask, defined[i]);
        for (uint32_t k = mask & ~defined[i]; k; k &= k - 1)
            warp_define_bits(w, x->vec[i], __builtin_ctz(k), bits[i][__builtin_ctz(k)], x->bits);
    }
}

/* mov.b64 d, {lo, hi} and mov.b64 {lo, hi}, d (and other splits): parts are in vec, lowest
 * first. A packed value is defined where every part is; each unpacked part where d is. A .b128
 * d is two rows, d and d + 1 (low, high 64 bits: ir.h), each packed from its own parts. */
void pack_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    if (x->vmove) {
        move_vector(w, x, mask);
        return;
    }
    unsigned part_bits = x->bits / x->vec_count, row_bits = x->bits > 64 ? 64 : x->bits;
    unsigned per_row = row_bits / part_bits, rows = x->vec_count / per_row;
    uint64_t part_mask = width_mask(part_bits);
    if (x->pack) {
        if (x->dst_kind != DST_VALUE)
            return;
        for (unsigned row = 0; row < rows; row++) {
            const uint32_t *part = &x->vec[row * per_row];
            uint32_t defined = ALL_LANES;
            Lanes r;
            for (int l = 0; l < WARP_SIZE; l++) {
                uint64_t v = 0;
                for (unsigned i = 0; i < per_row; i++)
                    v |= (w->val[part[i]][l] & part_mask) << (i * part_bits);
                r[l] = v;
            }
            for (unsigned i = 0; i < per_row; i++)
                defined &= w->defined[part[i]];
            uint64_t dbits[WARP_SIZE];             /* each part's defined bits in its place */
            uint32_t partial = mask & ~defined;
            for (uint32_t k = partial; k; k &= k - 1) {
                int l = __builtin_ctz(k);
                dbits[l] = 0;
                for (unsigned i = 0; i < per_row; i++)
                    dbits[l] |= (warp_dbits(w, part[i], l) & part_mask) << (i * part_bits);
            }
            warp_commit(w, x->dst + row, r, mask, defined);
            for (; partial; partial &= partial - 1)
                warp_define_bits(w, x->dst + row, __builtin_ctz(partial), dbits[__builtin_ctz(partial)], row_bits);
        }
        return;
    }
    Lanes source[2], source_bits[2];           /* {a, b}, a may overwrite the source */
    uint32_t defined[2];
    for (unsigned row = 0; row < rows; row++) {
        memcpy(source[row], w->val[x->src[0] + row], sizeof source[row]);
        defined[row] = w->defined[x->src[0] + row];
        for (int l = 0; l < WARP_SIZE; l++)
            source_bits[row][l] = warp_dbits(w, x->src[0] + row, l);
    }
    for (unsigned i = 0; i < x->vec_count; i++) {
        if (x->vec[i] == NO_SLOT)
            continue;
        unsigned row = i / per_row, shift = (i % per_row) * part_bits;
        Lanes r;
        for (int l = 0; l < WARP_SIZE; l++)
            r[l] = (source[row][l] >> shift) & part_mask;
        warp_commit(w, x->vec[i], r, mask, defined[row]);
        for (uint32_t k = mask & ~defined[row]; k; k &= k - 1) {      /* the part's own bits */
            int l = __builtin_ctz(k);
            warp_define_bits(w, x->vec[i], l, source_bits[row][l] >> shift, part_bits);
        }
    }
}
