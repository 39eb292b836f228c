/* diag.c: compiler-style diagnostics. Every message goes through diag_at, which counts it and
 * hands it to the sink: the default sink prints
 *     file:line:col: error: message
 *         the source line
 *         ^~~~
 * and tests install their own sink to assert on level, position and text. */
#include <stdlib.h>
#include <string.h>

#include "lexer.h"

static const char *const level_name[] = { "error", "warning", "note" };
static const char *const level_color[] = { "\033[1;31m", "\033[1;35m", "\033[1;36m" };

void diag_init(Diag *diag, Source *src, FILE *stream)
{
    memset(diag, 0, sizeof *diag);
    diag->src = src;
    diag->stream = stream;
    diag->max_errors = 50;
}

/* Bytes in a line that are one character on the terminal: a UTF-8 sequence, or one byte. */
static uint32_t char_length(const char *text, uint32_t available)
{
    size_t n = utf8_sequence_length(text, available);
    return n ? (uint32_t)n : 1;
}

/* The line as the terminal should show it: control characters (C0, C1, DEL), bidirectional
 * overrides and bytes that are not UTF-8 become '?', one column each, so that the caret line
 * below stays aligned. */
static void echo_line(FILE *out, const char *text, uint32_t len)
{
    for (uint32_t i = 0; i < len;) {
        unsigned char c = (unsigned char)text[i];
        size_t n = utf8_sequence_length(text + i, len - i);
        if (n > 1 && utf8_is_visible(text + i, n))
            fwrite(text + i, 1, n, out);
        else
            fputc(n == 1 && (utf8_is_visible(text + i, 1) || c == '\t') ? c : '?', out);
        i += n ? (uint32_t)n : 1;
    }
}

void diag_print(FILE *out, Source *src, DiagLevel level, Span at, const char *message, bool color)
{
    uint32_t line, column, line_len;
    source_position(src, at.offset, &line, &column);
    const char *text = source_line(src, line, &line_len);
    if (color)
        fprintf(out, "\033[1m%s:%u:%u: %s%s:\033[0m\033[1m %s\033[0m\n", src->name, line, column,
                level_color[level], level_name[level], message);
    else
        fprintf(out, "%s:%u:%u: %s: %s\n", src->name, line, column, level_name[level], message);

    /* The line, then a caret under the start and '~' under the rest of the span on this line.
     * Tabs are copied into the caret line so the caret stays aligned. A very long line is
     * cut to a window around the column. */
    enum { WINDOW = 120 };
    uint32_t col0 = column - 1;
    if (line_len > WINDOW) {
        uint32_t from = col0 > WINDOW / 2 ? col0 - WINDOW / 2 : 0;
        if (from > line_len - WINDOW)
            from = line_len - WINDOW;
        text += from;
        col0 -= from;
        line_len = WINDOW;
        if (at.length > WINDOW - col0)
            at.length = WINDOW - col0;
    }
    int width = line > 99999 ? snprintf(NULL, 0, "%u", line) : 5;
    fprintf(out, "%*u | ", width, line);
    echo_line(out, text, line_len);
    fprintf(out, "\n%*s | ", width, "");
    for (uint32_t i = 0; i < col0 && i < line_len; i += char_length(text + i, line_len - i))
        fputc(text[i] == '\t' ? '\t' : ' ', out);
    if (color)
        fputs("\033[1;32m", out);
    fputc('^', out);
    uint32_t span_end = col0 + (at.length ? at.length : 1);
    if (span_end > line_len)
        span_end = line_len > col0 ? line_len : col0 + 1;
    if (col0 < line_len)
        for (uint32_t i = col0 + char_length(text + col0, line_len - col0); i < span_end;
             i += char_length(text + i, line_len - i))
            fputc('~', out);
    else
        for (uint32_t i = col0 + 1; i < span_end; i++)
            fputc('~', out);
    if (color)
        fputs("\033[0m", out);
    fputc('\n', out);
}

void diag_vat(Diag *diag, DiagLevel level, Span at, const char *fmt, va_list ap)
{
    char small[1024], *message = small;      /* a longer message (long names) on the heap */
    va_list again;
    va_copy(again, ap);
    int len = vsnprintf(small, sizeof small, fmt, ap);
    if (len >= (int)sizeof small)
        vsnprintf(message = xmalloc((size_t)len + 1), (size_t)len + 1, fmt, again);
    va_end(again);
    if (level == DIAG_ERROR) {
        diag->errors++;
        if (diag->max_errors && diag->errors > diag->max_errors)
            goto out;               /* counted, not shown: the caller says how many */
    } else if (level == DIAG_WARNING) {
        diag->warnings++;
    }
    if (diag->emit)
        diag->emit(diag->context, diag, level, at, message);
    else
        diag_print(diag->stream, diag->src, level, at, message, diag->color);
out:
    if (message != small)
        free(message);
}

void diag_at(Diag *diag, DiagLevel level, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vat(diag, level, at, fmt, ap);
    va_end(ap);
}
