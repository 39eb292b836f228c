/* check_mma884.c: mma.m8n8k4 .f16 (exec/mma884.c). The fragment layouts lane by lane against the
 * PTX ISA's figures 46-52 ("Matrix Fragments for mma.m8n8k4 with .f16 floating point type"),
 * written here as the figures draw them for MMA computation 1 (lanes 0-3 and 16-19), then for
 * every pair by the ISA's formulas in its own words, each element of each pair's A, B, C held once;
 * and mma884_dot on values worked by hand where the order of its f32 steps shows. */
#include "testutil.h"

/* Figures 46-50 for MMA computation 1: the lane holding each element of the 8x8 (or 8x4, 4x8)
 * matrix, and which of its elements it is ("T16:a2" is lane 16's a2), row by row. */
static const char *const fig_a_row[8] = { "T0:a0 T0:a1 T0:a2 T0:a3", "T1:a0 T1:a1 T1:a2 T1:a3",
    "T2:a0 T2:a1 T2:a2 T2:a3", "T3:a0 T3:a1 T3:a2 T3:a3", "T16:a0 T16:a1 T16:a2 T16:a3",
    "T17:a0 T17:a1 T17:a2 T17:a3", "T18:a0 T18:a1 T18:a2 T18:a3", "T19:a0 T19:a1 T19:a2 T19:a3" };
static const char *const fig_a_col[8] = { "T0:a0 T1:a0 T2:a0 T3:a0", "T0:a1 T1:a1 T2:a1 T3:a1",
    "T0:a2 T1:a2 T2:a2 T3:a2", "T0:a3 T1:a3 T2:a3 T3:a3", "T16:a0 T17:a0 T18:a0 T19:a0",
    "T16:a1 T17:a1 T18:a1 T19:a1", "T16:a2 T17:a2 T18:a2 T19:a2", "T16:a3 T17:a3 T18:a3 T19:a3" };
static const char *const fig_b_row[4] = {
    "T0:b0 T0:b1 T0:b2 T0:b3 T16:b0 T16:b1 T16:b2 T16:b3",
    "T1:b0 T1:b1 T1:b2 T1:b3 T17:b0 T17:b1 T17:b2 T17:b3",
    "T2:b0 T2:b1 T2:b2 T2:b3 T18:b0 T18:b1 T18:b2 T18:b3",
    "T3:b0 T3:b1 T3:b2 T3:b3 T19:b0 T19:b1 T19:b2 T19:b3" };
static const char *const fig_b_col[4] = {
    "T0:b0 T1:b0 T2:b0 T3:b0 T16:b0 T17:b0 T18:b0 T19:b0",
    "T0:b1 T1:b1 T2:b1 T3:b1 T16:b1 T17:b1 T18:b1 T19:b1",
    "T0:b2 T1:b2 T2:b2 T3:b2 T16:b2 T17:b2 T18:b2 T19:b2",
    "T0:b3 T1:b3 T2:b3 T3:b3 T16:b3 T17:b3 T18:b3 T19:b3" };
static const char *const fig_c_f16[8] = {
    "T0:c0 T0:c1 T0:c2 T0:c3 T0:c4 T0:c5 T0:c6 T0:c7",
    "T1:c0 T1:c1 T1:c2 T1:c3 T1:c4 T1:c5 T1:c6 T1:c7",
    "T2:c0 T2:c1 T2:c2 T2:c3 T2:c4 T2:c5 T2:c6 T2:c7",
    "T3:c0 T3:c1 T3:c2 T3:c3 T3:c4 T3:c5 T3:c6 T3:c7",
    "T16:c0 T16:c1 T16:c2 T16:c3 T16:c4 T16:c5 T16:c6 T16:c7",
    "T17:c0 T17:c1 T17:c2 T17:c3 T17:c4 T17:c5 T17:c6 T17:c7",
    "T18:c0 T18:c1 T18:c2 T18:c3 T18:c4 T18:c5 T18:c6 T18:c7",
    "T19:c0 T19:c1 T19:c2 T19:c3 T19:c4 T19:c5 T19:c6 T19:c7" };
