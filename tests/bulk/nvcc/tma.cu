// TMA through CUDA's own helpers, as nvcc 13.0 compiles them (regen.sh makes tma.ptx):
// tile: thread 0 loads a box of the tensor map's tensor into shared memory with
// cp_async_bulk_tensor_2d_global_to_shared, completing a cuda::barrier's transaction count
// (barrier_arrive_tx); every thread waits on the barrier and copies the shared box, as it lies
// there (swizzled when the map says so), to out. store: the threads fill a box in shared memory,
// thread 0 stores it with cp_async_bulk_tensor_2d_shared_to_global, commits and waits for the
// bulk group's reads. The lanes files give the maps; the expect files are computed apart
// (gen.py).
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>
using barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

__global__ void tile(const __grid_constant__ CUtensorMap tmap, float *out, int x, int y)
{
    __shared__ alignas(1024) unsigned short smem[8][64];
    #pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ barrier bar;
    if (threadIdx.x == 0) {
        init(&bar, blockDim.x);
        cde::fence_proxy_async_shared_cta();
    }
    __syncthreads();
    barrier::arrival_token token;
    if (threadIdx.x == 0) {
        cde::cp_async_bulk_tensor_2d_global_to_shared(&smem, &tmap, x, y, bar);
        token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(smem));
    } else {
        token = bar.arrive();
    }
    bar.wait(std::move(token));
    for (int i = threadIdx.x; i < 8 * 64; i += blockDim.x)
        out[i] = smem[i / 64][i % 64];
}

__global__ void store(const __grid_constant__ CUtensorMap tmap, int x, int y)
{
    __shared__ alignas(128) unsigned short smem[8][64];
    for (int i = threadIdx.x; i < 8 * 64; i += blockDim.x)
        smem[i / 64][i % 64] = i;
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
        cde::cp_async_bulk_tensor_2d_shared_to_global(&tmap, x, y, &smem);
        cde::cp_async_bulk_commit_group();
        cde::cp_async_bulk_wait_group_read<0>();
    }
}
