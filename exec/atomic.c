/* atomic.c: atom and red, scalars and vectors. Each lane's read-modify-write is done in turn,
 * lowest lane first; a vector's elements one after another, each its own atomic operation (PTX
 * ISA, atom: "the atomicity is guaranteed separately for each of the individual scalar
 * elements; the entire atom is not guaranteed to be atomic as a single access"). The value
 * arithmetic (atomic_update) is shared with multimem.c. Requires: mem.c (the checked bytes of
 * an access), half.c (f16 and bf16 arithmetic), convert.c (f32 and f64), vbits.c (defined bits),
 * report.c (faults, warnings). */
#include <string.h>

#include "family.h"

static const char warn_f64_two_nans[] =
    "atom/red .add.f64 of two NaNs: the PTX ISA does not say which NaN results; ptxrun gives what "
    "the H100 gives: on .global the operand's NaN unchanged, on .shared the one in memory, quieted";
static const char warn_f64_snan[] =
    "atom/red .add.f64 on .global memory with a signalling NaN: the PTX ISA does not say what it "
    "gives; ptxrun gives what the H100 gives, the NaN unchanged and still signalling (on .shared "
    "it is quieted)";

static const char warn_half_nan[] =
    "atom/red .min/.max of f16 or bf16 with a NaN operand: the PTX ISA does not say what it gives; "
    "ptxrun gives what min/max.f16 and .bf16 give (the other operand; two NaNs: the canonical NaN)";

/* .add.noftz, .min.noftz or .max.noftz of f16, bf16 or a packed pair of them: each 16-bit half
 * on its own, as add.rn, min and max of halves do (half.c): rounded once to nearest even,
 * subnormals kept, a NaN result the canonical one. *nan_choice: a min/max met a NaN. */
static uint64_t half_update(int mode, int type, uint64_t old, uint64_t b, bool *nan_choice)
{
    int half = type == TYPE_F16 || type == TYPE_F16X2 ? TYPE_F16 : TYPE_BF16;
    int op = mode == MOD_MIN ? OP_MIN : mode == MOD_MAX ? OP_MAX : OP_ADD;
    unsigned bits = type_info[type].bits;
    uint64_t r = 0;
    for (unsigned i = 0; i < bits; i += 16) {
        uint32_t x = (uint32_t)(old >> i) & 0xffff, y = (uint32_t)(b >> i) & 0xffff;
        if (op != OP_ADD && (half_is_nan(x, half) || half_is_nan(y, half)))
            *nan_choice = true;
        r |= (uint64_t)half_op(op, half, 0, x, y, 0) << i;
    }
    return r;
}

