/* runstream.c: the module a run needs, read one function at a time as it is parsed, so that a
 * run takes memory for the declarations, the .funcs and its kernel, not for the other kernels.
 * The kernel is chosen from the kernels' names (runstream_names: every kernel's body skipped
 * unparsed, every function let go), so that a missing or unclear --entry, and --list-kernels,
 * cost a pass of the lexer. Then every function is parsed and checked (the module must be valid
 * PTX: a GPU loads all of it), each let go once checked, but for the kernel and the .funcs when
 * no other kernel follows the kernel; where one does, they are read again in a last pass that
 * skips the other kernels' bodies. So at most one kernel's body is held at a time.
 * The checker's refusals ("ptxrun cannot execute ... yet") are held, not said: once the kernel
 * is chosen, those of the functions it may reach (lower_reached) are said, as errors, and the
 * functions given to the lowering are those (runstream_choose); those of a function let go go
 * with it. A module with errors is refused with every refusal said, as --check says them.
 * Wherever the answer could differ from the whole module's (an error, a snippet, a name
 * declared again after use), runstream_module gives NULL and the driver parses and checks the
 * whole module, with the refusals held as here.
 * Requires: parse_module_stream, the checker's streaming calls, entry.c, lower_reached. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static char *copy(const char *text)
{
    size_t len = strlen(text) + 1;
    return memcpy(xmalloc(len), text, len);
}

typedef struct Stream {
    Diag *diag;
    const CheckOptions *options;
    Checker *checker;          /* made at the first function (it needs the module) */
    KernelReach *r;
    char *name;                /* the kernel to run (NULL: none) */
    bool keep;                 /* its body and the .funcs' kept (false: every function let go) */
    bool others_skipped;       /* the other kernels' bodies not read (checked already) */
} Stream;

static bool other_kernel(void *context, const Module *m, const Function *f)
{
    Stream *s = context;
    (void)m;
    return s->others_skipped && (!s->name || strcmp(f->name, s->name) != 0);
}

static StreamVerdict function_done(void *context, Module *m, Function *f)
{
    Stream *s = context;
    if (!s->checker)
        s->checker = check_stream_new(m, s->diag, s->options);
    uint32_t held = s->r->len;
    if (m->is_snippet || s->diag->errors || !check_stream_function(s->checker, f) || s->diag->errors)
        return STREAM_STOP;
    bool kept = s->keep && (!f->is_entry || !f->has_body || (s->name && !strcmp(f->name, s->name)));
    if (!kept)
        reach_forget(s->r, held);          /* its refusals go with it */
    return kept ? STREAM_KEEP : STREAM_DROP;
}

/* One pass of s over src: the module, or NULL where it cannot answer alone. */
static Module *stream(Source *src, Stream *s)
{
    StreamHook hook = { function_done, other_kernel, s };
    bool stopped = false;
    Module *m = parse_module_stream(src, s->diag, &hook, &stopped);
    if (!s->checker)                           /* no function */
        s->checker = check_stream_new(m, s->diag, s->options);
    bool same = !stopped && !m->is_snippet && !s->diag->errors;
    same &= check_stream_end(s->checker);
    if (same && !s->diag->errors)
        return m;
    module_free(m);
    return NULL;
}

static void ignore(void *context, Diag *diag, DiagLevel level, Span at, const char *message)
{
    (void)context, (void)diag, (void)level, (void)at, (void)message;
}

/* diag for a pass whose messages another pass says: counted, not said */
static Diag quiet(const Diag *diag)
{
    Diag q = *diag;
    q.emit = ignore;
    q.errors = q.warnings = 0;
    return q;
}

/* Three passes at most: the kernels' names (their bodies skipped), which choose the kernel;
 * every function checked, the kernel kept if no other kernel follows it (the others let go as
 * they are checked, so that at most one body is held with none kept); else a last pass that
 * reads only the declarations, the .funcs and the kernel, again (its messages were said). */
Module *runstream_module(Source *src, Diag *diag, const CheckOptions *check, const char *query, FILE *err,
                         KernelReach *r, bool *refused)
{
    *refused = false;
    Diag names_diag = quiet(diag);
    Module *names = runstream_names(src, &names_diag);
    const char *name = NULL;
    if (!names)
        return NULL;
    if (!entry_choose(names, query, &name, err)) {
        module_free(names);
        *refused = true;
        return NULL;
    }
    Stream s = { diag, check, NULL, r, NULL, true, false };
    for (uint32_t i = 0; i < names->functions.len; i++) {
        const Function *f = names->functions.data[i];
        if (!f->is_entry || !f->has_body)
            continue;
        if (s.name)
            s.keep = false;                    /* a kernel follows it */
        else if (!name || !strcmp(f->name, name))
            s.name = copy(f->name);
    }
    module_free(names);
    Module *m = stream(src, &s);
    if (m && !s.keep) {
        module_free(m);
        reach_forget(r, 0);
        Diag again = quiet(diag);
        s = (Stream){ &again, check, NULL, r, s.name, true, true };
        m = stream(src, &s);
    }
    free(s.name);
    return m;
}

static bool skip_body(void *context, const Module *m, const Function *f)
{
    (void)context, (void)m, (void)f;
    return true;
}

static StreamVerdict let_go(void *context, Module *m, Function *f)
{
    (void)context, (void)f;
    return m->is_snippet ? STREAM_STOP : STREAM_DROP;
}

Module *runstream_names(Source *src, Diag *diag)
{
    StreamHook hook = { let_go, skip_body, NULL };
    bool stopped = false;
    Module *m = parse_module_stream(src, diag, &hook, &stopped);
    if (!stopped && !m->is_snippet && !diag->errors)
        return m;
    module_free(m);
    return NULL;
}

Function *runstream_choose(KernelReach *r, Module *m, Diag *diag, const char *query, FILE *err, bool *chosen)
{
    const char *name;
    *chosen = entry_choose(m, query, &name, err);
    Function *fn = *chosen ? lower_entry(m, name) : NULL;
    if (!fn) {
        reach_forget(r, 0);
        return NULL;
    }
    if (fn->dropped)
        BUG("runstream_choose: the kernel chosen was let go");
    uint32_t count;
    Function **reached = reach_of_kernel(r, m, fn, diag, &count);
    reach_forget(r, 0);
    reach_narrow(r, m, reached, count);        /* lowered from these only */
    return fn;
}
