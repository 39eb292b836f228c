// Exercises __noinline__ device functions so that .func, call, .param and ret appear (incl. a struct return).
struct Pair { float a; int b; };

__device__ __noinline__ float poly(float x, float c0, float c1, float c2)
{
    return (c2 * x + c1) * x + c0;
}

__device__ __noinline__ int warp_sum(int v)
{
    for (int m = 16; m > 0; m >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, m);
    return v;
}

__device__ __noinline__ Pair make_pair(float a, int b)
{
    Pair p;
    p.a = a * 0.5f;
    p.b = b + 1;
    return p;
}

__device__ __noinline__ void store_pair(Pair *dst, Pair p)
{
    *dst = p;
}

extern "C" __global__ void call_kernel(const float *x, float *y, int *s)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    y[tid] = poly(x[tid], 1.0f, 2.0f, 3.0f);
    s[tid] = warp_sum(tid);
}

__global__ void call_struct(Pair *out, const float *x)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    Pair p = make_pair(x[tid], tid);
    store_pair(&out[tid], p);
}
