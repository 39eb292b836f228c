/* bench_exec.c: executor throughput in lane-instructions per second for (a) a converged
 * integer/float ALU loop, (b) the spec's scan inside a loop (shuffle-heavy), (c) a loop whose
 * lanes diverge every iteration, (d) a memory-bound loop; each next to the same work written as
 * a plain C loop over 32 lanes. (e) a block reduction over 1024 threads (32 warps, shuffles,
 * shared memory, two bar.sync per round), in thread-instructions per second. Then the peak
 * memory of ptxrun running each sample.
 * usage: bench_exec PTXRUN SAMPLES_DIR */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const char alu_loop[] =
    "    mov.u32 i, 0;\n    mov.u32 x, %%laneid;\n    mov.u32 y, 7;\n"
    "    mov.f32 f, 0f3F800000;\n    mov.f32 g, 0f3F000000;\n"
    "LOOP:\n"
    "    add.u32 x, x, y;\n    xor.b32 y, y, x;\n    mul.lo.u32 z, x, 3;\n    shl.b32 z, z, 1;\n"
    "    add.f32 f, f, g;\n    mul.f32 g, g, 0fBF800000;\n    fma.rn.f32 f, f, g, g;\n"
    "    add.u32 i, i, 1;\n    setp.lt.u32 p, i, %u;\n@p  bra LOOP;\n";

static const char scan_loop[] =
    "    mov.u32 i, 0;\n    mov.f32 Rx, 0f3F800000;\n"
    "LOOP:\n"
    "    shfl.sync.up.b32  Ry|p, Rx, 1,  0, 0xffffffff;\n@p  add.f32 Rx, Ry, Rx;\n"
    "    shfl.sync.up.b32  Ry|p, Rx, 2,  0, 0xffffffff;\n@p  add.f32 Rx, Ry, Rx;\n"
    "    shfl.sync.up.b32  Ry|p, Rx, 4,  0, 0xffffffff;\n@p  add.f32 Rx, Ry, Rx;\n"
    "    shfl.sync.up.b32  Ry|p, Rx, 8,  0, 0xffffffff;\n@p  add.f32 Rx, Ry, Rx;\n"
    "    shfl.sync.up.b32  Ry|p, Rx, 16, 0, 0xffffffff;\n@p  add.f32 Rx, Ry, Rx;\n"
    "    add.u32 i, i, 1;\n    setp.lt.u32 q, i, %u;\n@q  bra LOOP;\n";

static const char diverge_loop[] =
    "    mov.u32 i, 0;\n    mov.u32 lane, %%laneid;\n    mov.u32 x, 0;\n"
    "LOOP:\n"
    "    xor.b32 t, i, lane;\n    and.b32 t, t, 1;\n    setp.eq.u32 odd, t, 1;\n"
    "@odd bra ODD;\n    add.u32 x, x, 3;\n    shl.b32 x, x, 1;\n    bra JOIN;\n"
    "ODD:\n    sub.u32 x, x, 1;\n    xor.b32 x, x, lane;\n"
    "JOIN:\n    add.u32 i, i, 1;\n    setp.lt.u32 p, i, %u;\n@p  bra LOOP;\n";

static const char memory_loop[] =
    ".reg .b64 p;\n.reg .b64 q;\n    mov.u32 i, 0;\n    mov.u32 l, %%laneid;\n    mul.wide.u32 o, l, 4;\n"
    "    add.s64 q, p, o;\n"
    "LOOP:\n"
    "    ld.global.u32 v, [q];\n    shfl.sync.bfly.b32 t, v, 1, 31, 0xffffffff;\n    add.u32 v, v, t;\n"
    "    st.global.u32 [q], v;\n"
    "    add.u32 i, i, 1;\n    setp.lt.u32 c, i, %u;\n@c  bra LOOP;\n";

/* Each round: every warp reduces t + i with shuffles, lane 0 writes the warp's sum to part[],
 * bar.sync; warp 0 reduces the 32 sums; bar.sync. */
