/* drvlaunch.c: kernels: cuLaunchKernel, their attributes and the occupancy calculator. A launch
 * runs at once, on the host, through libptxrun (streams are in order): its buffers are every live
 * allocation of the driver but the launched module's own variables (which its kernels have
 * already), so any kernel reaches any of them and nothing else; its messages go to the report
 * stream after a line naming the kernel, its printf text to stdout, its trace to PTXRUN_TRACE's
 * file. A fault does not fail the launch call: it becomes the context's sticky error, which every
 * later call that can returns, as on a GPU: an access outside every allocation
 * CUDA_ERROR_ILLEGAL_ADDRESS, a misaligned one CUDA_ERROR_MISALIGNED_ADDRESS, an assertion
 * CUDA_ERROR_ASSERT, a deadlock or the step limit CUDA_ERROR_LAUNCH_TIMEOUT, anything else (a
 * trap, an undefined value under PTXRUN_STRICT) CUDA_ERROR_LAUNCH_FAILED; the kind is read off the
 * executor's first error message. A launch refused before it runs returns its error itself.
 * Requires: cuda.h. */
#include <stdlib.h>
#include <string.h>

#include "cuda.h"

enum { NUM_REGS = 32, WARP = 32 };   /* registers a thread is said to use (ptxrun allocates none) */

/* Whether f is a kernel of a live module. */
static bool function_ok(const DrvState *s, CUfunction f)
{
    for (size_t i = 0; f && i < s->handle_count; i++) {
        if (s->handles[i].kind != DRV_MODULE)
            continue;
        CUmodule m = s->handles[i].p;
        if (f >= m->funcs && f < m->funcs + m->func_count)
            return true;
    }
    return false;
}

/* What a launch's messages need: where they go, the kernel, the first fault's kind. */
typedef struct LaunchTalk {
    FILE *report, *trace;
    CUfunction f;
    bool named;                /* the line naming the kernel said */
    CUresult fault;            /* from the first error; CUDA_SUCCESS: none yet */
} LaunchTalk;

/* The CUDA error a GPU gives for the fault the executor's message describes. */
static CUresult fault_kind(const char *message)
{
    static const struct {
        const char *words;
        CUresult error;
    } kinds[] = {
        { "outside every region", CUDA_ERROR_ILLEGAL_ADDRESS },
        { "where the process has no memory", CUDA_ERROR_ILLEGAL_ADDRESS },
        { "writes to read-only", CUDA_ERROR_ILLEGAL_ADDRESS },
        { "outside surface", CUDA_ERROR_ILLEGAL_ADDRESS },
        { "which is not the handle of a", CUDA_ERROR_ILLEGAL_ADDRESS },   /* no live texture object */
        { "-byte aligned", CUDA_ERROR_MISALIGNED_ADDRESS },
        { "must start at a multiple of", CUDA_ERROR_MISALIGNED_ADDRESS },
        { "assertion failed", CUDA_ERROR_ASSERT },
        { "deadlock", CUDA_ERROR_LAUNCH_TIMEOUT },
        { "warp-steps of its own", CUDA_ERROR_LAUNCH_TIMEOUT },
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strstr(message, kinds[i].words))
            return kinds[i].error;
    return CUDA_ERROR_LAUNCH_FAILED;
}

static void name_kernel(LaunchTalk *t)
{
    if (t->named || !t->report)
        return;
    t->named = true;
    const char *cxx = t->f->kernel ? ptxrun_kernel_cxx_name(t->f->kernel) : NULL;
    fprintf(t->report, "ptxrun: in kernel '%s'%s%s%s:\n", t->f->name, cxx ? " (" : "", cxx ? cxx : "", cxx ? ")" : "");
}

static void launch_diag(void *context, const ptxrun_diagnostic *d)
{
    LaunchTalk *t = context;
    if (d->level == PTXRUN_ERROR && t->fault == CUDA_SUCCESS)
        t->fault = fault_kind(d->message);
    if (!t->report)
        return;
    name_kernel(t);
    fprintf(t->report, "%s\n", d->text);
    fflush(t->report);
}

static void launch_print(void *context, int stream, const char *text, size_t len)
{
    (void)context;
    FILE *f = stream == PTXRUN_PRINT_ERR ? stderr : stdout;
    fwrite(text, 1, len, f);
    if (f == stderr)
        fflush(f);
}

