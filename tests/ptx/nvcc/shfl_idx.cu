// Exercises __shfl_sync (int and float) with the default width and widths 2, 4, 8, 16.
extern "C" __global__ void shfl_idx_int(const int *in, int *out, int src)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[tid];
    int r = __shfl_sync(0xffffffffu, v, src);          // default width 32
    r += __shfl_sync(0xffffffffu, v, src, 2);
    r += __shfl_sync(0xffffffffu, v, src + 1, 4);
    r += __shfl_sync(0xffffffffu, v, 3, 8);
    r += __shfl_sync(0xffffffffu, v, threadIdx.x ^ 5, 16);
    out[tid] = r;
}

extern "C" __global__ void shfl_idx_float(const float *in, float *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[tid];
    float bcast = __shfl_sync(0xffffffffu, v, 0);
    float seg = __shfl_sync(0x0000ffffu, v, 7, 8);
    out[tid] = bcast * 2.0f + seg;
}