/* Figure 51 (.f32 C/D, computations 1 and 2; computation 1's lanes). */
static const char *const fig_c_f32[8] = {
    "T0:c0 T0:c1 T2:c0 T2:c1 T0:c4 T0:c5 T2:c4 T2:c5",
    "T1:c0 T1:c1 T3:c0 T3:c1 T1:c4 T1:c5 T3:c4 T3:c5",
    "T0:c2 T0:c3 T2:c2 T2:c3 T0:c6 T0:c7 T2:c6 T2:c7",
    "T1:c2 T1:c3 T3:c2 T3:c3 T1:c6 T1:c7 T3:c6 T3:c7",
    "T16:c0 T16:c1 T18:c0 T18:c1 T16:c4 T16:c5 T18:c4 T18:c5",
    "T17:c0 T17:c1 T19:c0 T19:c1 T17:c4 T17:c5 T19:c4 T19:c5",
    "T16:c2 T16:c3 T18:c2 T18:c3 T16:c6 T16:c7 T18:c6 T18:c7",
    "T17:c2 T17:c3 T19:c2 T19:c3 T17:c6 T17:c7 T19:c6 T19:c7" };

static MmaForm form(bool a_col, bool b_row, unsigned d, unsigned c)
{
    MmaForm f = { .m = 8, .n = 8, .k = 4, .a = MT_F16, .b = MT_F16, .c = (uint8_t)c, .d = (uint8_t)d,
                  .flags = (uint8_t)((a_col ? MMA_A_COL : 0) | (b_row ? MMA_B_ROW : 0)) };
    ck_assert(mma884_form(&f));
    return f;
}

/* Each cell (r, c) of a figure against mma884_layout, for every pair p: its lanes are computation
 * 1's plus 4p, its matrices stacked (A's and C's row 8p + r, B's column 8p + c). */
static unsigned check_figure(const char *const *fig, unsigned rows, const MmaForm *f, char which)
{
    unsigned cells = 0;
    for (unsigned p = 0; p < 4; p++)
        for (unsigned r = 0; r < rows; r++) {
            const char *s = fig[r];
            for (unsigned c = 0; *s; c++) {
                unsigned lane, i, rr, cc;
                int used = 0;
                char letter;
                ck_assert_int_eq(sscanf(s, " T%u:%c%u%n", &lane, &letter, &i, &used), 3);
                ck_assert(letter == (which == 'd' ? 'c' : which));
                s += used;
                lane += 4 * p;
                mma884_layout(f, which, lane, i, &rr, &cc);
                unsigned er = which == 'b' ? r : 8 * p + r, ec = which == 'b' ? 8 * p + c : c;
                ck_assert_msg(rr == er && cc == ec, "%c (flags %u, C %u, D %u): lane %u element %u at (%u, %u), the "
                              "figure (%u, %u)", which, f->flags, f->c, f->d, lane, i, rr, cc, er, ec);
                cells++;
            }
        }
    return cells;
}

START_TEST(layouts_follow_the_figures)
{
    MmaForm rc = form(false, false, MT_F32, MT_F32), cr = form(true, true, MT_F32, MT_F32);
    ck_assert_uint_eq(check_figure(fig_a_row, 8, &rc, 'a'), 128);   /* every element of the 4 pairs' A */
    ck_assert_uint_eq(check_figure(fig_a_col, 8, &cr, 'a'), 128);
    ck_assert_uint_eq(check_figure(fig_b_row, 4, &cr, 'b'), 128);
    ck_assert_uint_eq(check_figure(fig_b_col, 4, &rc, 'b'), 128);
}
END_TEST

