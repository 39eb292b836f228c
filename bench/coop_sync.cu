// bench/coop_sync.cu: make bench's cooperative figure (bench_coop.c). Every thread runs ten rounds
// of arithmetic on its own word; with sync set, the whole grid waits for each other with
// grid.sync() after every round (a cooperative launch), else the CTAs run as an ordinary grid.
// Both leave the same words: x[t] after ten rounds (bench_coop.c computes them in C).
// Regenerate: /usr/local/cuda/bin/nvcc -arch=sm_90 -ptx bench/coop_sync.cu -o bench/coop_sync.ptx
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void rounds(unsigned *x, int sync)
{
    cg::grid_group grid = cg::this_grid();
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = x[t];
    for (unsigned r = 0; r < 10; r++) {
#pragma unroll 1
        for (unsigned k = 0; k < 32; k++)
            v = v * 1664525u + 1013904223u + r;
        x[t] = v;
        if (sync)
            grid.sync();
    }
}
