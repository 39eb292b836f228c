// Exercises __shfl_up_sync / __shfl_down_sync on int and float, with and without width (2, 4, 8, 16).
__global__ void up_down_int(const int *in, int *out, unsigned delta)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[tid];
    int a = __shfl_up_sync(0xffffffffu, v, 1);
    int b = __shfl_down_sync(0xffffffffu, v, 1);
    int c = __shfl_up_sync(0xffffffffu, v, delta, 4);
    int d = __shfl_down_sync(0xffffffffu, v, 2, 16);
    int e = __shfl_up_sync(0xffffffffu, v, 1, 2);
    out[tid] = a + b + c + d + e;
}

__global__ void up_down_float(const float *in, float *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[tid];
    // Inclusive scan within segments of 8 lanes.
    for (int off = 1; off < 8; off <<= 1) {
        float n = __shfl_up_sync(0xffffffffu, v, off, 8);
        if ((threadIdx.x & 7) >= off)
            v += n;
    }
    float nxt = __shfl_down_sync(0xffffffffu, v, 3);
    out[tid] = v - nxt;
}