START_TEST(accumulator_layouts_follow_the_figures)
{
    /* C's layout follows C's type, D's D's: .f32.f16 has an f16 C and an f32 D. */
    MmaForm h = form(false, false, MT_F16, MT_F16), mixed = form(true, false, MT_F32, MT_F16);
    MmaForm s = form(false, true, MT_F32, MT_F32);
    ck_assert_uint_eq(check_figure(fig_c_f16, 8, &h, 'c'), 256);
    ck_assert_uint_eq(check_figure(fig_c_f16, 8, &h, 'd'), 256);
    ck_assert_uint_eq(check_figure(fig_c_f16, 8, &mixed, 'c'), 256);
    ck_assert_uint_eq(check_figure(fig_c_f32, 8, &mixed, 'd'), 256);
    ck_assert_uint_eq(check_figure(fig_c_f32, 8, &s, 'c'), 256);
    ck_assert_uint_eq(check_figure(fig_c_f32, 8, &s, 'd'), 256);
}
END_TEST

/* The ISA's formulas as its text gives them, for all 32 lanes, and each element held once. */
START_TEST(layouts_follow_the_formulas)
{
    for (unsigned k = 0; k < 8; k++) {
        bool a_col = k & 1, b_row = k & 2, c_f32 = k & 4;
        MmaForm f = form(a_col, b_row, c_f32 ? MT_F32 : MT_F16, c_f32 ? MT_F32 : MT_F16);
        unsigned seen_a[32][4] = { { 0 } }, seen_b[4][32] = { { 0 } }, seen_c[32][8] = { { 0 } };
        for (unsigned lane = 0; lane < 32; lane++) {
            unsigned p = 8 * (lane >> 2 & 3), r, c, er, ec;
            for (unsigned i = 0; i < 4; i++) {
                mma884_layout(&f, 'a', lane, i, &r, &c);
                if (a_col)   /* row = i % 4 (+ 4 for %laneid >= 16), col = %laneid % 4 */
                    er = lane < 16 ? i % 4 : i % 4 + 4, ec = lane % 4;
                else         /* row = %laneid % 4 (+ 4 for %laneid >= 16), col = i */
                    er = lane < 16 ? lane % 4 : lane % 4 + 4, ec = i;
                ck_assert(r == p + er && c == ec);
                seen_a[r][c]++;
                mma884_layout(&f, 'b', lane, i, &r, &c);
                if (b_row)   /* row = %laneid % 4, col = i (i + 4 for %laneid >= 16) */
                    er = lane % 4, ec = lane < 16 ? i : i + 4;
                else         /* row = i, col = %laneid % 4 (+ 4 for %laneid >= 16) */
                    er = i, ec = lane < 16 ? lane % 4 : lane % 4 + 4;
                ck_assert(r == er && c == p + ec);
                seen_b[r][c]++;
            }
            for (unsigned i = 0; i < 8; i++) {
                mma884_layout(&f, 'c', lane, i, &r, &c);
                if (c_f32) { /* X = (%laneid & 0b1) + (i & 0b10), + 4 for %laneid >= 16;
                                col = (i & 0b100) + (%laneid & 0b10) + (i & 0b1) */
                    unsigned x = (lane & 1) + (i & 2);
                    er = lane < 16 ? x : x + 4, ec = (i & 4) + (lane & 2) + (i & 1);
                } else {     /* row = %laneid % 4 (+ 4 for %laneid >= 16), col = i */
                    er = lane < 16 ? lane % 4 : lane % 4 + 4, ec = i;
                }
                ck_assert(r == p + er && c == ec);
                seen_c[r][c]++;
            }
        }
        for (unsigned r = 0; r < 32; r++)
            for (unsigned c = 0; c < 32; c++) {
                if (c < 4)
                    ck_assert_uint_eq(seen_a[r][c], 1);
                if (r < 4)
                    ck_assert_uint_eq(seen_b[r][c], 1);
                if (c < 8)
                    ck_assert_uint_eq(seen_c[r][c], 1);
            }
    }
}
END_TEST

