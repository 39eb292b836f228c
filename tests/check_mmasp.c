/* check_mmasp.c: mma.sp's metadata decoding and sparse layouts (exec/mmasp.c) against the PTX
 * ISA's text ("Sparse matrix storage", "Matrix fragments for multiply-accumulate operation with
 * sparse matrix A"): which lane and bits hold the metadata of each chunk of A for every number
 * of contributing threads and selector, how a nibble places the kept elements (2:4, pairwise 4:8,
 * 1:2 for .tf32), which values the ISA leaves undefined, and the sparse B fragments. */
#include "testutil.h"

/* The ISA's example (f16, Figure 112; MLIR's test of it writes 0x8888 for "positions 0 and 2"):
 * nibble 0b1000 keeps the chunk's elements at positions 0 and 2. */
START_TEST(nibble_places_two_of_four)
{
    uint8_t pos[4] = { 0 };
    ck_assert(mmasp_place(16, true, 0x8, 0, pos));
    ck_assert(pos[0] == 0 && pos[1] == 2);
    ck_assert(mmasp_place(8, true, 0xd, 1, pos));           /* 0b1101, chunk 1: positions 1 and 3 */
    ck_assert(pos[2] == 5 && pos[3] == 7);
}
END_TEST

/* ::ordered_metadata: 0b0100, 0b1000, 0b1001, 0b1100, 0b1101, 0b1110 are the meaningful values,
 * any other is undefined; 0b0000, 0b0101, 0b1010, 0b1111 are undefined for mma.sp too, whose other
 * values (a first index above the second) place the elements as they say. */
START_TEST(ordered_and_invalid_values)
{
    for (unsigned nibble = 0; nibble < 16; nibble++) {
        uint8_t pos[2] = { 0xff, 0xff };
        bool meaningful = nibble == 0x4 || nibble == 0x8 || nibble == 0x9 || nibble == 0xc || nibble == 0xd ||
                          nibble == 0xe;
        bool equal = (nibble & 3) == nibble >> 2;
        ck_assert_msg(mmasp_place(8, true, nibble, 0, pos) == meaningful, "ordered 0x%x", nibble);
        ck_assert_msg(mmasp_place(8, false, nibble, 0, pos) == !equal, "plain 0x%x", nibble);
        if (!equal)
            ck_assert(pos[0] == (nibble & 3) && pos[1] == nibble >> 2);
    }
}
END_TEST

/* 4-bit A, 4:8 in pairs: each index names a two-wide sub-chunk of the eight-wide chunk. */
START_TEST(four_bit_pairs)
{
    uint8_t pos[8] = { 0 };
    ck_assert(mmasp_place(4, true, 0x9, 1, pos));           /* chunk 1 (columns 8-15): pairs 1 and 2 */
    ck_assert(pos[4] == 10 && pos[5] == 11 && pos[6] == 12 && pos[7] == 13);
}
END_TEST

/* .tf32, 1:2: 0b0100 and 0b1110 are the only meaningful values (the first and second element). */
START_TEST(tf32_one_of_two)
{
    for (unsigned nibble = 0; nibble < 16; nibble++) {
        uint8_t pos[4] = { 0 };
        bool ok = mmasp_place(32, false, nibble, 2, pos);
        ck_assert_msg(ok == (nibble == 0x4 || nibble == 0xe), "0x%x", nibble);
        if (ok)
            ck_assert(pos[2] == 4 + (nibble == 0xe));
    }
}
END_TEST

/* One thread of each group of four (m16n8k16 .f16, m16n8k8 .tf32; selector 0-3), a pair
 * (m16n8k32 .f16, m16n8k16 .tf32, m16n8k32 8-bit, m16n8k64 4-bit: selector 0 = T0, T1, 1 = T2,
 * T3) or all four (selector 0): the selected lanes' registers hold every (row, chunk) nibble once,
 * rows g in bits 0-15 and g + 8 in bits 16-31, and no other lane is read. */
