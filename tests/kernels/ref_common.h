/* ref_common.h: helpers shared by the host references NAME.ref.c.
 *
 * A reference generates a kernel's inputs deterministically, computes the expected outputs by
 * simulating the warp algorithm lane by lane in plain C, and writes
 *   argv[1] = NAME.lanes.json   {"block": [...], "buffers": {...}, "params": [...]}
 *   argv[2] = NAME.expect.json  {"buffers": {...}}
 *   argv[3] = NAME.debug.expect.json, optional: written only by a reference whose kernel's -G
 *             build legitimately computes other values (float_math: no fma contraction)
 *
 * Nothing here knows about ptxrun; the PTX shuffle helpers follow the pseudo-code of the PTX ISA
 * (shfl.sync) and CUDA's mapping of a `width` to the c operand.
 *
 * Compile: cc -std=c11 -O1 -ffp-contract=off NAME.ref.c -lm */
#ifndef REF_COMMON_H
#define REF_COMMON_H

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NLANES 32

/* ---- deterministic inputs ---------------------------------------------------------------- */

static uint32_t rng_state = 0x12345678u;

static inline void rng_seed(uint32_t s) { rng_state = s ? s : 0x12345678u; }

/* xorshift32 */
static inline uint32_t rnd(void)
{
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng_state = x;
}

static inline uint64_t rnd64(void)
{
    uint64_t hi = rnd();
    return (hi << 32) | rnd();
}

/* a uniform integer in [lo, hi] */
static inline int32_t rnd_range(int32_t lo, int32_t hi)
{
    return lo + (int32_t)(rnd() % (uint32_t)(hi - lo + 1));
}

/* a nonzero float with a random sign, 24 random mantissa bits and an exponent in [-e, e] */
static inline float rnd_float(int e)
{
    float m = (float)((rnd() & 0xffffffu) | 0x800000u) / 16777216.0f;   /* [0.5, 1) */
    int x = rnd_range(-e, e);
    float v = ldexpf(m, x);
    return (rnd() & 1) ? -v : v;
}

static inline double rnd_double(int e)
{
    uint64_t bits = rnd64() & ((1ull << 53) - 1);
    double m = (double)(bits | (1ull << 52)) / 9007199254740992.0;     /* [0.5, 1) */
    int x = rnd_range(-e, e);
    double v = ldexp(m, x);
    return (rnd() & 1) ? -v : v;
}

static inline int popc32(uint32_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* index of the lowest set bit (x != 0) */
static inline int ctz32(uint32_t x)
{
    int n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
}

static inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

/* ---- PTX shfl.sync pseudo-code ------------------------------------------------------------- */

enum { SHFL_UP, SHFL_DOWN, SHFL_BFLY, SHFL_IDX };

/* The c operand CUDA's __shfl*_sync passes for a width. */
static inline uint32_t shfl_c(int mode, int width)
{
    return mode == SHFL_UP ? (uint32_t)(32 - width) << 8 : ((uint32_t)(32 - width) << 8) | 0x1f;
}

/* The source lane of `lane` for shfl.mode with operands b, c; *valid = the PTX predicate p.
 * When p is false the source is the lane itself. */
static inline int shfl_src(int mode, int lane, uint32_t b, uint32_t c, int *valid)
{
    int bval = (int)(b & 0x1f), cval = (int)(c & 0x1f), segmask = (int)((c >> 8) & 0x1f);
    int maxLane = (lane & segmask) | (cval & ~segmask);
    int minLane = lane & segmask;
    int j = 0, p = 0;
    switch (mode) {
    case SHFL_UP:   j = lane - bval; p = (j >= maxLane); break;
    case SHFL_DOWN: j = lane + bval; p = (j <= maxLane); break;
    case SHFL_BFLY: j = lane ^ bval; p = (j <= maxLane); break;
    case SHFL_IDX:  j = minLane | (bval & ~segmask); p = (j <= maxLane); break;
    }
    if (!p)
        j = lane;
    if (valid)
        *valid = p;
    return j;
}

/* CUDA-level helpers: the lane that __shfl_*_sync(mask, v, arg, width) reads in `lane`. */
static inline int cuda_shfl_src(int mode, int lane, uint32_t arg, int width)
{
    return shfl_src(mode, lane, arg, shfl_c(mode, width), NULL);
}

/* ---- JSON output --------------------------------------------------------------------------- */

static int json_first;

static inline void json_elem(FILE *f, const char *type, const void *data, int i)
{
    char cls = type[0];
    int width = atoi(type + 1);
    if (cls == 'f' && width == 32) {
        float v = ((const float *)data)[i];
        double d = v;
        char buf[64];
        snprintf(buf, sizeof buf, "%.17g", d);
        if (isfinite(v) && !(v == 0 && signbit(v)) && strtod(buf, NULL) == d) {
            if (!strpbrk(buf, ".e"))
                strcat(buf, ".0");
            fputs(buf, f);
        } else {
            fprintf(f, "\"0x%08" PRIx32 "\"", f2u(v));
        }
    } else if (cls == 'f') {
        double d = ((const double *)data)[i];
        char buf[64];
        snprintf(buf, sizeof buf, "%.17g", d);
        if (isfinite(d) && !(d == 0 && signbit(d)) && strtod(buf, NULL) == d) {
            if (!strpbrk(buf, ".e"))
                strcat(buf, ".0");
            fputs(buf, f);
        } else {
            fprintf(f, "\"0x%016" PRIx64 "\"", d2u(d));
        }
    } else if (cls == 'b') {
        uint64_t v = 0;
        switch (width) {
        case 8: v = ((const uint8_t *)data)[i]; fprintf(f, "\"0x%02" PRIx64 "\"", v); break;
        case 16: v = ((const uint16_t *)data)[i]; fprintf(f, "\"0x%04" PRIx64 "\"", v); break;
        case 32: v = ((const uint32_t *)data)[i]; fprintf(f, "\"0x%08" PRIx64 "\"", v); break;
        default: v = ((const uint64_t *)data)[i]; fprintf(f, "\"0x%016" PRIx64 "\"", v); break;
        }
    } else if (cls == 's') {
        int64_t v = 0;
        switch (width) {
        case 8: v = ((const int8_t *)data)[i]; break;
        case 16: v = ((const int16_t *)data)[i]; break;
        case 32: v = ((const int32_t *)data)[i]; break;
        default: v = ((const int64_t *)data)[i]; break;
        }
        fprintf(f, "%" PRId64, v);
    } else {
        uint64_t v = 0;
        switch (width) {
        case 8: v = ((const uint8_t *)data)[i]; break;
        case 16: v = ((const uint16_t *)data)[i]; break;
        case 32: v = ((const uint32_t *)data)[i]; break;
        default: v = ((const uint64_t *)data)[i]; break;
        }
        if (v >= (1ull << 63))
            fprintf(f, "\"0x%016" PRIx64 "\"", v);
        else
            fprintf(f, "%" PRIu64, v);
    }
}

static inline void json_array(FILE *f, const char *type, const void *data, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++) {
        if (i)
            fputs(i % 8 ? ", " : ",\n      ", f);
        json_elem(f, type, data, i);
    }
    fputc(']', f);
}

