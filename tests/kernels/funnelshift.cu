// __funnelshift_l / _r (shift & 31) and __funnelshift_lc / _rc (shift clamped to 32) with
// per-lane amounts including 0, 31, 32, 33, 255 and 0xffffffff, plus constant amounts.
extern "C" __global__ void kernel(const unsigned *lo, const unsigned *hi, const unsigned *sh,
                                  unsigned *out)
{
    int lane = threadIdx.x;
    unsigned a = lo[lane], b = hi[lane], s = sh[lane];
    out[0 * 32 + lane] = __funnelshift_l(a, b, s);
    out[1 * 32 + lane] = __funnelshift_r(a, b, s);
    out[2 * 32 + lane] = __funnelshift_lc(a, b, s);
    out[3 * 32 + lane] = __funnelshift_rc(a, b, s);
    out[4 * 32 + lane] = __funnelshift_l(a, b, 40);
    out[5 * 32 + lane] = __funnelshift_rc(a, b, 40);
    out[6 * 32 + lane] = __funnelshift_lc(a, b, 7);
    out[7 * 32 + lane] = __funnelshift_r(a, b, 31);
}
