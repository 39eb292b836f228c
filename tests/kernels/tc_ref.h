/* tc_ref.h: what the tensor-core references (tc_*.ref.c) share besides ref_common.h: exact
 * f16 encodings of the small dyadic values their inputs are made of.
 *
 * Every tensor-core kernel's inputs are small integers or dyadic values with few significant
 * bits, so each product and every partial sum of every order is exactly representable in the
 * accumulator's type: the C reference's plain sum is then the one exact result, whatever order
 * or grouping the hardware accumulates in. */
#ifndef TC_REF_H
#define TC_REF_H

#include "ref_common.h"

/* The IEEE binary16 bits of v, which must be exactly representable as a normal f16 or 0. */
static inline uint16_t tc_half_bits(double v)
{
    if (v == 0)
        return signbit(v) ? 0x8000 : 0;
    uint16_t sign = v < 0 ? 0x8000 : 0;
    double a = fabs(v);
    int e;
    double m = frexp(a, &e);                 /* a = m * 2^e, m in [0.5, 1) */
    int exp = e - 1 + 15;                    /* biased exponent of 1.xxx * 2^(e-1) */
    double frac = m * 2 - 1;                 /* [0, 1) */
    double scaled = frac * 1024;
    if (exp < 1 || exp > 30 || scaled != floor(scaled)) {
        fprintf(stderr, "tc_half_bits: %g is not an exact normal f16\n", v);
        exit(1);
    }
    return (uint16_t)(sign | (exp << 10) | (uint16_t)scaled);
}

/* The bf16 bits of v (exactly representable). */
static inline uint16_t tc_bf16_bits(float v)
{
    uint32_t u = f2u(v);
    if (u & 0xffff) {
        fprintf(stderr, "tc_bf16_bits: %g is not an exact bf16\n", v);
        exit(1);
    }
    return (uint16_t)(u >> 16);
}

/* a dyadic value n / den with n uniform in [-lim, lim] */
static inline double tc_dyadic(int lim, int den)
{
    return (double)rnd_range(-lim, lim) / den;
}

#endif
