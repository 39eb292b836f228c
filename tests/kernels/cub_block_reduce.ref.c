/* cub_block_reduce: block-wide sum, max, partial sum and 4-item sum over 256 threads. */
#include "ref_common.h"

#define N 256
#define VALID 100

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(702);
    int32_t in[N], out[4];
    for (int i = 0; i < N; i++)
        in[i] = rnd_range(-100000, 100000);
    int32_t sum = 0, mx = INT32_MIN, partial = 0, sum4 = 0;
    for (int i = 0; i < N; i++) {
        sum += in[i];
        if (in[i] > mx)
            mx = in[i];
        if (i < VALID)
            partial += in[i];
        for (int k = 0; k < 4; k++)
            sum4 += in[(i * 4 + k) % N] ^ k;
    }
    out[0] = sum;
    out[1] = mx;
    out[2] = partial;
    out[3] = sum4;
    FILE *f = lanes_begin(argv[1], N);
    lanes_buf(f, "in", "s32", in, N);
    lanes_zero(f, "out", "s32", 4);
    lanes_end(f, "\"@in\", \"@out\", 100", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "s32", out, 4);
    expect_end_entry(f, "kernel");
    return 0;
}
