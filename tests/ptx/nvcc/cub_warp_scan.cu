// Exercises cub::WarpScan (inclusive/exclusive sums and a scan with an aggregate) from extern "C" kernels.
#include <cub/cub.cuh>

extern "C" __global__ void warp_inclusive_sum(const int *in, int *out)
{
    using WarpScan = cub::WarpScan<int>;
    __shared__ WarpScan::TempStorage temp[4];
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int r;
    WarpScan(temp[threadIdx.x / 32]).InclusiveSum(in[tid], r);
    out[tid] = r;
}

extern "C" __global__ void warp_exclusive_sum(const unsigned *in, unsigned *out, unsigned *totals)
{
    using WarpScan = cub::WarpScan<unsigned, 8>;
    __shared__ WarpScan::TempStorage temp[16];
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned r, aggregate;
    WarpScan(temp[threadIdx.x / 8]).ExclusiveSum(in[tid], r, aggregate);
    out[tid] = r;
    if ((threadIdx.x & 7) == 0)
        totals[tid / 8] = aggregate;
}
