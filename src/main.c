/* main.c: the command line. run() is the whole pipeline in order:
 * read -> lex/parse -> check -> dump. Exit codes: 0 ok, 1 expectation mismatch,
 * 2 bad input or usage, 3 execution fault. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ptxrun.h"

enum { EXIT_OK = 0, EXIT_MISMATCH = 1, EXIT_BAD_INPUT = 2, EXIT_FAULT = 3 };

typedef enum { MODE_RUN, MODE_CHECK, MODE_DUMP_IR } Mode;

typedef struct Options {
    Mode mode;
    const char *path;
    const char *lanes;         /* --lanes FILE.json */
    const char *expect;        /* --expect FILE.json */
    const char *regs;          /* --regs A,B */
    const char *entry;         /* --entry NAME */
    bool json;
    bool color;
    bool no_warnings;
    CheckOptions check;
    ExecOptions exec;
} Options;

static const char usage[] =
    "usage: ptxrun [options] FILE.ptx      (FILE '-' reads standard input)\n"
    "\n"
    "Runs the kernel on one warp and prints the final registers and predicates.\n"
    "  --lanes FILE     initial state: {\"block\": [32,1,1], \"active\": \"0xffffffff\",\n"
    "                   \"regs\": {\"Rx\": [32 values] or one}, \"preds\": {\"p\": [32 bools] or one}}\n"
    "  --expect FILE    compare the final state with the keys in FILE (exit 1 on a mismatch)\n"
    "  --json           print the final state as JSON (valid --lanes input)\n"
    "  --regs A,B       show only these registers and predicates\n"
    "  --entry NAME     the kernel to run (default: the first .entry)\n"
    "  --trace          print each warp-step to standard error\n"
    "  --max-steps N    stop a runaway program after N warp-steps (default 100000000)\n"
    "  --strict         undefined values used as branch conditions, shift amounts or\n"
    "                   membermasks are errors (exit 3), not warnings\n"
    "\n"
    "  --check          parse and check; print diagnostics (exit 0 clean, 2 on errors)\n"
    "  --dump-ir        print the decoded program back as canonical PTX\n"
    "  --list-ops       print the instruction table (markdown) and exit\n"
    "  -w               suppress warnings\n"
    "  --color          color diagnostics (default: when stderr is a terminal)\n"
    "  --no-color       never color diagnostics\n"
    "  --help           this text\n"
    "\n"
    "A file of bare instructions (no .entry/.func) is a snippet: one implicit kernel whose\n"
    "registers need no declaration.\n"
    "Exit: 0 ok, 1 --expect mismatch, 2 bad input (PTX, JSON, options), 3 execution fault.\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("ptxrun: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(ptxrun --help lists the options)\n", stderr);
    return EXIT_BAD_INPUT;
}

/* Returns -1 to go on, or the exit code. */
static int parse_args(int argc, char **argv, Options *o)
{
    memset(o, 0, sizeof *o);
    o->check.warn_deprecated = true;
    o->exec.max_steps = 100000000;
    o->color = isatty(STDERR_FILENO) && getenv("NO_COLOR") == NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--check") == 0)
            o->mode = MODE_CHECK;
        else if (strcmp(a, "--dump-ir") == 0)
            o->mode = MODE_DUMP_IR;
        else if (!strcmp(a, "--lanes") || !strcmp(a, "--expect") || !strcmp(a, "--regs") ||
                 !strcmp(a, "--entry") || !strcmp(a, "--max-steps")) {
            if (i + 1 >= argc)
                return usage_error("'%s' needs a value", a);
            const char *v = argv[++i];
            if (!strcmp(a, "--lanes"))
                o->lanes = v;
            else if (!strcmp(a, "--expect"))
                o->expect = v;
            else if (!strcmp(a, "--regs"))
                o->regs = v;
            else if (!strcmp(a, "--entry"))
                o->entry = v;
            else {
                char *end;
                unsigned long long n = strtoull(v, &end, 10);
                if (*end || v[0] == '-' || !v[0] || n == 0)
                    return usage_error("--max-steps needs a positive number, not '%s'", v);
                o->exec.max_steps = n;
            }
        } else if (strcmp(a, "--json") == 0)
            o->json = true;
        else if (strcmp(a, "--trace") == 0)
            o->exec.trace = stderr;
        else if (strcmp(a, "--strict") == 0)
            o->exec.strict = true;
        else if (strcmp(a, "--list-ops") == 0) {
            ops_print_markdown(stdout);
            return EXIT_OK;
        } else if (strcmp(a, "-w") == 0)
            o->no_warnings = true;
        else if (strcmp(a, "--color") == 0)
            o->color = true;
        else if (strcmp(a, "--no-color") == 0)
            o->color = false;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            return EXIT_OK;
        } else if (a[0] == '-' && a[1] != '\0')
            return usage_error("unknown option '%s'", a);
        else if (o->path)
            return usage_error("more than one input file ('%s')", a);
        else
            o->path = a;
    }
    if (!o->path)
        return usage_error("%s", "no input file");
    return -1;
}

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

