// primitives.cu: CUDA's pipeline primitives (cuda_pipeline_primitives.h, what
// globalToShmemAsyncCopy uses): three batches of __pipeline_memcpy_async, each committed,
// waited for oldest first with __pipeline_wait_prior; the third copies 16 bytes of which the
// last t % 17 are zeros (zero fill). out[3t]: a[t] after __pipeline_wait_prior(2); out[3t + 1]:
// b[t] after __pipeline_wait_prior(1); out[3t + 2]: c's 16 bytes folded (z = 31 z + byte).
#include <cuda_pipeline.h>

__global__ void primitives(const unsigned *in, unsigned *out)
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
    __pipeline_wait_prior(2);
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
