/* main.c: the command line. run() is the whole pipeline in order:
 * read -> lex/parse -> check -> dump. Exit codes: 0 ok, 1 expectation mismatch,
 * 2 bad input or usage, 3 execution fault. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ptxrun.h"

enum { EXIT_OK = 0, EXIT_BAD_INPUT = 2 };

typedef enum { MODE_NONE, MODE_CHECK, MODE_DUMP_IR } Mode;

typedef struct Options {
    Mode mode;
    const char *path;
    bool color;
    bool no_warnings;
    CheckOptions check;
} Options;

static const char usage[] =
    "usage: ptxrun [options] FILE.ptx      (FILE '-' reads standard input)\n"
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
    "registers need no declaration.\n";

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
    o->color = isatty(STDERR_FILENO) && getenv("NO_COLOR") == NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--check") == 0)
            o->mode = MODE_CHECK;
        else if (strcmp(a, "--dump-ir") == 0)
            o->mode = MODE_DUMP_IR;
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
    char *message;
    uint32_t sequence;         /* keeps equal positions in the order reported */
} Held;

typedef struct HeldList {
    Held *items;
    uint32_t count, capacity;
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
    Held h = { level, at, memcpy(xmalloc(len), message, len), list->count };
    list->items[list->count++] = h;
}

static int by_position(const void *a, const void *b)
{
    const Held *x = a, *y = b;
    if (x->at.offset != y->at.offset)
        return x->at.offset < y->at.offset ? -1 : 1;
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
    } else if (o->mode == MODE_NONE) {
        fprintf(stderr, "ptxrun: error: this build cannot execute PTX yet; use --check or --dump-ir\n");
        rc = EXIT_BAD_INPUT;
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
