// memory.cu: the kinds of memory a program uses: cudaMallocManaged (written and read by the host
// directly), pinned host memory (cudaMallocHost for copies; cudaHostAlloc mapped, written by a
// kernel through cudaHostGetDevicePointer), cudaMallocPitch with cudaMemcpy2D both ways (host
// rows of another pitch), cudaMemset, device-to-device and cudaMemcpyDefault copies,
// cudaPointerGetAttributes, cudaMemGetInfo. Every value checked against the host's.
#include "check.h"

__global__ void twice(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] *= 2;
}

// Each element of a pitched 2D array gets row * 100 + column added.
__global__ void add_position(float *base, size_t pitch, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        float *row = (float *)((char *)base + y * pitch);
        row[x] += (float)(y * 100 + x);
    }
}

int main(void)
{
    enum { N = 300 };
    int *managed = NULL;
    CHECK_OK(cudaMallocManaged(&managed, N * sizeof(int)));
    for (int i = 0; i < N; i++)
        managed[i] = i - 7;
    twice<<<(N + 63) / 64, 64>>>(managed, N);
    CHECK_OK(cudaDeviceSynchronize());
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += managed[i] != 2 * (i - 7);
    CHECK(wrong == 0, "cudaMallocManaged: the host reads what the kernel wrote (%d wrong)", wrong);
    CHECK_OK(cudaFree(managed));

    int *pinned = NULL, *dev = NULL;
    CHECK_OK(cudaMallocHost(&pinned, N * sizeof(int)));
    CHECK_OK(cudaMalloc(&dev, N * sizeof(int)));
    for (int i = 0; i < N; i++)
        pinned[i] = 3 * i;
    CHECK_OK(cudaMemcpy(dev, pinned, N * sizeof(int), cudaMemcpyHostToDevice));
    twice<<<(N + 63) / 64, 64>>>(dev, N);
    CHECK_OK(cudaMemcpy(pinned, dev, N * sizeof(int), cudaMemcpyDeviceToHost));
    wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += pinned[i] != 6 * i;
    CHECK(wrong == 0, "cudaMallocHost memory copied both ways (%d wrong)", wrong);
    CHECK_OK(cudaFreeHost(pinned));

    int *mapped = NULL, *mapped_dev = NULL;
    CHECK_OK(cudaHostAlloc(&mapped, N * sizeof(int), cudaHostAllocMapped));
    CHECK_OK(cudaHostGetDevicePointer(&mapped_dev, mapped, 0));
    for (int i = 0; i < N; i++)
        mapped[i] = 1000 + i;
    twice<<<(N + 63) / 64, 64>>>(mapped_dev, N);
    CHECK_OK(cudaDeviceSynchronize());
    wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += mapped[i] != 2 * (1000 + i);
    CHECK(wrong == 0, "cudaHostAllocMapped: the kernel wrote host memory (%d wrong)", wrong);
    CHECK_OK(cudaFreeHost(mapped));

    enum { W = 13, H = 7, HOST_PITCH = 16 };
    static float host2d[H][HOST_PITCH], back2d[H][HOST_PITCH];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < HOST_PITCH; x++) {
            host2d[y][x] = (float)(x - y);
            back2d[y][x] = -1.0f;
        }
    float *pitched = NULL;
    size_t pitch = 0;
    CHECK_OK(cudaMallocPitch((void **)&pitched, &pitch, W * sizeof(float), H));
    CHECK(pitch >= W * sizeof(float), "cudaMallocPitch: pitch %zu for rows of %zu bytes", pitch, W * sizeof(float));
    CHECK_OK(cudaMemcpy2D(pitched, pitch, host2d, sizeof host2d[0], W * sizeof(float), H, cudaMemcpyHostToDevice));
    add_position<<<dim3(1, 2), dim3(16, 4)>>>(pitched, pitch, W, H);
    CHECK_OK(cudaGetLastError());
    CHECK_OK(cudaMemcpy2D(back2d, sizeof back2d[0], pitched, pitch, W * sizeof(float), H, cudaMemcpyDeviceToHost));
    wrong = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < HOST_PITCH; x++) {
            float want = x < W ? (float)(x - y) + (float)(y * 100 + x) : -1.0f;
            wrong += back2d[y][x] != want;
        }
    CHECK(wrong == 0, "cudaMemcpy2D in and out, the host's padding untouched (%d wrong)", wrong);
    CHECK_OK(cudaFree(pitched));

    int *dev2 = NULL, host[N];
    CHECK_OK(cudaMalloc(&dev2, N * sizeof(int)));
    CHECK_OK(cudaMemset(dev, 0x01, N * sizeof(int)));
    CHECK_OK(cudaMemcpy(dev2, dev, N * sizeof(int), cudaMemcpyDeviceToDevice));
    CHECK_OK(cudaMemcpy(host, dev2, N * sizeof(int), cudaMemcpyDefault));
    wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += host[i] != 0x01010101;
    CHECK(wrong == 0, "cudaMemset, then device-to-device and cudaMemcpyDefault copies (%d wrong)", wrong);

    cudaPointerAttributes attributes;
    CHECK_OK(cudaPointerGetAttributes(&attributes, dev));
    CHECK(attributes.type == cudaMemoryTypeDevice, "cudaPointerGetAttributes of cudaMalloc's pointer: type %d",
          (int)attributes.type);
    size_t free_bytes = 0, total_bytes = 0;
    CHECK_OK(cudaMemGetInfo(&free_bytes, &total_bytes));
    CHECK(total_bytes > 0 && free_bytes <= total_bytes, "cudaMemGetInfo: %zu free of %zu", free_bytes, total_bytes);
    CHECK_OK(cudaFree(dev));
    CHECK_OK(cudaFree(dev2));
    return check_report("memory");
}
