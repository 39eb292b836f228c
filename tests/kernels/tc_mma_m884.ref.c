/* tc_mma_m884: four independent 8 x 8 x 4 products D = A B + C in f16 (one per quad-pair),
 * small integers: exact. */
#include "tc_ref.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(3408);
    static uint16_t ha[4 * 32], hb[4 * 32], hc[4 * 64], hd[4 * 64];
    for (int p = 0; p < 4; p++) {
        int a[8][4], b[4][8], c[8][8];
        for (int m = 0; m < 8; m++)
            for (int k = 0; k < 4; k++) {
                a[m][k] = rnd_range(-8, 8);
                ha[p * 32 + m * 4 + k] = tc_half_bits(a[m][k]);    /* row-major */
            }
        for (int n = 0; n < 8; n++)
            for (int k = 0; k < 4; k++) {
                b[k][n] = rnd_range(-8, 8);
                hb[p * 32 + n * 4 + k] = tc_half_bits(b[k][n]);    /* col-major */
            }
        for (int m = 0; m < 8; m++)
            for (int n = 0; n < 8; n++) {
                c[m][n] = rnd_range(-500, 500);
                hc[p * 64 + m * 8 + n] = tc_half_bits(c[m][n]);
            }
        for (int m = 0; m < 8; m++)
            for (int n = 0; n < 8; n++) {
                int s = c[m][n];
                for (int k = 0; k < 4; k++)
                    s += a[m][k] * b[k][n];                         /* below 2048: exact in f16 */
                hd[p * 64 + m * 8 + n] = tc_half_bits(s);
            }
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "a", "b16", ha, 4 * 32);
    lanes_buf(f, "b", "b16", hb, 4 * 32);
    lanes_buf(f, "c", "b16", hc, 4 * 64);
    lanes_zero(f, "d", "b16", 4 * 64);
    lanes_end(f, "\"@a\", \"@b\", \"@c\", \"@d\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "d", "b16", hd, 4 * 64);
    expect_end(f);
    return 0;
}
