/* shared_dynamic: histogram and transpose; the launch gives (nbins + 32*33) * 4 bytes. */
#include "ref_common.h"

#define NBINS 45

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(135);
    uint32_t in[128], mat[1024], hist[NBINS], tout[1024];
    for (int i = 0; i < 128; i++)
        in[i] = rnd() % 1000;
    for (int i = 0; i < 1024; i++)
        mat[i] = rnd();
    memset(hist, 0, sizeof hist);
    for (int l = 0; l < 32; l++)
        for (int k = 0; k < 4; k++)
            hist[in[l * 4 + k] % NBINS] += 1u + (uint32_t)k;
    for (int r = 0; r < 32; r++)
        for (int c = 0; c < 32; c++)
            tout[r * 32 + c] = mat[c * 32 + r];
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "u32", in, 128);
    lanes_buf(f, "mat", "b32", mat, 1024);
    lanes_zero(f, "hist", "u32", NBINS);
    lanes_zero(f, "tout", "b32", 1024);
    char params[128], extra[64];
    snprintf(params, sizeof params, "\"@in\", \"@mat\", \"@hist\", \"@tout\", %d", NBINS);
    snprintf(extra, sizeof extra, "\"dynamic_shared\": %d", (NBINS + 32 * 33) * 4);
    lanes_end(f, params, extra);
    f = expect_begin(argv[2]);
    expect_buf(f, "hist", "u32", hist, NBINS);
    expect_buf(f, "tout", "b32", tout, 1024);
    expect_end(f);
    return 0;
}
