/* driver.c: one run of the whole pipeline, in order: read -> lex/parse -> check -> (load,
 * lanes, execute, print, compare) or dump. The command line (main.c) and the test runner
 * (testrun.c) both call driver_run, with their own output streams.
 * Exit codes: 0 ok, 1 expectation mismatch, 2 bad input or usage, 3 execution fault. Output that
 * cannot be written is an error (2), except after a fault, which keeps its 3. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* --check of a module this large (bytes) goes on threads (checkstream.c); a smaller one is done
 * before threads would pay for themselves. Each reader holds the module's declarations (about
 * 1.2 bytes per byte of a large nvcc module, beside the text's 1): without -j, two readers (or
 * one a processor, if fewer), which keeps the peak near 3.5 bytes per byte. */
enum { CHECK_SPLIT_BYTES = 1 << 20, CHECK_DEFAULT_READERS = 2 };

/* A message of the launch (lanes.c, launch.c, ...). A kernel's, parameter's or register's name
 * in one is shown at most DEMANGLE_SHOWN bytes long (demangle_shown), as are the option values
 * and lanes file keys the messages of the launch checks quote, a path at most PATH_SHOWN
 * (demangle_cut), and long lists are cut, so that these messages stay readable; the text itself
 * (a Msg) has no length limit. */

/* Diagnostics are held until the end and printed in source order, so that the parser's and
 * the checker's messages interleave by line as a reader expects. */
typedef struct Held {
    DiagLevel level;
    Span at;
    uint32_t key;              /* sort position: a note sorts with the message it explains */
    char *message;
    uint32_t sequence;         /* keeps equal positions in the order reported */
} Held;

typedef struct HeldList {
    Held *items;
    uint32_t count, capacity;
    uint32_t last_key;         /* position of the last error or warning */
    bool no_warnings;
} HeldList;

static void hold_diag(void *context, Diag *diag, DiagLevel level, Span at, const char *message)
{
    HeldList *list = context;
    (void)diag;
    if (level == DIAG_WARNING && list->no_warnings)
        return;
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? 2 * list->capacity : 16;
        list->items = xrealloc(list->items, list->capacity * sizeof *list->items);
    }
    size_t len = strlen(message) + 1;
    if (level != DIAG_NOTE)
        list->last_key = at.offset;
    Held h = { level, at, list->last_key, memcpy(xmalloc(len), message, len), list->count };
    list->items[list->count++] = h;
}

static int by_position(const void *a, const void *b)
{
    const Held *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->sequence < y->sequence ? -1 : 1;
}

static void forget_held(HeldList *list)
{
    for (uint32_t i = 0; i < list->count; i++)
        free(list->items[i].message);
    list->count = 0;
    list->last_key = 0;
}

/* lines: the CUDA source notes of a run's messages (NULL: none) */
static void flush_held(HeldList *list, Diag *diag, SourceMap *lines)
{
    if (list->count)
        qsort(list->items, list->count, sizeof *list->items, by_position);
    for (uint32_t i = 0; i < list->count; i++) {
        Held *h = &list->items[i];
        diag_print(diag->stream, diag->src, h->level, h->at, h->message, diag->color);
        srcline_note(lines, diag->stream, h->at, diag->color);
        free(h->message);
    }
    free(list->items);
    list->items = NULL;
    list->count = list->capacity = 0;
}

/* What the kernel prints: printf's text on the output, assertion messages on the error stream,
 * each call's text as it comes (so that nothing is lost when the run faults later); with
 * --json, printf's text is kept for the JSON object's "stdout" instead. */
typedef struct Printed {
    FILE *out, *err;
    bool keep;                 /* --json: into text */
    char *text;
    size_t len, cap;
    Progress *progress;        /* erased before the text, which would land in its line */
} Printed;

static void print_kernel_text(void *context, int stream, const char *text, size_t len)
{
    Printed *p = context;
    if (p->keep && stream == PRINT_OUT) {
        if (p->len + len + 1 > p->cap) {
            p->cap = (p->len + len + 1) * 2;
            p->text = xrealloc(p->text, p->cap);
        }
        memcpy(p->text + p->len, text, len);
        p->len += len;
        p->text[p->len] = '\0';
        return;
    }
    FILE *f = stream == PRINT_ERR ? p->err : p->out;
    progress_erase(p->progress);
    fwrite(text, 1, len, f);
    fflush(f);
}

