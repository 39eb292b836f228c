/* video.c: the video instructions (PTX ISA 9.7.18), as the ISA's pseudo-code says, except where
 * an H100 does otherwise (scalar forms; tests/h100_more/README.md point 4).
 * Scalar (vadd vsub vabsdiff vmin vmax vshl vshr vset): each source's byte, half or word that
 * its selector names (partSelectSignExtend), sign- or zero-extended by its own type; the
 * operation on those exact values; .sat clamps to the destination type's range, or to that of
 * the byte or half merged when d has a selector (optSaturate); then .add/.min/.max with c, c
 * signed as the destination type (optSecOp), or the low byte or half merged into c at d's
 * selector (optMerge); d gets the low 32 bits. vset's result and c are unsigned.
 * The H100: d.h1 keeps the result's upper half in place; .sat with a selector of d gives the
 * field's largest value for anything below 0 or above it; vadd and vsub hold their value in 32
 * bits, signed, for .min/.max (compared unsigned in 64 bits for u32 destinations) and that
 * .sat; .sat into a full u32 destination gives 0 below 0 and wraps above 2^32-1 (vshl, not
 * measured, clamps as the ISA says); vset's c is signed. Both readings are computed; lanes where they differ are warned.
 * vmad: the product of the selected parts in 128 bits, the negations and .po as the ISA's
 * pseudo-code applies them, c extended by the sign of the final result, .shr7/.shr15, .sat. The
 * H100 sign-extends a and b read whole whatever their types, and c always; ptxrun follows it
 * (tests/h100_more cases2: vmad, vmad_probe, vmad_check) and warns on lanes where the readings
 * differ.
 * SIMD (vadd2 ... vset4): each of the two halves or four bytes picked out of {b, a} by the
 * selectors of a and b (by default .h10 and .h32, .b3210 and .b7654), extended by each
 * source's type, operated on and clamped by .sat each; then the lanes d's mask names (by
 * default all) replace c's lanes, or (.add) are summed onto c.
 * The H100 agrees with this for every SIMD form (tests/h100_more/cases2: simd2, simd4).
 * Definedness: a lane's result is defined when the bits of a and b its selectors read, and c
 * when it is read, are; otherwise not in any bit, except that a merge keeps c's bits as they
 * were where it keeps them.
 * Requires: an XInstr from lower.c, video_lower() having decoded the selectors. */
#include "family.h"

__extension__ typedef __int128 wide_int;    /* vmad's 128-bit intermediate, shifts before .sat */

/* The low `bits` bits of v, sign-extended when is_signed. */
static int64_t extend(uint64_t v, unsigned bits, bool is_signed)
{
    uint64_t m = width_mask(bits);
    v &= m;
    if (is_signed && (v >> (bits - 1) & 1))
        v |= ~m;
    return (int64_t)v;
}

/* partSelectSignExtend: the byte or half of v that the selector names, or all of v (none). */
static int64_t select_part(uint32_t v, unsigned select, bool is_signed)
{
    if (!select)
        return extend(v, 32, is_signed);
    unsigned width = (select & SEL_HALF) ? 16 : 8;
    return extend(v >> (width * sel_digit(select, 0)), width, is_signed);
}

/* The bits of a source that a selector reads. */
static uint64_t selected_bits(unsigned select)
{
    if (!select)
        return 0xffffffffu;
    unsigned width = (select & SEL_HALF) ? 16 : 8;
    return width_mask(width) << (width * sel_digit(select, 0));
}

/* v clamped to the range of a `width`-bit signed or unsigned integer. */
static wide_int clamp(wide_int v, unsigned width, bool is_signed)
{
    wide_int hi = is_signed ? ((wide_int)1 << (width - 1)) - 1 : ((wide_int)1 << width) - 1;
    wide_int lo = is_signed ? -((wide_int)1 << (width - 1)) : 0;
    return v < lo ? lo : v > hi ? hi : v;
}

static bool compare(unsigned cmp, int64_t a, int64_t b)
{
    switch (cmp) {
    case MOD_EQ: return a == b;
    case MOD_NE: return a != b;
    case MOD_LT: return a < b;
    case MOD_LE: return a <= b;
    case MOD_GT: return a > b;
    case MOD_GE: return a >= b;
    default: BUG("video compare %u", cmp);
    }
}

