// twofiles_other.cu: the second file of twofiles.cu.
#include <cuda_runtime.h>

static __device__ int base = 7;

__global__ void add_times_base(int *data)
{
    data[threadIdx.x] += base * threadIdx.x;
}

void launch_other(int *data)
{
    add_times_base<<<1, 32>>>(data);
}

int other_base_from_host(void)
{
    int value = -1;
    if (cudaMemcpyFromSymbol(&value, base, sizeof value) != cudaSuccess)
        return -1;
    return value;
}
