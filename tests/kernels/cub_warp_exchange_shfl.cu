// cub::WarpExchange with the shuffle algorithm: four 8-thread logical warps, 8 items per
// thread (WARP_EXCHANGE_SHUFFLE needs items == logical warp size): BlockedToStriped and
// StripedToBlocked, done entirely with segmented shuffles.
#include <cub/cub.cuh>

extern "C" __global__ void kernel(const int *in, int *b2s, int *s2b)
{
    constexpr int N = 8;
    using WE = cub::WarpExchange<int, N, N, cub::WARP_EXCHANGE_SHUFFLE>;
    __shared__ typename WE::TempStorage t[4];
    int lane = threadIdx.x;
    int items[N];
    for (int i = 0; i < N; i++)
        items[i] = in[lane * N + i];
    WE(t[lane / N]).BlockedToStriped(items, items);
    for (int i = 0; i < N; i++)
        b2s[lane * N + i] = items[i];
    for (int i = 0; i < N; i++)
        items[i] = in[lane * N + i];
    WE(t[lane / N]).StripedToBlocked(items, items);
    for (int i = 0; i < N; i++)
        s2b[lane * N + i] = items[i];
}