START_TEST(metadata_lanes)
{
    static const unsigned threads[3] = { 1, 2, 4 };
    for (unsigned k = 0; k < 3; k++) {
        unsigned t = threads[k];
        for (unsigned sel = 0; sel < 4 / t; sel++) {
            unsigned seen[32][8] = { { 0 } };
            for (unsigned r = 0; r < 16; r++)
                for (unsigned j = 0; j < 4 * t; j++) {
                    unsigned lane, bit;
                    mmasp_meta_at(t, sel, r, j, &lane, &bit);
                    ck_assert(lane < 32 && bit % 4 == 0 && bit < 32);
                    ck_assert_msg(lane >> 2 == r % 8 && (lane & 3) / t == sel, "t %u sel %u row %u: lane %u", t, sel,
                                  r, lane);
                    ck_assert_msg(bit / 16 == r / 8, "row %u in bits %u", r, bit);
                    seen[lane][bit / 4]++;
                }
            for (unsigned lane = 0; lane < 32; lane++)
                for (unsigned n = 0; n < 8; n++)
                    ck_assert(seen[lane][n] == ((lane & 3) / t == sel ? 1u : 0u));
        }
    }
    unsigned lane, bit;
    mmasp_meta_at(2, 1, 3, 7, &lane, &bit);        /* m16n8k32 .f16 selector 1: row 3, cols 28-31 */
    ck_assert(lane == 15 && bit == 12);
    mmasp_meta_at(1, 3, 9, 2, &lane, &bit);        /* m16n8k16 selector 3: row 9, cols 8-11 */
    ck_assert(lane == 7 && bit == 24);
    mmasp_meta_at(4, 0, 12, 13, &lane, &bit);      /* m16n8k64 .s8: row 12, cols 52-55 */
    ck_assert(lane == 19 && bit == 20);
}
END_TEST

/* Sparse B fragments (ISA figures 121, 124, 132-135, 142-145): four registers, register r
 * holding rows 8r.. (.f16 m16n8k32), 4r.. (.tf32 m16n8k16), 16r.. (8-bit m16n8k64), 32r.. (4-bit
 * m16n8k128); row e*t + (i % e) of them, column groupID; each element held once. */
START_TEST(sparse_b_layouts)
{
    static const struct { uint8_t type; uint16_t k; unsigned span; } forms[] = {
        { MT_F16, 32, 8 }, { MT_TF32, 16, 4 }, { MT_S8, 64, 16 }, { MT_U4, 128, 32 }, { MT_S8, 32, 16 },
    };
    for (unsigned n = 0; n < sizeof forms / sizeof *forms; n++) {
        MmaForm f = { .m = 16, .n = 8, .k = forms[n].k, .a = forms[n].type, .b = forms[n].type };
        unsigned e = forms[n].span / 4, per_lane = f.k * 8 / 32;
        static unsigned seen[128][8];
        memset(seen, 0, sizeof seen);
        for (unsigned lane = 0; lane < 32; lane++)
            for (unsigned i = 0; i < per_lane; i++) {
                unsigned r, c;
                mmasp_layout_b(&f, lane, i, &r, &c);
                ck_assert_msg(r == forms[n].span * (i / e) + e * (lane & 3) + i % e && c == lane >> 2,
                              "k %u lane %u b%u: (%u, %u)", f.k, lane, i, r, c);
                seen[r][c]++;
            }
        for (unsigned r = 0; r < f.k; r++)
            for (unsigned c = 0; c < 8; c++)
                ck_assert(seen[r][c] == 1);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mmasp");
    TCase *tc = tcase_create("mmasp");
    tcase_add_test(tc, nibble_places_two_of_four);
    tcase_add_test(tc, ordered_and_invalid_values);
    tcase_add_test(tc, four_bit_pairs);
    tcase_add_test(tc, tf32_one_of_two);
    tcase_add_test(tc, metadata_lanes);
    tcase_add_test(tc, sparse_b_layouts);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
