/* check_kernels.c: every copy of the lane kernels this processor runs (baseline, AVX2, AVX-512)
 * against the PTX meaning of each operation, computed here lane by lane, for random rows and
 * masks, with the destination apart from the sources and the same row as one of them. */
#include "testutil.h"

typedef uint64_t Row[WARP_SIZE];

/* A fixed sequence, so that a failure repeats. */
static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state ^ (*state >> 29);
}

static void random_row(Row r, uint64_t *state)
{
    for (int l = 0; l < WARP_SIZE; l++) {
        uint64_t v = next_random(state);
        switch (v % 5) {            /* small shift counts and edge values as well as any bits */
        case 0: r[l] = v % 40; break;
        case 1: r[l] = 0xffffffffu; break;
        case 2: r[l] = 0x80000000u | (v >> 40); break;
        default: r[l] = v; break;  /* upper 32 bits set: each kernel must use only the low ones */
        }
    }
}

static uint32_t random_mask(uint64_t *state)
{
    uint64_t v = next_random(state);
    switch (v % 4) {
    case 0: return ALL_LANES;
    case 1: return 0;
    case 2: return 1u << (v >> 8) % WARP_SIZE;
    default: return (uint32_t)(v >> 16);
    }
}

/* What op gives in one lane: the PTX ISA's add/sub/mul.lo/and/or/xor/shl/shr/mov on .b32. */
static uint32_t expected_op(unsigned op, uint64_t a64, uint64_t b64)
{
    uint32_t a = (uint32_t)a64, b = (uint32_t)b64;
    switch (op) {
    case KOP_MOV: return a;
    case KOP_ADD: return a + b;
    case KOP_SUB: return a - b;
    case KOP_MUL: return (uint32_t)((uint64_t)a * b);
    case KOP_AND: return a & b;
    case KOP_OR: return a | b;
    case KOP_XOR: return a ^ b;
    case KOP_SHL: return b > 31 ? 0 : a << b;                      /* shifts past the width: 0 */
    case KOP_SHR_U: return b > 31 ? 0 : a >> b;
    case KOP_SHR_S: {                                                /* ... or the sign */
        int64_t s = (int32_t)a;
        return (uint32_t)(b > 31 ? (s < 0 ? -1 : 0) : s / ((int64_t)1 << b) - (s < 0 && s % ((int64_t)1 << b) != 0));
    }
    default: ck_abort_msg("op %u", op); return 0;
    }
}

static bool expected_compare(unsigned cmp, uint64_t a64, uint64_t b64)
{
    uint32_t a = (uint32_t)a64, b = (uint32_t)b64;
    int32_t sa = (int32_t)a, sb = (int32_t)b;
    switch (cmp) {
    case KCMP_EQ: return a == b;
    case KCMP_NE: return a != b;
    case KCMP_LT_U: return a < b;
    case KCMP_LE_U: return a <= b;
    case KCMP_GT_U: return a > b;
    case KCMP_GE_U: return a >= b;
    case KCMP_LT_S: return sa < sb;
    case KCMP_LE_S: return sa <= sb;
    case KCMP_GT_S: return sa > sb;
    case KCMP_GE_S: return sa >= sb;
    default: ck_abort_msg("compare %u", cmp); return false;
    }
}

