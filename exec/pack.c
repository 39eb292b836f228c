/* pack.c: moves of several registers at once: mov packing parts into one value and unpacking
 * it (mov.b64 d, {lo, hi}; mov.b64 {lo, hi}, d), and element-wise vector moves (mov.v4). */
#include <string.h>

#include "exec.h"

/* mov.v4.b32 {a, b, c, d}, {e, f, g, h}: each element on its own, every source read before
 * any element is written ({a, b} = {b, a} swaps). */
static void move_vector(Warp *w, const XInstr *x, uint32_t mask)
{
    Lanes source[4], bits[4];
    uint32_t defined[4];
    for (unsigned i = 0; i < x->vec_count; i++) {
        memcpy(source[i], w->val[x->src[i]], sizeof source[i]);
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
 * first. A packed value is defined where every part is; each unpacked part where d is. */
void pack_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    if (x->vmove) {
        move_vector(w, x, mask);
        return;
    }
    unsigned part_bits = x->bits / x->vec_count;
    uint64_t part_mask = width_mask(part_bits);
    if (x->pack) {
        uint32_t defined = ALL_LANES;
        Lanes r;
        for (int l = 0; l < WARP_SIZE; l++) {
            uint64_t v = 0;
            for (unsigned i = 0; i < x->vec_count; i++)
                v |= (w->val[x->vec[i]][l] & part_mask) << (i * part_bits);
            r[l] = v;
        }
        for (unsigned i = 0; i < x->vec_count; i++)
            defined &= w->defined[x->vec[i]];
        uint64_t dbits[WARP_SIZE];             /* each part's defined bits in its place */
        uint32_t partial = mask & ~defined;
        for (uint32_t k = partial; k; k &= k - 1) {
            int l = __builtin_ctz(k);
            dbits[l] = 0;
            for (unsigned i = 0; i < x->vec_count; i++)
                dbits[l] |= (warp_dbits(w, x->vec[i], l) & part_mask) << (i * part_bits);
        }
        if (x->dst_kind != DST_VALUE)
            return;
        warp_commit(w, x->dst, r, mask, defined);
        for (; partial; partial &= partial - 1)
            warp_define_bits(w, x->dst, __builtin_ctz(partial), dbits[__builtin_ctz(partial)], x->bits);
        return;
    }
    Lanes source, source_bits;
    memcpy(source, w->val[x->src[0]], sizeof source);     /* {a, b}, a may overwrite the source */
    uint32_t defined = w->defined[x->src[0]];
    for (int l = 0; l < WARP_SIZE; l++)
        source_bits[l] = warp_dbits(w, x->src[0], l);
    for (unsigned i = 0; i < x->vec_count; i++) {
        if (x->vec[i] == NO_SLOT)
            continue;
        Lanes r;
        for (int l = 0; l < WARP_SIZE; l++)
            r[l] = (source[l] >> (i * part_bits)) & part_mask;
        warp_commit(w, x->vec[i], r, mask, defined);
        for (uint32_t k = mask & ~defined; k; k &= k - 1) {      /* the part's own bits */
            int l = __builtin_ctz(k);
            warp_define_bits(w, x->vec[i], l, source_bits[l] >> (i * part_bits), part_bits);
        }
    }
}
