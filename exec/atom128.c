/* atom128.c: the 16-byte atomics, atom.cas.b128 and atom.exch.b128, of one lane (mem.c finds
 * and checks the bytes; wide.c lowers the instruction onto the .b128 registers' two rows). */
#include "family.h"

/* One lane's atom.cas/.exch.b128 on the 16 bytes at p (shadow: their defined bits), aligned
 * and writable (mem.c checked). d gets the old value; exch writes b, cas writes c where the
 * old value equals b in all 128 bits (PTX ISA, atom). Definedness: exch's new value is b's;
 * cas's every bit when every bit of old, b and c is, else none (as the 64-bit cas, mem.c). */
void atom128_lane(Warp *w, const XInstr *x, int lane, uint8_t *p, uint8_t *shadow)
{
    uint64_t old[2], old_bits[2], b[2], b_bits[2], c[2], c_bits[2];
    for (unsigned h = 0; h < 2; h++) {
        old[h] = old_bits[h] = 0;
        for (unsigned i = 0; i < 8; i++) {
            old[h] |= (uint64_t)p[8 * h + i] << (8 * i);
            old_bits[h] |= (uint64_t)shadow[8 * h + i] << (8 * i);
        }
        b[h] = warp_src(w, x->vec[h])[lane];
        b_bits[h] = warp_dbits(w, x->vec[h], lane);
        c[h] = x->mode == MOD_CAS ? warp_src(w, x->vec[2 + h])[lane] : 0;
        c_bits[h] = x->mode == MOD_CAS ? warp_dbits(w, x->vec[2 + h], lane) : ~0ull;
    }
    uint64_t v[2], bits[2];
    if (x->mode == MOD_EXCH) {
        for (unsigned h = 0; h < 2; h++)
            v[h] = b[h], bits[h] = b_bits[h];
    } else {
        bool equal = old[0] == b[0] && old[1] == b[1];
        uint64_t all = old_bits[0] & old_bits[1] & b_bits[0] & b_bits[1] & c_bits[0] & c_bits[1];
        for (unsigned h = 0; h < 2; h++)
            v[h] = equal ? c[h] : old[h], bits[h] = all == ~0ull ? ~0ull : 0;
    }
    for (unsigned h = 0; h < 2; h++)
        mem_put(&w->block->mem, p + 8 * h, shadow + 8 * h, v[h], bits[h], 8);
    if (x->dst_kind == DST_VALUE)
        for (unsigned h = 0; h < 2; h++) {
            w->val[x->dst + h][lane] = old[h];
            warp_define_bits(w, x->dst + h, lane, old_bits[h], 64);
        }
}
