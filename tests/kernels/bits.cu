// Bit-manipulation intrinsics: __brev, __clz, __ffs, __popc and their 64-bit forms,
// __byte_perm with per-lane selectors, __umulhi / __mulhi / __umul64hi / __mul64hi,
// __hadd / __rhadd / __uhadd / __urhadd, and bit-field extract / insert written as shifts and
// masks (nvcc turns the constant ones into bfe / bfi).
extern "C" __global__ void kernel(const unsigned *a, const unsigned *b,
                                  const unsigned long long *la, const unsigned long long *lb,
                                  unsigned *out, unsigned long long *lout)
{
    int lane = threadIdx.x;
    unsigned x = a[lane], y = b[lane];
    unsigned long long lx = la[lane], ly = lb[lane];
    out[0 * 32 + lane] = __brev(x);
    out[1 * 32 + lane] = (unsigned)__clz((int)x);
    out[2 * 32 + lane] = (unsigned)__ffs((int)x);
    out[3 * 32 + lane] = (unsigned)__popc(x);
    out[4 * 32 + lane] = __byte_perm(x, y, y & 0x7777u);
    out[5 * 32 + lane] = __umulhi(x, y);
    out[6 * 32 + lane] = (unsigned)__mulhi((int)x, (int)y);
    out[7 * 32 + lane] = (unsigned)__hadd((int)x, (int)y);
    out[8 * 32 + lane] = (unsigned)__rhadd((int)x, (int)y);
    out[9 * 32 + lane] = __uhadd(x, y);
    out[10 * 32 + lane] = __urhadd(x, y);
    out[11 * 32 + lane] = (x >> 7) & 0x3ffu;                          // bfe.u32
    out[12 * 32 + lane] = (unsigned)(((int)x << 9) >> 20);            // signed field
    out[13 * 32 + lane] = (x & ~(0xffu << 12)) | ((y & 0xffu) << 12); // bfi
    out[14 * 32 + lane] = (unsigned)__clzll((long long)lx);
    out[15 * 32 + lane] = (unsigned)__ffsll((long long)lx);
    out[16 * 32 + lane] = (unsigned)__popcll(lx);
    lout[0 * 32 + lane] = __brevll(lx);
    lout[1 * 32 + lane] = __umul64hi(lx, ly);
    lout[2 * 32 + lane] = (unsigned long long)__mul64hi((long long)lx, (long long)ly);
    lout[3 * 32 + lane] = lx * ly + (ly >> 3);
}
