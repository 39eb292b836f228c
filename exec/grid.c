/* grid.c: the grid. Its CTAs run one after another, each from the state the lanes file gave,
 * or, with -j N, on N threads when that gives exactly what one after another gives:
 *   - workers (block_worker_new: the program, the start state and .global shared, .shared and
 *     .local their own), one per thread, the first on the calling thread, take the CTAs in
 *     order from a shared counter, and every access to .global is marked by word (mem.c's
 *     GridTrack); the worker that took the last CTA ran it last, and hands its state to the
 *     block (block_adopt), so that the output shows the last CTA's registers as always (or the
 *     worker that ran the CTA ExecOptions.keep_cta names hands over its copy, block_adopt_kept);
 *   - the parallel run stands only if no CTA touched a word that another wrote, and no CTA would
 *     have reported anything (a fault, a warning, a deadlock, a warp past --max-steps).
 *     Otherwise .global is put back as it was (gridtrack.c kept the old bytes of each word a CTA
 *     wrote, and only those: memory no CTA writes is never copied) and the CTAs run again one
 *     after another, which reports what there is to report, in order. The reason goes back to
 *     the driver.
 * A kernel that prints (vprintf, __assertfail) runs one CTA after another from the start: its
 * output is then in CTA order, as a run on one thread gives it.
 * A CTA's number (x fastest) is 64 bits: CUDA's largest grid has about 2^63 CTAs. Nothing here
 * is kept per CTA, so a grid takes the memory of one CTA per thread whatever its size.
 * With ExecOptions.progress, every thread counts the CTAs it ends and its warp-steps into one
 * GridProgress, and only this thread (the block, or job 0) calls the callback. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"

enum { MAX_JOBS = 256 };

typedef struct Job {
    Block *block;
    const ExecOptions *o;
    atomic_uint_fast64_t *next;    /* the next CTA to take */
    uint64_t end;              /* the CTAs, [0, end) */
    bool stopped;              /* a CTA stopped early or met another's word */
    bool ran_last;             /* it took CTA end - 1 (and so ran it last) */
} Job;

static void *work(void *arg)
{
    Job *j = arg;
    GridTrack *track = j->block->mem.track;
    while (!atomic_load(&track->stop)) {
        uint64_t cta = atomic_fetch_add(j->next, 1);
        if (cta >= j->end)
            break;
        j->ran_last = cta == j->end - 1;
        j->block->mem.track_cta = (uint32_t)cta + 1;     /* below TRACK_MANY (grid_run) */
        if (!block_run_cta(j->block, j->o, cta) || atomic_load(&track->conflict)) {
            j->stopped = true;
            atomic_store(&track->stop, true);      /* the others need not go on */
            break;
        }
        if (j->block->progress) {
            atomic_fetch_add(&j->block->progress->ctas_done, 1);
            block_progress(j->block, j->o, true);
        }
    }
    return NULL;
}

