// reduce.cu: sums of 10,000 integers by blocks of 256 threads: a tree in __shared__ memory with
// __syncthreads between the levels (static shared), then the same with dynamic shared memory
// (extern __shared__, the launch's third argument) over floats holding small integers (exact).
// Each block's partial sum is checked against the host's.
#include "check.h"

enum { N = 10000, THREADS = 256, BLOCKS = (N + THREADS - 1) / THREADS };

__global__ void reduce_static(const int *in, int *partial, int n)
{
    __shared__ int s[THREADS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = s[0];
}

__global__ void reduce_dynamic(const float *in, float *partial, int n)
{
    extern __shared__ float t[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    t[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            t[threadIdx.x] += t[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = t[0];
}

int main(void)
{
    static int in[N], partial[BLOCKS], want[BLOCKS];
    static float fin[N], fpartial[BLOCKS];
    for (int i = 0; i < N; i++) {
        in[i] = (i * 7) % 13 - 6;
        fin[i] = (float)((i * 5) % 11);
        want[i / THREADS] += in[i];
    }
    int *din, *dpartial;
    float *dfin, *dfpartial;
    CHECK_OK(cudaMalloc(&din, sizeof in));
    CHECK_OK(cudaMalloc(&dpartial, sizeof partial));
    CHECK_OK(cudaMalloc(&dfin, sizeof fin));
    CHECK_OK(cudaMalloc(&dfpartial, sizeof fpartial));
    CHECK_OK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    CHECK_OK(cudaMemcpy(dfin, fin, sizeof fin, cudaMemcpyHostToDevice));

    reduce_static<<<BLOCKS, THREADS>>>(din, dpartial, N);
    CHECK_OK(cudaGetLastError());
    CHECK_OK(cudaMemcpy(partial, dpartial, sizeof partial, cudaMemcpyDeviceToHost));
    int wrong = 0, total = 0, want_total = 0;
    for (int b = 0; b < BLOCKS; b++) {
        wrong += partial[b] != want[b];
        total += partial[b];
        want_total += want[b];
    }
    CHECK(wrong == 0, "static __shared__: %d block sums right of %d", BLOCKS - wrong, BLOCKS);
    CHECK(total == want_total, "static __shared__: total %d (host %d)", total, want_total);

    reduce_dynamic<<<BLOCKS, THREADS, THREADS * sizeof(float)>>>(dfin, dfpartial, N);
    CHECK_OK(cudaGetLastError());
    CHECK_OK(cudaMemcpy(fpartial, dfpartial, sizeof fpartial, cudaMemcpyDeviceToHost));
    wrong = 0;
    for (int b = 0; b < BLOCKS; b++) {
        float w = 0;
        for (int i = b * THREADS; i < N && i < (b + 1) * THREADS; i++)
            w += fin[i];
        wrong += fpartial[b] != w;
    }
    CHECK(wrong == 0, "extern __shared__: %d block sums right of %d", BLOCKS - wrong, BLOCKS);

    CHECK_OK(cudaFree(din));
    CHECK_OK(cudaFree(dpartial));
    CHECK_OK(cudaFree(dfin));
    CHECK_OK(cudaFree(dfpartial));
    return check_report("reduce");
}
