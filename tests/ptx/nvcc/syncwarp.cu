// Exercises __syncwarp with full and partial masks around warp-private shared memory.
extern "C" __global__ void syncwarp_masks(const int *in, int *out)
{
    __shared__ int buf[128];
    int lane = threadIdx.x & 31;
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = in[tid];
    __syncwarp();                       // full mask (default)
    int v = buf[threadIdx.x ^ 1];
    __syncwarp(0xffffffffu);
    if (lane < 16) {
        buf[threadIdx.x] = v * 2;
        __syncwarp(0x0000ffffu);        // lower half only
        v += buf[(threadIdx.x & ~15) + ((lane + 1) & 15)];
    } else {
        __syncwarp(0xffff0000u);        // upper half only
    }
    __syncwarp(0x55555555u);
    out[tid] = v;
}
