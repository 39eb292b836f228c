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
    "T0:b0 T0:b1 T0:b2 T0:b3 T16:b0 T16:b1 T16:b2 T16:b3", "T1:b0 T1:b1 T1:b2 T1:b3 T17:b0 T17:b1 T17:b2 T17:b3",
    "T2:b0 T2:b1 T2:b2 T2:b3 T18:b0 T18:b1 T18:b2 T18:b3", "T3:b0 T3:b1 T3:b2 T3:b3 T19:b0 T19:b1 T19:b2 T19:b3" };
static const char *const fig_b_col[4] = {
    "T0:b0 T1:b0 T2:b0 T3:b0 T16:b0 T17:b0 T18:b0 T19:b0", "T0:b1 T1:b1 T2:b1 T3:b1 T16:b1 T17:b1 T18:b1 T19:b1",
    "T0:b2 T1:b2 T2:b2 T3:b2 T16:b2 T17:b2 T18:b2 T19:b2", "T0:b3 T1:b3 T2:b3 T3:b3 T16:b3 T17:b3 T18:b3 T19:b3" };
static const char *const fig_c_f16[8] = {
    "T0:c0 T0:c1 T0:c2 T0:c3 T0:c4 T0:c5 T0:c6 T0:c7", "T1:c0 T1:c1 T1:c2 T1:c3 T1:c4 T1:c5 T1:c6 T1:c7",
    "T2:c0 T2:c1 T2:c2 T2:c3 T2:c4 T2:c5 T2:c6 T2:c7", "T3:c0 T3:c1 T3:c2 T3:c3 T3:c4 T3:c5 T3:c6 T3:c7",
    "T16:c0 T16:c1 T16:c2 T16:c3 T16:c4 T16:c5 T16:c6 T16:c7", "T17:c0 T17:c1 T17:c2 T17:c3 T17:c4 T17:c5 T17:c6 T17:c7",
    "T18:c0 T18:c1 T18:c2 T18:c3 T18:c4 T18:c5 T18:c6 T18:c7", "T19:c0 T19:c1 T19:c2 T19:c3 T19:c4 T19:c5 T19:c6 T19:c7" };
/* Figure 51 (.f32 C/D, computations 1 and 2; computation 1's lanes). */
static const char *const fig_c_f32[8] = {
    "T0:c0 T0:c1 T2:c0 T2:c1 T0:c4 T0:c5 T2:c4 T2:c5", "T1:c0 T1:c1 T3:c0 T3:c1 T1:c4 T1:c5 T3:c4 T3:c5",
    "T0:c2 T0:c3 T2:c2 T2:c3 T0:c6 T0:c7 T2:c6 T2:c7", "T1:c2 T1:c3 T3:c2 T3:c3 T1:c6 T1:c7 T3:c6 T3:c7",
    "T16:c0 T16:c1 T18:c0 T18:c1 T16:c4 T16:c5 T18:c4 T18:c5", "T17:c0 T17:c1 T19:c0 T19:c1 T17:c4 T17:c5 T19:c4 T19:c5",
    "T16:c2 T16:c3 T18:c2 T18:c3 T16:c6 T16:c7 T18:c6 T18:c7", "T17:c2 T17:c3 T19:c2 T19:c3 T17:c6 T17:c7 T19:c6 T19:c7" };

/* Each cell of a figure against mma884_layout; pair p's lanes are computation 1's plus 4p. */
static void check_figure(const char *const *fig, unsigned rows, bool a_col, bool b_row, bool c_f32, char which)
{
    unsigned cells = 0;
    for (unsigned p = 0; p < 4; p++)
        for (unsigned r = 0; r < rows; r++) {
            const char *s = fig[r];
            for (unsigned c = 0; *s; c++) {
                unsigned lane, i;
                char letter;
                int used = 0;
                ck_assert_int_eq(sscanf(s, " T%u:%c%u%n", &lane, &letter, &i, &used), 3);
                ck_assert(letter == which);
                s += used;
                while (*s == ' ')
                    s++;
                lane += 4 * p;
                unsigned rr, cc;
                mma884_layout(a_col, b_row, c_f32, which, lane, i, &rr, &cc);
                ck_assert_msg(mma884_pair(lane) == p && rr == r && cc == c,
                              "%c (a_col %d, b_row %d, c_f32 %d): lane %u element %u at pair %u (%u, %u), the figure "
                              "pair %u (%u, %u)", which, a_col, b_row, c_f32, lane, i, mma884_pair(lane), rr, cc, p, r, c);
                cells++;
            }
        }
    ck_assert_uint_eq(cells, 4 * 32);          /* every pair: 32 elements of A or B, 64 of C: as many cells */
}

