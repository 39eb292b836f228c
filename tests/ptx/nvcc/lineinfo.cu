// lineinfo.cu: source lines in run-time diagnostics (nvcc -lineinfo puts .file/.loc in the PTX):
// an out-of-bounds store, a branch on uninitialised shared memory, a __syncwarp that waits for
// lanes held at a __syncthreads, and a failed assert. Each kernel's faulting line is named in tests/cli.sh.
#include <cassert>

extern "C" __global__ void oob_store(float *out, const float *in, int offset)
{
    int i = threadIdx.x;
    float v = in[i] * 2.0f;
    out[i + offset] = v;
}

extern "C" __global__ void undefined_branch(int *out)
{
    __shared__ int flags[32];
    int i = threadIdx.x;
    if (flags[i] > 0)
        out[i] = 1;
}

extern "C" __global__ void syncwarp_deadlock(int *out)
{
    int i = threadIdx.x;
    if (i < 16)
        __syncwarp(0xffffffff);
    else
        __syncthreads();
    out[i] = i;
}

extern "C" __global__ void failed_assert(const int *in)
{
    int i = threadIdx.x;
    assert(in[i] >= 0);
}
