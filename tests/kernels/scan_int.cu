// Inclusive and exclusive warp scans of int with __shfl_up_sync (Hillis-Steele), plus an
// exclusive scan taken by shifting the inclusive one up a lane and a running max scan.
extern "C" __global__ void kernel(const int *in, int *incl_out, int *excl_out, int *maxscan_out)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    int v = in[lane];
    int x = v, m = v;
    for (int o = 1; o < 32; o <<= 1) {
        int y = __shfl_up_sync(full, x, o);
        int z = __shfl_up_sync(full, m, o);
        if (lane >= o) {
            x += y;
            m = max(m, z);
        }
    }
    incl_out[lane] = x;
    int e = __shfl_up_sync(full, x, 1);
    excl_out[lane] = lane == 0 ? 0 : e;
    maxscan_out[lane] = m;
}
