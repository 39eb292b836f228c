// Exercises __ballot_sync, __any_sync, __all_sync, __uni_sync and __activemask (incl. under divergence).
__global__ void vote_all(const int *in, unsigned *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[tid];
    unsigned ballot = __ballot_sync(0xffffffffu, v > 0);
    int any = __any_sync(0xffffffffu, v == 42);
    int all = __all_sync(0xffffffffu, v != 0);
    int uni = __uni_sync(0xffffffffu, v & 1);
    out[4 * tid + 0] = ballot;
    out[4 * tid + 1] = any;
    out[4 * tid + 2] = all;
    out[4 * tid + 3] = uni;
}

__global__ void vote_divergent(const int *in, unsigned *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[tid];
    unsigned r = 0;
    if (v & 1) {
        unsigned m = __activemask();
        r = __ballot_sync(m, v > 10) | __popc(m);
    } else {
        unsigned m = __activemask();
        r = __any_sync(m, v < 0) ? m : ~m;
    }
    out[tid] = r + __popc(__ballot_sync(0x0000ffffu, threadIdx.x < 8));
}
