// Exercises divergent control flow: if/else with shuffles in both arms, early return, and a data-dependent loop.
__global__ void divergent_arms(const int *in, int *out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;                              // early return
    int v = in[tid];
    int lane = threadIdx.x & 31;
    if (lane & 1) {
        unsigned odd = 0xaaaaaaaau;
        v += __shfl_sync(odd, v, 1);
        v = __shfl_down_sync(odd, v, 2);
    } else {
        unsigned even = 0x55555555u;
        v -= __shfl_sync(even, v, 0);
        v = __shfl_xor_sync(even, v, 2);
    }
    if (v < 0) {
        out[tid] = -1;
        return;                              // second early exit
    }
    while (v > 100)
        v = (v >> 1) ^ lane;
    out[tid] = v;
}
