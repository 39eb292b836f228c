/* checkstream.c: --check of a module as it is parsed, one function at a time. Each function is
 * checked when its body ends and, when it is a kernel that can be lowered then, lowered, and its
 * body let go; so a large module is checked in one pass, in memory that holds the module-scope
 * declarations and only the bodies kept (.funcs, kernels waiting for the end of the module).
 * The answer must be the whole module's (parse_module, check_module, lower_check_all), to the
 * message: wherever it could differ (any error, a snippet, a name declared again after it was
 * used), the caller is told to check the whole module instead.
 * A large module may be read by several readers at once, on threads: each parses the whole
 * module but the kernels of the others, which it skips unparsed (StreamHook.skip), and checks
 * and lowers its own. A kernel is the first reader's to come to it (a shared count of the
 * kernels taken), so a reader on a slower or busier core takes fewer. Every reader sees every
 * module-scope declaration, .func and kernel name, and so answers for its kernels what one
 * reader would; the whole module's answer is theirs together only where none has anything to
 * say. So readers give up at the first message any of them has: then one reader reads it all.
 * One lowering of a kernel with the whole module reports what any function or variable refuses;
 * the first reader with a kernel of its own to come to the end of the module does it.
 * Requires: parse_module_stream and the checker's and lower_check's streaming calls. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>

#include "cli.h"

enum { MAX_READERS = 8 };

typedef struct Streamed {
    Diag *diag;
    const CheckOptions *options;
    Checker *checker;          /* both made at the first function (they need the module) */
    LowerCheck *lower;
    unsigned reader, readers;  /* this reader's number, of how many (1: the module is its own) */
    bool in_turn;              /* kernels dealt in turn (tests), not to the first reader to come */
    uint32_t kernels;          /* kernels this reader has come to */
    uint64_t func_code;        /* instructions of the .funcs read so far */
    uint32_t len;              /* bytes of the module */
    atomic_uint_least32_t *taken;  /* kernels the readers have taken, all of them before the first not taken */
    atomic_bool *give_up;      /* set by a reader that cannot answer; all stop (NULL: one reader) */
    atomic_bool *whole_taken;  /* a reader has taken the whole module's lowering (NULL: one reader) */
} Streamed;

static bool giving_up(const Streamed *s)
{
    return s->give_up && atomic_load(s->give_up);
}

/* Bytes of kernels that take about as long to read as lowering the whole module takes, from
 * what it holds so far: its variables and the instructions of its .funcs (measured on nvcc's
 * kernels: about 80 and 20 bytes each). */
static uint64_t whole_lowering_bytes(const Streamed *s, const Module *m)
{
    return 80 * (uint64_t)m->globals.len + 20 * s->func_code;
}

/* Whether kernel f is another reader's: it is the first reader's to come to it that takes
 * kernels there. The first reader takes none near the end of the module, so that it comes to
 * the end first and lowers the whole module (stream) while the others read the last kernels;
 * the others take every kernel they come to that is not taken. So when one of them comes to
 * kernel i, every kernel before it has been taken, and kernel i is free just while *taken is
 * i; the first reader, until it stops taking kernels, finds the same. */
static bool not_mine(void *context, const Module *m, const Function *f)
{
    Streamed *s = context;
    if (s->readers < 2)
        return false;
    uint_least32_t i = s->kernels++;
    if (s->in_turn)
        return i % s->readers != s->reader;
    uint64_t tail = (s->readers - 1) * whole_lowering_bytes(s, m);
    if (s->reader == 0 && f->at.offset + (tail < s->len / 2 ? tail : s->len / 2) >= s->len)
        return true;
    return !atomic_compare_exchange_strong(s->taken, &i, i + 1);
}

static StreamVerdict function_done(void *context, Module *m, Function *f)
{
    Streamed *s = context;
    if (!s->checker) {
        s->checker = check_stream_new(m, s->diag, s->options);
        s->lower = lower_check_new(m, s->diag);
    }
    if (giving_up(s) || m->is_snippet || s->diag->errors || !check_stream_function(s->checker, f) ||
        s->diag->errors)
        return STREAM_STOP;
    if (!f->is_entry)
        s->func_code += f->code.len;
    bool lowered = lower_check_function(s->lower, f);
    if (s->diag->errors)
        return STREAM_STOP;
    return lowered ? STREAM_DROP : STREAM_KEEP;
}

/* Streams src through s; *same: the answer is the whole check's (for this reader's kernels). */
static Module *stream(Source *src, Streamed *s, bool *same)
{
    StreamHook hook = { function_done, not_mine, s };
    bool stopped = false;
    Module *m = parse_module_stream(src, s->diag, &hook, &stopped);
    if (!s->checker) {                          /* no function: nothing to stream */
        s->checker = check_stream_new(m, s->diag, s->options);
        s->lower = lower_check_new(m, s->diag);
    }
    *same = !stopped && !m->is_snippet && !s->diag->errors && !giving_up(s);
    *same &= check_stream_end(s->checker);
    bool whole = !s->whole_taken || (lower_check_waits(s->lower) && !atomic_exchange(s->whole_taken, true));
    *same = *same && !s->diag->errors && lower_check_end(s->lower, whole) && !s->diag->errors;
    lower_check_free(s->lower);
    return m;
}