/* The primary operation of a scalar or SIMD instruction on extended values (vshl, vshr: b is
 * the shift count). */
static wide_int operate(const XInstr *x, int64_t a, int64_t b)
{
    switch (x->op) {
    case OP_VADD: case OP_VADD2: case OP_VADD4: return (wide_int)a + b;
    case OP_VSUB: case OP_VSUB2: case OP_VSUB4: return (wide_int)a - b;
    case OP_VABSDIFF: case OP_VABSDIFF2: case OP_VABSDIFF4: return a > b ? (wide_int)a - b : (wide_int)b - a;
    case OP_VMIN: case OP_VMIN2: case OP_VMIN4: return a < b ? a : b;
    case OP_VMAX: case OP_VMAX2: case OP_VMAX4: return a > b ? a : b;
    case OP_VAVRG2: case OP_VAVRG4: {
        int64_t sum = a + b;                  /* rounds half up; a negative sum's >> floors */
        return sum >= 0 ? (sum + 1) >> 1 : sum >> 1;
    }
    case OP_VSET: case OP_VSET2: case OP_VSET4: return compare(x->mode, a, b);
    case OP_VSHL: case OP_VSHR: {
        uint64_t n = (uint64_t)b;
        n = x->clamp ? (n > 32 ? 32 : n) : n & 31;
        return x->op == OP_VSHL ? (wide_int)a * ((wide_int)1 << n) : (wide_int)(a >> n);
    }
    default: BUG("video op %d", x->op);
    }
}

static bool is_compare(int op)
{
    return op == OP_VSET || op == OP_VSET2 || op == OP_VSET4;
}

/* What the H100 does with the scalar forms where the PTX ISA's pseudo-code says otherwise
 * (tests/h100_more/cases/video_merge_secondary and video_sat_merge, tests/kernels/video_simd):
 * ptxrun follows the H100 and warns on the lanes where the two readings differ. */
static const char warn_video_h1[] = "video destination selector .h1: the PTX ISA merges the low half of the result "
                                    "into the upper half of c, the H100 the upper half of the 32-bit result; "
                                    "ptxrun follows the H100";
static const char warn_video_sat[] = "video .sat with a destination selector: the PTX ISA clamps to the byte's or "
                                     "half's range, the H100 gives its largest value for any value below 0 or above "
                                     "it (and .h1 takes the upper half of that); ptxrun follows the H100";
static const char warn_video_minmax[] = "video .min/.max: the PTX ISA compares the exact result with c, the H100 "
                                        "vadd's and vsub's result wrapped to 32 bits and read as signed (a u32 "
                                        "destination compares unsigned, so bit 31 set counts as greater than any "
                                        "c; with .sat into u32 one read as negative becomes 2^32-1), and vset's c as "
                                        "signed; ptxrun follows the H100";
static const char warn_video_usat[] = "video .sat into a full u32 destination: the PTX ISA clamps the exact value "
                                      "to [0, 2^32-1] (before .add/.min/.max), the H100 gives 0 below 0 but keeps "
                                      "the low 32 bits of a value above 2^32-1, then compares it as vadd's .min/.max "
                                      "do; ptxrun follows the H100";
static const char warn_vmad[] = "vmad: the PTX ISA extends a and b read whole by their types and c by the sign "
                                "of the result; the H100 sign-extends them (a .u32 word of 2^31 or more counts "
                                "as negative), and .sat without .shr7/.shr15 clamps the exact value; ptxrun "
                                "follows the H100";
static const char warn_video_vshl_sat[] = "vshl .sat into a full u32 destination of a value above 2^32-1: not "
                                          "measured on the H100 (where vadd and vsub keep the low 32 bits); "
                                          "ptxrun clamps as the PTX ISA says";

/* One lane of vadd vsub vabsdiff vmin vmax vshl vshr vset: the H100's reading (h100) or the PTX
 * ISA's. .sat into a full u32 destination on the H100 (tests/h100_more/cases/video_usat, every
 * secondary operation, vadd vsub vabsdiff vmax): a value below 0 gives 0, one above 2^32-1 its
 * low 32 bits. vshl, the one other operation whose value can pass 2^32-1, was not measured: it
 * keeps the ISA's clamp, and *unmeasured says when the clamp acted on such a value. */