static void launch_trace(void *context, const char *text, size_t len)
{
    LaunchTalk *t = context;
    fwrite(text, 1, len, t->trace);
}

/* The parameters' addresses in an `extra` buffer, each at its alignment after the last; false
 * when extra is malformed or the buffer is short. */
static bool extra_params(ptxrun_kernel *k, void **extra, void **args, unsigned count)
{
    uint8_t *buffer = NULL;
    size_t *size = NULL;
    for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
            buffer = extra[i + 1];
        else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
            size = extra[i + 1];
        else
            return false;
    }
    if (count && (!buffer || !size))
        return false;
    size_t offset = 0;
    for (unsigned i = 0; i < count; i++) {
        ptxrun_param p;
        if (ptxrun_kernel_param(k, i, &p) != PTXRUN_OK)
            return false;
        size_t align = p.align ? p.align : 1;
        offset = (offset + align - 1) / align * align;
        if (offset + p.size > *size)
            return false;
        args[i] = buffer + offset;
        offset += p.size;
    }
    return true;
}

/* Bytes of the kernel's static .shared (.const) variables. */
static uint64_t space_bytes(const ptxrun_kernel *k, int space)
{
    const Program *p = &k->block->prog;
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < k->block->mem.count; i++) {
        const Region *r = &k->block->mem.regions[i];
        if (r->space == space && i != p->dynamic_region && i != p->reserved_region)
            bytes += r->size;
    }
    return bytes;
}

/* The most threads a block of f may have: .reqntid's or .maxntid's product, or CUDA's 1024. */
static unsigned max_threads(CUfunction f)
{
    const Function *fn = f->kernel->name->f;
    const PerfDirective *d = perf_find(fn, "reqntid");
    if (!d)
        d = perf_find(fn, "maxntid");
    uint64_t n = 1;
    for (uint32_t i = 0; d && i < d->count; i++)
        n *= d->values[i];
    return d && n < 1024 ? (unsigned)n : 1024;
}

static unsigned static_shared(CUfunction f)
{
    return (unsigned)space_bytes(f->kernel, SPACE_SHARED);
}

/* The dynamic .shared a launch may ask for: the attribute set, or what 48 KiB leaves. */
static unsigned dynamic_most(CUfunction f)
{
    unsigned fixed = static_shared(f);
    return f->max_dynamic_shared ? (unsigned)f->max_dynamic_shared : fixed < 48u << 10 ? (48u << 10) - fixed : 0;
}

static CUresult refused(DrvState *s, CUfunction f)
{
    if (s->settings.report && f->held.text) {
        LaunchTalk t = { .report = s->settings.report, .f = f };
        name_kernel(&t);
        fputs(f->held.text, s->settings.report);
        fflush(s->settings.report);
    }
    return f->status == PTXRUN_ERROR_UNSUPPORTED ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_PTX;
}

/* The launch's buffers: every live allocation but f's module's variables (a new array), and
 * their definedness (*shadows, a new array: device memory's shadow, NULL for all defined). */
static ptxrun_buffer *buffers(DrvState *s, CUfunction f, size_t *count, uint8_t ***shadows)
{
    ptxrun_buffer *b = xmalloc((s->mem_count + 1) * sizeof *b);
    *shadows = xcalloc(s->mem_count + 1, sizeof **shadows);
    size_t n = 0;
    for (size_t i = 0; i < s->mem_count; i++) {
        const DrvMem *m = &s->mems[i];
        if (m->kind == DRV_MEM_SYMBOL && m->module == f->module)
            continue;
        (*shadows)[n] = m->kind == DRV_MEM_DEVICE ? m->shadow : NULL;
        b[n++] = (ptxrun_buffer){ m->base, m->size,
                                  m->kind == DRV_MEM_REGISTERED && (m->flags & CU_MEMHOSTREGISTER_READ_ONLY) };
    }
    *count = n;
    return b;
}

/* What the run left undefined in device memory kept with it (the lock held): a shadow the launch
 * made for a buffer that had none is the allocation's if it is still there; memory the host
 * reaches stays defined (the host may write it behind the driver's back). */
static void keep_definedness(DrvState *s, const ptxrun_buffer *b, size_t count, uint8_t **shadows,
                             uint8_t *const *given)
{
    for (size_t i = 0; i < count; i++) {
        DrvMem *m = drv_mem_at(s, (uint64_t)(uintptr_t)b[i].data, DRV_MEM_DEVICE);
        if (shadows[i] && shadows[i] != given[i]) {
            if (m && m->size == b[i].size && !m->shadow)
                m->shadow = shadows[i];
            else
                free(shadows[i]);
        }
        if (m)
            drv_mem_settle(m);
    }
}

