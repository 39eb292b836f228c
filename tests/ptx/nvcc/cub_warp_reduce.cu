// Exercises cub::WarpReduce (Sum, Reduce with cuda::maximum, and a 16-thread logical warp) in a templated kernel.
#include <cub/warp/warp_reduce.cuh>
#include <cuda/functional>

template <typename T, int LOGICAL_WARP>
__global__ void cub_warp_sum(const T *in, T *out)
{
    using WarpReduce = cub::WarpReduce<T, LOGICAL_WARP>;
    __shared__ typename WarpReduce::TempStorage temp[128 / LOGICAL_WARP];
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int warp = threadIdx.x / LOGICAL_WARP;
    T v = in[tid];
    T sum = WarpReduce(temp[warp]).Sum(v);
    if (threadIdx.x % LOGICAL_WARP == 0)
        out[blockIdx.x * (128 / LOGICAL_WARP) + warp] = sum;
}

template __global__ void cub_warp_sum<int, 32>(const int *, int *);
template __global__ void cub_warp_sum<float, 16>(const float *, float *);

__global__ void cub_warp_max(const double *in, double *out)
{
    using WarpReduce = cub::WarpReduce<double>;
    __shared__ typename WarpReduce::TempStorage temp[4];
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    double m = WarpReduce(temp[threadIdx.x / 32]).Reduce(in[tid], cuda::maximum<>{});
    if ((threadIdx.x & 31) == 0)
        out[tid / 32] = m;
}
