// probe: how device printf (vprintf) treats %hh conversions, and what it returns
#include <cstdio>
#include <cstdlib>
#include <cstring>
#define A 0x11223344
#define B 0x55
#define C 7
#define N 0x1122C4
#define K(name, ...) __global__ void k_##name(int *r) { r[0] = printf(__VA_ARGS__); }
K(hhd, "%hhd|\n", A)
K(hhd_neg, "%hhd|\n", N)
K(hhd_d, "%hhd %d|\n", A, C)
K(d_hhd, "%d %hhd|\n", C, A)
K(hhd_hhd_d, "%hhd %hhd %d|\n", A, B, C)
K(hhu, "%hhu|\n", N)
K(hhx_x, "%hhx %x|\n", A, B)
K(hhX_d, "%hhX %d|\n", N, C)
K(hd_d, "%hd %d|\n", A, C)
K(hhd_ld, "%hhd %ld|\n", A, 0x1122334455667788L)
K(hhd_f, "%hhd %f|\n", A, 3.5)
K(d_d_d, "%d %d %d|\n", A, B, C)
K(orig8, "[%d] %hd %hhd %hu %hhu %hx %hhX|%-+6hd|\n", 1, 0x1234, N, 0xABCD, 0x55AA, 0xBEEF, 0x199, -5)
K(c, "%c|\n", 0x41)
K(ld, "%ld|\n", 0x1122334455667788L)
K(pct, "%%|\n")
K(none, "|\n")
K(w_hhd_d, "%5hhd|%d|\n", A, C)
K(hhi_hho_d, "%hhi %hho %d|\n", N, A, C)
typedef void (*kf)(int *);
struct E { const char *name; kf f; };
#define E_(n) { #n, k_##n }
static E kall[] = { E_(hhd), E_(hhd_neg), E_(hhd_d), E_(d_hhd), E_(hhd_hhd_d), E_(hhu), E_(hhx_x),
  E_(hhX_d), E_(hd_d), E_(hhd_ld), E_(hhd_f), E_(d_d_d), E_(orig8), E_(c), E_(ld), E_(pct), E_(none),
  E_(w_hhd_d), E_(hhi_hho_d) };
int main(int argc, char **argv) {
  int n = sizeof kall / sizeof kall[0];
  int *d; cudaMalloc(&d, sizeof(int));
  for (int i = 0; i < n; i++) {
    if (argc > 1 && strcmp(argv[1], kall[i].name)) continue;
    int h = -999;
    cudaMemset(d, 0xff, sizeof(int));
    printf("BEGIN %s\n", kall[i].name); fflush(stdout);
    kall[i].f<<<1, 1>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    fflush(stdout);
    if (e != cudaSuccess) { printf("ERR %s %s\n", kall[i].name, cudaGetErrorString(e)); fflush(stdout); return 1; }
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
    printf("RET %s %d\n", kall[i].name, h); fflush(stdout);
  }
  return 0;
}
