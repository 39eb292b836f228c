/* rtstate.c: the runtime's one state, behind one mutex: the fatbinaries, kernels and variables a
 * program registered (before main, from nvcc's static constructors), the device cudaSetDevice
 * chose, and its primary context, made current on each thread that calls. A fatbinary is loaded
 * by the driver when one of its kernels or variables is first used (CUDA's lazy loading), which
 * then writes the address of each __managed__ variable where nvcc's host code reads it.
 * Requires: the driver API (cudrv.h); rterror.c. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

typedef struct RtState {
    pthread_mutex_t lock;
    RtModule **modules;
    size_t module_count, module_cap;
    RtFunction **functions;
    size_t function_count, function_cap;
    RtVar **vars;
    size_t var_count, var_cap;
    int device;                /* cudaSetDevice's */
    unsigned device_flags;     /* cudaSetDeviceFlags' */
    CUcontext context;         /* the device's primary context, retained; NULL before the first call */
    unsigned generation;       /* counts contexts (cudaDeviceReset makes a new one) */
    CUresult init_error;       /* cuInit's failure, kept */
} RtState;

static RtState rt = { .lock = PTHREAD_MUTEX_INITIALIZER };
/* The context generation current on this thread (0: none yet). */
static _Thread_local unsigned thread_generation;

/* A growing array of pointers; false when memory runs out. */
static bool push(void ***items, size_t *count, size_t *cap, void *item)
{
    if (*count == *cap) {
        size_t n = *cap ? *cap * 2 : 16;
        void **grown = realloc(*items, n * sizeof *grown);
        if (!grown)
            return false;
        *items = grown;
        *cap = n;
    }
    (*items)[(*count)++] = item;
    return true;
}

CUresult rt_ready(void)
{
    pthread_mutex_lock(&rt.lock);
    CUresult r = rt.init_error;
    if (r == CUDA_SUCCESS && !rt.context) {
        CUdevice dev;
        r = cuInit(0) == CUDA_SUCCESS ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
        if (r == CUDA_SUCCESS)
            r = cuDeviceGet(&dev, rt.device);
        if (r == CUDA_SUCCESS)
            r = cuDevicePrimaryCtxRetain(&rt.context, dev);
        if (r == CUDA_SUCCESS)
            rt.generation++;
        else if (r != CUDA_ERROR_INVALID_DEVICE)
            rt.init_error = r;
    }
    CUcontext ctx = rt.context;
    unsigned generation = rt.generation;
    pthread_mutex_unlock(&rt.lock);
    if (r == CUDA_SUCCESS && thread_generation != generation) {
        r = cuCtxSetCurrent(ctx);
        if (r == CUDA_SUCCESS)
            thread_generation = generation;
    }
    return r;
}

cudaError_t rt_enter(void)
{
    cudaError_t e = rt_sticky();
    if (e != cudaSuccess)
        return rt_fail(e);
    return rt_return(rt_ready());
}

int rt_device(void)
{
    pthread_mutex_lock(&rt.lock);
    int d = rt.device;
    pthread_mutex_unlock(&rt.lock);
    return d;
}

void rt_set_device(int device)
{
    pthread_mutex_lock(&rt.lock);
    rt.device = device;
    pthread_mutex_unlock(&rt.lock);
}

unsigned rt_device_flags(void)
{
    pthread_mutex_lock(&rt.lock);
    unsigned f = rt.device_flags;
    pthread_mutex_unlock(&rt.lock);
    return f;
}

void rt_set_device_flags(unsigned flags)
{
    pthread_mutex_lock(&rt.lock);
    rt.device_flags = flags;
    pthread_mutex_unlock(&rt.lock);
}

/* cudaDeviceReset: the primary context goes (its memory, modules, streams and fault with it); the
 * next call makes a new one and loads the fatbinaries again when they are used. */
