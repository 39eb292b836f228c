// Exercises indirect calls through device function pointers (.callprototype, call via register, function-address initializers).
typedef float (*unary_fn)(float);
typedef int (*binary_fn)(int, int);

__device__ float f_square(float x) { return x * x; }
__device__ float f_negate(float x) { return -x; }
__device__ float f_half(float x) { return x * 0.5f; }
__device__ int i_add(int a, int b) { return a + b; }
__device__ int i_max(int a, int b) { return a > b ? a : b; }

__device__ unary_fn g_unary[3] = {f_square, f_negate, f_half};
__device__ binary_fn g_binary[2] = {i_add, i_max};

extern "C" __global__ void apply_unary(float *p, int sel)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unary_fn f = g_unary[(sel + i) % 3];
    p[i] = f(p[i]);
}

__global__ void fold_binary(const int *in, int *out, int sel, int n)
{
    binary_fn f = g_binary[sel & 1];
    int acc = in[0];
    for (int i = 1; i < n; ++i)
        acc = f(acc, in[i]);
    out[blockIdx.x] = acc;
}
