// one kernel of probe.cu, made by regen.py
#include <cstdio>
#define A 0x11223344
#define B 0x55
#define C 7
#define N 0x1122C4
#define K(name, ...) __global__ void k_##name(int *r) { r[0] = printf(__VA_ARGS__); }
K(d_hhd, "%d %hhd|\n", C, A)
