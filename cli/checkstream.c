/* checkstream.c: --check of a module as it is parsed, one function at a time. Each function is
 * checked when its body ends and, when it is a kernel that can be lowered then, lowered, and its
 * body let go; so a large module is checked in one pass, in memory that holds the module-scope
 * declarations and only the bodies kept (.funcs, kernels waiting for the end of the module).
 * The answer must be the whole module's (parse_module, check_module, lower_check_all), to the
 * message: wherever it could differ (any error, a snippet, a name declared again after it was
 * used), the caller is told to check the whole module instead.
 * Requires: parse_module_stream and the checker's and lower_check's streaming calls. */
#include "cli.h"

typedef struct Streamed {
    Diag *diag;
    const CheckOptions *options;
    Checker *checker;          /* both made at the first function (they need the module) */
    LowerCheck *lower;
} Streamed;

static StreamVerdict function_done(void *context, Module *m, Function *f)
{
    Streamed *s = context;
    if (!s->checker) {
        s->checker = check_stream_new(m, s->diag, s->options);
        s->lower = lower_check_new(m, s->diag);
    }
    if (m->is_snippet || s->diag->errors || !check_stream_function(s->checker, f) || s->diag->errors)
        return STREAM_STOP;
    bool lowered = lower_check_function(s->lower, f);
    if (s->diag->errors)
        return STREAM_STOP;
    return lowered ? STREAM_DROP : STREAM_KEEP;
}

/* The module checked (its kept bodies only), or NULL when the whole module must be checked
 * instead: then what was reported to diag is to be forgotten. */
Module *checkstream_module(Source *src, Diag *diag, const CheckOptions *options)
{
    Streamed s = { diag, options, NULL, NULL };
    StreamHook hook = { function_done, &s };
    bool stopped = false;
    Module *m = parse_module_stream(src, diag, &hook, &stopped);
    if (!s.checker) {                          /* no function: nothing to stream */
        s.checker = check_stream_new(m, diag, options);
        s.lower = lower_check_new(m, diag);
    }
    bool same = !stopped && !m->is_snippet && !diag->errors;
    same &= check_stream_end(s.checker);
    same = same && !diag->errors && lower_check_end(s.lower) && !diag->errors;
    lower_check_free(s.lower);
    if (!same) {
        module_free(m);
        return NULL;
    }
    return m;
}
