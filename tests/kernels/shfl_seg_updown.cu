// Segmented __shfl_up_sync / __shfl_down_sync with width 2, 4, 8 and 16 (constant and
// per-lane deltas, int and float). A lane whose source falls outside its segment keeps its
// own value. Row r of `out` (32 ints) holds case r; `fout` holds the float cases.
extern "C" __global__ void kernel(const int *in, const float *fin, const unsigned *delta,
                                  int *out, float *fout)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    int v = in[lane];
    float f = fin[lane];
    unsigned d = delta[lane];
    out[0 * 32 + lane] = __shfl_up_sync(full, v, 1, 2);
    out[1 * 32 + lane] = __shfl_down_sync(full, v, 1, 2);
    out[2 * 32 + lane] = __shfl_up_sync(full, v, 1, 4);
    out[3 * 32 + lane] = __shfl_down_sync(full, v, 3, 4);
    out[4 * 32 + lane] = __shfl_up_sync(full, v, 2, 8);
    out[5 * 32 + lane] = __shfl_down_sync(full, v, 5, 8);
    out[6 * 32 + lane] = __shfl_up_sync(full, v, 7, 16);
    out[7 * 32 + lane] = __shfl_down_sync(full, v, 4, 16);
    out[8 * 32 + lane] = __shfl_up_sync(full, v, d, 8);
    out[9 * 32 + lane] = __shfl_down_sync(full, v, d, 16);
    fout[0 * 32 + lane] = __shfl_up_sync(full, f, 3, 16);
    fout[1 * 32 + lane] = __shfl_down_sync(full, f, 2, 4);
}
