// Segmented __shfl_xor_sync / __shfl_sync with width 2, 4, 8 and 16 (constant and per-lane
// source lanes, int and float). Includes a laneMask equal to the width: lanes of an odd
// segment then read the segment below, the others keep their own value (as CUDA documents:
// a group may read earlier groups but not later ones). An idx source lane is taken modulo
// the width. Row r of `out` holds case r.
extern "C" __global__ void kernel(const int *in, const float *fin, const int *src,
                                  int *out, float *fout)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    int v = in[lane];
    float f = fin[lane];
    int s = src[lane];
    out[0 * 32 + lane] = __shfl_xor_sync(full, v, 1, 2);
    out[1 * 32 + lane] = __shfl_xor_sync(full, v, 2, 4);
    out[2 * 32 + lane] = __shfl_xor_sync(full, v, 3, 4);
    out[3 * 32 + lane] = __shfl_xor_sync(full, v, 5, 8);
    out[4 * 32 + lane] = __shfl_xor_sync(full, v, 12, 16);
    out[5 * 32 + lane] = __shfl_xor_sync(full, v, 8, 8);
    out[6 * 32 + lane] = __shfl_sync(full, v, 1, 2);
    out[7 * 32 + lane] = __shfl_sync(full, v, 3, 4);
    out[8 * 32 + lane] = __shfl_sync(full, v, 6, 8);
    out[9 * 32 + lane] = __shfl_sync(full, v, 13, 16);
    out[10 * 32 + lane] = __shfl_sync(full, v, s, 8);
    out[11 * 32 + lane] = __shfl_sync(full, v, s, 16);
    fout[0 * 32 + lane] = __shfl_xor_sync(full, f, 4, 16);
    fout[1 * 32 + lane] = __shfl_sync(full, f, 2, 4);
}