CUresult rt_reset(void)
{
    pthread_mutex_lock(&rt.lock);
    CUresult r = CUDA_SUCCESS;
    if (rt.context) {
        CUdevice dev;
        r = cuDeviceGet(&dev, rt.device);
        if (r == CUDA_SUCCESS)
            r = cuDevicePrimaryCtxReset_v2(dev);
        if (r == CUDA_SUCCESS)
            r = cuDevicePrimaryCtxRelease_v2(dev);
        rt.context = NULL;
        for (size_t i = 0; i < rt.module_count; i++) {
            rt.modules[i]->module = NULL;
            rt.modules[i]->load_error = CUDA_SUCCESS;
        }
        for (size_t i = 0; i < rt.function_count; i++)
            rt.functions[i]->function = NULL;
    }
    pthread_mutex_unlock(&rt.lock);
    rt_forget_sticky();
    return r;
}

RtModule *rt_module_add(const void *fatbin, unsigned version)
{
    RtModule *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->fatbin = fatbin;
    m->version = version;
    pthread_mutex_lock(&rt.lock);
    bool ok = push((void ***)&rt.modules, &rt.module_count, &rt.module_cap, m);
    pthread_mutex_unlock(&rt.lock);
    if (!ok) {
        free(m);
        return NULL;
    }
    return m;
}

/* Drops every record of one registered module (its kernels and variables too); frees the lists
 * when none is left, so a program that ends leaves nothing of the runtime's behind. */
void rt_module_remove(RtModule *m)
{
    pthread_mutex_lock(&rt.lock);
    size_t kept = 0;
    for (size_t i = 0; i < rt.function_count; i++) {
        if (rt.functions[i]->module == m)
            free(rt.functions[i]);
        else
            rt.functions[kept++] = rt.functions[i];
    }
    rt.function_count = kept;
    kept = 0;
    for (size_t i = 0; i < rt.var_count; i++) {
        if (rt.vars[i]->module == m) {
            free(rt.vars[i]->stand_in);
            free(rt.vars[i]);
        }
        else
            rt.vars[kept++] = rt.vars[i];
    }
    rt.var_count = kept;
    kept = 0;
    for (size_t i = 0; i < rt.module_count; i++)
        if (rt.modules[i] != m)
            rt.modules[kept++] = rt.modules[i];
    rt.module_count = kept;
    if (m->module && rt.context)
        cuModuleUnload(m->module);
    free(m);
    if (rt.module_count == 0) {
        free(rt.modules);
        free(rt.functions);
        free(rt.vars);
        rt.modules = NULL;
        rt.functions = NULL;
        rt.vars = NULL;
        rt.module_cap = rt.function_cap = rt.var_cap = 0;
    }
    pthread_mutex_unlock(&rt.lock);
}

void rt_function_add(RtModule *m, const void *host, const char *name)
{
    RtFunction *f = calloc(1, sizeof *f);
    if (!f)
        return;
    *f = (RtFunction){ .module = m, .host = host, .name = name };
    pthread_mutex_lock(&rt.lock);
    if (!push((void ***)&rt.functions, &rt.function_count, &rt.function_cap, f))
        free(f);
    pthread_mutex_unlock(&rt.lock);
}

void rt_var_add(RtModule *m, const void *host, const char *name, size_t size, void **managed)
{
    RtVar *v = calloc(1, sizeof *v);
    if (!v)
        return;
    *v = (RtVar){ .module = m, .host = host, .name = name, .size = size, .managed = managed };
    pthread_mutex_lock(&rt.lock);
    if (!push((void ***)&rt.vars, &rt.var_count, &rt.var_cap, v))
        free(v);
    pthread_mutex_unlock(&rt.lock);
}

/* With rt.lock held: whether a module has __managed__ variables; zeroed host bytes for each when
 * it cannot load, so that nvcc's host code, which reads them through the pointer, runs on (its
 * kernels fail at every launch) rather than dereference NULL. */
static bool has_managed(const RtModule *m)
{
    for (size_t i = 0; i < rt.var_count; i++)
        if (rt.vars[i]->module == m && rt.vars[i]->managed)
            return true;
    return false;
}

static void stand_in_managed(RtModule *m)
{
    for (size_t i = 0; i < rt.var_count; i++) {
        RtVar *v = rt.vars[i];
        if (v->module == m && v->managed && !*v->managed) {
            v->stand_in = calloc(1, v->size ? v->size : 1);
            *v->managed = v->stand_in;
        }
    }
}

