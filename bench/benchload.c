/* benchload.c: what bench_exec and bench_gemm do alike: a program's text, one kernel, parsed,
 * checked and loaded into a block (as the command line would, without a lanes file: the caller
 * puts its buffers and registers in), run on a grid of one shape and timed, then freed. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchload.h"

void benchload_open(BenchProgram *p, const char *name, const char *text, DiagEmit *emit)
{
    source_from_string(&p->src, name, text, strlen(text));
    diag_init(&p->diag, &p->src, stderr);
    p->diag.emit = emit;
    p->module = parse_module(&p->src, &p->diag);
    check_module(p->module, &p->diag, NULL);
    p->block = p->diag.errors ? NULL
             : block_load(p->module, p->module->functions.data[0], &p->diag, DEFAULT_STACK_BYTES);
}

double benchload_run(BenchProgram *p, const char *bench, uint32_t threads, uint32_t ctas, uint32_t jobs, char *why,
                     size_t size)
{
    uint32_t ntid[3] = { threads, 1, 1 }, nctaid[3] = { ctas, 1, 1 };
    block_set_shape(p->block, ntid, ALL_LANES);
    block_set_grid(p->block, nctaid);
    ExecOptions o = { .max_steps = UINT64_MAX, .jobs = jobs };
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = grid_run(p->block, &o, why, size);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc != EXEC_OK) {
        fprintf(stderr, "%s: the benchmark program faulted\n", bench);
        exit(1);
    }
    return (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
}

void benchload_close(BenchProgram *p)
{
    if (p->block)
        block_free(p->block);
    module_free(p->module);
    source_free(&p->src);
}
