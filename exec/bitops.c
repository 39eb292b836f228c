/* bitops.c: the integer bit instructions: popc, clz, bfind, brev, bfe, bfi, prmt (generic
 * form), lop3, bmsk, szext, cvt.pack, dp4a, dp2a, fns, integer div and rem, and createpolicy (an
 * opaque 64-bit value). Each follows the pseudo-code of the PTX ISA, except where an NVIDIA H100
 * gives something else or the ISA leaves the value open; there ptxrun gives the H100's value and
 * warns (docs/semantics.md, "Where ptxrun follows the H100"):
 * - div/rem by zero give all ones, and MIN / -1 gives MIN with remainder 0 (unspecified in PTX);
 * - bfe/bfi .b64 take the whole 32-bit position and length, not their low 8 bits;
 * - bfe.s32 and bfi.b32 whose position and length are immediates (and whose data are not) run the
 *   code ptxas makes for those constants, which departs from the ISA in two places (field_rule).
 * Requires: an XInstr from lower.c. */
#include <string.h>

#include "family.h"

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

/* The position and length operands of bfe/bfi: the ISA takes their low 8 bits; the H100 does
 * so for 32-bit operations but uses the whole 32-bit value for .b64 (measured: pos 0x80000000,
 * len 0x100 in ../shared/hw/int/int_002 and int_020). */
static unsigned field_operand(uint64_t v, unsigned bits)
{
    return bits == 64 ? (uint32_t)v : (unsigned)v & 0xff;
}

/* bfe: len bits of a from pos, zero-extended (.u) or sign-extended from the field's top bit
 * (.s). */
static uint64_t bit_extract(uint64_t a, uint64_t b, uint64_t c, unsigned bits, bool is_signed)
{
    unsigned msb = bits - 1, pos = field_operand(b, bits), len = field_operand(c, bits);
    unsigned top = len == 0 || pos + len - 1 >= msb || pos + len - 1 < pos ? msb : pos + len - 1;
    uint64_t sbit = (!is_signed || len == 0) ? 0 : (a >> top & 1);
    uint64_t d = 0;
    for (unsigned i = 0; i <= msb; i++) {
        uint64_t bit = (i < len && pos <= msb && pos + i <= msb) ? (a >> (pos + i) & 1) : sbit;
        d |= bit << i;
    }
    return d;
}