static bool f64_is_nan(uint64_t v)
{
    return (v & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

/* One atomic update of old with b (and c for cas); returns the new value. global: the address
 * is in .global memory (atom/red's; multimem passes false). There an f32 add flushes subnormal
 * inputs and result to zero of the same sign, as the PTX ISA says of the current implementation;
 * on shared memory it keeps them. A NaN result of an f64 add is the H100's
 * (tests/h100_more/cases/{atom,red}_{global,shared}_add_f64{,_nan2}): the input NaN with its
 * sign and payload, quieted on .shared and left as it is on .global; when both are NaNs, the
 * operand's on .global and the memory value's on .shared; an invalid sum (inf + -inf)
 * 0xfff8000000000000. */
uint64_t atomic_update(const XInstr *x, uint64_t old, uint64_t b, uint64_t c, bool global, bool *nan_choice)
{
    unsigned bits = x->bits;
    uint64_t m = width_mask(bits);
    bool is_signed = x->cls == 's';
    int64_t so = (int64_t)(old << (64 - bits)) >> (64 - bits), sb = (int64_t)(b << (64 - bits)) >> (64 - bits);
    if (x->cls == 'f') {                      /* add.f32, add.f64; add, min, max of halves */
        if (x->type != TYPE_F32 && x->type != TYPE_F64)
            return half_update(x->mode, x->type, old, b, nan_choice);
        if (bits == 32)                       /* in double, rounded to f32: as if rounded once */
            return float_to_bits(float_from_bits(old, 32, global) + float_from_bits(b, 32, global), 32, global);
        double dof, dbf;
        memcpy(&dof, &old, 8);
        memcpy(&dbf, &b, 8);
        double r = dof + dbf;
        uint64_t br;
        memcpy(&br, &r, 8);
        if (r == r)
            return br;
        if (global)
            return f64_is_nan(b) ? b : f64_is_nan(old) ? old : 0xfff8000000000000ull;
        return (f64_is_nan(old) ? old : f64_is_nan(b) ? b : 0xfff8000000000000ull) | 1ull << 51;
    }
    switch (x->mode) {
    case MOD_ADD: return (old + b) & m;
    case MOD_AND: return old & b & m;
    case MOD_OR: return (old | b) & m;
    case MOD_XOR: return (old ^ b) & m;
    case MOD_EXCH: return b & m;
    case MOD_CAS: return (old & m) == (b & m) ? c & m : old;
    case MOD_MIN: return is_signed ? (sb < so ? b : old) & m : ((b & m) < (old & m) ? b : old) & m;
    case MOD_MAX: return is_signed ? (sb > so ? b : old) & m : ((b & m) > (old & m) ? b : old) & m;
    case MOD_INC: return (old & m) >= (b & m) ? 0 : (old + 1) & m;
    case MOD_DEC: return ((old & m) == 0 || (old & m) > (b & m)) ? b & m : (old - 1) & m;
    default: BUG("atomic %d", x->mode);
    }
}

/* The defined bits of an atomic's new value (docs/semantics.md, "Undefined values"): and, or
 * and xor bit by bit as their ALU forms (cooperative groups' barriers in the reserved .shared
 * bytes clear and set single bits of words whose other bits are undefined); exch b's; the
 * others every bit when every input bit is defined, else none. */
uint64_t atomic_defined_bits(const XInstr *x, uint64_t old, uint64_t old_bits, uint64_t b, uint64_t b_bits,
                             uint64_t c_bits)
{
    uint64_t m = width_mask(x->bits);
    if (x->cls != 'f') {
        switch (x->mode) {
        case MOD_AND: return vbits_binary(KOP_AND, old, old_bits, b, b_bits, x->bits);
        case MOD_OR: return vbits_binary(KOP_OR, old, old_bits, b, b_bits, x->bits);
        case MOD_XOR: return vbits_binary(KOP_XOR, old, old_bits, b, b_bits, x->bits);
        case MOD_EXCH: return b_bits & m;
        default: break;
        }
    }
    return (old_bits & m) == m && (b_bits & m) == m && (c_bits & m) == m ? m : 0;
}

/* atom/red: each lane's read-modify-write in turn, lowest lane first (ptxrun's order; the
 * GPU's is unspecified, so the final memory value is the same and atom's d follows it). A
 * vector must lie in .global memory, aligned to its whole size (PTX ISA, atom; Addresses as
 * Operands); its element e is at address + e * size. */
void atomic_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    w->spin_read = true;                    /* a loop that reads memory may spin on it (spin.c) */
    unsigned size = x->bits / 8, n = x->elements;
    uint32_t pc = (uint32_t)(x - w->prog->code), nan_lanes = 0, two_nan_lanes = 0, snan_lanes = 0;
    if (!mem_address_defined(w, x, mask, pc))
        return;
    for (uint32_t k = mask; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint8_t *shadow;
        uint64_t address = mem_lane_address(w, x, l), in_space;
        int space = x->space == SPACE_NONE ? mem_space_of(address, &in_space) : x->space;
        if (space != SPACE_GLOBAL && (space != SPACE_SHARED || n > 1)) {
            report_fault(w, pc, "lane %d (pc %u): '%s' on a %s address (0x%llx): %s", l, pc, x->ir->mnemonic,
                         mem_space_name(space), (unsigned long long)address,
                         n > 1 ? "vector atomics are defined on .global memory only"
                               : "atomics are defined on .global and .shared memory only");
            return;
        }
        uint8_t *p = mem_locate(w, x, l, address, size * n, true, &shadow);
        if (!p)
            return;
        if (x->bits == 128) {                /* atom.cas/.exch.b128 (atom128.c) */
            atom128_lane(w, x, l, p, shadow);
            continue;
        }
        /* Every source of the lane is read before any destination is written: d's elements may
         * name b's registers in another order ({%f3,%f2,%f1,%f0} and {%f0,%f1,%f2,%f3}). */
        bool cas = n == 1 && x->vec_count > 1;
        uint64_t bs[VEC_MAX], bs_bits[VEC_MAX];
        for (unsigned e = 0; e < n; e++) {
            bs[e] = warp_src(w, x->vec[e])[l];
            bs_bits[e] = warp_dbits(w, x->vec[e], l);
        }
        uint64_t c = cas ? warp_src(w, x->vec[1])[l] : 0, c_bits = cas ? warp_dbits(w, x->vec[1], l) : ~0ull;
        for (unsigned e = 0; e < n; e++, p += size, shadow += size) {
            uint64_t old = mem_read_bytes(p, size), old_bits = mem_read_bytes(shadow, size);
            uint64_t b = bs[e], b_bits = bs_bits[e];
            bool nan_choice = false;
            mem_put(&w->block->mem, p, shadow, atomic_update(x, old, b, c, space == SPACE_GLOBAL, &nan_choice),
                    atomic_defined_bits(x, old, old_bits, b, b_bits, c_bits), size);
            bool defined = (old_bits & b_bits & width_mask(x->bits)) == width_mask(x->bits);
            if (nan_choice && defined)
                nan_lanes |= 1u << l;
            if (x->cls == 'f' && x->type == TYPE_F64 && defined) {
                if (f64_is_nan(old) && f64_is_nan(b) && (old | 1ull << 51) != (b | 1ull << 51))
                    two_nan_lanes |= 1u << l;
                uint64_t nan_in = f64_is_nan(b) ? b : old;      /* .global: the operand's first */
                if (space == SPACE_GLOBAL && f64_is_nan(nan_in) && !(nan_in & 1ull << 51))
                    snan_lanes |= 1u << l;
            }
            uint32_t d = n > 1 ? x->dsts[e] : x->dst_kind == DST_VALUE ? x->dst : NO_SLOT;
            if (d != NO_SLOT) {
                w->val[d][l] = old;
                warp_define_bits(w, d, l, old_bits, x->bits);
            }
        }
    }
    if (nan_lanes)
        report_warn(w, pc, nan_lanes, warn_half_nan);
    if (two_nan_lanes)
        report_warn(w, pc, two_nan_lanes, warn_f64_two_nans);
    if (snan_lanes)
        report_warn(w, pc, snan_lanes, warn_f64_snan);
}
