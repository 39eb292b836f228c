/* cg_coalesced_arms: coalesced_threads() in both arms of an if. CUDA's coalesced_group is the
 * set of threads active at the call, ranked by lane number; here that is exactly the lanes of
 * each arm (odd inputs, even inputs). Its shfl reads by rank, shfl_down/shfl_up read rank +- d
 * and keep their own value past the group's ends, ballot sets bit r for the thread of rank r. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    check_args(argc, argv);
    rng_seed(1307);
    int32_t in[32], out[6 * 32];
    for (int i = 0; i < 32; i++)
        in[i] = rnd_range(-500, 500);
    in[0] |= 1;                      /* both arms have lanes */
    in[1] &= ~1;
    for (int odd = 0; odd < 2; odd++) {
        int member[32], size = 0;    /* the arm's lanes in rank order */
        for (int i = 0; i < 32; i++)
            if ((in[i] & 1) == odd)
                member[size++] = i;
        int32_t total = 0, largest = INT32_MIN, scan = 0, low = INT32_MAX;
        uint32_t ballot = 0;
        for (int r = 0; r < size; r++) {
            int32_t v = in[member[r]];
            total += v;
            largest = v > largest ? v : largest;
            if (odd ? v > 0 : v < 0)
                ballot |= 1u << r;
        }
        for (int r = 0; r < size; r++) {
            int l = member[r];
            int32_t v = in[l];
            scan += v;
            low = v < low ? v : low;
            out[0 * 32 + l] = odd ? total : largest;
            out[1 * 32 + l] = size * 100 + r;
            out[2 * 32 + l] = odd ? in[member[size - 1]] : in[member[0]];
            if (odd)
                out[3 * 32 + l] = r + 1 < size ? in[member[r + 1]] : v;
            else
                out[3 * 32 + l] = r >= 2 ? in[member[r - 2]] : v;
            out[4 * 32 + l] = (int32_t)ballot;
            out[5 * 32 + l] = odd ? scan : low;
        }
    }
    FILE *f = lanes_begin(argv[1], 32);
    lanes_buf(f, "in", "s32", in, 32);
    lanes_zero(f, "out", "s32", 6 * 32);
    lanes_end(f, "\"@in\", \"@out\"", NULL);
    f = expect_begin(argv[2]);
    expect_buf(f, "out", "s32", out, 6 * 32);
    expect_end(f);
    return 0;
}
