/* shift128: 128-bit per-lane shifts and a 1024-bit warp-wide shift, done bit by bit. */
#include "ref_common.h"

/* bit-serial shift of an nw-word little-endian number: dir > 0 left, < 0 right */
static void shift_words(const uint32_t *in, uint32_t *out, int nw, int n, int left)
{
    for (int i = 0; i < nw; i++)
        out[i] = 0;
    for (int bit = 0; bit < 32 * nw; bit++) {
        int from = left ? bit - n : bit + n;
        if (from < 0 || from >= 32 * nw)
            continue;
        if (in[from / 32] >> (from % 32) & 1)
            out[bit / 32] |= 1u << (bit % 32);
    }
}

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(113);
    uint32_t words[128], amount[32], shl[128], shr[128], big[32], big_out[32];
    const uint32_t n = 77;
    for (int i = 0; i < 128; i++)
        words[i] = rnd();
    static const uint32_t special[] = {0, 1, 31, 32, 33, 63, 64, 65, 95, 96, 127, 100};
    for (int i = 0; i < 32; i++)
        amount[i] = i < 12 ? special[i] : rnd() % 128;
    for (int i = 0; i < 32; i++)
        big[i] = rnd();
    for (int l = 0; l < 32; l++) {
        shift_words(words + 4 * l, shl + 4 * l, 4, (int)amount[l], 1);
        shift_words(words + 4 * l, shr + 4 * l, 4, (int)amount[l], 0);
    }
    shift_words(big, big_out, 32, (int)n, 1);
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "words", "b32", words, 128);
    lanes_buf(f, "amount", "u32", amount, 32);
    lanes_zero(f, "shl", "b32", 128);
    lanes_zero(f, "shr", "b32", 128);
    lanes_buf(f, "big", "b32", big, 32);
    lanes_zero(f, "big_out", "b32", 32);
    char params[200];
    snprintf(params, sizeof params, "\"@words\", \"@amount\", \"@shl\", \"@shr\", \"@big\", \"@big_out\", %u", n);
    lanes_end(f, params, NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "shl", "b32", shl, 128);
    expect_buf(f, "shr", "b32", shr, 128);
    expect_buf(f, "big_out", "b32", big_out, 32);
    expect_end(f);
    return 0;
}
