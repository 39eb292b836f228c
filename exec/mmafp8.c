/* mmafp8.c: mma with fp8 (.e4m3, .e5m2) A and B on sm_90, one D element as the H100 gives it.
 * The H100's mma.sync has no fp8 tensor-core instruction: ptxas 13.0 (-arch=sm_90) turns each
 * fp8 mma into f16 tensor-core code, and that is what is computed here, step by step:
 *   1. every fp8 element becomes the f16 of the same value (F2FP; exact: e4m3's range and
 *      precision fit in f16, e5m2 is f16's top byte), each 32-bit register of four giving two
 *      f16x2: its low half (k = 4t, 4t+1 of the row or column) and its high half (4t+2, 4t+3);
 *   2. a first HMMA (m16n8k16 for k32, m16n8k8 for k16) over the low halves, those k with
 *      k % 4 < 2, from a zero accumulator; a second over the high halves, k % 4 >= 2, that
 *      accumulates the first's result (both with the tensor core's f16 arithmetic: mmafloat.c,
 *      to f32 for f32 C/D, to f16 for f16 C/D);
 *   3. C added last: FADD (f32, to nearest even) or HADD2 (f16, to nearest even).
 * The sequence is ptxas's own (its sm_90 code for each of the 16 forms: F2FP.*.UNPACK_B low
 * halves to the first HMMA, high halves to the second, then FADD / HADD2 with C); the rule
 * reproduces all 11,520 recorded outputs of m16n8k32 .f32.e4m3.e4m3.f32 and .f32.e5m2.e5m2.f32
 * in ../shared/hw/mma (scripts/mma_fp8_model.py; docs/semantics.md, "mma", "fp8"). The other 14
 * forms (mixed A/B types, f16 C/D, m16n8k16) are not recorded: mma.c warns when one runs.
 * Requires: an MmaForm of fp8 A and B, m16n8k32 or m16n8k16, C and D both f32 or both f16. */
#include <math.h>
#include <string.h>

#include "family.h"
#include "tensor.h"

/* An fp8 element's value as f16 bits (exact; an e4m3 NaN, 0x7f or 0xff, is f16's NaN). */
static uint64_t mma8_to_f16(uint64_t raw, unsigned type)
{
    uint32_t x = (uint32_t)raw & 0xff, sign = (x & 0x80) << 8;
    if (type == MT_E5M2)
        return (uint64_t)x << 8;                     /* f16's sign, exponent and top 2 fraction bits */
    uint32_t e = x >> 3 & 15, m = x & 7;
    if (e == 15 && m == 7)
        return 0x7fff;                               /* e4m3 has no infinity; this is its NaN */
    if (e == 0) {
        if (m == 0)
            return sign;
        unsigned p = m >= 4 ? 2 : m >= 2 ? 1 : 0;   /* the leading bit: m * 2^-9 = 1.f * 2^(p - 9) */
        return sign | (p + 6) << 10 | (m - (1u << p)) << (10 - p);
    }
    return sign | (e + 8) << 10 | m << 7;           /* bias 7 -> 15; 3 fraction bits -> 10 */
}

/* f32 bits a + b rounded to nearest even (FADD): IEEE, subnormals kept, NaN canonical. */
static uint64_t mma8_fadd(uint64_t a, uint64_t b)
{
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b, ur;
    float fa, fb, fr;
    memcpy(&fa, &ua, sizeof fa);
    memcpy(&fb, &ub, sizeof fb);
    fr = fa + fb;                                    /* C11 float: the host's IEEE binary32 sum */
    if (isnan(fr))
        return 0x7fffffff;
    memcpy(&ur, &fr, sizeof ur);
    return ur;
}

bool mma8_recorded(const MmaForm *f)
{
    return f->m == 16 && f->k == 32 && f->a == f->b && f->c == MT_F32 && f->d == MT_F32;
}

void mma8_terms(unsigned type, const uint64_t *raw, unsigned k, MmafTerm *out)
{
    uint64_t half[2][16];
    unsigned n[2] = { 0, 0 };
    for (unsigned i = 0; i < k && i < 32; i++) {
        unsigned h = (i & 3) >= 2;               /* the register's low or high f16x2 */
        half[h][n[h]++] = mma8_to_f16(raw[i], type);
    }
    mmaf_terms(MT_F16, half[0], n[0], out);
    mmaf_terms(MT_F16, half[1], n[1], out + n[0]);
}

uint64_t mma8_dot_terms(const MmaForm *f, const MmafTerm *x, const MmafTerm *y, uint64_t c)
{
    /* The HMMA ptxas uses: m16n8k16 (k32) or m16n8k8 (k16), f16 A and B, C and D as f's. */
    unsigned k = f->k / 2;
    MmaForm h = { .m = 16, .n = 8, .k = (uint16_t)k, .a = MT_F16, .b = MT_F16, .c = f->c, .d = f->d };
    uint64_t d1 = mmaf_dot_terms(&h, x, y, 0, NULL);       /* zero accumulator (RZ) */
    uint64_t d2 = mmaf_dot_terms(&h, x + k, y + k, d1, NULL);
    if (f->d == MT_F16)
        return half_op(OP_ADD, TYPE_F16, 0, (uint32_t)d2, (uint32_t)c, 0);    /* HADD2 */
    return mma8_fadd(d2, c);
}

uint64_t mma8_dot(const MmaForm *f, const uint64_t *a, const uint64_t *b, uint64_t c)
{
    MmafTerm x[32], y[32];
    mma8_terms(f->a, a, f->k, x);
    mma8_terms(f->b, b, f->k, y);
    return mma8_dot_terms(f, x, y, c);
}
