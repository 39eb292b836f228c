// A histogram in distributed shared memory, written with cooperative groups as CUDA's
// programming guide shows it: the bins are split across the CTAs of a cluster of 4, CTA r
// holding bins [r * per, (r + 1) * per) in its shared memory; each thread adds its values into
// the CTA that holds the bin (cluster.map_shared_rank), and after cluster.sync() each CTA adds
// its bins into the global histogram. regen.sh compiles it to histogram_cg.ptx.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(4, 1, 1)
cluster_hist(const int *in, int n, int *out, int bins)
{
    extern __shared__ int part[];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    int per = bins / (int)cluster.num_blocks();
    for (int i = threadIdx.x; i < per; i += blockDim.x)
        part[i] = 0;
    cluster.sync();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = in[i];
        int bin = v < 0 ? 0 : v >= bins ? bins - 1 : v;
        int *dst = cluster.map_shared_rank(part, bin / per);
        atomicAdd(dst + bin % per, 1);
    }
    cluster.sync();
    for (int i = threadIdx.x; i < per; i += blockDim.x)
        atomicAdd(&out[rank * per + i], part[i]);
}
