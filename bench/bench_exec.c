/* bench_exec.c: executor throughput, each figure next to the same work as plain C
 * (reference.c, built with -O2 -march=native) in the same run, and each run's result checked
 * against that C: (a) a converged integer/float ALU loop, (b) an inclusive scan by shfl.sync.up
 * inside a loop, (c) a loop whose lanes diverge every iteration, (d) a memory-bound loop (ld,
 * shfl, st), in lane-instructions per second; (e) a block reduction over 1024 threads (32 warps,
 * shuffles, shared memory, two bar.sync per round), in thread-instructions per second. Every
 * target is a share of the plain C rate of the same run, so that a machine without AVX-512 or
 * with a busy neighbour reads as the build does (issue 12's rates, restated in issue 33 as
 * shares of the plain C rates of the machine they were met on: see TARGETS); the kernel copy
 * ptxrun chose (kernels.c) and the processor's vector width are printed beside them, and the
 * shuffle loop runs again with each copy this processor runs. Then the peak memory of ptxrun
 * running each sample, (g) ptxrun on a grid of 390,625 CTAs (issue 32): seconds and peak
 * memory on one thread and on all (-j), and the peak memory per byte of buffers the kernel does
 * not write, at the default -j and at -j1, against docs/ptxrun.1's bound of 1.5: (h) 1 GiB it
 * does not touch, (i) 256 MiB from a file it reads whole.
 * usage: bench_exec PTXRUN SAMPLES_DIR */
#define _DEFAULT_SOURCE            /* wait4: one child's peak memory */
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#include "benchload.h"
#include "reference.h"

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

/* A scan by shfl.sync.up inside a loop; the second on values whose bits 16-31 are undefined (u is
 * never written), so that every instruction takes the bit-by-bit definedness paths (vbits.c). */
#define SCAN_BODY \
    "LOOP:\n" \
    "    shfl.sync.up.b32  Ry|p, Rx, 1,  0, 0xffffffff;\n@p  add.u32 Rx, Ry, Rx;\n" \
    "    shfl.sync.up.b32  Ry|p, Rx, 2,  0, 0xffffffff;\n@p  add.u32 Rx, Ry, Rx;\n" \
    "    shfl.sync.up.b32  Ry|p, Rx, 4,  0, 0xffffffff;\n@p  add.u32 Rx, Ry, Rx;\n" \
    "    shfl.sync.up.b32  Ry|p, Rx, 8,  0, 0xffffffff;\n@p  add.u32 Rx, Ry, Rx;\n" \
    "    shfl.sync.up.b32  Ry|p, Rx, 16, 0, 0xffffffff;\n@p  add.u32 Rx, Ry, Rx;\n" \
    "    add.u32 i, i, 1;\n    setp.lt.u32 q, i, %u;\n@q  bra LOOP;\n"
static const char scan_loop[] = "    mov.u32 i, 0;\n    mov.u32 Rx, %%laneid;\n" SCAN_BODY;
static const char scan_loop_partly[] =
    "    mov.u32 i, 0;\n    mov.u32 Rx, %%laneid;\n    and.b32 u, u, 0xffff0000;\n    or.b32 Rx, Rx, u;\n" SCAN_BODY;

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

static void ignore(void *c, Diag *d, DiagLevel l, Span at, const char *m)
{
    (void)c; (void)d; (void)l; (void)at; (void)m;
}

/* What a run must leave: register `name` of warp 0's lanes (or, with name NULL, the 32 words of
 * the global buffer), as the C reference computed them; lanes: how many to compare. With
 * values NULL: the register undefined in every bit. */
typedef struct Want {
    const char *name;
    const uint32_t *values;
    unsigned lanes;
    uint32_t defined_bits;     /* 0: every bit defined; else the bits that must be, and compare */
} Want;