/* The CTAs on `jobs` threads; true if the run stands, else why not (and .global as before). */
static bool run_parallel(Block *b, const ExecOptions *o, uint64_t ctas, uint32_t jobs, char *why, size_t size)
{
    uint32_t workers = jobs < ctas ? jobs : (uint32_t)ctas;
    GridTrack *track = gridtrack_new(&b->mem);
    atomic_uint_fast64_t next;
    atomic_init(&next, 0);
    Job job[MAX_JOBS];
    pthread_t thread[MAX_JOBS];
    uint32_t started = 1;                /* job 0 runs on this thread */
    for (uint32_t i = 0; i < workers; i++) {
        job[i] = (Job){ block_worker_new(b, NULL, NULL), o, &next, ctas, false, false };
        job[i].block->mem.track = track;
        job[i].block->progress = b->progress;
    }
    job[0].block->tells_progress = b->tells_progress;     /* job 0 runs on this thread */
    for (uint32_t i = 1; i < workers && pthread_create(&thread[i], NULL, work, &job[i]) == 0; i++)
        started++;
    work(&job[0]);
    for (uint32_t i = 1; i < started; i++)
        pthread_join(thread[i], NULL);
    bool stood = !atomic_load(&track->stop);
    uint64_t steps = 0, lane_steps = 0;
    for (uint32_t i = 0; i < workers; i++) {
        stood &= !job[i].stopped;
        steps += job[i].block->steps;
        lane_steps += job[i].block->lane_steps;
    }
    if (!stood)
        snprintf(why, size, atomic_load(&track->conflict)
                 ? "two CTAs used one word of .global memory, one of them writing it, so the result could depend "
                   "on their order"
                 : atomic_load(&track->too_big)
                 ? "the record of which CTA used which word of .global memory would pass its bound (a quarter "
                   "byte per byte of .global, or 64 MiB)"
                 : "a CTA stopped early (a fault, a warning, a deadlock or --max-steps), which is reported in order "
                   "one CTA after another");
    for (uint32_t i = 0; i < workers; i++) {
        if (stood && job[i].ran_last)
            block_adopt(b, job[i].block);
        if (stood)
            block_adopt_kept(b, job[i].block);
        block_free(job[i].block);
    }
    gridtrack_end(track, &b->mem, !stood);
    b->track_bytes = atomic_load(&track->bytes);
    gridtrack_free(track);
    if (stood) {
        b->steps = steps;
        b->lane_steps = lane_steps;
    } else if (b->progress) {          /* counted again one CTA after another */
        atomic_store(&b->progress->ctas_done, 0);
        atomic_store(&b->progress->steps, 0);
    }
    return stood;
}

int grid_run(Block *b, const ExecOptions *o, char *why, size_t size)
{
    uint64_t ctas = block_cta_count(b);
    uint32_t jobs = o->jobs < MAX_JOBS ? o->jobs : MAX_JOBS;
    why[0] = '\0';
    block_start(b);
    GridProgress progress = { 0 };
    progress.ctas = ctas;
    b->progress = o->progress ? &progress : NULL;
    b->tells_progress = true;
    b->steps_counted = 0;
    if (gang_wanted(b, o)) {           /* CTAs that run together (gang.c), on this thread */
        if (ctas > 1 && jobs > 1)
            snprintf(why, size, "CTAs that run together (a cooperative launch, clusters) share one scheduler");
        bool faulted = !gang_run_grid(b, o);
        b->progress = NULL;
        return block_finish(b, o, faulted);
    }
    bool one_thread = false;           /* fault injection counts allocations on one thread */
#ifdef PTXRUN_FAULT_INJECTION
    one_thread = true;
#endif
    if (ctas > 1 && jobs > 1) {
        if (one_thread)
            snprintf(why, size, "a build for fault injection runs one thread");
        else if (o->trace)
            snprintf(why, size, "--trace shows the CTAs one after another");
        else if (b->prog.prints)
            snprintf(why, size, "the kernel prints (vprintf, __assertfail), and its output comes CTA by CTA");
        else if (o->on_matrix)
            snprintf(why, size, "--matrix shows the executions in order, one CTA after another");
        else if (o->cta_done)
            snprintf(why, size, "every CTA's registers are kept in order, one CTA after another");
        else if (b->prog.uses_images)
            snprintf(why, size, "the kernel uses textures or surfaces");
        else if (ctas >= TRACK_MANY)
            snprintf(why, size, "the grid has %llu CTAs, more than the run on threads tells apart (2^32 - 2)",
                     (unsigned long long)ctas);
        else if (run_parallel(b, o, ctas, jobs, why, size)) {
            block_show_kept(b);
            b->progress = NULL;
            return block_finish(b, o, false);
        }
    }
    b->has_kept = false;               /* a parallel run that did not stand kept nothing */
    bool faulted = false;
    for (uint64_t cta = 0; cta < ctas && !faulted; cta++) {
        faulted = !block_run_cta(b, o, cta);
        if (b->progress && !faulted) {
            atomic_fetch_add(&progress.ctas_done, 1);
            block_progress(b, o, true);
        }
        if (o->cta_done)
            o->cta_done(o->cta_context, b);
    }
    b->progress = NULL;
    block_show_kept(b);
    return block_finish(b, o, faulted);
}
