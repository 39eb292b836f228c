/* testutil.h: helpers shared by the libcheck suites: parse (and check) a string while
 * capturing diagnostics as "line:col: level: message" lines, and run a suite. */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct Captured {
    char text[16384];
    size_t len;
    unsigned count;
} Captured;

static inline void capture_diag(void *context, Diag *diag, DiagLevel level, Span at, const char *message)
{
    static const char *const names[] = { "error", "warning", "note" };
    Captured *cap = context;
    uint32_t line, column;
    source_position(diag->src, at.offset, &line, &column);
    if (cap->len < sizeof cap->text)
        cap->len += (size_t)snprintf(cap->text + cap->len, sizeof cap->text - cap->len, "%u:%u: %s: %s\n",
                                     line, column, names[level], message);
    cap->count++;
}

/* A parsed (and optionally checked) text with everything it owns. */
typedef struct Parsed {
    Source src;
    Diag diag;
    Captured cap;
    Module *m;
} Parsed;

static inline Parsed *parse_text(const char *text, bool run_check)
{
    Parsed *p = calloc(1, sizeof *p);
    source_from_string(&p->src, "test.ptx", text, strlen(text));
    diag_init(&p->diag, &p->src, stderr);
    p->diag.emit = capture_diag;
    p->diag.context = &p->cap;
    p->m = parse_module(&p->src, &p->diag);
    if (run_check)
        check_module(p->m, &p->diag, NULL);
    return p;
}

static inline void parsed_free(Parsed *p)
{
    module_free(p->m);
    source_free(&p->src);
    free(p);
}

/* Parses and checks text, which must have no errors; returns it. */
static inline Parsed *parse_ok(const char *text)
{
    Parsed *p = parse_text(text, true);
    ck_assert_msg(p->diag.errors == 0, "unexpected diagnostics:\n%s", p->cap.text);
    return p;
}

/* A text ready to run: parsed, checked, its first function loaded as a block. */
typedef struct Loaded {
    Parsed *p;
    Block *b;
    Warp *w;                   /* the block's first warp */
    int status;
} Loaded;

static inline Loaded *loaded_new(const char *text)
{
    Loaded *r = calloc(1, sizeof *r);
    r->p = parse_ok(text);
    r->b = block_load(r->p->m, r->p->m->functions.data[0], &r->p->diag, DEFAULT_STACK_BYTES);
    ck_assert_msg(r->b != NULL, "not loadable:\n%s", r->p->cap.text);
    r->w = r->b->warps[0];
    return r;
}

static inline void loaded_free(Loaded *r)
{
    block_free(r->b);
    parsed_free(r->p);
    free(r);
}

/* The row of the register NAME of the warp's function. */
static inline uint32_t reg_index(const Warp *w, const char *name)
{
    const Function *f = w->prog->fn;
    for (uint32_t i = 0; i < f->regs.len; i++)
        if (strcmp(f->regs.data[i].name, name) == 0)
            return i;
    ck_abort_msg("no register %s", name);
    return 0;
}

static inline Function *function_named(Module *m, const char *name)
{
    for (uint32_t i = 0; i < m->functions.len; i++)
        if (strcmp(m->functions.data[i]->name, name) == 0)
            return m->functions.data[i];
    ck_abort_msg("no function '%s'", name);
    return NULL;
}

static inline int run_suite(Suite *s)
{
    SRunner *runner = srunner_create(s);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
