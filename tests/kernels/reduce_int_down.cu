// Warp sum and max of int with __shfl_down_sync (lane 0 gets the totals). Every lane stores
// its final value: lanes whose source lane + delta is past 31 keep their own value, so the
// upper lanes' results are well defined partial values.
extern "C" __global__ void kernel(const int *in, int *sum_out, int *max_out)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    int s = in[lane];
    int mx = s;
    for (int o = 16; o > 0; o /= 2) {
        s += __shfl_down_sync(full, s, o);
        mx = max(mx, __shfl_down_sync(full, mx, o));
    }
    sum_out[lane] = s;
    max_out[lane] = mx;
}
