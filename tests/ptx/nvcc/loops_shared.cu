// Exercises loops, static and dynamic shared memory, and __syncthreads in a block-level tree reduction.
extern "C" __global__ void block_sum(const float *in, float *out, int n)
{
    __shared__ float sdata[256];
    unsigned t = threadIdx.x;
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
        acc += in[i];
    sdata[t] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            sdata[t] += sdata[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = sdata[0];
}

extern "C" __global__ void reverse_dyn(int *data, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x;
    if (t < n)
        tile[t] = data[t];
    __syncthreads();
    if (t < n)
        data[t] = tile[n - 1 - t];
}
