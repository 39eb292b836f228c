// Integer division and remainder: signed and unsigned, 32- and 64-bit, by per-lane divisors
// (negative ones included) and by constants (which nvcc turns into multiply-high sequences),
// truncating toward zero as C does. No division by zero and no INT_MIN / -1.
extern "C" __global__ void kernel(const int *a, const int *b, const long long *la,
                                  const long long *lb, int *out, long long *lout)
{
    int lane = threadIdx.x;
    int x = a[lane], y = b[lane];
    unsigned ux = (unsigned)x, uy = (unsigned)y;
    long long lx = la[lane], ly = lb[lane];
    unsigned long long ulx = (unsigned long long)lx, uly = (unsigned long long)ly;
    out[0 * 32 + lane] = x / y;
    out[1 * 32 + lane] = x % y;
    out[2 * 32 + lane] = (int)(ux / uy);
    out[3 * 32 + lane] = (int)(ux % uy);
    out[4 * 32 + lane] = x / 7;
    out[5 * 32 + lane] = x % 7;
    out[6 * 32 + lane] = x / -3;
    out[7 * 32 + lane] = x / 8;
    out[8 * 32 + lane] = x % 8;
    out[9 * 32 + lane] = (int)(ux / 1000u);
    out[10 * 32 + lane] = (int)(ux % 1000u);
    lout[0 * 32 + lane] = lx / ly;
    lout[1 * 32 + lane] = lx % ly;
    lout[2 * 32 + lane] = (long long)(ulx / uly);
    lout[3 * 32 + lane] = (long long)(ulx % uly);
    lout[4 * 32 + lane] = lx / 10;
    lout[5 * 32 + lane] = (long long)(ulx % 1000000007ull);
}