START_TEST(every_copy_computes_the_ptx_operations)
{
    const Kernels *k[4];
    unsigned n = kernels_available(k, 4);
    ck_assert_uint_ge(n, 1);
    ck_assert_str_eq(k[n - 1]->name, "baseline");
    ck_assert_ptr_eq(kernels_for_cpu(), k[0]);
    uint64_t state = 12345;
    for (unsigned v = 0; v < n; v++)
        for (int trial = 0; trial < 1000; trial++) {
            Row a, b, d, old, want_a, want_b;
            random_row(a, &state);
            random_row(b, &state);
            random_row(d, &state);
            uint32_t mask = random_mask(&state);
            unsigned op = KOP_MOV + trial % (KOP_SHR_S - KOP_MOV + 1);
            unsigned alias = trial / 11 % 3;          /* 0: d apart, 1: d is a, 2: d is b */
            memcpy(old, alias == 1 ? a : alias == 2 ? b : d, sizeof old);
            memcpy(want_a, a, sizeof a);
            memcpy(want_b, b, sizeof b);
            uint64_t *dst = alias == 1 ? a : alias == 2 ? b : d;
            k[v]->int32(op, dst, a, b, mask);
            for (int l = 0; l < WARP_SIZE; l++) {
                uint64_t want = (mask >> l & 1) ? expected_op(op, want_a[l], want_b[l]) : old[l];
                ck_assert_msg(dst[l] == want, "%s op %u alias %u lane %d: 0x%llx, not 0x%llx", k[v]->name, op,
                              alias, l, (unsigned long long)dst[l], (unsigned long long)want);
            }
            unsigned cmp = KCMP_EQ + trial % (KCMP_GE_S - KCMP_EQ + 1);
            uint32_t bits = k[v]->compare32(cmp, want_a, want_b), want_bits = 0;
            for (int l = 0; l < WARP_SIZE; l++)
                want_bits |= (uint32_t)expected_compare(cmp, want_a[l], want_b[l]) << l;
            ck_assert_msg(bits == want_bits, "%s compare %u: 0x%08x, not 0x%08x", k[v]->name, cmp, bits, want_bits);
            uint64_t need = trial % 2 ? 0xffffffffu : ~0ull;        /* covers: every bit of need set */
            uint32_t covered = k[v]->covers(want_a, need), want_covered = 0;
            for (int l = 0; l < WARP_SIZE; l++)
                want_covered |= (uint32_t)((want_a[l] & need) == need) << l;
            ck_assert_msg(covered == want_covered, "%s covers: 0x%08x, not 0x%08x", k[v]->name, covered, want_covered);
            memcpy(d, old, sizeof d);
            k[v]->select(d, want_a, mask);
            for (int l = 0; l < WARP_SIZE; l++)
                ck_assert(d[l] == ((mask >> l & 1) ? want_a[l] : old[l]));
        }
}
END_TEST

/* Each lane's source for shfl.up/.down/.bfly by k over the whole warp (lanes out of range read
 * their own), or any lanes at all. */
static unsigned random_sources(int8_t src[WARP_SIZE], unsigned *k, uint64_t *state)
{
    uint64_t v = next_random(state);
    unsigned form = v % 4;
    *k = (unsigned)(v >> 8) % WARP_SIZE;
    for (int l = 0; l < WARP_SIZE; l++) {
        int j = (int)(next_random(state) % WARP_SIZE);
        switch (form) {
        case KSHFL_UP: j = l >= (int)*k ? l - (int)*k : l; break;
        case KSHFL_DOWN: j = l + (int)*k < WARP_SIZE ? l + (int)*k : l; break;
        case KSHFL_BFLY: j = l ^ (int)*k; break;
        default: break;
        }
        src[l] = (int8_t)j;
    }
    return form;
}

START_TEST(every_copy_shuffles_as_its_table_says)
{
    const Kernels *k[4];
    unsigned n = kernels_available(k, 4);
    uint64_t state = 777;
    for (unsigned v = 0; v < n; v++)
        for (int trial = 0; trial < 1500; trial++) {
            Row a, d, old, source;
            int8_t src[WARP_SIZE];
            unsigned dist, form = random_sources(src, &dist, &state);
            random_row(a, &state);
            random_row(d, &state);
            uint32_t mask = random_mask(&state);
            bool in_place = trial % 3 == 0;
            uint64_t *dst = in_place ? a : d;
            memcpy(source, a, sizeof a);
            memcpy(old, dst, sizeof old);
            k[v]->shfl32(form, dist, dst, a, src, mask);
            for (int l = 0; l < WARP_SIZE; l++) {
                uint64_t want = (mask >> l & 1) ? (uint32_t)source[(int)src[l]] : old[l];
                ck_assert_msg(dst[l] == want, "%s form %u k %u in place %d lane %d: 0x%llx, not 0x%llx", k[v]->name,
                              form, dist, in_place, l, (unsigned long long)dst[l], (unsigned long long)want);
            }
        }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("kernels");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 60);          /* a loaded machine, or valgrind */
    tcase_add_test(tc, every_copy_computes_the_ptx_operations);
    tcase_add_test(tc, every_copy_shuffles_as_its_table_says);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
