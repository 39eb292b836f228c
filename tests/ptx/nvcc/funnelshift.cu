// Exercises __funnelshift_l, __funnelshift_r, __funnelshift_lc, __funnelshift_rc (constant and variable shifts).
extern "C" __global__ void funnel(const unsigned *lo, const unsigned *hi, unsigned *out, unsigned s)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned a = lo[tid], b = hi[tid];
    unsigned r0 = __funnelshift_l(a, b, s);
    unsigned r1 = __funnelshift_r(a, b, s);
    unsigned r2 = __funnelshift_lc(a, b, s);
    unsigned r3 = __funnelshift_rc(a, b, s);
    unsigned r4 = __funnelshift_l(a, b, 7);
    unsigned r5 = __funnelshift_rc(a, b, 40);
    out[4 * tid + 0] = r0 ^ r4;
    out[4 * tid + 1] = r1 + r5;
    out[4 * tid + 2] = r2;
    out[4 * tid + 3] = r3;
}

// A 32-bit rotate written with funnel shifts.
extern "C" __global__ void rotate(unsigned *data, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        unsigned x = data[tid];
        data[tid] = __funnelshift_l(x, x, tid) ^ __funnelshift_r(x, x, 13);
    }
}
