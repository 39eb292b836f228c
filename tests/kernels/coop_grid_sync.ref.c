/* coop_grid_sync: a cooperative launch of 8 CTAs of 64 threads, two grid.sync()s. */
#include "ref_common.h"

#define CTAS 8
#define T 64
#define N 3000

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(3701);
    uint32_t in[N], partial[CTAS] = { 0 }, total[CTAS], next[CTAS * T], meta[4];
    for (int i = 0; i < N; i++)
        in[i] = rnd() % 100000u;
    for (int i = 0; i < N; i++)                 /* thread i % 512 of the grid reads in[i]: CTA i / 64 % 8 */
        partial[i / T % CTAS] += in[i];
    uint32_t sum = 0;
    for (int b = 0; b < CTAS; b++)
        sum += partial[b];
    for (int b = 0; b < CTAS; b++)
        total[b] = sum + (uint32_t)b;
    for (int t = 0; t < CTAS * T; t++)
        next[t] = total[(t / T + 1) % CTAS];
    meta[0] = 1, meta[1] = CTAS * T, meta[2] = CTAS * T - 1, meta[3] = CTAS;
    int block[3] = { T, 1, 1 }, grid[3] = { CTAS, 1, 1 };
    FILE *f = lanes_begin_grid(argv[1], block, grid);
    lanes_buf(f, "in", "u32", in, N);
    lanes_zero(f, "partial", "u32", CTAS);
    lanes_zero(f, "total", "u32", CTAS);
    lanes_zero(f, "next", "u32", CTAS * T);
    lanes_zero(f, "meta", "u32", 4);
    char params[64];
    snprintf(params, sizeof params, "\"@in\", %d, \"@partial\", \"@total\", \"@next\", \"@meta\"", N);
    lanes_end(f, params, "\"cooperative\": true");
    f = expect_begin(argv[2]);
    expect_buf(f, "partial", "u32", partial, CTAS);
    expect_buf(f, "total", "u32", total, CTAS);
    expect_buf(f, "next", "u32", next, CTAS * T);
    expect_buf(f, "meta", "u32", meta, 4);
    expect_end(f);
    return 0;
}
