// Broadcasts with __shfl_sync: from a lane given as a kernel parameter (int and float), from
// lane 31, and from a per-lane source index that may be out of range (only its low 5 bits
// count: 32 reads lane 0, 33 lane 1, -1 lane 31).
extern "C" __global__ void kernel(const int *in, const float *fin, const int *src,
                                  int *out_param, float *out_float, int *out_last, int *out_src,
                                  int from)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    int v = in[lane];
    out_param[lane] = __shfl_sync(full, v, from);
    out_float[lane] = __shfl_sync(full, fin[lane], from + 3);
    out_last[lane] = __shfl_sync(full, (int)((unsigned)v * 2u + 1u), 31);
    out_src[lane] = __shfl_sync(full, v, src[lane]);
}