/* --cta N (the CTA's number, x fastest) or X,Y[,Z] into the CTA's number and place in b's grid;
 * false with err when it is malformed or outside the grid. */
static bool cta_number(const Block *b, const char *text, uint64_t *number, uint32_t xyz[3], Msg *err)
{
    const uint32_t *g = b->nctaid;
    unsigned long long v[3] = { 0, 0, 0 };
    unsigned count = 0;
    for (const char *p = text;;) {
        char *end;
        errno = 0;
        if (count == 3 || *p < '0' || *p > '9')
            goto bad;
        v[count++] = strtoull(p, &end, 10);
        if (errno == ERANGE)
            goto bad;
        p = end;
        if (!*p)
            break;
        if (*p++ != ',')
            goto bad;
    }
    unsigned long long ctas = block_cta_count(b);
    if (count == 1 && v[0] < ctas) {
        *number = v[0];
        xyz[0] = (uint32_t)(v[0] % g[0]), xyz[1] = (uint32_t)(v[0] / g[0] % g[1]);
        xyz[2] = (uint32_t)(v[0] / ((uint64_t)g[0] * g[1]));
        return true;
    }
    if (count > 1 && v[0] < g[0] && v[1] < g[1] && v[2] < g[2]) {
        xyz[0] = (uint32_t)v[0], xyz[1] = (uint32_t)v[1], xyz[2] = (uint32_t)v[2];
        *number = xyz[0] + (uint64_t)g[0] * (xyz[1] + (uint64_t)g[1] * xyz[2]);
        return true;
    }
    msg_set(err, "--cta %s is outside the grid (%u, %u, %u) of %llu CTA%s (numbers 0 to %llu, or X,Y,Z each "
            "below the grid's)", text, g[0], g[1], g[2], ctas, ctas == 1 ? "" : "s", ctas - 1);
    return false;
bad:;
    char *shown = demangle_cut(text, strlen(text), DEMANGLE_SHOWN);
    msg_set(err, "--cta: expected a CTA's number or its X,Y,Z (such as 3 or 1,0,0), not '%s'", shown);
    free(shown);
    return false;
}

/* --all-ctas: each CTA's registers as it ends, into a temporary file (not memory). */
typedef struct CtaLog {
    FILE *file;
    bool first;
} CtaLog;

static void log_cta(void *context, const Block *b)
{
    CtaLog *log = context;
    dump_print_cta_json(log->file, b, log->first);
    log->first = false;
}

/* ExecOptions.progress: "ptxrun: 12/4096 CTAs, 35.2M warp-steps/s" */
static void show_progress(void *context, uint64_t ctas_done, uint64_t ctas, uint64_t steps)
{
    Progress *p = context;
    double seconds = progress_seconds(p), rate = seconds > 0 ? steps / seconds : 0;
    const char *unit = rate >= 1e9 ? "G" : rate >= 1e6 ? "M" : rate >= 1e3 ? "k" : "";
    double scaled = rate >= 1e9 ? rate / 1e9 : rate >= 1e6 ? rate / 1e6 : rate >= 1e3 ? rate / 1e3 : rate;
    progress_show(p, ": %llu/%llu CTAs, %.1f%s warp-steps/s", (unsigned long long)ctas_done,
                  (unsigned long long)ctas, scaled, unit);
}

/* Loads the kernel fn (runstream_choose's), sets its lanes, runs it, prints the state; returns
 * the exit code. */
