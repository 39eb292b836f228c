// Inclusive and exclusive warp scans of float with __shfl_up_sync. Random exponents make the
// additions round, so the result depends on the exact Hillis-Steele order. The exclusive scan
// is the inclusive one shifted up a lane (lane 0 gets 0); `diff` is inclusive minus input.
extern "C" __global__ void kernel(const float *in, float *incl_out, float *excl_out, float *diff_out)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    float v = in[lane];
    float x = v;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        float y = __shfl_up_sync(full, x, o);
        if (lane >= o)
            x = y + x;
    }
    incl_out[lane] = x;
    float e = __shfl_up_sync(full, x, 1);
    excl_out[lane] = lane == 0 ? 0.0f : e;
    diff_out[lane] = x - v;
}