static const char block_reduce_loop[] =
    ".shared .u32 part[32];\n"
    "    mov.u32 i, 0;\n    mov.u32 t, %%tid.x;\n    mov.u32 lane, %%laneid;\n    mov.u32 warp, %%warpid;\n"
    "    mov.u32 base, part;\n    shl.b32 off, warp, 2;\n    add.u32 addr, base, off;\n"
    "    shl.b32 loff, lane, 2;\n    add.u32 laddr, base, loff;\n"
    "    setp.eq.u32 leader, lane, 0;\n    setp.ne.u32 other, warp, 0;\n"
    "LOOP:\n"
    "    add.u32 v, t, i;\n"
    "    shfl.sync.bfly.b32 w, v, 16, 31, 0xffffffff;\n    add.u32 v, v, w;\n"
    "    shfl.sync.bfly.b32 w, v, 8, 31, 0xffffffff;\n    add.u32 v, v, w;\n"
    "    shfl.sync.bfly.b32 w, v, 4, 31, 0xffffffff;\n    add.u32 v, v, w;\n"
    "    shfl.sync.bfly.b32 w, v, 2, 31, 0xffffffff;\n    add.u32 v, v, w;\n"
    "    shfl.sync.bfly.b32 w, v, 1, 31, 0xffffffff;\n    add.u32 v, v, w;\n"
    "@leader st.shared.u32 [addr], v;\n"
    "    bar.sync 0;\n"
    "@other bra NEXT;\n"
    "    ld.shared.u32 s, [laddr];\n"
    "    shfl.sync.bfly.b32 w, s, 16, 31, 0xffffffff;\n    add.u32 s, s, w;\n"
    "    shfl.sync.bfly.b32 w, s, 8, 31, 0xffffffff;\n    add.u32 s, s, w;\n"
    "    shfl.sync.bfly.b32 w, s, 4, 31, 0xffffffff;\n    add.u32 s, s, w;\n"
    "    shfl.sync.bfly.b32 w, s, 2, 31, 0xffffffff;\n    add.u32 s, s, w;\n"
    "    shfl.sync.bfly.b32 w, s, 1, 31, 0xffffffff;\n    add.u32 s, s, w;\n"
    "NEXT:\n"
    "    bar.sync 0;\n"
    "    add.u32 i, i, 1;\n    setp.lt.u32 p, i, %u;\n@p  bra LOOP;\n";

static double c_memory(unsigned iterations, uint64_t *lane_instr)
{
    uint32_t buf[32] = { 0 }, other[32];
    double t0 = now();
    for (unsigned i = 0; i < iterations; i++) {
        for (int l = 0; l < 32; l++) other[l] = buf[l ^ 1];
        for (int l = 0; l < 32; l++) buf[l] += other[l];
        __asm__ volatile("" : : "r"(buf) : "memory");
    }
    double t = now() - t0;
    *lane_instr = (uint64_t)iterations * 32 * 7;
    return t;
}

/* The same work as plain C over 32 lanes (the best an interpreter could hope to approach). */
static double c_alu(unsigned iterations, uint64_t *lane_instr)
{
    uint32_t x[32], y[32], z[32];
    float f[32], g[32];
    for (int l = 0; l < 32; l++) { x[l] = (uint32_t)l; y[l] = 7; f[l] = 1.0f; g[l] = 0.5f; }
    double t0 = now();
    for (unsigned i = 0; i < iterations; i++)
        for (int l = 0; l < 32; l++) {
            x[l] += y[l]; y[l] ^= x[l]; z[l] = x[l] * 3; z[l] <<= 1;
            f[l] += g[l]; g[l] *= -1.0f; f[l] = fmaf(f[l], g[l], g[l]);
        }
    double t = now() - t0;
    volatile float sink = f[3] + (float)z[5];
    (void)sink;
    *lane_instr = (uint64_t)iterations * 32 * 10;
    return t;
}

