/* progress.c: the progress line of a long run on standard error: the driver's (CTAs done, warp-
 * steps per second) and `ptxrun test`'s (cases done). It shows once the run has gone on for a
 * second, when the stream is a terminal, is rewritten in place ('\r') at most ten times a second
 * and is erased at the end, so that nothing of it stays in the terminal or reaches a file.
 * PTXRUN_PROGRESS=1 shows it whatever the stream, from the start (for tests of its format);
 * PTXRUN_PROGRESS=0 never. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

ProgressMode progress_mode(FILE *stream)
{
    const char *forced = getenv("PTXRUN_PROGRESS");
    if (forced && !strcmp(forced, "1"))
        return PROGRESS_FORCED;
    if (forced && !strcmp(forced, "0"))
        return PROGRESS_OFF;
    return isatty(fileno(stream)) ? PROGRESS_TERMINAL : PROGRESS_OFF;
}

void progress_start(Progress *p, FILE *out, ProgressMode mode)
{
    memset(p, 0, sizeof *p);
    p->out = out;
    p->mode = mode;
    p->start = seconds_now();
    p->last = -1;
}

void progress_show(Progress *p, const char *fmt, ...)
{
    if (p->mode == PROGRESS_OFF)
        return;
    double now = seconds_now();
    if ((p->mode == PROGRESS_TERMINAL && now - p->start < 1.0) || (p->last >= 0 && now - p->last < 0.1))
        return;
    p->last = now;
    fputs("\rptxrun", p->out);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(p->out, fmt, ap);
    va_end(ap);
    fputs("\033[K", p->out);               /* the rest of a longer line before it */
    fflush(p->out);
    p->shown = true;
}

double progress_seconds(const Progress *p)
{
    return seconds_now() - p->start;
}

void progress_erase(Progress *p)
{
    if (!p->shown)
        return;
    fputs("\r\033[K", p->out);
    fflush(p->out);
    p->shown = false;
}
