// saxpy.cu: y[i] = a * x[i] + y[i] for i < n; the README's walkthrough runs it with ptxrun.
__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
