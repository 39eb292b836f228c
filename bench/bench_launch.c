/* bench_launch.c: the speed of many small launches through libptxrun (api/ptxrun.h, linked as a
 * program outside the project would: the public static library and the header alone). The
 * tiny kernel is tinygrad's shape of an elementwise add, out[i] += a[i] over 256 floats, a grid of
 * 2 CTAs of 128 threads; every launch adds a once more, so after n launches out[i] must be
 * out0[i] + n * a[i] exactly (small integers: every sum exact), which is checked after each
 * timed series. Figures: (a) launches per second and microseconds per launch through the C API,
 * the module loaded once and the kernel launched with ptxrun_launch (and with one CTA of 1,024
 * threads over 1,024 floats: what a launch costs grows with its threads); (b) the same through
 * gpuocelot's ptx_run, the text passed every time and found in the library's cache; (c) the
 * first launch of a module (load, kernel lookup and lowering, launch) against the launches after
 * it, for the tiny kernel and for an nvcc kernel (tests/kernels/bitonic_sort: 32 keys sorted by
 * shuffles, its result checked against qsort); (d) the same work per "launch" in plain C
 * (reference.c, built with -O2 -march=native), for scale, and the command line run once per
 * launch (`PTXRUN tiny.ptx --lanes tiny.lanes.json --json`, a process each: what the library
 * saves), its output checked. The Python module's figure is bench_launch.py's. Times in this
 * process are its processor time (best of 3 series; medians of 20 for (c)), the command line's
 * its children's, so that a machine busy with other work reads about as an idle one.
 * usage: bench_launch PTXRUN BITONIC.ptx WORKDIR */
#define _DEFAULT_SOURCE                /* getrusage's RUSAGE_CHILDREN, struct timeval's fields */
#include <fcntl.h>
#include <jansson.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ptxrun.h"
#include "reference.h"

extern char **environ;

enum { N = 256, BLOCK = 128, LAUNCHES = 20000, FIRSTS = 20, AFTER = 200, CLI_RUNS = 40, BIG = 1024,
       BIG_LAUNCHES = 2000 };

/* out[i] += a[i] for i = ctaid.x * ntid.x + tid.x, as tinygrad's PTX renderer writes it. */
static const char tiny_ptx[] =
    ".version 7.8\n.target sm_80\n.address_size 64\n"
    ".visible .entry E_256(.param .u64 data0, .param .u64 data1)\n{\n"
    "\t.reg .b32 %r<5>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<6>;\n"
    "\tld.param.u64 %rd1, [data0];\n\tld.param.u64 %rd2, [data1];\n"
    "\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ntid.x;\n\tmov.u32 %r3, %tid.x;\n"
    "\tmad.lo.s32 %r4, %r1, %r2, %r3;\n\tmul.wide.s32 %rd3, %r4, 4;\n"
    "\tadd.s64 %rd4, %rd1, %rd3;\n\tadd.s64 %rd5, %rd2, %rd3;\n"
    "\tld.global.f32 %f1, [%rd4];\n\tld.global.f32 %f2, [%rd5];\n"
    "\tadd.f32 %f3, %f1, %f2;\n\tst.global.f32 [%rd4], %f3;\n\tret;\n}\n";

static float out[BIG], a[BIG];
static unsigned elements = N, block = BLOCK;   /* what launch_tiny launches: N in CTAs of BLOCK, or BIG in one */

/* The process's processor time: the launches run on this thread alone, and on a machine shared
 * with other work it counts what they took, not how long they waited. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The processor time (user and system) of the children waited for so far. */
