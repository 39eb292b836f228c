/* match: match_any / match_all masks and predicates on 32- and 64-bit keys. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(116);
    const int32_t uni = -77;
    const int64_t uni64 = 0x123456789abcdefll;
    int32_t in[32], preds[4 * 32];
    int64_t lin[32];
    uint32_t out[7 * 32];
    for (int i = 0; i < 32; i++) {
        in[i] = rnd_range(0, 4) - 2;
        lin[i] = (int64_t)(((uint64_t)rnd_range(0, 3) << 32) | 0xdeadbeefu);
    }
    for (int i = 0; i < 32; i++) {
        uint32_t m32 = 0, m64 = 0, mh = 0;
        for (int j = 0; j < 32; j++) {
            if (in[j] == in[i]) m32 |= 1u << j;
            if (lin[j] == lin[i]) m64 |= 1u << j;
            if ((j < 16) == (i < 16) && in[j] == in[i]) mh |= 1u << j;
        }
        out[0 * 32 + i] = m32;
        out[1 * 32 + i] = m64;
        out[2 * 32 + i] = 0xffffffffu;   /* all lanes pass the same value */
        out[3 * 32 + i] = 0;             /* the values differ */
        out[4 * 32 + i] = 0xffffffffu;
        out[5 * 32 + i] = 0;
        out[6 * 32 + i] = mh;
        preds[0 * 32 + i] = 1;
        preds[1 * 32 + i] = 0;
        preds[2 * 32 + i] = 1;
        preds[3 * 32 + i] = 0;
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_buf(f, "lin", "s64", lin, 32);
    lanes_zero(f, "out", "b32", 7 * 32);
    lanes_zero(f, "preds", "s32", 4 * 32);
    char params[200];
    /* nvcc declares an int parameter .u32: pass the negative value as raw bits */
    snprintf(params, sizeof params, "\"@in\", \"@lin\", \"@out\", \"@preds\", \"0x%08x\", %lld", (unsigned)uni, (long long)uni64);
    lanes_end(f, params, NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "b32", out, 7 * 32);
    expect_buf(f, "preds", "s32", preds, 4 * 32);
    expect_end(f);
    return 0;
}
