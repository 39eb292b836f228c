/* cub_warp_exchange: blocked <-> striped rearrangements of 128 items over 32 threads.
 * Thread t, item i: blocked holds sequence element t*4+i, striped holds element i*32+t. */
#include "ref_common.h"

#define IPT 4

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(126);
    int32_t in[128], ranks[128], b2s[128], s2b[128], scat[128];
    for (int k = 0; k < 128; k++) {
        in[k] = 1000 + k * 7 + (int32_t)(rnd() % 5) * 1000000;
        ranks[k] = k;
    }
    for (int k = 127; k > 0; k--) {       /* Fisher-Yates */
        int j = (int)(rnd() % (uint32_t)(k + 1));
        int32_t tmp = ranks[k]; ranks[k] = ranks[j]; ranks[j] = tmp;
    }
    for (int t = 0; t < 32; t++)
        for (int i = 0; i < IPT; i++) {
            /* blocked input: element k = in[k]; striped output slot (t, i) = element i*32+t */
            b2s[t * IPT + i] = in[i * 32 + t];
            /* striped input: element i*32+t = in[t*IPT+i]; blocked output slot (t, i) =
             * element k = t*IPT+i, held striped by thread k%32, item k/32 */
            int k = t * IPT + i;
            s2b[t * IPT + i] = in[(k % 32) * IPT + k / 32];
        }
    /* item (t, i) with rank r goes to striped slot (r % 32, r / 32) */
    for (int t = 0; t < 32; t++)
        for (int i = 0; i < IPT; i++) {
            int r = ranks[t * IPT + i];
            scat[(r % 32) * IPT + r / 32] = in[t * IPT + i];
        }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 128);
    lanes_buf(f, "ranks", "s32", ranks, 128);
    lanes_zero(f, "b2s", "s32", 128);
    lanes_zero(f, "s2b", "s32", 128);
    lanes_zero(f, "scat", "s32", 128);
    lanes_end(f, "\"@in\", \"@ranks\", \"@b2s\", \"@s2b\", \"@scat\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "b2s", "s32", b2s, 128);
    expect_buf(f, "s2b", "s32", s2b, 128);
    expect_buf(f, "scat", "s32", scat, 128);
    expect_end_entry(f, "kernel");
    return 0;
}