static inline FILE *open_out(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    return f;
}

static inline void close_out(FILE *f)
{
    if (ferror(f) || fclose(f) != 0) {
        fprintf(stderr, "write error\n");
        exit(1);
    }
}

/* Lanes file: lanes_begin, then lanes_buf / lanes_zero for each buffer, then lanes_end. */
static inline FILE *lanes_begin(const char *path, int block)
{
    FILE *f = open_out(path);
    fprintf(f, "{\"block\": [%d, 1, 1],\n \"buffers\": {", block);
    json_first = 1;
    return f;
}

/* The same for a block of x*y*z threads and a grid of CTAs. */
static inline FILE *lanes_begin_grid(const char *path, const int block[3], const int grid[3])
{
    FILE *f = open_out(path);
    fprintf(f, "{\"block\": [%d, %d, %d], \"grid\": [%d, %d, %d],\n \"buffers\": {", block[0], block[1],
            block[2], grid[0], grid[1], grid[2]);
    json_first = 1;
    return f;
}

static inline void lanes_buf(FILE *f, const char *name, const char *type, const void *data, int n)
{
    fprintf(f, "%s\n  \"%s\": {\"type\": \"%s\", \"data\": ", json_first ? "" : ",", name, type);
    json_array(f, type, data, n);
    fputc('}', f);
    json_first = 0;
}

static inline void lanes_zero(FILE *f, const char *name, const char *type, int n)
{
    fprintf(f, "%s\n  \"%s\": {\"type\": \"%s\", \"count\": %d}", json_first ? "" : ",", name, type, n);
    json_first = 0;
}

/* params: the JSON text of the parameter list's elements, e.g. "\"@in\", \"@out\", 7".
 * extra: further top-level members (e.g. "\"dynamic_shared\": 256") or NULL. */
static inline void lanes_end(FILE *f, const char *params, const char *extra)
{
    fprintf(f, "\n },\n \"params\": [%s]", params);
    if (extra)
        fprintf(f, ",\n %s", extra);
    fputs("}\n", f);
    close_out(f);
}

/* Expect file: expect_begin, expect_buf for each compared buffer, expect_end. */
static inline FILE *expect_begin(const char *path)
{
    FILE *f = open_out(path);
    fputs("{\"buffers\": {", f);
    json_first = 1;
    return f;
}

static inline void expect_buf(FILE *f, const char *name, const char *type, const void *data, int n)
{
    fprintf(f, "%s\n  \"%s\": ", json_first ? "" : ",", name);
    json_array(f, type, data, n);
    json_first = 0;
}

static inline void expect_end(FILE *f)
{
    fputs("\n}}\n", f);
    close_out(f);
}

/* The same, naming the kernel to run, for a module of several .entry kernels (CUB's add an
 * empty one): ptxrun refuses to pick one itself. */
static inline void expect_end_entry(FILE *f, const char *entry)
{
    fprintf(f, "\n },\n \"entry\": \"%s\"}\n", entry);
    close_out(f);
}

static inline void check_args(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s NAME.lanes.json NAME.expect.json [NAME.debug.expect.json]\n", argv[0]);
        exit(2);
    }
}

#endif
