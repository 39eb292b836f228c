// Exercises float math: sqrtf, rsqrtf, expf, __expf, logf, sinf, fmaf, fast and IEEE division, double sqrt/div.
extern "C" __global__ void fmath(const float *x, const float *y, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float a = x[i], b = y[i];
    float r = sqrtf(a) + rsqrtf(b);
    r += expf(a) / b;
    r += __expf(b) + __fdividef(a, b);
    r += logf(fabsf(a) + 1.0f) * sinf(b);
    r = fmaf(r, a, b) + fminf(a, b) - fmaxf(a, b);
    out[i] = r / 3.0f;
}

extern "C" __global__ void dmath(const double *x, double *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double a = x[i];
    out[i] = sqrt(a) / (a + 1.0) + (double)(float)a * 0.25;
}
