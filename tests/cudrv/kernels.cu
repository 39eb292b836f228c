// kernels.cu: the device code of tests/cudrv/abi.c, compiled to PTX by regen.sh (nvcc -ptx).
__device__ int hits;
__constant__ float scale = 2.0f;

extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] * scale + y[i];
        atomicAdd(&hits, 1);
    }
}

extern "C" __global__ void stray(int *p)
{
    p[threadIdx.x * 1000000] = 1;
}
