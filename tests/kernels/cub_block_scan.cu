// cub::BlockScan over a block of 256 threads: InclusiveSum and ExclusiveSum (with the block
// aggregate) with the default raking algorithm, an inclusive max scan with warp scans, and an
// exclusive sum of two items per thread with raking-memoize.
#include <cub/cub.cuh>

extern "C" __global__ void kernel(const int *in, int *incl, int *excl, int *maxscan, int *excl2, int *aggregate)
{
    using BS = cub::BlockScan<int, 256>;
    using BSW = cub::BlockScan<int, 256, cub::BLOCK_SCAN_WARP_SCANS>;
    using BSM = cub::BlockScan<int, 256, cub::BLOCK_SCAN_RAKING_MEMOIZE>;
    __shared__ typename BS::TempStorage t1;
    __shared__ typename BSW::TempStorage t2;
    __shared__ typename BSM::TempStorage t3;
    int t = threadIdx.x;
    int v = in[t];
    int a, b, agg, m;
    BS(t1).InclusiveSum(v, a);
    __syncthreads();
    BS(t1).ExclusiveSum(v, b, agg);
    BSW(t2).InclusiveScan(v, m, cuda::maximum<>{});
    int items[2] = { in[(2 * t) % 256], in[(2 * t + 1) % 256] };
    int outs[2];
    BSM(t3).ExclusiveSum(items, outs);
    incl[t] = a;
    excl[t] = b;
    maxscan[t] = m;
    excl2[2 * t] = outs[0];
    excl2[2 * t + 1] = outs[1];
    if (t == 255)
        aggregate[0] = agg;
}
