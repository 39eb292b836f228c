// templates.cu: kernels whose mangled names exercise ptxrun's demangler (cli/demangle.c) and the
// choice of a kernel by its C++ name (--entry, --list-kernels, the expect file's "entry"):
// templates with type, integer, bool and enum arguments, parameter packs, namespaces, an
// anonymous namespace, structs, pointers to functions, members and arrays, CUDA's vector
// and half types, and an extern "C" kernel whose name shares a start with the templates'.
// Regenerate templates.ptx with regen.sh.
#include <cuda_fp16.h>

// out[i] = in[i] * BLOCK + (ADD ? 1 : 0): run by tests/cli.sh with an independent expectation.
template <typename T, unsigned BLOCK, bool ADD>
__global__ void reduce(const T *in, T *out, unsigned n)
{
    unsigned i = threadIdx.x;
    if (i < n)
        out[i] = in[i] * T(BLOCK) + T(ADD ? 1 : 0);
}

template __global__ void reduce<int, 4, true>(const int *, int *, unsigned);
template __global__ void reduce<int, 4, false>(const int *, int *, unsigned);
template __global__ void reduce<float, 4, true>(const float *, float *, unsigned);
template __global__ void reduce<double, 256, false>(const double *, double *, unsigned);

extern "C" __global__ void reduce_c(int *out)
{
    out[threadIdx.x] = -1;
}

template <typename T, long long N>
__global__ void fill(T *out)
{
    out[threadIdx.x] = T(N);
}

template __global__ void fill<long long, -3>(long long *);
template __global__ void fill<unsigned char, 7>(unsigned char *);
template __global__ void fill<short, 2>(short *);
template __global__ void fill<__half, 1>(__half *);

template <char C, unsigned long N, unsigned long long M, long L>
__global__ void literals(char *out)
{
    out[threadIdx.x] = char(C + char(N) + char(M) + char(L));
}

template __global__ void literals<'A', 128ul, 5ull, -2l>(char *);

enum class Mode { Copy, Negate };

template <Mode M>
__global__ void with_mode(int *x)
{
    x[threadIdx.x] = M == Mode::Negate ? -x[threadIdx.x] : x[threadIdx.x];
}

template __global__ void with_mode<Mode::Negate>(int *);

namespace ptxrun {
namespace demo {

template <typename T>
struct Pair {
    T a, b;
};

template <typename T>
__global__ void swap_pairs(Pair<T> *p, const Pair<T> *q)
{
    T t = p[threadIdx.x].a;
    p[threadIdx.x].a = q[threadIdx.x].b;
    p[threadIdx.x].b = t;
}

template __global__ void swap_pairs<float>(Pair<float> *, const Pair<float> *);
template __global__ void swap_pairs<Pair<int> >(Pair<Pair<int> > *, const Pair<Pair<int> > *);

__global__ void plain(float *volatile x, const volatile int *y, float4 v)
{
    x[threadIdx.x] = v.x + y[0];
}

struct Counter {
    int hits;
};

__global__ void by_member(Counter *c, int Counter::*field, void (*hook)(int))
{
    c->*field += 1;
}

}  // namespace demo
}  // namespace ptxrun

namespace {
__global__ void hidden(int *x)
{
    x[threadIdx.x] = 1;
}
}  // namespace

template <typename... Ts>
__global__ void many(int *out, Ts... xs)
{
    out[threadIdx.x] = sizeof...(Ts);
}

template __global__ void many<>(int *);
template __global__ void many<int, float, double *>(int *, int, float, double *);

struct AddOne {
    __device__ int operator()(int a) const { return a + 1; }
};

template <class F>
__global__ void apply(int *x, F f)
{
    x[threadIdx.x] = f(x[threadIdx.x]);
}

template __global__ void apply<AddOne>(int *, AddOne);

template <typename T, int N>
__global__ void rows(T (*m)[N], const T (&r)[4])
{
    m[threadIdx.x][0] = r[0];
}

template __global__ void rows<float, 3>(float (*)[3], const float (&)[4]);

template <typename T>
__global__ void vectors(T a, T *b, const T *c)
{
    b[threadIdx.x] = a;
}

template __global__ void vectors<float2>(float2, float2 *, const float2 *);
template __global__ void vectors<__half2>(__half2, __half2 *, const __half2 *);

// Launches the kernel of the anonymous namespace, which nvcc emits only when it is used.
void launch_hidden(int *x)
{
    hidden<<<1, 32>>>(x);
}
