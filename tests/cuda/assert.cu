// assert.cu: a device-side assert that fails in one thread (the element 13 of 64): the program
// must see cudaErrorAssert at cudaDeviceSynchronize, and again at the next calls (the error is
// sticky, as on a GPU); standard error must name this file and the assert's line.
#include "check.h"
#include <assert.h>

__global__ void no_thirteen(const int *data)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(data[i] != 13);
}

int main(void)
{
    int host[64], *dev;
    for (int i = 0; i < 64; i++)
        host[i] = i;
    CHECK_OK(cudaMalloc(&dev, sizeof host));
    CHECK_OK(cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice));
    no_thirteen<<<2, 32>>>(dev);
    cudaError_t launch = cudaGetLastError();
    CHECK(launch == cudaSuccess || launch == cudaErrorAssert, "the launch itself: %s", cudaGetErrorName(launch));
    CHECK_ERR(cudaDeviceSynchronize(), cudaErrorAssert);
    CHECK_ERR(cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost), cudaErrorAssert);
    CHECK_ERR(cudaDeviceSynchronize(), cudaErrorAssert);
    return check_report("assert");
}
