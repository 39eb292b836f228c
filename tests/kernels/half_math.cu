// Half precision through CUDA's headers: f16x2 add, sub, mul, fma, max, min and compares
// (__hadd2 ... __hlt2), bf16x2 add, mul and fma (sm_75: in float, then one rounding), f32 pairs packed into f16x2 and bf16x2
// (__float22half2_rn, __float22bfloat162_rn: the first float goes to the low half) and into fp8
// (e4m3 and e5m2 with saturation), and fp8 back to f16x2. On sm_75 the bf16 and fp8 forms are
// emulated by the headers, on sm_80 the fp8 ones; inputs are chosen so that every build gives
// the same bits (moderate exponents, no NaN), each rounded once to its format.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

static __device__ unsigned bits(__half2 h) { return *reinterpret_cast<unsigned *>(&h); }
static __device__ unsigned bits(__nv_bfloat162 h) { return *reinterpret_cast<unsigned *>(&h); }
static __device__ __half2 as_half2(unsigned u) { return *reinterpret_cast<__half2 *>(&u); }
static __device__ __nv_bfloat162 as_bf162(unsigned u) { return *reinterpret_cast<__nv_bfloat162 *>(&u); }

extern "C" __global__ void kernel(const unsigned *h, const unsigned *b, const float *f, unsigned *out)
{
    int lane = threadIdx.x;
    __half2 x = as_half2(h[3 * lane]), y = as_half2(h[3 * lane + 1]), z = as_half2(h[3 * lane + 2]);
    __nv_bfloat162 p = as_bf162(b[3 * lane]), q = as_bf162(b[3 * lane + 1]), r = as_bf162(b[3 * lane + 2]);
    float2 v = make_float2(f[2 * lane], f[2 * lane + 1]);
    out[0 * 32 + lane] = bits(__hadd2(x, y));
    out[1 * 32 + lane] = bits(__hsub2(x, y));
    out[2 * 32 + lane] = bits(__hmul2(x, y));
    out[3 * 32 + lane] = bits(__hfma2(x, y, z));
    out[4 * 32 + lane] = bits(__hmax2(x, y));
    out[5 * 32 + lane] = bits(__hmin2(x, z));
    out[6 * 32 + lane] = bits(__hlt2(x, y));
    out[7 * 32 + lane] = __hgt(__low2half(x), __high2half(z)) ? 1u : 0u;
#if __CUDA_ARCH__ >= 800
    out[8 * 32 + lane] = bits(__hadd2(p, q));
    out[9 * 32 + lane] = bits(__hmul2(p, q));
    out[10 * 32 + lane] = bits(__hfma2(p, q, r));
#else   // no bf16 arithmetic before sm_80: in float (exact for these inputs), then one rounding
    unsigned pb = b[3 * lane], qb = b[3 * lane + 1], rb = b[3 * lane + 2];
    float pl = __uint_as_float(pb << 16), ql = __uint_as_float(qb << 16), rl = __uint_as_float(rb << 16);
    float ph = __uint_as_float(pb & 0xffff0000u), qh = __uint_as_float(qb & 0xffff0000u);
    float rh = __uint_as_float(rb & 0xffff0000u);
    out[8 * 32 + lane] = bits(__floats2bfloat162_rn(__fadd_rn(pl, ql), __fadd_rn(ph, qh)));
    out[9 * 32 + lane] = bits(__floats2bfloat162_rn(__fmul_rn(pl, ql), __fmul_rn(ph, qh)));
    out[10 * 32 + lane] = bits(__floats2bfloat162_rn(fmaf(pl, ql, rl), fmaf(ph, qh, rh)));
#endif
    out[11 * 32 + lane] = bits(__float22half2_rn(v));
    out[12 * 32 + lane] = bits(__float22bfloat162_rn(v));
    __nv_fp8x2_storage_t e4 = __nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, __NV_E4M3);
    __nv_fp8x2_storage_t e5 = __nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, __NV_E5M2);
    out[13 * 32 + lane] = e4;
    out[14 * 32 + lane] = e5;
    __half2_raw back = __nv_cvt_fp8x2_to_halfraw2(e4, __NV_E4M3);
    out[15 * 32 + lane] = back.x | (unsigned)back.y << 16;
}
