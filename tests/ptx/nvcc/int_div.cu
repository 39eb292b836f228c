// Exercises integer division and remainder: signed/unsigned, 32/64-bit, by variables and by constants.
__global__ void idiv32(const int *a, const int *b, int *q, int *r, unsigned *uq)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = a[i], y = b[i];
    q[i] = x / y;
    r[i] = x % y;
    uq[i] = (unsigned)x / (unsigned)y + (unsigned)x % 10u + (unsigned)x / 7u;
    q[i] += x / 3 - x % 16;
}

__global__ void idiv64(const long long *a, const long long *b, long long *q, unsigned long long *uq)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long x = a[i], y = b[i];
    q[i] = x / y + x % y;
    uq[i] = (unsigned long long)x / (unsigned long long)y + (unsigned long long)x % 1000ull;
}