/* CTAs that run together (gang.c): a cooperative launch, the cluster's shape (0s: none). */
typedef struct Together {
    bool cooperative;
    unsigned cluster[3];
} Together;

static int blocks_per_sm(const DrvLimits *l, CUfunction f, int block, size_t dynamic);

/* A cooperative launch larger than the device keeps resident (the occupancy model's blocks a
 * multiprocessor, times its multiprocessors) is refused as CUDA refuses it. The lock held. */
static CUresult together_ok(DrvState *s, CUfunction f, const Together *t, uint64_t blocks, unsigned block,
                            unsigned shared)
{
    if (!t->cooperative)
        return CUDA_SUCCESS;
    DrvLimits l;
    drv_limits(s->settings.arch, &l);
    return blocks <= (uint64_t)blocks_per_sm(&l, f, (int)block, shared) * l.sms ? CUDA_SUCCESS
                                                                                  : CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
}

static CUresult launch_together(CUfunction f, unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX,
                                unsigned blockY, unsigned blockZ, unsigned shared_bytes, CUstream stream,
                                void **params, void **extra, const Together *together)
{
    DrvState *s;
    CUcontext ctx;
    CUresult r = drv_enter(&s, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!function_ok(s, f) || !drv_stream_ok(s, stream))
        r = CUDA_ERROR_INVALID_HANDLE;
    else if (!gridX || !gridY || !gridZ || !blockX || !blockY || !blockZ || (params && extra))
        r = CUDA_ERROR_INVALID_VALUE;
    else if (!f->kernel)
        r = refused(s, f);
    else if ((uint64_t)blockX * blockY * blockZ > max_threads(f))
        r = CUDA_ERROR_INVALID_VALUE;
    else if (shared_bytes > dynamic_most(f))
        r = CUDA_ERROR_INVALID_VALUE;
    else
        r = together_ok(s, f, together, (uint64_t)gridX * gridY * gridZ, blockX * blockY * blockZ, shared_bytes);
    unsigned count = f && r == CUDA_SUCCESS ? ptxrun_kernel_param_count(f->kernel) : 0;
    void **args = xcalloc(count + 1, sizeof *args);
    if (r == CUDA_SUCCESS && count && !params && !extra)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (r == CUDA_SUCCESS && extra && !extra_params(f->kernel, extra, args, count))
        r = CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; r == CUDA_SUCCESS && params && i < count; i++)
        if (!(args[i] = params[i]))
            r = CUDA_ERROR_INVALID_VALUE;
    if (r != CUDA_SUCCESS) {
        free(args);
        drv_unlock();
        return r;
    }
    LaunchTalk t = { .report = s->settings.report, .trace = s->settings.trace, .f = f };
    if (f->held.text && !f->told && t.report) {
        name_kernel(&t);
        fputs(f->held.text, t.report);
    }
    f->told = true;
    ptxrun_launch_options o = { .grid = { gridX, gridY, gridZ }, .block = { blockX, blockY, blockZ },
                                .shared_bytes = shared_bytes, .strict = s->settings.strict, .jobs = s->settings.jobs,
                                .callbacks = { .diagnostic = launch_diag, .print = launch_print,
                                               .trace = t.trace ? launch_trace : NULL, .context = &t },
                                .cluster = { together->cluster[0], together->cluster[1], together->cluster[2] },
                                .cooperative = together->cooperative };
    uint8_t **shadows;
    ptxrun_buffer *b = buffers(s, f, &o.buffer_count, &shadows);
    uint8_t **given = xmalloc((o.buffer_count + 1) * sizeof *given);
    memcpy(given, shadows, o.buffer_count * sizeof *given);
    o.buffers = b;
    DrvTexLaunch images;
    drvtex_launch(s, ctx, &images);
    /* The lock stays held through the run: the run reads and writes back every allocation's
     * definedness (shadows), so another thread's launch, copy or free in between would lose what
     * it did or have its freed shadow written (heap corruption with launches from 8 threads). A
     * GPU's cudaFree waits for the device too; the run calls no CUDA. */
    fflush(stdout);
    ptxrun_status status = library_launch_images(f->kernel, args, &o, shadows, images.images, images.count, NULL);
    drvtex_launch_free(&images);
    fflush(stdout);
    if (t.trace)
        fflush(t.trace);
    keep_definedness(s, b, o.buffer_count, shadows, given);
    if (status == PTXRUN_ERROR_FAULT && ctx->sticky == CUDA_SUCCESS)
        ctx->sticky = t.fault != CUDA_SUCCESS ? t.fault : CUDA_ERROR_LAUNCH_FAILED;
    drv_unlock();
    free(given);
    free(shadows);
    free(b);
    free(args);
    switch (status) {
    case PTXRUN_OK: return CUDA_SUCCESS;
    case PTXRUN_ERROR_FAULT: return CUDA_SUCCESS;
    case PTXRUN_ERROR_UNSUPPORTED: return CUDA_ERROR_NOT_SUPPORTED;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult cuLaunchKernel(CUfunction f, unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX,
                        unsigned blockY, unsigned blockZ, unsigned shared_bytes, CUstream stream, void **params,
                        void **extra)
{
    static const Together alone = { false, { 0, 0, 0 } };
    return launch_together(f, gridX, gridY, gridZ, blockX, blockY, blockZ, shared_bytes, stream, params, extra,
                           &alone);
}

/* Every CTA of the grid runs together with the others (grid.sync()); refused when the device
 * could not keep them all resident (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE). */
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX,
                                   unsigned blockY, unsigned blockZ, unsigned shared_bytes, CUstream stream,
                                   void **params)
{
    static const Together coop = { true, { 0, 0, 0 } };
    return launch_together(f, gridX, gridY, gridZ, blockX, blockY, blockZ, shared_bytes, stream, params, NULL,
                           &coop);
}

