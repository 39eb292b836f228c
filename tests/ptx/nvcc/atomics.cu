// Exercises global and shared atomics: add (int/float/double), sub, min, max, exch, CAS, inc, and/or/xor.
__device__ unsigned g_counter;

__global__ void histogram(const unsigned char *in, unsigned *bins, int n)
{
    __shared__ unsigned local[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        local[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[in[i]], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        atomicAdd(&bins[i], local[i]);
}

__global__ void atomic_mix(int *ip, float *fp, double *dp, unsigned *up, int v)
{
    int old = atomicAdd(ip, v);
    atomicSub(ip + 1, v);
    atomicMin(ip + 2, old);
    atomicMax(ip + 3, old);
    atomicExch(ip + 4, v);
    atomicCAS(ip + 5, 0, v);
    atomicAdd(fp, 1.5f);
    atomicAdd(dp, 2.5);
    atomicInc(up, 100u);
    atomicAnd(up + 1, 0xf0u);
    atomicOr(up + 2, 0x0fu);
    atomicXor(up + 3, (unsigned)v);
    unsigned ticket = atomicAdd(&g_counter, 1u);
    if (ticket == 0)
        up[4] = 1;
}
