// Less common integer instructions: __sad / __usad (sad), __mul24 / __umul24 (mul24),
// __dp4a / __dp2a_lo (dp4a / dp2a), __fns (fns), and the SIMD-in-a-word intrinsics __vadd4,
// __vsub2, __vabsdiffu4 and __vcmpgtu4.
extern "C" __global__ void kernel(const unsigned *a, const unsigned *b, const unsigned *c,
                                  unsigned *out)
{
    int lane = threadIdx.x;
    unsigned x = a[lane], y = b[lane], z = c[lane];
    out[0 * 32 + lane] = (unsigned)__sad((int)x, (int)y, z);
    out[1 * 32 + lane] = __usad(x, y, z);
    out[2 * 32 + lane] = (unsigned)__mul24((int)x, (int)y);
    out[3 * 32 + lane] = __umul24(x, y);
    out[4 * 32 + lane] = (unsigned)__dp4a((int)x, (int)y, (int)z);
    out[5 * 32 + lane] = __dp4a(x, y, z);
    out[6 * 32 + lane] = (unsigned)__dp2a_lo((int)x, (int)y, (int)z);
    out[7 * 32 + lane] = __fns(x, lane, (int)(z % 7) - 3);
    out[8 * 32 + lane] = __vadd4(x, y);
    out[9 * 32 + lane] = __vsub2(x, y);
    out[10 * 32 + lane] = __vabsdiffu4(x, y);
    out[11 * 32 + lane] = __vcmpgtu4(x, y);
}