static uint32_t scalar(const XInstr *x, uint32_t a, uint32_t b, uint32_t c, bool h100, bool *unmeasured)
{
    bool compares = is_compare(x->op);
    bool d_signed = !compares && x->cls == 's', c_signed = d_signed || (h100 && compares);
    unsigned dsel = x->select[0], width = !dsel ? 32 : (dsel & SEL_HALF) ? 16 : 8;
    int64_t ta = select_part(a, x->select[1], type_info[x->src_type].cls == 's');
    int64_t tb = select_part(b, x->select[2], type_info[x->src_type2].cls == 's');
    wide_int t = operate(x, ta, tb), v = t;
    if (h100 && (x->op == OP_VADD || x->op == OP_VSUB))
        v = (int32_t)(uint32_t)t;               /* the H100 holds their value in 32 bits, signed */
    *unmeasured = false;
    if (x->sat && h100 && !dsel && !d_signed && x->op != OP_VSHL) {
        v = t < 0 ? 0 : (int32_t)(uint32_t)t;   /* read as signed by .min/.max, as vadd's value is */
    } else if (x->sat && (!h100 || (!dsel && (d_signed || x->secondary != MOD_MIN)))) {
        v = clamp(t, width, d_signed);
        *unmeasured = !dsel && !d_signed && x->secondary != MOD_MIN && v != t;
    } else if (x->sat) {                        /* the field's largest value, compared unsigned */
        wide_int max = ((wide_int)1 << (d_signed ? width - 1 : width)) - 1;
        v = v < 0 || v > max ? max : v;
    }
    wide_int tc = extend(c, 32, c_signed);
    bool less = h100 && !c_signed ? (uint64_t)v < (uint64_t)tc : v < tc;
    switch (x->secondary) {
    case MOD_ADD: v += tc; break;
    case MOD_MIN: v = less ? v : tc; break;
    case MOD_MAX: v = less ? tc : v; break;
    default: break;
    }
    if (!dsel)
        return (uint32_t)v;
    uint64_t field = selected_bits(dsel);
    unsigned at = width * sel_digit(dsel, 0);
    uint64_t placed = h100 && (dsel & SEL_HALF) && at == 16 ? (uint64_t)v : (uint64_t)v << at;   /* .h1: in place */
    return (uint32_t)((placed & field) | (c & ~field));
}

/* The warning for a lane whose two readings differ. */
static const char *scalar_warning(const XInstr *x)
{
    if (x->select[0] && x->sat)
        return warn_video_sat;
    if (x->sat && x->cls != 's' && !is_compare(x->op) && x->op != OP_VSHL)
        return warn_video_usat;
    return x->select[0] ? warn_video_h1 : warn_video_minmax;
}

/* One lane of vmad, its pseudo-code in the PTX ISA step by step (h100 false), or as the H100
 * does it (tests/h100_more/README.md, cases2: vmad, vmad_probe, vmad_check): a and b read whole
 * (no selector) are sign-extended whatever their type, c is sign-extended also for an unsigned
 * result, and without .shr7/.shr15 .sat clamps the exact value (the ISA's pseudo-code has no
 * case for that). */
static uint32_t multiply_add(const XInstr *x, uint32_t a, uint32_t b, uint32_t c, bool h100)
{
    bool a_signed = type_info[x->src_type].cls == 's', b_signed = type_info[x->src_type2].cls == 's';
    bool neg_a = x->negate & 1, neg_b = x->negate >> 1 & 1, neg_c = x->negate >> 2 & 1;
    bool signed_final = a_signed || b_signed || neg_a != neg_b || neg_c;
    bool a_ext = a_signed || (h100 && !x->select[1]), b_ext = b_signed || (h100 && !x->select[2]);
    wide_int t = (wide_int)select_part(a, x->select[1], a_ext) * select_part(b, x->select[2], b_ext);
    wide_int lsb = 0;
    if (x->plus_one) {
        lsb = 1;
    } else if (neg_a != neg_b) {
        t = ~t;
        lsb = 1;
    } else if (neg_c) {
        c = ~c;
        lsb = 1;
    }
    t += (signed_final || h100 ? (wide_int)(int32_t)c : (wide_int)c) + lsb;
    unsigned shift = x->mode == MOD_SHR7 ? 7 : x->mode == MOD_SHR15 ? 15 : 0;
    if (shift || !h100) {                      /* result = (t >> shift) & 0xffffffffffffffff */
        uint64_t result = (uint64_t)(t >> shift);   /* (sign-extending) */
        t = signed_final ? (wide_int)(int64_t)result : (wide_int)result;
    }
    if (x->sat)
        t = clamp(t, 32, signed_final);
    return (uint32_t)t;
}

