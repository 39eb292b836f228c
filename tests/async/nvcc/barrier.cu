// barrier.cu: cuda::memcpy_async of a whole block's tile completed through a cuda::barrier
// (sm_80: cp.async, then cp.async.mbarrier.arrive on the barrier's mbarrier), then
// arrive_and_wait; each thread reads another's word. Twice, so the barrier's later phases are
// used too. out[t] = in[255 - t] + 2 * in2[t ^ 1].
#include <cooperative_groups.h>
#include <cuda/barrier>

#pragma nv_diag_suppress static_var_with_dynamic_init   // the __shared__ barrier: init() sets it up

__global__ void barrier_copy(const int *in, const int *in2, int *out)
{
    __shared__ alignas(16) int buf[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cooperative_groups::this_thread_block();
    int t = threadIdx.x;
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, buf, in, cuda::aligned_size_t<16>(sizeof buf), bar);
    bar.arrive_and_wait();
    int first = buf[255 - t];
    bar.arrive_and_wait();                     // every thread has read buf before it is written again
    cuda::memcpy_async(block, buf, in2, cuda::aligned_size_t<16>(sizeof buf), bar);
    bar.arrive_and_wait();
    out[t] = first + 2 * buf[t ^ 1];
}
