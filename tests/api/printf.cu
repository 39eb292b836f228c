// printf.cu: each thread prints its index and a value; tests/check_api.c's printf case runs it
// through ptxrun.h's print callback (regen.sh makes printf.ptx).
#include <cstdio>

__global__ void hello(int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    printf("thread %d: %d\n", i, base + 10 * i);
}
