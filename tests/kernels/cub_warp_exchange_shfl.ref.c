/* cub_warp_exchange_shfl: blocked <-> striped within four logical warps of 8 threads.
 * In logical warp w, thread t, item i: blocked holds element t*8+i, striped element i*8+t;
 * element k of warp w is in[w*64 + ...] as loaded. */
#include "ref_common.h"

#define N 8

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(127);
    int32_t in[256], b2s[256], s2b[256];
    for (int k = 0; k < 256; k++)
        in[k] = k * 3 + (int32_t)(rnd() % 7) * 100000;
    for (int lane = 0; lane < 32; lane++) {
        int w = lane / N, t = lane % N;
        for (int i = 0; i < N; i++) {
            /* blocked input: element k of warp w = in[w*64 + k] */
            b2s[lane * N + i] = in[w * 64 + i * N + t];
            /* striped input: element i*8+t of warp w = in[(w*8+t)*8 + i]; blocked output
             * wants element k = t*8+i, held by thread k%8 item k/8 */
            int k = t * N + i;
            s2b[lane * N + i] = in[(w * N + k % N) * N + k / N];
        }
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 256);
    lanes_zero(f, "b2s", "s32", 256);
    lanes_zero(f, "s2b", "s32", 256);
    lanes_end(f, "\"@in\", \"@b2s\", \"@s2b\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "b2s", "s32", b2s, 256);
    expect_buf(f, "s2b", "s32", s2b, 256);
    expect_end_entry(f, "kernel");
    return 0;
}