/* The SIMD forms' lane count and width, and lane i's selector digit of a (b: which_b). */
static unsigned simd_lanes(int op)
{
    switch (op) {
    case OP_VADD2: case OP_VSUB2: case OP_VAVRG2: case OP_VABSDIFF2: case OP_VMIN2: case OP_VMAX2: case OP_VSET2:
        return 2;
    case OP_VADD4: case OP_VSUB4: case OP_VAVRG4: case OP_VABSDIFF4: case OP_VMIN4: case OP_VMAX4: case OP_VSET4:
        return 4;
    default:
        return 0;
    }
}

static unsigned simd_digit(const XInstr *x, unsigned lanes, unsigned i, bool which_b)
{
    unsigned select = x->select[1 + which_b];
    return select ? sel_digit(select, i) : i + (which_b ? lanes : 0);
}

/* The lanes d's mask names (by default all). */
static unsigned simd_mask(const XInstr *x, unsigned lanes)
{
    if (!x->select[0])
        return (1u << lanes) - 1;
    unsigned m = 0;
    for (unsigned i = 0; i < sel_count(x->select[0]); i++)
        m |= 1u << sel_digit(x->select[0], i);
    return m;
}

/* One lane of a 2- or 4-way SIMD instruction. */
static uint32_t simd(const XInstr *x, uint32_t a, uint32_t b, uint32_t c)
{
    unsigned lanes = simd_lanes(x->op), width = 32 / lanes, mask = simd_mask(x, lanes);
    bool a_signed = type_info[x->src_type].cls == 's', b_signed = type_info[x->src_type2].cls == 's';
    bool d_signed = !is_compare(x->op) && x->cls == 's';
    uint64_t pair = (uint64_t)b << 32 | a, field = width_mask(width);
    uint32_t merged = 0;
    int64_t sum = 0;
    for (unsigned i = 0; i < lanes; i++) {
        int64_t va = extend(pair >> (width * simd_digit(x, lanes, i, false)), width, a_signed);
        int64_t vb = extend(pair >> (width * simd_digit(x, lanes, i, true)), width, b_signed);
        wide_int t = operate(x, va, vb);
        if (x->sat)
            t = clamp(t, width, d_signed);
        if (mask >> i & 1) {
            sum += (int64_t)t;
            merged |= (uint32_t)(((uint64_t)t & field) << (width * i));
        } else {
            merged |= (uint32_t)(c & (field << (width * i)));
        }
    }
    return x->secondary == MOD_ADD ? (uint32_t)((int64_t)c + sum) : merged;
}

/* The bits of d a merge writes from the operation (the rest are c's): under d's selector (scalar,
 * no secondary operation) or mask (SIMD without .add); 0 for the other forms. */
static uint64_t merged_field(const XInstr *x)
{
    unsigned lanes = simd_lanes(x->op);
    if (!lanes)
        return x->select[0] && !x->secondary && x->op != OP_VMAD ? selected_bits(x->select[0]) : 0;
    if (x->secondary == MOD_ADD)
        return 0;
    unsigned width = 32 / lanes, mask = simd_mask(x, lanes);
    uint64_t field = 0;
    for (unsigned i = 0; i < lanes; i++)
        if (mask >> i & 1)
            field |= width_mask(width) << (width * i);
    return field;
}

/* The bits of a, b and c a lane's result depends on (of c, for a merge: those it keeps). */
static void needed_bits(const XInstr *x, uint64_t need[3])
{
    unsigned lanes = simd_lanes(x->op);
    need[2] = x->op == OP_VMAD || x->secondary || x->select[0] || lanes ? 0xffffffffu : 0;
    if (merged_field(x))
        need[2] = ~merged_field(x) & 0xffffffffu;
    if (!lanes) {
        need[0] = selected_bits(x->select[1]);
        need[1] = selected_bits(x->select[2]);
        return;
    }
    uint64_t pair = 0, width = 32 / lanes;
    for (unsigned i = 0; i < lanes; i++)
        pair |= width_mask((unsigned)width) << (width * simd_digit(x, lanes, i, false)) |
                width_mask((unsigned)width) << (width * simd_digit(x, lanes, i, true));
    need[0] = pair & 0xffffffffu;
    need[1] = pair >> 32;
}

