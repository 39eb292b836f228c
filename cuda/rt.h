/* rt.h: the CUDA runtime shim's own declarations (cuda/rt*.c, libcudart.so.13 and .12): its one
 * state (registered fatbinaries, kernels and variables; the device's context), the per-thread last
 * error and sticky fault, and the helpers each call uses. The runtime is built on the driver API
 * alone (cudrv.h): device memory, modules, launches, streams and events are the driver's.
 * Requires: cudart.h, cudrv.h. */
#ifndef PTXRUN_RT_H
#define PTXRUN_RT_H

#include <stdbool.h>

#include "cudart.h"
#include "cudrv.h"

/* A fatbinary registered by __cudaRegisterFatBinary: its handle (void ** to nvcc's code) is the
 * address of this struct, whose first field is the fatbinary. */
typedef struct RtModule {
    const void *fatbin;        /* the fatbinary the wrapper points to (magic 0xBA55ED50) */
    unsigned version;          /* the wrapper's: 1 a compiled file's, 2 nvlink's (-rdc=true: device-linked) */
    CUmodule module;           /* loaded by the driver on first use; NULL before */
    CUresult load_error;       /* why loading failed (kept: said once, returned at each use) */
    bool gone;                 /* unregistered */
} RtModule;

/* A kernel: nvcc's host stub (the address a program launches by) and its PTX name. */
typedef struct RtFunction {
    RtModule *module;
    const void *host;
    const char *name;          /* the mangled name, as in the PTX */
    CUfunction function;       /* from the loaded module; NULL before */
} RtFunction;

/* A __device__, __constant__ or __managed__ variable: its host shadow, name and size. */
typedef struct RtVar {
    RtModule *module;
    const void *host;          /* &the host variable (a managed one: the pointer nvcc reads through) */
    const char *name;
    size_t size;
    void **managed;            /* __managed__: where the variable's address is written at load; or NULL */
    void *stand_in;            /* a managed variable's zeroed host bytes when its fatbinary cannot load */
} RtVar;

/* The per-thread default stream's names of a call (nvcc --default-stream per-thread: _ptds for a
 * synchronous call, _ptsz for one that takes a stream): the same function, every stream running in
 * order on the host. */
#define RT_SAME_AS(other, name) \
    extern __typeof__(name) other __attribute__((alias(#name), visibility("default")));

/* rterror.c: results. Every call returns through rt_return (or rt_fail): an error is remembered
 * as the thread's last error; a fault the driver reports (700 illegal address, 710 assert, ...) is
 * sticky: every later call that can return it does, and cudaGetLastError cannot clear it. */
cudaError_t rt_error_of(CUresult r);
cudaError_t rt_fail(cudaError_t e);
cudaError_t rt_return(CUresult r);
bool rt_is_sticky(cudaError_t e);
void rt_forget_sticky(void);                /* cudaDeviceReset */
cudaError_t rt_sticky(void);                /* the context's fault, or cudaSuccess */
/* What ptxrun does not do: a message naming the call on the report stream, and cudaErrorNotSupported. */
cudaError_t rt_not_supported(const char *call, const char *why);
void rt_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* rtstate.c: the process's runtime. rt_ready makes the device's primary context current on this
 * thread (cuInit and the context once for the process); each call that needs the device starts
 * with it and returns its error when it fails. */
CUresult rt_ready(void);
/* rt_ready for a call: the sticky fault when there is one (every call on a broken context returns
 * it, as on a GPU), else rt_ready's error, recorded; cudaSuccess when the device is ready. */
cudaError_t rt_enter(void);
int rt_device(void);                        /* the device cudaSetDevice chose (0) */
void rt_set_device(int device);
unsigned rt_device_flags(void);
void rt_set_device_flags(unsigned flags);
CUresult rt_reset(void);                    /* cudaDeviceReset: the context and the modules' loads */
RtModule *rt_module_add(const void *fatbin, unsigned version);
void rt_module_remove(RtModule *m);
void rt_function_add(RtModule *m, const void *host, const char *name);
void rt_var_add(RtModule *m, const void *host, const char *name, size_t size, void **managed);
CUresult rt_module_load(RtModule *m);       /* loads it (once) and writes its managed variables' addresses */
/* A kernel by its host stub or its cudaKernel_t (CUDA 12's calls take either; NULL and *err set
 * when unknown: cudaErrorInvalidDeviceFunction). */
RtFunction *rt_function_find(const void *host, cudaError_t *err);
cudaError_t rt_function_load(RtFunction *f);   /* its module loaded, its CUfunction found; errors recorded */
/* A variable by its host shadow's address: its device address and size (cudaErrorInvalidSymbol). */
cudaError_t rt_var_find(const void *host, CUdeviceptr *address, size_t *size);

/* A stream as the driver takes it: cudaStreamLegacy and cudaStreamPerThread are the NULL stream
 * (every stream runs on the host, in order). */
CUstream rt_stream(cudaStream_t s);

#endif
