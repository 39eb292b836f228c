/* cub_block_scan: block-wide inclusive/exclusive sums, max scan and a 2-item scan over 256 threads. */
#include "ref_common.h"

#define N 256

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(703);
    int32_t in[N], incl[N], excl[N], maxscan[N], excl2[2 * N], aggregate[1];
    for (int i = 0; i < N; i++)
        in[i] = rnd_range(-100000, 100000);
    int32_t run = 0, mx = INT32_MIN;
    for (int i = 0; i < N; i++) {
        excl[i] = run;
        run += in[i];
        incl[i] = run;
        if (in[i] > mx)
            mx = in[i];
        maxscan[i] = mx;
    }
    aggregate[0] = run;
    run = 0;
    for (int i = 0; i < 2 * N; i++) {
        excl2[i] = run;
        run += in[i % N];
    }
    FILE *f = lanes_begin(argv[1], N);
    lanes_buf(f, "in", "s32", in, N);
    lanes_zero(f, "incl", "s32", N);
    lanes_zero(f, "excl", "s32", N);
    lanes_zero(f, "maxscan", "s32", N);
    lanes_zero(f, "excl2", "s32", 2 * N);
    lanes_zero(f, "aggregate", "s32", 1);
    lanes_end(f, "\"@in\", \"@incl\", \"@excl\", \"@maxscan\", \"@excl2\", \"@aggregate\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "incl", "s32", incl, N);
    expect_buf(f, "excl", "s32", excl, N);
    expect_buf(f, "maxscan", "s32", maxscan, N);
    expect_buf(f, "excl2", "s32", excl2, 2 * N);
    expect_buf(f, "aggregate", "s32", aggregate, 1);
    expect_end_entry(f, "kernel");
    return 0;
}
