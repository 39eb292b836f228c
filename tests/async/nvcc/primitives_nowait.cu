// primitives_nowait.cu: primitives.cu without its first __pipeline_wait_prior (the missing-wait
// bug): a[t] is read while its copy is pending, so out[3t] is undefined and the read warns; the
// later waits land the rest (out[3t + 1], out[3t + 2] as in primitives.cu).
#include <cuda_pipeline.h>

__global__ void primitives_nowait(const unsigned *in, unsigned *out)
{
    __shared__ alignas(16) unsigned a[64], b[64];
    __shared__ alignas(16) unsigned char c[64 * 16];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&a[t], &in[t], sizeof(unsigned));
    __pipeline_commit();
    __pipeline_memcpy_async(&b[t], &in[64 + t], sizeof(unsigned));
    __pipeline_commit();
    __pipeline_memcpy_async(&c[16 * t], &in[128 + 4 * t], 16, t % 17);
    __pipeline_commit();
    unsigned x = a[t];
    __pipeline_wait_prior(1);
    unsigned y = b[t];
    __pipeline_wait_prior(0);
    unsigned z = 0;
    for (int i = 0; i < 16; ++i)
        z = z * 31 + c[16 * t + i];
    out[3 * t] = x;
    out[3 * t + 1] = y;
    out[3 * t + 2] = z;
}
