/* reference.c: the benchmarks' work written as plain C over 32 lanes (or 1024 threads), the
 * fair reference for bench_exec: built on its own with -O2 -march=native (the best the host
 * can do), and each returns its lanes' final values so that bench_exec can check ptxrun's
 * against them. Times are in seconds; *lane_instr counts the PTX instructions the same work
 * takes, summed over lanes. At the end the references of bench_frontend and bench_lanes: the
 * least work a reader of the same text does, in plain C, so that their targets are ratios to
 * it, the same on a fast machine and a slow or busy one. */
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "reference.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint32_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* (a) x += y; y ^= x; z = x * 3; z <<= 1; f += g; g *= -1; f = fma(f, g, g); 10 instructions. */
double ref_alu(unsigned iterations, uint64_t *lane_instr, uint32_t out[5][32])
{
    uint32_t x[32], y[32], z[32] = { 0 };
    float f[32], g[32];
    for (int l = 0; l < 32; l++) { x[l] = (uint32_t)l; y[l] = 7; f[l] = 1.0f; g[l] = 0.5f; }
    double t0 = now();
    for (unsigned i = 0; i < iterations; i++) {
        for (int l = 0; l < 32; l++) {
            x[l] += y[l]; y[l] ^= x[l]; z[l] = x[l] * 3; z[l] <<= 1;
            f[l] += g[l]; g[l] *= -1.0f; f[l] = fmaf(f[l], g[l], g[l]);
        }
        __asm__ volatile("" : : "r"(x), "r"(f) : "memory");
    }
    double t = now() - t0;
    for (int l = 0; l < 32; l++) {
        out[0][l] = x[l]; out[1][l] = y[l]; out[2][l] = z[l]; out[3][l] = f32_bits(f[l]); out[4][l] = f32_bits(g[l]);
    }
    *lane_instr = (uint64_t)iterations * 32 * 10;
    return t;
}

/* (b) an inclusive scan by shfl.up of 1, 2, 4, 8, 16, added where in range; 13 instructions. */
double ref_scan(unsigned iterations, uint64_t *lane_instr, uint32_t out[32])
{
    uint32_t rx[32], ry[32];
    for (int l = 0; l < 32; l++) rx[l] = (uint32_t)l;
    double t0 = now();
    for (unsigned i = 0; i < iterations; i++) {
        for (int d = 1; d < 32; d *= 2) {
            for (int l = 0; l < 32; l++) ry[l] = l >= d ? rx[l - d] : rx[l];
            for (int l = 0; l < 32; l++) rx[l] += l >= d ? ry[l] : 0;
        }
        __asm__ volatile("" : : "r"(rx) : "memory");
    }
    double t = now() - t0;
    memcpy(out, rx, sizeof rx);
    *lane_instr = (uint64_t)iterations * 32 * 13;
    return t;
}

/* (c) odd and even lanes take turns at two arms; 10 instructions a lane. */
double ref_diverge(unsigned iterations, uint64_t *lane_instr, uint32_t out[32])
{
    uint32_t x[32] = { 0 };
    double t0 = now();
    for (unsigned i = 0; i < iterations; i++) {
        for (uint32_t l = 0; l < 32; l++) {
            if ((i ^ l) & 1) { x[l] -= 1; x[l] ^= l; }
            else { x[l] += 3; x[l] <<= 1; }
        }
        __asm__ volatile("" : : "r"(x) : "memory");
    }
    double t = now() - t0;
    memcpy(out, x, sizeof x);
    *lane_instr = (uint64_t)iterations * 32 * 10;
    return t;
}

/* (d) each lane loads its word, adds its butterfly neighbour's, stores it; 7 instructions. */
double ref_memory(unsigned iterations, uint64_t *lane_instr, uint32_t out[32])
{
    uint32_t buf[32], other[32];
    for (int l = 0; l < 32; l++) buf[l] = (uint32_t)l;
    double t0 = now();
    for (unsigned i = 0; i < iterations; i++) {
        for (int l = 0; l < 32; l++) other[l] = buf[l ^ 1];
        for (int l = 0; l < 32; l++) buf[l] += other[l];
        __asm__ volatile("" : : "r"(buf) : "memory");
    }
    double t = now() - t0;
    memcpy(out, buf, sizeof buf);
    *lane_instr = (uint64_t)iterations * 32 * 7;
    return t;
}

/* (e) each round, a block of `threads` sums t + i: every warp by butterflies, then warp 0 over
 * the warps' sums. Returns the last round's sum in *sum. */
