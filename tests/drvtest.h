/* drvtest.h: what the tests of ptxrun's CUDA driver share (check_cudrv, check_cudrvtmap,
 * check_cudatex): cuInit and a context, the driver's report stream going to a file of the test's
 * own (PTXRUN_REPORT), read back as text. Include after <check.h> and cudrv.h. */
#ifndef PTXRUN_DRVTEST_H
#define PTXRUN_DRVTEST_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define OK(call) ck_assert_int_eq((call), CUDA_SUCCESS)
#define FAILS(call, error) ck_assert_int_eq((call), (error))

static char drvtest_report_path[64];

/* cuInit and a context made current; what the driver reports goes to /tmp/NAME.PID.report. */
static inline CUcontext drvtest_start(const char *name)
{
    snprintf(drvtest_report_path, sizeof drvtest_report_path, "/tmp/%s.%d.report", name, (int)getpid());
    unlink(drvtest_report_path);
    setenv("PTXRUN_REPORT", drvtest_report_path, 1);
    OK(cuInit(0));
    CUcontext c;
    OK(cuCtxCreate_v2(&c, 0, 0));
    return c;
}

/* What the report stream got so far (a static buffer). */
static inline const char *report(void)
{
    static char text[65536];
    FILE *f = fopen(drvtest_report_path, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[n] = '\0';
    if (f)
        fclose(f);
    return text;
}

static inline void finish(CUcontext c)
{
    OK(cuCtxDestroy_v2(c));
    unlink(drvtest_report_path);
}

#endif
