/* tables.h: reads the H100's dense .approx tables (../shared/hw/approx, see its README): each
 * f32 table holds d = ord(hw) - ord(ref) per input, ref the correctly rounded f32 value of the
 * exact function, plus (input, hw) pairs where d was clamped. Shared by the checker
 * (approx_tables.c) and the coefficient fitter (mufu_fit.c). gzip runs through popen. */
#ifndef APPROX_TABLES_H
#define APPROX_TABLES_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_ENTRIES (1u << 23)
#define TWO_PI 6.283185307179586476925286766559

static inline float tab_f32(uint32_t u) { float x; memcpy(&x, &u, sizeof x); return x; }
static inline uint32_t tab_bits(float x) { uint32_t u; memcpy(&u, &x, sizeof u); return u; }

/* The README's ord(): the signed count of floats from +0, valid across zero. */
static inline int64_t tab_ord(uint32_t b) { return b >> 31 ? -(int64_t)(b & 0x7fffffff) : (int64_t)b; }
static inline uint32_t tab_unord(int64_t o) { return o < 0 ? (uint32_t)(-o) | 0x80000000u : (uint32_t)o; }

/* The whole gunzipped file dir/name, or NULL (with *len = 0) where it is missing. */
static inline void *tab_read(const char *dir, const char *name, size_t *len)
{
    char cmd[1024];
    *len = 0;
    snprintf(cmd, sizeof cmd, "gzip -dc '%s/%s' 2>/dev/null", dir, name);
    FILE *f = popen(cmd, "r");
    if (!f)
        return NULL;
    size_t cap = 1u << 20, n = 0;
    char *buf = malloc(cap);
    for (size_t k; buf && (k = fread(buf + n, 1, cap - n, f)) > 0;)
        if ((n += k) == cap)
            buf = realloc(buf, cap *= 2);
    if (pclose(f) != 0 || n == 0) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* The exact functions of the README's reference (rounded once to f32 by the caller). */
static inline double tab_rcp(double x) { return 1.0 / x; }
static inline double tab_rsqrt(double x) { return 1.0 / sqrt(x); }
static inline double tab_div15(double x) { return 1.5 / x; }

/* hw[i] for input first + i, rebuilt from table `stem` (…_delta_i8/_i16 and …_exc_u32pairs);
 * NULL where the table is missing. */
static inline uint32_t *tab_hw(const char *dir, const char *stem, uint32_t first, double (*f)(double))
{
    char name[256];
    size_t len, elen;
    int wide = 0;
    snprintf(name, sizeof name, "%s_delta_i8.bin.gz", stem);
    void *delta = tab_read(dir, name, &len);
    if (!delta) {
        snprintf(name, sizeof name, "%s_delta_i16.bin.gz", stem);
        delta = tab_read(dir, name, &len);
        wide = 1;
    }
    if (!delta || len != TABLE_ENTRIES * (wide ? 2u : 1u)) {
        free(delta);
        return NULL;
    }
    snprintf(name, sizeof name, "%s_exc_u32pairs.bin.gz", stem);
    uint32_t *exc = tab_read(dir, name, &elen);
    uint32_t *hw = malloc(TABLE_ENTRIES * sizeof *hw);
    for (uint32_t i = 0; i < TABLE_ENTRIES; i++) {
        float ref = (float)f((double)tab_f32(first + i));
        int d = wide ? ((const int16_t *)delta)[i] : ((const int8_t *)delta)[i];
        hw[i] = tab_unord(tab_ord(tab_bits(ref)) + d);
    }
    for (size_t k = 0; exc && k < elen / 8; k++) {
        uint32_t index = (exc[2 * k] - first) & (TABLE_ENTRIES - 1);   /* also for an alias of */
        hw[index] = exc[2 * k + 1];                                      /* another range's file */
    }
    free(delta);
    free(exc);
    return hw;
}

#endif
