// shuffle.cu: warp-level intrinsics on two warps of distinct values, each result checked lane by
// lane against the host's reading of the CUDA programming guide: __shfl_sync (broadcast, a width
// of 8, a half-warp mask in a divergent branch), __shfl_xor_sync (a butterfly sum), __shfl_up_sync
// (an inclusive scan), __shfl_down_sync, __ballot_sync, __any_sync, __all_sync,
// __match_any_sync and __reduce_add_sync.
#include "check.h"

enum { WARPS = 2, T = 32 * WARPS, RESULTS = 10 };
#define FULL 0xffffffffu

__global__ void warp_ops(const int *in, int *out)
{
    int t = threadIdx.x, lane = t % 32, v = in[t];
    int *o = out + t * RESULTS;
    o[0] = __shfl_sync(FULL, v, 3);
    int sum = v;
    for (int d = 16; d > 0; d /= 2)
        sum += __shfl_xor_sync(FULL, sum, d);
    o[1] = sum;
    int scan = v;
    for (int d = 1; d < 32; d *= 2) {
        int up = __shfl_up_sync(FULL, scan, d);
        if (lane >= d)
            scan += up;
    }
    o[2] = scan;
    o[3] = __shfl_down_sync(FULL, v, 5);
    o[4] = __shfl_sync(FULL, v, 2, 8);
    o[5] = (int)__ballot_sync(FULL, v & 1);
    o[6] = __any_sync(FULL, v > 1000) * 2 + __all_sync(FULL, v >= 0);
    o[7] = -1;
    if (lane < 16)
        o[7] = __shfl_sync(0x0000ffffu, v, lane ^ 1);
    o[8] = (int)__match_any_sync(FULL, v % 4);
    o[9] = __reduce_add_sync(FULL, v);
}

int main(void)
{
    static int in[T], out[T * RESULTS];
    for (int t = 0; t < T; t++)
        in[t] = (t * 37 + 11) % 97 + (t / 32) * 1000;   // warp 1's values are all over 1000
    int *din, *dout;
    CHECK_OK(cudaMalloc(&din, sizeof in));
    CHECK_OK(cudaMalloc(&dout, sizeof out));
    CHECK_OK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    warp_ops<<<1, T>>>(din, dout);
    CHECK_OK(cudaGetLastError());
    CHECK_OK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));

    static const char *const names[RESULTS] = {
        "__shfl_sync broadcast of lane 3", "__shfl_xor_sync butterfly sum", "__shfl_up_sync inclusive scan",
        "__shfl_down_sync by 5", "__shfl_sync lane 2 of each 8", "__ballot_sync of odd values",
        "__any_sync and __all_sync", "__shfl_sync on a half-warp mask", "__match_any_sync of v % 4",
        "__reduce_add_sync",
    };
    int wrong[RESULTS] = { 0 };
    for (int t = 0; t < T; t++) {
        int base = t / 32 * 32, lane = t % 32, want[RESULTS];
        int sum = 0, scan = 0, any = 0, all = 1;
        unsigned ballot = 0, match = 0;
        for (int l = 0; l < 32; l++) {
            int v = in[base + l];
            sum += v;
            if (l <= lane)
                scan += v;
            ballot |= (unsigned)(v & 1) << l;
            any |= v > 1000;
            all &= v >= 0;
            if (v % 4 == in[t] % 4)
                match |= 1u << l;
        }
        want[0] = in[base + 3];
        want[1] = sum;
        want[2] = scan;
        want[3] = lane + 5 < 32 ? in[t + 5] : in[t];
        want[4] = in[base + lane / 8 * 8 + 2];
        want[5] = (int)ballot;
        want[6] = any * 2 + all;
        want[7] = lane < 16 ? in[base + (lane ^ 1)] : -1;
        want[8] = (int)match;
        want[9] = sum;
        for (int r = 0; r < RESULTS; r++)
            if (out[t * RESULTS + r] != want[r]) {
                if (!wrong[r])
                    printf("  thread %d, %s: %d, not %d\n", t, names[r], out[t * RESULTS + r], want[r]);
                wrong[r]++;
            }
    }
    for (int r = 0; r < RESULTS; r++)
        CHECK(wrong[r] == 0, "%s (%d lanes wrong)", names[r], wrong[r]);
    CHECK_OK(cudaFree(din));
    CHECK_OK(cudaFree(dout));
    return check_report("shuffle");
}
