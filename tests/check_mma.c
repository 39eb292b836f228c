/* check_mma.c: mma's fragment layouts (exec/mma.c) lane by lane against the PTX ISA's figures
 * ("Matrix fragments for mma.m16n8k16 / m16n8k32 / m8n8k16 / m8n8k4" with integer and .f64
 * types), each written here as the ISA's text states it (groupID = laneid >> 2,
 * threadID_in_group = laneid % 4, the row and col formulas per element range), and that every
 * layout covers each element of its matrix exactly once over the warp. */
#include <math.h>

#include "testutil.h"

typedef struct Expect { unsigned shape, m, n, k, a, b, c; } Expect;   /* elements a lane holds */

enum { MMA_M8N8K4 = 1, MMA_M8N8K16, MMA_M16N8K16, MMA_M16N8K32 };

static const Expect forms[] = {
    { MMA_M8N8K4, 8, 8, 4, 1, 1, 2 },
    { MMA_M8N8K16, 8, 8, 16, 4, 4, 2 },
    { MMA_M16N8K16, 16, 8, 16, 8, 4, 4 },
    { MMA_M16N8K32, 16, 8, 32, 16, 8, 4 },
};

/* The framework's form of each shape: f64 for m8n8k4, s8 for the others. */
static MmaForm form_of(unsigned shape)
{
    static const uint16_t mnk[][3] = { { 0 }, { 8, 8, 4 }, { 8, 8, 16 }, { 16, 8, 16 }, { 16, 8, 32 } };
    MmaForm f = { mnk[shape][0], mnk[shape][1], mnk[shape][2], MT_S8, MT_S8, MT_S32, MT_S32, 0, 0, 0, 0, 0, 0 };
    if (shape == MMA_M8N8K4)
        f.a = f.b = f.c = f.d = MT_F64;
    return f;
}

static void got_a(unsigned shape, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    MmaForm f = form_of(shape);
    mma_layout(&f, 'a', lane, i, row, col);
}

static void got_b(unsigned shape, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    MmaForm f = form_of(shape);
    mma_layout(&f, 'b', lane, i, row, col);
}

static void got_c(unsigned shape, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    MmaForm f = form_of(shape);
    mma_layout(&f, 'c', lane, i, row, col);
}

/* The ISA's A figure for each shape, as its text gives it. */
static void isa_a(unsigned shape, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    unsigned group = lane >> 2, tig = lane % 4;
    switch (shape) {
    case MMA_M8N8K4:             /* .f64: row = groupID, col = threadID_in_group */
        *row = group, *col = tig;
        break;
    case MMA_M8N8K16:            /* .s8/.u8: row = groupID, col = threadID_in_group * 4 + i */
        *row = group, *col = tig * 4 + i;
        break;
    case MMA_M16N8K16:           /* a0..a3: groupID, a4..a7: groupID + 8; col = tig * 4 + (i & 3) */
        *row = i < 4 ? group : group + 8, *col = tig * 4 + (i & 0x3);
        break;
    default:                     /* a0..a3, a8..a11: groupID; a4..a7, a12..a15: groupID + 8;
                                    col = tig * 4 + (i & 3) for i < 8, + 16 for i >= 8 */
        *row = (i < 4 || (i >= 8 && i < 12)) ? group : group + 8;
        *col = i < 8 ? tig * 4 + (i & 0x3) : tig * 4 + (i & 0x3) + 16;
    }
}

static void isa_b(unsigned shape, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    unsigned group = lane >> 2, tig = lane % 4;
    *col = group;                /* every B figure: col = groupID */
    if (shape == MMA_M8N8K4)
        *row = tig;
    else if (shape == MMA_M16N8K32)  /* b0..b3: tig * 4 + i; b4..b7: tig * 4 + (i - 4) + 16 */
        *row = i < 4 ? tig * 4 + i : tig * 4 + (i - 4) + 16;
    else
        *row = tig * 4 + i;
}

static void isa_c(unsigned shape, unsigned lane, unsigned i, unsigned *row, unsigned *col)
{
    unsigned group = lane >> 2, tig = lane % 4;
    if (shape == MMA_M8N8K4 || shape == MMA_M8N8K16)      /* c0, c1: row groupID */
        *row = group;
    else                                                 /* c0, c1: groupID; c2, c3: groupID + 8 */
        *row = i < 2 ? group : group + 8;
    *col = tig * 2 + (i & 0x1);
}

typedef void (*LayoutFn)(unsigned, unsigned, unsigned, unsigned *, unsigned *);

static void check_one(const Expect *f, LayoutFn got, LayoutFn want, unsigned per_lane, unsigned rows,
                      unsigned cols, const char *what)
{
    unsigned seen[32][32] = { { 0 } };
    for (unsigned lane = 0; lane < 32; lane++)
        for (unsigned i = 0; i < per_lane; i++) {
            unsigned r, c, wr, wc;
            got(f->shape, lane, i, &r, &c);
            want(f->shape, lane, i, &wr, &wc);
            ck_assert_msg(r == wr && c == wc, "shape %u %s lane %u element %u: (%u, %u), the ISA (%u, %u)",
                          f->shape, what, lane, i, r, c, wr, wc);
            ck_assert_msg(r < rows && c < cols, "shape %u %s lane %u element %u outside", f->shape, what, lane, i);
            seen[r][c]++;
        }
    for (unsigned r = 0; r < rows; r++)
        for (unsigned c = 0; c < cols; c++)
            ck_assert_msg(seen[r][c] == 1, "shape %u %s (%u, %u) held %u times", f->shape, what, r, c, seen[r][c]);
}

