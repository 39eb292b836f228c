// notsupported.cu: a kernel with an instruction ptxrun cannot execute yet (mbarrier.init) next to
// one it can. Launching the first must fail with cudaErrorNotSupported (standard error naming the
// instruction) without running anything; the second, in the same module, still runs and its
// result is right.
#include "check.h"

__global__ void uses_mbarrier(int *out)
{
    __shared__ unsigned long long bar;
    unsigned address = (unsigned)__cvta_generic_to_shared(&bar);
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(address), "r"(32));
    out[threadIdx.x] = 1;
}

__global__ void plain(int *out)
{
    out[threadIdx.x] = 2 * threadIdx.x;
}

int main(void)
{
    int *dev, host[32];
    CHECK_OK(cudaMalloc(&dev, sizeof host));
    CHECK_OK(cudaMemset(dev, 0, sizeof host));
    uses_mbarrier<<<1, 32>>>(dev);
    CHECK_ERR(cudaGetLastError(), cudaErrorNotSupported);
    CHECK_OK(cudaDeviceSynchronize());
    CHECK_OK(cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost));
    int touched = 0;
    for (int i = 0; i < 32; i++)
        touched += host[i] != 0;
    CHECK(touched == 0, "the refused kernel wrote nothing (%d written)", touched);
    plain<<<1, 32>>>(dev);
    CHECK_OK(cudaGetLastError());
    CHECK_OK(cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < 32; i++)
        wrong += host[i] != 2 * i;
    CHECK(wrong == 0, "the other kernel of the module ran (%d wrong)", wrong);
    return check_report("notsupported");
}
