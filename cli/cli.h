/* cli.h: the command line around the executor: the lanes file in, the table and JSON out,
 * --expect, one run of the whole pipeline (driver.c) and `ptxrun test`. */
#ifndef PTXRUN_CLI_H
#define PTXRUN_CLI_H

#include <sys/types.h>

#include "api.h"

/* launch.c: the launch on the command line (--block, --grid, --cluster, --shared, --param,
 * --buffer), merged into the lanes file's JSON before lanes.c reads it. */
typedef struct Launch {
    const char *block, *grid, *cluster, *shared;   /* the options' text, or NULL */
    bool cooperative;                              /* --cooperative */
    const char **params, **buffers;                /* NAME=VALUE, NAME=TYPE:COUNT ... */
    uint32_t param_count, buffer_count;
} Launch;
struct json_t;
bool launch_given(const Launch *l);
const char *launch_param_short(const Function *f, const char *full);   /* param_0 of k_param_0 */
bool launch_merge(const Block *b, struct json_t *root, const char *lanes_path, const Launch *l, Msg *err);

/* npy.c: buffer data from .npy or raw binary files; --save-buffers. */
bool npy_buffer_type_ok(int type);
bool npy_named(const char *file);
bool npy_read(const char *file, int given_type, int *type, uint64_t *count, uint8_t *dest, Msg *err);
bool npy_save_buffers(const Block *b, const char *dir, bool warnings, FILE *err_out, Msg *err);
bool npy_save_folder(const char *dir, Msg *err);   /* before the run: made, a folder, writable */

/* lanes.c: --lanes JSON in (path NULL: none, only the command line's launch). The json_t
 * values are jansson's. lanes_load: -1 on an error, 0, or 1 when a kernel's block was left out
 * (it runs one warp). */
int lanes_load(Block *b, const char *path, const Launch *cli, Msg *err);
bool lanes_params_given(Block *b, FILE *err_out);   /* false: the missing ones said on err_out */
/* images.c: the lanes file's "surfaces", "textures" and "samplers"; the handle "@name" gives. */
bool images_load(Block *b, const char *path, struct json_t *v, bool surface, Msg *err);
bool images_load_samplers(Block *b, const char *path, struct json_t *v, Msg *err);
bool images_handle(const Block *b, const char *name, uint64_t *handle);
bool images_program_samplers(Block *b, const char *path, Msg *err);
/* imageinit.c: the program's .texref/.surfref initializer of the image's name applied to im (the
 * lanes file gave "filter", "normalized_coords", "address" where the flags say so) */
bool image_initializer(const Block *b, Image *im, bool filter_given, bool normalized_given, bool address_given,
                       const char *where, Msg *err);
struct json_t *lanes_load_json(const char *path, Msg *err);   /* a JSON object, or NULL */
/* values.c: a JSON document whose integers may reach 2^64 - 1 (lanes_value_bits reads them);
 * jsonread.c reads it fast, and a document it refuses goes to jansson for the message. JSON
 * integers from 2^63 to 2^64 - 1 (Python writes u64 values so; jansson's integers stop at
 * 2^63 - 1) become the string VALUES_BIG_INTEGER followed by their digits. */
#define VALUES_BIG_INTEGER "\001u64:"
struct json_error_t;
struct json_t *values_load_json(FILE *f, struct json_error_t *e);
struct json_t *values_parse_jansson(const char *text, size_t len, struct json_error_t *e);   /* the slow path */
struct json_t *jsonread_parse(const char *text, size_t len);   /* text[len] is a NUL; NULL: refused */
bool lanes_value_bits(struct json_t *v, int type, uint64_t *bits, uint64_t *dbits, Msg *err);  /* dbits: defined bits */
bool b128_json_bits(struct json_t *v, uint64_t bits[2], uint64_t dbits[2], Msg *err);  /* b128.c: a .b128 value */
bool lanes_pred_value(struct json_t *v, bool *value, bool *defined, Msg *err);
bool lanes_parse_mask(struct json_t *v, uint32_t *mask);
uint32_t lanes_declared_before(const Function *f, bool pred, uint32_t slot);   /* "NAME@2": declared again */
bool lanes_lookup(const Block *b, const char *path, const char *section, const char *name, bool want_pred,
                  uint32_t *slot, int *type, Msg *err);