double ref_block_reduce(unsigned iterations, uint32_t threads, uint32_t *sum)
{
    static uint32_t v[1024], part[32];
    uint32_t warps = threads / 32, s = 0;
    double t0 = now();
    for (unsigned i = 0; i < iterations; i++) {
        for (uint32_t t = 0; t < threads; t++)
            v[t] = t + i;
        for (uint32_t w = 0; w < warps; w++) {
            uint32_t *lanes = v + 32 * w;
            for (uint32_t d = 16; d; d /= 2) {
                uint32_t tmp[32];
                for (uint32_t l = 0; l < 32; l++) tmp[l] = lanes[l] + lanes[l ^ d];
                memcpy(lanes, tmp, sizeof tmp);
            }
            part[w] = lanes[0];
        }
        s = 0;
        for (uint32_t w = 0; w < warps; w++)
            s += part[w];
        __asm__ volatile("" : : "r"(v), "r"(part) : "memory");
    }
    double t = now() - t0;
    *sum = s;
    return t;
}

/* bench_frontend's reference: PTX text split into words as the least a reader does, a word a
 * run of letters, digits, '_', '$', '%' or '.', or one other character apart from white space,
 * with // comments skipped. Returns the seconds; *words counts them. */
double ref_words(const char *text, size_t len, uint64_t *words)
{
    static uint8_t word_char[256];
    for (int c = 0; c < 256; c++)
        word_char[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                       c == '$' || c == '%' || c == '.';
    uint64_t n = 0;
    double t0 = now();
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
            i++;
        else if (c == '/' && i + 1 < len && text[i + 1] == '/') {
            const char *end = memchr(text + i, '\n', len - i);
            i = end ? (size_t)(end - text) : len;
        } else if (word_char[c]) {
            while (i < len && word_char[(unsigned char)text[i]])
                i++;
            n++;
        } else {
            i++;
            n++;
        }
    }
    double t = now() - t0;
    *words = n;
    return t;
}

/* bench_lanes's reference: every number of a JSON text read with strtod (strings skipped), the
 * least a reader of its values does. Returns the seconds; *numbers counts them. */
double ref_numbers(const char *text, size_t len, uint64_t *numbers)
{
    uint64_t n = 0;
    double sum = 0;
    double t0 = now();
    for (size_t i = 0; i < len;) {
        char c = text[i];
        if (c == '"') {
            const char *end = memchr(text + i + 1, '"', len - i - 1);
            i = end ? (size_t)(end - text) + 1 : len;
        } else if ((c >= '0' && c <= '9') || c == '-') {
            char *end;
            sum += strtod(text + i, &end);
            i = end > text + i ? (size_t)(end - text) : i + 1;
            n++;
        } else
            i++;
    }
    __asm__ volatile("" : : "r"(&sum) : "memory");
    double t = now() - t0;
    *numbers = n;
    return t;
}

/* bench_gemm's reference: the same GEMMs its PTX does, D += A B `iterations` times over
 * 64 x 64 x 256 bytes of s8 (A row-major, B col-major, both as rows of k, D s32 wrapping), and
 * over 32 x 32 x 64 doubles (A row-major, B row-major b[k][n], one fma after another in k
 * order, as DMMA adds). Returns the seconds. */
double ref_gemm_s8(unsigned iterations, const int8_t *a, const int8_t *b, int32_t *d, int m, int n, int k)
{
    double t0 = now();
    for (unsigned it = 0; it < iterations; it++) {
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                const int8_t *ar = a + (size_t)i * k, *bc = b + (size_t)j * k;
                int32_t s = 0;
                for (int x = 0; x < k; x++)
                    s += ar[x] * bc[x];
                d[i * n + j] = (int32_t)((uint32_t)d[i * n + j] + (uint32_t)s);
            }
        __asm__ volatile("" : : "r"(d) : "memory");
    }
    return now() - t0;
}

double ref_gemm_f64(unsigned iterations, const double *a, const double *b, double *d, int m, int n, int k)
{
    double t0 = now();
    for (unsigned it = 0; it < iterations; it++) {
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                double s = d[i * n + j];
                for (int x = 0; x < k; x++)
                    s = fma(a[i * k + x], b[x * n + j], s);
                d[i * n + j] = s;
            }
        __asm__ volatile("" : : "r"(d) : "memory");
    }
    return now() - t0;
}

/* ... and over f32 copies of small-integer halves, 64 x 64 x 64 (A row-major, B col-major):
 * every sum exact, so any order gives the tensor core's result. */
double ref_gemm_f32(unsigned iterations, const float *a, const float *b, float *d, int m, int n, int k)
{
    double t0 = now();
    for (unsigned it = 0; it < iterations; it++) {
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                float s = 0;
                for (int x = 0; x < k; x++)
                    s += a[i * k + x] * b[j * k + x];
                d[i * n + j] += s;
            }
        __asm__ volatile("" : : "r"(d) : "memory");
    }
    return now() - t0;
}

/* bench_launch's tiny kernel as plain C: out[i] += a[i] over n floats, once per "launch". */
double ref_launch_add(unsigned launches, float *out, const float *a, int n)
{
    double t0 = now();
    for (unsigned it = 0; it < launches; it++) {
        for (int i = 0; i < n; i++)
            out[i] += a[i];
        __asm__ volatile("" : : "r"(out) : "memory");
    }
    return now() - t0;
}
