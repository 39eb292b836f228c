/* multimem.c: multimem.ld_reduce, multimem.st and multimem.red. A multimem address names one
 * place in every copy of a multicast object (CUDA's multicast memory: a buffer on several GPUs
 * at one address). ptxrun runs one GPU, so a multicast object is a lanes-file buffer with
 * "replicas": K, held as K regions (mem.c); the copies stand for the K GPUs' memory.
 * ld_reduce reads the address in every copy and reduces the values, copy 0 first; st writes b
 * to every copy; red reduces every copy with b. Each lane in turn, lowest first; a vector's
 * elements one after another. Requires: mem.c (the copies' bytes), atomic.c (the arithmetic of
 * add, min, max, and, or, xor), half.c and convert.c (f16, bf16, f32, f64), report.c. */
#include <math.h>
#include <string.h>

#include "family.h"

static const char warn_order[] =
    "multimem.ld_reduce.add of floats over three or more copies rounded a partial sum: the PTX ISA "
    "does not give the order of the copies; ptxrun adds copy 0, then 1, 2, ...";
static const char warn_half_nan[] =
    "multimem .min/.max of f16 or bf16 with a NaN: the PTX ISA does not say what it gives; ptxrun gives "
    "what min/max.f16 and .bf16 give (the other operand; two NaNs: the canonical NaN)";