static bool result_ok(const Block *b, const Want *want, char *why, size_t size)
{
    const Warp *w = b->warps[0];
    if (!want->name) {
        for (uint32_t k = 0; k < b->mem.count; k++) {
            const Region *r = &b->mem.regions[k];
            if (!r->is_buffer)
                continue;
            for (unsigned l = 0; l < want->lanes; l++) {
                uint32_t v;
                memcpy(&v, r->data + 4 * l, 4);
                if (r->shadow[4 * l] != 0xff || v != want->values[l]) {
                    snprintf(why, size, "buffer[%u] is %u, not %u", l, v, want->values[l]);
                    return false;
                }
            }
            return true;
        }
        snprintf(why, size, "no buffer");
        return false;
    }
    const Function *f = b->prog.fn;
    for (uint32_t i = 0; i < f->regs.len; i++) {
        if (strcmp(f->regs.data[i].name, want->name) != 0)
            continue;
        for (unsigned l = 0; l < want->lanes; l++)
            if (!want->values) {
                if (warp_dbits(w, i, l) & 0xffffffffu) {
                    snprintf(why, size, "%s in lane %u is defined in some bits", want->name, l);
                    return false;
                }
            } else if (want->defined_bits) {
                uint32_t d = (uint32_t)warp_dbits(w, i, l), keep = want->defined_bits;
                if (d != keep || ((uint32_t)w->val[i][l] & keep) != (want->values[l] & keep)) {
                    snprintf(why, size, "%s in lane %u has defined bits 0x%08x, not 0x%08x, or other values",
                             want->name, l, d, keep);
                    return false;
                }
            } else if (!(w->defined[i] >> l & 1) || (uint32_t)w->val[i][l] != want->values[l]) {
                snprintf(why, size, "%s in lane %u is 0x%08x, not 0x%08x", want->name, l, (uint32_t)w->val[i][l],
                         want->values[l]);
                return false;
            }
        return true;
    }
    snprintf(why, size, "no register %s", want->name);
    return false;
}

/* Runs the program (with %u = iterations) on a block of `threads`, checks what it leaves
 * against want (count of them) and returns seconds; *count gets the instructions executed,
 * summed over threads. */
/* kernels: another copy of the lane kernels than the processor's widest (NULL: that one);
 * whole_values: definedness one flag per value, not bit by bit. */
static double run_block(const char *format, unsigned iterations, uint32_t threads, uint32_t ctas, uint32_t jobs,
                        const Want *want, unsigned wants, uint64_t *count, const Kernels *kernels, bool whole_values)
{
    char text[4096];
    snprintf(text, sizeof text, format, iterations);
    BenchProgram prog;
    benchload_open(&prog, "bench.ptx", text, ignore);
    Block *b = prog.block;
    if (!b) {
        fprintf(stderr, "bench_exec: the benchmark program does not load:\n%s\n", text);
        exit(1);
    }
    if (kernels)
        b->prog.kernels = kernels;
    b->whole_values = whole_values;
    /* A global buffer of 32 words holding 0..31, its address in p, for the memory-bound program. */
    for (uint32_t i = 0; i < b->prog.fn->regs.len; i++)
        if (strcmp(b->prog.fn->regs.data[i].name, "p") == 0) {
            uint32_t buf = mem_add(&b->mem, "buffer", SPACE_GLOBAL, 32 * 4, 256, TYPE_U32, false, true);
            Region *r = &b->mem.regions[buf];
            r->is_buffer = true;
            for (uint32_t l = 0; l < 32; l++)
                memcpy(r->data + 4 * l, &l, 4);
            for (int l = 0; l < WARP_SIZE; l++)
                b->warps[0]->val[i][l] = r->base;
            b->warps[0]->defined[i] = ALL_LANES;
        }
    char why[256];
    double t = benchload_run(&prog, "bench_exec", threads, ctas, jobs, why, sizeof why);
    if (why[0]) {
        fprintf(stderr, "bench_exec: the grid ran on one thread: %s\n", why);
        exit(1);
    }
    for (unsigned k = 0; k < wants; k++) {
        char wrong[200];
        if (!result_ok(b, &want[k], wrong, sizeof wrong)) {
            fprintf(stderr, "bench_exec: a wrong result: %s\n", wrong);
            exit(1);
        }
    }
    *count = b->lane_steps;
    benchload_close(&prog);
    return t;
}

