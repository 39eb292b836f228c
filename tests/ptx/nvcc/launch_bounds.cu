// Exercises __launch_bounds__ (maxThreadsPerBlock alone and with minBlocksPerMultiprocessor, and maxBlocksPerCluster / __cluster_dims__ on sm_90).
__global__ void __launch_bounds__(256, 2) lb_saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

extern "C" __global__ void __launch_bounds__(1024) lb_big(int *data)
{
    __shared__ int s[1024];
    s[threadIdx.x] = data[threadIdx.x];
    __syncthreads();
    data[threadIdx.x] = s[1023 - threadIdx.x] + __shfl_down_sync(0xffffffffu, s[threadIdx.x], 4);
}

// The third argument (max blocks per cluster) is only accepted for sm_90+.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define LB_SMALL __launch_bounds__(64, 1, 2)
#else
#define LB_SMALL __launch_bounds__(64, 1)
#endif
__global__ void LB_SMALL lb_small(double *d)
{
    d[threadIdx.x] *= 2.0;
}

// Compile-time cluster dimensions (sm_90 adds .reqnctapercluster).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CLUSTER __cluster_dims__(2, 1, 1)
#else
#define CLUSTER
#endif
extern "C" __global__ void CLUSTER __launch_bounds__(128) lb_cluster(float *p)
{
    p[blockIdx.x * 128 + threadIdx.x] += 1.0f;
}
