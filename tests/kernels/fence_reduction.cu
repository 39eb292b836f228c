// A single-pass reduction over the whole grid in the style of the CUDA samples'
// threadFenceReduction: every CTA sums its grid-stride part of the input (two elements per
// thread per step) in shared memory, thread 0 writes the CTA's partial sum to global memory,
// __threadfence()s it and takes a ticket with atomicInc on a __device__ counter; the CTA that
// draws the last ticket sums all the partials, writes the total and resets the counter for the
// next launch. As in the sample, the two phases reach the dynamic shared memory through two
// `extern __shared__` names (sdata, smem), which alias, and the flag `amLast` is a static
// __shared__ variable beside them. 6 CTAs of 128 threads; n is not a multiple of the grid's
// stride. Which CTA is last depends on the scheduling, so only order-independent values are
// compared: the partials, the total, how many threads ran the final phase (every thread of
// one CTA: 128) and the ticket that CTA drew.
#define BLOCK 128

__device__ unsigned int retirementCount = 0;

// Tree reduction of the block's values in sdata; the result in sdata[0].
__device__ void reduceBlock(volatile int *sdata, int mySum, unsigned tid)
{
    sdata[tid] = mySum;
    __syncthreads();
    for (unsigned s = BLOCK / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] = mySum = mySum + sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        mySum += sdata[tid + 32];
        for (int offset = 16; offset > 0; offset /= 2)
            mySum += __shfl_down_sync(0xffffffffu, mySum, offset);
        if (tid == 0)
            sdata[0] = mySum;
    }
    __syncthreads();
}

// Phase 1: the CTA's grid-stride part of the input, its sum to g_partials[blockIdx.x].
__device__ void reduceBlocks(const int *g_idata, int *g_partials, unsigned n)
{
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x;
    unsigned gridSize = BLOCK * 2 * gridDim.x;
    int mySum = 0;
    for (unsigned i = blockIdx.x * BLOCK * 2 + tid; i < n; i += gridSize) {
        mySum += g_idata[i];
        if (i + BLOCK < n)
            mySum += g_idata[i + BLOCK];
    }
    reduceBlock(sdata, mySum, tid);
    if (tid == 0)
        g_partials[blockIdx.x] = sdata[0];
}

extern "C" __global__ void kernel(const int *g_idata, int *g_partials, int *g_total,
                                  unsigned *g_last, unsigned n)
{
    __shared__ bool amLast;
    __shared__ unsigned lastTicket;
    unsigned tid = threadIdx.x;
    reduceBlocks(g_idata, g_partials, n);

    if (gridDim.x > 1) {
        if (tid == 0) {
            // the partial must be visible to every CTA before the ticket is taken
            __threadfence();
            unsigned ticket = atomicInc(&retirementCount, gridDim.x);
            amLast = (ticket == gridDim.x - 1);
            lastTicket = ticket;
        }
        __syncthreads();
        if (amLast) {
            extern __shared__ int smem[];
            atomicAdd(&g_last[0], 1u);
            int sum = 0;
            for (unsigned i = tid; i < gridDim.x; i += BLOCK)
                sum += ((volatile int *)g_partials)[i];
            reduceBlock(smem, sum, tid);
            if (tid == 0) {
                g_total[0] = smem[0];
                g_last[1] = lastTicket;
                retirementCount = 0;
            }
        }
    }
}
