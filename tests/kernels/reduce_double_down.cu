// Warp sum and max of double with __shfl_down_sync; every lane stores its final value.
extern "C" __global__ void kernel(const double *in, double *sum_out, double *max_out)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    double s = in[lane];
    double mx = s;
    for (int o = 16; o > 0; o >>= 1) {
        s = s + __shfl_down_sync(full, s, o);
        mx = fmax(mx, __shfl_down_sync(full, mx, o));
    }
    sum_out[lane] = s;
    max_out[lane] = mx;
}
