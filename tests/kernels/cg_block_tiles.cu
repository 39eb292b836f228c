// Cooperative groups' block tiles wider than a warp: thread_block_tile<64> of a 128-thread
// block, cg::reduce over the tile, tile.sync() and a tile-wide shfl. They keep barriers and a
// word per warp in a scratch area: block_tile_memory in shared memory for sm_75, the reserved
// shared memory %reserved_smem_offset_1 points to from sm_80 on (where the struct is empty).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void kernel(const int *in, int *out)
{
    __shared__ cg::block_tile_memory<128> scratch;
    cg::thread_block block = cg::this_thread_block(scratch);
    cg::thread_block_tile<64> t64 = cg::tiled_partition<64>(block);
    int t = threadIdx.x;
    int v = in[t];
    out[0 * 128 + t] = cg::reduce(t64, v, cg::plus<int>());
    t64.sync();
    out[1 * 128 + t] = t64.shfl(v, 5);
    out[2 * 128 + t] = (int)t64.meta_group_rank() * 1000 + (int)t64.thread_rank();
    out[3 * 128 + t] = cg::reduce(t64, v, cg::greater<int>());
}
