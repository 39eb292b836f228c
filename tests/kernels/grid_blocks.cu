// A grid of 2 x 2 CTAs of 16 x 4 threads: each CTA stages its own 64 values in shared memory
// (which is per CTA), sums them after __syncthreads and writes its part of the output; every
// thread records its blockIdx, threadIdx, blockDim and gridDim; one thread per CTA counts the
// CTAs with a global atomic (global memory is shared by all of them).
extern "C" __global__ void kernel(const int *in, int *sums, unsigned *ids, int *counter)
{
    __shared__ int sh[64];
    int tid = threadIdx.y * blockDim.x + threadIdx.x;
    int cta = blockIdx.y * gridDim.x + blockIdx.x;
    int g = cta * 64 + tid;
    sh[tid] = in[g];
    __syncthreads();
    int s = 0;
    for (int i = 0; i < 64; i++)
        s += sh[i];
    sums[g] = s + sh[63 - tid];
    ids[2 * g] = blockIdx.x | blockIdx.y << 8 | threadIdx.x << 16 | threadIdx.y << 24;
    ids[2 * g + 1] = blockDim.x | blockDim.y << 8 | gridDim.x << 16 | gridDim.y << 24;
    if (tid == 0)
        atomicAdd(counter, 1);
}
