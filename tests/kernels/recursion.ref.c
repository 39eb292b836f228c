/* recursion: the same recursive functions on the host. */
#include "ref_common.h"

static int32_t fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static uint32_t frame_chain(uint32_t n, uint32_t seed)
{
    uint32_t buf[4];
    for (int i = 0; i < 4; i++)
        buf[i] = seed * (uint32_t)(i + 1) + n;
    uint32_t r = n == 0 ? 0u : frame_chain(n - 1, seed * 33u + 7u);
    return r * 5u + (buf[n & 3] ^ buf[(n + 1) & 3]);
}

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(134);
    uint32_t seeds[32], cout[32];
    int32_t fout[32];
    for (int i = 0; i < 32; i++)
        seeds[i] = rnd();
    for (int i = 0; i < 32; i++) {
        fout[i] = fib(i % 16);
        cout[i] = frame_chain((uint32_t)i % 9u, seeds[i]);
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "seeds", "u32", seeds, 32);
    lanes_zero(f, "fout", "s32", 32);
    lanes_zero(f, "cout", "u32", 32);
    lanes_end(f, "\"@seeds\", \"@fout\", \"@cout\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "fout", "s32", fout, 32);
    expect_buf(f, "cout", "u32", cout, 32);
    expect_end(f);
    return 0;
}
