// coalesced_threads() in both arms of a data-dependent if: each arm's coalesced group is exactly
// the lanes that took the arm (CUDA: the threads active when it is called), so cg::reduce,
// cg::inclusive_scan, the group's shfl, shfl_down, shfl_up (ranks through __fns) and ballot
// (a bit per rank) each stay within their arm. In a -G build coalesced_threads(), the
// reductions and the shuffles are calls that both arms make: on an H100 the arms still run
// them apart, as the two groups say.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

extern "C" __global__ void kernel(const int *in, int *out)
{
    int lane = threadIdx.x;
    int v = in[lane];
    int r[6];
    if (v & 1) {
        cg::coalesced_group g = cg::coalesced_threads();
        r[0] = cg::reduce(g, v, cg::plus<int>());
        r[1] = (int)g.size() * 100 + (int)g.thread_rank();
        r[2] = g.shfl(v, (int)g.size() - 1);
        r[3] = g.shfl_down(v, 1);
        r[4] = (int)g.ballot(v > 0);
        r[5] = cg::inclusive_scan(g, v);
    } else {
        cg::coalesced_group g = cg::coalesced_threads();
        r[0] = cg::reduce(g, v, cg::greater<int>());
        r[1] = (int)g.size() * 100 + (int)g.thread_rank();
        r[2] = g.shfl(v, 0);
        r[3] = g.shfl_up(v, 2);
        r[4] = (int)g.ballot(v < 0);
        r[5] = cg::inclusive_scan(g, v, cg::less<int>());
    }
    for (int i = 0; i < 6; i++)
        out[i * 32 + lane] = r[i];
}
