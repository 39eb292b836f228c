/* fence_reduction: 6 CTAs of 128 threads over n = 3000 ints. Each CTA's partial is the sum of
 * the elements its threads visit (grid stride 2 * 128 * 6, two elements 128 apart per step);
 * the last CTA adds the six partials. Integer sums do not depend on the order of the adds.
 * The launch gives 128 * 4 bytes of dynamic shared memory (both extern names). */
#include "ref_common.h"

#define CTAS 6
#define T 128
#define N 3000

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(1802);
    static int32_t in[N];
    int32_t partials[CTAS], total[1] = { 0 }, plain = 0;
    uint32_t last[2];
    for (int i = 0; i < N; i++)
        in[i] = rnd_range(-100000, 100000);
    for (int cta = 0; cta < CTAS; cta++) {
        int32_t s = 0;
        for (int t = 0; t < T; t++)
            for (int i = cta * T * 2 + t; i < N; i += T * 2 * CTAS) {
                s += in[i];
                if (i + T < N)
                    s += in[i + T];
            }
        partials[cta] = s;
        total[0] += s;
    }
    for (int i = 0; i < N; i++)
        plain += in[i];
    if (plain != total[0]) {
        fprintf(stderr, "fence_reduction.ref: the partials miss elements\n");
        return 1;
    }
    last[0] = T;            /* every thread of the one CTA that draws ticket CTAS - 1 */
    last[1] = CTAS - 1;
    int block[3] = { T, 1, 1 }, grid[3] = { CTAS, 1, 1 };
    FILE *f = lanes_begin_grid(argv[1], block, grid);
    lanes_buf(f, "in", "s32", in, N);
    lanes_zero(f, "partials", "s32", CTAS);
    lanes_zero(f, "total", "s32", 1);
    lanes_zero(f, "last", "u32", 2);
    char params[128];
    snprintf(params, sizeof params, "\"@in\", \"@partials\", \"@total\", \"@last\", %d", N);
    char extra[64];
    snprintf(extra, sizeof extra, "\"dynamic_shared\": %d", T * 4);
    lanes_end(f, params, extra);
    f = expect_begin(argv[2]);
    expect_buf(f, "partials", "s32", partials, CTAS);
    expect_buf(f, "total", "s32", total, 1);
    expect_buf(f, "last", "u32", last, 2);
    expect_end(f);
    return 0;
}
