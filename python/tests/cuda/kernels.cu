// kernels.cu: nvcc kernels for the Python module's tests (python/tests/test_nvcc.py): printf
// (vprintf), templates chosen by their C++ names, and a fault with its CUDA line (-lineinfo).
// Regenerate kernels.ptx with regen.sh (needs CUDA's nvcc; the tests do not).
#include <cstdio>

// Each thread prints its index and a value: "thread 3: 7\n".
__global__ void hello(const int *values)
{
    printf("thread %d: %d\n", (int)threadIdx.x, values[threadIdx.x]);
}

// out[i] = in[i] * SCALE + OFFSET.
template <typename T, int SCALE>
__global__ void scale(const T *in, T *out, T offset)
{
    unsigned i = threadIdx.x;
    out[i] = in[i] * T(SCALE) + offset;
}

template __global__ void scale<int, 3>(const int *, int *, int);
template __global__ void scale<int, 5>(const int *, int *, int);
template __global__ void scale<unsigned short, 3>(const unsigned short *, unsigned short *, unsigned short);

// Reads values[index]: index past the buffer is a fault at this line.
__global__ void read_at(const int *values, int *out, int index)
{
    out[threadIdx.x] = values[index + threadIdx.x];
}
