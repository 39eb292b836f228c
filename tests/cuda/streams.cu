// streams.cu: two streams, each copying pinned memory in, running a kernel and copying out with
// cudaMemcpyAsync; an event recorded on one stream that the other waits for (cudaStreamWaitEvent);
// events timing a launch (cudaEventElapsedTime not negative, cudaEventQuery done after
// cudaEventSynchronize); cudaLaunchKernel with an argument array; a host function in a stream
// (cudaLaunchHostFunc) that runs once, after the work before it.
#include "check.h"

__global__ void add_scalar(int *p, int n, int amount)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += amount;
}

__global__ void copy_scaled(const int *from, int *to, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        to[i] = 10 * from[i];
}

static int host_calls, host_saw;

static void CUDART_CB after_work(void *data)
{
    host_calls++;
    host_saw = *(int *)data;
}

int main(void)
{
    enum { N = 500 };
    cudaStream_t s[2];
    CHECK_OK(cudaStreamCreate(&s[0]));
    CHECK_OK(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
    int *host[2], *dev[2];
    for (int k = 0; k < 2; k++) {
        CHECK_OK(cudaMallocHost(&host[k], N * sizeof(int)));
        CHECK_OK(cudaMalloc(&dev[k], N * sizeof(int)));
        for (int i = 0; i < N; i++)
            host[k][i] = i * (k + 1);
    }
    for (int k = 0; k < 2; k++) {
        CHECK_OK(cudaMemcpyAsync(dev[k], host[k], N * sizeof(int), cudaMemcpyHostToDevice, s[k]));
        add_scalar<<<(N + 127) / 128, 128, 0, s[k]>>>(dev[k], N, 7 + k);
        CHECK_OK(cudaGetLastError());
        CHECK_OK(cudaMemcpyAsync(host[k], dev[k], N * sizeof(int), cudaMemcpyDeviceToHost, s[k]));
    }
    for (int k = 0; k < 2; k++) {
        CHECK_OK(cudaStreamSynchronize(s[k]));
        CHECK_OK(cudaStreamQuery(s[k]));
        int wrong = 0;
        for (int i = 0; i < N; i++)
            wrong += host[k][i] != i * (k + 1) + 7 + k;
        CHECK(wrong == 0, "stream %d: copy in, kernel, copy out (%d wrong)", k, wrong);
    }

    cudaEvent_t written, start, stop;
    CHECK_OK(cudaEventCreate(&written));
    CHECK_OK(cudaEventCreate(&start));
    CHECK_OK(cudaEventCreate(&stop));
    CHECK_OK(cudaEventRecord(start, s[0]));
    add_scalar<<<(N + 127) / 128, 128, 0, s[0]>>>(dev[0], N, 1000);
    CHECK_OK(cudaEventRecord(written, s[0]));
    CHECK_OK(cudaStreamWaitEvent(s[1], written, 0));
    int *scaled;
    CHECK_OK(cudaMalloc(&scaled, N * sizeof(int)));
    int n = N;
    void *args[] = { &dev[0], &scaled, &n };
    CHECK_OK(cudaLaunchKernel((const void *)copy_scaled, dim3((N + 127) / 128), dim3(128), args, 0, s[1]));
    CHECK_OK(cudaEventRecord(stop, s[1]));
    CHECK_OK(cudaMemcpyAsync(host[1], scaled, N * sizeof(int), cudaMemcpyDeviceToHost, s[1]));
    CHECK_OK(cudaLaunchHostFunc(s[1], after_work, host[1] + 3));
    CHECK_OK(cudaEventSynchronize(stop));
    CHECK_OK(cudaEventQuery(stop));
    float ms = -1.0f;
    CHECK_OK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(ms >= 0.0f, "cudaEventElapsedTime %s negative", ms >= 0.0f ? "not" : "is");
    CHECK_OK(cudaStreamSynchronize(s[1]));
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += host[1][i] != 10 * (i + 7 + 1000);
    CHECK(wrong == 0, "cudaStreamWaitEvent, then cudaLaunchKernel on the other stream (%d wrong)", wrong);
    CHECK(host_calls == 1 && host_saw == 10 * (3 + 7 + 1000), "cudaLaunchHostFunc ran %d time(s), after the copy (saw %d)",
          host_calls, host_saw);

    CHECK_OK(cudaEventDestroy(written));
    CHECK_OK(cudaEventDestroy(start));
    CHECK_OK(cudaEventDestroy(stop));
    for (int k = 0; k < 2; k++) {
        CHECK_OK(cudaStreamDestroy(s[k]));
        CHECK_OK(cudaFreeHost(host[k]));
        CHECK_OK(cudaFree(dev[k]));
    }
    CHECK_OK(cudaFree(scaled));
    return check_report("streams");
}
