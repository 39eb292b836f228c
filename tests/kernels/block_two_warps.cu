// Two warps (a block of 64): each warp reduces and scans its own 32 values with shuffles,
// independently of the other; the warps then exchange their totals and values through shared
// memory across __syncthreads; __syncthreads_count / _and / _or reduce a predicate over both.
extern "C" __global__ void kernel(const int *in, int *out)
{
    __shared__ int total[2];
    __shared__ int reversed[64];
    int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    int v = in[t];
    int s = v;
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, o);
    int x = v;
    for (int o = 1; o < 32; o <<= 1) {
        int y = __shfl_up_sync(0xffffffffu, x, o);
        if (lane >= o)
            x += y;
    }
    int from_warp0 = __shfl_sync(0xffffffffu, v, 31 - lane);
    if (lane == 0)
        total[warp] = s;
    reversed[63 - t] = v;
    __syncthreads();
    out[t] = s;
    out[64 + t] = total[1 - warp];
    out[128 + t] = x + (warp ? total[0] : 0);
    out[192 + t] = reversed[t];
    out[256 + t] = from_warp0;
    out[320 + t] = __syncthreads_count(v > 0);
    out[384 + t] = __syncthreads_and(v > -1000);
    out[448 + t] = __syncthreads_or(v == 12345);
    out[512 + t] = __syncthreads_and(v > 0);
    out[576 + t] = __syncthreads_or(t == 40);
}
