/* warp_aggregated: the lanes above the threshold, compacted in lane order after ctr's start. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(133);
    const int thr = 250;
    int32_t in[32], ctr[1] = {3}, compact[40], pos[32];
    for (int i = 0; i < 32; i++)
        in[i] = rnd_range(0, 999);
    memset(compact, 0, sizeof compact);
    int32_t start = ctr[0], n = 0;
    for (int i = 0; i < 32; i++) {
        pos[i] = -1;
        if (in[i] > thr) {
            pos[i] = start + n++;
            compact[pos[i]] = in[i];
        }
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_buf(f, "ctr", "s32", ctr, 1);
    lanes_zero(f, "compact", "s32", 40);
    lanes_zero(f, "pos", "s32", 32);
    char params[128];
    snprintf(params, sizeof params, "\"@in\", \"@ctr\", \"@compact\", \"@pos\", %d", thr);
    lanes_end(f, params, NULL);
    ctr[0] = start + n;
    f = expect_begin(argv[2]);
    expect_buf(f, "ctr", "s32", ctr, 1);
    expect_buf(f, "compact", "s32", compact, 40);
    expect_buf(f, "pos", "s32", pos, 32);
    expect_end(f);
    return 0;
}
