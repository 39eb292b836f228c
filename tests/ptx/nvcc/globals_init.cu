// Exercises module-scope data: initialized __constant__/__device__ arrays, pointers to globals (generic()), and vector types.
__constant__ float c_coeffs[8] = {1.0f, 0.5f, 0.25f, 0.125f, -1.0f, -0.5f, 3.0f, 2.0f};
__constant__ unsigned char c_bytes[5] = {1, 2, 3, 254, 255};
__device__ int g_table[4] = {10, 20, 30, 40};
__device__ int *g_ptr = &g_table[2];
__device__ const char *g_name = "ptxrun";
__device__ double g_scale = 1.25;
__device__ short2 g_vec = {3, -4};

__global__ void use_globals(float4 *out, const float4 *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = in[i];
    float k = c_coeffs[i & 7] * (float)g_scale + (float)c_bytes[i % 5];
    v.x = v.x * k + (float)*g_ptr;
    v.y = v.y + (float)g_name[i & 3];
    v.z = v.z - (float)g_vec.x;
    v.w = v.w * (float)g_vec.y;
    out[i] = v;
}

namespace ptxrun { namespace test {
template <typename T>
__global__ void scale_kernel(T *p, T s) { p[threadIdx.x] *= s; }
template __global__ void scale_kernel<int>(int *, int);
template __global__ void scale_kernel<double>(double *, double);
} }
