// awbarrier.cu: the block reduction of NVIDIA's simpleAWBarrier sample, written anew: each warp
// sums its threads' values with shuffles, its lane 0 writes the sum to shared memory, then every
// thread arrives on a cuda::barrier and waits for the phase with its token (sm_90: mbarrier.arrive
// and mbarrier.try_wait), and warp 0 sums the warps' sums. Twice (the barrier's second phase).
// out[2 * block] = the sum of in[block * 256 + t] over t; out[2 * block + 1] = that of their squares.
#include <cooperative_groups.h>
#include <cuda/barrier>

#pragma nv_diag_suppress static_var_with_dynamic_init   // the __shared__ barrier: init() sets it up

namespace cg = cooperative_groups;

__device__ double block_sum(cuda::barrier<cuda::thread_scope_block> &bar, double *tmp, double v)
{
    auto block = cg::this_thread_block();
    auto tile = cg::tiled_partition<32>(block);
    for (int offset = 16; offset > 0; offset /= 2)
        v += tile.shfl_down(v, offset);
    if (tile.thread_rank() == 0)
        tmp[tile.meta_group_rank()] = v;
    auto token = bar.arrive();
    bar.wait(std::move(token));
    double total = 0;
    if (tile.meta_group_rank() == 0) {
        total = tile.thread_rank() < tile.meta_group_size() ? tmp[tile.thread_rank()] : 0.0;
        for (int offset = 16; offset > 0; offset /= 2)
            total += tile.shfl_down(total, offset);
    }
    token = bar.arrive();                      // tmp is read before it is written again
    bar.wait(std::move(token));
    return total;
}

__global__ void awbarrier(const float *in, double *out)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ double tmp[8];
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    double v = in[blockIdx.x * blockDim.x + threadIdx.x];
    double s = block_sum(bar, tmp, v);
    double q = block_sum(bar, tmp, v * v);
    if (threadIdx.x == 0) {
        out[2 * blockIdx.x] = s;
        out[2 * blockIdx.x + 1] = q;
    }
}