START_TEST(layouts_follow_the_isa_figures)
{
    for (unsigned k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        const Expect *f = &forms[k];
        check_one(f, got_a, isa_a, f->a, f->m, f->k, "A");
        check_one(f, got_b, isa_b, f->b, f->k, f->n, "B");
        check_one(f, got_c, isa_c, f->c, f->m, f->n, "C/D");
    }
}
END_TEST

/* A few elements read straight off the ISA's figures (m16n8k32 .s8 A: lane 5 holds a13 at
 * row 9, col 21; B: lane 30 holds b6 at row 26, col 7; m16n8k16 C: lane 31 c3 at (15, 7)). */
START_TEST(layouts_by_hand)
{
    unsigned r, c;
    got_a(MMA_M16N8K32, 5, 13, &r, &c);
    ck_assert(r == 9 && c == 21);
    got_b(MMA_M16N8K32, 30, 6, &r, &c);
    ck_assert(r == 26 && c == 7);
    got_c(MMA_M16N8K16, 31, 3, &r, &c);
    ck_assert(r == 15 && c == 7);
    got_a(MMA_M8N8K4, 13, 0, &r, &c);
    ck_assert(r == 3 && c == 1);
}
END_TEST

/* mma_dot's m8n8k4 .f64 as it was (commit fac9598c): every step through the NaN-aware fma (an
 * input NaN quieted, a's, else b's, else c's; an invalid operation's NaN 0xfff8000000000000),
 * the reference for its faster chain when no operand is a NaN. */
static uint64_t ref_bits(double d) { uint64_t u; memcpy(&u, &d, sizeof u); return u; }
static double ref_of(uint64_t u) { double d; memcpy(&d, &u, sizeof d); return d; }

static double ref_fma(double a, double b, double c, bool *choice)
{
    uint64_t in[3] = { ref_bits(a), ref_bits(b), ref_bits(c) }, first = 0;
    for (unsigned i = 0; i < 3; i++) {
        if ((in[i] & 0x7fffffffffffffffull) <= 0x7ff0000000000000ull)
            continue;
        if (first && (in[i] | 1ull << 51) != first)
            *choice = true;
        if (!first)
            first = in[i] | 1ull << 51;
    }
    double r = fma(a, b, c);
    if (first)
        return ref_of(first);
    return isnan(r) ? ref_of(0xfff8000000000000ull) : r;
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dull;
}

/* An f64 to hit every case: NaNs of any payload, infinities, zeros, subnormals, the largest,
 * and numbers of exponents near e (sums that cancel, round, overflow). */
static uint64_t f64_element(uint64_t *s, unsigned e)
{
    uint64_t r = rng(s), sign = r & 1ull << 63, frac = r >> 8 & 0xfffffffffffffull;
    switch (r & 7) {
    case 0: return sign | 0x7ff0000000000000ull | (frac ? frac : 1);
    case 1: return sign | (r >> 3 & 1 ? 0x7ff0000000000000ull : 0);
    case 2: return sign | (r >> 3 & 1 ? frac : 0x7fefffffffffffffull);
    default: return sign | (uint64_t)(e + (r >> 4 & 7)) << 52 | (r >> 3 & 1 ? frac : 0);
    }
}

/* 1,000,000 D elements of mma.m8n8k4 .f64 (k = 4), mma_dot against ref_fma's chain bit for bit,
 * and its report of two different NaNs met. */
START_TEST(f64_same_bits_as_before)
{
    MmaForm f = { 8, 8, 4, MT_F64, MT_F64, MT_F64, MT_F64, 1, 1, 2, 2, 0, 0 };
    uint64_t s = 42;
    unsigned mismatches = 0, finite = 0, count = 1000000;
    for (unsigned t = 0; t < count; t++) {
        uint64_t a[4], b[4], c, r = rng(&s);
        unsigned e = r >> 40 & 1 ? 1020 : (r >> 41 & 1 ? 1 : 2040);  /* near 1, the smallest, the largest */
        bool plain = (r & 7) != 0;                     /* mostly no special operand */
        for (unsigned k = 0; k < 4; k++) {
            do
                a[k] = f64_element(&s, e), b[k] = f64_element(&s, e);
            while (plain && ((a[k] | b[k]) & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
                   ((a[k] >> 52 & 0x7ff) == 0x7ff || (b[k] >> 52 & 0x7ff) == 0x7ff));
        }
        if (r >> 3 & 1)
            a[1] = a[0] ^ 1ull << 63, b[1] = b[0];     /* cancellation */
        do
            c = f64_element(&s, e + 1);
        while (plain && (c >> 52 & 0x7ff) == 0x7ff);
        bool want_choice = false, got_choice = false;
        double acc = ref_of(c);
        for (unsigned k = 0; k < 4; k++)
            acc = ref_fma(ref_of(a[k]), ref_of(b[k]), acc, &want_choice);
        uint64_t want = ref_bits(acc), got = mma_dot(&f, a, b, c, &got_choice);
        finite += (want & 0x7ff0000000000000ull) != 0x7ff0000000000000ull;
        if ((got != want || got_choice != want_choice) && mismatches++ < 5)
            fprintf(stderr, "f64: 0x%llx, reference 0x%llx\n", (unsigned long long)got, (unsigned long long)want);
    }
    ck_assert_uint_eq(mismatches, 0);
    ck_assert_uint_gt(finite, count / 2);
    ck_assert_uint_lt(finite, count - count / 20);   /* infinities and NaNs met too */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mma");
    TCase *tc = tcase_create("mma");
    tcase_add_test(tc, layouts_follow_the_isa_figures);
    tcase_add_test(tc, layouts_by_hand);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, f64_same_bits_as_before);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