START_TEST(layouts_follow_the_figures)
{
    check_figure(fig_a_row, 8, false, false, false, 'a');
    check_figure(fig_a_col, 8, true, false, false, 'a');
    check_figure(fig_b_row, 4, false, true, false, 'b');
    check_figure(fig_b_col, 4, false, false, false, 'b');
}
END_TEST

START_TEST(accumulator_layouts_follow_the_figures)
{
    /* 64 cells per pair: check_figure counts 32 per pair for A and B; C has twice as many. */
    for (int f32 = 0; f32 < 2; f32++) {
        unsigned cells = 0;
        const char *const *fig = f32 ? fig_c_f32 : fig_c_f16;
        for (unsigned p = 0; p < 4; p++)
            for (unsigned r = 0; r < 8; r++) {
                const char *s = fig[r];
                for (unsigned c = 0; *s; c++) {
                    unsigned lane, i, rr, cc;
                    int used = 0;
                    ck_assert_int_eq(sscanf(s, " T%u:c%u%n", &lane, &i, &used), 2);
                    s += used;
                    lane += 4 * p;
                    mma884_layout(false, false, f32, 'c', lane, i, &rr, &cc);
                    ck_assert_msg(mma884_pair(lane) == p && rr == r && cc == c, "C f32 %d lane %u c%u: (%u, %u), "
                                  "the figure (%u, %u)", f32, lane, i, rr, cc, r, c);
                    cells++;
                }
            }
        ck_assert_uint_eq(cells, 256);
    }
}
END_TEST

/* The ISA's formulas as its text gives them, for all 32 lanes, and each element held once. */
START_TEST(layouts_follow_the_formulas)
{
    for (unsigned form = 0; form < 8; form++) {
        bool a_col = form & 1, b_row = form & 2, c_f32 = form & 4;
        unsigned seen_a[4][8][4] = { { { 0 } } }, seen_b[4][4][8] = { { { 0 } } }, seen_c[4][8][8] = { { { 0 } } };
        for (unsigned lane = 0; lane < 32; lane++) {
            unsigned p = lane >> 2 & 3, r, c, er, ec;
            for (unsigned i = 0; i < 4; i++) {
                mma884_layout(a_col, b_row, c_f32, 'a', lane, i, &r, &c);
                if (a_col)   /* row = i % 4 (+ 4 for %laneid >= 16), col = %laneid % 4 */
                    er = lane < 16 ? i % 4 : i % 4 + 4, ec = lane % 4;
                else         /* row = %laneid % 4 (+ 4 for %laneid >= 16), col = i */
                    er = lane < 16 ? lane % 4 : lane % 4 + 4, ec = i;
                ck_assert(r == er && c == ec);
                seen_a[p][r][c]++;
                mma884_layout(a_col, b_row, c_f32, 'b', lane, i, &r, &c);
                if (b_row)   /* row = %laneid % 4, col = i (i + 4 for %laneid >= 16) */
                    er = lane % 4, ec = lane < 16 ? i : i + 4;
                else         /* row = i, col = %laneid % 4 (+ 4 for %laneid >= 16) */
                    er = i, ec = lane < 16 ? lane % 4 : lane % 4 + 4;
                ck_assert(r == er && c == ec);
                seen_b[p][r][c]++;
            }
            for (unsigned i = 0; i < 8; i++) {
                mma884_layout(a_col, b_row, c_f32, 'c', lane, i, &r, &c);
                if (c_f32) { /* X = (%laneid & 0b1) + (i & 0b10), + 4 for %laneid >= 16;
                                col = (i & 0b100) + (%laneid & 0b10) + (i & 0b1) */
                    unsigned x = (lane & 1) + (i & 2);
                    er = lane < 16 ? x : x + 4, ec = (i & 4) + (lane & 2) + (i & 1);
                } else {     /* row = %laneid % 4 (+ 4 for %laneid >= 16), col = i */
                    er = lane < 16 ? lane % 4 : lane % 4 + 4, ec = i;
                }
                ck_assert(r == er && c == ec);
                seen_c[p][r][c]++;
            }
        }
        for (unsigned p = 0; p < 4; p++)
            for (unsigned r = 0; r < 8; r++)
                for (unsigned c = 0; c < 8; c++) {
                    if (c < 4)
                        ck_assert_uint_eq(seen_a[p][r][c], 1);
                    if (r < 4)
                        ck_assert_uint_eq(seen_b[p][r][c], 1);
                    ck_assert_uint_eq(seen_c[p][r][c], 1);
                }
    }
}
END_TEST