static void flush_held(HeldList *list, Diag *diag)
{
    if (list->count)
        qsort(list->items, list->count, sizeof *list->items, by_position);
    for (uint32_t i = 0; i < list->count; i++) {
        Held *h = &list->items[i];
        diag_print(diag->stream, diag->src, h->level, h->at, h->message, diag->color);
        free(h->message);
    }
    free(list->items);
    list->items = NULL;
    list->count = list->capacity = 0;
}

/* Loads the kernel, sets its lanes, runs it, prints the state; returns the exit code. */
static int execute(const Options *o, Module *m, Diag *diag, HeldList *held)
{
    Function *fn = exec_entry(m, o->entry);
    if (!fn) {
        if (o->entry)
            fprintf(stderr, "ptxrun: error: no kernel (.entry) named '%s'\n", o->entry);
        else
            fprintf(stderr, "ptxrun: error: nothing to run: the file has no .entry and no bare instructions\n");
        return EXIT_BAD_INPUT;
    }
    Warp *w = exec_load(m, fn, diag);
    if (!w) {
        flush_held(held, diag);
        return EXIT_BAD_INPUT;
    }
    char err[512];
    if ((o->lanes && lanes_load(w, o->lanes, err, sizeof err) != 0) || !lanes_params_given(w, err, sizeof err)) {
        fprintf(stderr, "ptxrun: error: %s\n", err);
        exec_free(w);
        return EXIT_BAD_INPUT;
    }
    int rc = exec_run(w, &o->exec) == EXEC_OK ? EXIT_OK : EXIT_FAULT;
    flush_held(held, diag);
    if (o->json)
        lanes_print_json(stdout, w);
    else
        lanes_print_table(stdout, w, o->regs);
    if (o->expect) {
        int mismatches = lanes_expect(stderr, w, o->expect, err, sizeof err);
        if (mismatches < 0) {
            fprintf(stderr, "ptxrun: error: %s\n", err);
            rc = EXIT_BAD_INPUT;
        } else if (mismatches > 0) {
            fprintf(stderr, "ptxrun: %d difference%s from %s\n", mismatches, mismatches == 1 ? "" : "s", o->expect);
            if (rc == EXIT_OK)
                rc = EXIT_MISMATCH;
        }
    }
    exec_free(w);
    return rc;
}

static int run(const Options *o)
{
    Source src;
    char err[512];
    if (source_load(&src, o->path, err, sizeof err) != 0) {
        fprintf(stderr, "ptxrun: error: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    Diag diag;
    diag_init(&diag, &src, stderr);
    diag.color = o->color;
    HeldList held = { .no_warnings = o->no_warnings };
    diag.emit = hold_diag;
    diag.context = &held;

    Module *m = parse_module(&src, &diag);
    check_module(m, &diag, &o->check);      /* also after syntax errors: report all at once */
    flush_held(&held, &diag);

    int rc = EXIT_OK;
    if (diag.errors) {
        fprintf(stderr, "%s: %u error%s", src.name, diag.errors, diag.errors == 1 ? "" : "s");
        if (diag.max_errors && diag.errors > diag.max_errors)
            fprintf(stderr, " (the first %u shown)", diag.max_errors);
        fputc('\n', stderr);
        rc = EXIT_BAD_INPUT;
    } else if (o->mode == MODE_DUMP_IR) {
        ir_print_module(stdout, m);
    } else if (o->mode == MODE_RUN) {
        rc = execute(o, m, &diag, &held);
    }
    module_free(m);
    source_free(&src);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "ptxrun: error: cannot write the output\n");
        rc = EXIT_BAD_INPUT;
    }
    return rc;
}

int main(int argc, char **argv)
{
    Options o;
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    return run(&o);
}
