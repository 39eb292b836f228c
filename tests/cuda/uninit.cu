// uninit.cu: a loop whose bound comes from __shared__ memory no thread wrote (threads 32-63 read
// the half that only threads 0-31 would have filled): a branch on an undefined value.
//   uninit strict    (run with PTXRUN_STRICT=1): cudaDeviceSynchronize gives cudaErrorLaunchFailure
//   uninit lenient   (without it): a warning, and the program goes on: the defined half is right
//   uninit device    (either way) a loop bound read from cudaMalloc memory nobody wrote, which
//                    is as undefined as a GPU's: the same warning or error, at its own line
// Either way standard error names this file and the loop's line.
#include "check.h"
#include <string.h>

__global__ void count_up(const int *in, int *out)
{
    __shared__ int bound[64];
    if (threadIdx.x < 32)
        bound[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    int sum = 0;
    for (int k = 0; k < bound[threadIdx.x]; k++)
        sum += k;
    if (threadIdx.x < 32)
        out[threadIdx.x] = sum;
}

__global__ void count_from(const int *bounds, int *out)
{
    int sum = 0;
    for (int k = 0; k < bounds[threadIdx.x]; k++)
        sum += k;
    out[threadIdx.x] = sum;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "device")) {
        int *never_written, *dout;
        CHECK_OK(cudaMalloc(&never_written, 32 * sizeof(int)));
        CHECK_OK(cudaMalloc(&dout, 32 * sizeof(int)));
        count_from<<<1, 32>>>(never_written, dout);
        cudaError_t e = cudaDeviceSynchronize();
        printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(e));
        CHECK(e == cudaSuccess || e == cudaErrorLaunchFailure, "cudaDeviceSynchronize -> %s", cudaGetErrorName(e));
        return check_report("uninit device");
    }
    int strict = argc > 1 && !strcmp(argv[1], "strict");
    int in[32], out[32], *din, *dout;
    for (int i = 0; i < 32; i++)
        in[i] = i % 7;
    CHECK_OK(cudaMalloc(&din, sizeof in));
    CHECK_OK(cudaMalloc(&dout, sizeof out));
    CHECK_OK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    count_up<<<1, 64>>>(din, dout);
    if (strict) {
        CHECK_ERR(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    } else {
        CHECK_OK(cudaDeviceSynchronize());
        CHECK_OK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
        int wrong = 0;
        for (int i = 0; i < 32; i++)
            wrong += out[i] != in[i] * (in[i] - 1) / 2;
        CHECK(wrong == 0, "the defined half computed (%d wrong)", wrong);
    }
    return check_report(strict ? "uninit strict" : "uninit lenient");
}
