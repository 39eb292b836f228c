// Exercises __shfl_xor_sync butterfly reductions (float and int), full warp and widths 2, 4, 8, 16.
extern "C" __global__ void xor_allreduce_f32(const float *in, float *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[tid];
#pragma unroll
    for (int m = 16; m > 0; m >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, m);
    out[tid] = v;
}

extern "C" __global__ void xor_widths_i32(const int *in, int *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[tid];
    int a = __shfl_xor_sync(0xffffffffu, v, 1, 2);
    int b = __shfl_xor_sync(0xffffffffu, v, 2, 4);
    int c = __shfl_xor_sync(0xffffffffu, v, 4, 8);
    int d = __shfl_xor_sync(0xffffffffu, v, 8, 16);
    int e = __shfl_xor_sync(0xffffffffu, v, 16);
    out[tid] = max(max(a, b), max(c, max(d, e)));
}
