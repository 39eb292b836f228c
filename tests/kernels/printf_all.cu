// printf with every conversion CUDA documents (%d %i %u %o %x %X %c %s %p %e %E %f %F %g %G %a %A
// and %%), with flags (- + space # 0), widths (digits and '*', negative too), precisions and the
// lengths h, hh, l, ll; float arguments promoted to double, infinities, NaN, -0.0, subnormals,
// a NULL and a non-NULL %p and %s. Four threads; each call's return value (the arguments it
// took) goes to ret. The expected text comes from the host C library's printf on the same values.
#include <cstdio>

extern "C" __global__ void kernel(const int *iv, const long long *lv, const double *dv, const float *fv, int *ret)
{
    int t = threadIdx.x;
    int i = iv[t];
    long long l = lv[t];
    double d = dv[t];
    float f = fv[t];
    int *r = ret + 12 * t;
    r[0] = printf("[%d] %d %i %u %x %X %o|%5d|%-5d|%05d|%+d|% d|%#x|%#o|%.3d|%8.4d|\n", t, i, i, i, i, i, i, i, i, i,
                  i, i, i, i, i, i);
    r[1] = printf("[%d] %hd %hhd %hu %hhu %hx %hhX|%-+6hd|\n", t, (short)i, (signed char)i, (unsigned short)i,
                  (unsigned char)i, (short)i, (unsigned char)i, (short)i);
    r[2] = printf("[%d] %ld %lld %lu %llu %lx %llX %#llo|%-22lld|%+020lld|\n", t, (long)l, l, (unsigned long)l,
                  (unsigned long long)l, (unsigned long)l, (unsigned long long)l, (unsigned long long)l, l, l);
    r[3] = printf("[%d] %f %.2f %10.3f %-12.1f| %+e %E %.0e %#.0e\n", t, d, d, d, d, d, d, d, d);
    r[4] = printf("[%d] %g %G %#g %.3g %-10g| %a %A %.2a %F\n", t, d, d, d, d, d, d, d, d, d);
    r[5] = printf("[%d] float %f %e %g %a % .3f\n", t, f, f, f, f, f);
    r[6] = printf("[%d] %c%c|%5c|%-3c|%%|%5.1f%%\n", t, 'A' + t, 'z' - t, '0' + t, '#', d);
    const char *names[4] = {"warp", "lane", "", "thread block"};
    const char *s = names[t];
    r[7] = printf("[%d] %s|%10s|%-10s|%.3s|%.0s|%s\n", t, s, s, s, s, s, "literal");
    r[8] = printf("[%d] %*d|%-*d|%*s|\n", t, 6, i, -6, i, t - 2, "ab");
    r[9] = printf("[%d] %p %p\n", t, (void *)0, (void *)(unsigned long long)(0x1000u + 16u * (unsigned)t));
    r[10] = printf("[%d] %s\n", t, t == 2 ? (const char *)0 : "non-null");
    r[11] = printf("no arguments, thread %s\n", t < 2 ? "low" : "high");
}
