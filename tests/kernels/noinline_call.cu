// Calls to __noinline__ device functions (.func, call, .param, ret): a warp reduction whose
// shuffles run inside the callee (called once converged and once from both arms of a branch,
// where the lanes meet inside the function), a struct returned by value, a float helper and a function storing through a
// pointer. Also built with -O0 -G (NAME.sm_75.debug.ptx).
struct Pair {
    int lo, hi;
};

__device__ __noinline__ int warp_sum(int v, unsigned mask)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(mask, v, o);
    return v;
}

__device__ __noinline__ int tri(int n)
{
    int s = 0;
    for (int i = 1; i <= n; i++)
        s += i * i;
    return s;
}

__device__ __noinline__ Pair minmax_pair(int a, int b)
{
    Pair p;
    p.lo = min(a, b);
    p.hi = max(a, b);
    return p;
}

__device__ __noinline__ float axpy(float a, float x, float y)
{
    return __fadd_rn(__fmul_rn(a, x), y);
}

__device__ __noinline__ void store_twice(int *p, int v)
{
    p[0] = v;
    p[32] = v * 2;
}

extern "C" __global__ void kernel(const int *in, const int *in2, const float *fx, int *out,
                                  float *fout, float alpha)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    int v = in[lane], w = in2[lane];
    out[0 * 32 + lane] = warp_sum(v, full);
    int t;
    if (lane & 1)
        t = warp_sum(v, full) + 1;
    else
        t = warp_sum(-v, full);
    out[1 * 32 + lane] = t;
    out[2 * 32 + lane] = lane < 20 ? tri(lane) : -tri(lane - 20);
    Pair p = minmax_pair(v, w);
    out[3 * 32 + lane] = p.lo;
    out[4 * 32 + lane] = p.hi;
    store_twice(&out[5 * 32 + lane], v ^ w);
    fout[lane] = axpy(alpha, fx[lane], (float)lane);
}