bool lanes_array_size_ok(const Block *b, size_t n);
const char *lanes_array_size_text(const Block *b, char *buf, size_t size);

/* dump.c: the final state out as a table or JSON. */
typedef struct TableView {
    const char *regs;          /* --regs A,B or "all"; NULL: a snippet's every register, a module's given ones */
    const bool *threads;       /* the rows (dump_select); NULL: every row */
    const bool *given;         /* a module's registers the lanes file gave a value (dump_given) */
    bool hex;                  /* --hex: registers and buffers as their bits */
    bool stopped;              /* the run stopped early (a fault): the registers are of where it stopped */
    bool cta_given;            /* --cta: the CTA asked for */
    uint32_t cta[3];
    const char *buffers;       /* --buffers A,B|all|none: these in full; NULL: the changed ones */
    const uint64_t *before;    /* dump_buffer_hashes before the run (NULL: every buffer in full) */
} TableView;
void dump_print_table(FILE *out, const Block *b, const TableView *view);   /* view NULL: every register */
bool *dump_given(const Block *b);      /* before the run: per register, then predicate, whether it has a value */
bool dump_select(const Block *b, const char *warps, const char *threads, bool *shown, Msg *err);
/* --regs A,B: every name a register or predicate of the kernel; else an error listing close ones */
bool dump_check_regs(const Block *b, const char *only, Msg *err);
bool dump_check_buffers(const Block *b, const char *only, Msg *err);   /* --buffers */
uint64_t *dump_buffer_hashes(const Block *b);   /* per region: a buffer's contents hashed (TableView.before) */
/* printed: the kernel's text, or NULL; ctas: dump_print_cta_json's output (--all-ctas), or NULL */
void dump_print_json(FILE *out, const Block *b, const char *printed, size_t printed_len, FILE *ctas,
                     FILE *matrices);   /* matrices: --matrix's elements of "matrices", or NULL */
void dump_print_cta_json(FILE *out, const Block *b, bool first);   /* one element of "ctas" */
uint64_t dump_buffer_element(const Region *r, uint64_t i, uint64_t *bits);   /* its defined bits */
uint64_t dump_buffer_count(const Region *r);

/* expect.c: --expect. How far it lets a 32- or 64-bit value be from the expected bits, as floats:
 * within ulps representable values, or within abs_err of it, or any NaN for an expected NaN.
 * Zero: bit for bit. */
typedef struct Tolerance {
    uint64_t ulps;
    double abs_err;
    bool any_nan;
} Tolerance;
int expect_compare(FILE *out, const Block *b, const char *path, const Tolerance *tol, Msg *err);

/* progress.c: the progress line of a long run on standard error (a terminal, after a second) */
typedef enum { PROGRESS_OFF, PROGRESS_TERMINAL, PROGRESS_FORCED } ProgressMode;
typedef struct Progress {
    FILE *out;
    ProgressMode mode;
    double start, last;        /* seconds: the run's start, the last line shown (-1: none) */
    bool shown;                /* a line is on the screen */
} Progress;
ProgressMode progress_mode(FILE *stream);     /* PTXRUN_PROGRESS, else whether stream is a terminal */
void progress_start(Progress *p, FILE *out, ProgressMode mode);
void progress_show(Progress *p, const char *fmt, ...);   /* "\rptxrun" fmt..., when it is time */
double progress_seconds(const Progress *p);   /* since progress_start */
void progress_erase(Progress *p);             /* the line, if one is shown */
/* srcline.c: CUDA source lines (.file/.loc) in the notes after run-time diagnostics; the
 * --trace-ops and --trace-lines filters. */
