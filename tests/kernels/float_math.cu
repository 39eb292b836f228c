// Correctly rounded float and double math, whose results IEEE 754 defines exactly:
// division and sqrt (nvcc's default -prec-div / -prec-sqrt give div.rn / sqrt.rn), the
// directed-rounding intrinsics (__fdiv_rz, __fsqrt_ru, __fadd_rd, __fmul_rz, __dadd_ru, ...),
// fmaf, a contracted a*b+c (nvcc emits fma.rn for it), reciprocal, and conversions between
// int, long long, float and double with each rounding mode. Inputs include subnormals, zeros
// and infinities; 0/0 gives the canonical NaN 0x7fffffff.
extern "C" __global__ void kernel(const float *fa, const float *fb, const float *fc,
                                  const double *da, const double *db, const int *ia,
                                  float *out, double *dout, int *iout, long long *lout)
{
    int lane = threadIdx.x;
    float a = fa[lane], b = fb[lane], c = fc[lane];
    double x = da[lane], y = db[lane];
    int n = ia[lane];
    float pa = fabsf(a);
    out[0 * 32 + lane] = a / b;
    out[1 * 32 + lane] = sqrtf(pa);
    out[2 * 32 + lane] = __fdiv_rz(a, b);
    out[3 * 32 + lane] = __fdiv_ru(a, b);
    out[4 * 32 + lane] = __fdiv_rd(a, b);
    out[5 * 32 + lane] = __fsqrt_ru(pa);
    out[6 * 32 + lane] = __fsqrt_rd(pa);
    out[7 * 32 + lane] = __fadd_rd(a, c);
    out[8 * 32 + lane] = __fmul_rz(a, b);
    out[9 * 32 + lane] = fmaf(a, b, c);
    out[10 * 32 + lane] = a * b + c;              // contracted to fma.rn.f32 by nvcc
    out[11 * 32 + lane] = __fmul_rn(a, b) + c;    // not contracted
    out[12 * 32 + lane] = __frcp_rn(b);
    out[13 * 32 + lane] = __fmaf_ru(a, b, c);
    out[14 * 32 + lane] = (float)n;
    out[15 * 32 + lane] = __int2float_rz(n);
    out[16 * 32 + lane] = __int2float_ru(n);
    out[17 * 32 + lane] = (float)x;
    out[18 * 32 + lane] = __double2float_rz(x);
    dout[0 * 32 + lane] = x / y;
    dout[1 * 32 + lane] = sqrt(fabs(x));
    dout[2 * 32 + lane] = __ddiv_rz(x, y);
    dout[3 * 32 + lane] = __dsqrt_rd(fabs(x));
    dout[4 * 32 + lane] = __dadd_ru(x, y);
    dout[5 * 32 + lane] = fma(x, y, (double)c);
    dout[6 * 32 + lane] = (double)a * (double)b;
    iout[0 * 32 + lane] = (int)a;
    iout[1 * 32 + lane] = __float2int_rn(a);
    iout[2 * 32 + lane] = __float2int_rd(a);
    iout[3 * 32 + lane] = __float2int_ru(a);
    iout[4 * 32 + lane] = (int)__float2uint_rn(pa);
    iout[5 * 32 + lane] = __double2int_rn(x);
    lout[0 * 32 + lane] = __float2ll_rd(a * 1000.0f);
    lout[1 * 32 + lane] = (long long)x;
}
