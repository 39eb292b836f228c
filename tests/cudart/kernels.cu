// kernels.cu: the device code tests/check_cudart.c registers by hand, as nvcc's generated host
// code would (regen.sh makes kernels.fatbin from it). extern "C": the PTX names are these names.
#include <cassert>

__device__ int table[4];                  // __cudaRegisterVar, written by cudaMemcpyToSymbol
__constant__ int factor;                  // a __constant__ one
__managed__ int counter = 5;              // __cudaRegisterManagedVar, initialised to 5

extern "C" __global__ void add(int *out, const int *a, const int *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}

// out[i] = table[i % 4] * factor + i
extern "C" __global__ void from_symbols(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = table[i % 4] * factor + i;
}

// counter += one per thread
extern "C" __global__ void count(void)
{
    atomicAdd(&counter, 1);
}

// The sum of in[0..n) by one block through dynamic shared memory (n <= blockDim.x).
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    extern __shared__ int part[];
    int t = threadIdx.x;
    part[t] = t < n ? in[t] : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s)
            part[t] += part[t + s];
        __syncthreads();
    }
    if (t == 0)
        *out = part[0];
}

// Writes far past its buffer: an illegal address.
extern "C" __global__ void stray(int *p)
{
    p[threadIdx.x + (1 << 28)] = 1;
}

extern "C" __global__ void fails_assert(int x)
{
    assert(x == 0);
}

extern "C" __global__ void traps(void)
{
    asm volatile("trap;");
}
