/* bitops.c: the integer bit instructions: popc, clz, bfind, brev, bfe, bfi, prmt (generic
 * form), lop3, and integer div and rem. Each follows the pseudo-code of the PTX ISA; a division
 * by zero (and the s32/s64 quotient that overflows, MIN / -1) is undefined in PTX, and so is
 * the result here: ptxrun marks it undefined rather than inventing a value.
 * Requires: an XInstr from exec.c. */
#include <string.h>

#include "ptxrun.h"

static int64_t sext(uint64_t v, unsigned bits)
{
    unsigned shift = 64 - bits;
    return (int64_t)(v << shift) >> shift;
}

static unsigned popcount64(uint64_t v)
{
    unsigned n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

static unsigned leading_zeros(uint64_t v, unsigned bits)
{
    unsigned n = 0;
    for (int i = (int)bits - 1; i >= 0 && !(v >> i & 1); i--)
        n++;
    return n;
}

/* bfind: the bit position of the most significant 1 (.u) or of the most significant bit that
 * differs from the sign (.s); 0xffffffff when there is none; .shiftamt gives width-1-pos. */
static uint64_t bit_find(uint64_t a, unsigned bits, bool is_signed, bool shiftamt)
{
    uint64_t v = a & width_mask(bits);
    if (is_signed && (v >> (bits - 1) & 1))
        v = ~v & width_mask(bits);
    if (v == 0)
        return 0xffffffffu;
    unsigned pos = bits - 1 - leading_zeros(v, bits);
    return shiftamt ? bits - 1 - pos : pos;
}

static uint64_t bit_reverse(uint64_t v, unsigned bits)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < bits; i++)
        r |= (v >> i & 1) << (bits - 1 - i);
    return r;
}

/* bfe: len bits of a from pos, zero-extended (.u) or sign-extended from the field's top bit
 * (.s); pos and len are the low 8 bits of b and c. */
static uint64_t bit_extract(uint64_t a, uint64_t b, uint64_t c, unsigned bits, bool is_signed)
{
    unsigned msb = bits - 1, pos = (unsigned)b & 0xff, len = (unsigned)c & 0xff;
    unsigned top = pos + len - 1 < msb ? pos + len - 1 : msb;
    uint64_t sbit = (!is_signed || len == 0) ? 0 : (a >> top & 1);
    uint64_t d = 0;
    for (unsigned i = 0; i <= msb; i++) {
        uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i) & 1) : sbit;
        d |= bit << i;
    }
    return d;
}

/* bfi: b with len bits of a inserted at pos. */
static uint64_t bit_insert(uint64_t a, uint64_t b, uint64_t c, uint64_t e, unsigned bits)
{
    unsigned msb = bits - 1, pos = (unsigned)c & 0xff, len = (unsigned)e & 0xff;
    uint64_t f = b & width_mask(bits);
    for (unsigned i = 0; i < len && pos + i <= msb; i++)
        f = (f & ~(1ull << (pos + i))) | ((a >> i & 1) << (pos + i));
    return f;
}

/* prmt, generic form: each result byte picks one of the 8 bytes of b:a by 3 bits of its
 * selector nibble, the nibble's top bit replicating that byte's sign instead. */
static uint64_t permute(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t bytes = (b & 0xffffffffu) << 32 | (a & 0xffffffffu);
    uint64_t d = 0;
    for (int i = 0; i < 4; i++) {
        unsigned sel = (unsigned)(c >> (4 * i)) & 0xf;
        uint64_t byte = bytes >> (8 * (sel & 7)) & 0xff;
        if (sel & 8)
            byte = (byte & 0x80) ? 0xff : 0;
        d |= byte << (8 * i);
    }
    return d;
}

/* prmt with a mode: byte i of d is byte sel(i) of b:a, from the two low bits of c:
 * .f4e c+i, .b4e c-i (mod 8), .rc8 c, .ecl max(i, c), .ecr min(i, c), .rc16 2(c&1) + (i&1). */
