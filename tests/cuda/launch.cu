// launch.cu: what a launch carries: a template kernel instantiated for int and double (mangled
// names), a struct parameter by value with padding inside it, a 3D grid of 3D blocks (every
// thread writes its own flattened index, checked against the host's), cudaFuncGetAttributes and an
// occupancy query (answers a GPU could give), and cudaPeekAtLastError/cudaGetLastError after a
// refused launch.
#include "check.h"
#include <string.h>

template <typename T> __global__ void scale(T *data, T factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= factor;
}

struct Params {
    char tag;              // then 7 bytes of padding
    double offset;
    int3 shape;
    short small;
};

__global__ void apply_params(Params p, double *out)
{
    out[threadIdx.x] = p.offset * threadIdx.x + p.shape.x * 100 + p.shape.y * 10 + p.shape.z + p.tag + p.small;
}

__global__ void where_am_i(int *out)
{
    int block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    int thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    int per_block = blockDim.x * blockDim.y * blockDim.z;
    out[block * per_block + thread] = block * 1000 + thread;
}

int main(void)
{
    enum { N = 77 };
    int ints[N];
    double doubles[N];
    for (int i = 0; i < N; i++) {
        ints[i] = i - 30;
        doubles[i] = 0.25 * i;
    }
    int *dints;
    double *ddoubles;
    CHECK_OK(cudaMalloc(&dints, sizeof ints));
    CHECK_OK(cudaMalloc(&ddoubles, sizeof doubles));
    CHECK_OK(cudaMemcpy(dints, ints, sizeof ints, cudaMemcpyHostToDevice));
    CHECK_OK(cudaMemcpy(ddoubles, doubles, sizeof doubles, cudaMemcpyHostToDevice));
    scale<int><<<3, 32>>>(dints, -3, N);
    scale<double><<<3, 32>>>(ddoubles, 1.5, N);
    CHECK_OK(cudaGetLastError());
    int got_ints[N];
    double got_doubles[N];
    CHECK_OK(cudaMemcpy(got_ints, dints, sizeof got_ints, cudaMemcpyDeviceToHost));
    CHECK_OK(cudaMemcpy(got_doubles, ddoubles, sizeof got_doubles, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += got_ints[i] != -3 * ints[i] || got_doubles[i] != 1.5 * doubles[i];
    CHECK(wrong == 0, "scale<int> and scale<double> (%d wrong)", wrong);

    Params p;
    memset(&p, 0x5a, sizeof p);          // the padding holds bytes that must not matter
    p.tag = 3;
    p.offset = 0.5;
    p.shape = make_int3(7, 8, 9);
    p.small = -2;
    double *dout, out[64];
    CHECK_OK(cudaMalloc(&dout, sizeof out));
    apply_params<<<1, 64>>>(p, dout);
    CHECK_OK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    wrong = 0;
    for (int t = 0; t < 64; t++)
        wrong += out[t] != 0.5 * t + 789 + 3 - 2;
    CHECK(wrong == 0, "a struct parameter by value (%d wrong)", wrong);

    dim3 grid(3, 2, 2), block(4, 3, 2);
    int blocks = 12, per_block = 24, where[12 * 24], *dwhere;
    CHECK_OK(cudaMalloc(&dwhere, sizeof where));
    CHECK_OK(cudaMemset(dwhere, 0xff, sizeof where));
    where_am_i<<<grid, block>>>(dwhere);
    CHECK_OK(cudaMemcpy(where, dwhere, sizeof where, cudaMemcpyDeviceToHost));
    wrong = 0;
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < per_block; t++)
            wrong += where[b * per_block + t] != b * 1000 + t;
    CHECK(wrong == 0, "a 3x2x2 grid of 4x3x2 blocks: every thread once, where it should be (%d wrong)", wrong);

    cudaFuncAttributes attributes;
    memset(&attributes, 0, sizeof attributes);
    CHECK_OK(cudaFuncGetAttributes(&attributes, where_am_i));
    CHECK(attributes.maxThreadsPerBlock > 0 && attributes.maxThreadsPerBlock <= 1024,
          "cudaFuncGetAttributes: maxThreadsPerBlock %d", attributes.maxThreadsPerBlock);
    int per_sm = 0;
    CHECK_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, where_am_i, 256, 0));
    CHECK(per_sm >= 1 && per_sm <= 32, "occupancy: %d blocks of 256 an SM", per_sm);

    where_am_i<<<1, dim3(32, 32, 2)>>>(dwhere);           // 2048 threads: refused
    CHECK_ERR(cudaPeekAtLastError(), cudaErrorInvalidConfiguration);
    CHECK_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    CHECK_OK(cudaGetLastError());
    CHECK(!strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration), "cudaErrorInvalidConfiguration"),
          "cudaGetErrorName");
    CHECK_OK(cudaFree(dints));
    CHECK_OK(cudaFree(ddoubles));
    CHECK_OK(cudaFree(dout));
    CHECK_OK(cudaFree(dwhere));
    return check_report("launch");
}