/* f16 bits of small powers of two and a few values */
enum { H_ONE = 0x3c00, H_MONE = 0xbc00, H_2M12 = 0x0c00, H_INF = 0x7c00, H_NEG0 = 0x8000 };

START_TEST(dot_by_hand)
{
    /* .f32 D: products 1, 2^-24, 2^-24, -1 in k order, C = 0.25: the chain from +0 rounds both 2^-24
     * away (1 + 2^-24 is a tie, to even), so D = C = 0.25; the exact sum would be 0.25 + 2^-23. */
    uint64_t a[4] = { H_ONE, H_2M12, H_2M12, H_MONE }, b[4] = { H_ONE, H_2M12, H_2M12, H_ONE };
    ck_assert_uint_eq(mma884_dot(true, true, a, b, 0x3e800000), 0x3e800000);
    ck_assert_uint_eq(mma884_dot(true, false, a, b, 0x3400), 0x3e800000);           /* C .f16 0.25 */
    /* every product -0 and C = -0: .f32 D +0 (the chain starts from +0), .f16 D -0 (it starts with a multiply) */
    uint64_t z[4] = { H_NEG0, 0, H_NEG0, 0 }, y[4] = { 0, H_NEG0, 0, H_NEG0 };
    ck_assert_uint_eq(mma884_dot(true, true, z, y, 0x80000000), 0);
    ck_assert_uint_eq(mma884_dot(false, false, z, y, H_NEG0), H_NEG0);
    /* .f16 D: C = 1, a0b0 = 2^-11 (2^-6 * 2^-5), a2b2 = 2^-30 (2^-15 * 2^-15, subnormal f16): (C + p) + q is
     * 1 + 2^-11 in f32 (2^-30 lost), a tie that f16 rounds to 1.0; the exact sum rounds up to 1 + 2^-10. */
    uint64_t s[4] = { 0x2400, 0, 0x0200, 0 }, t[4] = { 0x2800, 0, 0x0200, 0 };
    ck_assert_uint_eq(mma884_dot(false, false, s, t, H_ONE), H_ONE);
    ck_assert_uint_eq(mma884_dot(true, false, s, t, H_ONE), 0x3f800000 + (1u << 12));   /* f32 D: 1 + 2^-11 */
    /* inf * 0: the canonical NaN; a NaN input with a payload: the canonical NaN too; overflow of f16 D: inf */
    uint64_t i0[4] = { H_INF, 0, 0, 0 }, n[4] = { 0x7e01, 0, 0, 0 }, one[4] = { H_ONE, 0, 0, 0 };
    ck_assert_uint_eq(mma884_dot(true, true, i0, i0 + 1, 0), 0x7fffffff);
    ck_assert_uint_eq(mma884_dot(false, false, n, one, H_ONE), 0x7fff);
    ck_assert_uint_eq(mma884_dot(true, true, one, one, 0x7fc00001), 0x7fffffff);
    uint64_t big[4] = { 0x5bd0, 0x5bd0, 0, 0 }, hundred[4] = { 0x5640, 0x5640, 0, 0 };   /* 250 and 100 */
    ck_assert_uint_eq(mma884_dot(false, false, big, hundred, 0x7bff), H_INF);   /* 65504 + 50000 */
    ck_assert_uint_eq(mma884_dot(true, false, big, hundred, 0x7bff), 0x47e19800);   /* 115504 in f32 */
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