static double children(void)
{
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

static void fail(const char *what)
{
    fprintf(stderr, "bench_launch: %s\n", what);
    exit(1);
}

static void say(void *context, const ptxrun_diagnostic *d)
{
    (void)context;
    fputs(d->text, stderr);
}

static const ptxrun_callbacks to_stderr = { say, NULL, NULL, NULL };

static void start_values(void)
{
    for (int i = 0; i < (int)elements; i++) {
        out[i] = (float)i;
        a[i] = (float)(i % 7 - 3);
    }
}

/* out after `launches` launches since start_values, exactly. */
static void check_values(double launches, const char *what)
{
    for (int i = 0; i < (int)elements; i++)
        if ((double)out[i] != i + launches * (i % 7 - 3)) {
            fprintf(stderr, "bench_launch: %s: out[%d] is %.9g after %.0f launches, not %.9g\n", what, i, out[i],
                    launches, i + launches * (i % 7 - 3));
            exit(1);
        }
}

static ptxrun_module *load(const char *text, size_t len)
{
    ptxrun_module_options mo = { "bench_launch.ptx", 0, 0, to_stderr };
    ptxrun_module *m;
    if (ptxrun_module_load(text, len, &mo, &m) != PTXRUN_OK)
        fail("the module does not load");
    return m;
}

static ptxrun_kernel *kernel(ptxrun_module *m)
{
    ptxrun_kernel *k;
    if (ptxrun_module_kernel(m, NULL, &k) != PTXRUN_OK)
        fail("the kernel does not lower");
    return k;
}

static void launch_tiny(ptxrun_kernel *k)
{
    void *pout = out, *pa = a;
    void *args[2] = { &pout, &pa };
    ptxrun_buffer buffers[2] = { { out, elements * sizeof *out, 0 }, { a, elements * sizeof *a, 1 } };
    ptxrun_launch_options o = { { elements / block, 1, 1 }, { block, 1, 1 }, 0, buffers, 2, 0, 0, 0, 0, to_stderr,
                                { 0, 0, 0 }, 0 };
    if (ptxrun_launch(k, args, &o, NULL) != PTXRUN_OK)
        fail("a launch of the tiny kernel failed");
}

static void ptx_run_tiny(void)
{
    void *args[2] = { out, a };
    ptx_run(tiny_ptx, 2, args, BLOCK, 1, 1, N / BLOCK, 1, 1, 0);
}

/* ---- (c) the nvcc kernel: bitonic sort of 32 keys, and 32 floats descending ---- */

static int32_t keys[32], sorted[32], payload[32];
static float fkeys[32], fsorted[32];

static void launch_bitonic(ptxrun_kernel *k)
{
    void *p[5] = { keys, fkeys, sorted, payload, fsorted };
    void *args[5] = { &p[0], &p[1], &p[2], &p[3], &p[4] };
    ptxrun_buffer buffers[5] = { { keys, sizeof keys, 1 }, { fkeys, sizeof fkeys, 1 }, { sorted, sizeof sorted, 0 },
                                 { payload, sizeof payload, 0 }, { fsorted, sizeof fsorted, 0 } };
    ptxrun_launch_options o = { { 1, 1, 1 }, { 32, 1, 1 }, 0, buffers, 5, 0, 0, 0, 0, to_stderr, { 0, 0, 0 }, 0 };
    memset(sorted, 0, sizeof sorted);
    memset(payload, 0, sizeof payload);
    memset(fsorted, 0, sizeof fsorted);
    if (ptxrun_launch(k, args, &o, NULL) != PTXRUN_OK)
        fail("a launch of the bitonic sort failed");
}

static int by_int(const void *x, const void *y)
{
    int32_t p = *(const int32_t *)x, q = *(const int32_t *)y;
    return (p > q) - (p < q);
}

static int by_float_down(const void *x, const void *y)
{
    float p = *(const float *)x, q = *(const float *)y;
    return (p < q) - (p > q);
}

static void check_bitonic(void)
{
    int32_t want[32];
    float fwant[32];
    memcpy(want, keys, sizeof want);
    memcpy(fwant, fkeys, sizeof fwant);
    qsort(want, 32, sizeof *want, by_int);
    qsort(fwant, 32, sizeof *fwant, by_float_down);
    for (int i = 0; i < 32; i++)
        if (sorted[i] != want[i] || payload[i] < 0 || payload[i] > 31 || keys[payload[i]] != sorted[i] ||
            memcmp(&fsorted[i], &fwant[i], sizeof fwant[i]) != 0)
            fail("the bitonic sort's result is wrong");
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t cap = 0;
    *len = 0;
    for (;;) {
        if (*len + 4096 > cap)
            text = realloc(text, cap = 2 * cap + 4096);
        size_t got = fread(text + *len, 1, cap - *len - 1, f);
        if (!got)
            break;
        *len += got;
    }
    fclose(f);
    text[*len] = '\0';
    return text;
}

/* The first launch of a fresh module, FIRSTS times: load, kernel (the lowering), the launch, and
 * the mean of AFTER launches after it; the medians. */
typedef struct First {
    double load, lower, launch, next;
} First;

static int by_double(const void *x, const void *y)
{
    double p = *(const double *)x, q = *(const double *)y;
    return (p > q) - (p < q);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_double);
    return v[n / 2];
}

