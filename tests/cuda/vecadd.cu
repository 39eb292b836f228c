// vecadd.cu: c = a + b over 1000 floats in blocks of 128 (the last block partly idle), checked
// element by element against the host's sum; the elements past n stay as cudaMemset left them;
// the device's compute capability (9.0, or PTXRUN_ARCH's) printed for the runner to check.
#include "check.h"
#include <string.h>

__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(void)
{
    enum { N = 1000, SPARE = 24 };
    static float a[N], b[N], c[N + SPARE];
    for (int i = 0; i < N; i++) {
        a[i] = 0.25f * i;
        b[i] = 3.0f - 1.5f * i;
    }
    int count = 0;
    CHECK_OK(cudaGetDeviceCount(&count));
    CHECK(count == 1, "one device (%d)", count);
    cudaDeviceProp prop;
    memset(&prop, 0, sizeof prop);
    CHECK_OK(cudaGetDeviceProperties(&prop, 0));
    printf("device: compute capability %d.%d\n", prop.major, prop.minor);
    CHECK(prop.warpSize == 32, "warpSize 32 (%d)", prop.warpSize);
    CHECK(prop.maxThreadsPerBlock == 1024, "maxThreadsPerBlock 1024 (%d)", prop.maxThreadsPerBlock);

    float *da, *db, *dc;
    CHECK_OK(cudaMalloc(&da, N * sizeof(float)));
    CHECK_OK(cudaMalloc(&db, N * sizeof(float)));
    CHECK_OK(cudaMalloc(&dc, (N + SPARE) * sizeof(float)));
    CHECK_OK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
    CHECK_OK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    CHECK_OK(cudaMemset(dc, 0xff, (N + SPARE) * sizeof(float)));
    vecadd<<<(N + 127) / 128, 128>>>(da, db, dc, N);
    CHECK_OK(cudaGetLastError());
    CHECK_OK(cudaDeviceSynchronize());
    CHECK_OK(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < N; i++)
        if (c[i] != a[i] + b[i])
            wrong++;
    CHECK(wrong == 0, "c[i] == a[i] + b[i] for all %d elements (%d wrong; c[999] = %g)", N, wrong, c[N - 1]);
    unsigned spare_ones = 0;
    for (int i = N; i < N + SPARE; i++) {
        unsigned bits;
        memcpy(&bits, &c[i], sizeof bits);
        spare_ones += bits == 0xffffffffu;
    }
    CHECK(spare_ones == SPARE, "the %d elements past n untouched (%u are)", SPARE, spare_ones);
    CHECK_OK(cudaFree(da));
    CHECK_OK(cudaFree(db));
    CHECK_OK(cudaFree(dc));
    return check_report("vecadd");
}
