/* benchload.h: a benchmark's PTX program loaded into a block and run, timed (benchload.c). */
#ifndef BENCH_BENCHLOAD_H
#define BENCH_BENCHLOAD_H

#include "cli.h"

typedef struct BenchProgram {
    Source src;
    Diag diag;
    Module *module;
    Block *block;              /* NULL: the program did not load */
} BenchProgram;

/* text (one kernel; name: its file name in messages) parsed, checked and loaded into p->block,
 * its diagnostics to emit (NULL: printed) */
void benchload_open(BenchProgram *p, const char *name, const char *text, DiagEmit *emit);
/* p's grid of ctas blocks of threads threads run on jobs threads: seconds; a fault ends the
 * benchmark (bench names it); why: grid_run's reason for one thread */
double benchload_run(BenchProgram *p, const char *bench, uint32_t threads, uint32_t ctas, uint32_t jobs, char *why,
                     size_t size);
void benchload_close(BenchProgram *p);

#endif
