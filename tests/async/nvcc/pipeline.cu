// pipeline.cu: a three-stage cuda::pipeline (thread scope), as CUTLASS's sm_80 mainloop feeds
// shared memory: each of 64 threads copies 16 bytes of each of 8 tiles with
// cuda::memcpy_async, acquiring and committing a stage at a time, and waits for each tile with
// consumer_wait before reading it. out[t] = sum over k of (k + 1) * (sum of tile k's 4 ints of t).
#include <cuda/pipeline>

__global__ void pipeline_sum(const int4 *in, int *out, int tiles)
{
    constexpr int stages = 3;
    __shared__ int4 tile[stages][64];
    auto pipe = cuda::make_pipeline();
    int t = threadIdx.x, fetch = 0, sum = 0;
    for (int k = 0; k < tiles; ++k) {
        for (; fetch < tiles && fetch < k + stages; ++fetch) {
            pipe.producer_acquire();
            cuda::memcpy_async(&tile[fetch % stages][t], &in[fetch * 64 + t], cuda::aligned_size_t<16>(sizeof(int4)),
                               pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        int4 v = tile[k % stages][t];
        sum += (k + 1) * (v.x + v.y + v.z + v.w);
        pipe.consumer_release();
    }
    out[t] = sum;
}
