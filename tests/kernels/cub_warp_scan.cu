// cub::WarpScan on one warp: InclusiveSum, ExclusiveSum with the warp aggregate,
// InclusiveScan / ExclusiveScan (with an initial value) using cuda::maximum, an InclusiveSum
// over two 16-thread logical warps, and a float InclusiveSum (multiples of 1/4: exact in any
// order).
#include <cub/cub.cuh>

extern "C" __global__ void kernel(const int *in, const float *fin, int *out, float *fout, int init)
{
    using WS = cub::WarpScan<int>;
    using WS16 = cub::WarpScan<int, 16>;
    using WSF = cub::WarpScan<float>;
    __shared__ typename WS::TempStorage t;
    __shared__ typename WS16::TempStorage t16[2];
    __shared__ typename WSF::TempStorage tf;
    int lane = threadIdx.x;
    int v = in[lane];
    int incl, excl, agg, mincl, mexcl, h;
    WS(t).InclusiveSum(v, incl);
    __syncwarp();
    WS(t).ExclusiveSum(v, excl, agg);
    __syncwarp();
    WS(t).InclusiveScan(v, mincl, cuda::maximum<>{});
    __syncwarp();
    WS(t).ExclusiveScan(v, mexcl, init, cuda::maximum<>{});
    WS16(t16[lane / 16]).InclusiveSum(v, h);
    float fincl;
    WSF(tf).InclusiveSum(fin[lane], fincl);
    out[0 * 32 + lane] = incl;
    out[1 * 32 + lane] = excl;
    out[2 * 32 + lane] = agg;
    out[3 * 32 + lane] = mincl;
    out[4 * 32 + lane] = mexcl;
    out[5 * 32 + lane] = h;
    fout[lane] = fincl;
}
