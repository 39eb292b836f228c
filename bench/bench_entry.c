/* bench_entry.c: what a run of one kernel of a large module costs. Generates a module of
 * KERNELS kernels of about one size, TARGET_BYTES in all (build/bench_entry.ptx), each a long
 * straight line of integer arithmetic that ends storing each thread's value; runs the first
 * kernel with `PTXRUN --entry k0` (the worst case: every other kernel follows it, so that the run
 * reads it again once they are checked), checks the values against the same arithmetic done
 * here in C, and prints the child's peak memory (wait4's ru_maxrss: the text mapped, every
 * thread and the executable included) per byte of PTX next to the bound docs/semantics.md
 * ("Limits") sets, at most 4, and whether it holds. Then the same for listing the kernels
 * (`--list-kernels`) and for a run without --entry, which lists them and stops.
 * usage: bench_entry OUT.ptx PTXRUN */
#define _DEFAULT_SOURCE                /* wait4 */
#include <fcntl.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { KERNELS = 10, TARGET_BYTES = 100 * 1000 * 1000, THREADS = 32, STEPS_PER_GROUP = 4 };
static const double BOUND = 4.0;           /* bytes of peak RSS per byte of PTX, docs/semantics.md */

/* One group of the kernel's arithmetic, as the PTX below does it: the model the run is checked
 * against. */
static void model_group(uint32_t r[4], uint32_t k)
{
    r[2] += k + 1;                             /* add.s32 %r2, %r2, k+1 */
    r[3] ^= r[2];                              /* xor.b32 %r3, %r3, %r2 */
    r[1] = r[3] << 1;                          /* shl.b32 %r1, %r3, 1 */
    r[3] = r[1] + r[3];                        /* add.s32 %r3, %r1, %r3 */
}

/* Writes the module; *groups: the groups of arithmetic in each kernel. */
static bool write_module(const char *path, uint64_t *groups)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    const char *group = "\tadd.s32 \t%%r2, %%r2, %u;\n\txor.b32 \t%%r3, %%r3, %%r2;\n"
                        "\tshl.b32 \t%%r1, %%r3, 1;\n\tadd.s32 \t%%r3, %%r1, %%r3;\n";
    int per_group = snprintf(NULL, 0, group, 1u);
    *groups = TARGET_BYTES / KERNELS / (uint64_t)per_group;
    fprintf(f, ".version 8.0\n.target sm_90\n.address_size 64\n\n");
    for (unsigned k = 0; k < KERNELS; k++) {
        fprintf(f, ".visible .entry k%u(.param .u64 out)\n{\n\t.reg .b32 %%r<5>;\n\t.reg .b64 %%rd<4>;\n"
                "\tmov.u32 \t%%r2, %%tid.x;\n\tmov.u32 \t%%r3, 0;\n", k);
        for (uint64_t g = 0; g < *groups; g++)
            fprintf(f, group, k + 1);
        fprintf(f, "\tld.param.u64 \t%%rd1, [out];\n\tcvta.to.global.u64 \t%%rd2, %%rd1;\n"
                "\tmov.u32 \t%%r4, %%tid.x;\n\tmul.wide.u32 \t%%rd3, %%r4, 4;\n"
                "\tadd.s64 \t%%rd2, %%rd2, %%rd3;\n\tst.global.u32 \t[%%rd2], %%r3;\n\tret;\n}\n\n");
    }
    return fclose(f) == 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Runs argv with its standard output to out_path (NULL: discarded), errors discarded; its exit
 * status (-1: it did not run or was killed), wall time and peak memory in KiB. */
static int run(char *const argv[], const char *out_path, double *seconds, long *rss_kb)
{
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        int out = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int null = open("/dev/null", O_WRONLY);
        if (out < 0 || null < 0)
            _exit(127);
        dup2(out, 1);
        dup2(null, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    if (pid < 0)
        return -1;
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid)
        return -1;
    *seconds = now() - t0;
    *rss_kb = ru.ru_maxrss;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Whether the JSON output's buffer "out" holds the model's values. */
static bool values_right(const char *json_path, uint64_t groups)
{
    json_error_t error;
    json_t *root = json_load_file(json_path, 0, &error);
    json_t *data = json_object_get(json_object_get(json_object_get(root, "buffers"), "out"), "data");
    bool right = json_is_array(data) && json_array_size(data) == THREADS;
    for (unsigned t = 0; right && t < THREADS; t++) {
        uint32_t r[4] = { 0, 0, t, 0 };
        for (uint64_t g = 0; g < groups; g++)
            model_group(r, 0);
        json_t *v = json_array_get(data, t);
        right = json_is_integer(v) && (uint64_t)json_integer_value(v) == r[3];
    }
    json_decref(root);
    return right;
}

static void print_memory(const char *what, long rss_kb, double bytes, double seconds, bool bounded)
{
    double per_byte = rss_kb * 1024.0 / bytes;
    printf("entry: %s: %.2f s, peak memory %.0f MB, %.2f bytes per byte of PTX", what, seconds, rss_kb / 1024.0,
           per_byte);
    if (bounded)
        printf(" (bound: at most %.0f): %s", BOUND, per_byte <= BOUND ? "holds" : "NOT held");
    printf("\n");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: bench_entry OUT.ptx PTXRUN\n");
        return 2;
    }
    char *ptx = argv[1], *ptxrun = argv[2];
    uint64_t groups;
    if (!write_module(ptx, &groups)) {
        fprintf(stderr, "bench_entry: cannot write %s\n", ptx);
        return 2;
    }
    FILE *f = fopen(ptx, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        fprintf(stderr, "bench_entry: cannot read %s\n", ptx);
        return 2;
    }
    double bytes = (double)ftell(f);
    fclose(f);
    printf("entry: a module of %u kernels, %.1f MB of PTX, %llu instructions each (%s)\n", KERNELS, bytes / 1e6,
           (unsigned long long)(groups * STEPS_PER_GROUP + 9), ptx);

    char json[4096];
    snprintf(json, sizeof json, "%s.json", ptx);
    char *run_one[] = { ptxrun, "--json", "--entry", "k0", "--block", "32", "--buffer", "out=u32:32",
                        "--param", "0=@out", ptx, NULL };
    double seconds;
    long rss_kb;
    int rc = run(run_one, json, &seconds, &rss_kb);
    bool right = rc == 0 && values_right(json, groups);
    remove(json);
    if (!right) {
        fprintf(stderr, "bench_entry: %s --entry k0 %s: exit %d%s\n", ptxrun, ptx, rc,
                rc == 0 ? ", but not the values the same arithmetic gives in C" : "");
        return 1;
    }
    print_memory("run of one kernel (--entry k0, the values checked)", rss_kb, bytes, seconds, true);
    bool held = rss_kb * 1024.0 / bytes <= BOUND;

    char *list[] = { ptxrun, "--list-kernels", ptx, NULL };
    if ((rc = run(list, NULL, &seconds, &rss_kb)) != 0) {
        fprintf(stderr, "bench_entry: %s --list-kernels %s: exit %d\n", ptxrun, ptx, rc);
        return 1;
    }
    print_memory("--list-kernels", rss_kb, bytes, seconds, false);
    char *choose[] = { ptxrun, ptx, NULL };
    if ((rc = run(choose, NULL, &seconds, &rss_kb)) != 2) {
        fprintf(stderr, "bench_entry: %s %s without --entry: exit %d, not 2\n", ptxrun, ptx, rc);
        return 1;
    }
    print_memory("a run without --entry (the kernels listed, exit 2)", rss_kb, bytes, seconds, false);
    return held ? 0 : 1;
}