typedef struct SourceMap SourceMap;
SourceMap *srcline_open(const Module *m, const char *ptx_path);
void srcline_note(SourceMap *s, FILE *out, Span at, bool color);   /* s NULL: nothing */
void srcline_free(SourceMap *s);
bool srcline_trace_ops(TraceFilter *f, const char *list, Msg *err);
bool srcline_trace_lines(TraceFilter *f, const Module *m, const char *list, Msg *err);
bool srcline_ranges(TraceFilter *f, const Module *m, const char *list, const char *option, Msg *err);
bool srcline_trace_lines_reached(const TraceFilter *f, const Program *p, const char *list, Msg *err);   /* false: a range that picks no instruction */

/* matview.c: --matrix LINE[@N], the matrices of a matrix instruction's executions: printed as
 * tables to out as they come, or kept for --json's "matrices" in json (its elements). */
typedef struct MatrixPick {
    const char *text;          /* the option's value */
    const Program *prog;
    bool *pcs;                 /* per pc: picked */
    uint64_t *placed_at;       /* per pc: the execution whose table of places was shown (0: none) */
    uint64_t want;             /* @N; 0: every execution (the first MATRIX_SHOWN) */
    uint64_t seen, shown;
    bool hex;                  /* --hex: bits, not values */
    FILE *out, *json;          /* json non-NULL: JSON elements there instead of tables on out */
    Progress *progress;        /* erased before a table */
} MatrixPick;
bool matview_open(MatrixPick *p, const Program *prog, const char *text, Msg *err);
void matview_execution(void *context, const MatrixView *v);   /* ExecOptions.on_matrix */
bool matview_wanted(void *context, uint32_t pc);               /* ExecOptions.matrix_wanted */
void matview_close(MatrixPick *p, FILE *err);
void matview_cell(char *buf, size_t size, const MatrixElement *e, int type, bool json, bool hex);
void matview_print_operands(FILE *out, const MatrixView *v, bool places, bool hex);
void matview_json_operands(FILE *out, const MatrixView *v);

/* checkstream.c: --check one function at a time, by up to readers threads at once (in_turn:
 * kernels dealt to them in turn, for tests); NULL: check the whole module instead (forget what
 * was reported) */
Module *checkstream_module(Source *src, Diag *diag, const CheckOptions *options, unsigned readers, bool in_turn);

/* runstream.c: a run's module, each function parsed and checked as it ends, only the kernel to
 * run (entry_choose's, from the names) and the .funcs kept; the checker's refusals held in r
 * (reach_hold: check's into r), and said by runstream_choose for what the kernel reaches, to
 * which it narrows m->functions until reach_release (api/reach.c); reach_refuse_all: all of them
 * (a module with errors). runstream_module gives NULL where the whole module must be read
 * instead (then reach_forget(r, 0) what was held), or where the choice of kernel was refused, said
 * on err (*refused); runstream_names (--list-kernels): the kernels' bodies skipped, NULL likewise. */
Module *runstream_module(Source *src, Diag *diag, const CheckOptions *check, const char *query, FILE *err,
                         KernelReach *r, bool *refused);
Module *runstream_names(Source *src, Diag *diag);
Function *runstream_choose(KernelReach *r, Module *m, Diag *diag, const char *query, FILE *err, bool *chosen);

/* entry.c: the kernel a name chooses (--entry, the expect file's "entry": the PTX name, the C++
 * name, or the start of it); false when it chooses none or several, or query is NULL and the
 * module has several kernels, said on err. *name: the kernel's PTX name (NULL: the only one, or
 * none). entry_list: --list-kernels, names and C++ names, a line or (json) an object each. */
bool entry_choose(const Module *m, const char *query, const char **name, FILE *err);
void entry_list(FILE *out, const Module *m, bool json);

/* driver.c */

typedef enum { MODE_RUN, MODE_CHECK, MODE_DUMP_IR, MODE_LIST_KERNELS } Mode;