/* The targets, each a share of plain C's rate in the same run: issue 12's rates (b 3.5e9, c and
 * d 1e9, e 1.5e9 instructions/s) over the plain C rates of the machine issue 33 restated them
 * on (an AMD EPYC with AVX-512: 1.06e10, 7.98e10, 2.75e10, 9.63e9), rounded to the stricter
 * side; (b) also had 1/5 of C, which 1/3 passes. */
static const double SCAN_SHARE = 1.0 / 3, DIVERGE_SHARE = 1.0 / 80, MEMORY_SHARE = 1.0 / 25, BLOCK_SHARE = 1.0 / 6;

/* The widest vectors this processor runs, in bits (x86: AVX-512F, AVX2, else SSE2's 128). */
static unsigned vector_bits(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") ? 512 : __builtin_cpu_supports("avx2") ? 256 : 128;
#else
    return 128;
#endif
}

/* One line: ptxrun's rate (best of 5), the C reference's, their ratio, and the target share. */
static void report(const char *name, const char *unit, double rate, double plain_rate, double share)
{
    char goal[128] = "";
    if (share > 0)
        snprintf(goal, sizeof goal, "; target at least 1/%.0f of C: %s", 1 / share,
                 rate >= plain_rate * share ? "met" : "NOT met");
    printf("%-34s %8.3g %s/s, result checked; plain C %.3g/s, %.1fx ptxrun%s\n", name, rate, unit, plain_rate,
           plain_rate / rate, goal);
}

static double best_of(const char *format, unsigned iterations, uint32_t threads, const Want *want, unsigned wants,
                      uint64_t *count, const Kernels *kernels, bool whole_values)
{
    double best = 1e30;
    for (int i = 0; i < 5; i++) {
        double t = run_block(format, iterations, threads, 1, 1, want, wants, count, kernels, whole_values);
        best = t < best ? t : best;
    }
    return best;
}

/* What block_reduce_loop leaves in s of thread 0 with `threads` threads. */
static const Want *block_want_grid(unsigned iterations, uint32_t threads)
{
    static uint32_t sum;
    static Want want = { "s", &sum, 1, 0 };
    sum = (uint32_t)((uint64_t)threads * (threads - 1) / 2 + (uint64_t)threads * (iterations - 1));
    return &want;
}

