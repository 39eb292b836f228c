/* bitonic_sort: simulate the kernel's network, then check it against qsort. */
#include "ref_common.h"

static int cmp_int(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(122);
    int32_t keys[32], x[32], pl[32], check[32];
    float fkeys[32], f[32];
    for (int i = 0; i < 32; i++) {
        int32_t k;
        int dup;
        do {                         /* distinct keys, so the payload order is unique */
            k = (int32_t)(rnd() % 2000001u) - 1000000;
            dup = 0;
            for (int j = 0; j < i; j++)
                dup |= keys[j] == k;
        } while (dup);
        keys[i] = k;
        fkeys[i] = rnd_float(6);
    }
    memcpy(x, keys, sizeof x);
    memcpy(f, fkeys, sizeof f);
    for (int i = 0; i < 32; i++)
        pl[i] = i;
    for (int k = 2; k <= 32; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            int32_t nx[32], np[32];
            float nf[32];
            for (int i = 0; i < 32; i++) {
                int32_t y = x[i ^ j], py = pl[i ^ j];
                float g = f[i ^ j];
                int up = (i & k) == 0, lower = (i & j) == 0, take_min = lower == up;
                int swap = take_min ? y < x[i] : y > x[i];
                nx[i] = swap ? y : x[i];
                np[i] = swap ? py : pl[i];
                nf[i] = take_min ? fmaxf(f[i], g) : fminf(f[i], g);
            }
            memcpy(x, nx, sizeof x);
            memcpy(pl, np, sizeof pl);
            memcpy(f, nf, sizeof f);
        }
    memcpy(check, keys, sizeof check);
    qsort(check, 32, sizeof check[0], cmp_int);
    for (int i = 0; i < 32; i++)
        if (check[i] != x[i] || keys[pl[i]] != x[i] || (i && f[i] > f[i - 1]))
            return fprintf(stderr, "bitonic_sort.ref: self-check failed\n"), 1;
    FILE *fo = lanes_begin(argv[1], 32);
    lanes_buf(fo, "keys", "s32", keys, 32);
    lanes_buf(fo, "fkeys", "f32", fkeys, 32);
    lanes_zero(fo, "sorted", "s32", 32);
    lanes_zero(fo, "payload", "s32", 32);
    lanes_zero(fo, "fsorted", "f32", 32);
    lanes_end(fo, "\"@keys\", \"@fkeys\", \"@sorted\", \"@payload\", \"@fsorted\"", NULL);
    fo = expect_begin(argv[2]);
    expect_buf(fo, "sorted", "s32", x, 32);
    expect_buf(fo, "payload", "s32", pl, 32);
    expect_buf(fo, "fsorted", "f32", f, 32);
    expect_end(fo);
    return 0;
}