/* An attribute of cuLaunchKernelEx: CUDA_SUCCESS when the launch may run as cuLaunchKernel's
 * (hints, priorities and orderings change nothing when launches run at once, in order); *event
 * an event to record once it ran; an error otherwise (what ptxrun does not do is said). */
static CUresult launch_attribute(DrvState *s, const CUlaunchAttribute *a, CUevent *event, Together *t)
{
    const CUlaunchAttributeValue *v = &a->value;
    switch (a->id) {
    case CU_LAUNCH_ATTRIBUTE_IGNORE:
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
    case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
    case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION:
    case CU_LAUNCH_ATTRIBUTE_PRIORITY:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
    case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
    case CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING:
        return CUDA_SUCCESS;
    case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
        t->cooperative = v->cooperative != 0;
        return CUDA_SUCCESS;
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
        t->cluster[0] = v->clusterDim.x, t->cluster[1] = v->clusterDim.y, t->cluster[2] = v->clusterDim.z;
        return CUDA_SUCCESS;
    case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION:   /* a preference: the required shape rules */
        return CUDA_SUCCESS;
    case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT:
    case CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT:
        *event = a->id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT ? v->programmaticEvent.event
                                                                 : v->launchCompletionEvent.event;
        return drv_handle_has(s, DRV_EVENT, *event) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
    case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
        drv_report(s, "ptxrun's libcuda: cuLaunchKernelEx: graph attributes are not supported yet");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_ERROR_INVALID_VALUE;
}

/* cuLaunchKernel's launch with attributes: each is taken, refused, or (an event to trigger when
 * the launch has begun or ended) recorded once the launch has run. */
CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **params, void **extra)
{
    enum { MOST_EVENTS = 4 };
    CUevent events[MOST_EVENTS];
    unsigned event_count = 0;
    DrvState *s;
    Together together = { false, { 0, 0, 0 } };
    CUresult r = drv_enter(&s, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!config || (config->numAttrs && !config->attrs))
        r = CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; r == CUDA_SUCCESS && i < config->numAttrs; i++) {
        CUevent e = NULL;
        r = launch_attribute(s, &config->attrs[i], &e, &together);
        if (r == CUDA_SUCCESS && e && event_count < MOST_EVENTS)
            events[event_count++] = e;
    }
    drv_unlock();
    if (r != CUDA_SUCCESS)
        return r;
    r = launch_together(f, config->gridDimX, config->gridDimY, config->gridDimZ, config->blockDimX, config->blockDimY,
                        config->blockDimZ, config->sharedMemBytes, config->hStream, params, extra, &together);
    for (unsigned i = 0; r == CUDA_SUCCESS && i < event_count; i++) {
        s = drv_lock();
        if (drv_handle_has(s, DRV_EVENT, events[i])) {
            clock_gettime(CLOCK_MONOTONIC, &events[i]->at);
            events[i]->recorded = true;
        }
        drv_unlock();
    }
    return r;
}

