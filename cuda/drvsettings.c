/* drvsettings.c: the driver's settings, from the environment (a CUDA program cannot be given
 * options), read once at cuInit: PTXRUN_ARCH, PTXRUN_STRICT, PTXRUN_JOBS, PTXRUN_REPORT,
 * PTXRUN_TRACE (docs/cuda.md, "Driver API"). A bad value is said on stderr, naming the variable,
 * and cuInit fails: never a silent default. Requires: cuda.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"

enum { MAX_JOBS = 1024 };

static bool bad(const char *name, const char *value, const char *want)
{
    fprintf(stderr, "ptxrun's libcuda: %s='%s': %s\n", name, value, want);
    return false;
}

/* A number of up to 3 digits after "sm_" (sm_90, sm_80, sm_100); 'a'/'f' suffixes taken off. */
static bool read_arch(const char *v, unsigned *arch)
{
    if (strncmp(v, "sm_", 3) != 0 && strncmp(v, "compute_", 8) != 0)
        return false;
    const char *d = v + (v[0] == 's' ? 3 : 8);
    unsigned n = 0, digits = 0;
    while (*d >= '0' && *d <= '9' && digits < 4) {
        n = n * 10 + (unsigned)(*d++ - '0');
        digits++;
    }
    if (*d == 'a' || *d == 'f')
        d++;
    if (*d || digits < 2 || digits > 3 || n < 50)
        return false;
    *arch = n;
    return true;
}

static FILE *open_append(const char *name, const char *path)
{
    FILE *f = fopen(path, "a");
    if (!f)
        fprintf(stderr, "ptxrun's libcuda: %s='%s': cannot open it to append: %s\n", name, path, strerror(errno));
    return f;
}

bool drvsettings_read(DrvSettings *s)
{
    *s = (DrvSettings){ .arch = 90, .report = stderr };
    const char *v = getenv("PTXRUN_ARCH");
    if (v && *v && !read_arch(v, &s->arch))
        return bad("PTXRUN_ARCH", v, "expected sm_XX, such as sm_90 (the default) or sm_80");
    v = getenv("PTXRUN_STRICT");
    if (v && *v) {
        if (strcmp(v, "0") && strcmp(v, "1"))
            return bad("PTXRUN_STRICT", v, "expected 1 (undefined values are faults) or 0");
        s->strict = v[0] == '1';
    }
    v = getenv("PTXRUN_JOBS");
    if (v && *v) {
        char *end;
        errno = 0;
        unsigned long n = strtoul(v, &end, 10);
        if (*end || errno || n < 1 || n > MAX_JOBS || v[0] == '-' || v[0] == '+')
            return bad("PTXRUN_JOBS", v, "expected a number of threads from 1 to 1024");
        s->jobs = (unsigned)n;
    }
    v = getenv("PTXRUN_REPORT");
    if (v && *v && strcmp(v, "stderr")) {
        if (!strcmp(v, "none"))
            s->report = NULL;
        else if (!(s->report = open_append("PTXRUN_REPORT", v)))
            return false;
    }
    v = getenv("PTXRUN_TRACE");
    if (v && *v && !(s->trace = open_append("PTXRUN_TRACE", v))) {
        drvsettings_close(s);
        return false;
    }
    return true;
}

void drvsettings_close(DrvSettings *s)
{
    if (s->report && s->report != stderr)
        fclose(s->report);
    if (s->trace)
        fclose(s->trace);
    s->report = s->trace = NULL;
}
