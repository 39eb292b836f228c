// Divergent branches whose arms shuffle with their own masks:
//  (1) lanes 0-15 sum with __shfl_xor_sync(0x0000ffff), lanes 16-31 take a max with
//      __shfl_down_sync(0xffff0000);
//  (2) nested: lanes 0-7 shfl_up with 0x000000ff, lanes 8-15 shfl_down width 8 with 0x0000ff00,
//      lanes 16-31 shfl_xor with 0xffff0000;
//  (3) data-dependent groups (odd / even values) from a ballot: each group broadcasts from
//      its first / last lane with its own mask.
extern "C" __global__ void kernel(const int *in, int *out)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    int v = in[lane];
    int r;
    if (lane < 16) {
        int s = v;
        for (int o = 8; o > 0; o >>= 1)
            s += __shfl_xor_sync(0x0000ffffu, s, o);
        r = s;
    } else {
        int m = v;
        for (int o = 8; o > 0; o >>= 1)
            m = max(m, __shfl_down_sync(0xffff0000u, m, o));
        r = m;
    }
    out[0 * 32 + lane] = r;

    int t;
    if (lane < 16) {
        if (lane < 8)
            t = __shfl_up_sync(0x000000ffu, v, 1);
        else
            t = __shfl_down_sync(0x0000ff00u, v, 1, 8);
    } else {
        t = __shfl_xor_sync(0xffff0000u, v, 5);
    }
    out[1 * 32 + lane] = t;

    unsigned odd = __ballot_sync(full, v & 1);
    int q;
    if (v & 1) {
        int first = __ffs(odd) - 1;
        q = __shfl_sync(odd, v, first) + __popc(odd & ((1u << lane) - 1));
    } else {
        unsigned even = ~odd;
        int last = 31 - __clz(even);
        q = __shfl_sync(even, v, last) - lane;
    }
    out[2 * 32 + lane] = q;
}