typedef struct RunOptions {
    Mode mode;
    const char *path;
    const char *lanes;         /* --lanes FILE.json */
    const char *expect;        /* --expect FILE.json */
    const char *regs;          /* --regs A,B or all */
    const char *buffers;       /* --buffers A,B, all or none: the table's buffers */
    const char *cta;           /* --cta X,Y,Z or N: the CTA whose registers the table shows */
    bool all_ctas;             /* --all-ctas: --json has every CTA's registers */
    bool hex;                  /* --hex */
    const char *warps, *threads;   /* --warps 0,2-3, --threads 0-7: the table's rows */
    const char *entry;         /* --entry NAME (entry.c) */
    Launch launch;             /* --block, --grid, --param, --buffer ... */
    const char *save_buffers;  /* --save-buffers DIR */
    const char *matrix;        /* --matrix LINE[@N] (matview.c) */
    const char *trace_lines;   /* --trace-lines 120-130,kernel.cu:40 (resolved against the module's .file) */
    TraceFilter trace_filter;  /* --trace-ops (resolved when read); the driver adds the lines and --regs */
    bool json;
    bool color;
    bool no_warnings;
    Tolerance tolerance;       /* --expect within this (ptxrun test --differs) */
    FILE *kernel_out;          /* where the kernel's printf goes (NULL: the output stream) */
    ProgressMode progress;     /* a progress line on the error stream during a long run */
    CheckOptions check;
    ExecOptions exec;
} RunOptions;

int driver_run(const RunOptions *o, FILE *out, FILE *err);

/* testrun.c: `ptxrun test` (argv[0] is "test"). */
int test_main(int argc, char **argv);

/* exec.c: `ptxrun exec` (argv[0] is "exec"): returns only when the program could not be run. */
int exec_main(int argc, char **argv);

/* A case of `ptxrun test` and its outcome (testrun.c runs it, testreport.c reports it). */
typedef enum Outcome { CASE_FAILED, CASE_PASSED, CASE_NOT_YET, CASE_CLOSE, CASE_UNSUPPORTED } Outcome;

typedef struct TestCase {
    char *ptx;                 /* the file */
    char *lanes, *expect;      /* companions, or NULL */
    char *entry;               /* from the expect file */
    char *diagnostic;          /* text the messages must contain */
    char *want_stdout;         /* what the kernel must print, or NULL */
    int want_exit;
    int got_exit;
    char *output;              /* what the run printed on its error stream */
    char result_path[64];      /* where the child leaves it */
    char stdout_path[72];      /* and what the kernel printed, when want_stdout */
    pid_t pid;                 /* its process while it runs, else 0 */
    double seconds;
    bool listed;               /* in the --not-yet file */
    bool differs;              /* in the --differs file: compared within tol */
    Tolerance tol;
    Outcome outcome;
    Msg why;                   /* the first line of the failure, or why it is not yet executable */
} TestCase;

typedef struct TestCaseList {
    TestCase *items;
    uint32_t count, capacity;
} TestCaseList;


/* testfind.c: the cases of the folders and files given (with their companion files), each once;
 * -1, or the exit code after a message (a path that is not there, no case at all). */
int testfind_cases(TestCaseList *list, const char *const *paths, int count);

/* testreport.c */
void testreport_plain(const TestCaseList *list);
void testreport_tap(const TestCaseList *list);
bool testreport_junit(const TestCaseList *list, const char *path, unsigned failed, unsigned skipped, double seconds);

/* testshard.c: a share of the cases, for CI machines that each run one: the cases whose number
 * in byte order of their paths, mod count, is index. count 0: all. */
typedef struct Shard {
    uint32_t index, count;
} Shard;
bool testshard_parse(const char *text, Shard *s, Msg *err);   /* --shard K/N, K from 1 */
/* Bazel's TEST_TOTAL_SHARDS and TEST_SHARD_INDEX, unless s has a shard already; touches
 * TEST_SHARD_STATUS_FILE (sharding is supported). False with a message in err. */
bool testshard_environment(Shard *s, Msg *err);
void testshard_select(TestCaseList *list, const Shard *s, void (*drop)(TestCase *c));   /* the others dropped */

#endif
