// Exercises device printf (vprintf call, .b8 string constants) with int, float, pointer and string arguments.
#include <cstdio>

extern "C" __global__ void hello(const float *x, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid == 0)
        printf("hello from block %d, n=%d\n", blockIdx.x, n);
    if (tid < n)
        printf("x[%d] = %f (%s) at %p\n", tid, x[tid], x[tid] < 0.0f ? "neg" : "pos", (void *)&x[tid]);
}

__global__ void print_ll(long long v, double d, char c)
{
    printf("%lld %g %c %u\n", v, d, c, threadIdx.x);
    printf("no args\n");
}