static First first_launch(const char *text, size_t len, void (*launch)(ptxrun_kernel *), void (*check)(void))
{
    double load_s[FIRSTS], lower_s[FIRSTS], launch_s[FIRSTS], next_s[FIRSTS];
    for (int r = 0; r < FIRSTS; r++) {
        double t0 = now();
        ptxrun_module *m = load(text, len);
        double t1 = now();
        ptxrun_kernel *k = kernel(m);
        double t2 = now();
        launch(k);
        double t3 = now();
        check();
        double t4 = now();
        for (int i = 0; i < AFTER; i++)
            launch(k);
        double t5 = now();
        check();
        ptxrun_module_free(m);
        load_s[r] = t1 - t0, lower_s[r] = t2 - t1, launch_s[r] = t3 - t2, next_s[r] = (t5 - t4) / AFTER;
    }
    return (First){ median(load_s, FIRSTS), median(lower_s, FIRSTS), median(launch_s, FIRSTS),
                    median(next_s, FIRSTS) };
}

static double tiny_launches;        /* since start_values, for first_launch's checks */

static void launch_tiny_counted(ptxrun_kernel *k)
{
    launch_tiny(k);
    tiny_launches++;
}

static void check_tiny(void)
{
    check_values(tiny_launches, "(c) the tiny kernel");
}

static void print_first(const char *name, First f)
{
    double first = f.load + f.lower + f.launch;
    printf("%-34s %8.1f us (load %.1f, kernel lookup and lowering %.1f, launch %.1f), results checked; "
           "a next launch %.1f us: %.0fx\n", name, first * 1e6, f.load * 1e6, f.lower * 1e6, f.launch * 1e6,
           f.next * 1e6, first / f.next);
}

/* ---- (d) the command line, a process per launch ---- */

static bool write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    return f && fputs(text, f) >= 0 && fclose(f) == 0;
}

static bool write_lanes(const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    fprintf(f, "{\"grid\": [%d, 1, 1], \"block\": [%d, 1, 1],\n \"buffers\": {\n  \"out\": {\"type\": \"f32\", \"data\": [",
            N / BLOCK, BLOCK);
    for (int i = 0; i < N; i++)
        fprintf(f, "%s%d", i ? ", " : "", i);
    fprintf(f, "]},\n  \"a\": {\"type\": \"f32\", \"data\": [");
    for (int i = 0; i < N; i++)
        fprintf(f, "%s%d", i ? ", " : "", i % 7 - 3);
    fprintf(f, "]}},\n \"params\": [\"@out\", \"@a\"]}\n");
    return fclose(f) == 0;
}

/* One run of argv, its standard output to out_path; whether it exited 0. */
static bool spawn(char *const argv[], const char *out_path)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int status = 0;
    bool ran = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ) == 0 && waitpid(pid, &status, 0) == pid &&
               WIFEXITED(status) && WEXITSTATUS(status) == 0;
    posix_spawn_file_actions_destroy(&actions);
    return ran;
}

/* The JSON output's buffer "out" holds out0 + a. */
static bool cli_values_right(const char *json_path)
{
    json_error_t error;
    json_t *root = json_load_file(json_path, 0, &error);
    json_t *data = json_object_get(json_object_get(json_object_get(root, "buffers"), "out"), "data");
    bool right = json_is_array(data) && json_array_size(data) == N;
    for (int i = 0; right && i < N; i++) {
        json_t *v = json_array_get(data, (size_t)i);
        right = json_is_number(v) && json_number_value(v) == i + (i % 7 - 3);
    }
    json_decref(root);
    return right;
}

