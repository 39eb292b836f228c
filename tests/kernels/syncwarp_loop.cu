// __syncwarp in loops around warp-private shared memory.
//  (1) full warp: each iteration publishes x, __syncwarp, reads both ring neighbours,
//      __syncwarp, updates x (a ring stencil, wrapping unsigned arithmetic).
//  (2) the half warps loop with their own masks and different trip counts: lanes 0-15 rotate
//      within their half `iters` times, lanes 16-31 `iters + 3` times.
extern "C" __global__ void kernel(const unsigned *in, unsigned *out, int iters)
{
    __shared__ unsigned buf[32];
    int lane = threadIdx.x;
    unsigned x = in[lane];
    for (int it = 0; it < iters; it++) {
        buf[lane] = x;
        __syncwarp();
        unsigned left = buf[(lane + 31) & 31], right = buf[(lane + 1) & 31];
        __syncwarp();
        x = left - 2u * x + right + (unsigned)it;
    }
    out[lane] = x;

    unsigned y = in[lane] ^ 0xabcdu;
    __syncwarp();
    if (lane < 16) {
        for (int it = 0; it < iters; it++) {
            buf[lane] = y;
            __syncwarp(0x0000ffffu);
            y = buf[(lane + 1) & 15] * 3u + (unsigned)lane;
            __syncwarp(0x0000ffffu);
        }
    } else {
        for (int it = 0; it < iters + 3; it++) {
            buf[lane] = y;
            __syncwarp(0xffff0000u);
            y = buf[16 + ((lane + 15) & 15)] + y;
            __syncwarp(0xffff0000u);
        }
    }
    out[32 + lane] = y;
}
