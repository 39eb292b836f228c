// Warp sum and max of int with a __shfl_xor_sync butterfly: every lane ends with the totals.
// The sum wraps modulo 2^32 (inputs use the full int range).
extern "C" __global__ void kernel(const int *in, int *sum_out, int *max_out, int *min_out)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    int v = in[lane];
    unsigned s = (unsigned)v;
    int mx = v, mn = v;
    for (int o = 16; o > 0; o >>= 1) {
        s += __shfl_xor_sync(full, s, o);
        mx = max(mx, __shfl_xor_sync(full, mx, o));
        mn = min(mn, __shfl_xor_sync(full, mn, o));
    }
    sum_out[lane] = (int)s;
    max_out[lane] = mx;
    min_out[lane] = mn;
}
