// Warp sum and max of float with a __shfl_xor_sync butterfly. The inputs have random
// mantissas and exponents, so every addition rounds: the result depends on the exact tree.
extern "C" __global__ void kernel(const float *in, float *sum_out, float *max_out)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    float s = in[lane];
    float mx = s;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        s += __shfl_xor_sync(full, s, o);
        mx = fmaxf(mx, __shfl_xor_sync(full, mx, o));
    }
    sum_out[lane] = s;
    max_out[lane] = mx;
}
