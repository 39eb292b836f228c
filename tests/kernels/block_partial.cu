// A block of 48 threads: warp 1 is partial (16 threads). __activemask() in each warp, a
// shuffle-down sum within each warp's own threads, __syncthreads with the partial warp,
// threads reading other warps' values through shared memory, and __syncthreads_count.
extern "C" __global__ void kernel(const int *in, unsigned *mask_out, int *out)
{
    __shared__ int sh[48];
    int t = threadIdx.x, lane = t & 31;
    unsigned active = __activemask();
    int v = in[t];
    int s = v;
    for (int o = 16; o > 0; o >>= 1) {
        int y = __shfl_down_sync(active, s, o);
        if (lane + o < 32 && (active >> (lane + o) & 1))
            s += y;
    }
    sh[t] = v;
    __syncthreads();
    int total = 0;
    for (int i = 0; i < 48; i++)
        total += sh[i];
    mask_out[t] = active;
    out[t] = s;
    out[48 + t] = total;
    out[96 + t] = sh[47 - t];
    out[144 + t] = __syncthreads_count(v & 1);
    out[192 + t] = blockDim.x * 1000 + threadIdx.x;
}
