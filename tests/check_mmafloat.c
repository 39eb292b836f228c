/* check_mmafloat.c: the f16 / bf16 / tf32 tensor-core arithmetic (exec/mmafloat.c), one rule per
 * test, each expected value worked out by hand in its comment from the rule the H100 data shows
 * (../shared/hw/mma, scripts/mma_float_model.py): terms aligned to the largest exponent-field sum,
 * truncated 25 bits below it, added exactly, rounded once (f32 toward zero, f16 to nearest);
 * and where IEEE or another plausible model would give something else, that value is named. */
#include "testutil.h"

static const MmaForm f32_f16_k8 = { 16, 8, 8, MT_F16, MT_F16, MT_F32, MT_F32, 2, 1, 4, 4, 0, 0 };
static const MmaForm f16_f16_k8 = { 16, 8, 8, MT_F16, MT_F16, MT_F16, MT_F16, 2, 1, 2, 2, 0, 0 };
static const MmaForm f32_f16_k16 = { 16, 8, 16, MT_F16, MT_F16, MT_F32, MT_F32, 4, 2, 4, 4, 0, 0 };
static const MmaForm f32_bf16_k8 = { 16, 8, 8, MT_BF16, MT_BF16, MT_F32, MT_F32, 2, 1, 4, 4, 0, 0 };
static const MmaForm f32_tf32_k4 = { 16, 8, 4, MT_TF32, MT_TF32, MT_F32, MT_F32, 2, 1, 4, 4, 0, 0 };

/* D of a = {a0, a1, 0...}, b = {b0, b1, 0...} (zeros elsewhere) and c. */
static uint64_t dot2(const MmaForm *f, uint64_t a0, uint64_t b0, uint64_t a1, uint64_t b1, uint64_t c)
{
    uint64_t a[16] = { a0, a1 }, b[16] = { b0, b1 };
    return mmaf_dot(f, a, b, c, NULL);
}

/* Sixteen products 1 * 1 and C = 0.5: 16.5 exactly (0x41840000). */
START_TEST(exact_sums_stay_exact)
{
    uint64_t a[16], b[16];
    for (unsigned i = 0; i < 16; i++)
        a[i] = 0x3c00, b[i] = 0x3c00;
    ck_assert_uint_eq(mmaf_dot(&f32_f16_k16, a, b, 0x3f000000, NULL), 0x41840000);
}
END_TEST

/* C = 1 and the product 2^-12 * 1.5*2^-12 = 0.75 ulp of 1: f32 toward zero keeps 1 (0x3f800000;
 * to nearest would give 0x3f800001). C = 1 and -2^-13 * 2^-13 = -2^-26: the term is below 2^-25
 * (25 bits under C's exponent 0) and is truncated away: 1 (the exact 1 - 2^-26 toward zero would be
 * 0x3f7fffff). */
START_TEST(rounds_toward_zero_after_truncating_terms)
{
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x0c00, 0x0e00, 0, 0, 0x3f800000), 0x3f800000);
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x8800, 0x0800, 0, 0, 0x3f800000), 0x3f800000);
}
END_TEST

/* 1.5 * 1.5 - 1.5 * 1.5 + 2^-25: the products' exponent sum is 0 (not 1, their own exponent),
 * so C = 2^-25 stays (25 bits below 0) and D = 2^-25 (0x33000000); aligned at 1 it would be
 * truncated away, giving +0. */
START_TEST(aligns_to_the_exponent_sum)
{
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x3e00, 0x3e00, 0xbe00, 0x3e00, 0x33000000), 0x33000000);
}
END_TEST

/* A subnormal aligns by the smallest exponent: 2^-24 (f16 0x0001) * 1 aligns at -14, so C =
 * 2^-46 is under 2^-39 and truncated: D = 2^-24 (0x33800000); aligned at -24 it would stay:
 * 0x33800002. */
START_TEST(subnormals_align_by_the_smallest_exponent)
{
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x0001, 0x3c00, 0, 0, 0x28800000), 0x33800000);
}
END_TEST

/* f32 subnormal results, toward zero: bf16 2^-126 * 0.5 = 2^-127 (0x00400000); 1.5*2^-126 *
 * 2^-24 = 0.75 * 2^-149 becomes +0, its negative -0. */