/* The state locked with f a live kernel; or the error, the lock not held. */
static CUresult enter_function(DrvState **s, CUfunction f)
{
    CUresult r = drv_enter(s, NULL);
    if (r == CUDA_SUCCESS && !function_ok(*s, f)) {
        drv_unlock();
        r = CUDA_ERROR_INVALID_HANDLE;
    }
    return r;
}

CUresult cuFuncGetName(const char **name, CUfunction f)
{
    DrvState *s;
    CUresult r = enter_function(&s, f);
    if (r != CUDA_SUCCESS)
        return r;
    drv_unlock();
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    *name = f->name;
    return CUDA_SUCCESS;
}

CUresult cuFuncGetModule(CUmodule *module, CUfunction f)
{
    DrvState *s;
    CUresult r = enter_function(&s, f);
    if (r != CUDA_SUCCESS)
        return r;
    drv_unlock();
    if (!module)
        return CUDA_ERROR_INVALID_VALUE;
    *module = f->module;
    return CUDA_SUCCESS;
}

static CUresult function_attribute(const DrvState *s, CUfunction f, CUfunction_attribute a, int *value)
{
    if (!f->kernel)
        return refused((DrvState *)s, f);
    const Module *m = f->kernel->block->prog.m;
    switch (a) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = (int)max_threads(f); break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *value = (int)static_shared(f); break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *value = (int)space_bytes(f->kernel, SPACE_CONST); break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *value = (int)f->kernel->block->prog.funcs[0].frame_size; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *value = NUM_REGS; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *value = m->target_sm ? m->target_sm : (int)s->settings.arch; break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *value = (int)s->settings.arch; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *value = 0; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *value = (int)dynamic_most(f); break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *value = f->carveout; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: *value = 0; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int *value, CUfunction_attribute attribute, CUfunction f)
{
    DrvState *s;
    CUresult r = enter_function(&s, f);
    if (r != CUDA_SUCCESS)
        return r;
    r = value ? function_attribute(s, f, attribute, value) : CUDA_ERROR_INVALID_VALUE;
    drv_unlock();
    return r;
}

/* Where a kernel's parameter lies in its parameter buffer and its size (CUDA 12.4's call): each
 * at its alignment after the last, as `extra` lays them out; past the last, INVALID_VALUE. */
CUresult cuFuncGetParamInfo(CUfunction f, size_t index, size_t *offset, size_t *size)
{
    DrvState *s;
    CUresult r = enter_function(&s, f);
    if (r != CUDA_SUCCESS)
        return r;
    if (!f->kernel)
        r = refused(s, f);
    else if (!offset || !size || index >= ptxrun_kernel_param_count(f->kernel))
        r = CUDA_ERROR_INVALID_VALUE;
    size_t at = 0;
    for (size_t i = 0; r == CUDA_SUCCESS && i <= index; i++) {
        ptxrun_param p;
        if (ptxrun_kernel_param(f->kernel, (unsigned)i, &p) != PTXRUN_OK) {
            r = CUDA_ERROR_INVALID_VALUE;
            break;
        }
        size_t align = p.align ? p.align : 1;
        at = (at + align - 1) / align * align;
        if (i == index)
            *offset = at, *size = p.size;
        at += p.size;
    }
    drv_unlock();
    return r;
}

/* What may be set: the dynamic .shared a launch may ask for (up to the opt-in limit, less the
 * static), and the carveout (a preference, which changes nothing here). */
CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute attribute, int value)
{
    DrvState *s;
    CUresult r = enter_function(&s, f);
    if (r != CUDA_SUCCESS)
        return r;
    DrvLimits l;
    drv_limits(s->settings.arch, &l);
    if (!f->kernel)
        r = refused(s, f);
    else if (attribute == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
        if (value < 0 || (unsigned)value + static_shared(f) > l.shared_optin)
            r = CUDA_ERROR_INVALID_VALUE;
        else
            f->max_dynamic_shared = value;
    } else if (attribute == CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) {
        if (value < -1 || value > 100)
            r = CUDA_ERROR_INVALID_VALUE;
        else
            f->carveout = value;
    } else if (attribute >= CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH
               && attribute <= CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE) {
        drv_report(s, "ptxrun's libcuda: cuFuncSetAttribute: cluster attribute %d is not supported yet",
                   (int)attribute);
        r = CUDA_ERROR_NOT_SUPPORTED;
    } else
        r = CUDA_ERROR_INVALID_VALUE;
    drv_unlock();
    return r;
}

