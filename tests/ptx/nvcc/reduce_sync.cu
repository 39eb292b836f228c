// Exercises __reduce_{add,min,max,and,or,xor}_sync (sm_80+), with a shuffle fallback for older targets.
__device__ __forceinline__ unsigned fallback_add(unsigned v)
{
    for (int m = 16; m > 0; m >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, m);
    return v;
}

__global__ void warp_reduce_ops(const unsigned *uin, const int *sin, unsigned *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned u = uin[tid];
    int s = sin[tid];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    out[8 * tid + 0] = __reduce_add_sync(0xffffffffu, u);
    out[8 * tid + 1] = __reduce_min_sync(0xffffffffu, u);
    out[8 * tid + 2] = __reduce_max_sync(0xffffffffu, u);
    out[8 * tid + 3] = (unsigned)__reduce_add_sync(0xffffffffu, s);
    out[8 * tid + 4] = (unsigned)__reduce_min_sync(0xffffffffu, s);
    out[8 * tid + 5] = (unsigned)__reduce_max_sync(0xffffffffu, s);
    out[8 * tid + 6] = __reduce_and_sync(0xffffffffu, u) ^ __reduce_or_sync(0xffffffffu, u);
    out[8 * tid + 7] = __reduce_xor_sync(0x0000ffffu, u);
#else
    unsigned a = fallback_add(u);
    unsigned mn = u, mx = u, an = u, orr = u, x = u;
    int smn = s, smx = s;
    for (int m = 16; m > 0; m >>= 1) {
        mn = min(mn, __shfl_xor_sync(0xffffffffu, mn, m));
        mx = max(mx, __shfl_xor_sync(0xffffffffu, mx, m));
        smn = min(smn, __shfl_xor_sync(0xffffffffu, smn, m));
        smx = max(smx, __shfl_xor_sync(0xffffffffu, smx, m));
        an &= __shfl_xor_sync(0xffffffffu, an, m);
        orr |= __shfl_xor_sync(0xffffffffu, orr, m);
    }
    for (int m = 8; m > 0; m >>= 1)
        x ^= __shfl_xor_sync(0x0000ffffu, x, m, 16);
    out[8 * tid + 0] = a;
    out[8 * tid + 1] = mn;
    out[8 * tid + 2] = mx;
    out[8 * tid + 3] = fallback_add((unsigned)s);
    out[8 * tid + 4] = (unsigned)smn;
    out[8 * tid + 5] = (unsigned)smx;
    out[8 * tid + 6] = an ^ orr;
    out[8 * tid + 7] = x;
#endif
}