/* Definedness: a lane's result is defined when the bits it reads are; a merge whose a and b are
 * defined but whose c is not in every bit it keeps gets the merged bits defined and c's kept
 * bits as defined as they were. */
void video_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    if (x->dst_kind != DST_VALUE)
        return;
    uint64_t need[3];
    needed_bits(x, need);
    uint32_t from_ab = mask, defined;
    for (unsigned s = 0; s < 2; s++)
        from_ab &= warp_defined_in(w, x->src[s], mask, need[s]);
    defined = x->src_count > 2 && need[2] ? from_ab & warp_defined_in(w, x->src[2], mask, need[2]) : from_ab;
    uint64_t field = merged_field(x), dbits[WARP_SIZE];
    uint32_t partial = field ? from_ab & ~defined : 0;
    for (uint32_t k = partial; k; k &= k - 1)      /* read before d, which may be c, is written */
        dbits[__builtin_ctz(k)] = field | (warp_dbits(w, x->src[2], __builtin_ctz(k)) & ~field);
    const uint64_t *a = warp_src(w, x->src[0]), *b = warp_src(w, x->src[1]);
    const uint64_t *c = x->src_count > 2 ? warp_src(w, x->src[2]) : a;
    bool is_simd = simd_lanes(x->op) != 0;
    uint64_t *d = w->val[x->dst];
    uint32_t departs = 0, unmeasured = 0;
    for (uint32_t k = mask; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint32_t va = (uint32_t)a[l], vb = (uint32_t)b[l], vc = (uint32_t)c[l];
        if (x->op == OP_VMAD) {
            d[l] = multiply_add(x, va, vb, vc, true);
            departs |= (uint32_t)(d[l] != multiply_add(x, va, vb, vc, false)) << l;
            continue;
        }
        if (is_simd) {
            d[l] = simd(x, va, vb, vc);
            continue;
        }
        bool open;
        uint32_t isa = scalar(x, va, vb, vc, false, &open);
        d[l] = scalar(x, va, vb, vc, true, &open);
        departs |= (uint32_t)(d[l] != isa) << l;
        unmeasured |= (uint32_t)open << l;
    }
    uint32_t pc = (uint32_t)(x - w->prog->code);
    if (departs & defined)
        report_warn(w, pc, departs & defined, x->op == OP_VMAD ? warn_vmad : scalar_warning(x));
    if (unmeasured & defined)
        report_warn(w, pc, unmeasured & defined, warn_video_vshl_sat);
    warp_define(w, x->dst, mask, defined);
    for (; partial; partial &= partial - 1)
        warp_define_bits(w, x->dst, __builtin_ctz(partial), dbits[__builtin_ctz(partial)], 32);
}

/* What lower.c's generic decoding leaves to the video instructions: the sources' types (vset
 * has no destination type), the selectors, the secondary operation apart from vset's compare
 * and vmad's scale, vmad's negations and .po. */
void video_lower(XInstr *x, const Instr *in)
{
    bool compares = is_compare(in->op);
    x->src_type = in->types[compares ? 0 : 1];
    x->src_type2 = in->types[compares ? 1 : 2];
    x->mode = 0;
    for (unsigned i = 0; i < in->mod_count; i++) {
        switch (in->mods[i]) {
        case MOD_ADD: case MOD_MIN: case MOD_MAX: x->secondary = in->mods[i]; break;
        case MOD_EQ: case MOD_NE: case MOD_LT: case MOD_LE: case MOD_GT: case MOD_GE:
        case MOD_SHR7: case MOD_SHR15: x->mode = in->mods[i]; break;
        case MOD_PO: x->plus_one = true; break;
        default: break;
        }
    }
    /* A '-' before a register negates it; before a number it is the number's sign: ptxas 13.0
     * takes "vmad r1, -r2, 5, -9" (a negated product and c would be refused) and ".po" with -9. */
    for (unsigned i = 0; i < in->operand_count && i < 4; i++) {
        const Operand *o = &in->operands[i];
        if (i < 3)
            x->select[i] = o->select;
        if (in->op == OP_VMAD && i > 0 && o->kind == OPND_REG && (o->flags & OPNDF_NEGATIVE))
            x->negate |= (uint8_t)(1u << (i - 1));
    }
}