/* A preference of L1 over shared memory: nothing to change. */
CUresult cuFuncSetCacheConfig(CUfunction f, CUfunc_cache config)
{
    DrvState *s;
    CUresult r = enter_function(&s, f);
    if (r != CUDA_SUCCESS)
        return r;
    drv_unlock();
    return (unsigned)config <= CU_FUNC_CACHE_PREFER_EQUAL ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* The occupancy model (docs/cuda.md): blocks of a kernel one SM holds at once, the least of the
 * device's blocks per SM; its threads per SM over the block's threads rounded up to whole
 * warps; its registers (NUM_REGS a thread, whole warps) over the block's; and its shared memory
 * over the block's static and dynamic .shared with the 1 KiB the system reserves for each. */
static int blocks_per_sm(const DrvLimits *l, CUfunction f, int block, size_t dynamic)
{
    if (block <= 0 || (unsigned)block > max_threads(f))
        return 0;
    unsigned warps = ((unsigned)block + WARP - 1) / WARP;
    size_t shared = static_shared(f) + dynamic;
    if (shared > l->shared_optin)
        return 0;
    unsigned most = l->blocks_per_sm;
    unsigned by_threads = l->threads_per_sm / (warps * WARP), by_regs = l->regs_per_sm / (warps * WARP * NUM_REGS);
    unsigned by_shared = (unsigned)(l->shared_per_sm / (shared + l->reserved_shared));
    most = by_threads < most ? by_threads : most;
    most = by_regs < most ? by_regs : most;
    return (int)(by_shared < most ? by_shared : most);
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, CUfunction f, int block_size,
                                                              size_t dynamic_shared, unsigned flags)
{
    DrvState *s;
    CUresult r = enter_function(&s, f);
    if (r != CUDA_SUCCESS)
        return r;
    DrvLimits l;
    drv_limits(s->settings.arch, &l);
    if (!blocks || flags > 1)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (!f->kernel)
        r = refused(s, f);
    else
        *blocks = blocks_per_sm(&l, f, block_size, dynamic_shared);
    drv_unlock();
    return r;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, CUfunction f, int block_size, size_t dynamic_shared)
{
    return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, f, block_size, dynamic_shared, 0);
}

/* The block size (a multiple of the warp, the largest among those of the most threads per SM)
 * and the grid that fills every SM with it. shared_of_block, when given, says the dynamic .shared
 * each size needs (called without the driver's lock held). */
CUresult cuOccupancyMaxPotentialBlockSize(int *min_grid, int *block_size, CUfunction f,
                                          CUoccupancyB2DSize shared_of_block, size_t dynamic_shared, int block_limit)
{
    DrvState *s;
    CUresult r = enter_function(&s, f);
    if (r != CUDA_SUCCESS)
        return r;
    DrvLimits l;
    drv_limits(s->settings.arch, &l);
    if (!min_grid || !block_size || block_limit < 0)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (!f->kernel)
        r = refused(s, f);
    unsigned most = r == CUDA_SUCCESS ? max_threads(f) : 0;
    drv_unlock();
    if (r != CUDA_SUCCESS)
        return r;
    if (block_limit && (unsigned)block_limit < most)
        most = (unsigned)block_limit;
    int best = 0, best_blocks = 0;
    unsigned start = most >= WARP ? most / WARP * WARP : most;
    for (unsigned b = start; b > 0; b = b > WARP ? b - WARP : 0) {
        size_t dynamic = shared_of_block ? shared_of_block((int)b) : dynamic_shared;
        s = drv_lock();
        int n = blocks_per_sm(&l, f, (int)b, dynamic);
        drv_unlock();
        if ((long)n * b > (long)best_blocks * best) {
            best = (int)b;
            best_blocks = n;
        }
        if (b < WARP)
            break;
    }
    *block_size = best;
    *min_grid = best_blocks * (int)l.sms;
    return CUDA_SUCCESS;
}
