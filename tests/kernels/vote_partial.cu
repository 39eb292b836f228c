// A partial warp: the block has 20 threads (lanes 20..31 are never launched). __activemask,
// __ballot_sync and __all_sync over the launched lanes, a __shfl_down_sync sum that ignores
// lanes past the block, then lanes 12..19 return early and the rest vote again.
extern "C" __global__ void kernel(const int *in, unsigned *out, int *sum_out)
{
    int lane = threadIdx.x;
    int n = blockDim.x;
    int v = in[lane];
    unsigned act = __activemask();
    out[0 * 20 + lane] = act;
    out[1 * 20 + lane] = __ballot_sync(act, v > 0);
    out[2 * 20 + lane] = __all_sync(act, v != 0);
    int s = v;
    for (int o = 16; o > 0; o >>= 1) {
        int y = __shfl_down_sync(act, s, o);
        if (lane + o < n)
            s += y;
    }
    sum_out[lane] = s;
    if (lane >= 12)
        return;
    unsigned act2 = __activemask();
    out[3 * 20 + lane] = act2;
    out[4 * 20 + lane] = __ballot_sync(act2, v < 0);
    out[5 * 20 + lane] = __shfl_sync(act2, v, 11 - lane);
}