START_TEST(subnormal_results)
{
    ck_assert_uint_eq(dot2(&f32_bf16_k8, 0x0080, 0x3f00, 0, 0, 0), 0x00400000);
    ck_assert_uint_eq(dot2(&f32_bf16_k8, 0x00c0, 0x3380, 0, 0, 0), 0);
    ck_assert_uint_eq(dot2(&f32_bf16_k8, 0x80c0, 0x3380, 0, 0, 0), 0x80000000);
}
END_TEST

/* f16 D: to nearest even from the truncated sum. 1 + 1.5*2^-11 (0.75 ulp): 0x3c01 (toward zero
 * 0x3c00); 1 + 2^-11 (a tie): 0x3c00; 1 + 3 * 2^-11 (1.5 ulp, a tie): 0x3c02. */
START_TEST(f16_results_round_to_nearest_even)
{
    ck_assert_uint_eq(dot2(&f16_f16_k8, 0x1200, 0x3c00, 0, 0, 0x3c00), 0x3c01);
    ck_assert_uint_eq(dot2(&f16_f16_k8, 0x1000, 0x3c00, 0, 0, 0x3c00), 0x3c00);
    ck_assert_uint_eq(dot2(&f16_f16_k8, 0x1000, 0x3c00, 0x1400, 0x3c00, 0x3c00), 0x3c02);
    /* 65504 + 65504 (f16's largest, twice) overflows to inf */
    ck_assert_uint_eq(dot2(&f16_f16_k8, 0x7bff, 0x3c00, 0, 0, 0x7bff), 0x7c00);
}
END_TEST

/* tf32 drops an operand's low 13 bits: 0x3f803000 is read as 0x3f802000 (rounding it to tf32
 * would give 0x3f804000). Past the f32 range (tf32's largest * 2): inf, not f32's largest
 * although the rounding is toward zero, as the H100 gave it (mma_f32_tf32_k4_024). */
START_TEST(tf32_truncates_operands_and_overflows_to_inf)
{
    ck_assert_uint_eq(dot2(&f32_tf32_k4, 0x3f803000, 0x3f800000, 0, 0, 0), 0x3f802000);
    ck_assert_uint_eq(dot2(&f32_tf32_k4, 0x7f7fe000, 0x40000000, 0, 0, 0), 0x7f800000);
    ck_assert_uint_eq(dot2(&f32_tf32_k4, 0x7f7fe000, 0xc0000000, 0, 0, 0), 0xff800000);
}
END_TEST

/* Special values: NaN anywhere, inf * 0 and +inf - inf give the canonical NaN; an infinite
 * product or C gives infinity of its sign. */
START_TEST(specials)
{
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x7e01, 0x3c00, 0, 0, 0), 0x7fffffff);
    ck_assert_uint_eq(dot2(&f16_f16_k8, 0x3c00, 0x3c00, 0, 0, 0xfd00), 0x7fff);
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x7c00, 0x0000, 0, 0, 0), 0x7fffffff);
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x7c00, 0x3c00, 0, 0, 0xff800000), 0x7fffffff);
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x7c00, 0xbc00, 0, 0, 0x3f800000), 0xff800000);
    ck_assert_uint_eq(dot2(&f16_f16_k8, 0x3c00, 0x3c00, 0, 0, 0x7c00), 0x7c00);
}
END_TEST

/* Zero sums are +0: 1 - 1 + 0, and only zeros with C = -0. */
START_TEST(zero_sums_are_plus_zero)
{
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x3c00, 0x3c00, 0xbc00, 0x3c00, 0), 0);
    ck_assert_uint_eq(dot2(&f32_f16_k8, 0x8000, 0x3c00, 0, 0, 0x80000000), 0);
}
END_TEST

/* D of dot2's operands, and whether mmaf_dot says another unrecorded choice gives other bits. */
static uint64_t dot2u(const MmaForm *f, uint64_t a0, uint64_t b0, uint64_t a1, uint64_t b1, uint64_t c, bool *u)
{
    uint64_t a[16] = { a0, a1 }, b[16] = { b0, b1 };
    *u = false;
    return mmaf_dot(f, a, b, c, u);
}

/* The cases no recording decides are named. Every product -0 (-0 * 0) and C = -0: ptxrun +0,
 * IEEE's sum -0; with C = +0 or a +0 product there is no other answer. */
