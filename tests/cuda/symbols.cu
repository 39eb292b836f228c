// symbols.cu: variables of the module, named from the host: a __device__ int with an initializer
// (read back before any launch, then after kernels add to it), a __device__ table read by a kernel,
// a __constant__ array written by cudaMemcpyToSymbol (whole and at an offset) and read back by
// cudaMemcpyFromSymbol and by a kernel, cudaGetSymbolAddress/cudaGetSymbolSize, and a __managed__
// variable written and read by the host directly around launches.
#include "check.h"

__device__ int counter = 5;
__device__ int table[8] = { 2, 3, 5, 7, 11, 13, 17, 19 };
__constant__ float coeffs[4];
__managed__ int managed_total = 0;

__global__ void add_to_counter(int amount)
{
    atomicAdd(&counter, amount);
}

__global__ void use_table_and_coeffs(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = coeffs[i % 4] * x[i] + (float)table[i % 8];
}

__global__ void add_managed(void)
{
    atomicAdd(&managed_total, (int)threadIdx.x + 1);
}

int main(void)
{
    int value = -1;
    CHECK_OK(cudaMemcpyFromSymbol(&value, counter, sizeof value));
    CHECK(value == 5, "__device__ int's initializer read before any launch: %d", value);
    add_to_counter<<<2, 32>>>(3);
    CHECK_OK(cudaGetLastError());
    CHECK_OK(cudaMemcpyFromSymbol(&value, counter, sizeof value));
    CHECK(value == 5 + 64 * 3, "__device__ int after 64 atomicAdds of 3: %d (host %d)", value, 5 + 64 * 3);
    value = 1000;
    CHECK_OK(cudaMemcpyToSymbol(counter, &value, sizeof value));
    add_to_counter<<<1, 1>>>(1);
    CHECK_OK(cudaMemcpyFromSymbol(&value, counter, sizeof value));
    CHECK(value == 1001, "cudaMemcpyToSymbol then a launch: %d", value);

    int *counter_address = NULL;
    size_t counter_size = 0;
    CHECK_OK(cudaGetSymbolAddress((void **)&counter_address, counter));
    CHECK_OK(cudaGetSymbolSize(&counter_size, counter));
    CHECK(counter_size == sizeof(int), "cudaGetSymbolSize %zu", counter_size);
    value = 0;
    CHECK_OK(cudaMemcpy(&value, counter_address, sizeof value, cudaMemcpyDeviceToHost));
    CHECK(value == 1001, "cudaMemcpy from cudaGetSymbolAddress's pointer: %d", value);

    const float c[4] = { 0.5f, -2.0f, 4.0f, 1.25f };
    const float c3 = 8.0f;
    CHECK_OK(cudaMemcpyToSymbol(coeffs, c, sizeof c));
    CHECK_OK(cudaMemcpyToSymbol(coeffs, &c3, sizeof c3, 3 * sizeof(float)));
    float back[4] = { 0 };
    CHECK_OK(cudaMemcpyFromSymbol(back, coeffs, sizeof back));
    CHECK(back[0] == c[0] && back[1] == c[1] && back[2] == c[2] && back[3] == c3,
          "__constant__ read back: %g %g %g %g", back[0], back[1], back[2], back[3]);
    enum { N = 100 };
    float x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)(i - 50);
    float *dx, *dy;
    CHECK_OK(cudaMalloc(&dx, sizeof x));
    CHECK_OK(cudaMalloc(&dy, sizeof y));
    CHECK_OK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
    use_table_and_coeffs<<<1, 128>>>(dx, dy, N);
    CHECK_OK(cudaGetLastError());
    CHECK_OK(cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost));
    static const int primes[8] = { 2, 3, 5, 7, 11, 13, 17, 19 };
    int wrong = 0;
    for (int i = 0; i < N; i++) {
        float coefficient = i % 4 == 3 ? c3 : c[i % 4];
        wrong += y[i] != coefficient * x[i] + (float)primes[i % 8];
    }
    CHECK(wrong == 0, "a kernel reading __constant__ and a __device__ table: %d of %d wrong", wrong, N);

    managed_total = 100;                  // the host writes the variable itself
    add_managed<<<1, 64>>>();
    CHECK_OK(cudaDeviceSynchronize());
    CHECK(managed_total == 100 + 64 * 65 / 2, "__managed__ int after the kernel, read by the host: %d (host %d)",
          managed_total, 100 + 64 * 65 / 2);
    CHECK_OK(cudaFree(dx));
    CHECK_OK(cudaFree(dy));
    return check_report("symbols");
}