static int execute(const RunOptions *o, Module *m, Function *fn, Diag *diag, HeldList *held, FILE *out,
                   FILE *err_out)
{
    if (!fn) {
        fprintf(err_out, "ptxrun: error: nothing to run: the file has no .entry and no bare instructions\n");
        return EXIT_BAD_INPUT;
    }
    SourceMap *lines = srcline_open(m, o->path);
    Block *b = block_load_fmad(m, fn, diag, o->exec.stack_bytes, !o->exec.no_fmad);
    if (!b) {
        flush_held(held, diag, lines);
        srcline_free(lines);
        return EXIT_BAD_INPUT;
    }
    Msg err = { 0 };
    TraceFilter filter = o->trace_filter;
    filter.regs = o->regs;
    filter.ranges = NULL;
    filter.range_count = 0;
    bool shown[MAX_BLOCK_THREADS];
    TableView view = { o->regs, shown, NULL, o->hex, false, false, { 0, 0, 0 }, o->buffers, NULL };
    ExecOptions exec = o->exec;
    CtaLog log = { NULL, true };
    MatrixPick matrices = { 0 };
    int loaded = 1;                            /* lanes_load's: 1, no block given */
    if ((o->trace_lines && !srcline_trace_lines(&filter, m, o->trace_lines, &err)) ||
        (o->trace_lines && !srcline_trace_lines_reached(&filter, &b->prog, o->trace_lines, &err)) ||
        ((o->lanes || launch_given(&o->launch)) && (loaded = lanes_load(b, o->lanes, &o->launch, &err)) < 0) ||
        !dump_select(b, o->warps, o->threads, shown, &err) || !dump_check_regs(b, o->regs, &err) ||
        !dump_check_buffers(b, o->buffers, &err) ||
        (o->cta && !cta_number(b, o->cta, &exec.keep_cta, view.cta, &err)) ||
        (o->save_buffers && !npy_save_folder(o->save_buffers, &err)) ||
        (o->matrix && !matview_open(&matrices, &b->prog, o->matrix, &err))) {
        fprintf(err_out, "ptxrun: error: %s\n", err.text);
        goto refused;
    }
    if (!lanes_params_given(b, err_out))
        goto refused;
    if (!bounds_check(b, b->explicit_cluster ? b->cluster : NULL, loaded == 1 ? "; no --block gives one warp" : NULL)) {
        flush_held(held, diag, lines);
        goto refused;
    }
    if (!gang_fits(b, &err)) {
        fprintf(err_out, "ptxrun: error: %s\n", err.text);
        goto refused;
    }
    if (loaded == 1 && !b->prog.fn->is_snippet && !o->exec.trace_json)     /* JSON lines stay JSON */
        fprintf(err_out, "ptxrun: note: no --block (nor \"block\" in the lanes file): the kernel runs as a block of "
                "one warp, 32 threads\n");
    if (o->all_ctas && !(log.file = tmpfile())) {
        fprintf(err_out, "ptxrun: error: --all-ctas: cannot make a temporary file: %s\n", strerror(errno));
        goto refused;
    }
    if (o->matrix && o->json && !(matrices.json = tmpfile())) {
        fprintf(err_out, "ptxrun: error: --matrix: cannot make a temporary file: %s\n", strerror(errno));
        goto refused;
    }
    exec.keep_given = view.cta_given = o->cta != NULL;
    exec.cta_done = log.file ? log_cta : NULL;
    exec.cta_context = &log;
    bool *given = o->json || o->regs ? NULL : dump_given(b);    /* before the run changes them */
    uint64_t *before = o->json || o->buffers ? NULL : dump_buffer_hashes(b);
    view.given = given;
    view.before = before;
    char why[256];
    Progress progress;
    progress_start(&progress, err_out, o->exec.trace ? PROGRESS_OFF : o->progress);
    Printed printed = { o->kernel_out ? o->kernel_out : out, err_out, o->json && !o->kernel_out, NULL, 0, 0, &progress };
    exec.print = print_kernel_text;
    exec.print_context = &printed;
    if (progress.mode != PROGRESS_OFF) {
        exec.progress = show_progress;
        exec.progress_context = &progress;
    }
    exec.trace_filter = &filter;
    if (o->matrix) {
        matrices.out = out;
        matrices.hex = o->hex;
        matrices.progress = &progress;
        exec.on_matrix = matview_execution;
        exec.matrix_wanted = matview_wanted;
        exec.matrix_context = &matrices;
    }
    int rc = grid_run(b, &exec, why, sizeof why) == EXEC_OK ? EXIT_OK : EXIT_FAULT;
    progress_erase(&progress);
    flush_held(held, diag, lines);
    srcline_free(lines);
    free(filter.ranges);
    if (why[0] && o->exec.jobs_given)
        fprintf(err_out, "ptxrun: note: -j %u: the grid's CTAs ran one after another: %s\n", o->exec.jobs, why);
    view.stopped = rc == EXIT_FAULT;
    matview_close(&matrices, err_out);
    if (log.file && (fflush(log.file) != 0 || ferror(log.file))) {
        fprintf(err_out, "ptxrun: error: --all-ctas: cannot write the temporary file: %s\n", strerror(errno));
        rc = EXIT_BAD_INPUT;
    } else if (o->json)
        dump_print_json(out, b, b->prog.prints ? (printed.text ? printed.text : "") : NULL, printed.len, log.file,
                        matrices.json);
    else
        dump_print_table(out, b, &view);
    if (log.file)
        fclose(log.file);
    if (matrices.json)
        fclose(matrices.json);
    free(given);
    free(before);
    if (o->save_buffers && !npy_save_buffers(b, o->save_buffers, !o->no_warnings, err_out, &err)) {
        fprintf(err_out, "ptxrun: error: %s\n", err.text);
        rc = rc == EXIT_OK ? EXIT_BAD_INPUT : rc;
    }
    if (o->expect) {
        int mismatches = expect_compare(err_out, b, o->expect, &o->tolerance, &err);
        if (mismatches < 0) {
            fprintf(err_out, "ptxrun: error: %s\n", err.text);
            rc = EXIT_BAD_INPUT;
        } else if (mismatches > 0) {
            fprintf(err_out, "ptxrun: %d difference%s from %s%s\n", mismatches, mismatches == 1 ? "" : "s", o->expect,
                    mismatches > 20 ? " (the first 20 shown)" : "");
            if (rc == EXIT_OK)
                rc = EXIT_MISMATCH;
        }
    }
    block_free(b);
    free(printed.text);
    msg_free(&err);
    return rc;
refused:
    msg_free(&err);
    matview_close(&matrices, NULL);
    if (matrices.json)
        fclose(matrices.json);
    block_free(b);
    free(filter.ranges);
    srcline_free(lines);
    return EXIT_BAD_INPUT;
}

