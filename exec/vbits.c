/* vbits.c: how definedness flows bit by bit through an instruction, as Valgrind's Memcheck
 * keeps it (docs/semantics.md, "Defined bits"). Exact where each result bit depends on known
 * input bits: mov, not, and with a defined 0, or with a defined 1, xor, shifts by a defined
 * amount. Sound elsewhere: add and sub make every bit from the lowest undefined input bit up
 * undefined (carries only travel up); everything else is defined only when all its inputs are.
 * A result is never called defined when different values of the undefined input bits could
 * change it.
 * Requires: nothing but family.h. */
#include <string.h>

#include "family.h"

/* Every bit of a width-bit result: defined when both inputs are, none otherwise. */
static uint64_t whole(uint64_t da, uint64_t db, uint64_t m)
{
    return (da & db & m) == m ? m : 0;
}

/* Bits below the lowest undefined bit of either input: what add and sub keep defined. */
static uint64_t left_smear(uint64_t da, uint64_t db, uint64_t m)
{
    uint64_t undefined = (~da | ~db) & m;
    return undefined ? ((undefined & (0 - undefined)) - 1) & m : m;
}

uint64_t vbits_binary(unsigned kop, uint64_t a, uint64_t da, uint64_t b, uint64_t db, unsigned width)
{
    uint64_t m = width_mask(width);
    bool amount_defined = (db & 0xffffffffu) == 0xffffffffu;    /* a shift amount is a .u32 */
    da &= m;
    db &= m;
    switch (kop) {
    case KOP_MOV:
        return da;
    case KOP_AND:                   /* a defined 0 on either side decides the bit */
        return (da & db) | (da & ~a) | (db & ~b);
    case KOP_OR:                    /* a defined 1 on either side decides it */
        return (da & db) | (da & a) | (db & b);
    case KOP_XOR:
        return da & db;
    case KOP_ADD:
    case KOP_SUB:
        return left_smear(da, db, m);
    case KOP_SHL:
    case KOP_SHR_U:
    case KOP_SHR_S: {
        if (!amount_defined)
            return 0;               /* an undefined amount: any result */
        uint32_t n = (uint32_t)b;
        if (kop == KOP_SHR_S) {     /* the sign bit's definedness fills from the top */
            bool sign = da >> (width - 1) & 1;
            if (n >= width)
                return sign ? m : 0;
            uint64_t fill = m & ~(m >> n);
            return ((da >> n) & m) | (sign ? fill : 0);
        }
        if (n >= width)
            return m;               /* every bit a defined 0 */
        if (kop == KOP_SHL)
            return ((da << n) | ((1ull << n) - 1)) & m;
        return (da >> n) | (m & ~(m >> n));
    }
    default:
        return whole(da, db, m);
    }
}

uint64_t vbits_whole(uint64_t da, uint64_t db, unsigned width)
{
    return whole(da, db, width_mask(width));
}

/* Truncation to `to` bits, or extension from `from` bits (zero or sign). */
uint64_t vbits_convert(uint64_t da, unsigned from, unsigned to, bool sign)
{
    if (to <= from)
        return da & width_mask(to);
    uint64_t m = width_mask(from), fill = width_mask(to) & ~m;
    if (!sign)
        return (da & m) | fill;
    return (da & m) | ((da >> (from - 1) & 1) ? fill : 0);
}

/* The rule (a KOP_*) of an ALU instruction; KOP_NONE: every bit
 * of the result or none. */
static unsigned alu_rule(const XInstr *x)
{
    if (x->cls == 'f' ? x->op != OP_MOV : x->sat || x->hi || x->wide || x->type == TYPE_U16X2 ||
                                          x->type == TYPE_S16X2)
        return KOP_NONE;
    switch (x->op) {
    case OP_MOV: case OP_NOT: return KOP_MOV;
    case OP_ADD: case OP_NEG: return KOP_ADD;  /* neg: 0 - a; b is a, whose bits are da too */
    case OP_SUB: return KOP_SUB;
    case OP_AND: return KOP_AND;
    case OP_OR: return KOP_OR;
    case OP_XOR: return KOP_XOR;
    case OP_SHL: return KOP_SHL;
    case OP_SHR: return x->cls == 's' ? KOP_SHR_S : KOP_SHR_U;
    default: return KOP_NONE;
    }
}

