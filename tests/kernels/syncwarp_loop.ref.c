/* syncwarp_loop: ring stencils through shared memory, iterated lane-synchronously. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(120);
    const int iters = 9;
    uint32_t in[32], x[32], y[32], out[64];
    for (int i = 0; i < 32; i++)
        in[i] = rnd();
    memcpy(x, in, sizeof x);
    for (int it = 0; it < iters; it++) {
        uint32_t nx[32];
        for (int i = 0; i < 32; i++)
            nx[i] = x[(i + 31) & 31] - 2u * x[i] + x[(i + 1) & 31] + (uint32_t)it;
        memcpy(x, nx, sizeof x);
    }
    for (int i = 0; i < 32; i++)
        y[i] = in[i] ^ 0xabcdu;
    for (int it = 0; it < iters; it++) {
        uint32_t ny[16];
        for (int i = 0; i < 16; i++)
            ny[i] = y[(i + 1) & 15] * 3u + (uint32_t)i;
        memcpy(y, ny, sizeof ny);
    }
    for (int it = 0; it < iters + 3; it++) {
        uint32_t ny[16];
        for (int i = 16; i < 32; i++)
            ny[i - 16] = y[16 + ((i + 15) & 15)] + y[i];
        memcpy(y + 16, ny, sizeof ny);
    }
    for (int i = 0; i < 32; i++) {
        out[i] = x[i];
        out[32 + i] = y[i];
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "u32", in, 32);
    lanes_zero(f, "out", "u32", 64);
    char params[64];
    snprintf(params, sizeof params, "\"@in\", \"@out\", %d", iters);
    lanes_end(f, params, NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "u32", out, 64);
    expect_end(f);
    return 0;
}
