// written by scripts/h100_more_gen.py: the value printf returns for each format (H100: ret[k])
#include <cstdio>

extern "C" __global__ void k(const int *in_v, int *ret)
{
    int i = in_v[threadIdx.x];
    long long l = (long long)i * 1000000007LL;
    double d = i * 0.5;
    ret[0] = printf("%d\n", i);
    ret[1] = printf("%d %d\n", i, i);
    ret[2] = printf("%d %d %d\n", i, i, i);
    ret[3] = printf("%d %d %d %d\n", i, i, i, i);
    ret[4] = printf("%d %d %d %d %d\n", i, i, i, i, i);
    ret[5] = printf("%d %d %d %d %d %d\n", i, i, i, i, i, i);
    ret[6] = printf("%d %d %d %d %d %d %d\n", i, i, i, i, i, i, i);
    ret[7] = printf("%d %d %d %d %d %d %d %d\n", i, i, i, i, i, i, i, i);
    ret[8] = printf("%hhd\n", (signed char)i);
    ret[9] = printf("%hhd %d\n", (signed char)i, i);
    ret[10] = printf("%d %hhd\n", i, (signed char)i);
    ret[11] = printf("%hhx\n", (unsigned char)i);
    ret[12] = printf("%hhu\n", (unsigned char)i);
    ret[13] = printf("%hhX\n", (unsigned char)i);
    ret[14] = printf("%hhi\n", (signed char)i);
    ret[15] = printf("%hho\n", (unsigned char)i);
    ret[16] = printf("%hd\n", (short)i);
    ret[17] = printf("%hu\n", (unsigned short)i);
    ret[18] = printf("%hhd %hhd\n", (signed char)i, (signed char)i);
    ret[19] = printf("%hhd %hhd %hhd\n", (signed char)i, (signed char)i, (signed char)i);
    ret[20] = printf("%d %hhd %d\n", i, (signed char)i, i);
    ret[21] = printf("%hhd%d\n", (signed char)i, i);
    ret[22] = printf("%5hhd|\n", (signed char)i);
    ret[23] = printf("%hhd %hd\n", (signed char)i, (short)i);
    ret[24] = printf("%hd %hhd\n", (short)i, (signed char)i);
    ret[25] = printf("%hhd %s\n", (signed char)i, "s");
    ret[26] = printf("%hhd %f\n", (signed char)i, d);
    ret[27] = printf("%hhd %lld\n", (signed char)i, l);
    ret[28] = printf("[%d] %hd %hhd %hu %hhu %hx %hhX|%-+6hd|\n", i, (short)i, (signed char)i, (unsigned short)i, (unsigned char)i, (short)i, (unsigned char)i, (short)i);
    ret[29] = printf("%ld\n", (long)l);
    ret[30] = printf("%lld\n", l);
    ret[31] = printf("%lu %lx\n", (unsigned long)l, (unsigned long)l);
    ret[32] = printf("%f\n", d);
    ret[33] = printf("%e %g %a\n", d, d, d);
    ret[34] = printf("%s\n", "str");
    ret[35] = printf("%c\n", 'c');
    ret[36] = printf("%p\n", (void *)ret);
    ret[37] = printf("100%%\n");
    ret[38] = printf("%% %d %%\n", i);
    ret[39] = printf("%*d|\n", 7, i);
    ret[40] = printf("%-*d|%*s|\n", 6, i, 4, "ab");
    ret[41] = printf("no conversions\n");
    ret[42] = printf("%d %ld %f %s %c\n", i, (long)l, d, "x", 'y');
    ret[43] = printf("%hhd %d %hhd %d\n", (signed char)i, i, (signed char)i, i);
}
