// notsupported.cu: a kernel with an instruction ptxrun cannot execute yet (mma m16n8k4 .f64) next to
// one it can. Launching the first must fail with cudaErrorNotSupported (standard error naming the
// instruction) without running anything; the second, in the same module, still runs and its
// result is right.
#include "check.h"

__global__ void uses_mma_f64(int *out)
{
    double a = threadIdx.x, b = 1.0, c = 0.0, d[4];
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %7, %7, %7};"
                 : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3]) : "d"(a), "d"(a), "d"(b), "d"(c));
    out[threadIdx.x] = (int)(d[0] + d[1] + d[2] + d[3]) | 1;
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
    uses_mma_f64<<<1, 32>>>(dev);
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
