/* reference.h: the plain C references of the benchmarks (reference.c, built with -O2 -march=native). */
#ifndef BENCH_REFERENCE_H
#define BENCH_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

double ref_alu(unsigned iterations, uint64_t *lane_instr, uint32_t out[5][32]);   /* x y z f g */
double ref_scan(unsigned iterations, uint64_t *lane_instr, uint32_t out[32]);
double ref_diverge(unsigned iterations, uint64_t *lane_instr, uint32_t out[32]);
double ref_memory(unsigned iterations, uint64_t *lane_instr, uint32_t out[32]);
double ref_block_reduce(unsigned iterations, uint32_t threads, uint32_t *sum);
double ref_words(const char *text, size_t len, uint64_t *words);        /* bench_frontend's */
double ref_numbers(const char *text, size_t len, uint64_t *numbers);    /* bench_lanes's */
double ref_gemm_s8(unsigned iterations, const int8_t *a, const int8_t *b, int32_t *d, int m, int n, int k);
double ref_gemm_f64(unsigned iterations, const double *a, const double *b, double *d, int m, int n, int k);
double ref_gemm_f32(unsigned iterations, const float *a, const float *b, float *d, int m, int n, int k);
double ref_launch_add(unsigned launches, float *out, const float *a, int n);    /* bench_launch's */

#endif