/* f16 bits of small powers of two and a few values */
enum { H_ONE = 0x3c00, H_MONE = 0xbc00, H_2M12 = 0x0c00, H_INF = 0x7c00, H_NEG0 = 0x8000 };

START_TEST(dot_by_hand)
{
    MmaForm ss = form(false, false, MT_F32, MT_F32), sh = form(false, false, MT_F32, MT_F16);
    MmaForm hh = form(false, false, MT_F16, MT_F16);
    /* .f32 D: products 1, 2^-24, 2^-24, -1 in k order, C = 0.25: the chain from +0 rounds both 2^-24
     * away (1 + 2^-24 is a tie, to even), so D = C = 0.25; the exact sum would be 0.25 + 2^-23. */
    uint64_t a[4] = { H_ONE, H_2M12, H_2M12, H_MONE }, b[4] = { H_ONE, H_2M12, H_2M12, H_ONE };
    ck_assert_uint_eq(mma884_dot(&ss, a, b, 0x3e800000), 0x3e800000);
    ck_assert_uint_eq(mma884_dot(&sh, a, b, 0x3400), 0x3e800000);           /* C .f16 0.25 */
    /* every product -0 and C = -0: .f32 D +0 (the chain starts from +0), .f16 D -0 (it starts with a multiply) */
    uint64_t z[4] = { H_NEG0, 0, H_NEG0, 0 }, y[4] = { 0, H_NEG0, 0, H_NEG0 };
    ck_assert_uint_eq(mma884_dot(&ss, z, y, 0x80000000), 0);
    ck_assert_uint_eq(mma884_dot(&hh, z, y, H_NEG0), H_NEG0);
    /* .f16 D: C = 1, a0b0 = 2^-11 (2^-6 * 2^-5), a2b2 = 2^-30 (2^-15 * 2^-15, subnormal f16): (C + p) + q is
     * 1 + 2^-11 in f32 (2^-30 lost), a tie that f16 rounds to 1.0; the exact sum rounds up to 1 + 2^-10. */
    uint64_t s[4] = { 0x2400, 0, 0x0200, 0 }, t[4] = { 0x2800, 0, 0x0200, 0 };
    ck_assert_uint_eq(mma884_dot(&hh, s, t, H_ONE), H_ONE);
    ck_assert_uint_eq(mma884_dot(&sh, s, t, H_ONE), 0x3f800000 + (1u << 12));   /* f32 D: 1 + 2^-11 */
    /* inf * 0: the canonical NaN; a NaN input with a payload: the canonical NaN too; overflow of f16 D: inf */
    uint64_t i0[4] = { H_INF, 0, 0, 0 }, zero[4] = { 0, 0, 0, 0 }, n[4] = { 0x7e01, 0, 0, 0 }, one[4] = { H_ONE, 0, 0, 0 };
    ck_assert_uint_eq(mma884_dot(&ss, i0, zero, 0), 0x7fffffff);
    ck_assert_uint_eq(mma884_dot(&hh, n, one, H_ONE), 0x7fff);
    ck_assert_uint_eq(mma884_dot(&ss, one, one, 0x7fc00001), 0x7fffffff);
    uint64_t big[4] = { 0x5bd0, 0x5bd0, 0, 0 }, hundred[4] = { 0x5640, 0x5640, 0, 0 };   /* 250 and 100 */
    ck_assert_uint_eq(mma884_dot(&hh, big, hundred, 0x7bff), H_INF);   /* 65504 + 50000 */
    ck_assert_uint_eq(mma884_dot(&sh, big, hundred, 0x7bff), 0x47e19800);   /* 115504 in f32 */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mma884");
    TCase *tc = tcase_create("mma884");
    tcase_add_test(tc, layouts_follow_the_figures);
    tcase_add_test(tc, accumulator_layouts_follow_the_figures);
    tcase_add_test(tc, layouts_follow_the_formulas);
    tcase_add_test(tc, dot_by_hand);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