static uint64_t permute_mode(uint64_t a, uint64_t b, uint64_t c, int mode)
{
    uint64_t bytes = (b & 0xffffffffu) << 32 | (a & 0xffffffffu);
    unsigned s = (unsigned)c & 3;
    uint64_t d = 0;
    for (unsigned i = 0; i < 4; i++) {
        unsigned sel;
        switch (mode) {
        case MOD_F4E: sel = (s + i) & 7; break;
        case MOD_B4E: sel = (s - i) & 7; break;
        case MOD_RC8: sel = s; break;
        case MOD_ECL: sel = i > s ? i : s; break;
        case MOD_ECR: sel = i < s ? i : s; break;
        default: sel = 2 * (s & 1) + (i & 1); break;           /* .rc16 */
        }
        d |= (bytes >> (8 * sel) & 0xff) << (8 * i);
    }
    return d;
}

/* lop3: bit i of immLut is the result for a, b, c bits (i >> 2, i >> 1, i) & 1. */
static uint64_t lop3(uint64_t a, uint64_t b, uint64_t c, unsigned lut)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < 8; i++)
        if (lut >> i & 1)
            r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
    return r;
}

/* dp4a: c + the four byte products of a and b; dp2a: c + the two products of a's 16-bit
 * halves with two bytes of b (.lo: bytes 0-1, .hi: bytes 2-3). Each part is signed or not
 * by its operand's type. */
static uint64_t dot_product(const XInstr *x, uint64_t a, uint64_t b, uint64_t c)
{
    bool a_signed = x->cls == 's', b_signed = type_info[x->src_type].cls == 's';
    int64_t sum = (int64_t)(int32_t)c;
    if (x->op == OP_DP4A) {
        for (int i = 0; i < 4; i++) {
            int64_t p = (int64_t)(a >> (8 * i) & 0xff), q = (int64_t)(b >> (8 * i) & 0xff);
            if (a_signed) p = (int8_t)p;
            if (b_signed) q = (int8_t)q;
            sum += p * q;
        }
    } else {
        int first = x->mode == MOD_HI ? 2 : 0;
        for (int i = 0; i < 2; i++) {
            int64_t p = (int64_t)(a >> (16 * i) & 0xffff), q = (int64_t)(b >> (8 * (first + i)) & 0xff);
            if (a_signed) p = (int16_t)p;
            if (b_signed) q = (int8_t)q;
            sum += p * q;
        }
    }
    return (uint64_t)sum & 0xffffffffu;
}

/* fns: the position of the |offset|-th set bit of mask, counting from base upwards (offset > 0)
 * or downwards (offset < 0), base itself included; offset 0 asks whether bit base is set.
 * 0xffffffff when there is none. */
static uint64_t find_nth_set(uint32_t mask, uint32_t base, int32_t offset)
{
    if (offset == 0)
        return (mask >> base & 1) ? base : 0xffffffffu;
    int64_t count = (offset < 0 ? -(int64_t)offset : offset) - 1;
    int inc = offset > 0 ? 1 : -1;
    for (int pos = (int)base; pos >= 0 && pos < 32; pos += inc)
        if (mask >> pos & 1) {
            if (count == 0)
                return (uint64_t)pos;
            count--;
        }
    return 0xffffffffu;
}

/* vabsdiff4 without byte selectors: |a - b| of each byte pair (.s32/.u32 sources read as
 * signed or unsigned bytes), as four bytes (.sat clamps them to the destination's range), or
 * with .add their sum plus c. */
