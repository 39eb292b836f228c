// Cooperative groups on one warp: thread_block_tile<8> and <16> shuffles (shfl_down, shfl_xor,
// shfl), tile votes (any, all, ballot), cg::reduce and cg::inclusive_scan over tiles, and
// coalesced_threads() inside a data-dependent branch (its size, rank and a shfl from its
// rank-0 thread).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

extern "C" __global__ void kernel(const int *in, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
    int lane = threadIdx.x;
    int v = in[lane];

    int s = v;
    for (int o = 4; o > 0; o >>= 1)
        s += t8.shfl_down(s, o);
    out[0 * 32 + lane] = s;
    int x = v;
    for (int o = 8; o > 0; o >>= 1)
        x = max(x, t16.shfl_xor(x, o));
    out[1 * 32 + lane] = x;
    out[2 * 32 + lane] = t8.shfl(v, 7 - (int)t8.thread_rank());
    out[3 * 32 + lane] = t8.any(v > 400) | (t8.all(v > -400) << 1);
    out[4 * 32 + lane] = (int)t16.ballot(v & 1);
    out[5 * 32 + lane] = cg::reduce(t16, v, cg::plus<int>());
    out[6 * 32 + lane] = cg::reduce(t8, v, cg::greater<int>());
    out[7 * 32 + lane] = cg::inclusive_scan(t8, v);
    int c = -1;
    if (v & 1) {
        cg::coalesced_group g = cg::coalesced_threads();
        c = (int)g.size() * 1000 + (int)g.thread_rank() * 10 + (g.shfl(v, 0) & 7);
    }
    out[8 * 32 + lane] = c;
}
