/* cg_block_tiles: thread_block_tile<64> of 128 threads: the tile's sum and maximum, lane 5's
 * value of the tile, and the tile's number and the thread's rank in it. */
#include "ref_common.h"

#define N 128
#define TILE 64

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(1307);
    int32_t in[N], out[4 * N];
    for (int i = 0; i < N; i++)
        in[i] = rnd_range(-100000, 100000);
    for (int t = 0; t < N; t++) {
        int tile = t / TILE, first = tile * TILE;
        int32_t sum = 0, max = in[first];
        for (int k = first; k < first + TILE; k++) {
            sum += in[k];
            max = in[k] > max ? in[k] : max;
        }
        out[t] = sum;
        out[N + t] = in[first + 5];
        out[2 * N + t] = tile * 1000 + t % TILE;
        out[3 * N + t] = max;
    }
    FILE *f = lanes_begin(argv[1], N);
    lanes_buf(f, "in", "s32", in, N);
    lanes_zero(f, "out", "s32", 4 * N);
    lanes_end(f, "\"@in\", \"@out\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "s32", out, 4 * N);
    expect_end(f);
    return 0;
}
