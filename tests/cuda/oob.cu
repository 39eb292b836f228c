// oob.cu: a store far outside every allocation by one thread (thread 37: lane 5 of warp 1 in
// block 1): the program must see cudaErrorIllegalAddress at the next cudaDeviceSynchronize and at
// every call after it (a sticky error, as on a GPU); standard error must name the kernel, this
// file's line of the store (from -lineinfo) and the thread.
#include "check.h"

__global__ void poke(float *data, long far_index)
{
    long i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x == 1 && threadIdx.x == 37)
        i = far_index;
    data[i] = 1.0f;
}

int main(void)
{
    float *dev;
    CHECK_OK(cudaMalloc(&dev, 128 * sizeof(float)));
    poke<<<2, 64>>>(dev, 1L << 28);        // a GiB past the allocation
    cudaError_t launch = cudaGetLastError();
    CHECK(launch == cudaSuccess || launch == cudaErrorIllegalAddress, "the launch itself: %s",
          cudaGetErrorName(launch));
    CHECK_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    CHECK_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    float host[128];
    CHECK_ERR(cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost), cudaErrorIllegalAddress);
    CHECK_ERR(cudaGetLastError(), cudaErrorIllegalAddress);
    return check_report("oob");
}