/* CUDA C++ rather than PTX: a .cu/.cuh name, or a preprocessor line or __global__ before any
 * PTX directive. PTX has neither. */
static bool cuda_source(const Source *src)
{
    size_t n = strlen(src->name);
    if ((n > 3 && !strcmp(src->name + n - 3, ".cu")) || (n > 4 && !strcmp(src->name + n - 4, ".cuh")))
        return true;
    const char *ptx = strstr(src->text, ".version");
    for (const char *p = src->text; *p && (!ptx || p < ptx); p++)     /* not past the PTX's start */
        if (*p == '_' && !strncmp(p, "__global__", 10))
            return true;
    for (const char *p = src->text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
        if (ptx && p > ptx)
            break;
        if (!strncmp(p, "#include", 8) || !strncmp(p, "#define", 7))
            return true;
    }
    return false;
}

/* Runs one file as o says; results go to out, diagnostics and messages to err. */
int driver_run(const RunOptions *o, FILE *out, FILE *err_out)
{
    Source src;
    Msg err = { 0 };
    if (source_load(&src, o->path, &err) != 0) {
        fprintf(err_out, "ptxrun: error: %s\n", err.text);
        msg_free(&err);
        return EXIT_BAD_INPUT;
    }
    if (cuda_source(&src)) {
        bool stdin_text = !strcmp(src.name, "<stdin>");
        fprintf(err_out, "ptxrun: error: %s is CUDA C++, not PTX: compile it with nvcc first, e.g. "
                "'nvcc -ptx -arch=sm_80 %s -o kernel.ptx', and run the .ptx\n", src.name,
                stdin_text ? "kernel.cu" : src.name);
        source_free(&src);
        return EXIT_BAD_INPUT;
    }
    Diag diag;
    diag_init(&diag, &src, err_out);
    diag.color = o->color;
    HeldList held = { .no_warnings = o->no_warnings };
    diag.emit = hold_diag;
    diag.context = &held;

    /* --check also reports what a run would refuse before it starts: every kernel is lowered.
     * It goes function by function when it can (checkstream.c), a large module on -j threads,
     * else over the whole module. A run, too, goes function by function (runstream.c), keeping
     * the kernels it may run, and refuses only what its kernel reaches. */
    unsigned readers = src.len < CHECK_SPLIT_BYTES ? 1
                       : o->exec.jobs_given || o->exec.jobs < CHECK_DEFAULT_READERS ? o->exec.jobs
                       : CHECK_DEFAULT_READERS;
    CheckOptions check = o->check;
    KernelReach reach = { 0 };
    if (o->mode == MODE_RUN)
        reach_hold(&reach, &src, &check);
    bool refused = false;                       /* no kernel chosen: said */
    Module *m = o->mode == MODE_CHECK ? checkstream_module(&src, &diag, &o->check, readers, false)
                : o->mode == MODE_RUN ? runstream_module(&src, &diag, &check, o->entry, err_out, &reach, &refused)
                : o->mode == MODE_LIST_KERNELS ? runstream_names(&src, &diag) : NULL;
    if (refused)
        forget_held(&held);
    else if (!m) {
        forget_held(&held);
        reach_forget(&reach, 0);
        diag.errors = diag.warnings = 0;
        m = parse_module(&src, &diag);
        check_module(m, &diag, &check);         /* also after syntax errors: report all at once */
        if (o->mode == MODE_CHECK && !diag.errors)
            lower_check_all(m, &diag);
    }
    if (diag.errors && reach.len && diag.max_errors && diag.errors + reach.len > diag.max_errors) {
        /* which errors the limit shows depends on their order: the whole module's, refusals inline */
        forget_held(&held);
        reach_forget(&reach, 0);
        module_free(m);
        diag.errors = diag.warnings = 0;
        m = parse_module(&src, &diag);
        check_module(m, &diag, &o->check);
    }
    if (diag.errors)
        reach_refuse_all(&reach, &diag);
    flush_held(&held, &diag, NULL);
    Function *fn = NULL;
    bool chosen = !refused;
    if (o->mode == MODE_RUN && !diag.errors && chosen) {  /* the refusals of what it reaches, if any */
        fn = runstream_choose(&reach, m, &diag, o->entry, err_out, &chosen);
        flush_held(&held, &diag, NULL);
    }

    int rc = EXIT_OK;
    if (diag.errors) {
        fprintf(err_out, "%s: %u error%s", src.name, diag.errors, diag.errors == 1 ? "" : "s");
        if (diag.max_errors && diag.errors > diag.max_errors)
            fprintf(err_out, " (the first %u shown)", diag.max_errors);
        fputc('\n', err_out);
        rc = EXIT_BAD_INPUT;
    } else if (o->mode == MODE_DUMP_IR) {
        ir_print_module(out, m);
    } else if (o->mode == MODE_LIST_KERNELS) {
        entry_list(out, m, o->json);
    } else if (o->mode == MODE_RUN) {
        rc = chosen ? execute(o, m, fn, &diag, &held, out, err_out) : EXIT_BAD_INPUT;
    }
    reach_release(&reach, m);
    module_free(m);
    source_free(&src);
    if (fflush(out) != 0 || ferror(out)) {    /* said, but a fault (3) stays the exit status */
        fprintf(err_out, "ptxrun: error: cannot write the output: %s\n", strerror(errno));
        if (rc != EXIT_FAULT)
            rc = EXIT_BAD_INPUT;
    }
    if (o->exec.trace && (fflush(o->exec.trace) != 0 || ferror(o->exec.trace))) {
        fprintf(err_out, "ptxrun: error: cannot write the trace: %s\n", strerror(errno));   /* may fail too */
        rc = EXIT_BAD_INPUT;
    }
    return rc;
}

