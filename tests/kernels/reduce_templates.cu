// Template block reductions in the CUDA samples' style, whose instantiations reach the dynamic
// shared memory through different `extern __shared__` names: SharedMemory<T> gives `__smem` for
// int and unsigned and `__smem_d` for its double specialisation, and `peek` declares a third,
// `dyn_words`. CUDA places every extern __shared__ array at the start of the same dynamic shared
// memory, so all three names alias. A grid of 4 CTAs of 128 threads runs, one after another,
// reduce0 (interleaved addressing, `tid % (2*s)`, __syncthreads per step; a __noinline__
// function) for double and int, then a shuffle reduction (__shfl_down_sync within each warp,
// warp partials through shared memory, the first warp reduces them) for double and unsigned;
// finally `peek` copies all 1024 bytes of dynamic shared memory out, which shows what each
// phase left where the next one did not overwrite it.
template <class T> struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
    __device__ inline operator const T *() const
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

template <> struct SharedMemory<double> {
    __device__ inline operator double *()
    {
        extern __shared__ double __smem_d[];
        return (double *)__smem_d;
    }
    __device__ inline operator const double *() const
    {
        extern __shared__ double __smem_d[];
        return (double *)__smem_d;
    }
};

// reduce0: one element per thread, interleaved addressing with a divergent modulo test.
template <class T> __device__ __noinline__ void reduce0(const T *g_idata, T *g_odata)
{
    T *sdata = SharedMemory<T>();
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if ((tid % (2 * s)) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
}

// Two elements per thread, a warp shuffle reduction, the warps' partial sums in shared memory.
template <class T, unsigned blockSize> __device__ void reduce_shfl(const T *g_idata, T *g_odata)
{
    T *sdata = SharedMemory<T>();
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    T mySum = g_idata[i] + g_idata[i + blockSize];
    for (int offset = 16; offset > 0; offset /= 2)
        mySum += __shfl_down_sync(0xffffffffu, mySum, offset);
    if (tid % 32 == 0)
        sdata[tid / 32] = mySum;
    __syncthreads();
    if (tid < 32) {
        mySum = tid < blockSize / 32 ? sdata[tid] : (T)0;
        for (int offset = 16; offset > 0; offset /= 2)
            mySum += __shfl_down_sync(0xffffffffu, mySum, offset);
        if (tid == 0)
            g_odata[blockIdx.x] = mySum;
    }
}

__device__ void peek(unsigned *words, unsigned nwords)
{
    extern __shared__ unsigned dyn_words[];
    for (unsigned k = threadIdx.x; k < nwords; k += blockDim.x)
        words[blockIdx.x * nwords + k] = dyn_words[k];
}

extern "C" __global__ void kernel(const double *din0, const int *iin, const double *din1,
                                  const unsigned *uin, double *dsum, int *isum, unsigned *usum,
                                  unsigned *words)
{
    reduce0<double>(din0, dsum);
    __syncthreads();
    reduce0<int>(iin, isum);
    __syncthreads();
    reduce_shfl<double, 128>(din1, dsum + gridDim.x);
    __syncthreads();
    reduce_shfl<unsigned, 128>(uin, usum);
    __syncthreads();
    peek(words, 128 * sizeof(double) / sizeof(unsigned));
}