/* Per launch: the children's processor time (*cpu) and the wall time, best of 3 series. */
static double cli_per_launch(const char *ptxrun, const char *dir, double *cpu)
{
    char ptx[4096], lanes[4096], json[4096];
    snprintf(ptx, sizeof ptx, "%s/bench_launch.ptx", dir);
    snprintf(lanes, sizeof lanes, "%s/bench_launch.lanes.json", dir);
    snprintf(json, sizeof json, "%s/bench_launch.out.json", dir);
    if (!write_text(ptx, tiny_ptx) || !write_lanes(lanes))
        fail("cannot write the command line's input");
    char *argv[] = { (char *)ptxrun, ptx, "--lanes", lanes, "--json", NULL };
    double best = 1e30;
    *cpu = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = wall(), c0 = children();
        for (int i = 0; i < CLI_RUNS; i++)
            if (!spawn(argv, json))
                fail("the command line's run of the tiny kernel failed");
        double t = (wall() - t0) / CLI_RUNS, c = (children() - c0) / CLI_RUNS;
        best = t < best ? t : best;
        *cpu = c < *cpu ? c : *cpu;
        if (!cli_values_right(json))
            fail("the command line's result is wrong");
    }
    return best;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: bench_launch PTXRUN BITONIC.ptx WORKDIR\n");
        return 2;
    }
    size_t tiny_len = strlen(tiny_ptx);

    /* (c) first, so that its loads meet the allocator as a fresh process leaves it, not as the
     * series below do; printed after them */
    start_values();
    tiny_launches = 0;
    First tiny_first = first_launch(tiny_ptx, tiny_len, launch_tiny_counted, check_tiny);
    size_t bitonic_len;
    char *bitonic = read_file(argv[2], &bitonic_len);
    if (!bitonic)
        fail("cannot read the bitonic sort's PTX");
    for (int i = 0; i < 32; i++) {         /* distinct keys and floats (a permutation, scaled) */
        keys[i] = (int32_t)((i * 13 + 5) % 32) * 1000 - 16000;
        fkeys[i] = (float)((i * 7 + 3) % 32) * 0.25f - 4.0f;
    }
    First bitonic_first = first_launch(bitonic, bitonic_len, launch_bitonic, check_bitonic);
    free(bitonic);

    /* (a) the C API, the module loaded once: best of 3 series */
    start_values();
    ptxrun_module *m = load(tiny_ptx, tiny_len);
    ptxrun_kernel *k = kernel(m);
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = now();
        for (int i = 0; i < LAUNCHES; i++)
            launch_tiny(k);
        double t = (now() - t0) / LAUNCHES;
        best = t < best ? t : best;
        check_values((double)(r + 1) * LAUNCHES, "(a) ptxrun_launch");
    }
    ptxrun_module_free(m);
    double api = best;

    /* the plain C of the same launches, from the same start */
    start_values();
    double plain = 1e30;
    for (int r = 0; r < 3; r++) {
        double t = ref_launch_add(LAUNCHES, out, a, N) / LAUNCHES;
        plain = t < plain ? t : plain;
        check_values((double)(r + 1) * LAUNCHES, "plain C");
    }
    printf("launch: the tiny kernel: out[i] += a[i] over %d floats, %d CTAs of %d threads (4 warps each)\n", N,
           N / BLOCK, BLOCK);
    printf("%-34s %8.3g launches/s, %.2f us a launch, results checked; plain C %.3g/s (%.3f us), %.0fx ptxrun\n",
           "(a) C API, ptxrun_launch", 1 / api, api * 1e6, 1 / plain, plain * 1e6, api / plain);

    /* (b) ptx_run: the first call loads the module into the cache, untimed */
    start_values();
    ptx_run_tiny();
    best = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = now();
        for (int i = 0; i < LAUNCHES; i++)
            ptx_run_tiny();
        double t = (now() - t0) / LAUNCHES;
        best = t < best ? t : best;
        check_values(1 + (double)(r + 1) * LAUNCHES, "(b) ptx_run");
    }
    printf("%-34s %8.3g launches/s, %.2f us a launch, results checked; %.2fx ptxrun_launch's time (no buffer "
           "sizes: each launch looks its memory up in /proc/self/maps)\n", "(b) ptx_run, the text in the cache",
           1 / best, best * 1e6, best / api);

    /* (a) again with one CTA of BIG threads: what a launch costs grows with its threads */
    elements = block = BIG;
    start_values();
    m = load(tiny_ptx, tiny_len);
    k = kernel(m);
    double big = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = now();
        for (int i = 0; i < BIG_LAUNCHES; i++)
            launch_tiny(k);
        double t = (now() - t0) / BIG_LAUNCHES;
        big = t < big ? t : big;
        check_values((double)(r + 1) * BIG_LAUNCHES, "(a) ptxrun_launch, one CTA of 1,024 threads");
    }
    ptxrun_module_free(m);
    elements = N, block = BLOCK;
    printf("%-34s %8.3g launches/s, %.2f us a launch, results checked\n", "    (a), 1 CTA of 1,024 threads",
           1 / big, big * 1e6);

    /* (c) the first launch of a module against the next ones */
    print_first("(c) first launch, tiny kernel", tiny_first);
    char name[64];
    snprintf(name, sizeof name, "    nvcc's bitonic sort, %zu KB", (bitonic_len + 512) / 1024);
    print_first(name, bitonic_first);

    /* (d) the command line, a process a launch */
    double cli_cpu, cli = cli_per_launch(argv[1], argv[3], &cli_cpu);
    printf("%-34s %8.3g launches/s, %.0f us of processor time a launch (%.0f us wall; a process each, --lanes "
           "and --json), result checked; %.0fx ptxrun_launch's\n", "(d) command line, a process each", 1 / cli_cpu,
           cli_cpu * 1e6, cli * 1e6, cli_cpu / api);
    return 0;
}
