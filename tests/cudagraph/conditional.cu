// conditional.cu: the kernels tests/check_cudagraph.c's conditional nodes run (regen.sh makes
// conditional.fatbin from it with nvcc).
#include <cuda_runtime.h>

// The condition becomes *value.
extern "C" __global__ void set_condition(cudaGraphConditionalHandle handle, const int *value)
{
    cudaGraphSetConditional(handle, *value);
}

// One step of a countdown: counter decreases, log[its new value] records the step, and the
// condition stays set while the counter is above zero.
extern "C" __global__ void count_down(cudaGraphConditionalHandle handle, int *counter, int *log)
{
    int left = --*counter;
    log[left] += 1;
    cudaGraphSetConditional(handle, left > 0);
}
