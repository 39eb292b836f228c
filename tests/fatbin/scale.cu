// scale.cu: the smallest CUDA program tests/fatbin/regen.sh builds: one kernel, one launch.
__global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= a;
}

int main(void)
{
    float *x;
    cudaMalloc(&x, 16 * sizeof(float));
    scale<<<1, 16>>>(x, 2.0f, 16);
    cudaDeviceSynchronize();
    cudaFree(x);
    return 0;
}
