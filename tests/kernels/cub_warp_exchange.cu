// cub::WarpExchange (shared-memory algorithm, 4 items per thread, one 32-thread warp):
// BlockedToStriped, StripedToBlocked and ScatterToStriped with per-item ranks.
#include <cub/cub.cuh>

extern "C" __global__ void kernel(const int *in, const int *ranks, int *b2s, int *s2b, int *scat)
{
    constexpr int IPT = 4;
    using WE = cub::WarpExchange<int, IPT, 32>;
    __shared__ typename WE::TempStorage t;
    int lane = threadIdx.x;
    int items[IPT], r[IPT];
    for (int i = 0; i < IPT; i++)
        items[i] = in[lane * IPT + i];
    WE(t).BlockedToStriped(items, items);
    for (int i = 0; i < IPT; i++)
        b2s[lane * IPT + i] = items[i];
    __syncwarp();
    for (int i = 0; i < IPT; i++)
        items[i] = in[lane * IPT + i];
    WE(t).StripedToBlocked(items, items);
    for (int i = 0; i < IPT; i++)
        s2b[lane * IPT + i] = items[i];
    __syncwarp();
    for (int i = 0; i < IPT; i++) {
        items[i] = in[lane * IPT + i];
        r[i] = ranks[lane * IPT + i];
    }
    WE(t).ScatterToStriped(items, r);
    for (int i = 0; i < IPT; i++)
        scat[lane * IPT + i] = items[i];
}