/* With rt.lock held, the context current. */
static CUresult module_load_locked(RtModule *m)
{
    if (m->module)
        return CUDA_SUCCESS;
    if (m->load_error != CUDA_SUCCESS)
        return m->load_error;
    CUresult r = cuModuleLoadFatBinary(&m->module, m->fatbin);
    if (r != CUDA_SUCCESS) {
        m->module = NULL;
        m->load_error = r;
        const char *name = NULL;
        cuGetErrorName(r, &name);
        if (m->version == 2)
            rt_say("ptxrun's libcudart: the program was built with -rdc=true (relocatable device code): its "
                   "kernels need device-side linking, which ptxrun does not do yet; build it without -rdc");
        rt_say("ptxrun's libcudart: the program's device code could not be loaded (%s)%s", name ? name : "?",
               has_managed(m) ? "; its __managed__ variables are host memory no kernel sees" : "");
        stand_in_managed(m);
        return r;
    }
    for (size_t i = 0; i < rt.var_count; i++) {
        RtVar *v = rt.vars[i];
        if (v->module != m || !v->managed)
            continue;
        CUdeviceptr address;
        size_t size;
        if (cuModuleGetGlobal_v2(&address, &size, m->module, v->name) == CUDA_SUCCESS)
            *v->managed = (void *)(uintptr_t)address;
    }
    return CUDA_SUCCESS;
}

CUresult rt_module_load(RtModule *m)
{
    CUresult r = rt_ready();
    pthread_mutex_lock(&rt.lock);
    if (r != CUDA_SUCCESS)
        stand_in_managed(m);
    else
        r = module_load_locked(m);
    pthread_mutex_unlock(&rt.lock);
    return r;
}

RtFunction *rt_function_find(const void *host, cudaError_t *err)
{
    RtFunction *found = NULL;
    pthread_mutex_lock(&rt.lock);
    for (size_t i = 0; i < rt.function_count && !found; i++)
        if (rt.functions[i]->host == host || rt.functions[i] == host)
            found = rt.functions[i];
    pthread_mutex_unlock(&rt.lock);
    if (!found)
        *err = cudaErrorInvalidDeviceFunction;
    return found;
}

cudaError_t rt_function_load(RtFunction *f)
{
    CUresult r = rt_ready();
    if (r != CUDA_SUCCESS)
        return rt_return(r);
    bool missing = false;
    pthread_mutex_lock(&rt.lock);
    r = module_load_locked(f->module);
    if (r == CUDA_SUCCESS && !f->function && cuModuleGetFunction(&f->function, f->module->module, f->name) != CUDA_SUCCESS) {
        f->function = NULL;
        missing = true;
    }
    pthread_mutex_unlock(&rt.lock);
    if (missing) {
        rt_say("ptxrun's libcudart: the kernel %s is not in its fatbinary's PTX", f->name);
        return rt_fail(cudaErrorInvalidDeviceFunction);
    }
    return rt_return(r);
}

cudaError_t rt_var_find(const void *host, CUdeviceptr *address, size_t *size)
{
    CUresult r = rt_ready();
    if (r != CUDA_SUCCESS)
        return rt_return(r);
    RtVar *found = NULL;
    pthread_mutex_lock(&rt.lock);
    for (size_t i = 0; i < rt.var_count && !found; i++)
        if (rt.vars[i]->host == host)
            found = rt.vars[i];
    if (found) {
        r = module_load_locked(found->module);
        if (r == CUDA_SUCCESS)
            r = cuModuleGetGlobal_v2(address, size, found->module->module, found->name);
    }
    pthread_mutex_unlock(&rt.lock);
    if (!found)
        return rt_fail(cudaErrorInvalidSymbol);
    if (r == CUDA_ERROR_NOT_FOUND)
        return rt_fail(cudaErrorInvalidSymbol);
    return rt_return(r);
}

CUstream rt_stream(cudaStream_t s)
{
    return s == cudaStreamLegacy || s == cudaStreamPerThread ? NULL : (CUstream)s;
}
