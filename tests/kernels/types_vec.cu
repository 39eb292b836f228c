// Narrow and vector types: int4 / float2 loads and stores (ld/st .v4 / .v2), char4 and short2
// components (sign extension from 8 and 16 bits), unsigned char / short loads and truncating
// stores, __ldg (ld.global.nc), and shuffles of values widened from narrow types.
extern "C" __global__ void kernel(const int4 *v4, const float2 *f2, const char4 *c4,
                                  const short2 *s2, const signed char *sc,
                                  const unsigned char *uc, const short *ss,
                                  const unsigned short *us, int4 *o4, float2 *of2, int *oi,
                                  short *os, signed char *ob, unsigned char *oub)
{
    const unsigned full = 0xffffffffu;
    int lane = threadIdx.x;
    int4 a = v4[lane];
    int4 r;
    r.x = __shfl_xor_sync(full, a.y, 1);
    r.y = a.z + a.w;
    r.z = __shfl_down_sync(full, a.x, 2);
    r.w = a.x ^ a.w;
    o4[lane] = r;
    float2 f = f2[lane];
    of2[lane] = make_float2(f.y - f.x, __shfl_sync(full, f.x, 0));
    char4 c = c4[lane];
    short2 s = s2[lane];
    oi[0 * 32 + lane] = c.x + c.y * 2 + c.z * 3 + c.w * 4;
    oi[1 * 32 + lane] = s.x * 5 - s.y;
    oi[2 * 32 + lane] = __shfl_sync(full, (int)sc[lane], 31 - lane);
    oi[3 * 32 + lane] = __ldg(&uc[lane]) + __ldg(&us[lane]) * 3;
    os[lane] = (short)(ss[lane] * 3 + us[lane]);
    ob[lane] = (signed char)(uc[lane] + sc[lane]);
    oub[lane] = (unsigned char)__shfl_up_sync(full, (int)uc[lane], 1);
}