typedef struct Reader {
    Streamed s;
    Diag diag;
    Source src;                /* the text shared, the table of lines (built on first use) not */
    Module *m;
    bool same;
} Reader;

/* Any message: this reader cannot answer alone, and no reader needs to go on. */
static void heard(void *context, Diag *diag, DiagLevel level, Span at, const char *message)
{
    (void)diag, (void)level, (void)at, (void)message;
    atomic_store((atomic_bool *)context, true);
}

static void *read_part(void *context)
{
    Reader *r = context;
    r->m = stream(&r->src, &r->s, &r->same);
    if (!r->same)
        atomic_store(r->s.give_up, true);
    if (r->s.reader != 0) {                    /* only the first reader's module is kept */
        module_free(r->m);
        r->m = NULL;
    }
    return NULL;
}

/* The module read by n readers (NULL where they could not answer: nothing was reported). */
static Module *split(Source *src, Diag *diag, const CheckOptions *options, unsigned n, bool in_turn)
{
    Reader r[MAX_READERS];
    pthread_t thread[MAX_READERS];
    atomic_bool give_up = false;
    atomic_uint_least32_t taken = 0;
    atomic_bool whole_taken = false;
    unsigned started = 1;
    for (unsigned k = 0; k < n; k++) {
        r[k] = (Reader){ .src = *src, .diag = *diag };
        r[k].diag.src = &r[k].src;
        r[k].diag.emit = heard;
        r[k].diag.context = &give_up;
        r[k].diag.errors = r[k].diag.warnings = 0;
        r[k].s = (Streamed){ .diag = &r[k].diag, .options = options, .reader = k, .readers = n,
                             .in_turn = in_turn, .len = src->len, .taken = &taken, .give_up = &give_up,
                             .whole_taken = &whole_taken };
    }
    for (; started < n && pthread_create(&thread[started], NULL, read_part, &r[started]) == 0; started++)
        ;
    if (started < n)                           /* a reader missing: its kernels would go unread */
        atomic_store(&give_up, true);
    read_part(&r[0]);
    for (unsigned k = 1; k < started; k++)
        pthread_join(thread[k], NULL);
    bool same = !atomic_load(&give_up) && source_unchanged(src);   /* (all read the same text) */
    for (unsigned k = 0; k < started; k++)
        same &= r[k].same && !r[k].diag.errors && !r[k].diag.warnings;
    if (!same)
        module_free(r[0].m);
    for (unsigned k = 0; k < n; k++)
        if (r[k].src.line_starts != src->line_starts)
            free(r[k].src.line_starts);
    if (!same)
        return NULL;
    r[0].m->src = src;
    return r[0].m;
}

/* Whether kernels make most of the module, judged on its first 2 MB line by line: a line that
 * starts with '.' outside braces begins a kernel (it names .entry), a .func or something else,
 * and the lines after it are its. Only kernels are shared out among readers: each parses every
 * .func and declaration, so that where those make most of a module, more readers would only do
 * the same work more times, in as much more memory. (A rough count: comments and strings are
 * not told apart; it decides nothing but whether to try readers.) */
static bool mostly_kernels(const Source *src)
{
    const char *p = src->text, *end = src->text + (src->len < (2u << 20) ? src->len : (2u << 20));
    size_t kernel = 0, other = 0;
    long depth = 0;
    bool in_kernel = false;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        eol = eol ? eol + 1 : end;
        bool top = depth <= 0;
        for (const char *q = p; (q = memchr(q, '{', (size_t)(eol - q))) != NULL; q++)
            depth++;
        for (const char *q = p; (q = memchr(q, '}', (size_t)(eol - q))) != NULL; q++)
            depth--;
        if (top && *p == '.') {
            const char *entry = memchr(p, '.', (size_t)(eol - p));
            in_kernel = false;
            for (; entry && !in_kernel; entry = memchr(entry + 1, '.', (size_t)(eol - entry - 1)))
                in_kernel = (size_t)(eol - entry) > 6 && memcmp(entry, ".entry", 6) == 0;
        }
        *(in_kernel ? &kernel : &other) += (size_t)(eol - p);
        p = eol;
    }
    return kernel > other;
}

/* The module checked (its kept bodies only), or NULL when the whole module must be checked
 * instead: then what was reported to diag is to be forgotten. readers > 1: try that many
 * readers first (they report nothing; where they cannot answer, one reader goes on), where
 * kernels make most of the module; in_turn deals them kernels in turn, so that which reader
 * reads which does not depend on how fast each goes (for tests). */
Module *checkstream_module(Source *src, Diag *diag, const CheckOptions *options, unsigned readers, bool in_turn)
{
    if (readers > MAX_READERS)
        readers = MAX_READERS;
    if (readers > 1 && mostly_kernels(src)) {
        Module *m = split(src, diag, options, readers, in_turn);
        if (m)
            return m;
    }
    Streamed s = { .diag = diag, .options = options, .readers = 1 };
    bool same;
    Module *m = stream(src, &s, &same);
    if (!same) {
        module_free(m);
        return NULL;
    }
    return m;
}
