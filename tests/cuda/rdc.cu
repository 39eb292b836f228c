// rdc.cu, with rdc_lib.cu: a program built with -rdc=true, whose kernel calls a __device__
// function of another file, so its PTX is in __nv_relfatbin and needs device linking. ptxrun
// either runs it (every element checked; exit 0) or refuses it by name: the launch fails, the
// program says which error and exits 77.
#include "check.h"

__device__ int triple_plus(int v, int k);

__global__ void apply(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = triple_plus(data[i], i);
}

int main(void)
{
    enum { N = 100 };
    int host[N], *dev;
    for (int i = 0; i < N; i++)
        host[i] = i * i;
    CHECK_OK(cudaMalloc(&dev, sizeof host));
    CHECK_OK(cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice));
    apply<<<1, 128>>>(dev, N);
    cudaError_t launch = cudaGetLastError();
    if (launch != cudaSuccess) {
        printf("REFUSED the -rdc program: %s\n", cudaGetErrorName(launch));
        return 77;
    }
    CHECK_OK(cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += host[i] != 3 * i * i + i;
    CHECK(wrong == 0, "the kernel called the other file's function (%d wrong)", wrong);
    return check_report("rdc");
}