static void bench_all(void)
{
    uint64_t count, plain_count;
    double t, plain;
    enum { ALU_N = 300000, SCAN_N = 100000, DIVERGE_N = 300000, MEMORY_N = 200000, BLOCK_N = 2000 };

    const Kernels *copies[4];
    unsigned ncopies = kernels_available(copies, 4);
    printf("kernel copy chosen: %s (this processor runs", kernels_for_cpu()->name);
    for (unsigned k = 0; k < ncopies; k++)
        printf(" %s", copies[k]->name);
    printf("); its widest vectors: %u bits; each target below is a share of plain C in this run\n", vector_bits());

    uint32_t alu[5][32];
    plain = 1e30;
    for (int i = 0; i < 5; i++) { double p = ref_alu(ALU_N, &plain_count, alu); plain = p < plain ? p : plain; }
    Want alu_want[] = { { "x", alu[0], 32, 0 }, { "y", alu[1], 32, 0 }, { "z", alu[2], 32, 0 }, { "f", alu[3], 32, 0 },
                        { "g", alu[4], 32, 0 } };
    t = best_of(alu_loop, ALU_N, WARP_SIZE, alu_want, 5, &count, NULL, false);
    report("(a) converged ALU loop", "lane-instructions", count / t, plain_count / plain, 0);

    uint32_t scan[32];
    plain = 1e30;
    for (int i = 0; i < 5; i++) { double p = ref_scan(SCAN_N, &plain_count, scan); plain = p < plain ? p : plain; }
    Want scan_want[] = { { "Rx", scan, 32, 0 } };
    t = best_of(scan_loop, SCAN_N, WARP_SIZE, scan_want, 1, &count, NULL, false);
    report("(b) shuffle loop (scan, shfl.sync)", "lane-instructions", count / t, plain_count / plain, SCAN_SHARE);
    /* The same with each copy of the lane kernels this processor runs (kernels.c), the first
     * being the one ptxrun chooses. */
    printf("%-34s", "    the same by kernel copy");
    for (unsigned k = 0; k < ncopies; k++) {
        double tk = best_of(scan_loop, SCAN_N, WARP_SIZE, scan_want, 1, &count, copies[k], false);
        printf(" %s %.3g%s", copies[k]->name, count / tk, k == 0 ? " (chosen)" : "");
    }
    printf(" lane-instructions/s\n");
    /* Definedness bit by bit against one flag per value (Block.whole_values), in this run: on
     * the scan, and on the scan with bits 16-31 of every value undefined, whose low 16 bits
     * stay defined bit by bit (add makes undefined only the bits from the lowest undefined one
     * up) and are all undefined with one flag per value. */
    double tw = best_of(scan_loop, SCAN_N, WARP_SIZE, scan_want, 1, &count, NULL, true);
    printf("%-34s %8.3g lane-instructions/s with one defined flag per value; bit by bit costs %.1f%%\n",
           "    the same, definedness", count / tw, 100.0 * (tw > t ? 0 : (t - tw) / tw));
    Want partly_want[] = { { "Rx", scan, 32, 0xffff } };
    Want partly_whole[] = { { "Rx", NULL, 32, 0 } };     /* undefined in every bit */
    double tp = best_of(scan_loop_partly, SCAN_N, WARP_SIZE, partly_want, 1, &count, NULL, false);
    double tpw = best_of(scan_loop_partly, SCAN_N, WARP_SIZE, partly_whole, 1, &count, NULL, true);
    printf("%-34s %8.3g lane-instructions/s bit by bit, %.3g with one flag per value, results checked\n",
           "    the same, bits 16-31 undefined", count / tp, count / tpw);

    uint32_t diverge[32];
    plain = 1e30;
    for (int i = 0; i < 5; i++) { double p = ref_diverge(DIVERGE_N, &plain_count, diverge); plain = p < plain ? p : plain; }
    Want diverge_want[] = { { "x", diverge, 32, 0 } };
    t = best_of(diverge_loop, DIVERGE_N, WARP_SIZE, diverge_want, 1, &count, NULL, false);
    report("(c) divergent loop", "lane-instructions", count / t, plain_count / plain, DIVERGE_SHARE);

    uint32_t memory[32];
    plain = 1e30;
    for (int i = 0; i < 5; i++) { double p = ref_memory(MEMORY_N, &plain_count, memory); plain = p < plain ? p : plain; }
    Want memory_want[] = { { NULL, memory, 32, 0 } };
    t = best_of(memory_loop, MEMORY_N, WARP_SIZE, memory_want, 1, &count, NULL, false);
    report("(d) memory loop (ld, shfl, st)", "lane-instructions", count / t, plain_count / plain, MEMORY_SHARE);

    uint32_t sum;
    plain = 1e30;
    for (int i = 0; i < 5; i++) { double p = ref_block_reduce(BLOCK_N, MAX_BLOCK_THREADS, &sum); plain = p < plain ? p : plain; }
    Want block_want[] = { { "s", &sum, 1, 0 } };
    t = best_of(block_reduce_loop, BLOCK_N, MAX_BLOCK_THREADS, block_want, 1, &count, NULL, false);
    /* the C reference does the same work: count it as ptxrun's instructions */
    report("(e) 1024-thread block, bar.sync", "thread-instructions", count / t, count / plain, BLOCK_SHARE);

    /* (f) a grid of independent CTAs on one thread, then on one per processor (-j). */
    long processors = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t jobs = processors > 1 ? (uint32_t)processors : 1, ctas = 2 * jobs;
    double one = 1e30, many = 1e30;
    for (int i = 0; i < 3; i++) {
        const Want *want = block_want_grid(BLOCK_N / 4, MAX_BLOCK_THREADS);
        double a = run_block(block_reduce_loop, BLOCK_N / 4, MAX_BLOCK_THREADS, ctas, 1, want, 1, &count, NULL, false);
        double c = run_block(block_reduce_loop, BLOCK_N / 4, MAX_BLOCK_THREADS, ctas, jobs, want, 1, &count, NULL, false);
        one = a < one ? a : one;
        many = c < many ? c : many;
    }
    printf("%-34s %8.3g thread-instructions/s on 1 thread, %.3g on %u (-j), %.2fx, result checked\n",
           "(f) grid of independent CTAs", count / one, count / many, jobs, one / many);
}

