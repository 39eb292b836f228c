// written by scripts/h100_more_gen.py: the value printf returns for each format (H100: ret[k])
#include <cstdio>

extern "C" __global__ void k(const int *in_v, int *ret)
{
    int i = in_v[threadIdx.x];
    long long l = (long long)i * 1000000007LL;
    double d = i * 0.5;
    ret[0] = printf("%.*f|\n", 3, d);
    ret[1] = printf("%*.*f|\n", 9, 2, d);
}
