/* bench_lanes.c: the lanes reader's speed and memory. Writes a lanes file of about 100 MB
 * (buffers of floats, integers, u64 values up to 2^64 - 1, hex strings and nulls, and registers
 * of a 1024-thread block) to OUT.json, then times lanes_load on it (best of RUNS) and measures
 * its peak memory as the growth of the process's peak resident set (getrusage ru_maxrss) over
 * the load; the file is written as it is generated, so the process is small before. For a
 * reference it also times reading the file's bytes alone, and plain C reading every number of
 * it with strtod (reference.c), the target's measure: the reader at least LANES_SHARE of
 * that rate, in the same run: issue 15's "under 3 s" for 100 MB (33 MB/s) against the 323 MB/s
 * plain C gave where it was restated so (issue 33), so that a slow or busy machine reads the same.
 * usage: bench_lanes OUT.json [MB]   (default 100 MB) */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "cli.h"
#include "reference.h"

enum { RUNS = 2, THREADS = 1024 };
static const double LANES_SHARE = 1.0 / 9;

static const char kernel[] =
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 pf, .param .u64 pu, .param .u64 pw, .param .u64 ph)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .f32 %f<2>;\n  .reg .b64 %rd<3>;\n  .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [pf];\n  ld.global.f32 %f1, [%rd1];\n  ret;\n}\n";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static long max_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* A small deterministic generator (xorshift64*), so every run writes the same file. */
static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* One buffer of n values of a kind: 'f' reals, 'u' integers, 'w' u64 (some past 2^63), 'h' hex. */
static void write_buffer(FILE *f, const char *name, const char *type, char kind, size_t n, uint64_t *seed)
{
    fprintf(f, "    \"%s\": {\"type\": \"%s\", \"data\": [", name, type);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = next(seed);
        const char *sep = i ? (i % 16 ? ", " : ",\n      ") : "\n      ";
        if (i % 97 == 13)
            fprintf(f, "%snull", sep);
        else if (kind == 'f')
            fprintf(f, "%s%.9g", sep, ((double)(r >> 11) / 9007199254740992.0 - 0.5) * (i % 3 ? 1e3 : 1e-3));
        else if (kind == 'u')
            fprintf(f, "%s%u", sep, (unsigned)(r >> (i % 4 ? 54 : 32)));
        else if (kind == 'w')
            fprintf(f, "%s%llu", sep, (unsigned long long)(i % 2 ? r : r >> 8));
        else
            fprintf(f, "%s\"0x%08x\"", sep, (unsigned)r);
    }
    fprintf(f, "]}");
}

static long write_file(const char *path, size_t target_bytes, double *buffer_bytes)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    fprintf(f, "{\n  \"block\": [%d, 1, 1],\n  \"params\": [\"@f\", \"@u\", \"@w\", \"@h\"],\n  \"regs\": {", THREADS);
    const char *regs[] = { "%r1", "%r2", "%f1", "%rd2" };
    for (unsigned k = 0; k < COUNT_OF(regs); k++) {
        fprintf(f, "%s\n    \"%s\": [", k ? "," : "", regs[k]);
        for (int t = 0; t < THREADS; t++)
            fprintf(f, t ? ", %d" : "%d", (int)(next(&seed) >> 50));
        fputs("]", f);
    }
    fputs("\n  },\n  \"buffers\": {\n", f);
    /* Bytes per value, about: reals 15, integers 6, u64 21, hex 14; shares of the file 30/45/15/10 %. */
    size_t nf = target_bytes / 100 * 30 / 15, nu = target_bytes / 100 * 45 / 6, nw = target_bytes / 100 * 15 / 21,
           nh = target_bytes / 100 * 10 / 14;
    *buffer_bytes = 2.0 * (4 * nf + 4 * nu + 8 * nw + 4 * nh);
    write_buffer(f, "f", "f32", 'f', nf, &seed);
    fputs(",\n", f);
    write_buffer(f, "u", "u32", 'u', nu, &seed);
    fputs(",\n", f);
    write_buffer(f, "w", "u64", 'w', nw, &seed);
    fputs(",\n", f);
    write_buffer(f, "h", "b32", 'h', nh, &seed);
    fputs("\n  }\n}\n", f);
    long size = ftell(f);
    return fclose(f) == 0 ? size : -1;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: bench_lanes OUT.json [MB]\n");
        return 2;
    }
    double buffer_bytes;
    long bytes = write_file(argv[1], (argc == 3 ? strtoul(argv[2], NULL, 10) : 100) * 1000 * 1000, &buffer_bytes);
    if (bytes < 0) {
        fprintf(stderr, "bench_lanes: cannot write %s\n", argv[1]);
        return 2;
    }
    double best = 1e30;
    long rss_growth = 0;
    for (int run = 0; run < RUNS; run++) {
        Source src;
        source_from_string(&src, "bench_lanes.ptx", kernel, sizeof kernel - 1);
        Diag diag;
        diag_init(&diag, &src, stderr);
        Module *m = parse_module(&src, &diag);
        check_module(m, &diag, NULL);
        Function *fn = diag.errors ? NULL : lower_entry(m, NULL);
        Block *b = fn ? block_load(m, fn, &diag, 1024) : NULL;
        if (!b) {
            fprintf(stderr, "bench_lanes: the kernel does not load\n");
            return 1;
        }
        Msg err = { 0 };
        long rss0 = max_rss_kb();
        double t0 = now();
        int rc = lanes_load(b, argv[1], NULL, &err);
        double t = now() - t0;
        if (run == 0)
            rss_growth = max_rss_kb() - rss0;
        if (rc < 0) {
            fprintf(stderr, "bench_lanes: %s\n", err.text);
            return 1;
        }
        if (!lanes_params_given(b, stderr))
            return 1;
        best = t < best ? t : best;
        block_free(b);
        module_free(m);
        source_free(&src);
    }
    double read_best = 1e30, plain = 1e30;
    uint64_t numbers = 0;
    for (int run = 0; run < RUNS; run++) {
        double t0 = now();
        Source src;
        Msg err = { 0 };
        if (source_load(&src, argv[1], &err) != 0) {
            fprintf(stderr, "bench_lanes: %s\n", err.text);
            return 2;
        }
        double t = now() - t0;
        double p = ref_numbers(src.text, src.len, &numbers);
        source_free(&src);
        read_best = t < read_best ? t : read_best;
        plain = p < plain ? p : plain;
    }
    double mb = (double)bytes / 1e6;
    printf("lanes reader: %.1f MB lanes file, %.2f s best of %d, %.1f MB/s; plain C strtod of its %llu numbers "
           "%.1f MB/s, %.1fx the reader (target: at least 1/%.0f of it: %s); reading its bytes alone: %.2f s\n", mb,
           best, RUNS, mb / best, (unsigned long long)numbers, mb / plain, best / plain, 1 / LANES_SHARE,
           mb / best >= mb / plain * LANES_SHARE ? "met" : "NOT met", read_best);
    printf("lanes reader: peak memory grew %.0f MB over the load (%.2f bytes per byte of JSON; the buffers "
           "themselves, data and shadow bytes, are %.0f MB)\n", rss_growth / 1024.0, rss_growth * 1024.0 / (double)bytes,
           buffer_bytes / 1e6);
    return 0;
}