static uint64_t byte_abs_diff(const XInstr *x, uint64_t a, uint64_t b, uint64_t c)
{
    bool a_signed = type_info[x->src_type].cls == 's', b_signed = type_info[x->src_type2].cls == 's';
    uint64_t bytes = 0;
    int64_t sum = 0;
    for (int i = 0; i < 4; i++) {
        int64_t p = (int64_t)(a >> (8 * i) & 0xff), q = (int64_t)(b >> (8 * i) & 0xff);
        if (a_signed) p = (int8_t)p;
        if (b_signed) q = (int8_t)q;
        int64_t diff = p > q ? p - q : q - p;
        sum += diff;
        if (x->sat && x->cls == 's' && diff > 127)
            diff = 127;
        bytes |= (uint64_t)(diff & 0xff) << (8 * i);
    }
    if (x->mode == MOD_ADD)
        return (uint64_t)((int64_t)(uint32_t)c + sum) & 0xffffffffu;
    return bytes;
}

void bitops_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    const uint64_t *a = w->val[x->src[0]];
    const uint64_t *b = x->src_count > 1 ? w->val[x->src[1]] : a;
    const uint64_t *c = x->src_count > 2 ? w->val[x->src[2]] : a;
    const uint64_t *e = x->src_count > 3 ? w->val[x->src[3]] : a;
    uint32_t defined = w->defined[x->src[0]];
    for (unsigned s = 1; s < x->src_count; s++)
        if (!(x->src_pred >> s & 1))
            defined &= w->defined[x->src[s]];
    unsigned bits = x->bits;
    bool is_signed = x->cls == 's';
    uint64_t r[WARP_SIZE];
    for (int l = 0; l < WARP_SIZE; l++) {
        switch (x->op) {
        case OP_POPC: r[l] = popcount64(a[l] & width_mask(bits)); break;
        case OP_CLZ: r[l] = leading_zeros(a[l] & width_mask(bits), bits); break;
        case OP_BFIND: r[l] = bit_find(a[l], bits, is_signed, x->mode == MOD_SHIFTAMT); break;
        case OP_BREV: r[l] = bit_reverse(a[l], bits); break;
        case OP_BFE: r[l] = bit_extract(a[l], b[l], c[l], bits, is_signed) & width_mask(bits); break;
        case OP_BFI: r[l] = bit_insert(a[l], b[l], c[l], e[l], bits); break;
        case OP_PRMT: r[l] = x->mode ? permute_mode(a[l], b[l], c[l], x->mode) : permute(a[l], b[l], c[l]); break;
        case OP_LOP3: r[l] = lop3(a[l], b[l], c[l], (unsigned)e[l] & 0xff) & width_mask(bits); break;
        case OP_DP4A:
        case OP_DP2A: r[l] = dot_product(x, a[l], b[l], c[l]); break;
        case OP_FNS:
            if ((uint32_t)b[l] > 31)
                defined &= ~(1u << l);             /* base > 31: undefined in PTX */
            r[l] = find_nth_set((uint32_t)a[l], (uint32_t)b[l] & 31, (int32_t)c[l]);
            break;
        case OP_VABSDIFF4: r[l] = byte_abs_diff(x, a[l], b[l], c[l]); break;
        case OP_DIV:
        case OP_REM: {
            uint64_t ua = a[l] & width_mask(bits), ub = b[l] & width_mask(bits);
            if (ub == 0) {
                defined &= ~(1u << l);
                r[l] = 0;
            } else if (is_signed) {
                int64_t sa = sext(ua, bits), sb = sext(ub, bits);
                bool overflow = sb == -1 && sa == (bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1)));
                if (overflow) {
                    if (x->op == OP_DIV)
                        defined &= ~(1u << l);
                    r[l] = 0;
                } else {
                    r[l] = (uint64_t)(x->op == OP_DIV ? sa / sb : sa % sb) & width_mask(bits);
                }
            } else {
                r[l] = x->op == OP_DIV ? ua / ub : ua % ub;
            }
            break;
        }
        default: BUG("bit op %d", x->op);
        }
    }
    uint64_t *d = w->val[x->dst];
    for (int l = 0; l < WARP_SIZE; l++)
        if (mask >> l & 1)
            d[l] = r[l];
    w->defined[x->dst] = (w->defined[x->dst] & ~mask) | (defined & mask);
}