/* A float's value (one 16-bit half of a packed pair: half h), exactly, as a double. */
static double decoded(int type, uint64_t bits, unsigned h)
{
    switch (type) {
    case TYPE_F16: case TYPE_F16X2: return half_decode((uint32_t)(bits >> (16 * h)) & 0xffff, TYPE_F16);
    case TYPE_BF16: case TYPE_BF16X2: return half_decode((uint32_t)(bits >> (16 * h)) & 0xffff, TYPE_BF16);
    case TYPE_F32: return float_from_bits(bits, 32, false);
    default: {
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    }
}

/* Whether r, the rounded sum of a and b, is their exact sum (Knuth's two-sum: no error). */
static bool exact_sum(double a, double b, double r)
{
    if (!isfinite(a) || !isfinite(b) || !isfinite(r))
        return true;                       /* infinities and NaNs: nothing rounded away */
    double s = a + b, bb = s - a, e = (a - (s - bb)) + (b - bb);
    return e == 0 && s == r;
}

/* An .f32 add meeting a subnormal input or result: red.add.f32 on .global memory flushes them
 * (PTX ISA, red); the multimem page says nothing: ptxrun keeps them, with a warning. */
static bool f32_add_subnormal(const XInstr *x, uint64_t a, uint64_t b, uint64_t r)
{
    if (x->type != TYPE_F32 || x->mode != MOD_ADD)
        return false;
    uint64_t v[3] = { a, b, r };
    for (unsigned i = 0; i < 3; i++)
        if (((uint32_t)v[i] & 0x7f800000u) == 0 && ((uint32_t)v[i] & 0x7fffffu) != 0)
            return true;
    return false;
}

static const char warn_subnormal[] =
    "multimem .add.f32 with a subnormal input or result: the PTX ISA does not say whether it is flushed to "
    "zero, as red.add.f32 on .global memory is: ptxrun keeps it";

/* acc combined with v by x's operation, in x's type; *inexact when a float add rounded. */
static uint64_t combine(const XInstr *x, uint64_t acc, uint64_t v, bool *inexact, bool *nan_choice)
{
    uint64_t r = atomic_update(x, acc, v, 0, false, nan_choice);
    if (x->cls == 'f' && x->mode == MOD_ADD) {
        unsigned halves = x->type == TYPE_F16X2 || x->type == TYPE_BF16X2 ? 2 : 1;
        for (unsigned h = 0; h < halves; h++)
            if (!exact_sum(decoded(x->type, acc, h), decoded(x->type, v, h), decoded(x->type, r, h)))
                *inexact = true;
    }
    return r;
}

/* ld_reduce.add.acc::f32 of halves: each 16-bit half of the copies summed in f32 (each partial
 * sum rounded to f32, to nearest even), the sum then rounded to the half's format. */
static uint64_t sum_in_f32(const XInstr *x, uint8_t *const *data, unsigned copies, unsigned size, bool *inexact)
{
    int half = x->type == TYPE_F16 || x->type == TYPE_F16X2 ? TYPE_F16 : TYPE_BF16;
    uint64_t r = 0;
    for (unsigned h = 0; h < size / 2; h++) {
        double acc = decoded(x->type, mem_read_bytes(data[0], size), h);
        for (unsigned i = 1; i < copies; i++) {
            double v = decoded(x->type, mem_read_bytes(data[i], size), h);
            double s = float_from_bits(float_to_bits(acc + v, 32, false), 32, false);
            *inexact |= !exact_sum(acc, v, s);
            acc = s;
        }
        r |= (uint64_t)half_encode(acc, half, MOD_RN, false) << (16 * h);
    }
    return r;
}

/* One lane's ld_reduce of element e: into d, defined where every copy is (and, or, xor: bit by
 * bit, as atom's). */
static void load_reduce(Warp *w, const XInstr *x, int l, unsigned e, uint8_t *const *data, uint8_t *const *shadow,
                        unsigned copies, bool *inexact, bool *nan_choice, bool *subnormal)
{
    unsigned size = x->bits / 8;
    uint8_t *at[MEM_MAX_REPLICAS];
    for (unsigned i = 0; i < copies; i++)
        at[i] = data[i] + e * size;
    uint64_t acc = mem_read_bytes(at[0], size), acc_bits = mem_read_bytes(shadow[0] + e * size, size);
    bool f32_sum = x->acc_f32 && x->mode == MOD_ADD, rounded = false;
    for (unsigned i = 1; i < copies; i++) {
        uint64_t v = mem_read_bytes(at[i], size), v_bits = mem_read_bytes(shadow[i] + e * size, size);
        acc_bits = atomic_defined_bits(x, acc, acc_bits, v, v_bits, ~0ull);
        uint64_t sum = f32_sum ? acc : combine(x, acc, v, &rounded, nan_choice);
        *subnormal |= f32_add_subnormal(x, acc, v, sum);
        acc = sum;
    }
    if (f32_sum)
        acc = sum_in_f32(x, at, copies, size, &rounded);
    *inexact |= rounded && copies > 2;         /* two copies: a + b is b + a */
    uint32_t d = x->elements > 1 ? x->dsts[e] : x->dst_kind == DST_VALUE ? x->dst : NO_SLOT;
    if (d != NO_SLOT) {
        w->val[d][l] = acc;
        warp_define_bits(w, d, l, acc_bits, x->bits);
    }
}

void multimem_execute(Warp *w, const XInstr *x, uint32_t mask)
{
    w->spin_read = true;                    /* a loop that reads memory may spin on it (spin.c) */
    unsigned size = x->bits / 8, n = x->elements;
    uint32_t pc = (uint32_t)(x - w->prog->code), order_lanes = 0, nan_lanes = 0, subnormal_lanes = 0;
    if (!mem_address_defined(w, x, mask, pc))
        return;
    for (uint32_t k = mask; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint8_t *data[MEM_MAX_REPLICAS], *shadow[MEM_MAX_REPLICAS];
        unsigned copies = mem_locate_copies(w, x, l, mem_lane_address(w, x, l), size * n, data, shadow);
        if (!copies)
            return;
        bool inexact = false, nan_choice = false, subnormal = false;
        for (unsigned e = 0; e < n; e++) {
            if (x->op == OP_MULTIMEM_LD_REDUCE) {
                load_reduce(w, x, l, e, data, shadow, copies, &inexact, &nan_choice, &subnormal);
                continue;
            }
            uint64_t b = warp_src(w, x->vec[e])[l], b_bits = warp_dbits(w, x->vec[e], l);
            for (unsigned i = 0; i < copies; i++) {
                uint8_t *p = data[i] + e * size, *s = shadow[i] + e * size;
                if (x->op == OP_MULTIMEM_ST) {
                    mem_put(&w->block->mem, p, s, b, b_bits, size);
                    continue;
                }
                uint64_t old = mem_read_bytes(p, size), old_bits = mem_read_bytes(s, size);
                uint64_t updated = atomic_update(x, old, b, 0, false, &nan_choice);
                subnormal |= f32_add_subnormal(x, old, b, updated);
                mem_put(&w->block->mem, p, s, updated, atomic_defined_bits(x, old, old_bits, b, b_bits, ~0ull), size);
            }
        }
        order_lanes |= (uint32_t)inexact << l;
        nan_lanes |= (uint32_t)nan_choice << l;
        subnormal_lanes |= (uint32_t)subnormal << l;
    }
    if (subnormal_lanes)
        report_warn(w, pc, subnormal_lanes, warn_subnormal);
    if (order_lanes)
        report_warn(w, pc, order_lanes, warn_order);
    if (nan_lanes)
        report_warn(w, pc, nan_lanes, warn_half_nan);
}
