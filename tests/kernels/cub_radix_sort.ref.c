/* cub_radix_sort: 512 keys sorted by a block of 128 threads, 4 each: unsigned ascending, int
 * descending with their positions (stable), and unsigned by bits 4-11 only (stable). The
 * expected orders come from qsort with the position as the tie-break (a stable sort). */
#include "ref_common.h"

#define N 512

static const uint32_t *u_keys;
static const int32_t *i_keys;

static int by_value(const void *x, const void *y)
{
    uint32_t a = u_keys[*(const int *)x], b = u_keys[*(const int *)y];
    return a < b ? -1 : a > b ? 1 : *(const int *)x - *(const int *)y;
}

static int by_bits_4_to_11(const void *x, const void *y)
{
    uint32_t a = u_keys[*(const int *)x] >> 4 & 0xff, b = u_keys[*(const int *)y] >> 4 & 0xff;
    return a < b ? -1 : a > b ? 1 : *(const int *)x - *(const int *)y;
}

static int descending(const void *x, const void *y)
{
    int32_t a = i_keys[*(const int *)x], b = i_keys[*(const int *)y];
    return a > b ? -1 : a < b ? 1 : *(const int *)x - *(const int *)y;
}

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(1313);
    static uint32_t ukeys[N], sorted[N], by_bits[N];
    static int32_t ikeys[N], desc_keys[N], desc_values[N];
    for (int i = 0; i < N; i++) {
        ukeys[i] = (i % 7 == 0) ? rnd() % 16 : rnd();       /* some equal keys, some equal digits */
        ikeys[i] = (i % 5 == 0) ? rnd_range(-3, 3) : (int32_t)rnd();
    }
    u_keys = ukeys;
    i_keys = ikeys;
    int order[N];
    for (int i = 0; i < N; i++)
        order[i] = i;
    qsort(order, N, sizeof order[0], by_value);
    for (int i = 0; i < N; i++)
        sorted[i] = ukeys[order[i]];
    for (int i = 0; i < N; i++)
        order[i] = i;
    qsort(order, N, sizeof order[0], by_bits_4_to_11);
    for (int i = 0; i < N; i++)
        by_bits[i] = ukeys[order[i]];
    for (int i = 0; i < N; i++)
        order[i] = i;
    qsort(order, N, sizeof order[0], descending);
    for (int i = 0; i < N; i++) {
        desc_keys[i] = ikeys[order[i]];
        desc_values[i] = order[i];
    }
    FILE *f = lanes_begin(argv[1], 128);
    lanes_buf(f, "ukeys", "u32", ukeys, N);
    lanes_buf(f, "ikeys", "s32", ikeys, N);
    lanes_zero(f, "sorted", "u32", N);
    lanes_zero(f, "desc_keys", "s32", N);
    lanes_zero(f, "desc_values", "s32", N);
    lanes_zero(f, "by_bits", "u32", N);
    lanes_end(f, "\"@ukeys\", \"@ikeys\", \"@sorted\", \"@desc_keys\", \"@desc_values\", \"@by_bits\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "sorted", "u32", sorted, N);
    expect_buf(f, "desc_keys", "s32", desc_keys, N);
    expect_buf(f, "desc_values", "s32", desc_values, N);
    expect_buf(f, "by_bits", "u32", by_bits, N);
    expect_end_entry(f, "kernel");
    return 0;
}
