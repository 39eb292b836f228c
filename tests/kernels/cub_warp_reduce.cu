// cub::WarpReduce on one warp: int Sum, Reduce with cuda::maximum, Sum over the first `valid`
// lanes, HeadSegmentedSum, two 16-thread logical warps, and a float Sum (inputs are multiples
// of 1/8 small enough that every order of additions gives the same exact result).
#include <cub/cub.cuh>

extern "C" __global__ void kernel(const int *in, const int *heads, const float *fin, int *out,
                                  int *seg_out, float *fout, int valid)
{
    using WR = cub::WarpReduce<int>;
    using WR16 = cub::WarpReduce<int, 16>;
    using WRF = cub::WarpReduce<float>;
    __shared__ typename WR::TempStorage t;
    __shared__ typename WR16::TempStorage t16[2];
    __shared__ typename WRF::TempStorage tf;
    int lane = threadIdx.x;
    int v = in[lane];
    int sum = WR(t).Sum(v);
    __syncwarp();
    int mx = WR(t).Reduce(v, cuda::maximum<>{});
    __syncwarp();
    int psum = WR(t).Sum(v, valid);
    __syncwarp();
    int seg = WR(t).HeadSegmentedSum(v, heads[lane] != 0);
    int s16 = WR16(t16[lane / 16]).Sum(v);
    float fs = WRF(tf).Sum(fin[lane]);
    if (lane == 0) {
        out[0] = sum;
        out[1] = mx;
        out[2] = psum;
        fout[0] = fs;
    }
    if (lane % 16 == 0)
        out[3 + lane / 16] = s16;
    seg_out[lane] = heads[lane] || lane == 0 ? seg : 0;
}
