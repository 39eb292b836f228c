/* grid_blocks: 4 CTAs (2 x 2) of 64 threads (16 x 4), each writing its own part of the output. */
#include "ref_common.h"

#define CTAS 4
#define T 64

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(705);
    int32_t in[CTAS * T], sums[CTAS * T], counter[1] = { 0 };
    uint32_t ids[2 * CTAS * T];
    for (int i = 0; i < CTAS * T; i++)
        in[i] = rnd_range(-10000, 10000);
    for (int by = 0; by < 2; by++)
        for (int bx = 0; bx < 2; bx++) {
            int cta = by * 2 + bx, s = 0;
            for (int i = 0; i < T; i++)
                s += in[cta * T + i];
            for (int ty = 0; ty < 4; ty++)
                for (int tx = 0; tx < 16; tx++) {
                    int tid = ty * 16 + tx, g = cta * T + tid;
                    sums[g] = s + in[cta * T + 63 - tid];
                    ids[2 * g] = (uint32_t)(bx | by << 8 | tx << 16 | ty << 24);
                    ids[2 * g + 1] = 16u | 4u << 8 | 2u << 16 | 2u << 24;
                }
            counter[0]++;
        }
    int block[3] = { 16, 4, 1 }, grid[3] = { 2, 2, 1 };
    FILE *f = lanes_begin_grid(argv[1], block, grid);
    lanes_buf(f, "in", "s32", in, CTAS * T);
    lanes_zero(f, "sums", "s32", CTAS * T);
    lanes_zero(f, "ids", "b32", 2 * CTAS * T);
    lanes_zero(f, "counter", "s32", 1);
    lanes_end(f, "\"@in\", \"@sums\", \"@ids\", \"@counter\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "sums", "s32", sums, CTAS * T);
    expect_buf(f, "ids", "b32", ids, 2 * CTAS * T);
    expect_buf(f, "counter", "s32", counter, 1);
    expect_end(f);
    return 0;
}
