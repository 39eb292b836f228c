// cub::BlockReduce over a block of 256 threads (8 warps): Sum with the default algorithm
// (warp reductions), Reduce with cuda::maximum using raking, Sum over the first `valid`
// threads, and Sum of four items per thread with raking-commutative-only; each result is
// defined in thread 0 only.
#include <cub/cub.cuh>

extern "C" __global__ void kernel(const int *in, int *out, int valid)
{
    using BR = cub::BlockReduce<int, 256>;
    using BRR = cub::BlockReduce<int, 256, cub::BLOCK_REDUCE_RAKING>;
    using BRC = cub::BlockReduce<int, 256, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>;
    __shared__ typename BR::TempStorage t1;
    __shared__ typename BRR::TempStorage t2;
    __shared__ typename BRC::TempStorage t3;
    int t = threadIdx.x;
    int v = in[t];
    int sum = BR(t1).Sum(v);
    int mx = BRR(t2).Reduce(v, cuda::maximum<>{});
    __syncthreads();
    int partial = BR(t1).Sum(v, valid);
    int items[4];
    for (int i = 0; i < 4; i++)
        items[i] = in[(t * 4 + i) % 256] ^ i;
    int sum4 = BRC(t3).Sum(items);
    if (t == 0) {
        out[0] = sum;
        out[1] = mx;
        out[2] = partial;
        out[3] = sum4;
    }
}
