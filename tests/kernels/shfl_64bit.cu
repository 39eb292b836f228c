// 64-bit shuffles: long long, unsigned long long and double through __shfl_sync,
// __shfl_up_sync, __shfl_down_sync and __shfl_xor_sync (each is two 32-bit shfl.sync),
// including a width-8 case and a double butterfly product.
extern "C" __global__ void kernel(const long long *lin, const double *din, long long *lout,
                                  double *dout)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    long long a = lin[lane];
    double d = din[lane];
    unsigned long long u = (unsigned long long)a * 0x9e3779b97f4a7c15ull;
    lout[0 * 32 + lane] = __shfl_sync(full, a, (lane * 7) & 31);
    lout[1 * 32 + lane] = __shfl_up_sync(full, a, 3);
    lout[2 * 32 + lane] = __shfl_down_sync(full, a, 5);
    lout[3 * 32 + lane] = __shfl_xor_sync(full, a, 19);
    lout[4 * 32 + lane] = (long long)__shfl_xor_sync(full, u, 6, 8);
    lout[5 * 32 + lane] = (long long)__shfl_down_sync(full, u, 3, 8);
    dout[0 * 32 + lane] = __shfl_sync(full, d, 31 - lane);
    dout[1 * 32 + lane] = __shfl_up_sync(full, d, 1, 16);
    dout[2 * 32 + lane] = __shfl_down_sync(full, d, 9);
    double p = d;
    for (int o = 1; o < 32; o <<= 1)
        p *= __shfl_xor_sync(full, p, o);
    dout[3 * 32 + lane] = p;
}