static double c_scan(unsigned iterations, uint64_t *lane_instr)
{
    float rx[32], ry[32];
    for (int l = 0; l < 32; l++) rx[l] = (float)l;
    double t0 = now();
    for (unsigned i = 0; i < iterations; i++)
        for (int d = 1; d < 32; d *= 2) {
            for (int l = 0; l < 32; l++) ry[l] = l >= d ? rx[l - d] : rx[l];
            for (int l = 0; l < 32; l++) if (l >= d) rx[l] += ry[l];
        }
    double t = now() - t0;
    volatile float sink = rx[31];
    (void)sink;
    *lane_instr = (uint64_t)iterations * 32 * 13;
    return t;
}

static double c_diverge(unsigned iterations, uint64_t *lane_instr)
{
    uint32_t x[32] = { 0 };
    double t0 = now();
    for (unsigned i = 0; i < iterations; i++)
        for (uint32_t l = 0; l < 32; l++) {
            if ((i ^ l) & 1) { x[l] -= 1; x[l] ^= l; }
            else { x[l] += 3; x[l] <<= 1; }
            __asm__ volatile("" : : "r"(x) : "memory");   /* keep every iteration's work */
        }
    double t = now() - t0;
    volatile uint32_t sink = x[7];
    (void)sink;
    *lane_instr = (uint64_t)iterations * 32 * 10;
    return t;
}

static void ignore(void *c, Diag *d, DiagLevel l, Span at, const char *m)
{
    (void)c; (void)d; (void)l; (void)at; (void)m;
}

/* Runs the program (with %u = iterations) on a block of `threads` and returns seconds;
 * lane-instructions in *count. The block reduction's result is checked. */
static double run_block(const char *format, unsigned iterations, uint32_t threads, uint64_t *count)
{
    char text[4096];
    snprintf(text, sizeof text, format, iterations);
    Source src;
    source_from_string(&src, "bench.ptx", text, strlen(text));
    Diag diag;
    diag_init(&diag, &src, stderr);
    diag.emit = ignore;
    Module *m = parse_module(&src, &diag);
    check_module(m, &diag, NULL);
    Block *b = diag.errors ? NULL : block_load(m, m->functions.data[0], &diag, DEFAULT_STACK_BYTES);
    if (!b) {
        diag.emit = NULL;
        fprintf(stderr, "bench_exec: the benchmark program does not load:\n%s\n", text);
        exit(1);
    }
    /* A global buffer of 32 words, its address in p, for the memory-bound program. */
    for (uint32_t i = 0; i < b->prog.fn->regs.len; i++)
        if (strcmp(b->prog.fn->regs.data[i].name, "p") == 0) {
            uint32_t buf = mem_add(&b->mem, "buffer", SPACE_GLOBAL, 32 * 4, 256, TYPE_U32, false, true);
            for (int l = 0; l < WARP_SIZE; l++)
                b->warps[0]->val[i][l] = b->mem.regions[buf].base;
            b->warps[0]->defined[i] = ALL_LANES;
        }
    uint32_t ntid[3] = { threads, 1, 1 };
    block_set_shape(b, ntid, ALL_LANES);
    ExecOptions o = { .max_steps = UINT64_MAX };
    double t0 = now();
    int rc = block_run(b, &o);
    double t = now() - t0;
    if (rc != EXEC_OK) {
        fprintf(stderr, "bench_exec: the benchmark program faulted\n");
        exit(1);
    }
    for (uint32_t i = 0; format == block_reduce_loop && i < b->prog.fn->regs.len; i++)
        if (strcmp(b->prog.fn->regs.data[i].name, "s") == 0) {
            uint64_t want = (uint64_t)threads * (threads - 1) / 2 + (uint64_t)threads * (iterations - 1);
            if (!(b->warps[0]->defined[i] & 1) || (uint32_t)b->warps[0]->val[i][0] != (uint32_t)want) {
                fprintf(stderr, "bench_exec: the block reduction gave %llu, not %llu\n",
                        (unsigned long long)b->warps[0]->val[i][0], (unsigned long long)want);
                exit(1);
            }
        }
    *count = b->lane_steps;
    block_free(b);
    module_free(m);
    source_free(&src);
    return t;
}

