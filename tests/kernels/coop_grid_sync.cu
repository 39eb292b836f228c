// A cooperative launch (cudaLaunchCooperativeKernel; ptxrun --cooperative, "cooperative": true
// in the lanes file): 8 CTAs of 64 threads that wait for each other twice with grid.sync().
//  (1) each CTA sums a grid-stride share of `in` in shared memory and writes its partial sum;
//  (2) after grid.sync(), every CTA's thread 0 adds all the partial sums (which the other CTAs
//      wrote) into total[cta], plus its CTA number;
//  (3) after a second grid.sync(), every thread reads the next CTA's total.
// meta gets what this_grid() says: is_valid(), size(), thread_rank() of the last thread, and
// num_blocks(). Without a cooperative launch grid.sync() traps (is_valid() is false).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void kernel(const unsigned *in, unsigned n, unsigned *partial, unsigned *total,
                                  unsigned *next, unsigned *meta)
{
    __shared__ unsigned sh[64];
    cg::grid_group grid = cg::this_grid();
    unsigned s = 0;
    for (unsigned i = (unsigned)grid.thread_rank(); i < n; i += (unsigned)grid.size())
        s += in[i];
    sh[threadIdx.x] = s;
    __syncthreads();
    for (unsigned w = 32; w; w >>= 1) {
        if (threadIdx.x < w)
            sh[threadIdx.x] += sh[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = sh[0];
    grid.sync();
    if (threadIdx.x == 0) {
        unsigned t = 0;
        for (unsigned b = 0; b < gridDim.x; b++)
            t += partial[b];
        total[blockIdx.x] = t + blockIdx.x;
    }
    grid.sync();
    next[grid.thread_rank()] = total[(blockIdx.x + 1) % gridDim.x];
    if (grid.thread_rank() == grid.size() - 1) {
        meta[0] = grid.is_valid();
        meta[1] = (unsigned)grid.size();
        meta[2] = (unsigned)grid.thread_rank();
        meta[3] = grid.num_blocks();
    }
}