/* Runs `ptxrun SAMPLE --lanes ... --expect ...`; false if it failed. */
/* (posix_spawn, not fork: a forked child would count this process's memory in its peak.) */
static bool run_sample(const char *ptxrun, const char *ptx, const char *lanes, const char *expect)
{
    fflush(stdout);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = { (char *)ptxrun, "-w", (char *)ptx, "--lanes", (char *)lanes, "--expect", (char *)expect, NULL };
    pid_t pid;
    int rc = posix_spawn(&pid, ptxrun, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    int status;
    return rc == 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* (g)'s kernel: thread 0 of each CTA writes 3 * %ctaid.x + %nctaid.x at out[%ctaid.x]. */
static const char grid_kernel[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p;\n"
    "\tmov.u32 %r1, %tid.x;\n\tsetp.ne.u32 %p, %r1, 0;\n\t@%p ret;\n"
    "\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %nctaid.x;\n\tmad.lo.u32 %r4, %r2, 3, %r3;\n"
    "\tld.param.u64 %rd1, [out];\n\tcvta.to.global.u64 %rd1, %rd1;\n\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
    "\tst.global.u32 [%rd3], %r4;\n\tret;\n}\n";

/* Runs ptxrun on (g)'s grid of `ctas` CTAs on `jobs` threads in dir; its seconds, its peak
 * memory in MB (*mb) and whether every element of out came back right (*right). */
static double run_grid(const char *ptxrun, const char *dir, uint32_t ctas, uint32_t jobs, double *mb, bool *right)
{
    char ptx[600], grid[32], buffer[64], save[600], j[16], npy[700];
    snprintf(ptx, sizeof ptx, "%.500s/grid.ptx", dir);
    snprintf(save, sizeof save, "%.500s/out", dir);
    snprintf(npy, sizeof npy, "%.500s/out.npy", save);
    snprintf(grid, sizeof grid, "%u", ctas);
    snprintf(buffer, sizeof buffer, "out=u32:%u", ctas);
    snprintf(j, sizeof j, "%u", jobs);
    FILE *f = fopen(ptx, "w");
    if (f) {
        fputs(grid_kernel, f);
        fclose(f);
    }
    fflush(stdout);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    char *argv[] = { (char *)ptxrun, "-j", j, ptx, "--grid", grid, "--block", "32", "--buffer", buffer, "--param", "0=@out",
                     "--save-buffers", save, NULL };
    pid_t pid;
    struct rusage ru = { 0 };
    int status = 1;
    double t0 = now();
    bool ran = posix_spawn(&pid, ptxrun, &actions, NULL, argv, environ) == 0 && wait4(pid, &status, 0, &ru) == pid &&
               WIFEXITED(status) && WEXITSTATUS(status) == 0;
    double t = now() - t0;
    posix_spawn_file_actions_destroy(&actions);
    *mb = ru.ru_maxrss / 1024.0;
    *right = false;
    f = ran ? fopen(npy, "rb") : NULL;
    unsigned char head[10];
    if (f && fread(head, 1, 10, f) == 10 && fseek(f, 10 + head[8] + 256 * head[9], SEEK_SET) == 0) {
        uint32_t v, i = 0;
        while (i < ctas && fread(&v, 4, 1, f) == 1 && v == 3 * i + ctas)     /* little-endian, as x86 and arm */
            i++;
        *right = i == ctas && fread(&v, 1, 1, f) == 0;
    }
    if (f)
        fclose(f);
    remove(npy);
    rmdir(save);
    remove(ptx);
    return t;
}

/* (g): CUDA's grid for 100 M elements at 256 threads a block, here of one warp a CTA; the line
 * to print into line. (Run while this process is small: a child's peak counts it until exec.) */
static void bench_grid(const char *ptxrun, char *line, size_t size)
{
    enum { GRID_CTAS = 390625 };
    char dir[] = "/tmp/bench_grid_XXXXXX";
    if (!mkdtemp(dir))
        return;
    long processors = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t jobs = processors > 1 ? (uint32_t)processors : 1;
    double mb1, mbn;
    bool right1, rightn;
    double one = run_grid(ptxrun, dir, GRID_CTAS, 1, &mb1, &right1);
    double many = run_grid(ptxrun, dir, GRID_CTAS, jobs, &mbn, &rightn);
    rmdir(dir);
    snprintf(line, size, "%-34s %.2f s on 1 thread (%.2f us a CTA), %.1f MB peak; %.2f s on %u (-j), %.1f MB peak; %s",
             "(g) grid of 390,625 1-warp CTAs", one, one / GRID_CTAS * 1e6, mb1, many, jobs, mbn,
             right1 && rightn ? "result checked" : "a WRONG result or a failed run");
}

/* (i)'s kernel: each thread reads its word of in[] (%ctaid.x * 1024 + %tid.x), and writes nothing. */
static const char read_kernel[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 in)\n{\n\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tmad.lo.u32 %r3, %r2, 1024, %r1;\n"
    "\tld.param.u64 %rd1, [in];\n\tmul.wide.u32 %rd2, %r3, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
    "\tld.global.u32 %r4, [%rd3];\n\tret;\n}\n";

/* Runs ptxrun with args (NULL-ended, at most 16) at its default -j (jobs 0: no -j given) or
 * -j N: the peak memory (the child's ru_maxrss) per byte of `bytes`, or -1 if the run failed. */
static double peak_per_byte(const char *ptxrun, char **args, uint32_t jobs, double bytes)
{
    char j[16], *argv[24] = { (char *)ptxrun };
    unsigned n = 1;
    snprintf(j, sizeof j, "%u", jobs);
    if (jobs) {
        argv[n++] = "-j";
        argv[n++] = j;
    }
    for (unsigned i = 0; args[i] && n < 23; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    fflush(stdout);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    struct rusage ru = { 0 };
    int status = 1;
    bool ran = posix_spawn(&pid, ptxrun, &actions, NULL, argv, environ) == 0 && wait4(pid, &status, 0, &ru) == pid &&
               WIFEXITED(status) && WEXITSTATUS(status) == 0;
    posix_spawn_file_actions_destroy(&actions);
    return ran ? ru.ru_maxrss * 1024.0 / bytes : -1;
}

/* One line of (h) or (i): the peak per byte of buffers at the default -j and at -j1, against
 * docs/ptxrun.1's bound for buffers the kernel does not write (1.5 at the default -j). */
static void buffers_line(const char *ptxrun, const char *name, char **args, double bytes, char *line, size_t size)
{
    long processors = sysconf(_SC_NPROCESSORS_ONLN);
    double many = peak_per_byte(ptxrun, args, 0, bytes), one = peak_per_byte(ptxrun, args, 1, bytes);
    if (many < 0 || one < 0)
        snprintf(line, size, "%-34s a run FAILED", name);
    else
        snprintf(line, size, "%-34s peak %.3f bytes of memory per byte of buffers at the default -j (%ld threads), "
                 "%.3f with -j1 (bound: at most 1.5 at the default -j: %s)", name, many, processors, one,
                 many <= 1.5 ? "holds" : "DOES NOT HOLD");
}

/* (h): (g)'s kernel over 64 CTAs beside 1 GiB of buffers in all (zeros), of which it writes 256
 * bytes; (i): read_kernel reading all of a 256 MiB buffer read from a file. */
static void bench_buffers(const char *ptxrun, char *line_h, char *line_i, size_t size)
{
    char dir[] = "/tmp/bench_buffers_XXXXXX", ptx[600], bin[600];
    if (!mkdtemp(dir))
        return;
    snprintf(ptx, sizeof ptx, "%.500s/buffers.ptx", dir);
    FILE *f = fopen(ptx, "w");
    if (f) {
        fputs(grid_kernel, f);
        fclose(f);
    }
    char a[80], b[80], c[80], d[80];
    snprintf(a, sizeof a, "a=u32:%u", 1u << 26);
    snprintf(b, sizeof b, "b=u32:%u", 1u << 26);
    snprintf(c, sizeof c, "c=u32:%u", 1u << 26);
    snprintf(d, sizeof d, "d=u32:%u", (1u << 26) - 64);
    char *untouched[] = { ptx, "--grid", "64", "--block", "32", "--buffer", "out=u32:64", "--buffer", a, "--buffer", b, "--buffer", c,
                          "--buffer", d, "--param", "0=@out", NULL };
    buffers_line(ptxrun, "(h) 1 GiB of buffers, 256 B used", untouched, (double)(1u << 30), line_h, size);
    f = fopen(ptx, "w");
    if (f) {
        fputs(read_kernel, f);
        fclose(f);
    }
    snprintf(bin, sizeof bin, "%.500s/in.bin", dir);
    f = fopen(bin, "wb");
    static uint32_t chunk[1 << 16];            /* one value: the table after the run is one row and "*" */
    for (uint32_t i = 0; i < 1u << 16; i++)
        chunk[i] = 0x01010101;
    bool written = f != NULL;
    for (uint32_t i = 0; f && i < (1u << 26) >> 16; i++)
        written &= fwrite(chunk, sizeof chunk, 1, f) == 1;
    written &= f && fclose(f) == 0;
    char in[700];
    snprintf(in, sizeof in, "in=u32@%s", bin);
    char *read_whole[] = { ptx, "--grid", "65536", "--block", "1024", "--buffer", in, "--param", "0=@in", NULL };
    if (written)
        buffers_line(ptxrun, "(i) 256 MiB from a file, all read", read_whole, (double)(1u << 28), line_i, size);
    remove(bin);
    remove(ptx);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: bench_exec PTXRUN SAMPLES_DIR\n");
        return 2;
    }
    /* The samples first, while this process is small: a child's peak counts it until exec. */
    DIR *d = opendir(argv[2]);
    static char names[64][256];
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) && n < 64) {
        size_t len = strlen(e->d_name);
        if (len > 11 && !strcmp(e->d_name + len - 11, ".lanes.json"))
            snprintf(names[n++], sizeof names[0], "%.*s", (int)(len - 11), e->d_name);
    }
    if (d)
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
    char grid_line[300] = "", line_h[300] = "", line_i[300] = "";
    bench_grid(argv[1], grid_line, sizeof grid_line);
    bench_buffers(argv[1], line_h, line_i, sizeof line_h);
    bench_all();
    if (n)
        printf("peak RSS of ptxrun over %d samples: %.1f MB (target under 10 MB: %s)%s\n", n, ru.ru_maxrss / 1024.0,
               ru.ru_maxrss < 10 * 1024 ? "met" : "NOT met", failed ? "; some samples FAILED" : "");
    puts(grid_line);
    puts(line_h);
    puts(line_i);
    return 0;
}
