// Warp sum and max of double with a __shfl_xor_sync butterfly (64-bit shuffles are two
// 32-bit shfl.sync). Random exponents make every addition round.
extern "C" __global__ void kernel(const double *in, double *sum_out, double *max_out)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    double s = in[lane];
    double mx = s;
    for (int o = 16; o > 0; o >>= 1) {
        s += __shfl_xor_sync(full, s, o);
        mx = fmax(mx, __shfl_xor_sync(full, mx, o));
    }
    sum_out[lane] = s;
    max_out[lane] = mx;
}
