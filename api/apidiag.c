/* apidiag.c: the pipeline's messages (the checker's, the lowering's, the executor's faults and
 * warnings) handed to the caller's ptxrun_callbacks.diagnostic: the message, its PTX place, the
 * CUDA place of its instruction (nvcc -lineinfo's .loc) and its text as the command line shows
 * it. Reads the module and a launch's program, writes nothing of theirs: launches on several
 * threads each have their own ApiDiag. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

/* The instruction of the launch's program whose statement holds offset, or NULL. */
static const Instr *instr_at(const Program *p, uint32_t offset)
{
    for (uint32_t i = 0; p && i < p->code_len; i++) {
        const Instr *in = p->code[i].ir;
        if (in && offset >= in->stmt_at.offset &&
            offset < in->stmt_at.offset + (in->stmt_at.length ? in->stmt_at.length : 1))
            return in;
    }
    return NULL;
}

/* The path a .file gives (without its quotes) of the .loc's file number, a new string; NULL. */
static char *cuda_path(const Module *m, uint32_t number)
{
    for (uint32_t k = 0; m && k < m->files.len; k++) {
        if (m->files.data[k].number != number)
            continue;
        const char *p = m->files.data[k].path, *from = p[0] == '"' ? p + 1 : p;
        size_t len = strlen(from);
        if (len && from != p && from[len - 1] == '"')
            len--;
        char *out = xmalloc(len + 1);
        memcpy(out, from, len);
        out[len] = '\0';
        return out;
    }
    return NULL;
}

static void hand_over(ApiDiag *d, DiagLevel level, const Span *at, const char *message)
{
    if (level == DIAG_ERROR && !strncmp(message, "ptxrun cannot execute", 21))
        d->unsupported++;
    if (!d->callbacks || !d->callbacks->diagnostic)
        return;
    ptxrun_diagnostic out = { level == DIAG_ERROR ? PTXRUN_ERROR : level == DIAG_WARNING ? PTXRUN_WARNING
                                                                                        : PTXRUN_NOTE,
                              message, NULL, d->file, 0, 0, NULL, 0, 0 };
    char *text = NULL, *cuda = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (at) {
        source_position(d->diag.src, at->offset, &out.line, &out.column);
        const Instr *in = instr_at(d->prog, at->offset);
        if (in && in->loc_line && (cuda = cuda_path(d->m, in->loc_file))) {
            out.cuda_file = cuda;
            out.cuda_line = in->loc_line;
            out.cuda_column = in->loc_col;
        }
    }
    if (f) {
        if (at)
            diag_print(f, d->diag.src, level, *at, message, false);
        else
            fprintf(f, "ptxrun: %s: %s\n", level == DIAG_ERROR ? "error" : level == DIAG_WARNING ? "warning" : "note",
                    message);
        if (out.cuda_file && out.cuda_column)
            fprintf(f, "%s:%u:%u: note: in the CUDA source\n", out.cuda_file, out.cuda_line, out.cuda_column);
        else if (out.cuda_file)
            fprintf(f, "%s:%u: note: in the CUDA source\n", out.cuda_file, out.cuda_line);
        fclose(f);
    }
    out.text = text ? text : message;
    d->callbacks->diagnostic(d->callbacks->context, &out);
    free(text);
    free(cuda);
}

static void emit(void *context, Diag *diag, DiagLevel level, Span at, const char *message)
{
    (void)diag;
    hand_over(context, level, &at, message);
}

void apidiag_init(ApiDiag *d, Source *src, const char *file, const Module *m, const ptxrun_callbacks *callbacks)
{
    memset(d, 0, sizeof *d);
    diag_init(&d->diag, src, NULL);
    d->diag.emit = emit;
    d->diag.context = d;
    d->callbacks = callbacks;
    d->file = file;
    d->m = m;
}

void apidiag_say(ApiDiag *d, int level, const char *fmt, ...)
{
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *message = xmalloc(len > 0 ? (size_t)len + 1 : 1);
    vsnprintf(message, len > 0 ? (size_t)len + 1 : 1, fmt, again);
    va_end(again);
    DiagLevel l = level == PTXRUN_ERROR ? DIAG_ERROR : level == PTXRUN_WARNING ? DIAG_WARNING : DIAG_NOTE;
    if (l == DIAG_ERROR)
        d->diag.errors++;
    else if (l == DIAG_WARNING)
        d->diag.warnings++;
    hand_over(d, l, NULL, message);
    free(message);
}
