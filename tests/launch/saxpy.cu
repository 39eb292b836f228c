// saxpy for the command-line launch tests (tests/cli_launch.sh): y[i] = a * x[i] + y[i] for i < n.
// Regenerate: nvcc -ptx -O3 -arch=sm_80 saxpy.cu -o saxpy.sm_80.ptx
__global__ void saxpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