/* A row's defined bits, lane by lane (all ones where the lane is defined in every bit). */
static void row_dbits(const Warp *w, uint32_t row, uint64_t *d)
{
    static const uint64_t ones[WARP_SIZE] = {
        ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull,
        ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull,
    };
    memcpy(d, w->bits[row], sizeof ones);
    w->prog->kernels->select(d, ones, w->defined[row]);
}

/* Lanes of mask where a source is not defined in every bit (defined: where all are): the
 * defined bits of their results by x's rule, into dbits, before the destination is written
 * (it may be a source). Returns those lanes. Whole rows at a time, in loops that vectorise:
 * undefined values are common (memory nobody wrote), and each lane alone would cost more
 * than the instruction. */
uint32_t vbits_partial_results(const Warp *w, const XInstr *x, uint32_t mask, uint32_t defined, uint64_t *dbits)
{
    uint32_t lanes = mask & ~defined;
    if (!lanes || x->dst_kind != DST_VALUE)
        return 0;
    unsigned rule = alu_rule(x);
    uint32_t ra = x->src[0], rb = x->src[x->src_count > 1];
    const uint64_t *a = w->val[ra], *b = w->val[rb];
    uint64_t da[WARP_SIZE], db[WARP_SIZE];
    uint64_t m = width_mask(x->bits);
    row_dbits(w, ra, da);
    row_dbits(w, rb, db);
    switch (rule) {
    case KOP_MOV:
        for (int l = 0; l < WARP_SIZE; l++) dbits[l] = da[l] & m;
        break;
    case KOP_AND:
        for (int l = 0; l < WARP_SIZE; l++) dbits[l] = ((da[l] & db[l]) | (da[l] & ~a[l]) | (db[l] & ~b[l])) & m;
        break;
    case KOP_OR:
        for (int l = 0; l < WARP_SIZE; l++) dbits[l] = ((da[l] & db[l]) | (da[l] & a[l]) | (db[l] & b[l])) & m;
        break;
    case KOP_XOR:
        for (int l = 0; l < WARP_SIZE; l++) dbits[l] = da[l] & db[l] & m;
        break;
    case KOP_ADD:
    case KOP_SUB:
        for (int l = 0; l < WARP_SIZE; l++) {       /* no undefined bit: (0 - 1) & m, every bit */
            uint64_t undefined = (~da[l] | ~db[l]) & m;
            dbits[l] = ((undefined & (0 - undefined)) - 1) & m;
        }
        break;
    case KOP_NONE:
        for (int l = 0; l < WARP_SIZE; l++) dbits[l] = (da[l] & db[l] & m) == m ? m : 0;
        break;
    default:                            /* shifts: the amount decides, lane by lane */
        for (uint32_t k = lanes; k; k &= k - 1) {
            int l = __builtin_ctz(k);
            dbits[l] = vbits_binary(rule, a[l], da[l], b[l], db[l], x->bits);
        }
        break;
    }
    return lanes;
}

/* The lanes of `lanes` get the defined bits dbits[l] of a value `width` bits wide (the others'
 * dbits are not read), the row's definedness kept as warp_define_bits keeps it. */
void vbits_define_row(Warp *w, uint32_t row, uint32_t lanes, const uint64_t *dbits, unsigned width)
{
    uint64_t m = width_mask(width), keep = w->block->whole_values ? 0 : m, kept[WARP_SIZE];
    uint32_t full = w->prog->kernels->covers(dbits, m);
    for (int l = 0; l < WARP_SIZE; l++)
        kept[l] = dbits[l] & keep;
    w->prog->kernels->select(w->bits[row], kept, lanes);
    w->defined[row] = (w->defined[row] & ~lanes) | (full & lanes);
}

void vbits_define_partial(Warp *w, const XInstr *x, uint32_t lanes, const uint64_t *dbits)
{
    if (lanes)
        vbits_define_row(w, x->dst, lanes, dbits, x->bits);
}
