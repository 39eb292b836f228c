// twofiles.cu, with twofiles_other.cu: a program of two files compiled apart (no -rdc), so two
// fatbinaries registered, each with a kernel and a __device__ variable of the same name (each
// file's own, static). Each file's kernel sees its own variable; main launches one kernel
// directly and the other through the other file's host function.
#include "check.h"

static __device__ int base = 1000;

__global__ void add_base(int *data)
{
    data[threadIdx.x] += base;
}

void launch_other(int *data);           // twofiles_other.cu
int other_base_from_host(void);

int main(void)
{
    int host[32], *dev;
    for (int i = 0; i < 32; i++)
        host[i] = i;
    CHECK_OK(cudaMalloc(&dev, sizeof host));
    CHECK_OK(cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice));
    add_base<<<1, 32>>>(dev);
    launch_other(dev);
    CHECK_OK(cudaGetLastError());
    CHECK_OK(cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < 32; i++)
        wrong += host[i] != i + 1000 + 7 * i;
    CHECK(wrong == 0, "both files' kernels ran, each with its own variable (%d wrong)", wrong);
    int mine = 0;
    CHECK_OK(cudaMemcpyFromSymbol(&mine, base, sizeof mine));
    CHECK(mine == 1000 && other_base_from_host() == 7, "each file's variable named from its own file (%d, %d)", mine,
          other_base_from_host());
    CHECK_OK(cudaFree(dev));
    return check_report("twofiles");
}
