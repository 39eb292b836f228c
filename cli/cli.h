/* cli.h: the command line around the executor: the lanes file in, the table and JSON out,
 * --expect, one run of the whole pipeline (driver.c) and `ptxrun test`. */
#ifndef PTXRUN_CLI_H
#define PTXRUN_CLI_H

#include "exec.h"

/* lanes.c: --lanes JSON in. The json_t values are jansson's. */
struct json_t;
int lanes_load(Block *b, const char *path, char *err, size_t errlen);
bool lanes_params_given(Block *b, char *err, size_t errlen);
/* images.c: the lanes file's "surfaces", "textures" and "samplers"; the handle "@name" gives. */
bool images_load(Block *b, const char *path, struct json_t *v, bool surface, char *err, size_t errlen);
bool images_load_samplers(Block *b, const char *path, struct json_t *v, char *err, size_t errlen);
bool images_handle(const Block *b, const char *name, uint64_t *handle);
bool images_program_samplers(Block *b, const char *path, char *err, size_t errlen);
/* imageinit.c: the program's .texref/.surfref initializer of the image's name applied to im (the
 * lanes file gave "filter", "normalized_coords", "address" where the flags say so) */
bool image_initializer(const Block *b, Image *im, bool filter_given, bool normalized_given, bool address_given,
                       const char *where, char *err, size_t errlen);
struct json_t *lanes_load_json(const char *path, char *err, size_t errlen);   /* a JSON object, or NULL */
/* values.c: a JSON document whose integers may reach 2^64 - 1 (lanes_value_bits reads them) */
struct json_error_t;
struct json_t *values_load_json(FILE *f, struct json_error_t *e);
bool lanes_value_bits(struct json_t *v, int type, uint64_t *bits, uint64_t *dbits, char *err, size_t errlen);  /* dbits: defined bits */
bool b128_json_bits(struct json_t *v, uint64_t bits[2], uint64_t dbits[2], char *err, size_t errlen);  /* b128.c: a .b128 value */
bool lanes_pred_value(struct json_t *v, bool *value, bool *defined, char *err, size_t errlen);
bool lanes_parse_mask(struct json_t *v, uint32_t *mask);
bool lanes_lookup(const Block *b, const char *path, const char *section, const char *name, bool want_pred,
                  uint32_t *slot, int *type, char *err, size_t errlen);
bool lanes_array_size_ok(const Block *b, size_t n);
const char *lanes_array_size_text(const Block *b, char *buf, size_t size);

/* dump.c: the final state out as a table or JSON. */
void dump_print_table(FILE *out, const Block *b, const char *only, const bool *shown);   /* shown: NULL, all */
bool dump_select(const Block *b, const char *warps, const char *threads, bool *shown, char *err, size_t errlen);
/* --regs A,B: every name a register or predicate of the kernel; else an error listing close ones */
bool dump_check_regs(const Block *b, const char *only, char *err, size_t errlen);
void dump_print_json(FILE *out, const Block *b, const char *printed, size_t printed_len);  /* printed: the kernel's text, or NULL */
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
int expect_compare(FILE *out, const Block *b, const char *path, const Tolerance *tol, char *err, size_t errlen);

/* srcline.c: CUDA source lines (.file/.loc) in the notes after run-time diagnostics; the
 * --trace-ops and --trace-lines filters. */
typedef struct SourceMap SourceMap;
SourceMap *srcline_open(const Module *m, const char *ptx_path);
void srcline_note(SourceMap *s, FILE *out, Span at, bool color);   /* s NULL: nothing */
void srcline_free(SourceMap *s);
bool srcline_trace_ops(TraceFilter *f, const char *list, char *err, size_t errlen);
bool srcline_trace_lines(TraceFilter *f, const Module *m, const char *list, char *err, size_t errlen);

/* driver.c */

typedef enum { MODE_RUN, MODE_CHECK, MODE_DUMP_IR } Mode;

typedef struct RunOptions {
    Mode mode;
    const char *path;
    const char *lanes;         /* --lanes FILE.json */
    const char *expect;        /* --expect FILE.json */
    const char *regs;          /* --regs A,B */
    const char *warps, *threads;   /* --warps 0,2-3, --threads 0-7: the table's rows */
    const char *entry;         /* --entry NAME */
    const char *trace_lines;   /* --trace-lines 120-130,kernel.cu:40 (resolved against the module's .file) */
    TraceFilter trace_filter;  /* --trace-ops (resolved when read); the driver adds the lines and --regs */
    bool json;
    bool color;
    bool no_warnings;
    Tolerance tolerance;       /* --expect within this (ptxrun test --differs) */
    FILE *kernel_out;          /* where the kernel's printf goes (NULL: the output stream) */
    CheckOptions check;
    ExecOptions exec;
} RunOptions;

int driver_run(const RunOptions *o, FILE *out, FILE *err);

/* testrun.c: `ptxrun test` (argv[0] is "test"). */
int test_main(int argc, char **argv);

#endif
