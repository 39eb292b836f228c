/* check.h: what every program of tests/cuda shares: a PASS or FAIL line for each check, a count
 * at the end, and the exit status (0 when every check passed). The expected values are computed
 * by the program on the host, never taken from a run. */
#ifndef TESTS_CUDA_CHECK_H
#define TESTS_CUDA_CHECK_H

#include <cuda_runtime.h>
#include <stdio.h>

static int check_passed, check_failed;

/* One check: cond true is a PASS line, false a FAIL line with the text after it. */
#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (cond) {                                                             \
            check_passed++;                                                     \
            printf("PASS ");                                                    \
        } else {                                                                \
            check_failed++;                                                     \
            printf("FAIL ");                                                    \
        }                                                                       \
        printf(__VA_ARGS__);                                                    \
        printf("\n");                                                           \
    } while (0)

/* A runtime call that must return want: its error's name in the line when it does not. */
#define CHECK_ERR(call, want)                                                   \
    do {                                                                        \
        cudaError_t check_err_ = (call);                                        \
        CHECK(check_err_ == (want), "%s -> %s", #call,                          \
              cudaGetErrorName(check_err_));                                    \
    } while (0)

#define CHECK_OK(call) CHECK_ERR(call, cudaSuccess)

/* The last line, and main's return value. */
static int check_report(const char *program)
{
    printf("%s: %d passed, %d failed\n", program, check_passed, check_failed);
    fflush(stdout);
    return check_failed != 0 || check_passed == 0;
}

#endif
