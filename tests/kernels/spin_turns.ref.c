/* spin_turns: turn order from a permutation; the lock-protected counters. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(129);
    int32_t order[32], seq[32], lock[1] = {0};
    uint32_t hash = 17, counter[2] = {5, 7};
    for (int i = 0; i < 32; i++)
        order[i] = i;
    for (int k = 31; k > 0; k--) {
        int j = (int)(rnd() % (uint32_t)(k + 1));
        int32_t t = order[k]; order[k] = order[j]; order[j] = t;
    }
    for (int i = 0; i < 32; i++)
        seq[order[i]] = i;
    for (int t = 0; t < 32; t++)
        hash = hash * 31u + (uint32_t)seq[t];
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "order", "s32", order, 32);
    lanes_zero(f, "seq", "s32", 32);
    lanes_zero(f, "hash", "u32", 1);
    lanes_buf(f, "lock", "s32", lock, 1);
    lanes_buf(f, "counter", "u32", counter, 2);
    lanes_end(f, "\"@order\", \"@seq\", \"@hash\", \"@lock\", \"@counter\"", NULL);
    for (int i = 0; i < 32; i++) {
        counter[0] += 1;
        counter[1] += (uint32_t)(i * i);
    }
    f = expect_begin(argv[2]);
    expect_buf(f, "seq", "s32", seq, 32);
    expect_buf(f, "hash", "u32", &hash, 1);
    expect_buf(f, "lock", "s32", lock, 1);
    expect_buf(f, "counter", "u32", counter, 2);
    expect_end(f);
    return 0;
}