START_TEST(negative_zeros_only_are_unrecorded)
{
    uint64_t a[8], b[8];
    bool u = false;
    for (unsigned i = 0; i < 8; i++)
        a[i] = 0x8000, b[i] = 0;
    ck_assert_uint_eq(mmaf_dot(&f32_f16_k8, a, b, 0x80000000, &u), 0);
    ck_assert(u);
    u = false;
    ck_assert_uint_eq(mmaf_dot(&f32_f16_k8, a, b, 0, &u), 0);
    ck_assert(!u);
    ck_assert_uint_eq(dot2u(&f32_f16_k8, 0x8000, 0, 0, 0, 0x80000000, &u), 0);   /* 0 * 0 products: +0 */
    ck_assert(!u);
}
END_TEST

/* f16 C = 2^-24 (subnormal), products 2^-12 * 2^-13 = 2^-25 and -2^-24 * 2^-24 = -2^-48. C aligned
 * at -14 (ptxrun): the top is -14, -2^-48 is under 2^-39 and dropped, the sum 1.5 * 2^-24 is a tie
 * of f16's subnormal grid, to even: 2^-23 (0x0002). C aligned by its leading bit (-24, as an f32 C
 * would be; Khattak and Mikaitis's model): -2^-48 stays, the sum is under the tie: 0x0001. */
START_TEST(subnormal_f16_c_is_unrecorded)
{
    bool u;
    ck_assert_uint_eq(dot2u(&f16_f16_k8, 0x0c00, 0x0800, 0x8001, 0x0001, 0x0001, &u), 0x0002);
    ck_assert(u);
    ck_assert_uint_eq(dot2u(&f16_f16_k8, 0x0c00, 0x0800, 0, 0, 0x0001, &u), 0x0002);   /* no -2^-48 */
    ck_assert(!u);
}
END_TEST

/* bf16 2^-70 * 2^-70 = 2^-140 and -2^-80 * 2^-80 = -2^-160, C = 0: aligned at -140 both stay; the
 * sum 2^-140 - 2^-160 toward zero on f32's subnormal grid (2^-149) is 511 * 2^-149 (0x1ff). With
 * the alignment exponent raised to -133 (Khattak and Mikaitis's H100 model) -2^-160 is under
 * 2^-158 and dropped: 2^-140 (0x200). */
START_TEST(terms_below_the_floor_are_unrecorded)
{
    bool u;
    ck_assert_uint_eq(dot2u(&f32_bf16_k8, 0x1c80, 0x1c80, 0x9780, 0x1780, 0, &u), 0x1ff);
    ck_assert(u);
    ck_assert_uint_eq(dot2u(&f32_bf16_k8, 0x1c80, 0x1c80, 0, 0, 0, &u), 0x200);
    ck_assert(!u);
}
END_TEST

/* f16 C = 1, products 2^-11 * 1 and 2^-12 * 2^-12: the sum 1 + 2^-11 + 2^-24 is above the tie
 * between 1 and 1 + 2^-10, so to nearest: 0x3c01; first toward zero to f32 (ulp 2^-23) it would
 * be the tie 1 + 2^-11, to even: 0x3c00. Without the 2^-24 both give 0x3c00. */
START_TEST(f16_d_beyond_f32_precision_is_unrecorded)
{
    bool u;
    ck_assert_uint_eq(dot2u(&f16_f16_k8, 0x1000, 0x3c00, 0x0c00, 0x0c00, 0x3c00, &u), 0x3c01);
    ck_assert(u);
    ck_assert_uint_eq(dot2u(&f16_f16_k8, 0x1000, 0x3c00, 0, 0, 0x3c00, &u), 0x3c00);
    ck_assert(!u);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mmafloat");
    TCase *tc = tcase_create("mmafloat");
    tcase_add_test(tc, exact_sums_stay_exact);
    tcase_add_test(tc, rounds_toward_zero_after_truncating_terms);
    tcase_add_test(tc, aligns_to_the_exponent_sum);
    tcase_add_test(tc, subnormals_align_by_the_smallest_exponent);
    tcase_add_test(tc, subnormal_results);
    tcase_add_test(tc, f16_results_round_to_nearest_even);
    tcase_add_test(tc, tf32_truncates_operands_and_overflows_to_inf);
    tcase_add_test(tc, specials);
    tcase_add_test(tc, zero_sums_are_plus_zero);
    tcase_add_test(tc, negative_zeros_only_are_unrecorded);
    tcase_add_test(tc, subnormal_f16_c_is_unrecorded);
    tcase_add_test(tc, terms_below_the_floor_are_unrecorded);
    tcase_add_test(tc, f16_d_beyond_f32_precision_is_unrecorded);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
