// Loops and switches whose groups of lanes use masks they discover themselves.
//  (1) Each lane loops in[lane] & 7 times; in each iteration the lanes still looping take
//      __activemask(), count themselves, ballot a bit of their value and read a value from
//      the group's first lane with __shfl_sync(mask, ...).
//  (2) A switch on lane % 5 whose cases each broadcast from their group's leader; the group
//      masks come from __match_any_sync.
extern "C" __global__ void kernel(const int *in, int *out)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    int v = in[lane];
    int n = v & 7;
    int acc = 0;
    for (int i = 0; i < n; i++) {
        unsigned m = __activemask();
        acc = acc * 3 + __popc(m);
        unsigned b = __ballot_sync(m, (v >> (i + 3)) & 1);
        acc ^= (int)b;
        int leader = __ffs(m) - 1;
        acc += __shfl_sync(m, lane * 10 + i, leader);
    }
    out[0 * 32 + lane] = acc;

    int key = lane % 5;
    unsigned grp = __match_any_sync(full, key);
    int first = __ffs(grp) - 1;
    int r;
    switch (key) {
    case 0: r = __shfl_sync(grp, v, first) * 2; break;
    case 1: r = __shfl_sync(grp, v ^ 0x3c, first) + 1; break;
    case 2: r = __shfl_sync(grp, v, first) - v; break;
    case 3: r = __shfl_sync(grp, v + lane, first) ^ lane; break;
    default: r = __shfl_sync(grp, -v, first); break;
    }
    out[1 * 32 + lane] = r;
    out[2 * 32 + lane] = (int)grp;
}
