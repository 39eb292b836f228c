/* tc_mma_int_shapes: seven integer / single-bit mma forms, one tile each: elements decoded from
 * the packed words (element i of a word in bits i*w .. i*w + w - 1), D = C + A B exactly,
 * clamped to the s32 range where .satfinite is given; b1: C + popc(a xor b) or popc(a and b). */
#include "tc_ref.h"

typedef struct Form {
    int m, k, bits, a_signed, b_signed, sat, op;   /* op: 0 multiply, 1 xor.popc, 2 and.popc */
} Form;

static const Form forms[7] = {
    { 8, 16, 8, 1, 0, 0, 0 },   { 16, 16, 8, 0, 0, 1, 0 }, { 8, 32, 4, 1, 1, 0, 0 },  { 16, 32, 4, 0, 1, 0, 0 },
    { 16, 64, 4, 1, 0, 1, 0 },  { 8, 128, 1, 0, 0, 0, 1 }, { 16, 128, 1, 0, 0, 0, 2 },
};

static int64_t element(const uint32_t *row, int i, int bits, int sgn)
{
    uint32_t v = (row[i * bits / 32] >> (i * bits % 32)) & ((bits == 32 ? 0 : 1u << bits) - 1);
    if (sgn && bits > 1 && (v >> (bits - 1)))
        return (int64_t)v - ((int64_t)1 << bits);
    return v;
}

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(3407);
    static uint32_t a[7 * 256], b[7 * 64];
    static int32_t c[7 * 128], d[7 * 128];
    for (int i = 0; i < 7 * 256; i++)
        a[i] = rnd();
    for (int i = 0; i < 7 * 64; i++)
        b[i] = rnd();
    for (int f = 0; f < 7; f++)
        for (int i = 0; i < 128; i++) {
            int32_t v = rnd_range(-100000, 100000);
            if (forms[f].sat) {   /* near the limits, so that some sums clamp */
                int32_t off = rnd_range(0, forms[f].bits == 4 ? 3000 : 60000);
                v = (rnd() & 1) ? INT32_MAX - off : INT32_MIN + off;
            }
            c[128 * f + i] = i < forms[f].m * 8 ? v : 0;
        }
    for (int f = 0; f < 7; f++) {
        const Form *x = &forms[f];
        int kw = x->k * x->bits / 32;
        for (int m = 0; m < x->m; m++)
            for (int n = 0; n < 8; n++) {
                const uint32_t *ar = a + 256 * f + m * kw, *bc = b + 64 * f + n * kw;
                int64_t s = c[128 * f + m * 8 + n];
                for (int k = 0; k < x->k; k++) {
                    int64_t p = element(ar, k, x->bits, x->a_signed), q = element(bc, k, x->bits, x->b_signed);
                    s += x->op == 0 ? p * q : x->op == 1 ? (p ^ q) : (p & q);
                }
                if (x->sat)
                    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                d[128 * f + m * 8 + n] = (int32_t)(uint32_t)(uint64_t)s;
            }
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "a", "b32", a, 7 * 256);
    lanes_buf(f, "b", "b32", b, 7 * 64);
    lanes_buf(f, "c", "s32", c, 7 * 128);
    lanes_zero(f, "d", "s32", 7 * 128);
    lanes_end(f, "\"@a\", \"@b\", \"@c\", \"@d\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "d", "s32", d, 7 * 128);
    expect_end(f);
    return 0;
}
