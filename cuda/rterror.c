/* rterror.c: the runtime's errors: names and texts of every cudaError_t (rterrors.def), the
 * driver's results mapped to them, the thread's last error and the process's sticky fault, and the
 * messages of what ptxrun does not do. The bottom of the runtime: it calls no other rt file. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt.h"

typedef struct RtErrorText {
    cudaError_t code;
    const char *name, *text;
} RtErrorText;

static const RtErrorText rt_errors[] = {
#define RT_ERROR(name, value, text) { name, #name, text },
#include "rterrors.def"
#undef RT_ERROR
};

static const RtErrorText *error_text(int code)
{
    for (size_t i = 0; i < sizeof rt_errors / sizeof rt_errors[0]; i++)
        if ((int)rt_errors[i].code == code)
            return &rt_errors[i];
    return NULL;
}

/* The thread's last error (cudaGetLastError), and the sticky fault of the process's context: a
 * kernel's fault breaks the context for every thread, as on a GPU. */
static _Thread_local cudaError_t last_error;
static cudaError_t sticky_error;
static pthread_mutex_t sticky_lock = PTHREAD_MUTEX_INITIALIZER;

/* The driver's results have the runtime's numbers wherever the two name one failure (CUDA made
 * them so: CUDA_ERROR_ILLEGAL_ADDRESS and cudaErrorIllegalAddress are both 700); a result the
 * runtime has no name for is cudaErrorUnknown. */
cudaError_t rt_error_of(CUresult r)
{
    if (r == CUDA_SUCCESS)
        return cudaSuccess;
    const RtErrorText *t = error_text((int)r);
    return t ? t->code : cudaErrorUnknown;
}

/* The faults a kernel leaves its context with (the context cannot be used after them). */
bool rt_is_sticky(cudaError_t e)
{
    switch (e) {
    case cudaErrorIllegalAddress: case cudaErrorLaunchTimeout: case cudaErrorAssert:
    case cudaErrorHardwareStackError: case cudaErrorIllegalInstruction: case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace: case cudaErrorInvalidPc: case cudaErrorLaunchFailure:
    case cudaErrorECCUncorrectable: case cudaErrorContained: case cudaErrorTensorMemoryLeak:
        return true;
    default:
        return false;
    }
}

cudaError_t rt_fail(cudaError_t e)
{
    if (e != cudaSuccess) {
        last_error = e;
        if (rt_is_sticky(e)) {
            pthread_mutex_lock(&sticky_lock);
            if (sticky_error == cudaSuccess)
                sticky_error = e;
            pthread_mutex_unlock(&sticky_lock);
        }
    }
    return e;
}

cudaError_t rt_return(CUresult r)
{
    return rt_fail(rt_error_of(r));
}

void rt_forget_sticky(void)
{
    pthread_mutex_lock(&sticky_lock);
    sticky_error = cudaSuccess;
    pthread_mutex_unlock(&sticky_lock);
    last_error = cudaSuccess;
}

cudaError_t rt_sticky(void)
{
    pthread_mutex_lock(&sticky_lock);
    cudaError_t e = sticky_error;
    pthread_mutex_unlock(&sticky_lock);
    return e;
}

void rt_say(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    ptxrunCudaReport(line);
}

cudaError_t rt_not_supported(const char *call, const char *why)
{
    rt_say("ptxrun's libcudart: %s is not supported yet%s%s", call, why ? ": " : "", why ? why : "");
    return rt_fail(cudaErrorNotSupported);
}

/* The last error, cleared; a sticky fault stays. */
cudaError_t cudaGetLastError(void)
{
    cudaError_t e = last_error, s = rt_sticky();
    last_error = cudaSuccess;
    return s != cudaSuccess ? s : e;
}

cudaError_t cudaPeekAtLastError(void)
{
    cudaError_t s = rt_sticky();
    return s != cudaSuccess ? s : last_error;
}

const char *cudaGetErrorName(cudaError_t error)
{
    const RtErrorText *t = error_text((int)error);
    return t ? t->name : "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t error)
{
    const RtErrorText *t = error_text((int)error);
    return t ? t->text : "unrecognized error code";
}
