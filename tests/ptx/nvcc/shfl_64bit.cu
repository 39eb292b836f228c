// Exercises 64-bit shuffles: long long and double through all four __shfl*_sync variants.
__global__ void shfl_i64(const long long *in, long long *out, int lane)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    long long v = in[tid];
    long long a = __shfl_sync(0xffffffffu, v, lane);
    long long b = __shfl_up_sync(0xffffffffu, v, 1, 16);
    long long c = __shfl_down_sync(0xffffffffu, v, 2);
    long long d = __shfl_xor_sync(0xffffffffu, v, 4, 8);
    out[tid] = a ^ b ^ c ^ d;
}

__global__ void shfl_f64(const double *in, double *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    double v = in[tid];
    for (int m = 16; m > 0; m >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, m);
    double first = __shfl_sync(0xffffffffu, v, 0, 4);
    double prev = __shfl_up_sync(0xffffffffu, v, 1);
    double next = __shfl_down_sync(0xffffffffu, v, 1, 2);
    out[tid] = v + first * prev - next;
}

__global__ void shfl_u64(const unsigned long long *in, unsigned long long *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long v = in[tid];
    out[tid] = __shfl_sync(0xffffffffu, v, threadIdx.x + 1, 8);
}
