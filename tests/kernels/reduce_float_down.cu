// Warp sum and min of float with __shfl_down_sync; every lane stores its final value.
// Random exponents make every addition round, so the tree order matters.
extern "C" __global__ void kernel(const float *in, float *sum_out, float *min_out)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    float s = in[lane];
    float mn = s;
    for (int o = 16; o > 0; o >>= 1) {
        s = s + __shfl_down_sync(full, s, o);
        mn = fminf(mn, __shfl_down_sync(full, mn, o));
    }
    sum_out[lane] = s;
    min_out[lane] = mn;
}
