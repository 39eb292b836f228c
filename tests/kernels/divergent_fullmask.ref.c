/* divergent_fullmask: full-mask shuffles and ballots in both arms of a branch. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(119);
    int32_t in[32], out[4 * 32], sup[32];
    for (int i = 0; i < 32; i++)
        in[i] = rnd_range(-500, 500);
    in[0] = 17; in[1] = -4;
    /* (1) each lane supplies v*3 (odd v) or v+1000 (even v); reads lane ^ 1 */
    for (int i = 0; i < 32; i++)
        sup[i] = (in[i] & 1) ? in[i] * 3 : in[i] + 1000;
    for (int i = 0; i < 32; i++)
        out[i] = (in[i] & 1) ? sup[i ^ 1] + 7 : sup[i ^ 1] - 7;
    /* (2) lanes with bit 1 supply v and read lane-2 (mod 32); the others supply -v, read 31-lane */
    for (int i = 0; i < 32; i++)
        sup[i] = (i & 2) ? in[i] : -in[i];
    for (int i = 0; i < 32; i++)
        out[32 + i] = (i & 2) ? sup[(i - 2) & 31] * 5 : sup[31 - i] ^ 0x55;
    /* (3) one ballot over every lane's own predicate */
    uint32_t b = 0;
    for (int i = 0; i < 32; i++)
        if (in[i] > 0 ? (i & 1) : (i & 2))
            b |= 1u << i;
    for (int i = 0; i < 32; i++)
        out[64 + i] = (int32_t)(in[i] > 0 ? b : b + 1);
    /* (4) shared memory exchanged across the two arms' __syncwarp() */
    for (int i = 0; i < 32; i++)
        out[96 + i] = i < 16 ? (in[i + 16] - 1) * 2 : (in[i - 16] + 1) * 3;
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_zero(f, "out", "s32", 4 * 32);
    lanes_end(f, "\"@in\", \"@out\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "s32", out, 4 * 32);
    expect_end(f);
    return 0;
}
