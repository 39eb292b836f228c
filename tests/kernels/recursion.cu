// Recursive __noinline__ device functions with a per-lane recursion depth, so the lanes'
// call stacks diverge: a doubly recursive Fibonacci and a recursive function with a local
// array in its frame (nvcc keeps it on the per-thread stack, %SP / %SPL).
__device__ __noinline__ int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ unsigned frame_chain(unsigned n, unsigned seed)
{
    volatile unsigned buf[4];
    for (int i = 0; i < 4; i++)
        buf[i] = seed * (unsigned)(i + 1) + n;
    unsigned r = n == 0 ? 0u : frame_chain(n - 1, seed * 33u + 7u);
    return r * 5u + (buf[n & 3] ^ buf[(n + 1) & 3]);
}

extern "C" __global__ void kernel(const unsigned *seeds, int *fout, unsigned *cout)
{
    int lane = threadIdx.x;
    fout[lane] = fib(lane % 16);
    cout[lane] = frame_chain((unsigned)lane % 9u, seeds[lane]);
}