static double run_program(const char *format, unsigned iterations, uint64_t *count)
{
    return run_block(format, iterations, WARP_SIZE, count);
}

static void report_block(const char *name, const char *format, unsigned iterations, uint32_t threads)
{
    uint64_t count = 0;
    double best = 1e30;
    for (int i = 0; i < 5; i++) {
        double t = run_block(format, iterations, threads, &count);
        best = t < best ? t : best;
    }
    printf("%-36s %8.3g thread-instructions/s (%u threads, %llu instructions in %.3f s)\n", name,
           (double)count / best, threads, (unsigned long long)count, best);
}

static void report(const char *name, const char *format, unsigned iterations,
                   double (*plain)(unsigned, uint64_t *), double target)
{
    uint64_t count = 0, plain_count = 0;
    double best = 1e30;
    for (int i = 0; i < 5; i++) {
        double t = run_program(format, iterations, &count);
        best = t < best ? t : best;
    }
    double plain_best = 1e30;
    for (int i = 0; i < 5; i++) {
        double t = plain(iterations, &plain_count);
        plain_best = t < plain_best ? t : plain_best;
    }
    double rate = (double)count / best;
    char goal[64] = "";
    if (target > 0)
        snprintf(goal, sizeof goal, " (target %.0e: %s)", target, rate >= target ? "met" : "NOT met");
    printf("%-36s %8.3g lane-instructions/s%s; plain C %.3g/s, %.0fx faster\n", name, rate, goal,
           (double)plain_count / plain_best, ((double)plain_count / plain_best) / rate);
}

/* Runs `ptxrun SAMPLE --lanes ... --expect ...`; false if it failed. */
static bool run_sample(const char *ptxrun, const char *ptx, const char *lanes, const char *expect)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            _exit(127);
        execl(ptxrun, ptxrun, "-w", ptx, "--lanes", lanes, "--expect", expect, (char *)NULL);
        _exit(127);
    }
    int status;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: bench_exec PTXRUN SAMPLES_DIR\n");
        return 2;
    }
    report("(a) converged ALU loop", alu_loop, 300000, c_alu, 1e9);
    report("(b) scan in a loop (shfl.sync)", scan_loop, 100000, c_scan, 3e8);
    report("(c) lanes diverging every iteration", diverge_loop, 300000, c_diverge, 1e8);
    report("(d) memory-bound: ld, shfl, st", memory_loop, 200000, c_memory, 0);
    report_block("(e) block reduction, 32 warps", block_reduce_loop, 2000, MAX_BLOCK_THREADS);

    DIR *d = opendir(argv[2]);
    if (!d)
        return 0;
    static char names[64][256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 64) {
        size_t len = strlen(e->d_name);
        if (len > 11 && !strcmp(e->d_name + len - 11, ".lanes.json"))
            snprintf(names[n++], sizeof names[0], "%.*s", (int)(len - 11), e->d_name);
    }
    closedir(d);
    int failed = 0;
    for (int i = 0; i < n; i++) {
        char ptx[1024], lanes[1024], expect[1024];
        snprintf(ptx, sizeof ptx, "%.500s/%.256s.ptx", argv[2], names[i]);
        snprintf(lanes, sizeof lanes, "%.500s/%.256s.lanes.json", argv[2], names[i]);
        snprintf(expect, sizeof expect, "%.500s/%.256s.expect.json", argv[2], names[i]);
        failed += !run_sample(argv[1], ptx, lanes, expect);
    }
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);       /* the largest of the children */
    printf("peak RSS of ptxrun over %d samples: %.1f MB (target under 10 MB)%s\n", n, ru.ru_maxrss / 1024.0,
           failed ? "; some samples FAILED" : "");
    return 0;
}