/* bfi: b with len bits of a inserted at pos. */
static uint64_t bit_insert(uint64_t a, uint64_t b, uint64_t c, uint64_t e, unsigned bits)
{
    unsigned msb = bits - 1, pos = field_operand(c, bits), len = field_operand(e, bits);
    uint64_t f = b & width_mask(bits);
    for (unsigned i = 0; i < len && pos <= msb && pos + i <= msb; i++)
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

/* bmsk: a mask of b ones from bit a, as the PTX ISA's pseudo-code builds it: .wrap takes a and b
 * modulo 32; .clamp gives 0 for a >= 32 and ones up to bit 31 for b >= 32 (a width of 0: 0). */
static uint32_t bit_mask(uint32_t a, uint32_t b, bool clamp)
{
    unsigned a1 = a & 31, b1 = b & 31, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1, mask1 = sum < 32 ? ~0u << sum : 0;
    bool overflow = sum >= 32;
    if (clamp && a >= 32)
        mask0 = 0;
    if (clamp && (a >= 32 || b >= 32))
        overflow = true;
    if (overflow)
        mask1 = 0;
    else if (b1 == 0)
        mask1 = ~0u;
    return mask0 & ~mask1;
}

/* szext: the low b bits of a, sign-extended (.s32) or zero-extended (.u32); b = 0 gives 0;
 * b >= 32: .clamp gives a, .wrap reads b modulo 32 (PTX ISA pseudo-code). */
static uint32_t sign_zero_extend(uint32_t a, uint32_t b, bool clamp, bool is_signed)
{
    unsigned b1 = b & 31;
    bool too_large = clamp && b >= 32;
    uint32_t mask = too_large ? 0 : ~0u << b1;
    bool sign = b1 != 0 && !too_large && is_signed && (a >> ((b1 - 1) & 31) & 1);
    return (a & ~mask) | (sign ? mask : 0);
}

/* cvt.pack.sat: a and b clamped to the range of the convert type (n bits), a above b in the low
 * 2n bits of d, and above them the low bits of c (none for the 16-bit types). */
static uint32_t pack_saturated(int type, int32_t a, int32_t b, uint32_t c)
{
    unsigned n = type_info[type].bits;
    bool is_signed = type_info[type].cls == 's';
    int64_t lo = is_signed ? -((int64_t)1 << (n - 1)) : 0;
    int64_t hi = is_signed ? ((int64_t)1 << (n - 1)) - 1 : ((int64_t)1 << n) - 1;
    uint64_t ta = (uint64_t)(a < lo ? lo : a > hi ? hi : a) & width_mask(n);
    uint64_t tb = (uint64_t)(b < lo ? lo : b > hi ? hi : b) & width_mask(n);
    return (uint32_t)((uint64_t)c << (2 * n) | ta << n | tb);
}

/* What the H100 does where the ISA says otherwise or nothing: each a warning (static text, one
 * per instruction and kind; --strict makes it an error). */
static const char warn_div_zero[] = "integer division by zero: the PTX ISA leaves the result unspecified; "
                                    "ptxrun gives the H100's value, all ones";
static const char warn_rem_zero[] = "integer remainder by zero: the PTX ISA leaves the result unspecified; "
                                    "ptxrun gives the H100's value, all ones";
static const char warn_div_overflow[] = "signed division of the most negative value by -1: the PTX ISA leaves "
                                        "the result unspecified; ptxrun gives the H100's value (that value; "
                                        "remainder 0)";
static const char warn_field64[] = "bfe/bfi.b64 position or length above 255: the PTX ISA reads their low "
                                   "8 bits, the H100 the whole value; ptxrun follows the H100";
static const char warn_bfe_imm[] = "bfe.s32 with an immediate position of 32 or more and length of 1 or more: "
                                   "the PTX ISA gives copies of a's sign bit, the H100 (the code ptxas makes) "
                                   "all ones; ptxrun follows the H100";
static const char warn_bfi_imm[] = "bfi.b32 with an immediate position below 32, not a multiple of 8, and an "
                                   "immediate length of 32 or more: the PTX ISA inserts up to bit 31, the H100 "
                                   "(the code ptxas makes) the length modulo 32 bits; ptxrun follows the H100";

/* div and rem of one lane; *warn gets the kind of value the ISA leaves open, or NULL. */
static uint64_t divide(const XInstr *x, uint64_t a, uint64_t b, const char **warn)
{
    unsigned bits = x->bits;
    uint64_t m = width_mask(bits), ua = a & m, ub = b & m;
    bool is_div = x->op == OP_DIV;
    if (ub == 0) {
        *warn = is_div ? warn_div_zero : warn_rem_zero;
        return m;
    }
    if (x->cls != 's')
        return is_div ? ua / ub : ua % ub;
    int64_t sa = sext(ua, bits), sb = sext(ub, bits);
    if (sb == -1 && ua == (uint64_t)1 << (bits - 1)) {
        *warn = warn_div_overflow;
        return is_div ? ua : 0;
    }
    return (uint64_t)(is_div ? sa / sb : sa % sb) & m;
}

/* How a 32-bit bfe/bfi reads an immediate position and length (XInstr.field_rule). The H100 has
 * no bit-field instruction: ptxas makes code for it, and for constant position and length it
 * computes the shifts and masks itself (scripts/bitfield_imm.py runs ptxas 13.0 on every pair
 * from 0 to 255 and works out what its code gives). Where the data are constants too, ptxas
 * folds the whole result, by the ISA: immediates, or registers whose values it knows
 * (data_known, from fold_moves: `mov.b32 %r, 5; bfe.s32 d, %r, 40, 1` gives 0, not all ones). Where only one of position and length is an immediate,
 * ptxas moves it into a register and makes the register form's code (the script compares them),
 * and the H100 follows the ISA (int_046: bfe.s32 d, a, 63, r; int_092: bfi.b32 d, a, b, r, 32). */
enum {
    FIELD_ISA,                 /* as the PTX ISA */
    FIELD_BFE_ONES,            /* bfe.s32, position >= 32, length >= 1: all ones (probes/bfe_imm_vs_reg, int_052) */
    FIELD_BFI_LEN_MOD32,       /* bfi.b32, position < 32 and not a multiple of 8, length >= 32: length mod 32
                                  (probes/bfe_imm_vs_reg: 31, 32 inserts nothing, 7, 33 one bit; int_042).
                                  At a multiple of 8 ptxas moves whole bytes (prmt), by the ISA: 16, 32 */
};

void bitops_field_rule(const Program *p, XInstr *x, bool data_known)
{
    x->field_rule = FIELD_ISA;
    if ((x->op != OP_BFE && x->op != OP_BFI) || x->bits != 32)
        return;
    unsigned first_field = x->op == OP_BFE ? 1 : 2;    /* the sources before it are the data */
    for (unsigned s = first_field; s < x->src_count; s++)
        if (x->src[s] < p->first_immediate)
            return;
    if (data_known)                            /* folded whole by ptxas, by the ISA */
        return;
    unsigned pos = (unsigned)p->immediates[x->src[first_field] - p->first_immediate] & 0xff;
    unsigned len = (unsigned)p->immediates[x->src[first_field + 1] - p->first_immediate] & 0xff;
    if (x->op == OP_BFE && x->cls == 's' && pos >= 32 && len >= 1)
        x->field_rule = FIELD_BFE_ONES;
    else if (x->op == OP_BFI && pos < 32 && pos % 8 != 0 && len >= 32)
        x->field_rule = FIELD_BFI_LEN_MOD32;
}

/* The defined bits of lane l's result when its sources are not all defined in every bit. The
 * instructions that only move bits (brev, bfe, bfi, prmt) do to the defined bits what they do
 * to the value, when what chooses the bits is defined; bits they make constant are defined.
 * lop3: a bit is defined where every value of the undefined input bits gives the same result.
 * Anything else: none. */
static uint64_t moved_bits(const Warp *w, const XInstr *x, int l)
{
    unsigned bits = x->bits;
    uint64_t m = width_mask(bits), field = bits == 64 ? 0xffffffffu : 0xff;
    uint64_t a = warp_src(w, x->src[0])[l], da = warp_dbits(w, x->src[0], l);
    uint64_t b = x->src_count > 1 ? warp_src(w, x->src[1])[l] : 0, db = x->src_count > 1 ? warp_dbits(w, x->src[1], l) : 0;
    uint64_t c = x->src_count > 2 ? warp_src(w, x->src[2])[l] : 0, dc = x->src_count > 2 ? warp_dbits(w, x->src[2], l) : 0;
    uint64_t e = x->src_count > 3 ? warp_src(w, x->src[3])[l] : 0, de = x->src_count > 3 ? warp_dbits(w, x->src[3], l) : 0;
    switch (x->op) {
    case OP_BREV:
        return bit_reverse(da, bits);
    case OP_BFE: {
        if (x->field_rule == FIELD_BFE_ONES)
            return m;                            /* all ones whatever a holds */
        if ((db & field) != field || (dc & field) != field)
            return 0;
        bool is_signed = x->cls == 's';
        uint64_t from_a = bit_extract(~0ull, b, c, bits, is_signed) & m;   /* bits a decides */
        return ((bit_extract(da, b, c, bits, is_signed) & from_a) | ~from_a) & m;
    }
    case OP_BFI:
        if ((dc & field) != field || (de & field) != field)
            return 0;
        return bit_insert(da, db, c, x->field_rule == FIELD_BFI_LEN_MOD32 ? e & 31 : e, bits) & m;
    case OP_PRMT: {
        uint64_t selector = x->mode ? 0x3 : 0xffff;
        if ((dc & selector) != selector)
            return 0;
        return x->mode ? permute_mode(da, db, c, x->mode) : permute(da, db, c);
    }
    case OP_LOP3: {
        unsigned lut = (unsigned)e & 0xff;
        if ((de & 0xff) != 0xff)
            return 0;
        uint64_t first = lop3(a | ~da, b | ~db, c | ~dc, lut), differ = 0;
        for (unsigned v = 0; v < 8; v++) {        /* the undefined bits of a, b, c all 0 or all 1 */
            uint64_t va = (v & 4) ? a | ~da : a & da, vb = (v & 2) ? b | ~db : b & db, vc = (v & 1) ? c | ~dc : c & dc;
            differ |= lop3(va, vb, vc, lut) ^ first;
        }
        return ~differ & m;
    }
    default:
        return 0;
    }
}

/* lop3.or/.and d|p, a, b, c, immLut, q: p = (d != 0) .or/.and q (PTX ISA). Whether d != 0 is
 * known where d is defined, or where a defined bit of it is 1; p is then defined where both
 * sides are, or where the known side decides alone (true for .or, false for .and). */
static void lop3_predicate(Warp *w, const XInstr *x, const uint64_t *r, const uint64_t *dbits, uint32_t mask,
                           uint32_t defined)
{
    uint32_t q_slot = x->src[4], q = w->pred[q_slot], q_known = w->pred_defined[q_slot];
    if (x->src_not >> 4 & 1)
        q = ~q;
    uint32_t nz = 0, nz_known = defined;
    for (uint32_t k = mask; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        bool partial = !(defined >> l & 1);
        if ((partial ? r[l] & dbits[l] : r[l]) & width_mask(x->bits))
            nz |= 1u << l;                 /* a defined 1 bit: d != 0 whatever the others hold */
    }
    nz_known |= nz;
    bool is_or = x->mode == MOD_OR;
    uint32_t p = is_or ? nz | q : nz & q;
    uint32_t decides = is_or ? (nz_known & nz) | (q_known & q) : (nz_known & ~nz) | (q_known & ~q);
    uint32_t known = (nz_known & q_known) | decides;
    w->pred[x->dst_pred] = (w->pred[x->dst_pred] & ~mask) | (p & mask);
    w->pred_defined[x->dst_pred] = (w->pred_defined[x->dst_pred] & ~mask) | (known & mask);
}

/* createpolicy's values (docs/semantics.md): the form in the top bits, then its operand. */
#define POLICY_FRACTIONAL 0x1000000000000000ull
#define POLICY_RANGE      0x2000000000000000ull

void bitops_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    const uint64_t *a = warp_src(w, x->src[0]);
    const uint64_t *b = x->src_count > 1 ? warp_src(w, x->src[1]) : a;
    const uint64_t *c = x->src_count > 2 ? warp_src(w, x->src[2]) : a;
    const uint64_t *e = x->src_count > 3 ? warp_src(w, x->src[3]) : a;
    uint32_t defined = w->defined[x->src[0]];
    for (unsigned s = 1; s < x->src_count; s++)
        if (!(x->src_pred >> s & 1))
            defined &= w->defined[x->src[s]];
    unsigned bits = x->bits;
    bool is_signed = x->cls == 's';
    uint32_t pc = (uint32_t)(x - w->prog->code);
    uint32_t unlike_isa = 0;                   /* lanes where field_rule gives another value than the ISA */
    uint64_t r[WARP_SIZE];
    for (int l = 0; l < WARP_SIZE; l++) {
        switch (x->op) {
        case OP_POPC: r[l] = popcount64(a[l] & width_mask(bits)); break;
        case OP_CLZ: r[l] = leading_zeros(a[l] & width_mask(bits), bits); break;
        case OP_BFIND: r[l] = bit_find(a[l], bits, is_signed, x->mode == MOD_SHIFTAMT); break;
        case OP_BREV: r[l] = bit_reverse(a[l], bits); break;
        case OP_BFE:
            if (bits == 64 && (mask >> l & 1) && ((uint32_t)b[l] > 255 || (uint32_t)c[l] > 255))
                report_warn(w, pc, 1u << l, warn_field64);
            r[l] = bit_extract(a[l], b[l], c[l], bits, is_signed) & width_mask(bits);
            if (x->field_rule == FIELD_BFE_ONES && r[l] != width_mask(bits)) {
                unlike_isa |= 1u << l;
                r[l] = width_mask(bits);
            }
            break;
        case OP_BFI:
            if (bits == 64 && (mask >> l & 1) && ((uint32_t)c[l] > 255 || (uint32_t)e[l] > 255))
                report_warn(w, pc, 1u << l, warn_field64);
            r[l] = bit_insert(a[l], b[l], c[l], e[l], bits);
            if (x->field_rule == FIELD_BFI_LEN_MOD32) {
                uint64_t isa = r[l];
                r[l] = bit_insert(a[l], b[l], c[l], e[l] & 31, bits);
                unlike_isa |= (uint32_t)(r[l] != isa) << l;
            }
            break;
        case OP_PRMT: r[l] = x->mode ? permute_mode(a[l], b[l], c[l], x->mode) : permute(a[l], b[l], c[l]); break;
        case OP_LOP3: r[l] = lop3(a[l], b[l], c[l], (unsigned)e[l] & 0xff) & width_mask(bits); break;
        case OP_CREATEPOLICY:                  /* opaque: the form, with the fraction or the total size */
            r[l] = x->mode == MOD_CVT ? a[l] : x->mode == MOD_RANGE ? POLICY_RANGE | (uint32_t)c[l]
                                                                    : POLICY_FRACTIONAL | (uint32_t)a[l];
            break;
        case OP_DP4A:
        case OP_DP2A: r[l] = dot_product(x, a[l], b[l], c[l]); break;
        case OP_FNS:
            if ((uint32_t)b[l] > 31)
                defined &= ~(1u << l);             /* base > 31: undefined in PTX */
            r[l] = find_nth_set((uint32_t)a[l], (uint32_t)b[l] & 31, (int32_t)c[l]);
            break;
        case OP_BMSK: r[l] = bit_mask((uint32_t)a[l], (uint32_t)b[l], x->clamp); break;
        case OP_SZEXT: r[l] = sign_zero_extend((uint32_t)a[l], (uint32_t)b[l], x->clamp, is_signed); break;
        case OP_CVT_PACK:
            r[l] = pack_saturated(x->type, (int32_t)a[l], (int32_t)b[l], x->src_count > 2 ? (uint32_t)c[l] : 0);
            break;
        case OP_DIV:
        case OP_REM: {
            const char *warn = NULL;
            r[l] = divide(x, a[l], b[l], &warn);
            if (warn && (mask & defined) >> l & 1)
                report_warn(w, pc, 1u << l, warn);
            break;
        }
        default: BUG("bit op %d", x->op);
        }
    }
    if (unlike_isa & mask & defined)
        report_warn(w, pc, unlike_isa & mask & defined, x->op == OP_BFE ? warn_bfe_imm : warn_bfi_imm);
    uint64_t dbits[WARP_SIZE];
    uint32_t partial = mask & ~defined;
    for (uint32_t k = partial; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        dbits[l] = moved_bits(w, x, l);
    }
    if (x->dst_pred != NO_SLOT)
        lop3_predicate(w, x, r, dbits, mask, defined);
    if (x->dst_kind != DST_VALUE)      /* lop3.or/.and with '_' for d */
        return;
    uint64_t *d = w->val[x->dst];
    for (int l = 0; l < WARP_SIZE; l++)
        if (mask >> l & 1)
            d[l] = r[l];
    warp_define(w, x->dst, mask, defined);
    for (; partial; partial &= partial - 1)
        warp_define_bits(w, x->dst, __builtin_ctz(partial), dbits[__builtin_ctz(partial)], x->bits);
}
