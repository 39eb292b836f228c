// assert() failing in one thread (x 5, y 1 of an 8 x 2 block): CUDA prints
// "FILE:LINE: FUNCTION: block: [x,y,z], thread: [x,y,z] Assertion `EXPR` failed." and the
// launch aborts (ptxrun: exit 3). The printf before it must not be lost.
#include <cassert>
#include <cstdio>

extern "C" __global__ void kernel(const int *in, int *out)
{
    int t = threadIdx.x + blockDim.x * threadIdx.y;
    printf("thread %d (%d,%d) sees %d\n", t, threadIdx.x, threadIdx.y, in[t]);
    assert(in[t] != 7);
    out[t] = in[t];
}
