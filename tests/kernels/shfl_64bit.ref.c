/* shfl_64bit: 64-bit integer and double shuffles. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(121);
    int64_t lin[32], lout[6 * 32];
    uint64_t u[32];
    double din[32], dout[4 * 32], p[32];
    for (int i = 0; i < 32; i++) {
        lin[i] = (int64_t)rnd64();
        din[i] = rnd_double(3);
        u[i] = (uint64_t)lin[i] * 0x9e3779b97f4a7c15ull;
    }
    for (int i = 0; i < 32; i++) {
        lout[0 * 32 + i] = lin[(i * 7) & 31];
        lout[1 * 32 + i] = lin[cuda_shfl_src(SHFL_UP, i, 3, 32)];
        lout[2 * 32 + i] = lin[cuda_shfl_src(SHFL_DOWN, i, 5, 32)];
        lout[3 * 32 + i] = lin[i ^ 19];
        lout[4 * 32 + i] = (int64_t)u[cuda_shfl_src(SHFL_BFLY, i, 6, 8)];
        lout[5 * 32 + i] = (int64_t)u[cuda_shfl_src(SHFL_DOWN, i, 3, 8)];
        dout[0 * 32 + i] = din[31 - i];
        dout[1 * 32 + i] = din[cuda_shfl_src(SHFL_UP, i, 1, 16)];
        dout[2 * 32 + i] = din[cuda_shfl_src(SHFL_DOWN, i, 9, 32)];
    }
    memcpy(p, din, sizeof p);
    for (int o = 1; o < 32; o <<= 1) {
        double np[32];
        for (int i = 0; i < 32; i++)
            np[i] = p[i] * p[i ^ o];
        memcpy(p, np, sizeof p);
    }
    for (int i = 0; i < 32; i++)
        dout[3 * 32 + i] = p[i];
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "lin", "s64", lin, 32);
    lanes_buf(f, "din", "f64", din, 32);
    lanes_zero(f, "lout", "s64", 6 * 32);
    lanes_zero(f, "dout", "f64", 4 * 32);
    lanes_end(f, "\"@lin\", \"@din\", \"@lout\", \"@dout\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "lout", "s64", lout, 6 * 32);
    expect_buf(f, "dout", "f64", dout, 4 * 32);
    expect_end(f);
    return 0;
}
